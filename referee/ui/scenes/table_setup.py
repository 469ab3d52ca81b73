"""Set-up on the shared table while each player's hand is a phone (the set-up side of ``table_mode.py``).

The table shows the spectator's set-up: the table, the objectives, the counters as everyone sees them. The public
steps are taken here, before everyone (the roll for attacker and defender, the defender's edge, the objectives
clicked in their zone); the private ones are each side's on its own hand (``service/privacy.py``: its cards, its
holding area, which square each blip counter stands for and where it goes), and the table says whom it waits for.
When set-up is complete the table goes on as the battle's shared table, with the same host.
"""

from __future__ import annotations

from typing import cast

import pygame

from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action, LegalAction
from ...game.views.view_types import PlayerView
from ...service.session import BattleSession
from .. import theme
from ..panels import Block, Text
from ..widgets import line_height, wrap
from .setup_drawing import STEP_TITLES
from .setup_table import PAD, SetupTableScene
from .table_mode import Hosting, PublicTable, Unhosted, draw_waiting

# The set-up steps each side takes on its own hand (the kinds ``service/privacy.py`` marks private).
PRIVATE_STEPS = frozenset({"cards", "choose-cards", "holding", "blip"})


class TableSetupScene(SetupTableScene):
    """Set-up on the shared table (see the module note)."""

    title = "Set-up: the table"
    keeps_host = True                   # the host stops with the table, unless the battle's table takes it over

    def __init__(self, session: BattleSession, host: Hosting | None = None) -> None:
        self.public = PublicTable(session, host)
        self.real = session
        # The public table answers every question the set-up scene asks of a session, from the spectator's seat.
        super().__init__(cast(BattleSession, self.public))
        self.own_edge_down = False
        self.seen = self.public.moment_key()

    # ---- what the table decides, and what it waits for -------------------------------------------------------
    def private_step(self) -> bool:
        return self.decision().get("step") in PRIVATE_STEPS

    def waiting(self) -> tuple[str, str] | None:
        """Whose hand the table waits for, and what for (None: a public step, decided here)."""
        d = self.decision()
        if not self.private_step():
            return None
        what = STEP_TITLES[str(d["step"])].replace("your", "its").format(objective=d.get("objective"))
        return f"side {d['side']}'s hand", what

    def view_now(self) -> PlayerView:
        return self.public.view()

    def legal(self) -> list[LegalAction]:
        return [] if self.private_step() else self._public_legal()

    def _public_legal(self) -> list[LegalAction]:
        """The legal actions of the public step due, as the deciding side's screen lists them."""
        side = str(self.decision().get("side") or "")
        seat = side if side in ("A", "B") else None
        legal = self.real.screen(seat).legal if seat is not None else self.real.legal_actions()
        return [a for a in legal if a.kind in (Kind.ROLL_ROLES, Kind.CHOOSE_EDGE, Kind.PLACE_OBJECTIVE)]

    def choices(self) -> list[tuple[str, str]]:
        return [] if self.private_step() else super().choices()

    def press(self, key: str) -> None:
        if not self.private_step():
            super().press(key)

    def for_me(self) -> bool:
        return False if self.private_step() else super().for_me()

    def place_at(self, x: float, y: float) -> bool:
        return False if self.private_step() else super().place_at(x, y)

    def placement_word(self, x: float, y: float) -> str:
        return "" if self.private_step() else super().placement_word(x, y)

    def after(self, action: Action) -> None:
        self.seen = self.public.moment_key()
        self.next_step()

    def hand_off(self, side: str) -> None:
        """Nobody hands the table over: there is no secret on it."""
        self.refresh()

    def decision_blocks(self, width: int) -> list[Block]:
        waits = self.waiting()
        if waits is None:
            return super().decision_blocks(width)
        who, what = waits
        items: list = []
        y = 8
        for part in wrap(f"Waiting for {who}: {what}", width - 2 * PAD, 16, True):
            items.append(Text(PAD, y, part, 16, True, theme.ACCENT))
            y += line_height(16)
        for part in wrap("It is decided on the player's own phone; the table shows what everyone may see.",
                         width - 2 * PAD, 14):
            items.append(Text(PAD, y + 8, part, 14, False, theme.TEXT_DIM))
            y += line_height(14)
        return [Block(None, 0, y + 18, tuple(items), theme.PANEL)]

    def show_log(self) -> None:
        super().show_log()
        self.log_title = "Set-up log (what everyone sees)"

    # ---- on to the battle, the host with it --------------------------------------------------------------------
    def open_battle(self) -> None:
        if self.app is None:
            return
        self.keeps_host = False
        self.replace_scene("battle-table", self.real, self.public.host)

    def on_exit(self) -> None:
        super().on_exit()
        if self.keeps_host:
            self.public.host.stop()

    def phones(self) -> None:
        if not isinstance(self.public.host, Unhosted):
            self.push_scene("phones", self.public.host)

    def update(self, dt: float) -> None:
        """A hand took its set-up step: the table shows it and goes on."""
        super().update(dt)
        key = self.public.moment_key()
        if key != self.seen and self.app is not None and self.app.scene is self:
            self.seen = key
            self.next_step()

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        waits = self.waiting()
        if waits is not None:
            draw_waiting(surface, self.layout.table, *waits)
