"""The table editor's events: mouse, wheel and keys, and the safety copy written after each."""

from __future__ import annotations

import pygame
import pygame_gui

from ...logs import failure
from .. import keys
from ..editing import Edit
from ..editor_autosave import write_autosave
from .editor_base import EditorBase
from .editor_common import (
    BLIP,
    CIRCLE,
    DRAG_PIXELS,
    FINE_STEP,
    OBJECTIVE,
    PAN_STEP,
    POLYGON,
    ROTATE_STEP,
    SELECT,
    TOOL_HINTS,
    TOOLS,
    UNIT,
    ZOOM_STEP,
)


class EditorEvents(EditorBase):
    """Mixed into ``EditorScene``."""

    def handle_event(self, event) -> bool:
        try:
            return self._handle(event)
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: the window must survive anything a click can do
            failure(f"the table editor failed on {pygame.event.event_name(event.type)}")
            self.failures.append(f"{type(e).__name__}: {e}")
            self.drag_id = None
            self.circle_centre = None
            self.say(False, f"That did not work: {type(e).__name__}: {e}")
            return True
        finally:
            self.keep_safe()

    def keep_safe(self) -> None:
        """Write the safety copy whenever the table changed since the last one (and is not saved)."""
        ed = self.editor
        if ed.revision == self.autosaved_revision:
            return
        self.autosaved_revision = ed.revision
        if not ed.dirty:
            return
        try:
            write_autosave(ed, self.save_path)
            self.autosave_error = ""
        except OSError as e:
            self.autosave_error = f"The safety copy could not be written ({e.strerror or e}): save by hand"
            self.message_more += (self.autosave_error,)

    def typing(self) -> bool:
        """A text field has the keyboard: keys are letters for it, never shortcuts."""
        return any(e.is_focused for e in self.entries.values())

    def _handle(self, event) -> bool:
        if event.type == pygame.KEYDOWN and self.typing():
            if event.key == pygame.K_ESCAPE:
                for e in self.entries.values():
                    e.unfocus()
            elif self.manager is not None:
                self.manager.process_events(event)
            return True
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._button(event.ui_element)
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            if event.ui_element is self.entries.get("name"):
                renamed = self._name_from_entry()
                if renamed is not None:
                    self.report(renamed)
            elif event.ui_element is self.entries.get("path"):
                self.save()
            return True
        if event.type == pygame.MOUSEMOTION:
            return self._motion(event)
        if event.type == pygame.MOUSEBUTTONDOWN:
            return self._mouse_down(event)
        if event.type == pygame.MOUSEBUTTONUP:
            return self._mouse_up(event)
        if event.type == pygame.MOUSEWHEEL:
            return self._wheel(event)
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        return False

    def _button(self, element) -> bool:
        for key, b in self.buttons.items():
            if b is not element:
                continue
            if key in dict((t, 1) for t, _, _ in TOOLS):
                self.set_tool(key)
            elif key == "undo":
                self.undo()
            elif key == "fit":
                self.fit()
            elif key == "help":
                self.open_help()
            elif key == "menu":
                self.leave()
            elif key == "save":
                self.save()
            elif key == "ask":
                self.ask_referee()
            elif key == "referee":
                self.referee_battle()
            return True
        return False

    def _motion(self, event) -> bool:
        pos = self.mouse = event.pos
        if self.panning:
            self.pan(*event.rel)
            return True
        self.hover = self.item_at(pos) if self.on_table(pos) else None
        self.corner_motion(pos)
        if self.drag_id is not None:
            x, y = self.view.to_table(*pos)
            self.drag_to = (round(x - self.drag_offset[0], 1), round(y - self.drag_offset[1], 1))
        if self.circle_centre is not None:
            self.circle_edge = self.view.to_table(*pos)
        return True

    def _mouse_down(self, event) -> bool:
        pos = self.mouse = event.pos
        if self.tool == SELECT and self.corner_mouse_down(event):
            return True
        if event.button in (2, 3) and self.on_table(pos):
            self.panning = True
            return True
        if event.button != 1:
            return False
        chip = self.chip_at(pos)
        if chip is not None:
            if chip.enabled:
                self.choose(chip.key)
            return True
        if not self.on_table(pos):
            return False
        point = self.table_point(pos)
        if self.tool == POLYGON:
            if self._closes_polygon(pos):
                self.close_polygon()
            else:
                self.add_corner(point)
            return True
        if self.tool == CIRCLE:
            self.circle_centre = self.draft.clamp(*point)
            self.circle_edge = self.circle_centre
            return True
        ident = self.piece_at(pos)
        if ident is None and self.tool == SELECT:
            ident = self.terrain_at(pos)
        if ident is not None:
            self.select(ident)
            self._start_drag(ident, pos)
            return True
        if self.tool == SELECT:
            self.select(None)
            self.say(True, TOOL_HINTS[SELECT])
        else:
            self.place_at(point)
        return True

    def _start_drag(self, ident: str, pos) -> None:
        x, y = self.view.to_table(*pos)
        if self.editor.kind_of(ident) == "terrain":
            cx, cy = self.editor.terrain_centre(ident)
        else:
            e = self.editor.entry(ident)
            cx, cy = e.x, e.y
        self.drag_id, self.drag_start, self.drag_to = ident, pos, None
        self.drag_offset = (x - cx, y - cy)

    def _mouse_up(self, event) -> bool:
        pos = self.mouse = event.pos
        if event.button in (2, 3):
            was, self.panning = self.panning, False
            return was
        if self.corner_mouse_up(event):
            return True
        if event.button != 1:
            return False
        if self.circle_centre is not None:
            self.circle_edge = self.view.to_table(*pos)
            self.finish_circle()
            return True
        if self.drag_id is not None and self.drag_start is not None:      # set together by ``_start_drag``
            ident, start = self.drag_id, self.drag_start
            self.drag_id = self.drag_start = None
            moved = abs(pos[0] - start[0]) + abs(pos[1] - start[1]) > DRAG_PIXELS
            if moved:
                x, y = self.view.to_table(*pos)
                to = (round(x - self.drag_offset[0], 1), round(y - self.drag_offset[1], 1))
                self.drag_to = None
                edit = self.editor.move(ident, *to)
                if not edit.ok:
                    edit = Edit(False, edit.message + "; it stays where it was", ident, edit.problems)
                self.report(edit)
            self.drag_to = None
            return True
        return False

    def _wheel(self, event) -> bool:
        pos = self.mouse
        if self.layout.options.collidepoint(pos):
            self.scroll_options(-event.y * 40)
            return True
        if not self.on_table(pos):
            return False
        self.zoom(ZOOM_STEP ** event.y, pos)
        return True

    def _key(self, event) -> bool:
        return keys.dispatch(self.key_table, self, event)

    # ---- what the keys do (``editor_common.EDITOR_KEYS``) -----------------------------------------------------------------------
    def polygon_close(self) -> bool:
        if self.tool != POLYGON:
            return False
        self.close_polygon()
        return True

    def polygon_back(self) -> bool:
        if self.tool != POLYGON:
            return False
        self.say(*self._edit_text(self.draft.remove_last()))
        return True

    def polygon_cancel(self) -> bool:
        if self.tool != POLYGON:
            return False
        if len(self.draft):
            self.draft.clear()
            self.say(True, "Polygon cancelled")
        else:
            self.set_tool(SELECT)
        return True

    def exact_by_key(self) -> bool:
        if self.tool in (UNIT, BLIP, OBJECTIVE):
            self.type_placement()
            return True
        if self.tool != SELECT or not self.selected:
            return False
        self.open_exact(self.selected)
        return True

    def next_problem(self) -> None:
        """Tab: select the next piece a problem names, so that one drawn off the screen (x=500) can still be
        reached: Enter then types where it goes."""
        items = sorted(self.editor.problem_items())
        if not items:
            self.say(True, "No piece has a problem")
            return
        after = [i for i in items if self.selected is None or i > self.selected]
        ident = (after or items)[0]
        self.set_tool(SELECT)
        self.select(ident)
        problems = self.editor.problem_items()[ident]
        self.say(False, f"{ident}: {problems[0]} (Enter: type its place or values; Tab: the next piece)")

    def type_placement(self) -> None:
        """Enter with the Unit, Blip or Objective tool: where the piece goes, typed as x and y; a spot the table
        refuses keeps the dialog open with the reason."""
        what = {UNIT: "unit", BLIP: "blip", OBJECTIVE: "objective"}[self.tool]

        def check(text: str) -> str:
            try:
                x, y = (float(v) for v in text.replace(",", " ").split())
            except ValueError:
                return f"type two numbers, x and y in inches, for example \"12.5 8\" (got {text!r})"
            edit = self.place_at((x, y))
            return "" if edit.ok else edit.message

        self.push_scene("text-dialog", f"Place a {what} exactly",
                        ["x and y of its centre in inches (x along side A's edge, y toward side B's), as measured "
                         "on the table. One line, one edit: Ctrl+Z undoes it."], "", lambda text: None,
                        ok="Place it", check=check)

    def rotate_by_key(self, event) -> None:
        hovered = self.hover if self.hover and self.editor.kind_of(self.hover) == "unit" else None
        step = FINE_STEP if event.mod & pygame.KMOD_SHIFT else ROTATE_STEP
        ident = hovered or self.selected
        if ident is None:
            self.say(False, "Point at a trooper or select it (or a terrain piece), then Q / E turns it")
        else:
            self.report(self.editor.rotate(ident, step if event.key == pygame.K_q else -step))

    def plus_minus(self, event) -> None:
        plus = event.key in keys.PLUS
        if self.selected:
            self.act("plus" if plus else "minus")
        else:
            self.zoom(ZOOM_STEP if plus else 1 / ZOOM_STEP)

    def pan_by_key(self, event) -> None:
        dx, dy = {pygame.K_LEFT: (PAN_STEP, 0), pygame.K_RIGHT: (-PAN_STEP, 0), pygame.K_UP: (0, PAN_STEP),
                  pygame.K_DOWN: (0, -PAN_STEP)}[event.key]
        self.pan(dx, dy)

    def escape(self) -> None:
        if self.tool != SELECT:
            self.set_tool(SELECT)
        elif self.selected is not None:
            self.select(None)
            self.say(True, TOOL_HINTS[SELECT])
        else:
            self.leave()

    @staticmethod
    def _edit_text(edit: Edit) -> tuple[bool, str]:
        return edit.ok, edit.message
