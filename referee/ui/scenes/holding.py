"""A player's holding area: the 16 squares with their units, the mission card and the seals.

Built from the player view of the side at the screen: the opponent's squares are never passed here before the
rules reveal them (the end of the battle).
"""

from __future__ import annotations

import pygame

from ...game.seal import short_seal
from .. import theme
from ..scene import Scene
from ..widgets import draw_text, ellipsize, panel

SQUARES = 16


def square_lines(contents: list | None) -> list[str]:
    if contents is None:
        return ["not recorded"]
    if not contents:
        return ["empty"]
    return [f"{c['id']}: {c['type']}, {c['rating']}" for c in contents]


class HoldingScene(Scene):
    overlay = True
    title = "Holding area"

    def __init__(self, view: dict, side: str) -> None:
        super().__init__()
        self.view = view
        self.side = side

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN) and self.app is not None:
            self.app.pop()
        return True

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        shade = pygame.Surface((w, h), pygame.SRCALPHA)
        shade.fill((10, 12, 16, 200))
        surface.blit(shade, (0, 0))
        box = pygame.Rect(0, 0, min(w - 40, 980), min(h - 40, 700))
        box.center = (w // 2, h // 2)
        panel(surface, box, theme.PANEL, theme.ACCENT, 8)
        side = self.side
        draw_text(surface, f"Side {side}: holding area, mission and seals", (box.x + 24, box.y + 16), 21, True,
                  theme.TEXT)
        draw_text(surface, "only for the player of side " + side + "; any key or click closes this",
                  (box.right - 24, box.y + 22), 13, False, theme.TEXT_FAINT, "topright")
        holding = (self.view.get("holding") or {}).get(side)
        on_table = {b.get("square"): b["id"] for b in self.view["blips"] if b["side"] == side and "square" in b}
        grid = pygame.Rect(box.x + 24, box.y + 56, box.w - 48, box.h - 170)
        cw, ch = grid.w // 4, grid.h // 4
        for n in range(1, SQUARES + 1):
            r, c = divmod(n - 1, 4)
            cell = pygame.Rect(grid.x + c * cw + 3, grid.y + r * ch + 3, cw - 6, ch - 6)
            pygame.draw.rect(surface, (40, 44, 52), cell, border_radius=5)
            pygame.draw.rect(surface, theme.PANEL_EDGE, cell, 1, border_radius=5)
            head = f"Square {n}"
            if n in on_table:
                head += f" · blip {on_table[n]}"
            draw_text(surface, ellipsize(head, cell.w - 12, 13, True), (cell.x + 6, cell.y + 4), 13, True, theme.ACCENT)
            contents = None if holding is None else holding.get(str(n), [])
            lines = ["hidden"] if holding is None else square_lines(contents)
            for i, line in enumerate(lines[:3]):
                draw_text(surface, ellipsize(line, cell.w - 12, 13), (cell.x + 6, cell.y + 24 + i * 18), 13, False,
                          theme.TEXT)
        y = grid.bottom + 10
        mission = (self.view.get("missions") or {}).get(side)
        cards = (self.view.get("cards") or {}).get(side) or {}
        card_text = ", ".join(f"{k} {v}" for k, v in cards.items()) if cards else "none"
        draw_text(surface, f"Mission card: {mission or 'none'}    Cards: {card_text}", (box.x + 24, y), 15, False,
                  theme.TEXT)
        sealed = self.view.get("sealed") or {}
        seals = "    ".join(f"side {s}: {short_seal(v)}" for s, v in sorted(sealed.items()) if v)
        draw_text(surface, f"Seals shown to both players at set-up: {seals or 'none'}", (box.x + 24, y + 26), 14,
                  False, theme.TEXT_DIM)
        draw_text(surface, "The end-of-battle report reveals both holding areas and missions and checks them against "
                           "these seals.", (box.x + 24, y + 50), 13, False, theme.TEXT_FAINT)
