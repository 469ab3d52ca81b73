"""A QR code drawn for the window: a seat's link, for a phone's camera (segno makes the code; this draws it)."""

from __future__ import annotations

import pygame
import segno

DARK = (0, 0, 0)
LIGHT = (255, 255, 255)
QUIET = 4                       # the blank modules around the code a reader needs (ISO/IEC 18004)


def qr_surface(text: str, size: int) -> pygame.Surface:
    """``text`` as a QR code (error correction M) at most ``size`` pixels wide, each module a whole number of
    pixels (a blurred edge between modules is what a phone's camera misreads)."""
    code = segno.make(text, error="m", micro=False)
    rows = [list(row) for row in code.matrix_iter(scale=1, border=QUIET)]
    modules = len(rows)
    px = max(1, size // modules)
    surface = pygame.Surface((modules * px, modules * px))
    surface.fill(LIGHT)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surface.fill(DARK, pygame.Rect(x * px, y * px, px, px))
    return surface
