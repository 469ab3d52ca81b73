"""Finished battles for tests, played quickly by the random player with seeded dice."""

from __future__ import annotations

import random

from referee.game.battle.intents import Action
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.players.random_play import random_action
from referee.game.play.setup import SetupChoices, new_battle
from referee.rules.scenario import parse_scenario

OPEN_FIELD = {"name": "open field", "table": {"width": 36, "height": 36},
              "terrain": [{"id": "w1", "type": "woods", "polygon": [[14, 14], [20, 14], [20, 20], [14, 20]]}]}


def play_rounds(game: Game, dice, rng: random.Random, rounds: int) -> None:
    """Random turns until the end of round ``rounds`` (never proposing an end of the battle)."""
    while game.state.phase == "action" or (game.state.phase == "end-of-round" and game.state.round < rounds):
        if game.state.phase == "end-of-round":
            game.play(Action("end-of-round", "", {}), dice)
            continue
        action = random_action(game.state, rng)
        if action.kind not in ("end-of-round", "objectives"):
            game.play(action, dice)


def finish(game: Game, dice, withdraw: str) -> None:
    """End the battle at the end of this round: ``withdraw`` (allowed, so the other side Controls the Table), or
    "stop" (both agree: the Table is Contested). An attacker in Control secures every surviving objective."""
    args = {"stop": True} if withdraw == "stop" else {"withdraw": withdraw, "answer": "allow"}
    out = game.play(Action("end-of-round", "", args), dice)
    assert out.legal, out.reason
    result = game.state.result
    if result is not None and result.pending == "objectives":
        out = game.play(Action("objectives", game.state.attacker, {o: "secured" for o in result.objectives}), dice)
        assert out.legal, out.reason
    assert game.state.phase == "over" and game.state.result.pending is None


def finished_battle(choices: SetupChoices, seed: int = 5, rounds: int = 2, withdraw: str = "B") -> tuple[Game, SeededDice]:
    table = parse_scenario(OPEN_FIELD, "open field")
    dice = SeededDice(seed)
    state, _ = new_battle(table, choices, dice)
    game = Game(state)
    play_rounds(game, dice, random.Random(seed), rounds)
    finish(game, dice, withdraw)
    return game, dice


class ThroughSession:
    """``play_rounds`` and ``finish`` play a ``Game``; this plays a service session instead, action by action, as
    its window sends them."""

    def __init__(self, session) -> None:
        self.session = session

    @property
    def state(self):
        return self.session.state

    def play(self, action, dice):
        return self.session.attempt(action).outcome
