"""What the players chose for the window and expect again when a battle is resumed (a crash, Load, the next
evening): whether side B's player sees the table turned, its own edge at the bottom (U). Kept in the user's data
folder; a missing or broken file is the default, never an error."""

from __future__ import annotations

from pathlib import Path

from .. import paths
from ..rules.errors import InputError
from ..rules.files import read_document
from ..storage import write_document


def seat_path() -> Path:
    return paths.user_data_dir() / "window.toml"


def own_edge_down() -> bool:
    """Did the players last choose to see the table from each one's own edge (U)?"""
    path = seat_path()
    try:
        data = read_document(path) if path.is_file() else {}
    except (InputError, OSError):
        return False
    return data.get("own_edge_down") is True


def remember_own_edge_down(value: bool) -> None:
    """Kept for the next battle and the next resume; a folder that cannot be written only loses the preference."""
    try:
        path = seat_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        write_document(path, {"own_edge_down": bool(value)})
    except OSError:
        pass
