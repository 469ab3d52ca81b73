"""A player's holding area: the 16 squares with their units, the mission, troop and drone cards, and the seals.

Built from the player view of the side at the screen: the opponent's squares and cards are never passed here before
the rules reveal them (the end of the battle).
"""

from __future__ import annotations

import pygame

from ...game.views.view_words import short_seal
from ...game.views.view_words import card_lines
from ...game.views.view_types import Data, PlayerView
from .. import theme
from ..scene import Scene
from ..widgets import draw_text, ellipsize, ellipsize_middle, line_height, panel, shade, text_width, wrap

SQUARES = 16


def square_lines(contents: list | None) -> list[str]:
    if contents is None:
        return ["not recorded"]
    if not contents:
        return ["empty"]
    return [f"{c['id']}: {c['type']}, {c['rating']}" for c in contents]


def unit_lines(unit: Data, width: int) -> tuple[str, str]:
    """A unit in its square, in two lines ``width`` pixels wide: its id cut in the middle if it must be, so the
    number that tells two units of a type apart stays; then its type and rating, or its rating alone when they do
    not fit (the id names the type)."""
    kind = f"{unit['type']}, {unit['rating']}"
    if text_width(kind, 12) > width:
        kind = ellipsize(str(unit["rating"]), width, 12)
    return ellipsize_middle(str(unit["id"]), width, 13), kind


class HoldingScene(Scene):
    overlay = True
    title = "Holding area"

    def __init__(self, view: PlayerView, side: str) -> None:
        super().__init__()
        self.view = view
        self.side = side
        self.cards = card_lines(view, side) or ["no cards were drawn for this battle"]

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN) and self.app is not None:
            self.app.pop()
        return True

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        shade(surface, (10, 12, 16, 200))
        box = pygame.Rect(0, 0, min(w - 40, 980), min(h - 40, 700))
        box.center = (w // 2, h // 2)
        panel(surface, box, theme.PANEL, theme.ACCENT, 8)
        side = self.side
        title = f"Side {side}: holding area, mission and cards"
        note = "only for the player of side " + side + "; any key or click closes this"
        draw_text(surface, title, (box.x + 24, box.y + 16), 21, True, theme.TEXT)
        # Beside the title where both fit, else under it (a small window).
        beside = text_width(title, 21, True) + text_width(note, 13) + 72 <= box.w
        draw_text(surface, note, (box.right - 24, box.y + 22) if beside else (box.x + 24, box.y + 46), 13, False,
                  theme.TEXT_FAINT, "topright" if beside else "topleft")
        top = 56 if beside else 70
        holding = (self.view.get("holding") or {}).get(side)
        on_table = {b.get("square"): b["id"] for b in self.view["blips"] if b["side"] == side and "square" in b}
        grid = pygame.Rect(box.x + 24, box.y + top, (box.w - 48) * 56 // 100, box.h - 84 - top)
        cw, ch = grid.w // 4, grid.h // 4
        for n in range(1, SQUARES + 1):
            row, col = divmod(n - 1, 4)
            cell = pygame.Rect(grid.x + col * cw + 3, grid.y + row * ch + 3, cw - 6, ch - 6)
            pygame.draw.rect(surface, (40, 44, 52), cell, border_radius=5)
            pygame.draw.rect(surface, theme.PANEL_EDGE, cell, 1, border_radius=5)
            draw_text(surface, f"Square {n}", (cell.x + 6, cell.y + 4), 13, True, theme.ACCENT)
            y = cell.y + 22
            if n in on_table:
                # The counter's label, as the log names it (a-blip-FK: FK); the table shows its square number.
                draw_text(surface, ellipsize(f"blip {on_table[n].rsplit('-', 1)[-1]}", cell.w - 12, 12),
                          (cell.x + 6, y), 12, False, theme.TEXT_FAINT)
                y += 17
            contents = None if holding is None else holding.get(str(n), [])
            if holding is None or not contents:
                word = "hidden" if holding is None else ("empty: a decoy" if n in on_table else "empty")
                draw_text(surface, word, (cell.x + 6, y), 13, False, theme.TEXT_DIM)
                continue
            for c in contents[:2]:
                name, kind = unit_lines(c, cell.w - 12)
                draw_text(surface, name, (cell.x + 6, y), 13, False, theme.TEXT)
                draw_text(surface, kind, (cell.x + 6, y + 17), 12, False, theme.TEXT_DIM)
                y += 38
        self.draw_cards(surface, pygame.Rect(grid.right + 16, grid.y, box.right - 24 - grid.right - 16, grid.h))
        y = grid.bottom + 12
        sealed = self.view.get("sealed") or {}
        seals = "    ".join(f"side {s}: {short_seal(v)}" for s, v in sorted(sealed.items()) if v)
        draw_text(surface, f"Seals shown to both players at set-up: {seals or 'none'}", (box.x + 24, y), 14,
                  False, theme.TEXT_DIM)
        draw_text(surface, "The end-of-battle report reveals both holding areas and missions and checks them against "
                           "these seals.", (box.x + 24, y + 24), 13, False, theme.TEXT_FAINT)

    def draw_cards(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """The mission card (its text, round limit and Victory Points) and the troop and drone cards, wrapped."""
        pygame.draw.rect(surface, (40, 44, 52), rect, border_radius=5)
        x, y, width = rect.x + 10, rect.y + 8, rect.w - 20
        for line in self.cards:
            heading = line.endswith(":") or line.startswith(("Mission:", "Troop card", "Drone card"))
            size = 14
            for part in wrap(line, width, size, heading, indent=2):
                if y + line_height(size, heading) > rect.bottom - 4:
                    draw_text(surface, "...", (x, y - 4), size, False, theme.TEXT_DIM)
                    return
                draw_text(surface, part, (x, y), size, heading, theme.ACCENT if heading else theme.TEXT)
                y += line_height(size, heading)
            y += 4
