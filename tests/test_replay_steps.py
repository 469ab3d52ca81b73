"""Stepping through a recorded battle from either side's view, or the whole truth once it is over."""

import pytest

from referee.service.replay import TRUTH, BattleReplay
from referee.game.play.setup import SetupChoices
from referee.game.views.view import player_view, referee_view

from .battles import finished_battle
from .test_record import example_game


def test_each_step_is_the_state_the_battle_had_then():
    game = example_game()
    replay = BattleReplay(game)
    assert replay.steps == 13
    assert replay.state_at(13).to_data() == game.state.to_data()
    assert replay.state_at(0).to_data() == game.initial.to_data()
    # After action 3 (the rifle shot) b-tac is Stunned; before it, it was not.
    assert replay.state_at(3).units["b-tac"].stunned and not replay.state_at(2).units["b-tac"].stunned
    assert replay.view_at(3, "A") == player_view(game.rebuild(3), "A")
    with pytest.raises(ValueError, match="no step 14"):
        replay.state_at(14)


def test_a_side_sees_only_what_it_knew_and_the_truth_waits_for_the_end():
    game = example_game()
    replay = BattleReplay(game)
    assert replay.viewers() == ["A", "B"]
    with pytest.raises(ValueError, match="once the battle is over"):
        replay.view_at(5, TRUTH)
    a = replay.view_at(5, "A")
    b_blip = next(bl for bl in a["blips"] if bl["id"] == "b-blip-2")
    assert "contents" not in b_blip and "square" not in b_blip         # B's blip is an anonymous counter to A
    assert a["holding"]["B"] is None and a["missions"]["B"] is None
    assert replay.news(3, "A")[0].startswith("a-tac fires its gauss rifle at b-tac")


def test_the_whole_truth_of_a_finished_battle():
    game, _ = finished_battle(SetupChoices(factions={"A": "new-tokyo", "B": "council-of-zane"}), seed=3)
    replay = BattleReplay(game)
    assert replay.viewers() == ["A", "B", TRUTH]
    assert replay.view_at(10, TRUTH) == referee_view(game.rebuild(10))
    assert replay.view_at(replay.steps, TRUTH) == referee_view(game.state)
