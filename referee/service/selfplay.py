"""A whole battle between two players the program seats (``seven-seconds selfplay``): set up and played headless,
every die rolled from the seed, and saved. A player is random legal play or the computer at a level; the computer
decides from its seat's screen (its side's view and legal actions), and its reasons are kept apart from the battle's
log."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..game.battle.intents import LegalAction
from ..game.players.seated import ComputerPlayer, Player, make_player, seat_computer
from ..game.records.record import new_seeded_dice, save_game
from ..game.players.selfplay import play_battle
from ..game.play.session import Session
from ..game.play.setup import new_game
from ..game.battle.state import Data, GameState
from ..game.views.view_types import as_data
from ..rules.scenario import Scenario
from .screen import Screen
from .session import BattleSession


@dataclass
class SeatedComputer(ComputerPlayer):
    """The computer at its seat: it decides from the screen the battle service gives its side (the side's view and
    legal actions), as a client of the service, and from nothing else."""

    service: BattleSession | None = field(default=None, repr=False)

    def screen(self, session: Session, side: str) -> Screen:
        if self.service is None or self.service.game is not session.game:
            self.service = BattleSession(session.game, None, hotseat=False, autosaving=False)
        return self.service.screen(side)

    def sees(self, session: Session, side: str) -> tuple[Data, list[LegalAction]]:
        screen = self.screen(session, side)
        return as_data(screen.view), list(screen.legal)

    def view(self, session: Session, side: str) -> Data:
        return as_data(self.screen(session, side).view)


def _seated(player: Player) -> Player:
    return SeatedComputer(player.computer) if isinstance(player, ComputerPlayer) else player


@dataclass(frozen=True)
class Reasons:
    """A computer player's own log: its name, and one line per decision (``[round R] action: reason``)."""

    player: str
    lines: list[str]


@dataclass(frozen=True)
class SelfPlayed:
    """How the battle went, as the end of it shows to anyone; the battle itself is in the save ``written``."""

    written: Path
    actions: int
    refused: int
    round: int
    phase: str
    control: str | None
    scored: bool                     # over, and its result scored
    winner: str | None               # with ``scored``: the side that won (None: a draw)
    reasons: dict[str, Reasons] = field(default_factory=dict)


def play_selfplay(table: Scenario, factions: dict[str, str], players: dict[str, str], seed: int,
                  rng: random.Random, rounds: int | None, limit: int, out: Path | str,
                  on_round: Callable[[int], None] | None = None) -> SelfPlayed:
    """Set up and play a battle on ``table`` between ``players`` (``random`` or ``computer[:LEVEL]`` per side) until
    it ends, or until round ``rounds`` is over and both agree to stop; write it to ``out``. The dice come from
    ``seed``, the players' choices from ``rng``; ``on_round`` hears the round after every action."""
    dice = new_seeded_dice(seed)
    # Set-up is the players' first decisions (A60): they make them through the legal actions too.
    game = new_game(table, factions)
    seated: dict[str, Player] | None = None
    if list(players.values()) != ["random", "random"]:
        seated = {side: _seated(make_player(kind, side, seed, rng)) for side, kind in players.items()}
    for player in (seated or {}).values():
        if isinstance(player, ComputerPlayer):
            seat_computer(game, player.computer)
    def advance(state: GameState) -> None:
        if on_round is not None:
            on_round(state.round)          # the round the battle is in, for a client's progress bar

    played = play_battle(game, dice, rng, rounds, limit, seated, on_action=advance)
    written = save_game(game, out, dice)
    reasons = {side: Reasons(player.name, [f"[round {r}] {text}: {reason}" for r, text, reason in player.reasons])
               for side, player in (seated or {}).items() if isinstance(player, ComputerPlayer)}
    s = game.state
    scored = s.phase == "over" and s.result is not None and s.result.pending is None
    winner = s.result.winner if scored and s.result is not None else None
    return SelfPlayed(written, len(game.record), played.refused, s.round, s.phase, s.control, scored, winner, reasons)
