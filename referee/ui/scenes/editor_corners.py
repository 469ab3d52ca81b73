"""The corners of a selected polygon in the table editor: drag a corner to move it, Shift+click an edge to add one,
right-click a corner to remove it. Every change is one checked edit of ``TableEditor`` (and one undo)."""

from __future__ import annotations

import math

import pygame

from .. import theme
from ..editing import Edit
from .editor_base import EditorBase

HANDLE_PIXELS = 8          # a click this close to a corner takes the corner
EDGE_PIXELS = 6            # a Shift+click this close to an edge adds a corner there


class CornerEditing(EditorBase):
    """Mixed into ``EditorScene``: needs ``editor``, ``view``, ``selected``, ``table_point`` and ``report``."""

    corner_drag: tuple[str, int] | None = None
    corner_to: tuple[float, float] | None = None

    def selected_corners(self) -> list[tuple[float, float]]:
        if not self.selected or self.editor.kind_of(self.selected) != "terrain":
            return []
        return self.editor.corners(self.selected)

    def corner_at(self, pos) -> int | None:
        for i, c in enumerate(self.selected_corners()):
            sx, sy = self.view.to_screen(*c)
            if math.hypot(sx - pos[0], sy - pos[1]) <= HANDLE_PIXELS:
                return i
        return None

    def edge_at(self, pos) -> int | None:
        """The corner index a new corner at ``pos`` would take (the edge under the mouse), or None."""
        corners = self.selected_corners()
        best = None
        for i, a in enumerate(corners):
            b = corners[(i + 1) % len(corners)]
            ax, ay = self.view.to_screen(*a)
            bx, by = self.view.to_screen(*b)
            dx, dy = bx - ax, by - ay
            length2 = dx * dx + dy * dy or 1
            t = max(0.0, min(1.0, ((pos[0] - ax) * dx + (pos[1] - ay) * dy) / length2))
            d = math.hypot(ax + t * dx - pos[0], ay + t * dy - pos[1])
            if d <= EDGE_PIXELS and (best is None or d < best[0]):
                best = (d, i + 1)
        return best[1] if best else None

    def corner_mouse_down(self, event) -> bool:
        """Handles a click on the selected polygon's corners or edges; False when it is not one."""
        pos = event.pos
        ident = self.selected
        if ident is None:
            return False            # corners are the selected polygon's
        index = self.corner_at(pos)
        if event.button == 3 and index is not None:
            self.report(self.editor.remove_corner(ident, index))
            return True
        if event.button != 1:
            return False
        if index is not None:
            self.corner_drag, self.corner_to = (ident, index), None
            return True
        if pygame.key.get_mods() & pygame.KMOD_SHIFT:
            edge = self.edge_at(pos)
            if edge is not None:
                self.report(self.editor.insert_corner(ident, edge, *self.table_point(pos)))
                return True
        return False

    def corner_motion(self, pos) -> None:
        if self.corner_drag is not None:
            self.corner_to = self.table_point(pos)

    def corner_mouse_up(self, event) -> bool:
        if self.corner_drag is None or event.button != 1:
            return False
        (ident, index), self.corner_drag = self.corner_drag, None
        to, self.corner_to = self.corner_to, None
        if to is not None:
            edit = self.editor.move_corner(ident, index, *to)
            if not edit.ok:
                edit = Edit(False, edit.message + "; the corner stays where it was", ident, edit.problems)
            self.report(edit)
        return True

    def draw_corners(self, surface) -> None:
        corners = self.selected_corners()
        if not corners:
            return
        points = [self.view.to_screen(*c) for c in corners]
        if self.corner_drag is not None and self.corner_to is not None and self.corner_drag[0] == self.selected:
            moved = list(points)
            moved[self.corner_drag[1]] = self.view.to_screen(*self.corner_to)
            pygame.draw.polygon(surface, theme.SELECTION, moved, 2)
        for p in points:
            box = pygame.Rect(0, 0, 9, 9)
            box.center = (round(p[0]), round(p[1]))
            pygame.draw.rect(surface, (255, 255, 255), box)
            pygame.draw.rect(surface, theme.BASE_OUTLINE, box, 1)
