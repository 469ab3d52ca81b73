"""The table editor's photo: every piece of the table placed at once where a photo of the physical table shows it.

The table file names the pieces (``seven-seconds markers`` printed their markers from it); the photo says where each
stands. Units, blips and objectives move to where their markers are read, troopers turn to their facing, terrain
takes the outline its markers give. It is one edit (Ctrl+Z takes it back whole), checked like any other; pieces the
photo does not show stay where they were, and the message names them.
"""

from __future__ import annotations

from .. import editing
from .dialogs import TextDialog
from .editor_base import EditorBase
from ...rules.errors import InputError


class EditorPhoto(EditorBase):
    """Mixed into ``EditorScene``."""

    def ask_photo(self) -> bool:
        """Ctrl+P: the photo's file (or ``camera``)."""
        if self.app is None:
            return False
        self.app.push(TextDialog("Place every piece from a photo", [
            "Type the photo's file name (the whole table with the markers seven-seconds markers printed for this "
            "table), or camera for a frame from the webcam.",
            "One edit: Ctrl+Z takes it back."], "", lambda text: text and self.place_from_photo(text), ok="Read it"))
        return True

    def place_from_photo(self, source: str) -> editing.Edit:
        # lazy: OpenCV and the photo reader load only when a photo is placed
        from ...capture.photo import load_photo, read_photo, webcam_frame
        # lazy: OpenCV and the photo reader load only when a photo is placed
        from ...capture.tables import placed, plan_of_scenario

        try:
            words = source.split()
            image = webcam_frame(int(words[1]) if len(words) > 1 and words[1].isdigit() else 0) \
                if words and words[0].lower() == "camera" else load_photo(source)
        except InputError as e:
            return self.report(editing.Edit(False, f"Photo not read: {e.message()}"))
        plan = plan_of_scenario(self.editor.scenario)
        reading = read_photo(image, plan)
        problems = tuple(p.text for p in reading.problems)
        if not reading.usable:
            return self.report(editing.Edit(False, "Nothing placed: " + (problems[0] if problems else "no table"),
                                            None, problems))
        candidate, count = placed(self.editor.scenario, reading)
        edit = self.editor.place_all(candidate, f"Placed {count} pieces from the photo"
                                     + (f"; {len(problems)} problems (below)" if problems else ""))
        if edit.ok and problems:
            edit = editing.Edit(True, edit.message, None, ("",) + problems)
        self.fitted = False
        return self.report(edit)
