"""A unit cannot stand inside terrain it could never Move into nor land on (p.24, A10; its edge counts as inside,
A58, A67): a scenario that puts one there is refused by the loader (and so by ``validate``), and a referee's
correction that would put one there is refused with the reason, nothing changed."""

import json

import pytest

from referee.cli.main import main
from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice
from referee.game.play.engine import play
from referee.rules.errors import InputError

from .tables import game_state, rect, scenario, unit

BUILDING = rect("bunker", "large-building", 20, 20, 28, 28)
RIVER = rect("river-1", "river", 0, 10, 36, 12)


def test_a_trooper_inside_a_large_building_is_refused_by_the_loader():
    with pytest.raises(InputError) as e:
        scenario(units=[unit("a", "A", 24, 24)], terrain=[BUILDING])
    assert e.value.problems == ["units[0]: 'a' stands at (24, 24) inside bunker (terrain[0], Large building or compound), which "
                                "is impassable to troopers and blips: no unit can stand there [p.24, A10, A67]"]


def test_a_centre_on_the_buildings_edge_is_inside_it_and_one_just_outside_is_not():
    with pytest.raises(InputError):
        scenario(units=[unit("a", "A", 20, 24)], terrain=[BUILDING])            # on the edge: in it (A67)
    scenario(units=[unit("a", "A", 19.5, 24)], terrain=[BUILDING])              # base touching the wall: fine


def test_a_drone_may_hover_over_a_river_but_a_trooper_or_a_blip_may_not_stand_in_it():
    scenario(units=[unit("d", "A", 5, 11, type="basic-drone")], terrain=[RIVER])
    with pytest.raises(InputError) as e:
        scenario(units=[unit("a", "A", 5, 11)], blips=[{"id": "bl", "side": "B", "x": 30, "y": 11}], terrain=[RIVER])
    assert [p.split(":")[0] for p in e.value.problems] == ["units[0]", "blips[0]"]


def test_validate_names_the_unit_inside_the_building(tmp_path, capsys):
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"name": "t", "table": {"width": 36, "height": 36}, "terrain": [BUILDING],
                                "units": [unit("a", "A", 24, 24)]}))
    assert main(["validate", str(path)]) == 2
    assert "units[0]: 'a' stands at (24, 24) inside bunker" in capsys.readouterr().err


def test_a_correction_into_the_building_is_refused_and_changes_nothing():
    state = game_state(units=[unit("a", "A", 10, 4), unit("b", "B", 10, 32)], terrain=[BUILDING])
    out = play(state, Action("correct", "a", {"x": 24, "y": 24}), ScriptedDice())
    assert not out.legal
    assert "'a' stands at (24, 24) inside bunker" in out.reason and "A10" in out.reason
    assert (state.units["a"].x, state.units["a"].y) == (10, 4)
    # nor may the building be moved over the trooper
    out = play(state, Action("correct", "bunker", {"move": [-12, -18]}), ScriptedDice())
    assert not out.legal and "inside bunker" in out.reason
