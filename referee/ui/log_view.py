"""The log panel's lines on the screen: only the visible ones are rendered, into one picture kept between frames.

A battle's log keeps growing (``battle_log.BattleLog`` keeps a few numbers an entry); nothing here grows with it.
The picture holds the few lines the panel shows, is drawn again only when they (or the panel's size) change, and is
copied to the screen in one blit per frame. Rendering the lines through the shared text cache instead filled that
cache with log lines nobody would see again (a long battle's log alone held its whole 24 MB budget), and the
churn of thousands of small pictures fragmented the heap.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from . import theme

Line = tuple[str, bool]          # a wrapped line and whether it starts an entry (drawn brighter)


class LogBody:
    """The visible part of a log as one picture, for a panel body of a given size."""

    def __init__(self) -> None:
        self._key: tuple | None = None
        self._layer: pygame.Surface | None = None
        self.shown: tuple[Line, ...] = ()          # the lines in the picture

    def draw(self, surface: pygame.Surface, body: pygame.Rect, lines: Sequence[Line], x: int, size: int,
             background: theme.Colour) -> None:
        """Draw ``lines`` (the first visible one first) from the left at ``x`` down ``body``, one line height apart,
        clipped to ``body``."""
        font = theme.font(size)
        lh = font.get_linesize()
        shown = tuple(lines[:body.h // lh + 1])
        key = (body.size, x - body.x, size, background, shown)
        if self._layer is None or self._key != key:
            self._layer = self._render(body.size, x - body.x, font, lh, background, shown)
            self._key, self.shown = key, shown
        surface.blit(self._layer, body.topleft)

    def _render(self, size: tuple[int, int], x: int, font: pygame.font.Font, lh: int, background: theme.Colour,
                lines: tuple[Line, ...]) -> pygame.Surface:
        layer = self._layer if self._layer is not None and self._layer.get_size() == size else pygame.Surface(size)
        layer.fill(background)
        for i, (text, heading) in enumerate(lines):
            if text:
                layer.blit(font.render(text, True, theme.TEXT if heading else theme.TEXT_DIM), (x, i * lh))
        return layer


log_body = LogBody()
