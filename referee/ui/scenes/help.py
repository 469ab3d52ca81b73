"""The keyboard help overlay: a scene's keys, drawn from its key table (``ui/keys.py``), and what the marks on the
table mean. Any key or click closes it."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from .. import theme
from ..scene import Scene
from ..widgets import draw_text, line_height, panel, shade, text_width

HelpGroup = tuple[str, Sequence[tuple[str, str]]]
SIZES = (15, 14, 13, 12)        # the rows' font sizes tried, largest first, until the help fits the window


class HelpScene(Scene):
    overlay = True
    title = "Help"

    def __init__(self, shortcuts: Sequence[HelpGroup], legend: HelpGroup | None = None) -> None:
        """``shortcuts``: the scene's groups of (keys, what they do) rows (``keys.help_groups``); ``legend``: the
        marks on the table, for the scenes that show one."""
        super().__init__()
        self.shortcuts = shortcuts
        self.legend = legend

    def groups(self) -> list[HelpGroup]:
        return [*self.shortcuts, *([self.legend] if self.legend is not None else [])]

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            if self.app is not None:
                self.app.pop()
            return True
        return False

    @staticmethod
    def columns(groups: list[HelpGroup], lh: int) -> tuple[list[HelpGroup], list[HelpGroup]]:
        """Two columns of whole groups, as even in height as the order allows."""
        heights = [lh * (len(rows) + 1) + 12 for _, rows in groups]
        total = sum(heights)
        split, best = len(groups), total
        run = 0
        for i, h in enumerate(heights[:-1]):
            run += h
            worse = max(run, total - run)
            if worse < best:
                split, best = i + 1, worse
        return groups[:split], groups[split:]

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        shade(surface, (10, 12, 16, 185))
        groups = self.groups()
        head = 17
        for size in SIZES:          # the largest rows that fit the window (the last size is drawn anyway)
            lh = line_height(size) + 3
            columns = self.columns(groups, lh)
            widths = [(max(text_width(k, size, True) for _, rows in col for k, _ in rows) + 14,
                       max(text_width(t, size) for _, rows in col for _, t in rows)) for col in columns if col]
            col_h = max(sum(lh * (len(rows) + 1) + 12 for _, rows in col) for col in columns)
            box_w = sum(k + t for k, t in widths) + 24 * 2 + 28 * (len(widths) - 1)
            if col_h + 90 <= h - 40 and box_w <= w - 40:
                break
        box = pygame.Rect(0, 0, min(w - 40, max(box_w, 480)), min(h - 40, col_h + 90))
        box.center = (w // 2, h // 2)
        panel(surface, box, theme.PANEL, theme.ACCENT, 8)
        draw_text(surface, "Keys and marks", (box.x + 24, box.y + 16), 22, True, theme.TEXT)
        draw_text(surface, "any key or click closes this", (box.right - 24, box.y + 22), 14, False,
                  theme.TEXT_FAINT, "topright")
        old = surface.get_clip()
        surface.set_clip(box.inflate(-4, -4))
        x = box.x + 24
        for column, (key_w, text_w) in zip(columns, widths):
            y = box.y + 62
            for title, rows in column:
                draw_text(surface, title, (x, y), head, True, theme.ACCENT)
                y += lh + 4
                for key, text in rows:
                    draw_text(surface, key, (x, y), size, True, theme.TEXT)
                    draw_text(surface, text, (x + key_w, y), size, False, theme.TEXT_DIM)
                    y += lh
                y += 10
            x += key_w + text_w + 28
        surface.set_clip(old)
