"""How the window looks and which keys do what, kept in the settings file beside the group's rulings.

``settings.toml`` (in the user's data folder) holds three tables: ``[rulings]`` (``scenes/settings.py``),
``[display]`` (``scale``: 1.0-2.5, ``theme``: a name of ``theme.THEMES``) and ``[keys]``, which moves a binding to
other keys: ``"end_turn" = "E"`` or ``"redo" = ["Ctrl+Y", "F4"]``; the names are the help's (``H``). Writing one
table keeps the others. A broken value is left out with its reason (``problems``), never a reason not to start.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import paths
from ..rules.errors import InputError
from ..rules.files import read_document
from ..storage import write_document
from . import scale, theme


def settings_path() -> Path:
    """The settings file read: in the user's settings folder (``paths.settings_file``)."""
    return paths.settings_file()


def read_settings() -> dict[str, Any]:
    """The whole settings file; a missing or broken file reads as empty (its problem is ``Preferences.problems``)."""
    path = settings_path()
    try:
        data = read_document(path) if path.is_file() else {}
    except InputError:
        return {}
    return data if isinstance(data, dict) else {}


def write_table(name: str, table: dict[str, Any]) -> None:
    """Replace one table of the settings file, keeping the others (atomically)."""
    data = read_settings()
    if table:
        data[name] = table
    else:
        data.pop(name, None)
    write_document(settings_path(), data)


@dataclass
class Preferences:
    scale: float | None = None                  # None: not chosen yet (the first guess applies)
    theme: str = "standard"
    keys: dict[str, tuple[str, ...]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def load() -> Preferences:

    prefs = Preferences()
    path = settings_path()
    try:
        data = read_document(path) if path.is_file() else {}
    except InputError as e:
        prefs.problems.append(e.message())
        return prefs
    display = data.get("display", {})
    if not isinstance(display, dict):
        prefs.problems.append(f"{path}: [display] should be a table")
        display = {}
    if "scale" in display:
        try:
            prefs.scale = scale.parse(str(display["scale"]))
        except ValueError as e:
            prefs.problems.append(f"{path}: display.scale: {e}")
    name = display.get("theme", "standard")
    if name in theme.THEMES:
        prefs.theme = name
    else:
        prefs.problems.append(f"{path}: display.theme: expected one of {', '.join(theme.THEMES)} (got {name!r})")
    keys = data.get("keys", {})
    if not isinstance(keys, dict):
        prefs.problems.append(f"{path}: [keys] should be a table of binding = key or [keys]")
        keys = {}
    for binding, value in keys.items():
        values = (value,) if isinstance(value, str) else tuple(value) if isinstance(value, list) else None
        if values is None or not all(isinstance(v, str) for v in values):
            prefs.problems.append(f"{path}: keys.{binding}: expected a key such as \"E\" or a list of keys")
            continue
        prefs.keys[str(binding)] = values
    return prefs


def save_display(scale_value: float, theme_name: str) -> None:
    write_table("display", {"scale": round(scale_value, 2), "theme": theme_name})
