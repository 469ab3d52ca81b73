"""The dice report: each roll's exact chance beside what happened, and each side's luck, checked against rolls
worked out by hand."""

from fractions import Fraction as F

from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice
from referee.game.reports.dice_report import dice_report
from referee.game.play.engine import Game, begin_battle
from referee.game.play.setup import SetupChoices

from .battles import finished_battle
from .tables import game_state, unit
from .test_record import example_game


def test_the_example_battle_worked_by_hand():
    # docs/example-save.json: a-tac Targets with 2 dice (4, 3), fires 3 gauss dice (5, 2, 4) at b-tac, grazing it
    # (Red 4, normal 2 against Armour 3: stunned); b-tac then fails to stand (5).
    report = dice_report(example_game())
    pool, rifle, graze, recovery = report.tests
    # 2d6 = 7 exactly on the average: P(7 or more) = 21/36, above it 15/36.
    assert (pool.side, pool.outcome, pool.score) == ("A", "pool 7 (average 7)", 1)
    assert pool.chances == (("7 or more", F(21, 36)), ("above the average", F(15, 36)))
    # Gauss, 3 dice: kill 1 - (5/6)^3 = 91/216; graze (5/6)^3 - (4/6)^3 = 61/216; nothing (4/6)^3 = 64/216.
    assert (rifle.side, rifle.outcome, rifle.score) == ("A", "graze", 1)
    assert dict(rifle.chances) == {"kill": F(91, 216), "graze": F(61, 216), "no effect": F(64, 216)}
    # Graze against Armour 3: unharmed only if both dice are 1-3, (1/2)^2.
    assert (graze.side, graze.outcome, graze.faces, graze.chance_of("unharmed")) == ("B", "stunned", (4, 2), F(1, 4))
    assert (recovery.side, recovery.outcome, recovery.chance_of("stands")) == ("B", "stays down", F(1, 3))
    a, b = report.sides["A"], report.sides["B"]
    assert (a.kills, a.expected_kills, a.grazes, a.expected_grazes) == (0, F(91, 216), 1, F(61, 216))
    assert (a.pool, a.expected_pool) == (7, 7)
    # A's total is 1 + 1 = 2 half-points. P(total < 2) = (15*64 + 15*61 + 6*64) / 7776 = 2259/7776;
    # P(total = 2) = (15*91 + 6*61 + 15*64) / 7776 = 2691/7776; luck = 2259/7776 + 2691/15552 = 89/192.
    assert a.luck == F(89, 192)
    # B lost both: P(total = 0) = 3/4 * 2/3 = 1/2, so its luck is half of that.
    assert b.luck == F(1, 4)
    assert [u.label for u in report.unscored] == ["Initiative roll for side A", "Initiative roll for side B"]


def test_a_missile_through_two_countermeasures_worked_by_hand():
    s = game_state(units=[unit("a-tac", "A", 10, 4, facing=90),
                          unit("b-tac", "B", 10, 16, facing=270, target_counters=4),
                          unit("b-eng", "B", 13, 10, type="engineer", facing=270)], attacker="A")
    game = Game(begin_battle(s))
    assert game.play(Action("activate", "a-tac", {}), ScriptedDice([])).legal
    # b-eng (CM 4) rolls 6, b-tac (CM 3) rolls 5: both miss; the hit die 2 is within 4 counters: a direct hit.
    assert game.play(Action("missile", "a-tac", {"target": "b-tac"}), ScriptedDice([6, 5, 2])).legal
    report = dice_report(game)
    eng, tac, hit = report.tests
    assert (eng.outcome, eng.chance_of("shoots it down")) == ("misses", F(4, 6))
    assert (tac.outcome, tac.chance_of("shoots it down")) == ("misses", F(3, 6))
    assert (hit.side, hit.outcome, hit.chance_of("direct hit"), hit.killed) == ("A", "direct hit", F(4, 6), True)
    a, b = report.sides["A"], report.sides["B"]
    assert (a.kills, a.expected_kills, a.luck) == (1, F(2, 3), F(1, 3) + F(1, 3))
    assert (b.countermeasures, b.countermeasure_rolls, b.expected_countermeasures) == (0, 2, F(4, 6) + F(3, 6))
    # Both countermeasures failing: 1/3 * 1/2 = 1/6; B's luck is half of it.
    assert b.luck == F(1, 12)


def test_every_roll_of_a_random_battle_has_a_whole_distribution():
    game, _ = finished_battle(SetupChoices(factions={"A": "new-tokyo", "B": "council-of-zane"}), seed=5, rounds=4)
    report = dice_report(game)
    assert report.tests
    for t in report.tests:
        assert sum(t.distribution.values()) == 1
        assert t.distribution.get(t.score, 0) > 0          # what happened was possible
        assert 0 <= t.percentile <= 1
    for side in report.sides.values():
        assert 0 <= side.luck <= 1
    # Every unit the rifles, missiles and contacts destroyed is a kill in the report.
    by_dice = [d for d in game.state.destroyed if "killed by" in d["by"] or "direct missile hit" in d["by"]]
    assert sum(s.kills for s in report.sides.values()) == len(by_dice)
