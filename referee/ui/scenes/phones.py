"""Phones and remote play: the battle served on the local network, one QR code per seat.

Each side's player scans their own side's code with a phone: the link opens their hand (holding area, mission,
cards, every private decision) and carries the seat's credential once, then a cookie keeps it. The table's code opens
the public view (a second monitor, a stream). The same side's link, given to ``seven-seconds join LINK`` on another
computer, opens this battle's window there, playing that side. The list says who is connected now.
"""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from ...i18n import _
from .. import theme
from ..qr import qr_surface
from ..scene import Scene
from ..widgets import draw_text, ellipsize, wrap

SEAT_TITLES = {"A": "Side A's hand", "B": "Side B's hand", "spectator": "The table (everyone)"}
REFRESH_S = 0.5          # how often the connected phones are counted again


class Serving(Protocol):
    """What this screen reads of the host (``referee/net/host.py``)."""

    @property
    def url(self) -> str: ...

    def link(self, seat: str) -> str: ...

    def connected(self) -> dict[str, int]: ...


class PhonesScene(Scene):
    """The seats' codes and links over the table; any key or click closes it (the host serves on)."""

    title = "Phones and remote play"
    overlay = False              # it covers the table: the codes are read from a phone at arm's length

    def __init__(self, host: Serving, seats: tuple[str, ...] = ("A", "B", "spectator"),
                 on_close: Any = None, on_side: Any = None, refereed: bool = False) -> None:
        super().__init__()
        self.refereed = refereed        # a physical game: the hand is the player's private mat
        self.host = host
        self.seats = seats
        self.on_close = on_close
        self.on_side = on_side          # A or B pressed: this window plays that side (``hosting.play_side``)
        self.codes: dict[str, pygame.Surface] = {}
        self.counts: dict[str, int] = {}
        self.since = REFRESH_S
        self._made_for: int = 0

    def on_enter(self) -> None:
        self.counts = self.host.connected()
        self._make_codes()

    def on_resize(self, size: tuple[int, int]) -> None:
        self._make_codes()

    def code_size(self) -> int:
        w, h = self.size
        return max(120, min((w - 80) // len(self.seats) - 40, h - 320))

    def _make_codes(self) -> None:
        size = self.code_size()
        if size != self._made_for:
            self.codes = {seat: qr_surface(self.host.link(seat), size) for seat in self.seats}
            self._made_for = size

    def update(self, dt: float) -> None:
        self.since += dt
        if self.since >= REFRESH_S:
            self.since = 0.0
            self.counts = self.host.connected()

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_a, pygame.K_b) and self.on_side is not None:
            self.on_side("A" if event.key == pygame.K_a else "B")
            return True
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER,
                                                          pygame.K_SPACE, pygame.K_w):
            self.close()
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.close()
            return True
        return event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN)

    def close(self) -> None:
        if self.app is not None and self.app.scene is self:
            self.app.pop()
        if self.on_close is not None:
            self.on_close()

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill(theme.BACKGROUND)
        draw_text(surface, _("Phones and remote play"), (w // 2, 34), 24, True, theme.ACCENT, "center")
        draw_text(surface, ellipsize(_("Served at {url} on this network; it stops when the battle is closed.")
                                     .format(url=self.host.url), w - 40, 14), (w // 2, 64), 14, False,
                  theme.TEXT_DIM, "center")
        column = (w - 40) // len(self.seats)
        top = 100
        for i, seat in enumerate(self.seats):
            cx = 20 + column * i + column // 2
            draw_text(surface, SEAT_TITLES.get(seat, seat), (cx, top), 18, True, theme.TEXT, "midtop")
            code = self.codes.get(seat)
            y = top + 32
            if code is not None:
                surface.blit(code, code.get_rect(midtop=(cx, y)))
                y += code.get_height() + 10
            n = self.counts.get(seat, 0)
            status = _("connected ({n})").format(n=n) if n else _("not connected yet")
            draw_text(surface, status, (cx, y), 15, True, (120, 200, 120) if n else theme.TEXT_DIM, "midtop")
            y += 24
            for line in wrap(self.host.link(seat), column - 24, 12)[:4]:
                draw_text(surface, line, (cx, y), 12, False, theme.TEXT_FAINT, "midtop")
                y += 16
        if self.refereed:
            notes = [_("Each player scans their own side's code: on their phone they enter their mission card, tell "
                       "what one of their blips holds when it is revealed, and may type the dice they roll. The "
                       "table shows only what everyone may see."),
                     _("Any key or a click closes this screen; the game stays served (Phones shows it again).")]
        else:
            notes = [_("Each player scans their own side's code: their hand opens on the phone (holding area, "
                       "mission, cards, every private decision). The table shows only what everyone may see."),
                     _("On another computer: seven-seconds join LINK, with that side's link, plays that side there. "
                       "A or B: this window plays that side instead of showing the table."),
                     _("Any key or a click closes this screen; the battle stays served (W shows it again).")]
        y = h - 24 - 20 * sum(len(wrap(n, w - 80, 14)) for n in notes)
        for note in notes:
            for line in wrap(note, w - 80, 14):
                draw_text(surface, line, (w // 2, y), 14, False, theme.TEXT_DIM, "midtop")
                y += 20
