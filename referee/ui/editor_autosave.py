"""The table editor's safety copy: the table as it stands after every edit, so a crash or a closed window loses
nothing (no pygame here).

One copy is kept, in the user's folder. It is written atomically whenever the table changes and is not saved, and
removed once the table is saved or deliberately abandoned. The editor's start screen offers to recover it.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..rules.errors import InputError
from ..rules.scenario import parse_scenario
from ..storage import atomic_write_text
from .editing import TableEditor

KIND = "seven-seconds table editor autosave"


def autosave_path() -> Path:
    return paths.user_data_dir() / "editor-autosave.json"


@dataclass(frozen=True)
class Recovered:
    editor: TableEditor
    save_path: Path | None
    saved_at: str

    @property
    def counts(self) -> str:
        s = self.editor.scenario
        return (f"{len(s.terrain)} terrain, {len(s.units)} units, {len(s.blips)} blips, "
                f"{len(s.objectives)} objectives")

    @property
    def summary(self) -> str:
        return f"{self.editor.scenario.name!r} ({self.counts}), kept at {self.saved_at}"


def write_autosave(editor: TableEditor, save_path: Path | None) -> Path:
    """The table as it stands; raises ``OSError`` if the user's folder cannot be written."""
    data = {
        "kind": KIND,
        "saved_at": _dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "source": str(editor.source) if editor.source is not None else None,
        "save_path": str(save_path) if save_path is not None else None,
        "scenario": editor.scenario_data(),
    }
    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=1) + "\n", private=True)   # may hold blip contents
    return path


def clear_autosave() -> None:
    try:
        autosave_path().unlink()
    except FileNotFoundError:
        pass


def read_autosave() -> Recovered | None:
    """The kept table, or None when there is none. A damaged copy raises ``InputError`` saying what is wrong."""
    path = autosave_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as e:
        raise InputError(str(path), f"cannot be read ({e.strerror or e})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(str(path), f"not valid JSON at line {e.lineno}: the copy is damaged") from None
    if not isinstance(data, dict) or data.get("kind") != KIND or not isinstance(data.get("scenario"), dict):
        raise InputError(str(path), f"kind: expected {KIND!r}")
    source = Path(data["source"]) if data.get("source") else None
    scenario = parse_scenario(data["scenario"], str(path), source.parent if source is not None else None)
    editor = TableEditor(scenario, source)
    editor.revision = 1            # recovered work is not saved work
    save_path = Path(data["save_path"]) if data.get("save_path") else None
    return Recovered(editor, save_path, str(data.get("saved_at", "an unknown time")))
