"""What the set-up table shows: each decision's title and help, and over the table the placement zone the engine
gives, the banner naming whose decision it is, and whether a placement under the mouse is allowed."""

from __future__ import annotations

from typing import Any, Mapping, Protocol

import pygame

from .. import theme
from ..view import ViewTransform
from ..widgets import draw_text, line_height, wrap
from .table_common import Layout

BANNER_H = 26

STEP_TITLES = {"roles": "Roll for attacker and defender", "edge": "Pick your table edge",
               "objective": "Place objective {objective}", "cards": "Draw your cards",
               "choose-cards": "Choose the cards you play", "holding": "Fill your holding area",
               "blip": "Place your blips"}
STEP_HELP = {
    "roles": "Each side rolls a die (plus its campaign streak, A47): high attacks, low defends; a tie is a Chance "
             "Encounter [p.~15].",
    "edge": "The defender (Chance Encounter: the second player) picks its edge. Taking the far edge turns the table "
            "round before anything is placed [p.~15].",
    "objective": "Click inside the marked zone: 6\" from every table edge, 8\" from the other objectives, edge to "
                 "edge [p.~15, A55]. Or let the program place it.",
    "cards": "Mission, Troop and Drone card: only you see them [p.~9]. A winning streak draws extra cards to choose "
             "from [p.31, A47].",
    "choose-cards": "Your winning streak drew extra cards: choose the ones you play [p.31, A47].",
    "holding": "Put each unit your cards issued into one of the 16 squares, at most 2 a square; empty squares are "
               "decoys [p.~10].",
    "blip": "Click inside the marked zone to place the counter for the square shown; pick another square with "
            "Next square [p.~15, A59].",
}


class SetupDrawingHost(Protocol):
    """What the set-up's painting over the table uses of the set-up table scene: the layout, the view and the mouse,
    the decision set-up waits for and its placement zone, and the engine's word on the placement under the mouse."""

    @property
    def layout(self) -> Layout: ...

    @property
    def view(self) -> ViewTransform: ...

    @property
    def mouse(self) -> tuple[int, int]: ...

    @property
    def _hover(self) -> tuple[tuple[float, float], str] | None: ...

    def on_table(self, pos: tuple[int, int]) -> bool: ...

    def decision(self) -> Mapping[str, Any]: ...

    def zone(self) -> dict | None: ...

    def step_title(self, d: Mapping[str, Any]) -> str: ...


def draw_over_table(scene: SetupDrawingHost, surface: pygame.Surface) -> None:
    """The placement zone, the banner naming the decision, and the word on a placement under the mouse."""
    L = scene.layout
    old = surface.get_clip()
    surface.set_clip(L.table)
    zone = scene.zone()
    if zone is not None:
        draw_zone(scene, surface, zone)
    d = scene.decision()
    if d.get("step"):
        title = scene.step_title(d)
        banner = pygame.Rect(L.table.x, L.table.y, L.table.w, BANNER_H)
        pygame.draw.rect(surface, theme.HEADER, banner)
        draw_text(surface, f"Set-up, side {d['side']}: {title}", (banner.x + 10, banner.centery), 15, True,
                  theme.SIDE_COLOURS.get(d["side"], theme.TEXT), "midleft")
    surface.set_clip(old)
    if scene._hover is not None and scene.on_table(scene.mouse):
        (x, y), word = scene._hover
        text = f"({x:g}, {y:g}): " + ("click to place here" if not word else word)
        colour = theme.MOVE_LEGAL if not word else theme.ERROR
        width = hover_width(L.table)
        lines = wrap(text, width - 20, 14)
        box = hover_box(scene.mouse, L.table, width, 12 + line_height(14) * len(lines))
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=6)
        pygame.draw.rect(surface, colour, box, 1, border_radius=6)
        for i, line in enumerate(lines):
            draw_text(surface, line, (box.x + 8, box.y + 6 + i * line_height(14)), 14, False, colour)


def hover_width(table: pygame.Rect) -> int:
    """The placement word's box: no wider than the table's area (a large-text window leaves it narrow)."""
    return max(160, min(440, table.w - 8))


def hover_box(mouse: tuple[int, int], table: pygame.Rect, width: int, height: int) -> pygame.Rect:
    """Below and right of the pointer, moved back inside the table's area (never off the screen)."""
    box = pygame.Rect(mouse[0] + 16, mouse[1] + 16, width, height)
    box.clamp_ip(table)
    return box


def draw_zone(scene: SetupDrawingHost, surface: pygame.Surface, zone: dict) -> None:
    """The placement zone the engine gives: a band of x and y, and the discs to keep clear of (A55)."""
    (x0, x1), (y0, y1) = zone["x"], zone["y"]
    if x1 < x0 or y1 < y0:
        return
    # Opposite corners, whichever way the view is turned (U turns the table for side B's player).
    ax, ay = scene.view.to_screen(x0, y0)
    bx, by = scene.view.to_screen(x1, y1)
    rect = pygame.Rect(round(min(ax, bx)), round(min(ay, by)), max(1, round(abs(bx - ax))),
                       max(1, round(abs(by - ay))))
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    layer.fill((*theme.MOVE_LEGAL, 60))
    surface.blit(layer, rect.topleft)
    pygame.draw.rect(surface, theme.MOVE_LEGAL, rect, 2)
    for disc in zone.get("apart", {}).values():
        cx, cy = scene.view.to_screen(*disc["centre"])
        pygame.draw.circle(surface, theme.ERROR, (round(cx), round(cy)), max(2, round(disc["radius"] * scene.view.scale)), 2)
