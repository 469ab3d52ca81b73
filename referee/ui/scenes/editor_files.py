"""Saving the table editor's work and leaving it: the file, the overwrite question, the table view and the referee
mode on the saved table, and the help overlay."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .. import keys
from ..editing import Edit
from ..editor_autosave import clear_autosave
from ..table_data import load_table
from .editor_base import EditorBase
from .editor_common import error_text
from ...logs import failure


def free_name(path: Path) -> Path:
    """``redoubt-2.toml`` (or -3, ...): a name beside ``path`` that no file has yet."""
    n = 2
    while path.with_name(f"{path.stem}-{n}{path.suffix}").exists():
        n += 1
    return path.with_name(f"{path.stem}-{n}{path.suffix}")


class EditorSaving(EditorBase):
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

    def save(self, path: Path | str | None = None, then: Callable[[], object] | None = None) -> Edit:
        """Save the table to ``path`` (default: the path box). A file that holds another table is replaced only after
        the Overwrite / Save as... / Cancel question; ``then`` runs once the table is saved (after that question
        too)."""
        renamed = self._name_from_entry()
        if renamed is not None and not renamed.ok:
            return self.report(renamed)
        path = Path(path) if path is not None else self._path_from_entry()
        edit = self._write(path, overwrite=False)
        if edit.confirm:
            self.ask_overwrite(path, edit, then)
        return edit

    def _write(self, path: Path, overwrite: bool) -> Edit:
        edit = self.editor.save(path, overwrite=overwrite)
        if edit.ok:
            clear_autosave()
            self.save_path = path
            entry = self.entries.get("path")
            if entry is not None and entry.get_text() != str(path):
                entry.set_text(str(path))
        return self.report(edit)

    def ask_overwrite(self, path: Path, refused: Edit, then: Callable[[], object] | None) -> None:
        """The file holds another table: Overwrite it, save this table under another name, or Cancel."""
        app = self.app
        if app is None:
            return

        def closed(answer) -> None:
            if answer == "overwrite":
                if self._write(path, overwrite=True).ok and then is not None:
                    then()
            elif answer == "save-as":
                app.push_scene(
                    "text-dialog", "Save as...", ["The file name to save this table under (.toml or .json)."],
                    str(free_name(path)), lambda text: text and self.save(Path(text).expanduser(), then), ok="Save")
            else:
                self.say(False, f"Not saved: {path} is left as it was")

        app.push_scene("dialog", f"Replace {path.name}?", [
            refused.message.removeprefix("Not saved: ").split(". ", 1)[0] + ".",
            "Overwrite it with this table, save this table as another file, or cancel."],
            [("overwrite", "Overwrite"), ("save-as", "Save as..."), ("cancel", "Cancel")], closed, columns=3)

    def ask_referee(self, path: Path | str | None = None):
        """Save, then open the saved file in the table view (pushed over the editor). Returns the scene or None."""
        edit = self.save(path, then=self._open_table_view)
        return self._open_table_view() if edit.ok else None

    def _open_table_view(self):
        try:
            table = load_table(self.save_path)
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: cannot happen for a file the loader just accepted
            failure(f"opening the saved table {self.save_path} failed")
            self.say(False, f"Saved, but the table view could not open it: {error_text(e)}")
            return None
        return self.push_scene("table", table)

    def referee_battle(self, path: Path | str | None = None):
        """Save, then start a refereed battle on the saved table (pushed over the editor). Returns the scene."""
        edit = self.save(path, then=self._start_referee)
        return self._start_referee() if edit.ok else None

    def _start_referee(self):
        # Imported when first used: a refereed battle needs the engine, the editor alone does not.
        from ...rules.scenario import load_scenario
        # lazy: the referee's session loads only when a refereed battle starts
        from ...service.referee import RefereeSession

        try:
            session = RefereeSession.from_scenario(load_scenario(self.save_path))
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: cannot happen for a file the loader just accepted
            failure(f"refereeing the saved table {self.save_path} failed")
            self.say(False, f"Saved, but the battle could not start: {error_text(e)}")
            return None
        return self.push_scene("referee", session)

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
        self.push_scene("help", keys.help_groups(self.key_table))
