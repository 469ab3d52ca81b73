"""The keyboard help overlay: every shortcut and what the marks on the table mean. Any key or click closes it."""

from __future__ import annotations

import pygame

from .. import theme
from ..panels import SHORTCUTS
from ..scene import Scene
from ..widgets import draw_text, line_height, panel, text_width


class HelpScene(Scene):
    overlay = True
    title = "Help"

    def __init__(self, shortcuts=None) -> None:
        """``shortcuts``: a scene's own groups of (key, meaning) rows (default: the table view's)."""
        super().__init__()
        self.shortcuts = shortcuts or SHORTCUTS

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            if self.app is not None:
                self.app.pop()
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        shade = pygame.Surface((w, h), pygame.SRCALPHA)
        shade.fill((10, 12, 16, 185))
        surface.blit(shade, (0, 0))
        size, head = 15, 17
        lh = line_height(size) + 3
        groups = self.shortcuts
        key_w = max(text_width(k, size, True) for _, rows in groups for k, _ in rows) + 18
        text_w = max(text_width(t, size) for _, rows in groups for _, t in rows)
        col_w = key_w + text_w + 24
        left = list(groups[:-1])
        right = list(groups[-1:])
        col_h = lambda groups: sum(lh * (len(rows) + 1) + 12 for _, rows in groups)   # noqa: E731
        box_w = min(w - 40, 2 * col_w + 60)
        box_h = min(h - 40, max(col_h(left), col_h(right)) + 90)
        box = pygame.Rect(0, 0, box_w, box_h)
        box.center = (w // 2, h // 2)
        panel(surface, box, theme.PANEL, theme.ACCENT, 8)
        draw_text(surface, "Keys and marks", (box.x + 24, box.y + 16), 22, True, theme.TEXT)
        draw_text(surface, "any key or click closes this", (box.right - 24, box.y + 22), 14, False,
                  theme.TEXT_FAINT, "topright")
        for c, groups in enumerate((left, right)):
            x = box.x + 24 + c * (col_w + 20)
            y = box.y + 62
            for title, rows in groups:
                draw_text(surface, title, (x, y), head, True, theme.ACCENT)
                y += lh + 4
                for key, text in rows:
                    draw_text(surface, key, (x, y), size, True, theme.TEXT)
                    draw_text(surface, text, (x + key_w, y), size, False, theme.TEXT_DIM)
                    y += lh
                y += 10
