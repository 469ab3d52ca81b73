"""Table mode: the window is the shared table and each player's secrets are on their own phone (the hand).

When a battle is hosted with phone hands, everyone looks at the window together, so it shows the spectator's screen
only: no decoy crosses, no holding-area squares, no holding area, no mission, no private log note, and so no
hand-off screen is ever needed. The public actions (move, target, shoot, activate, end the turn) are still made on
the table, for the side whose turn it is; every private decision (``service/privacy.py``: a trooper's facing after a
reveal, the Scramble and its square, the end of a round with its Withdraw and its answer, the consent to a take-back,
the holding area, the cards) is made on that side's hand, and the table says whom it waits for.

``PublicTable`` is the battle session as the table may read it: every question the battle scene asks is answered
from the spectator's seat, and every change is made under the host's lock and pushed to the phones after.
``TableModeScene`` is the battle scene over it, with ``TableQuestions`` asking only the public questions.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol, cast

import pygame

from ...service.seat_screens import SeatScreens
from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action
from ...game.views.view_types import PlayerView
from ...game.views.view_words import log_lines
from ...rules.battlefield import Battlefield
from ...rules.questions import SelectionReport
from ...service.screen import Screen
from ...service.seat_log import SeatLog
from ...service.privacy import is_private
from ...service.seats import SPECTATOR
from ...service.session import Attempt, BattleSession, Pending
from .. import hosting, theme
from ..widgets import draw_text, ellipsize, panel, wrap
from .battle import BattleScene
from .battle_questions import BattleQuestions, QuestionsHost

WAIT_BOX_W = 460


class Hosting(Protocol):
    """What the table needs of the host serving the hands (``referee/net/host.py``): its lock on the session, and a
    push of fresh screens to every phone after the window changed the battle."""

    lock: Any
    desk: Any                   # the seats' intents and what each waits on (``referee/net/desk.py``): a die, a consent

    def changed(self) -> None: ...

    def stop(self) -> None: ...


class Unhosted:
    """No host: the table alone (tests, a battle whose host has stopped). A lock nobody else takes."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.desk = None

    def changed(self) -> None:
        pass

    def stop(self) -> None:
        pass


class PublicTable(SeatScreens):
    """The battle session as the shared table reads it: the spectator's seat (``service/seats.py``).

    The side whose turn it is plays its public actions here, so ``viewer`` follows the turn; but what is shown (the
    view, the log, the side panel, the end of a round) is the spectator's, never that side's. Anything not answered
    here is the session's own (its checks and previews are of the side to act, which the rules keep free of that
    side's secrets, as ``tests/test_window_table_mode.py`` checks on the drawn screen)."""

    hotseat = False                     # nobody hands the screen over: there is no secret on it

    def __init__(self, session: BattleSession, host: Hosting | None = None) -> None:
        self._session = session
        self.host: Hosting = host if host is not None else Unhosted()
        self._side = session.to_act() or "A"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    # ---- whose public actions the table takes now ------------------------------------------------------------
    @property
    def viewer(self) -> str:
        side = self._session.to_act()
        if side is not None:
            self._side = side
        return self._side

    def hand_to(self, side: str) -> None:
        self._side = side

    def needs_handoff(self) -> bool:
        return False

    @property
    def local_seat(self) -> str:
        return SPECTATOR

    # ---- what the table shows: the spectator's seat ----------------------------------------------------------
    def view(self, log: bool = True) -> PlayerView:
        return self._session.view_for(SPECTATOR, log)

    def log(self, explain: bool = True) -> list[str]:
        return log_lines(self.view(), explain=explain)

    def log_for(self, reader: str | None) -> SeatLog:
        return self._session.log_for(None if self._session.over else SPECTATOR)

    def screen(self, seat: str | None = None) -> Screen:
        return self._session.screen(SPECTATOR)

    def table_for(self, seat: str | None = None) -> Battlefield:
        return self._session.table_for(SPECTATOR)

    def panel(self, piece: str, seat: str | None = None) -> SelectionReport:
        return self._session.panel(piece, SPECTATOR)

    def last_round(self, side: str | None = None) -> bool:
        """A mission's round limit is its side's secret (A59): the table knows only what ends the battle openly."""
        return False

    def end_of_round_lines(self, side: str | None = None) -> list[str]:
        round_ = self.view(log=False)["round"]
        forced = self._session.battle_ends_this_round()
        if forced:
            return [f"Round {round_} is over and the battle ends: {forced}."]
        return [f"Round {round_} is over. Either player may announce a Withdraw; the opponent allows it or pursues "
                "for one more round, on their own hand [p.16, A43].",
                "A mission's round limit is on its player's hand only (A59)."]

    # ---- changes: under the host's lock, then pushed to every phone --------------------------------------------
    def attempt(self, action: Action, given: list[float] | None = None) -> Attempt:
        with self.host.lock:
            out = self._session.attempt(action, given)
        self.host.changed()
        return out

    def answer(self, pending: Pending, value: float) -> Attempt:
        with self.host.lock:
            out = self._session.answer(pending, value)
        self.host.changed()
        return out

    def roll_pool(self, actor: str, dice: int, given: list[float] | None = None) -> Attempt:
        with self.host.lock:
            out = self._session.roll_pool(actor, dice, given)
        self.host.changed()
        return out

    def undo_check(self) -> Any:
        """The side at the table's controls takes back its own last action (the session's side at the screen)."""
        with self.host.lock:
            self._session.hand_to(self.viewer)
            return self._session.undo_check()

    def undo(self, consent: bool = False) -> str:
        with self.host.lock:
            self._session.hand_to(self.viewer)
            out = self._session.undo(consent)
        self.host.changed()
        return out

    def moment_key(self) -> tuple[Any, ...]:
        """What changes when anyone (a phone, the table) changed the battle: the record, the log, whose turn, the
        troopers waiting for a facing."""
        s = self._session
        return (*s.moment(), s.log_length(), tuple(self.view(log=False)["to_face"]))


class TableQuestionsHost(QuestionsHost, Protocol):
    """What the shared table's questions use of its scene besides a battle's: whose hand a piece is on, and how the
    table says that it waits for a hand."""

    def owner_of(self, uid: str) -> str: ...

    def wait_for(self, who: str, what: str) -> None: ...


class TableQuestions(BattleQuestions):
    """The questions the table asks: only public ones. A decision that is a side's own (``service/privacy.py``) goes to
    that side's hand, and the table says it waits for it."""

    host: TableQuestionsHost

    def end_of_round(self) -> None:
        """Next round, a Withdraw, an offer to stop: each side says it on its own hand (p.16, A43), as the host takes
        it (``service/privacy.py``); the table shows the public view with whom it waits for over it."""
        if self.app is None:
            return
        if self.session.computer is not None:
            super().end_of_round()
            return
        round_ = self.session.view(log=False)["round"]
        self.host.wait_for("the hands", f"end of round {round_}: " + " ".join(self.session.end_of_round_lines()))

    def pursuit(self, side: str) -> None:
        other = "B" if side == "A" else "A"
        self.host.wait_for(f"side {other}'s hand", f"side {side} withdraws: allow it or pursue [p.16, A43]")

    def facing(self, uid: str) -> None:
        owner = self.host.owner_of(uid)
        self.host.wait_for(f"side {owner}'s hand", f"the facing of {uid}, just revealed [A13]")

    def scramble_square(self, actor: str) -> None:
        self.host.wait_for(f"side {self.session.viewer}'s hand",
                            f"Scramble {actor}: chosen on the hand, with its square [A23]")

    def consent(self, check: Any) -> None:
        owner = check.side or self.session.viewer
        agreeing = "B" if owner == "A" else "A"
        self.host.say("Undo: asked on the hands",
                       [f"taking back {check.what!r} needs side {agreeing}'s consent ({check.why_consent}): side "
                        f"{owner} asks for it on its hand and side {agreeing} answers on theirs [fair Undo]"])

    def for_side(self, side: str, ask: Any, why: str = "") -> None:
        self.host.wait_for(f"side {side}'s hand", why or "a decision of its own")

    def behind_hand_off(self, side: str, ask: Any, why: str) -> None:
        self.host.wait_for(f"side {side}'s hand", why)

    def hand_off(self, side: str) -> None:
        self.session.hand_to(side)
        self.host.refresh()
        self.host.show_log()


class TableModeScene(BattleScene):
    """The battle on the shared table while each player's hand is a phone (``PublicTable``)."""

    title = "Battle: the table"

    def __init__(self, session: BattleSession, host: Hosting | None = None) -> None:
        self.public = self.public_table(session, host)
        self.waiting: tuple[str, str] | None = None     # whose hand the table waits for ("side A's hand"), and what for
        # The table answers every question the battle scene asks of a session, from the spectator's seat.
        super().__init__(cast(BattleSession, self.public), own_edge_down=False)
        self.questions = TableQuestions(self)
        self.seen = self.public.moment_key()

    def public_table(self, session: BattleSession, host: Hosting | None) -> PublicTable:
        """The session as this table reads it (the refereed table's adds the referee's corrections)."""
        return PublicTable(session, host)

    # ---- the host: stopped with the table -------------------------------------------------------------------
    keeps_host = True                   # the host stops with the table (unless this window plays a side through it)

    def on_exit(self) -> None:
        super().on_exit()
        if self.keeps_host:
            self.public.host.stop()

    def phones(self) -> None:
        self.show_phones()

    def show_phones(self) -> None:
        """The seats' codes over the table (W), while the host serves."""
        if not isinstance(self.public.host, Unhosted):
            self.push_scene("phones", self.public.host, on_side=self.play_side)

    def play_side(self, side: str) -> None:
        """A or B on the codes' screen: this window plays that side through its own host (``hosting.play_side``)."""
        if self.app is not None:
            why = hosting.play_side(self.app, self, side)
            if isinstance(why, str):
                self.say("Phones and remote play", [why])

    # ---- whom the table waits for -------------------------------------------------------------------------
    def offered(self, key: str) -> bool:
        """A side's private decision (``service/privacy.py``) is never offered on the table, nor a holding area."""
        return not is_private(key) and key != "holding" and super().offered(key)

    def log_who(self) -> str:
        return "whole truth" if self.public.over else "what everyone sees"

    def press(self, key: str) -> None:
        if key == Kind.SCRAMBLE and key in self.bar.keys():
            self.questions.scramble_square(self.actor_for(key) or "")
            return
        super().press(key)

    def owner_of(self, uid: str) -> str:
        for unit in self.public.view(log=False)["units"]:
            if unit["id"] == uid:
                return str(unit["side"])
        return self.public.viewer

    def wait_for(self, who: str, what: str) -> None:
        self.waiting = (who, what)
        self.say(f"Waiting for {who}", [what, "it is decided on the player's own phone"])

    def next_step(self) -> None:
        self.waiting = None
        super().next_step()

    def after_action(self, attempt: Attempt, title: str) -> None:
        super().after_action(attempt, title)
        self.seen = self.public.moment_key()

    def update(self, dt: float) -> None:
        """A phone changed the battle (a facing, a Withdraw answered, a take-back): the table shows it and goes on."""
        super().update(dt)
        key = self.public.moment_key()
        if key == self.seen:
            return
        self.seen = key
        self.questions.facing_kept = ()
        self.clear_tools()
        self.refresh()
        self.show_log()
        if self.app is not None and self.app.scene is self:
            self.next_step()

    # ---- physical dice: typed on the hand of the side whose action rolls them ----------------------------------
    def ask_die(self, pending: Pending, then: Any, context: str = "") -> None:
        """The die an action taken at the table asks for goes to the hand of the side taking it, which types it
        (the host's desk asks that seat, as for an action sent from the hand). A Target's pool, rolled before its
        counters are placed, is typed here: the table places the counters."""
        desk = self.public.host.desk
        if desk is None or pending.resolving is None:
            super().ask_die(pending, then, context)
            return
        side = self.public.viewer
        with self.public.host.lock:
            desk.pending[side] = pending
        self.public.host.changed()
        self.wait_for(f"side {side}'s hand", f"{context or 'the action'}: {pending.request.describe()}, typed on "
                                             "the hand")

    # ---- what the table never shows ------------------------------------------------------------------------
    def open_holding(self) -> None:
        self.say("Holding areas", ["each player's holding area, mission and cards are on their own hand (phone)"])

    def turn_table(self) -> None:
        self.say("The table", ["the shared table is drawn from side A's edge for everyone"])

    def banner_who(self) -> tuple[str, str]:
        return ("The table" if not self.public.over else "Whole truth",
                "program dice" if self.public.dice is not None else "your dice")

    def banner_text(self) -> str:
        if self.waiting is not None:
            who, what = self.waiting
            return f"Waiting for {who}… ({what})"
        return super().banner_text()

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.waiting is not None:
            draw_waiting(surface, self.layout.table, *self.waiting)


def draw_waiting(surface: pygame.Surface, area: pygame.Rect, who: str, what: str) -> None:
    """A box over the table's centre: the decision is on a phone, not here."""
    lines = wrap(what, WAIT_BOX_W - 32, 14)
    box = pygame.Rect(0, 0, WAIT_BOX_W, 56 + 20 * len(lines))
    box.center = area.center
    panel(surface, box)
    draw_text(surface, ellipsize(f"Waiting for {who}…", box.w - 32, 18, True), (box.x + 16, box.y + 24), 18, True,
              theme.ACCENT, "midleft")
    for i, line in enumerate(lines):
        draw_text(surface, line, (box.x + 16, box.y + 52 + 20 * i), 14, False, theme.TEXT, "midleft")
