"""Saving the table editor's work and leaving it: the file, the overwrite question, the table view and the referee
mode on the saved table, and the help overlay."""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

from ..editing import Edit
from ..editor_autosave import clear_autosave
from ..table_data import load_table
from .editor_common import EDITOR_SHORTCUTS, error_text


class EditorSaving:
    """Mixed into ``EditorScene``."""

    def _path_from_entry(self) -> Path:
        entry = self.entries.get("path")
        text = entry.get_text().strip() if entry is not None else ""
        return Path(text).expanduser() if text else self.save_path

    def _name_from_entry(self) -> Edit | None:
        entry = self.entries.get("name")
        if entry is None or entry.get_text().strip() == self.editor.scenario.name:
            return None
        return self.editor.rename(entry.get_text())

    def save(self, path: Path | str | None = None) -> Edit:
        renamed = self._name_from_entry()
        if renamed is not None and not renamed.ok:
            return self.report(renamed)
        path = Path(path) if path is not None else self._path_from_entry()
        edit = self.editor.save(path, overwrite=self.overwrite_armed == path)
        self.overwrite_armed = path if edit.confirm else None
        if edit.ok:
            clear_autosave()
            self.save_path = path
            entry = self.entries.get("path")
            if entry is not None and entry.get_text() != str(path):
                entry.set_text(str(path))
        return self.report(edit)

    def ask_referee(self, path: Path | str | None = None):
        """Save, then open the saved file in the table view (pushed over the editor). Returns the scene or None."""
        from .table import TableScene

        edit = self.save(path)
        if not edit.ok:
            return None
        try:
            table = load_table(self.save_path)
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: cannot happen for a file the loader just accepted
            traceback.print_exc(file=sys.stderr)
            self.say(False, f"Saved, but the table view could not open it: {error_text(e)}")
            return None
        scene = TableScene(table)
        if self.app is not None:
            self.app.push(scene)
        return scene

    def referee_battle(self, path: Path | str | None = None):
        """Save, then start a refereed battle on the saved table (pushed over the editor). Returns the scene."""
        from ...rules.scenario import load_scenario
        from ..referee_battle import RefereeSession
        from .referee import RefereeScene

        edit = self.save(path)
        if not edit.ok:
            return None
        try:
            session = RefereeSession.from_scenario(load_scenario(self.save_path))
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: cannot happen for a file the loader just accepted
            traceback.print_exc(file=sys.stderr)
            self.say(False, f"Saved, but the battle could not start: {error_text(e)}")
            return None
        scene = RefereeScene(session)
        if self.app is not None:
            self.app.push(scene)
        return scene

    def leave(self) -> None:
        if self.editor.dirty and not self.leave_armed:
            self.leave_armed = True
            self.say(False, "This table has changes that are not saved. Save it, or press Menu again to leave "
                            "without saving.")
            return
        clear_autosave()               # the user chose to leave it
        if self.app is not None:
            self.app.pop()

    def open_help(self) -> None:
        from .help import HelpScene

        if self.app is not None:
            try:
                self.app.push(HelpScene(EDITOR_SHORTCUTS))
            except TypeError:          # a help overlay that only knows the table view's keys
                self.app.push(HelpScene())
