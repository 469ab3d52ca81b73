"""A battlefield is handed out again for a table that stands the same, and never for one that changed."""

import tomllib

from referee.game.dice import ScriptedDice
from referee.game.engine import begin_battle, play
from referee.game.intents import Action
from referee.game.state import state_from_scenario
from referee.rules.movement import move
from referee.rules.scenario import parse_scenario

TABLE = """
name = "two tacticals"
table = { width = 36, height = 36 }
[[units]]
id = "a-tactical-1"
side = "A"
faction = "new-tokyo"
type = "tactical"
rating = "veteran"
x = 8
y = 6
[[units]]
id = "a-tactical-2"
side = "A"
faction = "new-tokyo"
type = "tactical"
rating = "veteran"
x = 8
y = 10
[[units]]
id = "b-tactical-1"
side = "B"
faction = "new-tokyo"
type = "tactical"
rating = "veteran"
x = 9
y = 26
"""


def state():
    return begin_battle(state_from_scenario(parse_scenario(tomllib.loads(TABLE), "two tacticals")), "A")


def test_a_copy_of_a_state_gets_the_same_battlefield_and_a_changed_one_a_new_one():
    s = state()
    bf = s.battlefield()
    assert s.copy().battlefield() is bf
    moved = s.copy()
    moved.units["a-tactical-1"].x = 12.0
    other = moved.battlefield()
    assert other is not bf
    assert other.pieces["a-tactical-1"].x == 12.0 and bf.pieces["a-tactical-1"].x == 8.0
    countered = s.copy()
    countered.units["b-tactical-1"].target_counters = 3
    assert countered.battlefield().pieces["b-tactical-1"].target_counters == 3
    assert bf.pieces["b-tactical-1"].target_counters == 0


def test_a_move_through_a_unit_is_refused_every_time_it_is_asked():
    s = state()
    bf = s.battlefield()
    mover = bf.pieces["a-tactical-1"]
    # Straight up from (8, 6) to (8, 12) runs through a-tactical-2 at (8, 10) [p.18].
    for _ in range(2):
        r = move(bf, mover, [(8.0, 12.0)])
        assert not r.legal and "a-tactical-2" in r.reason
    # Round it, the same length, is allowed; a piece not of the battlefield is worked out afresh.
    assert move(bf, mover, [(10.0, 8.0), (10.0, 11.0)]).legal


def test_after_a_move_the_table_shows_the_unit_where_it_went():
    s = play(state(), Action("activate", "a-tactical-1"), ScriptedDice([])).state
    out = play(s, Action("move", "a-tactical-1", {"x": 12.0, "y": 6.0}), ScriptedDice([]))
    assert out.legal
    assert out.state.battlefield().pieces["a-tactical-1"].x == 12.0
    assert s.battlefield().pieces["a-tactical-1"].x == 8.0
