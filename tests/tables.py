"""Small tables built in code for rules tests: units, terrain and a Battlefield in one call."""

from __future__ import annotations

from referee.game.battle.state import state_from_scenario
from referee.rules.battlefield import battlefield_from_scenario
from referee.rules.scenario import Scenario, parse_scenario

FACTION = "council-of-zane"


def unit(ident, side, x, y, type="tactical", rating="veteran", faction=FACTION, **extra):
    return {"id": ident, "side": side, "faction": faction, "rating": rating, "type": type, "x": x, "y": y, **extra}


def rect(ident, type, x0, y0, x1, y1):
    return {"id": ident, "type": type, "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def scenario(units=(), terrain=(), blips=(), objectives=(), rulings=None, width=36, height=36, **top):
    data = {"name": "test table", "table": {"width": width, "height": height}, "terrain": list(terrain),
            "units": list(units), "blips": list(blips), "objectives": list(objectives), **top}
    if rulings:
        data["rulings"] = rulings
    return parse_scenario(data, "test-table")


def battlefield(*args, **kw):
    return battlefield_from_scenario(scenario(*args, **kw))


def unchecked_battlefield(units=(), terrain=(), blips=(), objectives=(), rulings=None, width=36, height=36, **top):
    """A battlefield the loader's checks would refuse, such as a unit inside a large building (A10): the sight
    engines are compared on every geometry, possible in a battle or not."""
    data = {"name": "test table", "table": {"width": width, "height": height}, "terrain": list(terrain),
            "units": list(units), "blips": list(blips), "objectives": list(objectives), "rulings": rulings or {}, **top}
    return battlefield_from_scenario(Scenario.model_validate(data))


def game_state(*args, **kw):
    return state_from_scenario(scenario(*args, **kw))
