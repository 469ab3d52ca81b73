"""Where the bundled game data and the user's own files live."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
SCENARIO_DIR = ROOT / "scenarios"
DEFAULT_SCENARIO = SCENARIO_DIR / "pastoral-hills.toml"


def user_data_dir() -> Path:
    """Custom factions, cards and saves; SEVEN_SECONDS_HOME overrides it (tests, portable installs)."""
    override = os.environ.get("SEVEN_SECONDS_HOME")
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("seven-seconds", appauthor=False))


def user_factions_dir() -> Path:
    return user_data_dir() / "factions"


def user_cards_dir() -> Path:
    return user_data_dir() / "cards"


def saves_dir() -> Path:
    return user_data_dir() / "saves"
