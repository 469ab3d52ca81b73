"""The table scene: look at a table and ask the referee questions about it.

Tools: select (sight, cover, Target price and rifle odds against every enemy), ruler, move and jump previews.
Every number comes from the rules functions (see ``ui.questions``). The scene never changes the battle: a
confirmed move or jump leaves as an ``Intent`` for the engine.
"""

from __future__ import annotations

import math
import traceback
from dataclasses import dataclass

import pygame
import pygame_gui

from ...rules.movement import MoveResult
from .. import drawing, keys, panels, theme
from ..exposure import ExposureOverlay, prepare_terrain
from ..intents import Intent, IntentHandler
from ..keys import ANY, ENTER, EVENT, MINUS, PLUS, Gesture, Key, KeyTable
from ..questions import (PairReport, RulerEnd, RulerResult, SelectionReport, preview_jump, preview_move, ruler,
                         selection_report)
from ..scene import Scene
from ..table_data import TableData
from ..view import ViewTransform
from ..widgets import block_at, content_height, draw_blocks, draw_tooltip, line_height

SELECT, RULER, MOVE, JUMP = "select", "ruler", "move", "jump"
TOOL_TITLES = {SELECT: "Select", RULER: "Ruler", MOVE: "Move preview", JUMP: "Jump preview"}
TOOL_HINTS = {
    RULER: "Drag between two points or two units: edge to edge between units, point to point otherwise. "
           "Esc or R leaves the ruler.",
    MOVE: "Drag from the unit, or click waypoints; the numbers are the rules' own. Enter sends the move, "
          "Backspace removes the last waypoint, Esc or M leaves.",
    JUMP: "Click the landing point. Enter sends the jump, Esc or J leaves.",
}
ZOOM_STEP = 1.15
PAN_STEP = 48
LONG_LOG = 40           # lines: a log this long is a battle's, kept wrapped apart from short messages
LONG_LOGS = 3           # long logs kept wrapped: each player's view of the battle, and one more
WRAP_MEMO = 40000       # lines whose wrapping is remembered (a 200-round battle's log seen by both players)
PICK_SLOP = 4           # pixels of tolerance around a base when clicking it
TOOLBAR_H = 44
BUTTONS = (("ruler", "Ruler", "R: measure between points or units"),
           ("move", "Move", "M: preview a Move of the selected unit"),
           ("jump", "Jump", "J: preview a Jump of the selected unit"),
           ("fit", "Fit", "F or Home: fit the table to the window"),
           ("help", "Help", "H or F1: keys and marks"),
           ("menu", "Menu", "Esc: back to the menu"))

LOOKING = ("Looking", (
    Gesture("Left click", "select a unit (click empty table: deselect)"),
    Key("Tab / Shift+Tab", "next / previous unit", "cycle_by_key", (pygame.K_TAB,), ANY, (EVENT,)),
    Gesture("Mouse wheel", "zoom"),
    Key("+ / -", "zoom in / out", "zoom_by_key", PLUS + MINUS, ANY, (EVENT,)),
    Gesture("Right or middle drag", "pan"),
    Key("Arrow keys", "pan", "pan_by_key", (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN), ANY, (EVENT,)),
    Key("F or Home", "fit the table to the window", "fit", (pygame.K_f, pygame.K_HOME)),
    Gesture("Hover an enemy", "its sight line and numbers"),
    Gesture("Click an enemy row", "show the working (pages, rulings)"),
))
TOOLS = ("Tools", (
    Key("R", "ruler: drag between points or units", "set_tool", (pygame.K_r,), ANY, (RULER,)),
    Key("M", "move preview: drag or click waypoints", "set_tool", (pygame.K_m,), ANY, (MOVE,)),
    Key("J", "jump preview: click the landing point", "set_tool", (pygame.K_j,), ANY, (JUMP,)),
    Key("E / Shift+E", "exposure map on or off / its side", "exposure_by_key", (pygame.K_e,), ANY, (EVENT,)),
    Key("Enter", "send the previewed move or jump", "confirm", ENTER),
    Key("Backspace", "remove the last waypoint", "remove_waypoint", (pygame.K_BACKSPACE,)),
    Key("Esc", "leave the tool / deselect / menu", "escape", (pygame.K_ESCAPE,)),
    Key("H or F1", "this help (any key closes it)", "open_help", (pygame.K_h, pygame.K_F1)),
))
TABLE_KEYS: KeyTable = (LOOKING, TOOLS)


@dataclass(frozen=True)
class Layout:
    status: pygame.Rect
    table: pygame.Rect
    log: pygame.Rect
    side: pygame.Rect
    toolbar: pygame.Rect
    panel: pygame.Rect


def layout_for(size: tuple[int, int]) -> Layout:
    """Status bar on top; the table on the left; on the right the tools, the side panel and, at its bottom, the log.

    The table is usually square, so the height is what limits it: the log lives under the side panel, not under
    the table.
    """
    w, h = size
    side_w = min(theme.SIDE_PANEL_WIDTH, max(320, int(w * 0.36)))
    top = theme.STATUS_HEIGHT
    body_h = h - top
    log_h = min(theme.LOG_HEIGHT, max(120, int(body_h * 0.3)))
    status = pygame.Rect(0, 0, w, top)
    side = pygame.Rect(w - side_w, top, side_w, body_h)
    toolbar = pygame.Rect(side.x, top, side_w, TOOLBAR_H)
    log = pygame.Rect(side.x, h - log_h, side_w, log_h)
    panel = pygame.Rect(side.x, toolbar.bottom, side_w, log.y - toolbar.bottom)
    table = pygame.Rect(0, top, w - side_w, body_h)
    return Layout(status, table, log, side, toolbar, panel)


def layout_with_bar(size: tuple[int, int], rows: int, row_h: int) -> tuple[pygame.Rect, Layout]:
    """``layout_for`` with a bar of ``rows`` rows of buttons between the tools and the side panel (the battle's
    actions, set-up's choices): the bar, and the layout whose panel starts under it."""
    base = layout_for(size)
    bar_h = rows * (row_h + 4) + 8
    bar = pygame.Rect(base.panel.x, base.panel.y, base.panel.w, bar_h)
    panel = pygame.Rect(base.panel.x, base.panel.y + bar_h, base.panel.w, base.panel.h - bar_h)
    return bar, Layout(base.status, base.table, base.log, base.side, base.toolbar, panel)


class TableScene(Scene):
    banner_h = 0                      # pixels over the table kept for a scene's banner (the table is fitted below it)
    title = "Table"
    key_table: KeyTable = TABLE_KEYS  # every key of the scene and its help line
    tool_titles = TOOL_TITLES         # the status bar's name of each tool (a scene with more tools names them too)

    def __init__(self, table: TableData, on_intent: IntentHandler | None = None) -> None:
        super().__init__()
        self.table = table
        self.on_intent = on_intent
        bf = table.bf
        self.view = ViewTransform(bf.width, bf.height)
        self.fitted = True
        self.layout = layout_for((1280, 800))
        self.manager: pygame_gui.UIManager | None = None
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        # view state (never the battle's)
        self.tool = SELECT
        self.selected: str | None = None
        self.report: SelectionReport | None = None
        self.hover: str | None = None             # piece under the mouse, or the panel row under it
        self.hover_terrain: str | None = None
        self.expanded: frozenset[str] = frozenset()
        self.legend_open: bool | None = None     # None: open unless a unit is selected
        self.panel_blocks: list = []
        self.panel_scroll = 0
        self.log_title = ""
        self.log_lines: list[str] = []
        self.log_wrapped: list[tuple[str, bool]] = []
        self._wrap_width = 0                          # the log panel's width the wrapping below is for
        self._wrap_memo: dict[str, list[tuple[str, bool]]] = {}      # each line wrapped at that width: its parts
        self._log_done: tuple = ([], [])              # the last log wrapped: its lines, its wrapped lines
        self._log_long: dict[str, tuple] = {}         # the last long logs (a battle's, per viewer) wrapped, by title
        self.log_scroll = 0
        self.ruler_a: RulerEnd | None = None
        self.ruler_b: RulerEnd | None = None
        self.ruler_result: RulerResult | None = None
        self.ruler_dragging = False
        self.waypoints: list[tuple[float, float]] = []
        self.move_result: MoveResult | None = None
        self.cursor: tuple[float, float] | None = None
        self.cursor_result: MoveResult | None = None
        self.jump_point: tuple[float, float] | None = None
        self.jump_result: MoveResult | None = None
        self.panning = False
        self.mouse = (0, 0)
        self.sent: list[Intent] = []
        self._static: tuple | None = None       # (view key, picture of the cloth, terrain and grid)
        self._static_layer: pygame.Surface | None = None   # that picture's surface, kept to be drawn on again
        self._laid_out_for: tuple[int, int] | None = None  # the window size the widgets were made for
        self._side_picture: tuple | None = None  # (panel blocks, key, picture of the side panel above the log)
        self.exposure = ExposureOverlay()          # E: the exposure map, computed off the drawing thread
        prepare_terrain(bf)                        # the engine's terrain arrays, off the drawing thread too

    # ---- life cycle -------------------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self.on_resize(self.size)

    def on_resume(self) -> None:
        self.on_resize(self.size)

    def on_resize(self, size: tuple[int, int]) -> None:
        self._laid_out_for = size
        self.layout = self.lay_out(size)
        if self.fitted:
            self.fit()
        self._build_gui(size)
        self._relayout_panel()
        self._rewrap_log()

    def _build_gui(self, size) -> None:
        if self.manager is None:
            self.manager = pygame_gui.UIManager(size, theme.gui_theme())
        else:
            self.manager.set_window_resolution(size)
            self.manager.clear_and_reset()
        self.buttons = {}
        tb = self.layout.toolbar
        gap = 6
        bw = (tb.w - 2 * panels.PAD - gap * (len(BUTTONS) - 1)) // len(BUTTONS)
        for i, (key, label, tip) in enumerate(BUTTONS):
            rect = pygame.Rect(tb.x + panels.PAD + i * (bw + gap), tb.y + 7, bw, tb.h - 14)
            self.buttons[key] = pygame_gui.elements.UIButton(rect, label, self.manager, tool_tip_text=tip)
        self._sync_buttons()

    def _sync_buttons(self) -> None:
        for key in (RULER, MOVE, JUMP):
            b = self.buttons.get(key)
            if b is None:
                continue
            if self.tool == key:
                b.select()
            else:
                b.unselect()
            if key in (MOVE, JUMP):
                p = self.selected_piece
                can = p is not None and not p.is_objective
                if can:
                    b.enable()
                else:
                    b.disable()

    # ---- what is where ------------------------------------------------------------------------------------------
    @property
    def selected_piece(self):
        return self.table.bf.pieces.get(self.selected) if self.selected else None

    def table_point(self, pos) -> tuple[float, float]:
        return self.view.to_table(*pos)

    def piece_at(self, pos) -> str | None:
        """The piece whose base is under the screen point (units before counters, nearest first)."""
        x, y = self.table_point(pos)
        slop = PICK_SLOP / self.view.scale
        best = None
        for p in self.table.bf.pieces.values():
            d = math.hypot(p.x - x, p.y - y)
            reach = max(p.radius, drawing.piece_radius(self.view, p) / self.view.scale) + slop
            if d <= reach:
                rank = (0 if p.is_unit else 1, d)
                if best is None or rank < best[0]:
                    best = (rank, p.id)
        return best[1] if best else None

    def terrain_at(self, pos) -> str | None:
        x, y = self.table_point(pos)
        found = None
        for f in self.table.bf.terrain:
            if f.holds(x, y):
                found = f.id
        return found

    def on_table(self, pos) -> bool:
        return self.layout.table.collidepoint(pos)

    # ---- view ---------------------------------------------------------------------------------------------------
    def lay_out(self, size: tuple[int, int]) -> Layout:
        """Where each part of the screen goes (a scene with a bar of buttons over its side panel sets it here)."""
        return layout_for(size)

    def fit(self) -> None:
        left, top, right, bottom = theme.TABLE_MARGINS
        t = self.layout.table
        self.view.fit((t.x, t.y, t.w, t.h), (left, top + self.banner_h, right, bottom))
        self.fitted = True

    def zoom(self, factor: float, at=None) -> None:
        at = at or self.layout.table.center
        self.view.zoom_at(factor, *at)
        self.fitted = False

    def pan(self, dx: float, dy: float) -> None:
        self.view.pan(dx, dy)
        self.fitted = False

    # ---- the log ------------------------------------------------------------------------------------------------
    def set_log(self, title: str, lines, plain: bool = False) -> None:
        """``plain``: ``lines`` is a list of strings already (a long battle log is not copied line by line)."""
        self.log_title = title
        self.log_lines = list(lines) if plain else [str(s) for s in lines]
        self.log_scroll = 0
        self._rewrap_log()

    def _rewrap_log(self) -> None:
        """Wrap the log to the panel's width, so that an action late in a long battle costs what an early one does.

        A battle's log only grows: when the new lines begin with the last ones (or with a long log of the same
        title, a battle's as one player sees it, wrapped before a message or a hand-off replaced it) only the new
        ones are wrapped. Otherwise (the other
        player's view after a hand-off, one unit's entries) each line's wrapping is looked up: every line wrapped at
        this width is remembered, up to ``WRAP_MEMO`` lines."""
        width = self.layout.log.w - 2 * panels.PAD
        if width != self._wrap_width:
            self._wrap_width, self._wrap_memo = width, {}
            self._log_done, self._log_long = ([], []), {}
        grown = None
        for lines, wrapped_before in (self._log_done, *self._log_long.values()):
            n = len(lines)
            if n and len(self.log_lines) >= n and self.log_lines[n - 1] == lines[-1] and self.log_lines[:n] == lines:
                grown = wrapped_before + self._wrapped(self.log_lines[n:])
                break
        wrapped = grown if grown is not None else self._wrapped(self.log_lines)
        self.log_wrapped = wrapped
        self._log_done = (self.log_lines, wrapped)
        if len(self.log_lines) >= LONG_LOG:
            self._log_long.pop(self.log_title, None)
            self._log_long[self.log_title] = (self.log_lines, wrapped)
            while len(self._log_long) > LONG_LOGS:
                del self._log_long[next(iter(self._log_long))]
        if len(self._wrap_memo) > WRAP_MEMO:
            keep = set(self.log_lines).union(*(lines for lines, _ in self._log_long.values()))
            self._wrap_memo = {line: parts for line, parts in self._wrap_memo.items() if line in keep}

    def _wrapped(self, lines: list[str]) -> list[tuple[str, bool]]:
        memo, width, out = self._wrap_memo, self._wrap_width, []
        for line in lines:
            parts = memo.get(line)
            if parts is None:
                parts = memo[line] = panels.log_lines((line,), width)
            out.extend(parts)
        return out

    def _log_visible_lines(self) -> int:
        return max(1, (self.layout.log.h - 30) // line_height(panels.SMALL))

    # ---- selecting ----------------------------------------------------------------------------------------------
    def select(self, piece_id: str | None) -> None:
        if piece_id is not None and piece_id not in self.table.bf.pieces:
            raise KeyError(piece_id)
        if piece_id != self.selected:
            self.expanded = frozenset()
            self.panel_scroll = 0
        self.selected = piece_id
        self.report = None
        if piece_id is not None:
            try:
                self.report = selection_report(self.table.bf, self.table.bf.pieces[piece_id])
            except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: a rules error must not close the window: show it
                traceback.print_exc()
                self.set_log(f"Could not answer for {piece_id}", [f"{type(e).__name__}: {e}"])
            else:
                if self.report.passive is not None:
                    self.set_log(f"{piece_id}: passive sensors where it stands", self.report.passive.explain)
        if self.tool in (MOVE, JUMP):
            self._clear_move()
            if piece_id is None:
                self.tool = SELECT
        self._relayout_panel()
        self._sync_buttons()

    def cycle_selection(self, step: int) -> None:
        ids = [p.id for p in self.table.bf.pieces.values() if p.is_unit]
        if not ids:
            return
        if self.selected in ids:
            i = (ids.index(self.selected) + step) % len(ids)
        else:
            i = 0 if step > 0 else len(ids) - 1
        self.select(ids[i])

    def pair(self, other_id: str | None) -> PairReport | None:
        if self.report is None or other_id is None:
            return None
        return self.report.pair(other_id)

    def toggle_expand(self, other_id: str) -> None:
        pair = self.pair(other_id)
        if pair is None:
            return
        self.expanded = self.expanded ^ {other_id}
        self.set_log(f"{pair.actor} against {other_id}", pair.explain()[1:])
        self._relayout_panel()

    def _relayout_panel(self) -> None:
        self.panel_blocks = panels.side_panel_blocks(self.table, self.selected, self.report, self.expanded,
                                                     self.layout.panel.w, self.legend_shown)
        self._clamp_panel_scroll()

    @property
    def legend_shown(self) -> bool:
        return self.legend_open if self.legend_open is not None else self.selected is None

    def toggle_legend(self) -> None:
        self.legend_open = not self.legend_shown
        self._relayout_panel()

    def _clamp_panel_scroll(self) -> None:
        most = max(0, content_height(self.panel_blocks) - self.layout.panel.h)
        self.panel_scroll = max(0, min(self.panel_scroll, most))

    def panel_block_at(self, pos):
        if not self.layout.panel.collidepoint(pos):
            return None
        return block_at(self.panel_blocks, pos[1] - self.layout.panel.y + self.panel_scroll)

    # ---- tools --------------------------------------------------------------------------------------------------
    def set_tool(self, tool: str) -> None:
        if tool in (MOVE, JUMP):
            p = self.selected_piece
            if p is None or p.is_objective:
                self.set_log("Move and Jump previews", ["Select a unit first (left click), then press M or J."])
                return
        if self.tool == tool:
            tool = SELECT
        self.tool = tool
        self.ruler_dragging = False
        self._clear_move()
        if tool != RULER:
            self.ruler_a = self.ruler_b = self.ruler_result = None
        if tool in TOOL_HINTS:
            self.set_log(self.tool_titles[tool], [TOOL_HINTS[tool]])
        self._sync_buttons()

    def _clear_move(self) -> None:
        self.waypoints = []
        self.move_result = None
        self.cursor = None
        self.cursor_result = None
        self.jump_point = None
        self.jump_result = None

    def ruler_end_at(self, pos) -> RulerEnd:
        pid = self.piece_at(pos)
        if pid is not None:
            p = self.table.bf.pieces[pid]
            return RulerEnd(p.x, p.y, pid)
        x, y = self.table_point(pos)
        return RulerEnd(x, y)

    def measure_between(self, a: RulerEnd, b: RulerEnd) -> RulerResult:
        self.ruler_a, self.ruler_b = a, b
        self.ruler_result = ruler(self.table.bf, a, b)
        name_a = a.piece or f"({a.x:.1f}, {a.y:.1f})"
        name_b = b.piece or f"({b.x:.1f}, {b.y:.1f})"
        self.set_log(f"Ruler: {name_a} to {name_b}", self.ruler_result.explain)
        return self.ruler_result

    def set_move_path(self, path) -> MoveResult | None:
        p = self.selected_piece
        if p is None:
            return None
        self.waypoints = [(float(q[0]), float(q[1])) for q in path]
        self.move_result = preview_move(self.table.bf, p, self.waypoints) if self.waypoints else None
        if self.move_result is not None:
            self.set_log(f"Move preview: {p.id}", self.move_result.explain)
        return self.move_result

    def add_waypoint(self, point) -> MoveResult | None:
        return self.set_move_path(self.waypoints + [(float(point[0]), float(point[1]))])

    def set_jump_point(self, point) -> MoveResult | None:
        p = self.selected_piece
        if p is None:
            return None
        landing = (float(point[0]), float(point[1]))
        self.jump_point = landing
        self.jump_result = preview_jump(self.table.bf, p, landing)
        self.set_log(f"Jump preview: {p.id}", self.jump_result.explain)
        return self.jump_result

    def _preview_cursor(self, pos) -> None:
        p = self.selected_piece
        if p is None or not self.on_table(pos):
            self.cursor = self.cursor_result = None
            return
        self.cursor = self.table_point(pos)
        if self.tool == MOVE:
            self.cursor_result = preview_move(self.table.bf, p, self.waypoints + [self.cursor])
        elif self.tool == JUMP and self.jump_point is None:
            self.cursor_result = preview_jump(self.table.bf, p, self.cursor)

    def confirm(self) -> Intent | None:
        """Send the previewed move or jump to the engine as an intent (only when the rules allow it)."""
        p = self.selected_piece
        if p is None:
            return None
        if self.tool == MOVE and self.move_result is not None:
            result, intent = self.move_result, Intent("move", p.id, tuple(self.waypoints))
        elif self.tool == JUMP and self.jump_result is not None and self.jump_point is not None:
            result, intent = self.jump_result, Intent("jump", p.id, (self.jump_point,))
        else:
            return None
        if not result.legal:
            self.set_log(f"{intent.kind.title()} not sent", [f"not allowed: {result.reason}"] + [str(s) for s in result.explain])
            return None
        handler = self.on_intent or (self.app.send if self.app is not None else None)
        self.sent.append(intent)
        end = result.end
        self.set_log(f"Sent to the engine: {intent.kind} {p.id} to ({end[0]:.2f}, {end[1]:.2f})",
                     [str(s) for s in result.explain])
        self._clear_move()
        if handler is not None:
            handler(intent)         # last: what the engine answers is what the log shows
        return intent

    # ---- events -------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._button(event.ui_element)
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
            if b is element:
                if key in (RULER, MOVE, JUMP):
                    self.set_tool(key)
                elif key == "fit":
                    self.fit()
                elif key == "help":
                    self.open_help()
                elif key == "menu":
                    self.leave()
                return True
        return False

    def open_help(self) -> None:
        self.push_scene("help", keys.help_groups(self.key_table), legend=panels.LEGEND)

    def leave(self) -> None:
        if self.app is not None:
            self.app.pop()

    def _motion(self, event) -> bool:
        pos = event.pos
        self.mouse = pos
        if self.panning:
            self.pan(*event.rel)
            return True
        self.hover = None
        self.hover_terrain = None
        if self.on_table(pos):
            self.hover = self.piece_at(pos)
            if self.hover is None and self.tool == SELECT:
                self.hover_terrain = self.terrain_at(pos)
        else:
            block = self.panel_block_at(pos)
            if block is not None and block.key and block.key.startswith("pair:"):
                self.hover = block.key[5:]
        if self.tool == RULER and self.ruler_dragging and self.ruler_a is not None:
            self.measure_between(self.ruler_a, self.ruler_end_at(pos))
        elif self.tool in (MOVE, JUMP):
            self._preview_cursor(pos)
        return True

    def _mouse_down(self, event) -> bool:
        pos = event.pos
        self.mouse = pos
        if event.button in (2, 3) and self.on_table(pos):
            self.panning = True
            return True
        if event.button != 1:
            return False
        if self.on_table(pos):
            if self.tool == RULER:
                end = self.ruler_end_at(pos)
                self.ruler_dragging = True
                self.measure_between(end, end)
            elif self.tool == SELECT:
                self.select(self.piece_at(pos))
            return True
        block = self.panel_block_at(pos)
        if block is not None and block.key:
            if block.key.startswith("pair:"):
                self.toggle_expand(block.key[5:])
            elif block.key == "legend":
                self.toggle_legend()
            return True
        return False

    def _mouse_up(self, event) -> bool:
        pos = event.pos
        if event.button in (2, 3):
            was = self.panning
            self.panning = False
            return was
        if event.button != 1:
            return False
        if self.tool == RULER and self.ruler_dragging:
            self.ruler_dragging = False
            if self.ruler_a is not None:
                self.measure_between(self.ruler_a, self.ruler_end_at(pos))
            return True
        if not self.on_table(pos):
            return False
        if self.tool == MOVE:
            self.add_waypoint(self.table_point(pos))
            self._preview_cursor(pos)
            return True
        if self.tool == JUMP:
            self.set_jump_point(self.table_point(pos))
            return True
        return False

    def _wheel(self, event) -> bool:
        pos = self.mouse
        if self.on_table(pos):
            self.zoom(ZOOM_STEP ** event.y, pos)
            return True
        if self.layout.panel.collidepoint(pos):
            self.panel_scroll -= event.y * 48
            self._clamp_panel_scroll()
            return True
        if self.layout.log.collidepoint(pos):
            most = max(0, len(self.log_wrapped) - self._log_visible_lines())
            self.log_scroll = max(0, min(most, self.log_scroll - event.y * 2))
            return True
        return False

    def _key(self, event) -> bool:
        return keys.dispatch(self.key_table, self, event)

    # ---- what the keys do (``key_table``) -------------------------------------------------------------------------
    def cycle_by_key(self, event) -> None:
        self.cycle_selection(-1 if event.mod & pygame.KMOD_SHIFT else 1)

    def zoom_by_key(self, event) -> None:
        self.zoom(ZOOM_STEP if event.key in keys.PLUS else 1 / ZOOM_STEP)

    def pan_by_key(self, event) -> None:
        dx, dy = {pygame.K_LEFT: (PAN_STEP, 0), pygame.K_RIGHT: (-PAN_STEP, 0), pygame.K_UP: (0, PAN_STEP),
                  pygame.K_DOWN: (0, -PAN_STEP)}[event.key]
        self.pan(dx, dy)

    def exposure_by_key(self, event) -> None:
        self.set_log(*self.exposure.on_key(bool(event.mod & pygame.KMOD_SHIFT)))

    def remove_waypoint(self) -> None:
        if self.tool == MOVE and self.waypoints:
            self.set_move_path(self.waypoints[:-1])
            if not self.waypoints:
                self.move_result = None

    def escape(self) -> None:
        if self.tool != SELECT:
            self.set_tool(self.tool)          # toggles back to select
        elif self.selected is not None:
            self.select(None)
        else:
            self.leave()

    # ---- the loop -----------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)
        self._refresh_static()
        self.exposure.follow(self)

    def _static_key(self) -> tuple:
        v, L = self.view, self.layout
        return (v.scale, v.ox, v.oy, v.turned, tuple(L.table), id(self.table))

    def _refresh_static(self) -> None:
        """Keep a picture of the cloth, terrain and grid for the current view (drawn again only when it changes)."""
        key = self._static_key()
        if self._static is not None and self._static[0] == key:
            return
        L = self.layout
        size = (L.table.right, L.table.bottom)
        kept = self._static_layer
        layer = kept if kept is not None and kept.get_size() == size else pygame.Surface(size)
        self._static_layer = layer              # reused after an action: a new one each time fragments the heap
        layer.set_clip(L.table)
        self._draw_static(layer)
        self._static = (key, layer)

    def _draw_static(self, surface) -> pygame.Rect:
        L, table, view = self.layout, self.table, self.view
        surface.fill(theme.BACKGROUND, L.table)
        cloth = drawing.draw_cloth(surface, table, view, L.table)
        drawing.draw_terrain(surface, table, view, L.table)
        drawing.draw_grid(surface, table, view, L.table)
        drawing.draw_edges(surface, table, view, cloth)
        return cloth

    def cloth_rect(self) -> pygame.Rect:
        return pygame.Rect(self.view.table_box())

    def draw(self, surface: pygame.Surface) -> None:
        L = self.layout
        table, view, bf = self.table, self.view, self.table.bf
        old_clip = surface.get_clip()
        surface.set_clip(L.table)
        if self._static is not None and self._static[0] == self._static_key():
            surface.blit(self._static[1], L.table.topleft, area=L.table)
            cloth = self.cloth_rect()
        else:
            cloth = self._draw_static(surface)
        self.exposure.draw(surface, view, L.table)
        sel = self.selected_piece
        if sel is not None and self.report is not None:
            if sel.is_trooper:
                drawing.draw_arc(surface, table, view, L.table, sel)
            drawing.draw_selection_rings(surface, view, L.table, sel, self.report, cloth)
            drawing.draw_sight_marks(surface, table, view, self.report)
        hovered_pair = self.pair(self.hover)
        if hovered_pair is not None:
            drawing.draw_sight_line(surface, view, hovered_pair)
        drawing.draw_pieces(surface, table, view, L.table)
        if sel is not None:
            drawing.draw_ring(surface, view, sel, theme.SELECTION, gap=4, width=3)
        if self.hover and self.hover != self.selected and self.hover in bf.pieces:
            drawing.draw_ring(surface, view, bf.pieces[self.hover], (255, 255, 255), gap=6, width=2)
        if self.tool == RULER and self.ruler_result is not None:
            drawing.draw_ruler(surface, view, self.ruler_result)
        if sel is not None and self.tool == MOVE:
            drawing.draw_move(surface, view, sel, self.waypoints, self.move_result, self.cursor, self.cursor_result)
        if sel is not None and self.tool == JUMP:
            point = self.jump_point
            result = self.jump_result
            if point is None and self.cursor is not None:
                point, result = self.cursor, self.cursor_result
            if point is not None:
                drawing.draw_move(surface, view, sel, [point], result, jump=True)
        self.exposure.draw_key(surface, view, L.table, self.mouse)
        surface.set_clip(old_clip)

        self._draw_side(surface)
        panels.draw_log(surface, L.log, self.log_title, self.log_wrapped, self.log_scroll)
        panels.draw_status(surface, L.status, table, self.tool_titles[self.tool], view.scale)
        if self.manager is not None:
            self.manager.draw_ui(surface)
        self._draw_tooltip(surface)

    def _draw_side(self, surface) -> None:
        """The side panel above the log; drawn again only when its blocks, scroll, highlight or size change, and
        otherwise copied from the last frame's picture of it."""
        L = self.layout
        highlight = f"pair:{self.hover}" if self.hover else None
        area = pygame.Rect(L.side.x, L.side.y, L.side.w, L.log.y - L.side.y).clip(surface.get_rect())
        key = (self.panel_scroll, highlight, tuple(L.side), tuple(area), surface.get_size())
        kept = self._side_picture
        if kept is not None and kept[0] is self.panel_blocks and kept[1] == key:
            surface.blit(kept[2], area.topleft)
            pygame.draw.line(surface, theme.PANEL_EDGE, L.side.topleft, L.side.bottomleft)
            return
        pygame.draw.rect(surface, theme.PANEL, L.side)
        pygame.draw.line(surface, theme.PANEL_EDGE, L.side.topleft, L.side.bottomleft)
        pygame.draw.rect(surface, theme.HEADER, L.toolbar)
        draw_blocks(surface, self.panel_blocks, L.panel, self.panel_scroll, highlight)
        total = content_height(self.panel_blocks)
        if total > L.panel.h:
            bar_h = max(24, L.panel.h * L.panel.h // total)
            bar_y = L.panel.y + (L.panel.h - bar_h) * self.panel_scroll // max(1, total - L.panel.h)
            pygame.draw.rect(surface, theme.PANEL_EDGE, (L.panel.right - 5, bar_y, 4, bar_h), border_radius=2)
        if area.w > 0 and area.h > 0:
            self._side_picture = (self.panel_blocks, key, surface.subsurface(area).copy())

    def _draw_tooltip(self, surface) -> None:
        if self.panning or self.ruler_dragging:
            return
        lines = None
        bf = self.table.bf
        on_table = self.on_table(self.mouse)
        pair = self.pair(self.hover)
        if pair is not None and on_table:
            lines = panels.tooltip_lines(self.table, pair)
        elif self.hover in bf.pieces and on_table and self.tool == SELECT:
            lines = panels.piece_tooltip(self.table, bf.pieces[self.hover])
        elif self.hover_terrain and on_table and self.tool == SELECT:
            f = next((f for f in bf.terrain if f.id == self.hover_terrain), None)
            if f is not None:
                lines = panels.terrain_tooltip(f)
        elif self.tool in (MOVE, JUMP) and self.cursor_result is not None and self.cursor is not None and on_table:
            r = self.cursor_result
            verb = "Jump" if self.tool == JUMP else "Move"
            if r.legal:
                lines = [(f"{verb} here: {drawing.move_label(r, self.tool == JUMP)}", theme.MOVE_LEGAL, True)]
            else:
                lines = [(f"{verb} here: not allowed", theme.ERROR, True), r.reason]
            lines.append((f"at ({self.cursor[0]:.1f}, {self.cursor[1]:.1f}); click to "
                          + ("add a waypoint" if self.tool == MOVE else "choose this landing point"),
                          theme.TEXT_FAINT, False))
        if lines:
            draw_tooltip(surface, lines, self.mouse, bounds=self.layout.table)
