"""How the table scene is painted: the cloth, terrain and grid kept as a picture until the view changes, the
pieces, the selection's marks and the tools' previews over it, then the side panel, the log, the status bar and the
tooltip. Drawing reads the scene and never changes the battle."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence

import pygame
import pygame_gui

from ...rules.battlefield import Piece
from ...rules.questions import PairReport, RulerResult, SelectionReport
from .. import drawing, panels, theme
from .. import widgets
from ..exposure import ExposureOverlay
from ..table_data import TableData
from ..view import ViewTransform
from ..widgets import content_height, draw_blocks
from .table_common import JUMP, MOVE, RULER, SELECT, Layout

if TYPE_CHECKING:
    from ...rules.movement import MoveResult     # the movement rules load with the first move previewed


class DrawingHost(Protocol):
    """What the painting uses of the table scene: the pictures it keeps there between frames (the cloth's, the
    board's, the side panel's), and everything a frame shows, read only: the layout and view, the table and the
    selection's report, the hover, the tools' previews, the side panel and the log, the status and the widgets."""

    _static: tuple | None
    _static_layer: pygame.Surface | None
    _board: tuple | None
    _side_picture: tuple | None

    @property
    def layout(self) -> Layout: ...

    @property
    def view(self) -> ViewTransform: ...

    @property
    def table(self) -> TableData: ...

    @property
    def selected(self) -> str | None: ...

    @property
    def selected_piece(self) -> Piece | None: ...

    @property
    def report(self) -> SelectionReport | None: ...

    @property
    def hover(self) -> str | None: ...

    @property
    def hover_terrain(self) -> str | None: ...

    @property
    def exposure(self) -> ExposureOverlay: ...

    @property
    def mouse(self) -> tuple[int, int]: ...

    @property
    def panning(self) -> bool: ...

    @property
    def tool(self) -> str: ...

    @property
    def tool_titles(self) -> Mapping[str, str]: ...

    @property
    def ruler_dragging(self) -> bool: ...

    @property
    def ruler_result(self) -> RulerResult | None: ...

    @property
    def waypoints(self) -> list[tuple[float, float]]: ...

    @property
    def move_result(self) -> MoveResult | None: ...

    @property
    def cursor(self) -> tuple[float, float] | None: ...

    @property
    def cursor_result(self) -> MoveResult | None: ...

    @property
    def jump_point(self) -> tuple[float, float] | None: ...

    @property
    def jump_result(self) -> MoveResult | None: ...

    @property
    def panel_blocks(self) -> list[Any]: ...

    @property
    def panel_scroll(self) -> int: ...

    @property
    def log_title(self) -> str: ...

    @property
    def log_wrapped(self) -> Sequence[tuple[str, bool]]: ...

    @property
    def log_scroll(self) -> int: ...

    @property
    def manager(self) -> pygame_gui.UIManager | None: ...

    def on_table(self, pos: tuple[int, int]) -> bool: ...

    def pair(self, other_id: str | None) -> PairReport | None: ...

    def cloth_rect(self) -> pygame.Rect: ...

    def _static_key(self) -> tuple: ...

    def _draw_static(self, surface: pygame.Surface) -> pygame.Rect: ...

    def _draw_side(self, surface: pygame.Surface) -> None: ...

    def _draw_tooltip(self, surface: pygame.Surface) -> None: ...


def refresh_static(scene: DrawingHost) -> None:
    """Keep a picture of the cloth, terrain and grid for the current view (drawn again only when it changes)."""
    key = scene._static_key()
    if scene._static is not None and scene._static[0] == key:
        return
    L = scene.layout
    size = (L.table.right, L.table.bottom)
    kept = scene._static_layer
    layer = kept if kept is not None and kept.get_size() == size else pygame.Surface(size)
    scene._static_layer = layer              # reused after an action: a new one each time fragments the heap
    layer.set_clip(L.table)
    scene._draw_static(layer)
    scene._static = (key, layer)


def draw_static(scene: DrawingHost, surface) -> pygame.Rect:
    L, table, view = scene.layout, scene.table, scene.view
    surface.fill(theme.BACKGROUND, L.table)
    cloth = drawing.draw_cloth(surface, table, view, L.table)
    # Terrain stops at the table's edge: a missile's crater off the table (A29) is not drawn over the margin.
    old_clip = surface.get_clip()
    surface.set_clip(cloth.clip(old_clip))
    drawing.draw_terrain(surface, table, view, L.table)
    surface.set_clip(old_clip)
    drawing.draw_grid(surface, table, view, L.table)
    drawing.draw_edges(surface, table, view, cloth)
    return cloth


def board_key(scene: DrawingHost) -> tuple:
    """What the board picture (``draw_board``) shows: the view, and by identity the table, the selection's report,
    the hovered piece's pair and the exposure map's picture; each is replaced, never changed, when it changes."""
    return (scene._static_key(), scene.selected, scene.hover, scene.table, scene.report, scene.exposure.drawn())


def _same(a: tuple, b: tuple) -> bool:
    """The same board: equal view, selection and hover, and the very same table, report and pictures (comparing a
    table field by field would cost more than drawing it)."""
    return a[:3] == b[:3] and all(x is y for x, y in zip(a[3:-1], b[3:-1])) \
        and all(x is y for x, y in zip(a[-1], b[-1]))


def draw_board(scene: DrawingHost, surface: pygame.Surface) -> pygame.Rect:
    """The table as the frames between two changes show it, under the tools' previews: the cloth, terrain and grid,
    the exposure map, the selection's arc, rings and sight marks, the hovered piece's sight line, the pieces and
    their selection and hover rings. Returns the cloth's rectangle."""
    L = scene.layout
    table, view, bf = scene.table, scene.view, scene.table.bf
    if scene._static is not None and scene._static[0] == scene._static_key():
        surface.blit(scene._static[1], L.table.topleft, area=L.table)
        cloth = scene.cloth_rect()
    else:
        cloth = scene._draw_static(surface)
    scene.exposure.draw(surface, view, L.table)
    sel = scene.selected_piece
    if sel is not None and scene.report is not None:
        if sel.is_trooper:
            drawing.draw_arc(surface, table, view, L.table, sel)
        drawing.draw_selection_rings(surface, view, L.table, sel, scene.report, cloth)
        drawing.draw_sight_marks(surface, table, view, scene.report)
    hovered_pair = scene.pair(scene.hover)
    if hovered_pair is not None:
        drawing.draw_sight_line(surface, view, hovered_pair)
    drawing.draw_pieces(surface, table, view, L.table)
    if sel is not None:
        drawing.draw_ring(surface, view, sel, theme.SELECTION, gap=4, width=3)
    if scene.hover and scene.hover != scene.selected and scene.hover in bf.pieces:
        drawing.draw_ring(surface, view, bf.pieces[scene.hover], (255, 255, 255), gap=6, width=2)
    return cloth


def blit_board(scene: DrawingHost, surface: pygame.Surface) -> None:
    """The board from its picture, drawn again only when ``board_key`` changes: between two actions, a frame with
    every overlay on is one copy instead of every piece, ring and mark drawn again."""
    L = scene.layout
    key = board_key(scene)
    kept = scene._board
    size = (L.table.right, L.table.bottom)
    if kept is None or kept[1].get_size() != size or not _same(kept[0], key):
        layer = kept[1] if kept is not None and kept[1].get_size() == size else pygame.Surface(size)
        layer.set_clip(L.table)
        draw_board(scene, layer)
        scene._board = kept = (key, layer)
    surface.blit(kept[1], L.table.topleft, area=L.table)


def draw(scene: DrawingHost, surface: pygame.Surface) -> None:
    L = scene.layout
    table, view = scene.table, scene.view
    sel = scene.selected_piece
    old_clip = surface.get_clip()
    surface.set_clip(L.table)
    blit_board(scene, surface)
    if scene.tool == RULER and scene.ruler_result is not None:
        drawing.draw_ruler(surface, view, scene.ruler_result)
    if sel is not None and scene.tool == MOVE:
        drawing.draw_move(surface, view, sel, scene.waypoints, scene.move_result, scene.cursor, scene.cursor_result)
    if sel is not None and scene.tool == JUMP:
        point = scene.jump_point
        result = scene.jump_result
        if point is None and scene.cursor is not None:
            point, result = scene.cursor, scene.cursor_result
        if point is not None:
            drawing.draw_move(surface, view, sel, [point], result, jump=True)
    scene.exposure.draw_key(surface, view, L.table, scene.mouse)
    surface.set_clip(old_clip)

    scene._draw_side(surface)
    panels.draw_log(surface, L.log, scene.log_title, scene.log_wrapped, scene.log_scroll)
    panels.draw_status(surface, L.status, table, scene.tool_titles[scene.tool], view.scale)
    if scene.manager is not None:
        scene.manager.draw_ui(surface)
    scene._draw_tooltip(surface)


def draw_side(scene: DrawingHost, surface) -> None:
    """The side panel above the log; drawn again only when its blocks, scroll, highlight or size change, and
    otherwise copied from the last frame's picture of it."""
    L = scene.layout
    highlight = f"pair:{scene.hover}" if scene.hover else None
    area = pygame.Rect(L.side.x, L.side.y, L.side.w, L.log.y - L.side.y).clip(surface.get_rect())
    key = (scene.panel_scroll, highlight, tuple(L.side), tuple(area), surface.get_size())
    kept = scene._side_picture
    if kept is not None and kept[0] is scene.panel_blocks and kept[1] == key:
        surface.blit(kept[2], area.topleft)
        pygame.draw.line(surface, theme.PANEL_EDGE, L.side.topleft, L.side.bottomleft)
        return
    pygame.draw.rect(surface, theme.PANEL, L.side)
    pygame.draw.line(surface, theme.PANEL_EDGE, L.side.topleft, L.side.bottomleft)
    pygame.draw.rect(surface, theme.HEADER, L.toolbar)
    draw_blocks(surface, scene.panel_blocks, L.panel, scene.panel_scroll, highlight)
    total = content_height(scene.panel_blocks)
    if total > L.panel.h:
        bar_h = max(24, L.panel.h * L.panel.h // total)
        bar_y = L.panel.y + (L.panel.h - bar_h) * scene.panel_scroll // max(1, total - L.panel.h)
        pygame.draw.rect(surface, theme.PANEL_EDGE, (L.panel.right - 5, bar_y, 4, bar_h), border_radius=2)
    if area.w > 0 and area.h > 0:
        scene._side_picture = (scene.panel_blocks, key, surface.subsurface(area).copy())


def draw_tooltip(scene: DrawingHost, surface) -> None:
    if scene.panning or scene.ruler_dragging:
        return
    lines = None
    bf = scene.table.bf
    on_table = scene.on_table(scene.mouse)
    pair = scene.pair(scene.hover)
    if pair is not None and on_table:
        lines = panels.tooltip_lines(scene.table, pair)
    elif scene.hover in bf.pieces and on_table and scene.tool == SELECT:
        lines = panels.piece_tooltip(scene.table, bf.pieces[scene.hover])
    elif scene.hover_terrain and on_table and scene.tool == SELECT:
        f = next((f for f in bf.terrain if f.id == scene.hover_terrain), None)
        if f is not None:
            lines = panels.terrain_tooltip(f)
    elif scene.tool in (MOVE, JUMP) and scene.cursor_result is not None and scene.cursor is not None and on_table:
        r = scene.cursor_result
        verb = "Jump" if scene.tool == JUMP else "Move"
        if r.legal:
            lines = [(f"{verb} here: {drawing.move_label(r, scene.tool == JUMP)}", theme.MOVE_LEGAL, True)]
        else:
            lines = [(f"{verb} here: not allowed", theme.ERROR, True), r.reason]
        lines.append((f"at ({scene.cursor[0]:.1f}, {scene.cursor[1]:.1f}); click to "
                      + ("add a waypoint" if scene.tool == MOVE else "choose this landing point"),
                      theme.TEXT_FAINT, False))
    if lines:
        widgets.draw_tooltip(surface, lines, scene.mouse, bounds=scene.layout.table)
