"""Whole battles between computer players, from the legal actions (``legal_play.choose``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .actions import Action
from .dice import DiceSource
from .engine import Game
from .legal import to_act
from .legal_play import choose
from .session import Session


@dataclass
class Played:
    actions: int = 0
    refused: int = 0


def play_battle(game: Game, dice: DiceSource, rng: random.Random, rounds: int | None = None, limit: int = 20000) -> Played:
    """Play ``game`` on until the battle is over (objectives set) or, with ``rounds``, until that round ends and
    both players agree to stop. ``limit`` bounds the number of actions."""
    session = Session(game)
    played = Played()
    for _ in range(limit):
        s = game.state
        if s.phase == "over" and not (s.result or {}).get("pending"):
            break
        if s.phase == "end-of-round" and rounds is not None and s.round >= rounds:
            action: Action | None = Action("end-of-round", "", {"stop": True})
        else:
            side = to_act(s) or s.initiative
            action = choose(session, rng, side)
        if action is None:
            break
        outcome = session.apply(action, dice)
        if outcome.legal:
            played.actions += 1
        else:
            played.refused += 1
    return played
