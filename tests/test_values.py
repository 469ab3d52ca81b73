"""The rules' values are plain objects checked through their pydantic twins (referee/rules/model.py): the same
errors, the same data written, frozen, equal by their fields."""

from __future__ import annotations

import copy
import pickle

import pytest
from pydantic import BaseModel, ValidationError

from referee.rules import model
from referee.rules.factions import Faction, get_faction
from referee.rules.pieces import Circle, DealtCards, Terrain, Unit
from referee.rules.scenario import Scenario, load_scenario, scenario_to_data
from referee import paths

UNIT = {"id": "u1", "side": "A", "faction": "new-tokyo", "rating": "veteran", "type": "tactical", "x": 3, "y": 4}


def test_a_value_is_checked_as_its_twin_checks_it():
    unit = Unit(**UNIT)
    assert type(unit) is Unit and not isinstance(unit, BaseModel)
    assert unit.x == 3.0 and isinstance(unit.x, float) and unit.facing == 0.0
    with pytest.raises(ValidationError) as e:
        Unit(**{**UNIT, "rating": "elite", "x": "3", "colour": "red"})
    assert sorted(tuple(err["loc"]) for err in e.value.errors()) == [("colour",), ("rating",), ("x",)]
    assert model.twin(Unit).__name__ == "Unit" and issubclass(model.twin(Unit), BaseModel)


def test_a_values_validators_run_in_its_twin():
    with pytest.raises(ValidationError) as e:
        Faction.model_validate({**get_faction("new-tokyo").model_dump(by_alias=True), "name": "  "})
    assert e.value.errors()[0]["msg"] == "expected a name (not empty or only spaces)"


def test_a_value_is_frozen_equal_by_its_fields_and_copied_with_its_changes():
    unit = Unit(**UNIT)
    with pytest.raises(AttributeError):
        unit.x = 5.0  # type: ignore[misc]
    assert unit == Unit(**UNIT) and hash(unit) == hash(Unit(**UNIT)) and unit != Unit(**{**UNIT, "y": 5})
    moved = unit.model_copy(update={"x": 7.0})
    assert moved.x == 7.0 and unit.x == 3.0 and "x" in moved.model_fields_set
    assert copy.deepcopy(unit) == unit and pickle.loads(pickle.dumps(unit)) == unit
    assert repr(Circle(x=1, y=2, r=3)) == "Circle(x=1.0, y=2.0, r=3.0)"


def test_a_value_is_written_as_its_twin_writes_it():
    cards = DealtCards(troop="t1")
    assert cards.model_dump(exclude_unset=True) == {"troop": "t1"}
    assert DealtCards.model_construct().model_dump(exclude_unset=True) == {}
    terrain = Terrain(id="w", type="woods", circle={"x": 1, "y": 2, "r": 3})
    assert isinstance(terrain.circle, Circle)
    assert terrain.model_dump(mode="json", exclude_none=True) == {"id": "w", "type": "woods",
                                                                   "circle": {"x": 1.0, "y": 2.0, "r": 3.0}}


def test_a_table_read_back_from_the_cache_is_the_table_checked():
    path = paths.SCENARIO_DIR / "pastoral-hills.toml"
    first, again = load_scenario(path), load_scenario(path)
    assert type(first) is Scenario and first == again and scenario_to_data(first) == scenario_to_data(again)
    assert Scenario.model_validate(scenario_to_data(first)) == first


def test_the_value_classes_fields_are_their_twins():
    assert list(Unit.model_fields) == list(model.twin(Unit).model_fields)
    assert Unit.field_defaults() == {name: f.default for name, f in Unit.model_fields.items() if not f.is_required()}


class Holder(BaseModel):
    """A pydantic model holding values, as a battle's record holds units."""

    units: list[Unit]
    circle: Circle | None = None


def test_a_pydantic_model_holds_values_checked_and_written_through_their_twins():
    held = Holder(units=[UNIT, Unit(**{**UNIT, "id": "u2"})], circle={"x": 1, "y": 1, "r": 1})
    assert [type(u) for u in held.units] == [Unit, Unit] and type(held.circle) is Circle
    assert held.units[0] == Unit(**UNIT)
    assert held.model_dump(mode="json")["units"][1]["id"] == "u2"
    assert held.model_dump(mode="json")["circle"] == {"x": 1.0, "y": 1.0, "r": 1.0}
    with pytest.raises(ValidationError) as e:
        Holder(units=[{**UNIT, "rating": "elite"}])
    assert [tuple(err["loc"]) for err in e.value.errors()] == [("units", 0, "rating")]
