"""The players ``selfplay`` and the benchmarks seat at the table: random legal play, or the computer at a level.

A player acts for one side: ``act`` returns its next action. At the end of a round each player speaks for itself
(``end_of_round``: withdraw, or offer to stop), and a Withdraw is answered and an offer to stop agreed by the other
player; ``end_of_round_action`` puts the two players' words into the one end-of-round action the engine takes.

The computer player is handed only its player view and its legal actions (``computer.Computer.decide``), and its
reasons are kept in its own log (``reasons``), never in the battle's log that the opponent reads.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol

from ..battle.action_kinds import Kind
from ..battle.intents import Action
from .computer import Computer
from ..play.engine import Game
from ..battle.intents import LegalAction
from ..play.legal import legal_actions
from .legal_play import choose
from ..play.session import Session
from ..battle.state import SIDES, Data, other
from ..views.view import player_view
from ..views.view_types import as_data


class Player(Protocol):
    @property
    def name(self) -> str: ...

    def act(self, session: Session, side: str) -> Action | None: ...

    def end_of_round(self, session: Session, side: str) -> tuple[bool, bool]: ...

    def answer_withdraw(self, session: Session, side: str) -> str: ...

    def agree_to_stop(self, session: Session, side: str) -> bool: ...


@dataclass
class RandomPlayer:
    """Random legal play (``legal_play.choose``)."""

    rng: random.Random
    name: str = "random"

    def act(self, session: Session, side: str) -> Action | None:
        return choose(session, self.rng, side)

    def end_of_round(self, session: Session, side: str) -> tuple[bool, bool]:
        r = self.rng.random()
        return r < 0.04, 0.04 <= r < 0.1

    def answer_withdraw(self, session: Session, side: str) -> str:
        return self.rng.choice(["allow", "pursue"])

    def agree_to_stop(self, session: Session, side: str) -> bool:
        return self.rng.random() < 0.5


@dataclass
class ComputerPlayer:
    """The computer at a level; ``reasons`` is its own log: (round, action text, reason)."""

    computer: Computer
    reasons: list[tuple[int, str, str]] = field(default_factory=list)
    retries: bool = True            # asked again after a refusal, it chooses another action (``refused``)
    _refused: tuple[int, frozenset[str]] = (-1, frozenset())      # the record's length, the actions refused there

    @property
    def name(self) -> str:
        return f"computer:{self.computer.level.name}"

    def sees(self, session: Session, side: str) -> tuple[Data, list[LegalAction]]:
        """All the computer decides from: its side's player view and legal actions (a seat's screen, in the
        battle service, tells it the same)."""
        return as_data(player_view(session.state, side)), legal_actions(session.state, side)

    def view(self, session: Session, side: str) -> Data:
        return as_data(player_view(session.state, side))

    def act(self, session: Session, side: str) -> Action | None:
        view, legal = self.sees(session, side)
        if not legal:
            return None
        at, avoid = self._refused
        avoid = avoid if at == len(session.game.record) else frozenset()
        decision = self.computer.decide(view, legal, avoid)
        self.reasons.append((session.state.round, decision.action.text(), decision.reason))
        return decision.action

    def refused(self, session: Session, action: Action) -> None:
        """The engine refused ``action`` (a Target whose pool fell short): the next decision here avoids it."""
        at, avoid = self._refused
        now = len(session.game.record)
        self._refused = (now, (avoid if at == now else frozenset()) | {action.text()})

    def end_of_round(self, session: Session, side: str) -> tuple[bool, bool]:
        view, legal = self.sees(session, side)
        if not legal:
            return False, False
        decision = self.computer.decide(view, legal)
        self.reasons.append((session.state.round, "end of round", decision.reason))
        args = decision.action.args
        return args.get("withdraw") == side, bool(args.get("stop"))

    def answer_withdraw(self, session: Session, side: str) -> str:
        answer, reason = self.computer.withdraw_answer(self.view(session, side))
        self.reasons.append((session.state.round, f"answers the Withdraw: {answer}", reason))
        return answer

    def agree_to_stop(self, session: Session, side: str) -> bool:
        return self.computer.agree_to_stop(self.view(session, side))


def make_player(kind: str, side: str, seed: int, rng: random.Random) -> Player:
    """``random`` or ``computer[:easy|normal|hard]``."""
    if kind == "random":
        return RandomPlayer(rng)
    if kind == "computer" or kind.startswith("computer:"):
        lv = kind.split(":", 1)[1] if ":" in kind else "normal"
        return ComputerPlayer(Computer(side, lv, seed))
    raise ValueError(f"a player is random or computer:easy, computer:normal, computer:hard (got {kind!r})")


def seat_computer(game: Game, computer: Computer) -> None:
    """Name the computer in the battle's saves: a reopened battle seats it again, at its level, with its seed."""
    game.players[computer.side] = {"kind": "computer", "level": computer.level.name, "seed": computer.seed}


def seated_computer(game: Game) -> Computer | None:
    """The computer a saved battle names for one of its sides (``seat_computer``), or None: people play both. A
    battle the computer played against itself (``selfplay``) has no side for a person: it opens to be watched."""
    seats = [(side, p) for side, p in sorted(game.players.items()) if p.get("kind") == "computer"]
    if len(seats) != 1:
        return None
    side, p = seats[0]
    return Computer(side, str(p.get("level", "normal")), int(p.get("seed", 0)))


def end_of_round_action(session: Session, players: dict[str, Player]) -> Action:
    """Each player's word at the end of the round, the Initiative holder first, as one end-of-round action."""
    first = session.state.initiative
    order = [first, other(first)]
    words = {side: players[side].end_of_round(session, side) for side in order}
    withdraw = [side for side in SIDES if words[side][0]]
    if len(withdraw) == 2:
        return Action(Kind.END_OF_ROUND, "", {"withdraw": "both"})
    if withdraw:
        side = withdraw[0]
        return Action(Kind.END_OF_ROUND, "", {"withdraw": side,
                                           "answer": players[other(side)].answer_withdraw(session, other(side))})
    offers = [side for side in SIDES if words[side][1]]
    if len(offers) == 2 or (offers and players[other(offers[0])].agree_to_stop(session, other(offers[0]))):
        return Action(Kind.END_OF_ROUND, "", {"stop": True})
    return Action(Kind.END_OF_ROUND, "", {"offered": offers[0]} if offers else {})
