"""The table editor's start: an empty table of some size, a scenario file, or the work kept from last time."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

import pygame
import pygame_gui

from ... import paths
from ...rules.errors import InputError
from .. import theme
from ..editing import TABLE_SIZES, TableEditor
from ..editor_autosave import Recovered, read_autosave
from ..gui_managers import new_manager
from ..scene import Scene
from ..widgets import draw_text, ellipsize, line_height, panel, wrap
from .editor_common import error_text
from ...logs import failure

if TYPE_CHECKING:
    from .editor import EditorScene


class EditorStartScene(Scene):
    """Choose the table to mirror: an empty one of a standard or custom size, or an existing scenario file."""

    title = "Mirror a physical table"
    COLUMN_W = 640

    def __init__(self) -> None:
        super().__init__()
        self.manager: pygame_gui.UIManager | None = None
        # pygame_gui elements of several kinds (labels, entries, buttons), looked up by name.
        self.widgets: dict[str, pygame_gui.core.UIElement] = {}
        self.sizes: dict[object, tuple[float, float]] = {}
        self.error = ""
        self.dialog: pygame_gui.windows.UIFileDialog | None = None
        self.error_top = 0
        self.recovered: Recovered | None = None

    def entry_text(self, name: str) -> str:
        """What the text field ``name`` holds ("" before it is built)."""
        widget = self.widgets.get(name)
        return widget.get_text() if isinstance(widget, pygame_gui.elements.UITextEntryLine) else ""

    def on_enter(self) -> None:
        self._build(self.size)

    def on_resume(self) -> None:
        self._build(self.size)

    def on_resize(self, size) -> None:
        self._build(size)

    def _build(self, size) -> None:
        texts = {k: self.entry_text(k) for k in ("width", "height", "name", "path") if k in self.widgets}
        if self.manager is None:
            self.manager = new_manager(size)
        else:
            self.manager.set_window_resolution(size)
            self.manager.clear_and_reset()
        self.dialog = None
        m, W = self.manager, self.COLUMN_W
        w, h = size
        x = (w - W) // 2
        y = max(130, h // 2 - 250)
        self.widgets, self.sizes = {}, {}
        label = pygame_gui.elements.UILabel
        entry = pygame_gui.elements.UITextEntryLine
        button = pygame_gui.elements.UIButton
        self.widgets["name_label"] = label(pygame.Rect(x, y, W, 24), "Name of the table", m)
        y += 26
        self.widgets["name"] = entry(pygame.Rect(x, y, W, 36), m, initial_text=texts.get("name", "My table"))
        y += 50
        self.widgets["size_label"] = label(pygame.Rect(x, y, W, 24), "Start from an empty table (inches)", m)
        y += 28
        bw = (W - 20) // 3
        for i, (tw, th) in enumerate(TABLE_SIZES):
            b = button(pygame.Rect(x + i * (bw + 10), y, bw, 44), f'{tw:g}" x {th:g}"', m,
                       tool_tip_text=f"{tw / 12:g}' x {th / 12:g}' table")
            self.sizes[b] = (tw, th)
        y += 56
        self.widgets["custom_label"] = label(pygame.Rect(x, y + 6, 120, 24), "Custom size", m)
        self.widgets["width"] = entry(pygame.Rect(x + 120, y, 90, 36), m, initial_text=texts.get("width", "60"))
        self.widgets["by"] = label(pygame.Rect(x + 216, y + 6, 20, 24), "x", m)
        self.widgets["height"] = entry(pygame.Rect(x + 240, y, 90, 36), m, initial_text=texts.get("height", "44"))
        self.widgets["custom"] = button(pygame.Rect(x + 340, y, 150, 36), "Start custom", m,
                                        tool_tip_text="width along side A's edge, then depth")
        y += 60
        self.widgets["path_label"] = label(pygame.Rect(x, y, W, 24), "Or start from a scenario file", m)
        y += 28
        self.widgets["path"] = entry(pygame.Rect(x, y, W - 220, 38), m, initial_text=texts.get("path", ""))
        self.widgets["open"] = button(pygame.Rect(x + W - 210, y, 100, 38), "Open", m)
        self.widgets["browse"] = button(pygame.Rect(x + W - 100, y, 100, 38), "Browse…", m)
        y += 58
        self.recovered = None
        try:
            self.recovered = read_autosave()
        except InputError as e:
            self.error = f"The editor's safety copy cannot be recovered: {e.message()}"
        if self.recovered is not None:
            r = self.recovered
            self.widgets["recover_label"] = label(
                pygame.Rect(x, y, W, 24), ellipsize(f"Not saved last time: {r.editor.scenario.name!r}, kept at "
                                                    f"{r.saved_at}", W - 10, 15), m)
            y += 28
            self.widgets["recover"] = button(pygame.Rect(x, y, W, 40), f"Recover it ({r.counts})", m,
                                             tool_tip_text="carry on where the editor stopped")
            y += 52
        self.widgets["back"] = button(pygame.Rect(x, y, 160, 40), "Back", m, tool_tip_text="Esc: back to the menu")
        self.error_top = y + 58

    # ---- starting ----------------------------------------------------------------------------------------------
    def _name(self) -> str:
        return self.entry_text("name").strip() or "My table"

    def start_empty(self, width, height) -> EditorScene | None:
        try:
            editor = TableEditor.empty(float(width), float(height), self._name())
        except (InputError, ValueError, TypeError) as e:
            detail = e.message() if isinstance(e, InputError) else f"expected two numbers of inches (got {width!r} x {height!r})"
            self.error = f"Not a table size: {detail}"
            return None
        return self._start(editor)

    def start_from_file(self, path: Path | str) -> EditorScene | None:
        try:
            editor = TableEditor.open(Path(path).expanduser())
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: the window survives any bad file
            if not isinstance(e, (InputError, OSError)):
                failure(f"opening {path} in the table editor failed")
            self.error = f"Could not open {path}: {error_text(e)}"
            return None
        return self._start(editor)

    def recover(self) -> EditorScene | None:
        """Carry on with the table the safety copy kept."""
        if self.recovered is None:
            return None
        scene = self._start(self.recovered.editor)
        if self.recovered.save_path is not None:
            scene.save_path = self.recovered.save_path
            entry = scene.entries.get("path")
            if entry is not None:
                entry.set_text(str(scene.save_path))
        scene.say(True, f"Recovered {self.recovered.summary}. Save it (Ctrl+S) to keep it.")
        return scene

    def _start(self, editor: TableEditor) -> EditorScene:
        self.error = ""
        return cast("EditorScene", self.replace_scene("editor", editor))

    # ---- events -------------------------------------------------------------------------------------------------
    def handle_event(self, event) -> bool:
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            el = event.ui_element
            if el in self.sizes:
                self.start_empty(*self.sizes[el])
            elif el is self.widgets.get("custom"):
                self.start_empty(self.entry_text("width").strip(), self.entry_text("height").strip())
            elif el is self.widgets.get("open"):
                self._open_typed()
            elif el is self.widgets.get("browse"):
                self._browse()
            elif el is self.widgets.get("recover"):
                self.recover()
            elif el is self.widgets.get("back"):
                self.leave()
            return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.widgets.get("path"):
            self._open_typed()
            return True
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self.start_from_file(event.text)
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.dialog:
            self.dialog = None
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.leave()
            return True
        return False

    def leave(self) -> None:
        if self.app is not None:
            self.app.pop()

    def _open_typed(self) -> None:
        text = self.entry_text("path").strip()
        if text:
            self.start_from_file(text)
        else:
            self.error = "Type the path of a scenario file (.toml or .json), or choose one with Browse…"

    def _browse(self) -> None:
        start = paths.browse_tables_from()
        w, h = self.size
        rect = pygame.Rect(0, 0, min(620, w - 40), min(480, h - 40))
        rect.center = (w // 2, h // 2)
        self.dialog = pygame_gui.windows.UIFileDialog(
            rect, self.manager, window_title="Start from a scenario", initial_file_path=str(start),
            allowed_suffixes={".toml", ".json"}, allow_existing_files_only=True)

    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)

    def draw(self, surface) -> None:
        w, h = surface.get_size()
        surface.fill(theme.BACKGROUND)
        x = (w - self.COLUMN_W) // 2
        top = max(130, h // 2 - 250)
        draw_text(surface, "Mirror a physical table", (x, top - 100), 32, True, theme.TEXT)
        draw_text(surface, "Copy your table into the program: terrain, units and counters; save it; ask the referee.",
                  (x, top - 52), 15, False, theme.TEXT_DIM)
        if self.error:
            lines: list[str] = []
            for raw in self.error.splitlines():
                lines.extend(wrap(raw, self.COLUMN_W - 28, 14, False, 4))
            lh = line_height(14)
            box = pygame.Rect(x, self.error_top, self.COLUMN_W, 20 + lh * len(lines))
            panel(surface, box, (58, 30, 32), theme.ERROR, 6)
            for i, line in enumerate(lines):
                draw_text(surface, line, (x + 14, box.y + 10 + i * lh), 14, False, theme.TEXT)
        if self.manager is not None:
            self.manager.draw_ui(surface)
