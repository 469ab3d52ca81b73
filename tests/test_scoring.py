"""Mission scoring on hand-built battle outcomes (p.16, A41) and the victory levels (p.~14, A44, EXAMPLES R20)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.game.battle.cards import CONDITIONS, MissionCard, bundled_deck
from referee.game.battle.scoring import (
    BattleOutcome,
    ObjectiveOutcome,
    score_battle,
    score_mission,
    victory,
)
from referee.rules.explain import lines

# alpha: Secured by A (2 TCs); beta: destroyed (12 TCs); gamma: Secured by B (10 TCs);
# delta: Contested (11 TCs); epsilon: Secured by A (9 TCs).
OBJECTIVES = {
    "alpha": ObjectiveOutcome("A", False, 2),
    "beta": ObjectiveOutcome("contested", True, 12),
    "gamma": ObjectiveOutcome("B", False, 10),
    "delta": ObjectiveOutcome("contested", False, 11),
    "epsilon": ObjectiveOutcome("A", False, 9),
}
# Side A destroyed B's commander, two tacticals, a basic and a recce drone; B destroyed A's scout and a kamikaze.
DESTROYED = {
    "A": [("commander", False), ("tactical", False), ("tactical", False), ("basic-drone", True), ("recce-drone", True)],
    "B": [("scout", False), ("kamikaze-drone", True)],
}
SURVIVORS = {"A": ["commander", "tactical", "tactical", "engineer"], "B": ["assault", "tactical"]}


def outcome(control=None, attacker="A", objectives=OBJECTIVES, destroyed=DESTROYED, survivors=SURVIVORS):
    return BattleOutcome(objectives=objectives, table_control=control, attacker=attacker,
                         destroyed_enemies=destroyed, surviving_troopers=survivors)


def mission(*rules, kind="offence", inspected=None, card_id="test-card") -> MissionCard:
    data = {"id": card_id, "title": "Test", "flavour": "", "kind": kind, "troop_line": "A", "vp_rules": list(rules)}
    if inspected is not None:
        data["inspected_counters"] = inspected
    return MissionCard.model_validate(data)


def vp(rule: dict, side="A", result=None, **kw) -> int:
    return score_mission(mission(rule, **kw), side, result or outcome()).vp


# ---- each condition ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule, side, expected",
    [
        ({"condition": "objective-secured", "vp": 5}, "A", 10),                          # alpha, epsilon
        ({"condition": "objective-secured", "vp": 5}, "B", 5),                           # gamma
        ({"condition": "objective-secured", "vp": 5, "objective": "alpha"}, "A", 5),
        ({"condition": "objective-secured", "vp": 5, "objective": "gamma"}, "A", 0),
        ({"condition": "objective-secured", "vp": 5, "objective": "red"}, "A", 5),       # alpha of alpha/beta/gamma
        ({"condition": "objective-secured", "vp": 5, "objective": "blue"}, "A", 5),      # epsilon of delta/epsilon
        ({"condition": "objective-secured", "vp": 5, "max_count": 1}, "A", 5),
        ({"condition": "objective-destroyed", "vp": 4}, "A", 4),                         # beta
        ({"condition": "objective-destroyed", "vp": 4}, "B", 4),                         # the same for either side
        ({"condition": "objective-destroyed", "vp": 4, "objective": "blue"}, "A", 0),
        ({"condition": "objective-inspected", "vp": 3}, "A", 6),                         # gamma 10, delta 11
        ({"condition": "objective-inspected", "vp": 3, "objective": "beta"}, "A", 0),    # destroyed, not inspected
        ({"condition": "objective-uninspected", "vp": 2}, "B", 4),                       # alpha 2, epsilon 9
        ({"condition": "objective-intact", "vp": 1}, "B", 4),                            # all but beta
        ({"condition": "objective-intact", "vp": 7, "objective": "beta"}, "B", 0),
        ({"condition": "objective-intact", "vp": 7, "objective": "gamma"}, "B", 7),
        ({"condition": "enemy-trooper-destroyed", "vp": 3}, "A", 9),
        ({"condition": "enemy-trooper-destroyed", "vp": 3}, "B", 3),
        ({"condition": "enemy-trooper-destroyed", "vp": 3, "unit_type": "tactical"}, "A", 6),
        ({"condition": "enemy-trooper-destroyed", "vp": 3, "unit_type": "scout"}, "A", 0),
        ({"condition": "enemy-trooper-destroyed", "vp": 3, "max_count": 2}, "A", 6),
        ({"condition": "enemy-drone-destroyed", "vp": 2}, "A", 4),
        ({"condition": "enemy-drone-destroyed", "vp": 2}, "B", 2),
        ({"condition": "enemy-drone-destroyed", "vp": 2, "unit_type": "recce-drone"}, "A", 2),
        ({"condition": "enemy-commander-destroyed", "vp": 10}, "A", 10),
        ({"condition": "enemy-commander-destroyed", "vp": 10}, "B", 0),
        ({"condition": "own-trooper-survives", "vp": 2}, "A", 8),
        ({"condition": "own-trooper-survives", "vp": 2}, "B", 4),
        ({"condition": "own-trooper-survives", "vp": 2, "unit_type": "engineer"}, "A", 2),
        ({"condition": "own-trooper-destroyed", "vp": -3}, "A", -3),                     # A lost a scout
        ({"condition": "own-trooper-destroyed", "vp": -3}, "B", -9),                     # B lost three troopers
        ({"condition": "own-trooper-destroyed", "vp": -3, "unit_type": "commander"}, "B", -3),
        ({"condition": "no-own-losses", "vp": 7}, "A", 0),
        ({"condition": "control-table", "vp": 8}, "A", 0),                               # the Table is Contested
        ({"condition": "table-contested", "vp": 6}, "A", 6),
        ({"condition": "table-contested", "vp": 6}, "B", 6),
    ],
)
def test_each_condition(rule, side, expected):
    kind = "offence" if side == "A" else "defence"
    assert vp(rule, side, kind=kind) == expected


def test_every_condition_is_tested_here():
    source = Path(__file__).read_text(encoding="utf-8")
    for name in CONDITIONS:
        assert f'"{name}"' in source


def test_inspected_threshold_comes_from_the_card_a41():
    rule = {"condition": "objective-inspected", "vp": 3}
    assert vp(rule, inspected=9) == 9             # gamma 10, delta 11, epsilon 9
    assert vp(rule, inspected=12) == 0            # beta's 12 do not count: it is destroyed
    assert vp({"condition": "objective-uninspected", "vp": 2}, inspected=12) == 8   # alpha gamma delta epsilon


def test_table_control():
    control = {"condition": "control-table", "vp": 8}
    contested = {"condition": "table-contested", "vp": 6}
    assert vp(control, "A", outcome("A")) == 8
    assert vp(control, "B", outcome("A"), kind="defence") == 0
    assert vp(contested, "A", outcome("A")) == 0
    assert vp(control, "B", outcome("B"), kind="defence") == 8


def test_no_own_losses_ignores_drones():
    destroyed = {"A": DESTROYED["A"], "B": [("kamikaze-drone", True)]}     # A lost only a drone
    result = outcome(destroyed=destroyed)
    assert vp({"condition": "no-own-losses", "vp": 7}, "A", result) == 7
    assert vp({"condition": "no-own-losses", "vp": 7}, "B", result, kind="defence") == 0


def test_a_chance_encounter_without_objectives():
    result = BattleOutcome(table_control="B", attacker=None,
                           destroyed_enemies={"B": [("commander", False), ("basic-drone", True)]},
                           surviving_troopers={"B": ["scout", "scout"]})
    card = mission(
        {"condition": "enemy-commander-destroyed", "vp": 15},
        {"condition": "enemy-drone-destroyed", "vp": 5, "max_count": 4},
        {"condition": "control-table", "vp": 12},
        {"condition": "own-trooper-destroyed", "vp": -2},
        {"condition": "own-trooper-survives", "vp": 1},
        {"condition": "no-own-losses", "vp": 4},
        kind="chance-encounter",
    )
    assert score_mission(card, "B", result).vp == 15 + 5 + 12 + 0 + 2 + 4
    assert score_mission(card, "A", result).vp == 0 - 2 + 0 + 0   # A lost its commander, has no survivors listed


def test_an_objective_not_on_the_table_scores_nothing_and_says_so():
    result = outcome(objectives={"alpha": ObjectiveOutcome("A")})
    score = score_mission(mission({"condition": "objective-secured", "vp": 5, "objective": "delta"}), "A", result)
    assert score.vp == 0
    assert "no delta objective on the table" in lines(score.explain)[1]


def test_a_whole_card_with_its_explanation():
    card = mission(
        {"condition": "objective-secured", "vp": 5},
        {"condition": "enemy-trooper-destroyed", "vp": 3, "unit_type": "tactical"},
        {"condition": "own-trooper-destroyed", "vp": -2},
        {"condition": "control-table", "vp": 8},
        card_id="raid",
    )
    score = score_mission(card, "A", outcome("A"))
    assert score.vp == 10 + 6 - 2 + 8
    assert [r.vp for r in score.rules] == [10, 6, -2, 8]
    assert [r.count for r in score.rules] == [2, 2, 1, 1]
    text = lines(score.explain)
    assert len(text) == 1 + 4 + 1
    assert "scores only from its own card [p.16]" in text[0]
    assert text[1] == ('rule 1 "+5 VP per objective Secured by you": alpha, epsilon of alpha, beta, gamma, delta, '
                       'epsilon -> 2 x +5 = +10 VP [raid rule 1, p.~12, p.16, A41]')
    assert text[2].startswith('rule 2 "+3 VP per enemy Tactical destroyed": enemy troopers destroyed: Commander, '
                              'Tactical, Tactical; Tactical: 2 -> 2 x +3 = +6 VP [raid rule 2, p.16]')
    assert text[3].endswith("-> 1 x -2 = -2 VP [raid rule 3, p.16]")
    assert text[4] == 'rule 4 "+8 VP if you Control the Table": you Control the Table -> +8 VP [raid rule 4, p.16]'
    assert text[5] == "side A total: 22 VP [p.16]"


def test_capped_rules_say_so():
    score = score_mission(mission({"condition": "enemy-trooper-destroyed", "vp": 3, "max_count": 2}), "A", outcome())
    assert "counted up to 2 -> 2 x +3 = +6 VP" in lines(score.explain)[1]


def test_a_mission_of_the_wrong_kind_is_flagged():
    score = score_mission(mission({"condition": "control-table", "vp": 8}), "B", outcome("B"))
    assert score.vp == 8
    assert "warning: side B was the defender, but this is an Offence mission [p.~15]" in lines(score.explain)


def test_sample_missions_score_on_an_outcome():
    deck = bundled_deck()
    assert score_mission(deck.mission("deep-strike"), "A", outcome()).vp == 0 + 3 * 2 - 3     # no blue destroyed
    assert score_mission(deck.mission("hold-the-line"), "B", outcome()).vp == 4 + 2 * 1 - 3 * 3
    # Eyes On inspects at 8 Target Counters: gamma 10, delta 11, epsilon 9 (beta is destroyed); 4 survivors.
    assert score_mission(deck.mission("eyes-on"), "A", outcome()).vp == 3 * 8 + 4 * 2


def test_battle_outcome_is_frozen_and_normalised():
    result = BattleOutcome(objectives={"alpha": {"control": "B", "target_counters": 3}}, table_control="A",
                           attacker="B", destroyed_enemies={"A": [["scout", 0]]})
    assert result.objectives["alpha"] == ObjectiveOutcome("B", False, 3)
    assert result.destroyed_enemies == {"A": (("scout", False),), "B": ()}
    assert result.surviving_troopers == {"A": (), "B": ()}
    with pytest.raises(TypeError):
        result.objectives["beta"] = ObjectiveOutcome()          # type: ignore[index]
    with pytest.raises(AttributeError):
        result.table_control = "B"                              # type: ignore[misc]
    with pytest.raises(ValueError):
        BattleOutcome(table_control="contested")
    with pytest.raises(ValueError):
        ObjectiveOutcome("C")
    with pytest.raises(ValueError):
        score_mission(mission({"condition": "control-table", "vp": 1}), "C", result)


# ---- victory ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "vp_a, vp_b, winner, margin, level",
    [
        (30, 25, "A", 5, "marginal"),       # EXAMPLES R20
        (31, 25, "A", 6, "normal"),
        (44, 25, "A", 19, "normal"),
        (45, 25, "A", 20, "decisive"),
        (25, 45, "B", 20, "decisive"),
        (25, 26, "B", 1, "marginal"),
        (-3, -9, "A", 6, "normal"),
        (25, 25, None, 0, "draw"),          # A44
    ],
)
def test_victory_levels(vp_a, vp_b, winner, margin, level):
    result = victory(vp_a, vp_b)
    assert (result.winner, result.margin, result.level) == (winner, margin, level)


def test_victory_explains_with_its_sources():
    result = victory(45, 25)
    text = lines(result.explain)
    assert text[0] == "side A 45 VP, side B 25 VP: the highest total wins [p.~14]"
    assert text[1] == "side A wins by 20 VP; winning by 20 or more is a decisive victory [p.~14]"
    assert result.campaign_points == 3
    assert victory(30, 25).campaign_points == 1 and victory(31, 25).campaign_points == 2


def test_a_tie_is_a_draw_a44():
    result = victory(25, 25)
    assert result.winner is None and result.campaign_points == 0
    assert lines(result.explain)[-1].endswith("[A44]")
    assert "draw" in lines(result.explain)[-1]


def test_score_battle_scores_each_side_from_its_own_card():
    deck = bundled_deck()
    result = score_battle(deck.mission("deep-strike"), deck.mission("hold-the-line"), outcome())
    assert result.scores["A"].vp == 3 and result.scores["B"].vp == -3
    assert (result.victory.winner, result.victory.margin, result.victory.level) == ("A", 6, "normal")
    assert lines(result.explain)[-1] == "side A wins by 6 VP; winning by 6-19 is a normal victory [p.~14]"
