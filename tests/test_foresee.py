"""Nobody foresees a die (issue 32, item 2): with the seed typed at set-up, a save made mid-turn and ``replay --do``
on it, the next action's dice are foretold no better than a blind guess (``tests/foresee.py``). Before the dice were
keyed by the sides' contributions and fresh entropy, each of the three ways foretold every die."""

from __future__ import annotations

from .foresee import WAYS, foresee


def test_the_next_actions_dice_are_foretold_no_better_than_chance_by_seed_file_or_replay_do():
    seen = foresee(battles=1, actions=12)
    for way in WAYS:
        assert seen.dice[way] >= 15, (way, seen.dice)
        # One face in six matches by luck; every face matched before (p < 1e-10 over 15 dice).
        assert not seen.above_chance(way), (way, seen.matched[way], seen.dice[way])
        assert seen.whole[way] <= 2, (way, seen.whole)
