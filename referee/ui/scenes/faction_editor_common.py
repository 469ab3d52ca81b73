"""What the faction editor's modules share: its constants and the emblem badge."""

from __future__ import annotations

from functools import lru_cache

import pygame

from ...rules.factions import Faction
from .. import theme

SWATCHES = ("#3c6e9f", "#1f8a8a", "#2f8f4e", "#8a9a2c", "#c8962d", "#e07b2a", "#b23a3a", "#a0417a", "#6b4fa0",
            "#5a4634", "#2b2b2b", "#f0f0f0")
NEW_FACTION = "New faction"
LOAD_PROMPT = "Load a faction…"
NO_OPPONENT = "No opponent (full cost)"
OK = (110, 210, 130)

CREATE, UPGRADE = "create", "upgrade"
WIDE = 1180            # narrower windows show the fields and the stat lines one page at a time


@lru_cache(maxsize=32)
def _badge(emblem: str, primary: str, secondary: str, radius: int) -> pygame.Surface:
    """The emblem badge as on the faction sheet (drawn once per look)."""
    # lazy: the PDF sheet's drawing loads only when a badge is drawn
    from ...authoring.sheet import draw_emblem

    surface = pygame.Surface((radius * 2, radius * 2), pygame.SRCALPHA)
    draw_emblem(surface, emblem, (radius, radius), radius, theme.hex_colour(primary), theme.hex_colour(secondary))
    return surface


def _valid_hex(text: str) -> bool:
    text = text.strip()
    return len(text) == 7 and text[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in text[1:])


def _choice_label(f: Faction) -> str:
    return f"{f.name} ({f.id})"
