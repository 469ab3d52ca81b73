"""Whole battles between computer players, from the legal actions: random legal play (``legal_play.choose``) or
the computer opponent (``computer``), seated as ``players.Player``."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from ..battle.action_kinds import Kind
from ..battle.intents import Action
from ..battle.dice import DiceSource
from ..play.engine import Game
from ..play.legal import to_act
from .legal_play import choose
from .seated import Player, end_of_round_action
from ..play.session import Session
from ..battle.state import GameState


RETRIES = 3          # refusals in a row after which a player that chooses anew has random legal play step in
STUCK = 200          # refusals in a row: no player finds an action the engine takes, and the battle stops there


@dataclass
class Played:
    actions: int = 0
    refused: int = 0


def play_battle(game: Game, dice: DiceSource, rng: random.Random, rounds: int | None = None, limit: int = 20000,
                players: dict[str, Player] | None = None,
                on_action: Callable[[GameState], None] | None = None) -> Played:
    """Play ``game`` on until the battle is over (objectives set) or, with ``rounds``, until that round ends and
    both players agree to stop. ``limit`` bounds the number of actions. Without ``players`` both sides play random
    legal actions, one random player choosing the whole end-of-round action as before. ``on_action`` is told the
    state after each legal action (a progress bar)."""
    session = Session(game)
    played = Played()
    refused_last = False
    refused_run = 0
    for _ in range(limit):
        s = game.state
        if s.phase == "over" and not (s.result is not None and s.result.pending):
            break
        side_acting: str | None = None
        if s.phase == "end-of-round" and rounds is not None and s.round >= rounds:
            action: Action | None = Action(Kind.END_OF_ROUND, "", {"stop": True})
        elif s.phase == "end-of-round" and players is not None:
            action = end_of_round_action(session, players)
        else:
            side = side_acting = to_act(s) or s.initiative
            player = players[side] if players is not None else None
            if player is None or (refused_last and (not getattr(player, "retries", False) or refused_run >= RETRIES)):
                # A player whose action was refused would propose it again from the same view: random legal play
                # takes that one step instead, unless the player chooses anew after a refusal (the computer), for
                # a few tries. Set-up decisions (A60) are the players' own too.
                action = choose(session, rng, side)
            else:
                action = player.act(session, side)
        if action is None:
            break
        outcome = session.apply(action, dice)
        refused_last = not outcome.legal
        refusal = getattr(players.get(side_acting or ""), "refused", None) if players is not None else None
        if refused_last and refusal is not None:
            refusal(session, action)
        if outcome.legal:
            played.actions += 1
            refused_run = 0
            if on_action is not None:
                on_action(game.state)
        else:
            played.refused += 1
            refused_run += 1
            if refused_run >= STUCK:
                break
    return played
