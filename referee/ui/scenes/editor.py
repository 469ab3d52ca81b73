"""Physical-table mode: copy a real table into the program, then ask the referee about it.

``EditorStartScene`` chooses an empty table of some size or a scenario file to start from; ``EditorScene`` draws
terrain (polygons by their corners, circles by a drag), places units, blips and objectives, changes their facing,
Target counters, Damaged and Stunned, and saves the table as a scenario file. Every edit goes through
``ui.editing.TableEditor``, which asks the scenario model itself whether the table is still valid; a refused edit
shows the loader's reason, naming the item, and changes nothing. "Ask the referee" opens the saved file in the
normal table view.
"""

from __future__ import annotations

import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import pygame
import pygame_gui

from ... import paths
from ...rules.catalogue import is_drone_type, terrain_types, type_title, unit_type_names
from ...rules.errors import InputError
from ...rules.factions import get_faction
from ...rules.stats import RATING_TITLES, RATINGS
from .. import drawing, theme
from ..editing import SIDES, TABLE_SIZES, Edit, PolygonDraft, TableEditor, faction_ids, placeable_terrain
from ..editor_autosave import clear_autosave, read_autosave, write_autosave
from ..scene import Scene
from .editor_corners import CornerEditing
from ..table_data import TableData, load_table, table_from_scenario
from ..view import ViewTransform
from ..widgets import draw_text, draw_tooltip, ellipsize, line_height, panel, text_width, wrap

SELECT, POLYGON, CIRCLE, UNIT, BLIP, OBJECTIVE = "select", "polygon", "circle", "unit", "blip", "objective"
TOOLS = ((SELECT, "Select", "V"), (POLYGON, "Polygon", "P"), (CIRCLE, "Circle", "C"), (UNIT, "Unit", "U"),
         (BLIP, "Blip", "B"), (OBJECTIVE, "Objective", "O"))
TOOL_TITLES = {SELECT: "Select and drag", POLYGON: "Draw terrain", CIRCLE: "Draw a round piece",
               UNIT: "Place units", BLIP: "Place blips", OBJECTIVE: "Place objectives"}
TOOL_HINTS = {
    SELECT: "Click a piece or terrain to select it, drag to move it. Q/E turns a trooper; "
            "+/- Target counters; D Damaged; S Stunned; Delete removes.",
    POLYGON: "Click the corners. Enter, a double click or a click on the first corner closes it; Backspace removes "
             "the last corner; Esc cancels.",
    CIRCLE: "Drag from the centre outwards to set the radius (smoke, craters, ponds).",
    UNIT: "Choose side, faction, rating and type, then click the table to place. Drag a piece to move it.",
    BLIP: "Choose the side, then click to place a blip counter.",
    OBJECTIVE: "Choose an objective (alpha to epsilon), then click to place it.",
}
ROTATE_STEP = 15.0
FINE_STEP = 5.0
ZOOM_STEP = 1.15
PAN_STEP = 48
PICK_SLOP = 4
DRAG_PIXELS = 4
CLOSE_PIXELS = 7           # a click this close to the first or the last corner closes the polygon
MIN_RADIUS = 0.1           # inches: a shorter circle drag is a click
PAD = 12
SIDE_W = 440
BOTTOM_H = 170
MESSAGE_H = 88
CHIP_H = 26
EDITOR_SHORTCUTS = (
    ("Physical table: tools", [
        ("V / Esc", "select and drag pieces and terrain"),
        ("P", "polygon: click corners, Enter closes"),
        ("Backspace", "remove the last corner"),
        ("C", "circle: drag from the centre"),
        ("U / B / O", "place units / blips / objectives"),
        ("Ctrl+Z", "undo the last edit"),
        ("Ctrl+S", "save the table"),
        ("Ctrl+Enter", "save and ask the referee"),
    ]),
    ("The selected piece", [
        ("Q / E", "turn a trooper 15° (Shift: 5°)"),
        ("+ / -", "Target counters"),
        ("D / S", "Damaged / Stunned"),
        ("Delete", "remove it"),
        ("Enter", "type its position, facing, id, type or contents"),
        ("Drag", "move it (refused if bases overlap)"),
        ("Corners", "drag a terrain corner; Shift+click an edge adds one; right-click removes one"),
    ]),
    ("View", [
        ("Wheel on the table", "zoom"),
        ("Right or middle drag", "pan"),
        ("Arrow keys", "pan"),
        ("F or Home", "fit the table to the window"),
        ("H or F1", "this help (any key closes it)"),
    ]),
)


def default_save_path(editor: TableEditor) -> Path:
    """The file a table is saved to unless the user names another: its own file, or one in the user's folder."""
    src = editor.source
    if src is not None and src.parent.resolve() != paths.SCENARIO_DIR.resolve():
        return src
    stem = src.stem if src is not None else (re.sub(r"[^a-z0-9]+", "-", editor.scenario.name.lower()).strip("-")
                                             or "my-table")
    return paths.user_data_dir() / "tables" / f"{stem}.toml"


def error_text(error: Exception) -> str:
    if isinstance(error, InputError):
        return error.message()
    if isinstance(error, OSError):
        return f"{error.filename or ''}: {error.strerror or error}".lstrip(": ")
    return f"{type(error).__name__}: {error}"


# ---- the start: which table ---------------------------------------------------------------------------------------


class EditorStartScene(Scene):
    """Choose the table to mirror: an empty one of a standard or custom size, or an existing scenario file."""

    title = "Mirror a physical table"
    COLUMN_W = 640

    def __init__(self) -> None:
        super().__init__()
        self.manager: pygame_gui.UIManager | None = None
        self.widgets: dict[str, object] = {}
        self.sizes: dict[object, tuple[float, float]] = {}
        self.error = ""
        self.dialog = None
        self.error_top = 0
        self.recovered = None

    def on_enter(self) -> None:
        self._build(self.size)

    def on_resume(self) -> None:
        self._build(self.size)

    def on_resize(self, size) -> None:
        self._build(size)

    def _build(self, size) -> None:
        texts = {k: self.widgets[k].get_text() for k in ("width", "height", "name", "path") if k in self.widgets}
        if self.manager is None:
            self.manager = pygame_gui.UIManager(size, theme.gui_theme())
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
        entry = self.widgets.get("name")
        text = entry.get_text().strip() if entry is not None else ""
        return text or "My table"

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
        except Exception as e:             # the window survives any bad file
            if not isinstance(e, (InputError, OSError)):
                traceback.print_exc(file=sys.stderr)
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
        scene = EditorScene(editor)
        if self.app is not None:
            self.app.replace(scene)
        return scene

    # ---- events -------------------------------------------------------------------------------------------------
    def handle_event(self, event) -> bool:
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            el = event.ui_element
            if el in self.sizes:
                self.start_empty(*self.sizes[el])
            elif el is self.widgets.get("custom"):
                self.start_empty(self.widgets["width"].get_text().strip(), self.widgets["height"].get_text().strip())
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
        text = self.widgets["path"].get_text().strip()
        if text:
            self.start_from_file(text)
        else:
            self.error = "Type the path of a scenario file (.toml or .json), or choose one with Browse…"

    def _browse(self) -> None:
        start = paths.SCENARIO_DIR if paths.SCENARIO_DIR.is_dir() else Path.cwd()
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
            lines = []
            for raw in self.error.splitlines():
                lines.extend(wrap(raw, self.COLUMN_W - 28, 14, False, 4))
            lh = line_height(14)
            box = pygame.Rect(x, self.error_top, self.COLUMN_W, 20 + lh * len(lines))
            panel(surface, box, (58, 30, 32), theme.ERROR, 6)
            for i, line in enumerate(lines):
                draw_text(surface, line, (x + 14, box.y + 10 + i * lh), 14, False, theme.TEXT)
        if self.manager is not None:
            self.manager.draw_ui(surface)


# ---- the editor ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EditorLayout:
    status: pygame.Rect
    table: pygame.Rect
    side: pygame.Rect
    toolbar: pygame.Rect
    options: pygame.Rect
    message: pygame.Rect
    bottom: pygame.Rect


def editor_layout(size: tuple[int, int]) -> EditorLayout:
    w, h = size
    side_w = min(SIDE_W, max(340, int(w * 0.34)))
    top = theme.STATUS_HEIGHT
    status = pygame.Rect(0, 0, w, top)
    side = pygame.Rect(w - side_w, top, side_w, h - top)
    toolbar = pygame.Rect(side.x, top, side_w, 88 if side_w >= 420 else 128)
    bottom = pygame.Rect(side.x, h - BOTTOM_H, side_w, BOTTOM_H)
    message = pygame.Rect(side.x, bottom.y - MESSAGE_H, side_w, MESSAGE_H)
    options = pygame.Rect(side.x, toolbar.bottom, side_w, max(0, message.y - toolbar.bottom))
    table = pygame.Rect(0, top, w - side_w, h - top)
    return EditorLayout(status, table, side, toolbar, options, message, bottom)


@dataclass(frozen=True)
class Chip:
    """One clickable choice drawn in the side panel: ``key`` says what a click means."""

    key: str
    rect: pygame.Rect
    label: str
    selected: bool = False
    enabled: bool = True
    swatch: tuple | None = None
    hatch: bool = False
    tip: str = ""


class EditorScene(CornerEditing, Scene):
    title = "Physical table"

    def __init__(self, editor: TableEditor) -> None:
        super().__init__()
        self.editor = editor
        self.view = ViewTransform(editor.width, editor.height)
        self.fitted = True
        self.layout = editor_layout((1280, 800))
        self.manager: pygame_gui.UIManager | None = None
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.entries: dict[str, pygame_gui.elements.UITextEntryLine] = {}
        self.tool = SELECT
        self.options_scroll = 0
        self.selected: str | None = None
        self.hover: str | None = None
        # choices for new pieces
        types = placeable_terrain()
        self.terrain_type = "woods" if "woods" in types else types[0]
        self.side = "A"
        factions = faction_ids()
        self.faction = {s: factions[min(i, len(factions) - 1)] if factions else "" for i, s in enumerate(SIDES)}
        self.rating = "veteran"
        self.unit_type = "tactical"
        self.objective: str | None = None
        # gestures in progress
        self.draft = PolygonDraft(editor.width, editor.height)
        self.circle_centre: tuple[float, float] | None = None
        self.circle_edge: tuple[float, float] | None = None
        self.drag_id: str | None = None
        self.drag_start: tuple[int, int] | None = None
        self.drag_to: tuple[float, float] | None = None
        self.drag_offset = (0.0, 0.0)
        self.panning = False
        self.mouse = (0, 0)
        self.message = ""
        self.message_ok = True
        self.message_more: tuple[str, ...] = ()
        self.leave_armed = False
        self.overwrite_armed: Path | None = None   # the file the user was warned holds another table
        self.autosaved_revision = editor.saved_revision
        self.autosave_error = ""
        self.failures: list[str] = []      # errors caught by ``handle_event`` (a bug, shown in the window)
        self.save_path = default_save_path(editor)
        self._table: tuple[int, TableData] | None = None
        self._static: tuple | None = None
        self.say(True, "Copy your table: choose a tool on the right (or press its key), then click the table. "
                       "H lists every key.")
        if editor.problems:
            n = len(editor.problems)
            self.say(False, f"This table has {n} problem{'s' if n != 1 else ''} to fix before it can be saved; each "
                            "piece concerned is ringed in red (point at it to read why)", editor.problems)

    # ---- the table as the view draws it ---------------------------------------------------------------------------
    @property
    def table(self) -> TableData:
        rev = self.editor.revision
        if self._table is None or self._table[0] != rev:
            self._table = (rev, table_from_scenario(self.editor.scenario, self.editor.source))
        return self._table[1]

    # ---- life cycle -------------------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self.on_resize(self.size)

    def on_resume(self) -> None:
        self.on_resize(self.size)

    def on_resize(self, size) -> None:
        self.layout = editor_layout(size)
        if self.fitted:
            self.fit()
        self._build_gui(size)

    def _build_gui(self, size) -> None:
        texts = {k: e.get_text() for k, e in self.entries.items()}
        if self.manager is None:
            self.manager = pygame_gui.UIManager(size, theme.gui_theme())
        else:
            self.manager.set_window_resolution(size)
            self.manager.clear_and_reset()
        m, L = self.manager, self.layout
        self.buttons, self.entries = {}, {}
        button = pygame_gui.elements.UIButton
        inner = L.side.w - 2 * PAD
        gap = 5
        per_row = len(TOOLS) if L.toolbar.h < 120 else 3          # a narrow panel takes two rows of tools
        y = L.toolbar.y + 6
        for start in range(0, len(TOOLS), per_row):
            tools = TOOLS[start:start + per_row]
            widths = [text_width(label, 15, True) + 14 for _, label, _ in tools]     # shared out by label length
            spare = inner - gap * (len(tools) - 1) - sum(widths)
            x = L.toolbar.x + PAD
            for i, (key, label, letter) in enumerate(tools):
                bw = widths[i] + spare // len(tools)
                self.buttons[key] = button(pygame.Rect(x, y, bw, 36), label, m,
                                           tool_tip_text=f"{letter}: {TOOL_TITLES[key].lower()}")
                x += bw + gap
            y += 40
        row2 = (("undo", "Undo", "Ctrl+Z: undo the last edit"), ("fit", "Fit", "F or Home: fit the table"),
                ("help", "Help", "H or F1: keys"), ("menu", "Menu", "back to the menu"))
        bw2 = (inner - gap * (len(row2) - 1)) // len(row2)
        for i, (key, label, tip) in enumerate(row2):
            rect = pygame.Rect(L.toolbar.x + PAD + i * (bw2 + gap), y, bw2, 34)
            self.buttons[key] = button(rect, label, m, tool_tip_text=tip)
        b = L.bottom
        y = b.y + 8
        pygame_gui.elements.UILabel(pygame.Rect(b.x + PAD, y, 90, 30), "Name", m)
        self.entries["name"] = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(b.x + PAD + 70, y, inner - 70, 32), m, initial_text=texts.get("name", self.editor.scenario.name))
        y += 40
        pygame_gui.elements.UILabel(pygame.Rect(b.x + PAD, y, 90, 30), "File", m)
        self.entries["path"] = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(b.x + PAD + 70, y, inner - 70 - 90, 32), m, initial_text=texts.get("path", str(self.save_path)))
        self.buttons["save"] = button(pygame.Rect(b.right - PAD - 82, y, 82, 32), "Save", m,
                                      tool_tip_text="Ctrl+S: check the table with the scenario loader and save it")
        y += 42
        half = (inner - 8) // 2
        self.buttons["ask"] = button(pygame.Rect(b.x + PAD, y, half, 44), "Save and ask the referee", m,
                                     tool_tip_text="Ctrl+Enter: save, then open the table in the table view")
        self.buttons["referee"] = button(pygame.Rect(b.x + PAD + half + 8, y, inner - half - 8, 44),
                                         "Save and referee a battle", m,
                                         tool_tip_text="save, then referee the battle you play on this table: "
                                                       "you type the dice you roll")
        self._sync_buttons()

    def _sync_buttons(self) -> None:
        for key, _, _ in TOOLS:
            b = self.buttons.get(key)
            if b is not None:
                (b.select if self.tool == key else b.unselect)()
        undo = self.buttons.get("undo")
        if undo is not None:
            (undo.enable if self.editor.history else undo.disable)()

    # ---- messages -------------------------------------------------------------------------------------------------
    def say(self, ok: bool, message: str, more=()) -> None:
        self.message_ok = ok
        self.message = message
        self.message_more = tuple(m for m in more if m != message and not message.endswith(m))

    def report(self, edit: Edit) -> Edit:
        self.say(edit.ok, edit.message, edit.problems[1:] if edit.problems else ())
        if edit.ok and self.editor.kind_of(edit.item or "") is not None:
            self.selected = edit.item
        if self.selected is not None and self.editor.kind_of(self.selected) is None:
            self.selected = None
        if self.hover is not None and self.editor.kind_of(self.hover) is None:
            self.hover = None
        self.leave_armed = False
        self._sync_buttons()
        return edit

    # ---- view ---------------------------------------------------------------------------------------------------
    def fit(self) -> None:
        self.view.fit(tuple(self.layout.table), theme.TABLE_MARGINS)
        self.fitted = True

    def zoom(self, factor: float, at=None) -> None:
        self.view.zoom_at(factor, *(at or self.layout.table.center))
        self.fitted = False

    def pan(self, dx: float, dy: float) -> None:
        self.view.pan(dx, dy)
        self.fitted = False

    def on_table(self, pos) -> bool:
        return self.layout.table.collidepoint(pos)

    def table_point(self, pos) -> tuple[float, float]:
        """The table point under the mouse, to a tenth of an inch (as closely as anyone measures a real table)."""
        x, y = self.view.to_table(*pos)
        return (round(x, 1), round(y, 1))

    def screen_point(self, x: float, y: float) -> tuple[int, int]:
        return self.view.px(x, y)

    def piece_at(self, pos) -> str | None:
        x, y = self.view.to_table(*pos)
        slop = PICK_SLOP / self.view.scale
        best = None
        for p in self.table.bf.pieces.values():
            d = ((p.x - x) ** 2 + (p.y - y) ** 2) ** 0.5
            if d <= max(p.radius, drawing.piece_radius(self.view, p) / self.view.scale) + slop:
                rank = (0 if p.is_unit else 1, d)
                if best is None or rank < best[0]:
                    best = (rank, p.id)
        return best[1] if best else None

    def terrain_at(self, pos) -> str | None:
        x, y = self.view.to_table(*pos)
        found = None
        for f in self.table.bf.terrain:
            if f.holds(x, y):
                found = f.id
        return found

    def item_at(self, pos) -> str | None:
        return self.piece_at(pos) or self.terrain_at(pos)

    # ---- tools --------------------------------------------------------------------------------------------------
    def set_tool(self, tool: str) -> None:
        if self.tool == POLYGON and tool != POLYGON and len(self.draft):
            self.draft.clear()
        self.tool = tool
        self.options_scroll = 0
        self.circle_centre = self.circle_edge = None
        self.say(True, TOOL_HINTS[tool])
        self._sync_buttons()

    def select(self, ident: str | None) -> None:
        self.selected = ident if ident is None or self.editor.kind_of(ident) else None
        if self.selected is not None:
            self.say(True, self.describe(self.selected))
            if self.editor.kind_of(self.selected) == "terrain":
                self.terrain_type = self.editor.entry(self.selected).type

    def describe(self, ident: str) -> str:
        kind = self.editor.kind_of(ident)
        e = self.editor.entry(ident)
        if kind is None:               # removed a moment ago (the mouse still rests where it stood)
            return f"{ident}: no longer on the table"
        problems = self.editor.problem_items().get(ident)
        if problems:
            return f"{ident}: to fix: " + "; ".join(p[len(ident) + 2:] if p.startswith(f"{ident}: ") else p
                                                     for p in problems)
        if kind == "terrain":
            shape = f"{len(e.polygon)} corners" if e.polygon is not None else f'circle of radius {e.circle.r:g}"'
            how = " Drag a corner; Shift+click an edge adds one; right-click removes one." if e.polygon else ""
            return f"{ident}: {terrain_types()[e.type].name}, {shape}. Click a terrain type to change it.{how}"
        if kind == "unit":
            text = f"{ident}: {type_title(e.type)}, side {e.side}, {e.faction}, {RATING_TITLES.get(e.rating, e.rating)}"
            if not is_drone_type(e.type):
                text += f", facing {e.facing:g}°"
            return text + f", {e.target_counters} Target counters"
        if kind == "blip":
            return f"{ident}: blip counter of side {e.side}"
        return f"{ident}: objective, {e.target_counters} Target counters"

    # -- polygon --
    def add_corner(self, point) -> Edit:
        edit = self.draft.add(*point)
        if edit.ok:
            self.say(True, f"{edit.message}. Enter or a click on the first corner closes it; Backspace removes the "
                           "last corner; Esc cancels.")
        return edit

    def close_polygon(self) -> Edit:
        if not len(self.draft):
            return self.report(Edit(False, "Click the corners of the terrain piece first"))
        edit = self.editor.add_polygon(self.terrain_type, self.draft.corners)
        if edit.ok:
            self.draft.clear()
        else:
            edit = Edit(False, edit.message + " — fix the corners (Backspace) or Esc to start again", edit.item,
                        edit.problems)
        return self.report(edit)

    def _closes_polygon(self, pos) -> bool:
        corners = self.draft.corners
        if len(corners) < 3:
            return False
        for c in (corners[0], corners[-1]):
            sx, sy = self.view.to_screen(*c)
            if abs(sx - pos[0]) <= CLOSE_PIXELS and abs(sy - pos[1]) <= CLOSE_PIXELS:
                return True
        return False

    # -- circle --
    def finish_circle(self) -> Edit | None:
        if self.circle_centre is None:
            return None
        (cx, cy), edge = self.circle_centre, self.circle_edge or self.circle_centre
        self.circle_centre = self.circle_edge = None
        r = round(((edge[0] - cx) ** 2 + (edge[1] - cy) ** 2) ** 0.5, 1)
        if r < MIN_RADIUS:
            return self.report(Edit(False, "Drag from the centre outwards: the distance is the radius"))
        return self.report(self.editor.add_circle(self.terrain_type, cx, cy, r))

    # -- pieces --
    def place_at(self, point) -> Edit:
        x, y = point
        if self.tool == UNIT:
            edit = self.editor.place_unit(self.side, self.faction[self.side], self.rating, self.unit_type, x, y)
        elif self.tool == BLIP:
            edit = self.editor.place_blip(self.side, x, y)
        else:
            edit = self.editor.place_objective(self.objective, x, y)
            if edit.ok:
                self.objective = None
        return self.report(edit)

    def act(self, what: str, ident: str | None = None) -> Edit:
        """An edit of the selected (or hovered) item: turn, counters, Damaged, Stunned, delete."""
        ident = ident or self.selected
        if ident is None:
            return self.report(Edit(False, "Select a piece first (click it)"))
        if what == "ccw":
            return self.report(self.editor.rotate(ident, ROTATE_STEP))
        if what == "cw":
            return self.report(self.editor.rotate(ident, -ROTATE_STEP))
        if what == "plus":
            return self.report(self.editor.add_counters(ident, 1))
        if what == "minus":
            return self.report(self.editor.add_counters(ident, -1))
        if what in ("damaged", "stunned"):
            return self.report(self.editor.toggle(ident, what))
        if what == "exact":
            self.open_exact(ident)
            return Edit(True, f"Type {ident}'s values")
        if what == "delete":
            edit = self.editor.delete(ident)
            if edit.ok and self.selected == ident:
                self.selected = None
            return self.report(edit)
        raise ValueError(what)

    def undo(self) -> Edit:
        return self.report(self.editor.undo())

    def open_exact(self, ident: str):
        """A line to type the item's exact values (``editor_exact``); returns the dialog."""
        from .dialogs import TextDialog
        from .editor_exact import exact_text

        kind = self.editor.kind_of(ident)
        hint = {"unit": "x and y in inches, facing in degrees counter-clockwise from +x (90: towards side B), id, "
                        "type (tactical, scout, basic-drone...)",
                "blip": "x and y in inches, id, and contents= what it holds: 'veteran tactical, reserve scout', "
                        "'decoy' or 'unknown' (the players keep it secret)",
                "objective": "x and y in inches",
                "terrain": "x and y of its centre in inches, id, type (woods, hills, smoke...)"}[kind]
        dialog = TextDialog(f"{ident} exactly", [hint, "One line, one edit: Ctrl+Z undoes it."],
                            exact_text(self.editor, ident), lambda text: self.set_exact(ident, text), ok="Set")
        if self.app is not None:
            self.app.push(dialog)
        return dialog

    def set_exact(self, ident: str, text: str | None) -> Edit | None:
        from .editor_exact import parse_exact

        if not text:
            return None
        e = self.editor.entry(ident)
        side = e.side if self.editor.kind_of(ident) == "blip" else None
        try:
            changes = parse_exact(text, side, self.faction.get(side or "A", ""))
        except (InputError, ValueError) as err:
            return self.report(Edit(False, err.message() if isinstance(err, InputError) else str(err), ident))
        if not changes:
            return None
        return self.report(self.editor.set_exact(ident, changes))

    # -- saving and asking --
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
        except Exception as e:             # cannot happen for a file the loader just accepted; still never crash
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
        except Exception as e:             # cannot happen for a file the loader just accepted; still never crash
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

    # ---- the side panel's choices ----------------------------------------------------------------------------------
    def chips(self) -> tuple[list[tuple[str, tuple[int, int]]], list[Chip], int]:
        """Headings and chips of the options area for the current tool and selection (scrolled by
        ``options_scroll``), and the height of all of it."""
        L = self.layout
        x0, y = L.options.x + PAD, L.options.y + 6 - self.options_scroll
        right = L.options.right - PAD
        heads: list[tuple[str, tuple[int, int]]] = []
        chips: list[Chip] = []

        def head(text: str) -> None:
            nonlocal y
            heads.append((text, (x0, y)))
            y += 20

        def row(items, min_w: int = 0) -> None:
            """Chips laid out left to right, wrapping: items are (key, label, selected, enabled, swatch, hatch, tip)."""
            nonlocal y
            x = x0
            for key, label, sel, on, swatch, hatch, tip in items:
                w = max(min_w, text_width(label, 13, True) + 16 + (20 if swatch else 0))
                if x + w > right and x > x0:
                    x, y = x0, y + CHIP_H + 5
                chips.append(Chip(key, pygame.Rect(x, y, w, CHIP_H), label, sel, on, swatch, hatch, tip))
                x += w + 5
            y += CHIP_H + 7

        sel_kind = self.editor.kind_of(self.selected) if self.selected else None
        if self.tool in (POLYGON, CIRCLE) or sel_kind == "terrain":
            head("Terrain type" + (f" of {self.selected}" if self.tool == SELECT else ""))
            types = terrain_types()
            col_w = (right - x0 - 5) // 2
            for i, type_id in enumerate(placeable_terrain()):
                t = types[type_id]
                r = pygame.Rect(x0 + (i % 2) * (col_w + 5), y + (i // 2) * 24, col_w, 22)
                chips.append(Chip(f"terrain:{type_id}", r, t.name, type_id == self.terrain_type, True,
                                  theme.hex_colour(t.colour), t.blocking))
            y += ((len(placeable_terrain()) + 1) // 2) * 24 + 8
        sides = [(f"side:{s}", f"Side {s}", s == self.side, True, theme.SIDE_COLOURS[s], False, "") for s in SIDES]
        if self.tool == BLIP:
            head("Side")
            row(sides, 90)
        if self.tool == UNIT:
            head("Side and rating")
            row(sides + [(f"rating:{r}", RATING_TITLES[r], r == self.rating, True, None, False, "")
                         for r in RATINGS])
            head(f"Faction of side {self.side}")
            row([(f"faction:{f}", self._faction_name(f), f == self.faction[self.side], True, None, False, f)
                 for f in faction_ids()])
            head("Unit type")
            row([(f"type:{t}", type_title(t), t == self.unit_type, True, None, False, "")
                 for t in unit_type_names()])
        if self.tool == OBJECTIVE:
            head("Objective (alpha, beta, gamma: the defender's; delta, epsilon: the attacker's)")
            free = self.editor.free_objectives()
            chosen = self.objective or (free[0] if free else None)
            row([(f"objective:{o}", f"{theme.GREEK[o]} {o}", o == chosen, o in free, None, False, "")
                 for o in theme.GREEK], 70)
        if self.selected is not None and sel_kind is not None and sel_kind != "terrain":
            e = self.editor.entry(self.selected)
            head(f"Selected: {self.selected}")
            items = []
            if sel_kind == "unit" and not is_drone_type(e.type):
                items += [("act:ccw", "Turn left", False, True, None, False, "Q"),
                          ("act:cw", "Turn right", False, True, None, False, "E")]
            if sel_kind in ("unit", "objective"):
                items += [("act:minus", "Counter −", False, e.target_counters > 0, None, False, "-"),
                          ("act:plus", "Counter +", False, True, None, False, "+")]
            if sel_kind == "unit" and not is_drone_type(e.type):
                items += [("act:damaged", "Damaged", e.damaged, True, None, False, "D"),
                          ("act:stunned", "Stunned", e.stunned, True, None, False, "S")]
            items.append(("act:exact", "Exact…", False, True, None, False,
                          "Enter: type its position, facing, id, type" + (", contents" if sel_kind == "blip" else "")))
            items.append(("act:delete", "Delete", False, True, None, False, "Delete"))
            row(items)
        elif self.selected is not None and sel_kind == "terrain":
            head(f"Selected: {self.selected}")
            row([("act:exact", "Exact…", False, True, None, False, "Enter: type its centre, id and type"),
                 ("act:delete", "Delete", False, True, None, False, "Delete")])
        return heads, chips, y + self.options_scroll - L.options.y

    @staticmethod
    def _faction_name(ident: str) -> str:
        try:
            return get_faction(ident).name
        except Exception:       # a broken user faction file still gets a chip; choosing it shows the problem
            return ident

    def scroll_options(self, dy: int) -> None:
        most = max(0, self.chips()[2] - self.layout.options.h)
        self.options_scroll = max(0, min(most, self.options_scroll + int(dy)))

    def chip_at(self, pos) -> Chip | None:
        if not self.layout.options.collidepoint(pos):
            return None
        for chip in self.chips()[1]:
            if chip.rect.collidepoint(pos):
                return chip
        return None

    def choose(self, key: str) -> None:
        """A click on a chip."""
        what, _, value = key.partition(":")
        if what == "terrain":
            self.terrain_type = value
            if self.selected and self.editor.kind_of(self.selected) == "terrain" and self.tool == SELECT:
                self.report(self.editor.set_terrain_type(self.selected, value))
            else:
                self.say(True, f"New terrain will be {terrain_types()[value].name.lower()}")
        elif what == "side":
            self.side = value
        elif what == "faction":
            try:
                get_faction(value)
            except Exception as e:
                self.say(False, f"Faction {value} cannot be used: {error_text(e)}")
                return
            self.faction[self.side] = value
        elif what == "rating":
            self.rating = value
        elif what == "type":
            self.unit_type = value
        elif what == "objective":
            self.objective = value
        elif what == "act":
            self.act(value)

    # ---- events -------------------------------------------------------------------------------------------------
    def handle_event(self, event) -> bool:
        try:
            return self._handle(event)
        except Exception as e:             # the window must survive anything a click can do
            traceback.print_exc(file=sys.stderr)
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
        if self.drag_id is not None:
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
        k = event.key
        ctrl = bool(event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        if ctrl:
            if k == pygame.K_z:
                self.undo()
            elif k == pygame.K_s:
                self.save()
            elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.ask_referee()
            else:
                return False
            return True
        if self.tool == POLYGON and k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_BACKSPACE, pygame.K_ESCAPE):
            if k == pygame.K_BACKSPACE:
                self.say(*self._edit_text(self.draft.remove_last()))
            elif k == pygame.K_ESCAPE:
                if len(self.draft):
                    self.draft.clear()
                    self.say(True, "Polygon cancelled")
                else:
                    self.set_tool(SELECT)
            else:
                self.close_polygon()
            return True
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.tool == SELECT and self.selected:
            self.open_exact(self.selected)
            return True
        if k in (pygame.K_q, pygame.K_e):
            hovered = self.hover if self.hover and self.editor.kind_of(self.hover) == "unit" else None
            step = FINE_STEP if shift else ROTATE_STEP
            ident = hovered or self.selected
            if ident is None:
                self.say(False, "Point at a trooper or select it, then Q / E turns it")
            else:
                self.report(self.editor.rotate(ident, step if k == pygame.K_q else -step))
        elif k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.act("plus") if self.selected else self.zoom(ZOOM_STEP)
        elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.act("minus") if self.selected else self.zoom(1 / ZOOM_STEP)
        elif k == pygame.K_d:
            self.act("damaged")
        elif k == pygame.K_s:
            self.act("stunned")
        elif k in (pygame.K_DELETE, pygame.K_BACKSPACE):
            self.act("delete")
        elif k == pygame.K_v:
            self.set_tool(SELECT)
        elif k == pygame.K_p:
            self.set_tool(POLYGON)
        elif k == pygame.K_c:
            self.set_tool(CIRCLE)
        elif k == pygame.K_u:
            self.set_tool(UNIT)
        elif k == pygame.K_b:
            self.set_tool(BLIP)
        elif k == pygame.K_o:
            self.set_tool(OBJECTIVE)
        elif k in (pygame.K_f, pygame.K_HOME):
            self.fit()
        elif k == pygame.K_LEFT:
            self.pan(PAN_STEP, 0)
        elif k == pygame.K_RIGHT:
            self.pan(-PAN_STEP, 0)
        elif k == pygame.K_UP:
            self.pan(0, PAN_STEP)
        elif k == pygame.K_DOWN:
            self.pan(0, -PAN_STEP)
        elif k in (pygame.K_h, pygame.K_F1):
            self.open_help()
        elif k == pygame.K_ESCAPE:
            if self.tool != SELECT:
                self.set_tool(SELECT)
            elif self.selected is not None:
                self.select(None)
                self.say(True, TOOL_HINTS[SELECT])
            else:
                self.leave()
        else:
            return False
        return True

    @staticmethod
    def _edit_text(edit: Edit) -> tuple[bool, str]:
        return edit.ok, edit.message

    # ---- the loop -----------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.keep_safe()
        if self.manager is not None:
            self.manager.update(dt)

    def _static_key(self) -> tuple:
        v = self.view
        return (v.scale, v.ox, v.oy, tuple(self.layout.table), self.editor.revision)

    def _static_layer(self) -> pygame.Surface:
        key = self._static_key()
        if self._static is None or self._static[0] != key:
            L = self.layout
            layer = pygame.Surface((L.table.right, L.table.bottom))
            layer.set_clip(L.table)
            layer.fill(theme.BACKGROUND, L.table)
            table, view = self.table, self.view
            cloth = drawing.draw_cloth(layer, table, view, L.table)
            drawing.draw_terrain(layer, table, view, L.table)
            drawing.draw_grid(layer, table, view, L.table)
            drawing.draw_edges(layer, table, view, cloth)
            self._static = (key, layer)
        return self._static[1]

    def draw(self, surface) -> None:
        L = self.layout
        table, view = self.table, self.view
        old = surface.get_clip()
        surface.set_clip(L.table)
        surface.blit(self._static_layer(), L.table.topleft, area=L.table)
        drawing.draw_pieces(surface, table, view, L.table)
        self._draw_selection(surface)
        self._draw_gesture(surface)
        surface.set_clip(old)
        self._draw_side(surface)
        self._draw_status(surface)
        if self.manager is not None:
            self.manager.draw_ui(surface)
        self._draw_tooltip(surface)

    def _terrain_outline(self, surface, ident: str, colour, width: int) -> None:
        f = next((f for f in self.table.bf.terrain if f.id == ident), None)
        if f is not None:
            pygame.draw.polygon(surface, colour, drawing.feature_points(self.view, f), width)

    def _draw_problems(self, surface) -> None:
        bf, view = self.table.bf, self.view
        for ident in self.editor.problem_items():
            if ident in bf.pieces:
                drawing.draw_ring(surface, view, bf.pieces[ident], theme.ERROR, gap=9, width=3)
            else:
                self._terrain_outline(surface, ident, theme.ERROR, 3)

    def _draw_selection(self, surface) -> None:
        bf, view = self.table.bf, self.view
        if self.editor.problems:
            self._draw_problems(surface)
        if self.hover and self.hover != self.selected and self.drag_id is None:
            if self.hover in bf.pieces:
                drawing.draw_ring(surface, view, bf.pieces[self.hover], (255, 255, 255), gap=6, width=2)
            elif self.tool == SELECT:
                self._terrain_outline(surface, self.hover, (255, 255, 255), 2)
        if self.selected in bf.pieces:
            drawing.draw_ring(surface, view, bf.pieces[self.selected], theme.SELECTION, gap=4, width=3)
        elif self.selected:
            self._terrain_outline(surface, self.selected, theme.SELECTION, 3)
            self.draw_corners(surface)
        if self.drag_id is not None and self.drag_to is not None:
            self._draw_drag(surface)

    def _draw_drag(self, surface) -> None:
        bf, view = self.table.bf, self.view
        if self.drag_id in bf.pieces:
            p = bf.pieces[self.drag_id]
            drawing.draw_ghost(surface, view, p, self.drag_to, p.facing if p.is_trooper else None, theme.SELECTION)
            return
        f = next((f for f in bf.terrain if f.id == self.drag_id), None)
        if f is None:
            return
        cx, cy = self.editor.terrain_centre(self.drag_id)
        dx, dy = self.drag_to[0] - cx, self.drag_to[1] - cy
        if f.circle is not None:
            x, y, r = f.circle
            pygame.draw.circle(surface, theme.SELECTION, view.to_screen(x + dx, y + dy), r * view.scale, 2)
        else:
            pts = [view.to_screen(x + dx, y + dy) for x, y in list(f.geometry.exterior.coords)[:-1]]
            pygame.draw.polygon(surface, theme.SELECTION, pts, 2)

    def _draw_gesture(self, surface) -> None:
        view = self.view
        colour = theme.hex_colour(terrain_types()[self.terrain_type].colour)
        if self.tool == POLYGON and len(self.draft):
            pts = [view.to_screen(*c) for c in self.draft.corners]
            if len(pts) >= 3:
                layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
                pygame.draw.polygon(layer, (*colour, 110), pts)
                surface.blit(layer, (0, 0))
            if self.on_table(self.mouse):
                drawing.dashed_line(surface, theme.RULER, pts[-1], self.mouse, 2, 6, 5)
                if len(pts) >= 2:
                    drawing.dashed_line(surface, theme.TEXT_FAINT, self.mouse, pts[0], 1, 4, 6)
            if len(pts) >= 2:
                pygame.draw.lines(surface, (255, 255, 255), False, pts, 4)
                pygame.draw.lines(surface, theme.darker(colour), False, pts, 2)
            for i, q in enumerate(pts):
                pygame.draw.circle(surface, theme.SELECTION if i == 0 else (255, 255, 255), q, 5)
                pygame.draw.circle(surface, theme.BASE_OUTLINE, q, 5, 1)
        if self.tool == CIRCLE and self.circle_centre is not None:
            c = view.to_screen(*self.circle_centre)
            edge = self.circle_edge or self.circle_centre
            r = ((edge[0] - self.circle_centre[0]) ** 2 + (edge[1] - self.circle_centre[1]) ** 2) ** 0.5
            if r * view.scale >= 1:
                layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
                pygame.draw.circle(layer, (*colour, 110), c, r * view.scale)
                surface.blit(layer, (0, 0))
                pygame.draw.circle(surface, theme.darker(colour), c, r * view.scale, 2)
            pygame.draw.line(surface, theme.RULER, c, view.to_screen(*edge), 2)
            drawing._label(surface, (c[0], c[1] - 18), f'radius {r:.1f}"')
        if self.tool in (UNIT, BLIP, OBJECTIVE) and self.on_table(self.mouse) and self.drag_id is None \
                and self.piece_at(self.mouse) is None:
            self._draw_placement_ghost(surface)

    def _draw_placement_ghost(self, surface) -> None:
        from ...rules.battlefield import Piece
        from ..editing import default_facing

        x, y = self.view.to_table(*self.mouse)
        if self.tool == OBJECTIVE:
            ghost = Piece(id="ghost", kind="objective", x=x, y=y)
            colour, facing = theme.OBJECTIVE_RED, None
        else:
            trooper = self.tool == UNIT and not is_drone_type(self.unit_type)
            ghost = Piece(id="ghost", kind="trooper" if trooper else "blip", x=x, y=y, side=self.side)
            colour, facing = theme.SIDE_COLOURS[self.side], default_facing(self.side) if trooper else None
        drawing.draw_ghost(surface, self.view, ghost, (x, y), facing, colour)

    def _draw_side(self, surface) -> None:
        L = self.layout
        pygame.draw.rect(surface, theme.PANEL, L.side)
        pygame.draw.line(surface, theme.PANEL_EDGE, L.side.topleft, L.side.bottomleft)
        pygame.draw.rect(surface, theme.HEADER, L.toolbar)
        old = surface.get_clip()
        surface.set_clip(L.options)
        heads, chips, height = self.chips()
        for text, pos in heads:
            draw_text(surface, ellipsize(text, L.options.w - 2 * PAD, 14, True), pos, 14, True, theme.ACCENT)
        for chip in chips:
            self._draw_chip(surface, chip)
        if height > L.options.h:            # more below or above: a scroll bar, the wheel scrolls
            bar_h = max(20, L.options.h * L.options.h // height)
            bar_y = L.options.y + (L.options.h - bar_h) * self.options_scroll // max(1, height - L.options.h)
            pygame.draw.rect(surface, theme.PANEL_EDGE, (L.options.right - 5, bar_y, 4, bar_h), border_radius=2)
        surface.set_clip(old)
        self._draw_message(surface)
        pygame.draw.rect(surface, theme.HEADER, L.bottom)

    def _draw_chip(self, surface, chip: Chip) -> None:
        r = chip.rect
        hovered = r.collidepoint(self.mouse) and chip.enabled
        fill = (138, 109, 28) if chip.selected else (theme.HEADER if hovered else theme.PANEL_ALT)
        border = theme.ACCENT if chip.selected else theme.PANEL_EDGE
        pygame.draw.rect(surface, fill, r, border_radius=4)
        pygame.draw.rect(surface, border, r, 1, border_radius=4)
        x = r.x + 8
        if chip.swatch is not None:
            box = pygame.Rect(x - 2, r.y + 4, 18, r.h - 8)
            pygame.draw.rect(surface, chip.swatch, box, border_radius=3)
            if chip.hatch:
                edge = theme.darker(chip.swatch)
                clip = surface.get_clip()
                surface.set_clip(box.clip(clip) if clip else box)
                for k in range(-box.h, box.w, 5):
                    pygame.draw.line(surface, edge, (box.x + k, box.bottom), (box.x + k + box.h, box.y), 2)
                surface.set_clip(clip)
            pygame.draw.rect(surface, theme.darker(chip.swatch), box, 1, border_radius=3)
            x += 22
        ink = theme.TEXT if chip.enabled else theme.TEXT_FAINT
        label = ellipsize(chip.label, r.right - x - 4, 13, chip.selected)
        draw_text(surface, label, (x, r.centery), 13, chip.selected, ink, "midleft")

    def _draw_message(self, surface) -> None:
        r = self.layout.message
        pygame.draw.rect(surface, (33, 36, 42), r)
        pygame.draw.line(surface, theme.PANEL_EDGE, r.topleft, r.topright, 2)
        colour = theme.TEXT if self.message_ok else theme.ERROR
        title = "Done" if self.message_ok else "Refused"
        draw_text(surface, title, (r.x + PAD, r.y + 6), 13, True, theme.ACCENT if self.message_ok else theme.ERROR)
        lines: list[tuple[str, tuple]] = []
        for i, text in enumerate((self.message,) + self.message_more):
            for part in wrap(text, r.w - 2 * PAD, 13, False, 2):
                lines.append((part, colour if i == 0 else theme.TEXT_DIM))
        lh = line_height(13)
        shown = max(1, (r.h - 30) // lh)
        for i, (text, ink) in enumerate(lines[:shown]):
            draw_text(surface, text, (r.x + PAD, r.y + 26 + i * lh), 13, False, ink)

    def _draw_status(self, surface) -> None:
        r = self.layout.status
        pygame.draw.rect(surface, theme.HEADER, r)
        pygame.draw.line(surface, theme.PANEL_EDGE, r.bottomleft, r.bottomright)
        s = self.editor.scenario
        name = ellipsize(f"Physical table: {s.name}", max(140, r.w // 3), 17, True)
        box = draw_text(surface, name, (r.x + PAD, r.centery), 17, True, theme.TEXT, "midleft")
        counts = (f'{s.table.width:g}" x {s.table.height:g}"    {len(s.terrain)} terrain    {len(s.units)} units    '
                  f"{len(s.blips)} blips    {len(s.objectives)} objectives")
        if self.editor.dirty:
            counts = "unsaved changes    " + counts
        right = f"Tool: {TOOL_TITLES[self.tool]}    H: help"
        right_box = draw_text(surface, right, (r.right - PAD, r.centery), 14, False, theme.TEXT_DIM, "midright")
        counts = ellipsize(counts, max(0, right_box.x - box.right - 48), 14)
        if len(counts) > 1:
            draw_text(surface, counts, (box.right + 24, r.centery), 14, False, theme.TEXT_DIM, "midleft")

    def _draw_tooltip(self, surface) -> None:
        if self.panning or self.drag_id is not None or not self.on_table(self.mouse):
            chip = self.chip_at(self.mouse)
            if chip is not None and chip.tip:
                draw_tooltip(surface, [chip.tip], self.mouse)
            return
        if self.tool in (POLYGON, CIRCLE) or not self.hover:
            x, y = self.view.to_table(*self.mouse)
            if self.tool != SELECT:
                draw_tooltip(surface, [(f"({x:.1f}, {y:.1f})", theme.TEXT_DIM, False)], self.mouse,
                             bounds=self.layout.table)
            return
        draw_tooltip(surface, [self.describe(self.hover)], self.mouse, bounds=self.layout.table)
