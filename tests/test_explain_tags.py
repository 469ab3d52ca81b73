"""Every line of an action's working names its page or ruling (the query contract: "each step of the computation on
its own line, with the rule's page or ruling id"), event lines included."""

from __future__ import annotations

import random
import re

from referee.game.battle.dice import SeededDice
from referee.game.battle.intents import Action
from referee.game.play.engine import Game
from referee.game.play.setup import SetupChoices, new_battle
from referee.game.players.random_play import random_action
from referee.rules.scenario import parse_scenario

from .battles import OPEN_FIELD

TAG = re.compile(r"\[(?:p\.|A\d)[^\]]*\]")


def test_every_line_of_every_action_in_random_battles_names_its_rule():
    untagged: dict[str, str] = {}
    kinds: set[str] = set()
    for seed, factions in ((3, ("new-tokyo", "council-of-zane")), (8, ("peoples-utopian-collective", "new-tokyo")),
                           (12, ("council-of-zane", "peoples-utopian-collective")),
                           (21, ("new-tokyo", "new-tokyo"))):
        dice = SeededDice(seed)
        state, _ = new_battle(parse_scenario(OPEN_FIELD, "open field"),
                              SetupChoices(factions=dict(zip("AB", factions))), dice)
        game, rng = Game(state), random.Random(seed)
        while game.state.phase == "action" or (game.state.phase == "end-of-round" and game.state.round < 6):
            if game.state.phase == "end-of-round":
                game.play(Action("end-of-round", "", {}), dice)
                continue
            action = random_action(game.state, rng)
            if action.kind in ("end-of-round", "objectives"):
                continue
            out = game.play(action, dice)
            if out.legal:
                kinds.add(action.kind)
                for line in out.explain:
                    if line and not TAG.search(line):
                        untagged.setdefault(action.kind, line)
    assert {"move", "target", "reveal", "rifle"} <= kinds, kinds
    assert untagged == {}
