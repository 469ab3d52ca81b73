"""The rulebook's examples R6-R11, R13, R14 and R23 played through the engine with fixed dice."""


from referee.game.battle.intents import Action
from referee.game.play.actions import resolve
from referee.game.battle.dice import ScriptedDice
from referee.game.play.engine import Game, begin_battle

from .tables import game_state, unit


def tactical(ident, side, x, y, **kw):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": "tactical", **kw}


def blip(ident, side, x, y, contents, **kw):
    return {"id": ident, "side": side, "x": x, "y": y, "contents": contents, **kw}


def drone(ident, side, kind="basic-drone"):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": kind}


def act(game, kind, actor="", dice=(), **args):
    out = game.play(Action(kind, actor, args), ScriptedDice(list(dice)))
    assert out.legal, out.reason
    return out


def test_r6_blip_revealed_before_acting_gets_two_actions():
    s = game_state(units=[unit("b-1", "B", 18, 34, facing=270)],
                   blips=[blip("blip-4", "A", 10, 2, [tactical("a-tac", "A", 0, 0)])], attacker="A")
    g = Game(begin_battle(s))
    act(g, "activate", "blip-4")
    act(g, "reveal", "blip-4", facing=90)
    assert "blip-4" not in g.state.blips
    tac = g.state.units["a-tac"]
    assert (tac.x, tac.y) == (10, 2) and tac.facing == 90
    assert g.state.turn.active == "a-tac" and g.state.turn.actions_left == 2


def test_r7_two_unit_blip_acts_one_unit_after_the_other():
    s = game_state(units=[unit("b-1", "B", 18, 34, facing=270)],
                   blips=[blip("blip-5", "A", 10, 2, [tactical("a-tac", "A", 0, 0), drone("a-drone", "A")])],
                   attacker="A")
    g = Game(begin_battle(s))
    act(g, "activate", "blip-5")
    act(g, "reveal", "blip-5")
    assert g.state.turn.active == "a-tac"
    refused = g.play(Action("move", "a-drone", {"x": 14, "y": 1}), ScriptedDice())
    assert not refused.legal and "not being activated" in refused.reason
    act(g, "move", "a-tac", x=10, y=5)
    assert g.state.turn.active == "a-tac" and g.state.turn.actions_left == 1
    act(g, "move", "a-tac", x=10, y=8)
    assert g.state.turn.active == "a-drone" and g.state.turn.actions_left == 1
    act(g, "move", "a-drone", x=14, y=1)
    assert g.state.turn.player == "B"


def test_r8_blip_revealed_after_its_move_has_no_actions_left():
    s = game_state(units=[unit("b-1", "B", 18, 34, facing=270)],
                   blips=[blip("blip-6", "A", 10, 2, [tactical("a-tac", "A", 0, 0)])], attacker="A")
    g = Game(begin_battle(s))
    act(g, "activate", "blip-6")
    act(g, "move", "blip-6", x=10, y=7)
    act(g, "reveal", "blip-6")
    assert "a-tac" in g.state.units
    assert g.state.turn.player == "B", "the revealed trooper has no actions, so side A's turn is over"


def test_r9_counters_on_a_two_drone_blip_are_duplicated():
    s = game_state(units=[unit("a-tac", "A", 10, 2, facing=90)],
                   blips=[blip("blip-9", "B", 10, 8, [drone("d1", "B"), drone("d2", "B")])])
    out = resolve(s, Action("target", "a-tac", {"dice": 2, "assign": {"blip-9": 3}}), ScriptedDice([4, 3]))
    assert out.legal
    assert out.state.units["d1"].target_counters == 3 and out.state.units["d2"].target_counters == 3
    assert "blip-9" not in out.state.blips


def test_r10_targeting_a_decoy():
    s = game_state(units=[unit("a-tac", "A", 10, 2, facing=90), unit("b-tr", "B", 14.5, 2 + 4.5)],
                   blips=[blip("blip-2", "B", 10, 7, [])])
    out = resolve(s, Action("target", "a-tac", {"dice": 2, "assign": {"blip-2": 5, "b-tr": 2}}), ScriptedDice([4, 3]))
    assert out.legal, out.reason
    assert "blip-2" not in out.state.blips
    assert out.state.units["b-tr"].target_counters == 2
    assert out.state.units["a-tac"].target_counters == 2


def test_r11_the_pool_is_spent_before_any_reveal():
    s = game_state(units=[unit("a-tac", "A", 10, 2, facing=90)],
                   blips=[blip("blip-3", "B", 10, 7, [tactical("b-tac", "B", 0, 0)])])
    out = resolve(s, Action("target", "a-tac", {"dice": 2, "assign": {"blip-3": 1}}), ScriptedDice([5, 5]))
    assert out.legal
    assert out.state.units["b-tac"].target_counters == 1
    assert any("9 unspent points are lost" in line for line in out.explain)


def r13_state():
    return game_state(units=[unit("M", "A", 10, 2, type="scout", facing=90),
                             unit("E1", "B", 8, 14), unit("E2", "B", 10, 14), unit("E3", "B", 12, 14)])


def test_r13_passive_sensors_twice():
    s = r13_state()
    # The Zane Vet Scout has Stl 3+1 = 4.
    first = resolve(s, Action("move", "M", {"x": 10, "y": 8}), ScriptedDice())
    assert first.state.units["M"].target_counters == 3
    assert [first.state.units[e].target_counters for e in ("E1", "E2", "E3")] == [1, 1, 1]
    second = resolve(first.state, Action("move", "M", {"x": 10, "y": 12}), ScriptedDice())
    assert second.state.units["M"].target_counters == 3
    assert [second.state.units[e].target_counters for e in ("E1", "E2", "E3")] == [2, 2, 2]


def test_r14_moving_decoy_is_removed_and_reveals_nothing():
    s = game_state(units=[unit("b-tac", "B", 20, 20)],
                   blips=[blip("blip-11", "A", 13, 14, []), blip("blip-7", "B", 14, 22, [tactical("b-scout", "B", 0, 0, type="scout")])])
    # Ends 3" from blip-7 (centres 4" apart) and 4" from the tactical (centres 5" apart).
    out = resolve(s, Action("move", "blip-11", {"x": 15, "y": 18}), ScriptedDice())
    assert out.legal, out.reason
    assert "blip-11" not in out.state.blips
    assert "blip-7" in out.state.blips
    assert out.state.units["b-tac"].target_counters == 0


def test_r23_initiative_tie_passes_the_counter():
    s = game_state(units=[unit("a", "A", 5, 5), unit("b", "B", 30, 30)], attacker="A")
    g = Game(begin_battle(s))
    assert g.state.initiative == "A"
    act(g, "activate", "a")
    act(g, "end-activation")
    act(g, "activate", "b")
    act(g, "end-activation")
    assert g.state.phase == "end-of-round"
    act(g, "end-of-round", dice=[4, 4])
    assert g.state.round == 2 and g.state.initiative == "B"
    assert g.state.turn.player == "B"
