"""A confirmed rifle shot in the window takes one route: window -> service -> engine -> service -> window
(``benchmarks/trace_rifle.py`` traces every call from the confirmation to the next frame drawn). The window asks the
service once (``send``); the service asks the engine once (``play_action``: the shot resolved, recorded and the
seat's new screen's facts answered in the same visit)."""

from __future__ import annotations

from benchmarks.trace_rifle import trace


def test_a_confirmed_rifle_shot_goes_to_the_engine_and_back_once():
    traced = trace()
    assert traced["route"] == ["window", "service", "engine", "service", "window"]
    assert traced["turns"] == 1 and traced["window_round_trips"] == 1
    assert traced["window_asks"] == {"service": 1, "engine": 0}
