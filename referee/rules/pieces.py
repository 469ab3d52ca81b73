"""The battle's data, defined once: terrain, units, blips, objectives, holding areas, missions and cards.

Every place that holds a battle uses these models or a declared projection of them:

* the scenario file (``scenario.py``): ``Terrain``, ``Unit`` and ``Objective`` as they are; ``BlipEntry`` adds
  what a scenario may tell of a blip (its contents) and may leave its square to the program;
* the save's state (``game/records/record.py``): these models as they are, with ``SavedTerrain`` also checking its shape;
* the engine's state (``game/battle/state.py``): plain mutable dataclasses ``UnitState``, ``BlipState`` and
  ``ObjectiveState``, cheap to copy once per action, with exactly these models' fields (a test holds them
  together); holding areas hold ``UnitContents``, the cards dealt are ``DealtCards``;
* the player view (``game/views/view.py``): the same fields, as JSON data.

The models are frozen values, validated strictly (``Strict``): a file cannot put a number where a word belongs,
nor a position the geometry could not handle.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from .model import Field, Strict, model_validator
from .stats import Rating

Side = Literal["A", "B"]
OBJECTIVE_IDS = ("alpha", "beta", "gamma", "delta", "epsilon")
ObjectiveId = Literal["alpha", "beta", "gamma", "delta", "epsilon"]
Control = Literal["contested", "A", "B"]

# Inches. Far beyond any table, and small enough that no product of two of them overflows in the geometry.
LIMIT = 10_000.0
Coordinate = Annotated[float, Field(ge=-LIMIT, le=LIMIT, allow_inf_nan=False)]
Size = Annotated[float, Field(gt=0, le=LIMIT, allow_inf_nan=False)]
Angle = Annotated[float, Field(ge=-LIMIT, le=LIMIT, allow_inf_nan=False)]
# Bounds no real table meets, so that nothing read from a file can make the geometry or the odds slow or overflow.
MAX_COUNTERS = 99          # Target counters on one piece
MAX_VERTICES = 1_000       # points of one terrain polygon
MAX_PIECES = 500           # units, blips or terrain pieces on one table (each)
SQUARES = 16               # holding-area squares (and blip numbers) of one side [p.~10]
UNITS_PER_SQUARE = 2
Counters = Annotated[int, Field(ge=0, le=MAX_COUNTERS)]
Square = Annotated[int, Field(ge=1, le=SQUARES)]
Point = Annotated[list[Coordinate], Field(min_length=2, max_length=2)]


class Circle(Strict):
    x: Coordinate
    y: Coordinate
    r: Size


class Terrain(Strict):
    """One terrain piece: a polygon or a circle (exactly one; ``scenario_problems`` and ``SavedTerrain`` say so)."""

    id: str = Field(min_length=1)
    type: str
    polygon: Annotated[list[Point], Field(max_length=MAX_VERTICES)] | None = None
    circle: Circle | None = None


class SavedTerrain(Terrain):
    """A save's terrain: the shape is checked with the model, as a save's problems are reported per item."""

    @model_validator(mode="after")
    def _one_shape(self) -> SavedTerrain:
        if (self.polygon is None) == (self.circle is None):
            raise ValueError("expected exactly one of 'polygon' or 'circle'")
        if self.polygon is not None and len(self.polygon) < 3:
            raise ValueError(f"a polygon has at least 3 points (got {len(self.polygon)})")
        return self


class UnitContents(Strict):
    """A unit as it waits in a holding-area square (or inside a blip): everything but where it stands."""

    id: str = Field(min_length=1)
    side: Side
    faction: str
    rating: Rating
    type: str
    base: Size = 1.0
    target_counters: Counters = 0
    damaged: bool = False
    stunned: bool = False
    jammer_on: bool = False


class Unit(UnitContents):
    """A unit on the table."""

    x: Coordinate
    y: Coordinate
    facing: Angle = 0.0
    activation: bool = True


class BlipCounter(Strict):
    """A blip counter on the table, as any player sees it."""

    id: str = Field(min_length=1)
    side: Side
    x: Coordinate
    y: Coordinate
    base: Size = 1.0
    activation: bool = True


class Blip(BlipCounter):
    """A blip counter with the holding-area square it stands for (secret to its owner)."""

    square: Square


class Objective(Strict):
    id: str = Field(min_length=1)
    x: Coordinate
    y: Coordinate
    base: Size = 1.0
    target_counters: Counters = 0
    control: Control = "contested"
    destroyed: bool = False


class GroundPoint(Strict):
    """A patch of ground holding Target counters (p.19, A54): a point, never moved, its counters permanent."""

    id: str = Field(min_length=1)
    x: Coordinate
    y: Coordinate
    target_counters: Counters = 0


class DealtCards(Strict):
    """A side's Troop and Drone cards (p.~9) and the lines it plays: secret to the side until the battle is over.

    The side's Mission card is held beside them, as its id (``GameState.missions``)."""

    troop: str | None = None
    line: str | None = None
    drone: str | None = None
    drone_line: str | None = None


# A side's holding area: square -> the units in it ([] empty, None: not told to the program, in a refereed game).
HoldingSquares = dict[int, list[UnitContents] | None]


def defaults(model: type[Strict]) -> dict[str, Any]:
    """The model's fields that have a default, with it: what a piece written without them holds."""
    return model.field_defaults()
