"""The owner faces revealed troopers (A13): after any reveal, voluntary or involuntary, in either side's action, the
owner may set each revealed trooper's facing with a ``face`` action; any other action leaves the default facing. The
decision is recorded, so a save replays it."""

from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice
from referee.game.play.engine import Game, begin_battle
from referee.game.play.legal import legal_actions
from referee.game.records.record import read_save, save_game
from referee.game.play.undo import check_undo
from referee.game.views.view import player_view

from .tables import game_state, unit


def blip(ident, side, x, y, contents):
    return {"id": ident, "side": side, "x": x, "y": y, "contents": contents}


def content(ident, side, type="tactical"):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type}


def battle() -> Game:
    """A's tactical a1 at (10, 10) facing B's blip bb (a tactical and a basic drone) 4" away; B also has a far unit."""
    state = game_state(units=[unit("a1", "A", 10, 10, facing=0), unit("b-far", "B", 30, 30)],
                       blips=[blip("bb", "B", 15, 10, [content("b1", "B"), content("bd", "B", "basic-drone")]),
                              blip("ab", "A", 5, 30, [content("a2", "A")])])
    return Game(begin_battle(state, first="A"))


def target_bb(game: Game) -> None:
    assert game.play(Action("activate", "a1"), ScriptedDice([])).legal
    # Sensor dice 6 + 6 = 12: one counter on bb reveals it (p.17).
    out = game.play(Action("target", "a1", {"dice": 2, "assign": {"bb": 1}}), ScriptedDice([6, 6]))
    assert out.legal, out.reason


def test_an_involuntary_reveal_waits_for_the_owners_facing_of_its_troopers_only():
    game = battle()
    target_bb(game)
    s = game.state
    assert s.to_face == ["b1"]                           # the drone has no facing (A12 option A)
    assert s.units["b1"].facing == 270.0                 # the default: toward the enemy's edge
    assert player_view(s, "A")["to_face"] == ["b1"]      # the reveal is public, and so is the wait
    # The owner (side B) may face it, though it is side A's turn, and place the drone beside it (A66); side A may not.
    assert [a.kind + " " + a.actor for a in legal_actions(s, "B")] == ["face b1", "face bd"]
    assert not any(a.kind == "face" for a in legal_actions(s, "A"))
    out = game.play(Action("face", "b1", {"facing": 200}), ScriptedDice([]))
    assert out.legal, out.reason
    assert game.state.units["b1"].facing == 200.0 and game.state.to_face == []
    assert "side B faces b1 at 200°" in out.events
    # Faced once: a second facing is refused, with the rule, and nothing changes.
    before = game.state.to_data()
    out = game.play(Action("face", "b1", {"facing": 10}), ScriptedDice([]))
    assert not out.legal and "[A13]" in out.reason
    assert game.state.to_data() == before


def test_any_other_action_leaves_the_default_facing():
    game = battle()
    target_bb(game)
    assert game.play(Action("end-activation"), ScriptedDice([])).legal
    assert game.state.to_face == [] and game.state.units["b1"].facing == 270.0
    out = game.play(Action("face", "b1", {"facing": 200}), ScriptedDice([]))
    assert not out.legal and "not revealed by the last action" in out.reason


def test_a_voluntary_reveal_with_a_facing_needs_no_further_decision():
    state = game_state(units=[unit("b-far", "B", 30, 30)], blips=[blip("ab", "A", 5, 30, [content("a2", "A")])])
    g = Game(begin_battle(state, first="A"))
    assert g.play(Action("activate", "ab"), ScriptedDice([])).legal
    assert g.play(Action("reveal", "ab", {"facing": 45}), ScriptedDice([])).legal
    assert g.state.units["a2"].facing == 45.0 and g.state.to_face == []
    g2 = Game(begin_battle(state, first="A"))
    g2.play(Action("activate", "ab"), ScriptedDice([]))
    g2.play(Action("reveal", "ab"), ScriptedDice([]))
    assert g2.state.to_face == ["a2"]
    assert g2.play(Action("face", "a2", {"facing": 135}), ScriptedDice([])).legal
    assert g2.state.units["a2"].facing == 135.0


def test_the_facing_is_recorded_and_a_save_replays_it(tmp_path):
    game = battle()
    target_bb(game)
    game.play(Action("face", "b1", {"facing": 200}), ScriptedDice([]))
    assert game.record[-1].action == Action("face", "b1", {"facing": 200})
    path = save_game(game, tmp_path / "faced.json")
    again = read_save(path)
    assert again.warnings == []
    assert again.game.state.units["b1"].facing == 200.0
    assert again.game.state.to_data() == game.state.to_data()


def test_a_face_without_degrees_is_refused_and_the_other_side_cannot_undo_it():
    game = battle()
    target_bb(game)
    out = game.play(Action("face", "b1", {}), ScriptedDice([]))
    assert not out.legal and "degrees" in out.reason
    game.play(Action("face", "b1", {"facing": 200}), ScriptedDice([]))
    check = check_undo(game, "A")
    assert not check.allowed and "other player's decision" in check.reason


def test_random_play_faces_with_a_number_of_degrees():
    import random

    from referee.game.players.legal_play import fill

    game = battle()
    target_bb(game)
    offered = legal_actions(game.state, "B")[0]
    action = fill(offered, random.Random(4))
    assert action.kind == "face" and 0.0 <= action.args["facing"] < 360.0
    assert game.play(action, ScriptedDice([])).legal


def test_the_command_line_faces_a_revealed_trooper_on_a_save(tmp_path, capsys):
    import json

    from referee.cli.main import main

    game = battle()
    target_bb(game)
    path = save_game(game, tmp_path / "revealed.json")
    assert main(["replay", str(path), "--as", "B", "--legal", "--json"]) == 0
    offered = json.loads(capsys.readouterr().out)
    assert offered[0] == {"kind": "face", "actor": "b1", "args": {}, "free": {"facing": [0.0, 360.0]}}
    out = tmp_path / "faced.json"
    face = json.dumps({"kind": "face", "actor": "b1", "args": {"facing": 200}})
    assert main(["replay", str(path), "--do", face, "--out", str(out)]) == 0
    assert "side B faces b1 at 200°" in capsys.readouterr().out
    again = read_save(out)
    assert again.warnings == [] and again.game.state.units["b1"].facing == 200.0
    assert again.game.record[-1].action == Action("face", "b1", {"facing": 200})
    # Facing it again is refused with the rule, and nothing is written.
    twice = tmp_path / "twice.json"
    assert main(["replay", str(out), "--do", face, "--out", str(twice)]) == 1
    assert "[A13]" in capsys.readouterr().err and not twice.exists()
    # Without degrees the action is not even tried: the missing argument is named.
    assert main(["replay", str(path), "--do", '{"kind": "face", "actor": "b1"}', "--out", str(twice)]) == 2
    assert "--do.args.facing: required for a face action" in capsys.readouterr().err and not twice.exists()


def test_the_command_line_asks_for_a_missing_die(tmp_path, capsys):
    import json

    from referee.cli.main import main

    game = battle()
    path = save_game(game, tmp_path / "start.json")
    out = tmp_path / "next.json"
    assert main(["replay", str(path), "--do", json.dumps({"kind": "activate", "actor": "a1"}), "--out", str(out)]) == 0
    target = json.dumps({"kind": "target", "actor": "a1", "args": {"dice": 2, "assign": {"bb": 1}}})
    assert main(["replay", str(out), "--do", target, "--dice", "6", "--out", str(tmp_path / "x.json")]) == 2
    assert "die 2 is missing: sensor die 2 of 2 for a1" in capsys.readouterr().err
    assert main(["replay", str(out), "--do", target, "--dice", "6,6", "--out", str(tmp_path / "x.json")]) == 0
    assert read_save(tmp_path / "x.json").game.state.to_face == ["b1"]
