"""The battle's data is defined once (``rules/pieces.py``): the scenario, the save, the engine's state and the player
view hold the same fields, so a field added in one place cannot be forgotten in another."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic_core import PydanticUndefined

from referee.game.records import record
from referee.game.play.engine import Game
from referee.game.battle.state import BlipState, GameState, ObjectiveState, UnitState, state_from_scenario
from referee.game.views.view import player_view
from referee.rules import pieces, scenario
from referee.rules.battlefield import UnitLike

from .tables import scenario as make_scenario
from .tables import unit

PAIRS = [(UnitState, pieces.Unit), (BlipState, pieces.Blip), (ObjectiveState, pieces.Objective)]


def _defaults(model):
    return {name: f.default for name, f in model.model_fields.items() if f.default is not PydanticUndefined}


def test_the_defaults_a_view_leaves_out_are_the_models():
    assert pieces.defaults(pieces.Unit) == {"facing": 0.0, "base": 1.0, "target_counters": 0, "damaged": False,
                                            "stunned": False, "jammer_on": False, "activation": True}
    assert pieces.defaults(pieces.Objective) == {"base": 1.0, "target_counters": 0, "control": "contested",
                                                 "destroyed": False}


@pytest.mark.parametrize("state_class, model", PAIRS, ids=lambda c: c.__name__)
def test_the_engines_pieces_have_the_models_fields_and_defaults(state_class, model):
    fields = {f.name: f for f in dataclasses.fields(state_class)}
    assert set(fields) == set(model.model_fields)
    state_defaults = {n: f.default for n, f in fields.items() if f.default is not dataclasses.MISSING}
    assert state_defaults == _defaults(model)


def test_the_rules_read_a_unit_by_the_models_fields():
    # What the rules' battlefield reads of a unit (a scenario's, the state's or a view's) is named as in the model;
    # only whether it still holds its activation counter is the turn's business, not the table's.
    read = {name for name in dir(UnitLike) if not name.startswith("_")}
    assert read == set(pieces.Unit.model_fields) - {"activation"}


def test_the_scenario_and_the_save_use_the_same_models():
    assert scenario.UnitEntry is pieces.Unit and scenario.TerrainEntry is pieces.Terrain
    assert scenario.UnitContents is pieces.UnitContents
    state_fields = record._State.model_fields
    assert state_fields["units"].annotation.__args__[0] is pieces.Unit
    assert state_fields["blips"].annotation.__args__[0] is pieces.Blip
    assert state_fields["objectives"].annotation.__args__[0] is pieces.Objective
    assert issubclass(state_fields["terrain"].annotation.__args__[0], pieces.Terrain)
    # A scenario's blip is the counter everyone sees plus what the scenario may tell (contents, a square or none).
    assert set(scenario.BlipEntry.model_fields) == set(pieces.Blip.model_fields) | {"contents"}
    assert set(scenario.ObjectiveEntry.model_fields) == set(pieces.Objective.model_fields)


def test_the_saves_state_holds_every_field_of_the_engines_state():
    # A field added to the state and forgotten in the save's schema would make a save holding it unreadable.
    assert set(record._State.model_fields) == {f.name for f in dataclasses.fields(GameState)}


def test_a_save_whose_first_state_waits_for_a_facing_opens(tmp_path):
    # A13: troopers just revealed wait for their owner's facing (``to_face``); a table saved at that moment reads back.
    state = state_from_scenario(make_scenario([unit("a", "A", 5, 5), unit("d", "B", 9, 9)]))
    state.to_face = ["a"]
    path = record.save_game(Game(state), tmp_path / "facing.json")
    assert record.read_save(path).game.initial.to_face == ["a"]


def test_a_scenarios_pieces_reach_the_state_whole():
    s = make_scenario(
        [unit("a", "A", 5, 5, target_counters=2, facing=450, activation=False),
         unit("d", "B", 9, 9, type="haywire-drone", jammer_on=True)],
        blips=[{"id": "b1", "side": "B", "x": 20, "y": 20, "square": 4, "base": 1.5, "activation": False}],
        objectives=[{"id": "alpha", "x": 30, "y": 30, "target_counters": 1, "control": "A"}],
    )
    state = state_from_scenario(s)
    a = state.units["a"]
    assert (a.target_counters, a.facing, a.activation) == (2, 90.0, False)
    assert state.units["d"].jammer_on
    assert dataclasses.asdict(state.blips["b1"]) == {"id": "b1", "side": "B", "x": 20, "y": 20, "square": 4,
                                                     "base": 1.5, "activation": False}
    assert dataclasses.asdict(state.objectives["alpha"]) == {"id": "alpha", "x": 30, "y": 30, "base": 1.0,
                                                             "target_counters": 1, "control": "A",
                                                             "destroyed": False}


def test_the_player_view_shows_the_models_fields():
    s = make_scenario([unit("a", "A", 5, 5)],
                      blips=[{"id": "b1", "side": "B", "x": 20, "y": 20, "square": 4}],
                      objectives=[{"id": "alpha", "x": 30, "y": 30}])
    state: GameState = state_from_scenario(s)
    mine, theirs = player_view(state, "B"), player_view(state, "A")
    assert set(mine["units"][0]) == set(pieces.Unit.model_fields)
    assert set(mine["blips"][0]) == set(pieces.Blip.model_fields) | {"contents"}
    # The opponent's counter: exactly what the model says anyone sees.
    assert set(theirs["blips"][0]) == set(pieces.BlipCounter.model_fields)
    assert set(mine["objectives"][0]) == set(pieces.Objective.model_fields) - {"destroyed"}
