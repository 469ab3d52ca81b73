"""Whole battles between computer players, from the legal actions: random legal play (``legal_play.choose``) or
the computer opponent (``computer``), seated as ``players.Player``."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .actions import Action
from .dice import DiceSource
from .engine import Game
from .legal import to_act
from .legal_play import choose
from .players import Player, end_of_round_action
from .session import Session


STUCK = 200          # refusals in a row: no player finds an action the engine takes, and the battle stops there


@dataclass
class Played:
    actions: int = 0
    refused: int = 0


def play_battle(game: Game, dice: DiceSource, rng: random.Random, rounds: int | None = None, limit: int = 20000,
                players: dict[str, Player] | None = None) -> Played:
    """Play ``game`` on until the battle is over (objectives set) or, with ``rounds``, until that round ends and
    both players agree to stop. ``limit`` bounds the number of actions. Without ``players`` both sides play random
    legal actions, one random player choosing the whole end-of-round action as before."""
    session = Session(game)
    played = Played()
    refused_last = False
    refused_run = 0
    for _ in range(limit):
        s = game.state
        if s.phase == "over" and not (s.result or {}).get("pending"):
            break
        if s.phase == "end-of-round" and rounds is not None and s.round >= rounds:
            action: Action | None = Action("end-of-round", "", {"stop": True})
        elif s.phase == "end-of-round" and players is not None:
            action = end_of_round_action(session, players)
        else:
            side = to_act(s) or s.initiative
            if players is None or refused_last:
                # A player whose action was refused would propose it again from the same view: random legal play
                # takes that one step instead. Set-up decisions (A60) are the players' own too.
                action = choose(session, rng, side)
            else:
                action = players[side].act(session, side)
        if action is None:
            break
        outcome = session.apply(action, dice)
        refused_last = not outcome.legal
        if outcome.legal:
            played.actions += 1
            refused_run = 0
        else:
            played.refused += 1
            refused_run += 1
            if refused_run >= STUCK:
                break
    return played
