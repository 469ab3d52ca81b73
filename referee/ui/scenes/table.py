"""The table scene: look at a table and ask the referee questions about it.

Tools: select (sight, cover, Target price and rifle odds against every enemy), ruler, move and jump previews.
Every number comes from the rules functions (see ``rules.questions``; in a battle the service answers for the seat). The scene never changes the battle: a
confirmed move or jump leaves as an ``Intent`` for the engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from ...logs import failure
from ...rules.battlefield import Battlefield
from .. import drawing, keys, panels, theme
from ..exposure import ExposureOverlay, prepare_terrain
from ..intents import Intent, IntentHandler
from ..keys import KeyTable
from ...rules.questions import PairReport, RulerEnd, RulerResult, SelectionReport, selection_report
from ..gui_managers import new_manager
from ..scene import Scene
from ..table_data import TableData
from ..view import ViewTransform
from ..widgets import block_at, content_height, line_height
from . import table_drawing, table_events, table_tools
from .table_common import (
    BUTTONS,
    JUMP,
    MOVE,
    PAN_STEP,
    PICK_SLOP,
    RULER,
    SELECT,
    TABLE_KEYS,
    TOOL_HINTS,
    TOOL_TITLES,
    ZOOM_STEP,
    Layout,
    layout_for,
)

if TYPE_CHECKING:
    from ...rules.movement import MoveResult     # the movement rules load with the first move previewed


class TableScene(Scene):
    banner_h = 0                      # pixels over the table kept for a scene's banner (the table is fitted below it)
    title = "Table"
    key_table: KeyTable = TABLE_KEYS  # every key of the scene and its help line
    tool_titles = TOOL_TITLES         # the status bar's name of each tool (a scene with more tools names them too)
    own_edge_down = False             # U in a battle: side B's player sees the table turned, its edge down

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
        # The log panel's lines, written out and wrapped: lists, or a battle's log read on demand (``BattleLog``).
        self.log_lines: Sequence[str] = []
        self.log_wrapped: Sequence[tuple[str, bool]] = []
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
        self._terrain: tuple = (None, ())                 # (table, what its static picture shows)
        self._side_picture: tuple | None = None  # (panel blocks, key, picture of the side panel above the log)
        self._board: tuple | None = None         # (what it shows, picture of the table under the tools' previews)
        self.exposure = ExposureOverlay()          # E: the exposure map, computed off the drawing thread
        self._terrain_for: Battlefield | None = bf  # the table whose engine arrays are to be prepared

    # ---- life cycle -------------------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self.on_resize(self.size)
        bf, self._terrain_for = self._terrain_for, None
        if bf is not None:
            # The engine's terrain arrays, built off the drawing thread once the first frame is on the screen: built
            # beside it, they took a fifth of its time (the thread holds the interpreter while it works).
            if self.app is not None:
                self.app.when_shown(lambda: prepare_terrain(bf))
            else:
                prepare_terrain(bf)

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
            self.manager = new_manager(size)
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

    def face_viewer(self, viewer: str | None) -> None:
        """Turn the drawing (only the drawing) so that ``viewer`` sees its own edge down if the players chose so."""
        turned = self.own_edge_down and viewer == "B"
        if turned != self.view.turned:
            self.view.turn(turned)
            self._static = None

    def pan(self, dx: float, dy: float) -> None:
        self.view.pan(dx, dy)
        self.fitted = False

    # ---- the log ------------------------------------------------------------------------------------------------
    def set_log(self, title: str, lines) -> None:
        """Show ``lines`` (a message, an explanation: a few lines) in the log panel."""
        self.log_title = title
        self.log_lines = [str(s) for s in lines]
        self.log_scroll = 0
        self._rewrap_log()

    def _rewrap_log(self) -> None:
        self.log_wrapped = panels.log_lines(self.log_lines, self.log_width())

    def log_width(self) -> int:
        """The width the log panel's lines are wrapped to, in pixels."""
        return self.layout.log.w - 2 * panels.PAD

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
            self.report, error = self.report_for(piece_id)
            if self.report is None:
                failure(f"the report on {piece_id} failed")
                self.set_log(f"Could not answer for {piece_id}", [error])
            else:
                if self.report.passive is not None:
                    self.set_log(f"{piece_id}: passive sensors where it stands", self.report.passive_lines)
        if self.tool in (MOVE, JUMP):
            self._clear_move()
            if piece_id is None:
                self.tool = SELECT
        self._relayout_panel()
        self._sync_buttons()

    def report_for(self, piece_id: str) -> tuple[SelectionReport | None, str]:
        """The side panel's report on ``piece_id`` (a battle's scene reads it from its screen), or why it failed."""
        try:
            return selection_report(self.table.bf, self.table.bf.pieces[piece_id]), ""
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: a rules error must not close the window: show it
            return None, f"{type(e).__name__}: {e}"

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
        return table_tools.measure_between(self, a, b)

    def set_move_path(self, path) -> MoveResult | None:
        return table_tools.set_move_path(self, path)

    def add_waypoint(self, point) -> MoveResult | None:
        return self.set_move_path(self.waypoints + [(float(point[0]), float(point[1]))])

    def set_jump_point(self, point) -> MoveResult | None:
        return table_tools.set_jump_point(self, point)

    def _preview_cursor(self, pos) -> None:
        table_tools.preview_cursor(self, pos)

    def confirm(self) -> Intent | None:
        return table_tools.confirm(self)

    def type_destination(self) -> bool:
        return table_tools.typed_destination(self)

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
        return table_events.button(self, element)

    def open_help(self) -> None:
        self.push_scene("help", keys.help_groups(self.key_table), legend=panels.LEGEND)

    def leave(self) -> None:
        if self.app is not None:
            self.app.pop()

    def _motion(self, event) -> bool:
        return table_events.motion(self, event)

    def _mouse_down(self, event) -> bool:
        return table_events.mouse_down(self, event)

    def _mouse_up(self, event) -> bool:
        return table_events.mouse_up(self, event)

    def _wheel(self, event) -> bool:
        return table_events.wheel(self, event)

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
        return (v.scale, v.ox, v.oy, v.turned, tuple(L.table), self._terrain_key())

    def _terrain_key(self) -> tuple:
        """What the cloth, terrain and grid picture shows of the table. The battle makes a new table after every
        action, but its terrain seldom changes: the picture is drawn again only when it does (a long battle's
        smoke would otherwise be drawn again after every action)."""
        if self._terrain[0] is not self.table:
            bf = self.table.bf
            # A terrain entry's feature is made once and shared by every table built from it (``feature_of``), and
            # features compare by identity: the same features are the same picture. The key holds them, so an
            # identity is never reused while it is compared.
            self._terrain = (self.table, (bf.width, bf.height, tuple(bf.terrain)))
        return self._terrain[1]

    def _refresh_static(self) -> None:
        table_drawing.refresh_static(self)

    def _draw_static(self, surface) -> pygame.Rect:
        return table_drawing.draw_static(self, surface)

    def cloth_rect(self) -> pygame.Rect:
        return pygame.Rect(self.view.table_box())

    def draw(self, surface: pygame.Surface) -> None:
        table_drawing.draw(self, surface)

    def _draw_side(self, surface) -> None:
        table_drawing.draw_side(self, surface)

    def _draw_tooltip(self, surface) -> None:
        table_drawing.draw_tooltip(self, surface)
