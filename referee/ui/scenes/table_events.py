"""What the mouse does on the table scene: select, hover, pan, zoom, drag the ruler, click a Move's waypoints or a
Jump's landing point, and the toolbar's buttons. Each returns True when the event was used."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Protocol, Sequence

import pygame_gui

from ...rules.questions import RulerEnd, RulerResult
from ..widgets import Block
from . import table_tools
from .table_common import JUMP, MOVE, RULER, SELECT, ZOOM_STEP, Layout

if TYPE_CHECKING:
    from ...rules.movement import MoveResult     # the movement rules load with the first move previewed


class EventsHost(table_tools.PointsHost, Protocol):
    """What the mouse uses of the table scene: where the mouse is and what it hovers, the pan, the ruler's drag and
    the scrolls it changes; the toolbar's buttons, the layout, the tool in hand, the previews and the log it reads;
    and the scene's own verbs (select, zoom, measure, preview, set a tool...)."""

    mouse: tuple[int, int]
    panning: bool
    hover: str | None
    hover_terrain: str | None
    ruler_dragging: bool
    panel_scroll: int
    log_scroll: int

    @property
    def buttons(self) -> dict[str, pygame_gui.elements.UIButton]: ...

    @property
    def layout(self) -> Layout: ...

    @property
    def tool(self) -> str: ...

    @property
    def ruler_a(self) -> RulerEnd | None: ...

    @property
    def waypoints(self) -> list[tuple[float, float]]: ...

    @property
    def move_result(self) -> MoveResult | None: ...

    @property
    def jump_result(self) -> MoveResult | None: ...

    @property
    def log_title(self) -> str: ...

    @property
    def log_lines(self) -> Sequence[str]: ...

    @property
    def log_wrapped(self) -> Sequence[tuple[str, bool]]: ...

    def on_table(self, pos: tuple[int, int]) -> bool: ...

    def terrain_at(self, pos: tuple[int, int]) -> str | None: ...

    def panel_block_at(self, pos: tuple[int, int]) -> Block | None: ...

    def ruler_end_at(self, pos: tuple[int, int]) -> RulerEnd: ...

    def measure_between(self, a: RulerEnd, b: RulerEnd) -> RulerResult: ...

    def add_waypoint(self, point: tuple[float, float]) -> MoveResult | None: ...

    def set_jump_point(self, point: tuple[float, float]) -> MoveResult | None: ...

    def select(self, piece_id: str | None) -> None: ...

    def set_tool(self, tool: str) -> None: ...

    def set_log(self, title: str, lines: Iterable[object]) -> None: ...

    def toggle_expand(self, other_id: str) -> None: ...

    def toggle_legend(self) -> None: ...

    def fit(self) -> None: ...

    def zoom(self, factor: float, at: tuple[int, int] | None = None) -> None: ...

    def pan(self, dx: float, dy: float) -> None: ...

    def open_help(self) -> None: ...

    def leave(self) -> None: ...

    def _preview_cursor(self, pos: tuple[int, int]) -> None: ...

    def _clamp_panel_scroll(self) -> None: ...

    def _log_visible_lines(self) -> int: ...


def button(scene: EventsHost, element) -> bool:
    for key, b in scene.buttons.items():
        if b is element:
            if key in (RULER, MOVE, JUMP):
                scene.set_tool(key)
            elif key == "fit":
                scene.fit()
            elif key == "help":
                scene.open_help()
            elif key == "menu":
                scene.leave()
            return True
    return False


def motion(scene: EventsHost, event) -> bool:
    pos = event.pos
    scene.mouse = pos
    if scene.panning:
        scene.pan(*event.rel)
        return True
    scene.hover = None
    scene.hover_terrain = None
    if scene.on_table(pos):
        scene.hover = scene.piece_at(pos)
        if scene.hover is None and scene.tool == SELECT:
            scene.hover_terrain = scene.terrain_at(pos)
    else:
        block = scene.panel_block_at(pos)
        if block is not None and block.key and block.key.startswith("pair:"):
            scene.hover = block.key[5:]
    if scene.tool == RULER and scene.ruler_dragging and scene.ruler_a is not None:
        scene.measure_between(scene.ruler_a, scene.ruler_end_at(pos))
    elif scene.tool in (MOVE, JUMP):
        scene._preview_cursor(pos)
    return True


def mouse_down(scene: EventsHost, event) -> bool:
    pos = event.pos
    scene.mouse = pos
    if event.button in (2, 3) and scene.on_table(pos):
        scene.panning = True
        return True
    if event.button != 1:
        return False
    if scene.on_table(pos):
        if scene.tool == RULER:
            end = scene.ruler_end_at(pos)
            scene.ruler_dragging = True
            scene.measure_between(end, end)
        elif scene.tool == SELECT:
            scene.select(scene.piece_at(pos))
        return True
    block = scene.panel_block_at(pos)
    if block is not None and block.key:
        if block.key.startswith("pair:"):
            scene.toggle_expand(block.key[5:])
        elif block.key == "legend":
            scene.toggle_legend()
        return True
    return False


def mouse_up(scene: EventsHost, event) -> bool:
    pos = event.pos
    if event.button in (2, 3):
        was = scene.panning
        scene.panning = False
        return was
    if event.button != 1:
        return False
    if scene.tool == RULER and scene.ruler_dragging:
        scene.ruler_dragging = False
        if scene.ruler_a is not None:
            scene.measure_between(scene.ruler_a, scene.ruler_end_at(pos))
        return True
    if not scene.on_table(pos):
        return False
    mover = scene.selected_piece
    if scene.tool == MOVE:
        frm = scene.waypoints[-1] if scene.waypoints else ((mover.x, mover.y) if mover is not None else (0.0, 0.0))
        point, touched = table_tools.snapped_point(scene, pos, frm)
        scene.add_waypoint(point)
        scene._preview_cursor(pos)
        if touched is not None and scene.move_result is not None:
            scene.set_log(scene.log_title, [f"the base ends touching {touched} at ({point[0]:.3f}, {point[1]:.3f})",
                                            *scene.log_lines])
        return True
    if scene.tool == JUMP:
        frm = (mover.x, mover.y) if mover is not None else (0.0, 0.0)
        point, touched = table_tools.snapped_point(scene, pos, frm)
        scene.set_jump_point(point)
        if touched is not None and scene.jump_result is not None:
            scene.set_log(scene.log_title, [f"the base lands touching {touched} at ({point[0]:.3f}, {point[1]:.3f})",
                                            *scene.log_lines])
        return True
    return False


def wheel(scene: EventsHost, event) -> bool:
    pos = scene.mouse
    if scene.on_table(pos):
        scene.zoom(ZOOM_STEP ** event.y, pos)
        return True
    if scene.layout.panel.collidepoint(pos):
        scene.panel_scroll -= event.y * 48
        scene._clamp_panel_scroll()
        return True
    if scene.layout.log.collidepoint(pos):
        most = max(0, len(scene.log_wrapped) - scene._log_visible_lines())
        scene.log_scroll = max(0, min(most, scene.log_scroll - event.y * 2))
        return True
    return False
