"""Set-up (p.~14-15, A55) and the end of the battle (p.16, R20, R22) with fixed rolls and draws."""

import pytest

from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice, SeededDice
from referee.game.play.effects import Refused
from referee.game.play.engine import Game, begin_battle
from referee.game.play.setup import SetupChoices, new_battle, objective_problems
from referee.game.battle.state import SQUARES
from referee.rules.scenario import parse_scenario

from .tables import game_state, unit

TABLE = parse_scenario({"name": "open table"}, "open")
FACTIONS = {"A": "new-tokyo", "B": "council-of-zane"}


def test_roll_tie_is_a_chance_encounter_without_objectives():
    state, rolls = new_battle(TABLE, SetupChoices(FACTIONS), _tie_then_seeded())
    assert state.mode == "chance-encounter" and state.attacker is None
    assert state.objectives == {}
    assert rolls[0].value == rolls[1].value == 3


class _tie_then_seeded:
    """Both players roll 3, then a seeded source answers the rest."""

    def __init__(self):
        self.first = [3, 3]
        self.rest = SeededDice(7)

    def answer(self, request):
        if self.first and request.kind == "d6":
            return self.first.pop(0)
        return self.rest.answer(request)


@pytest.mark.parametrize("seed", range(5))
def test_attack_defence_setup_is_legal(seed):
    class HighA(_tie_then_seeded):
        def __init__(self):
            self.first = [6, 2]
            self.rest = SeededDice(seed)

    state, _ = new_battle(TABLE, SetupChoices(FACTIONS), HighA())
    assert state.mode == "attack-defence" and state.attacker == "A" and state.initiative == "A"
    assert sorted(state.objectives) == ["alpha", "beta", "delta", "epsilon", "gamma"]
    for o in state.objectives.values():
        assert o.y >= 18, "objectives stand in the defender's half"
        assert objective_problems(state, o.id, o.x, o.y) == []
    for o in ("delta", "epsilon"):
        assert state.objectives[o].y >= 27, "delta and epsilon in the defender's 25 %"
    a_blips = [b for b in state.blips.values() if b.side == "A"]
    b_blips = [b for b in state.blips.values() if b.side == "B"]
    assert len(a_blips) == len(b_blips) == 16
    assert all(b.y <= 6 for b in a_blips), "the attacker deploys within 6\" of its edge"
    assert all(b.y >= 18 for b in b_blips), "the defender deploys in its half"
    for side in "AB":
        squares = state.holding[side].squares
        assert len(squares) == SQUARES and all(len(v) <= 2 for v in squares.values())
        assert state.missions[side]
    assert state.phase == "action" and state.turn.player == "A"


def test_objective_too_close_to_the_edge_is_refused_with_the_rule():
    class HighA(_tie_then_seeded):
        def __init__(self):
            self.first = [6, 2]
            self.rest = SeededDice(1)

    with pytest.raises(Refused, match="A55"):
        new_battle(TABLE, SetupChoices(FACTIONS, objectives={"delta": (3.0, 30.0)}), HighA())


def ended(control, objectives, attacker="A"):
    """A finished battle: the given side controls the table (None: contested)."""
    s = game_state(units=[unit("a", "A", 5, 5)] + ([unit("b", "B", 30, 30)] if control != "A" else []),
                   objectives=objectives, attacker=attacker)
    g = Game(begin_battle(s))
    g.play(Action("activate", "a"), ScriptedDice())
    g.play(Action("end-activation"), ScriptedDice())
    if "b" in g.state.units:
        g.play(Action("activate", "b"), ScriptedDice())
        g.play(Action("end-activation"), ScriptedDice())
    assert g.state.phase == "end-of-round"
    args = {"stop": True} if control is None else ({"withdraw": "A", "answer": "allow"} if control == "B" else {})
    out = g.play(Action("end-of-round", "", args), ScriptedDice())
    assert out.legal, out.reason
    return g


OBJ = [{"id": "alpha", "x": 10, "y": 25, "control": "A"}, {"id": "beta", "x": 25, "y": 25, "target_counters": 3}]


def test_r22_contested_keeps_objective_states():
    g = ended(None, OBJ)
    assert g.state.control is None
    assert g.state.objectives["alpha"].control == "A" and g.state.objectives["beta"].control == "contested"
    assert g.state.result.winner is None


def test_r22_defender_controls_secures_every_objective():
    g = ended("B", OBJ)
    assert g.state.control == "B"
    assert all(o.control == "B" for o in g.state.objectives.values())


def test_r22_attacker_controls_and_chooses():
    g = ended("A", OBJ)
    assert g.state.control == "A" and g.state.result.pending == "objectives"
    out = g.play(Action("objectives", "", {"alpha": "destroyed", "beta": "inspected"}), ScriptedDice())
    assert out.legal, out.reason
    assert g.state.objectives["alpha"].destroyed
    assert g.state.objectives["beta"].target_counters == 10
    assert g.state.result.pending is None
