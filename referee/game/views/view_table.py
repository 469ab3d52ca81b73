"""The table of a player view as the rules read it: a client holding only its seat's screen measures on this."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from ...rules.battlefield import Battlefield, build_battlefield
from ...rules.pieces import BlipCounter, Circle, Objective, Unit, defaults
from ...rules.rulings import rulings_for
from ...rules.scenario import TerrainEntry

# What a view's piece leaves out (a drone's facing, a standing objective's ``destroyed``) reads as the models say.
UNIT_DEFAULTS, BLIP_DEFAULTS, OBJECTIVE_DEFAULTS = defaults(Unit), defaults(BlipCounter), defaults(Objective)


def battlefield_from_view(view: Mapping[str, Any]) -> Battlefield:
    """The table of a player view (``game.view``) as the rules see it; blips are the anonymous counters it shows."""
    table = view["table"]
    units = [SimpleNamespace(**{**UNIT_DEFAULTS, **u}) for u in view.get("units", [])]
    blips = [SimpleNamespace(**{**BLIP_DEFAULTS, **b}) for b in view.get("blips", [])]
    objectives = [SimpleNamespace(**{**OBJECTIVE_DEFAULTS, **o}) for o in view.get("objectives", [])]
    terrain = [_terrain(t) for t in view.get("terrain", [])]
    rulings = rulings_for(view.get("rulings") or {})
    ground = [SimpleNamespace(**g) for g in view.get("ground", [])]
    return build_battlefield(table["width"], table["height"], rulings, view.get("scale", 1.0), view.get("attacker"),
                             terrain, units, blips, objectives, ground=ground)


def _terrain(t: Mapping[str, Any]) -> TerrainEntry:
    """A view's terrain piece, made as it is: the view holds the battle's own checked terrain (checking it again
    would load pydantic into the window for nothing)."""
    circle = t.get("circle")
    return TerrainEntry.model_construct(**{**t, "circle": None if circle is None else Circle.model_construct(**circle)})
