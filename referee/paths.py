"""Where the bundled game data and the user's own files live.

The bundled data and tables ship inside the package (``referee/data``, ``referee/scenarios``), so an installed
wheel finds them from any directory; the source tree shows them at top level through links to the same folders.
"""

from __future__ import annotations

import os
from pathlib import Path


def _package_folder(name: str) -> Path:
    # The loaders read files with pathlib (globs, stat, error messages naming the file), so the bundled folders must
    # be real folders on disk: true of every installed wheel and editable install, not of a zipped import. The
    # package's own folder says where they are without importlib.resources, whose import a one-shot query pays.
    folder = Path(__file__).resolve().parent / name
    if not folder.is_dir():
        raise RuntimeError(f"seven-seconds must be installed as files on disk; cannot read bundled {name!r} from {folder}")
    return folder


DATA_DIR = _package_folder("data")
SCENARIO_DIR = _package_folder("scenarios")
DEFAULT_SCENARIO = SCENARIO_DIR / "pastoral-hills.toml"
# The source checkout (tests and benchmarks read its docs/ and the package's own files); in an installed wheel this
# is site-packages and nothing in the program uses it.
ROOT = Path(__file__).resolve().parent.parent


def table_file(text: str) -> Path:
    """The scenario file a command line names: the file itself if it exists, else the bundled table of that name.

    ``scenarios/pastoral-hills.toml``, ``pastoral-hills.toml`` and ``pastoral-hills`` all open the bundled table
    from any directory, so the README's examples work with an installed wheel; a file of that name that exists
    always wins, and a name that is neither is returned unchanged so its error names what was typed.
    """
    given = Path(text)
    if given.exists() or given.is_absolute() or given.parent not in (Path("."), Path("scenarios")):
        return given
    for suffix in ("", ".toml", ".json"):
        bundled = SCENARIO_DIR / (given.name + suffix)
        if bundled.suffix in (".toml", ".json") and bundled.is_file():
            return bundled
    return given


def user_data_dir() -> Path:
    """Custom factions, cards and saves; SEVEN_SECONDS_HOME overrides it (tests, portable installs)."""
    override = os.environ.get("SEVEN_SECONDS_HOME")
    if override:
        return Path(override)
    # lazy: most commands never ask where the user's files are, and a query should not pay for the import
    import platformdirs

    return Path(platformdirs.user_data_dir("seven-seconds", appauthor=False))


def user_factions_dir() -> Path:
    return user_data_dir() / "factions"


def user_cards_dir() -> Path:
    return user_data_dir() / "cards"


def kept_dir() -> Path:
    """Where this computer keeps its sides' secrets of battles played with another computer, and its own notes of
    them: outside the saves folder, for its owner alone."""
    return user_data_dir() / "kept"


def saves_dir() -> Path:
    return user_data_dir() / "saves"


def user_tables_dir() -> Path:
    """Where the table editor saves the user's own tables unless told otherwise."""
    return user_data_dir() / "tables"


def browse_tables_from() -> Path:
    """Where a Browse… for a table opens: the user's own tables once there are any, else the bundled ones."""
    own = user_tables_dir()
    if own.is_dir() and any(p.suffix in (".toml", ".json") for p in own.iterdir()):
        return own
    return SCENARIO_DIR if SCENARIO_DIR.is_dir() else Path.cwd()
def user_config_dir() -> Path:
    """The user's settings; SEVEN_SECONDS_HOME keeps everything of a portable install (and of the tests) in one
    folder."""
    override = os.environ.get("SEVEN_SECONDS_HOME")
    if override:
        return Path(override)
    import platformdirs     # lazy: as in user_data_dir

    return Path(platformdirs.user_config_dir("seven-seconds", appauthor=False))


def settings_file() -> Path:
    """The window's settings file. One written by an earlier version beside the saves is read until a new one is
    written in the settings folder."""
    path = user_config_dir() / "settings.toml"
    earlier = user_data_dir() / "settings.toml"
    if not path.exists() and earlier.is_file():
        return earlier
    return path


def user_cache_dir() -> Path:
    """Where the program keeps what it can make again (the checked bundled and user files): deleting it loses
    nothing but the next start's speed. ``SEVEN_SECONDS_CACHE`` moves it alone (a portable install whose cache goes
    elsewhere; the tests, which give each test a home of its own but share what was checked)."""
    override = os.environ.get("SEVEN_SECONDS_CACHE")
    if override:
        return Path(override)
    override = os.environ.get("SEVEN_SECONDS_HOME")
    if override:
        return Path(override) / "cache"
    import platformdirs     # lazy: as in user_data_dir

    return Path(platformdirs.user_cache_dir("seven-seconds", appauthor=False))


def user_log_dir() -> Path:
    """Where the window's log goes, so that a window started from an icon leaves a report of a failure."""
    override = os.environ.get("SEVEN_SECONDS_HOME")
    if override:
        return Path(override) / "logs"
    import platformdirs     # lazy: as in user_data_dir

    return Path(platformdirs.user_log_dir("seven-seconds", appauthor=False))
