"""Physical-table mode: copy a real table into the program, then ask the referee about it.

``EditorStartScene`` chooses an empty table of some size or a scenario file to start from; ``EditorScene`` draws
terrain (polygons by their corners, circles by a drag), places units, blips and objectives, changes their facing,
Target counters, Damaged and Stunned, and saves the table as a scenario file. Every edit goes through
``ui.editing.TableEditor``, which asks the scenario model itself whether the table is still valid; a refused edit
shows the loader's reason, naming the item, and changes nothing. "Ask the referee" opens the saved file in the
normal table view; "Save and referee a battle" starts the referee mode on it.

The scene is put together from small modules, one job each: ``editor_start`` (the start screen),
``editor_common`` (tools, keys, layout), ``editor_chips`` (the side panel), ``editor_events`` (mouse, keys and the
safety copy), ``editor_drawing``, ``editor_corners`` (a polygon's corners), ``editor_exact`` (typed values) and
``editor_files`` (saving and leaving).
"""

from __future__ import annotations

import pygame
import pygame_gui

from ...rules.catalogue import is_drone_type, terrain_types, type_title
from ...rules.stats import RATING_TITLES
from .. import drawing, theme
from ..gui_managers import new_manager
from ..editing import SIDES, Edit, PolygonDraft, TableEditor, faction_ids, placeable_terrain
from ..table_data import TableData, table_from_scenario
from ..view import ViewTransform
from ..widgets import text_width
from .editor_chips import ChipPanel
from .editor_common import (
    BLIP,
    CLOSE_PIXELS,
    EDITOR_KEYS,
    MIN_RADIUS,
    PAD,
    PICK_SLOP,
    POLYGON,
    ROTATE_STEP,
    SELECT,
    TOOL_HINTS,
    TOOL_TITLES,
    TOOLS,
    UNIT,
    default_save_path,
    editor_layout,
)
from .editor_corners import CornerEditing
from .editor_drawing import EditorDrawing
from .editor_events import EditorEvents
from .editor_exact import ExactEntry
from .editor_files import EditorSaving
from .editor_photo import EditorPhoto


SNAP_GRID = 0.5           # inches: the marks a table is measured to
SNAP_REACH = 0.15         # a click this close to one lands on it


def snap_inch(value: float, free: bool = False) -> float:
    """A coordinate to the tenth of an inch, or on the nearest half inch when within ``SNAP_REACH`` of it."""
    mark = round(value / SNAP_GRID) * SNAP_GRID
    if not free and abs(value - mark) <= SNAP_REACH:
        return round(mark, 1)
    return round(value, 1)


class EditorScene(ExactEntry, CornerEditing, ChipPanel, EditorEvents, EditorDrawing, EditorSaving, EditorPhoto):
    title = "Physical table"
    key_table = EDITOR_KEYS           # every key of the editor and its help line

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
        self.autosaved_revision = editor.saved_revision
        self.autosave_error = ""
        self.failures: list[str] = []      # errors caught by ``handle_event`` (a bug, shown in the window)
        self.save_path = default_save_path(editor)
        self._table: tuple[int, TableData] | None = None
        self._static = None
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
            self.manager = new_manager(size)
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
        r = self.layout.table
        self.view.fit((r.x, r.y, r.w, r.h), theme.TABLE_MARGINS)
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
        """The table point under the mouse, to a tenth of an inch (as closely as anyone measures a real table); near a
        half inch, on it: a corner measured at 8" lands at 8.0, not 8.1 (Alt held: the tenth under the mouse)."""
        x, y = self.view.to_table(*pos)
        free = bool(pygame.key.get_mods() & pygame.KMOD_ALT)
        return (snap_inch(x, free), snap_inch(y, free))

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

    def redo(self) -> Edit:
        return self.report(self.editor.redo())

    # ---- the loop -----------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.keep_safe()
        if self.manager is not None:
            self.manager.update(dt)


# The names the editor is known by elsewhere (the menu, tests) stay importable from here.
from .editor_common import CIRCLE, OBJECTIVE  # noqa: E402,F401
from .editor_start import EditorStartScene  # noqa: E402,F401
