"""Drawing the table editor: the table, the selection and gestures in progress, the messages and the status."""

from __future__ import annotations

import pygame

from ...rules.battlefield import Piece
from ...rules.catalogue import is_drone_type, terrain_types
from .. import drawing, theme
from ..editing import default_facing
from ..widgets import draw_text, draw_tooltip, ellipsize, line_height, wrap
from .editor_base import EditorBase
from .editor_common import BLIP, CIRCLE, OBJECTIVE, PAD, POLYGON, SELECT, TOOL_TITLES, UNIT


class EditorDrawing(EditorBase):
    """Mixed into ``EditorScene``."""

    def _static_key(self) -> tuple:
        v = self.view
        return (v.scale, v.ox, v.oy, v.turned, tuple(self.layout.table), self.editor.revision)

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
            self._draw_drag(surface, self.drag_id, self.drag_to)

    def _draw_drag(self, surface, ident: str, to: tuple[float, float]) -> None:
        """The piece or terrain ``ident`` being dragged, drawn where it would be dropped (``to``)."""
        bf, view = self.table.bf, self.view
        if ident in bf.pieces:
            p = bf.pieces[ident]
            drawing.draw_ghost(surface, view, p, to, p.facing if p.is_trooper else None, theme.SELECTION)
            return
        f = next((f for f in bf.terrain if f.id == ident), None)
        if f is None:
            return
        cx, cy = self.editor.terrain_centre(ident)
        dx, dy = to[0] - cx, to[1] - cy
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
        x, y = self.view.to_table(*self.mouse)
        if self.tool == OBJECTIVE:
            ghost = Piece(id="ghost", kind="objective", x=x, y=y)
            colour, facing = theme.OBJECTIVE_RED, None
        else:
            trooper = self.tool == UNIT and not is_drone_type(self.unit_type)
            ghost = Piece(id="ghost", kind="trooper" if trooper else "blip", x=x, y=y, side=self.side)
            colour, facing = theme.SIDE_COLOURS[self.side], default_facing(self.side) if trooper else None
        drawing.draw_ghost(surface, self.view, ghost, (x, y), facing, colour)

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
