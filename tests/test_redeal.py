"""The re-deal differential (``tests/redeal.py``): the opponent's secrets dealt again as side A cannot tell change
nothing side A gets (screen, previews, the record's public part, timing buckets), and a planted position leak (the
opponent's real blips 0.004" off, which the token spy scored at AUC 0.48) is caught in every state."""

from __future__ import annotations

from referee.game.views.view import player_view

from .redeal import differential, shifted_view

STATES = 20


def test_the_program_gives_side_a_the_same_outputs_whatever_bs_deal():
    clean = differential(player_view, STATES)
    assert clean.states == STATES and clean.differed == 0, clean
    # The timing buckets (100 ms): equal but for a time that falls at a bucket's edge on a busy machine.
    assert clean.timed_apart <= 2, clean


def test_a_planted_position_leak_is_caught_in_every_state():
    leaky = differential(shifted_view, STATES)
    assert leaky.states == STATES and leaky.differed == STATES, leaky
    assert leaky.by_output is not None and leaky.by_output["screen"] == STATES
