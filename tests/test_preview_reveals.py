"""A preview stops at the first reveal, as it stops at the first die: what a blip holds never reaches a screen
before the action is taken (only the blip's id, which the table shows)."""

import json

from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice
from referee.game.play.engine import begin_battle, play
from referee.game.play.session import preview

from .tables import game_state, unit


def _blip(ident, side, x, y, contents):
    return {"id": ident, "side": side, "x": x, "y": y, "contents": contents}


def _trooper(ident, side, type="tactical"):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type}


def _table(contents):
    # A's tactical at (10, 2) moves to (10, 8): B's blip at (8, 12) is then 4.5" away, inside its 6" passive sensors
    # [p.18], so the move reveals it.
    state = game_state(units=[unit("m", "A", 10, 2, facing=90), unit("far", "B", 30, 34)],
                       blips=[_blip("bb", "B", 8, 12, contents)])
    state = begin_battle(state, "A")
    activated = play(state, Action("activate", "m"), ScriptedDice([]))
    assert activated.legal, activated.reason
    return activated.state


def _move_preview(contents):
    state = _table(contents)
    return preview(state, Action("move", "m", {"x": 10, "y": 8}))


def test_a_move_into_passive_sensor_range_previews_the_reveal_by_the_blips_id_only():
    pair = _move_preview([_trooper("p1", "B"), _trooper("p2", "B", "basic-drone")])
    assert pair.legal and pair.reveals == "bb" and pair.first_roll is None
    assert pair.figures["cost"] > 0 and pair.figures["end"] == [10.0, 8.0]
    shown = json.dumps({"explain": pair.explain, **pair.to_data()})
    assert "p1" not in shown and "p2" not in shown and "basic-drone" not in shown and "decoy" not in shown


def test_the_preview_of_a_reveal_is_the_same_whatever_the_blip_holds():
    pair = _move_preview([_trooper("p1", "B"), _trooper("p2", "B", "basic-drone")])
    one = _move_preview([_trooper("p1", "B")])
    decoy = _move_preview([])
    as_shown = [(json.dumps(p.to_data(), sort_keys=True), p.explain) for p in (pair, one, decoy)]
    assert as_shown[0] == as_shown[1] == as_shown[2]


def test_the_move_itself_still_reveals_and_places_the_units():
    state = _table([_trooper("p1", "B"), _trooper("p2", "B", "basic-drone")])
    played = play(state, Action("move", "m", {"x": 10, "y": 8}), ScriptedDice([]))
    assert played.legal and "bb" not in played.state.blips and played.revealed["bb"] == ["p1", "p2"]
