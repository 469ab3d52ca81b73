"""Where revealed units stand (A66): the first unit of the square replaces the counter, each further one stands
touching it on a legal spot its owner chooses (a ``face`` action with x and y), and the log says where each stands."""

import math

from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice
from referee.game.play.effects import revealed_spot_problem, revealed_spots
from referee.game.play.engine import Game, begin_battle
from referee.game.records.record import read_save, save_game

from .tables import game_state, rect, unit


def content(ident, side, type="tactical"):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type}


def battle(terrain=()) -> Game:
    """A's a1 at (10, 10); B's blip bb at (15, 10) holds two tacticals (at most two a square)."""
    state = game_state(units=[unit("a1", "A", 10, 10, facing=0), unit("b-far", "B", 30, 30)],
                       blips=[{"id": "bb", "side": "B", "x": 15, "y": 10,
                               "contents": [content("b1", "B"), content("b2", "B")]}],
                       terrain=list(terrain))
    return Game(begin_battle(state, first="A"))


def reveal(game: Game):
    assert game.play(Action("activate", "a1"), ScriptedDice([])).legal
    out = game.play(Action("target", "a1", {"dice": 2, "assign": {"bb": 1}}), ScriptedDice([6, 6]))
    assert out.legal, out.reason
    return out


def touching(s, a, b) -> float:
    ua, ub = s.units[a], s.units[b]
    return math.hypot(ua.x - ub.x, ua.y - ub.y) - (ua.base + ub.base) / 2


def test_the_first_unit_replaces_the_counter_and_the_others_touch_it_and_the_log_says_where():
    game = battle()
    out = reveal(game)
    s = game.state
    assert (s.units["b1"].x, s.units["b1"].y) == (15, 10)
    # The second unit touches the first [A66].
    assert abs(touching(s, "b2", "b1")) < 1e-6
    assert s.to_place == {"b2": "b1"}
    text = next(e for e in out.events if e.startswith("bb is revealed"))
    assert "b1 (tactical) at (15.00, 10.00)" in text
    assert f"b2 (tactical) at ({s.units['b2'].x:.2f}, {s.units['b2'].y:.2f})" in text
    assert any("[p.17, A66]" in line for line in out.explain)


def test_the_owner_places_a_further_unit_on_an_offered_spot_in_either_sides_turn():
    game = battle()
    reveal(game)
    spots = revealed_spots(game.state, "b2")
    assert len(spots) >= 6
    b1 = game.state.units["b1"]
    r = b1.base                      # two bases of the same size touch at one base's width
    # East of b1, away from a1: (15 + r, 10) is free.
    east = (round(15 + r, 3), 10.0)
    assert east in spots
    out = game.play(Action("face", "b2", {"x": east[0], "y": east[1]}), ScriptedDice([]))
    assert out.legal, out.reason
    s = game.state
    assert (s.units["b2"].x, s.units["b2"].y) == east and "b2" not in s.to_place
    assert f"side B places b2 at ({east[0]:.2f}, 10.00), touching b1" in out.events
    assert game.state.to_place == {} and "b2" in game.state.to_face     # its facing is still to come (A13)
    out = game.play(Action("face", "b2", {"facing": 90}), ScriptedDice([]))
    assert out.legal and game.state.units["b2"].facing == 90.0


def test_placed_and_faced_in_one_decision():
    game = battle()
    reveal(game)
    north = (15.0, round(10 + game.state.units["b1"].base, 3))
    out = game.play(Action("face", "b2", {"x": north[0], "y": north[1], "facing": 45}), ScriptedDice([]))
    assert out.legal, out.reason
    u = game.state.units["b2"]
    assert (u.x, u.y, u.facing) == (*north, 45.0)
    assert game.state.to_place == {} and "b2" not in game.state.to_face


def test_an_illegal_spot_is_refused_with_the_rule_and_nothing_changes():
    game = battle(terrain=[rect("wall", "large-building", 15.3, 10.3, 20, 20)])
    reveal(game)
    before = game.state.to_data()
    b1 = game.state.units["b1"]
    d = b1.base                       # the distance at which two such bases touch
    diag = d / math.sqrt(2)
    cases = {
        (20.0, 10.0): "from touching b1",                          # not touching
        (15 - d, 10.0): "overlaps a1",                             # on a1's base, 5" away on the other side
        (round(15 + diag, 3), round(10 + diag, 3)): "impassable terrain (wall)",
    }
    if 15 - d - 10 >= d:
        del cases[(15 - d, 10.0)]     # bases too small to reach a1: nothing to overlap there
    for (x, y), words in cases.items():
        why = revealed_spot_problem(game.state, "b2", x, y)
        assert words in why, why
        out = game.play(Action("face", "b2", {"x": x, "y": y}), ScriptedDice([]))
        assert not out.legal and out.reason == why
        assert game.state.to_data() == before
    assert all(not revealed_spot_problem(game.state, "b2", x, y) for x, y in revealed_spots(game.state, "b2"))
    out = game.play(Action("face", "b2", {"x": "east", "y": 10}), ScriptedDice([]))
    assert not out.legal and "x and y in inches" in out.reason


def test_after_another_action_the_spot_stands_and_a_save_replays_the_placement(tmp_path):
    game = battle()
    reveal(game)
    north = (15.0, round(10 + game.state.units["b1"].base, 3))
    assert game.play(Action("face", "b2", {"x": north[0], "y": north[1]}), ScriptedDice([])).legal
    assert game.play(Action("end-activation"), ScriptedDice([])).legal
    assert game.state.to_place == {}
    out = game.play(Action("face", "b2", {"x": 15.0, "y": 12.0}), ScriptedDice([]))
    assert not out.legal and "[A66]" in out.reason
    again = read_save(save_game(game, tmp_path / "placed.json"))
    assert again.warnings == []
    assert again.game.state.to_data() == game.state.to_data()
