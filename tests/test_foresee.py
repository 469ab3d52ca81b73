"""Nobody foresees a die (issue 32, item 2): with the seed typed at set-up, a save made mid-turn and ``replay --do``
on it, the next action's dice are foretold no better than a blind guess (``tests/foresee.py``). Before the dice were
keyed by the sides' contributions and fresh entropy, each of the three ways foretold every die."""

from __future__ import annotations

from .foresee import WAYS, foresee


def test_the_next_actions_dice_are_foretold_no_better_than_chance_by_seed_file_or_replay_do():
    # Twelve actions that roll, in as many battles as it takes: with fresh entropy a battle's course differs from run
    # to run, and one may end before its twelfth.
    seen = foresee(battles=8, actions=12, total=12)
    for way in WAYS:
        assert seen.dice[way] >= 12, (way, seen.dice)            # a die at least for each action
        # One face in six matches by luck; every face matched before (p < 1e-9 over 12 dice). The battles' entropy is
        # fresh each run, so the bound is set far below any luck a suite meets (at p < 0.001 for each of the three
        # ways and of their whole actions, one run in about 170 failed by luck) and far above what foresight gives.
        assert seen.p_value(way) >= 1e-6, (way, seen.matched[way], seen.dice[way])
        # Whole actions too: fresh entropy each run, so a bound on their count would fail by luck now and then;
        # their chance is each action's own (one in six per die). Every action was foretold whole before.
        assert seen.whole_p_value(way) >= 1e-6, (way, seen.whole, seen.chances)
