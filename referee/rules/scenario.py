"""Scenario files (spec/REFEREE-QUERY.md): the table, its terrain, the forces, blips and objectives."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Any

import shapely

from .catalogue import is_drone_type, terrain_types, unit_type_names
from .errors import InputError
from .factions import Faction, get_faction
from .features import make_feature
from .checked import remembered_file
from .files import model_kind, read_document, validate
from .geometry import Geometry
from .model import Field, Strict, field_validator
from .pieces import (
    LIMIT, MAX_COUNTERS, MAX_PIECES, MAX_VERTICES, OBJECTIVE_IDS, Angle, BlipCounter, Circle, Coordinate, Counters,
    GroundPoint, Objective, ObjectiveId, Side, Size, Square, Terrain, Unit, UnitContents,
)
from .rulings import Rulings
from .files import expect_kind

__all__ = [
    "LIMIT", "MAX_COUNTERS", "MAX_PIECES", "MAX_VERTICES", "OBJECTIVE_IDS", "Angle", "BlipEntry", "Circle",
    "Coordinate", "Counters", "ObjectiveEntry", "ObjectiveId", "Scenario", "Side", "Size", "TableSize",
    "TerrainEntry", "UnitContents", "UnitEntry",
]

# The table's pieces are the battle's own models (``pieces.py``); a scenario names them as it always has.
TerrainEntry = Terrain
UnitEntry = Unit


class TableSize(Strict):
    width: Size
    height: Size


class BlipEntry(BlipCounter):
    """A blip as a scenario places it: its square may be left to the program, and the scenario may tell what it
    holds (``None``: not told)."""

    square: Square | None = Field(default=None, description="holding-area square (blip number)")
    contents: list[UnitContents] | None = None


class ObjectiveEntry(Objective):
    id: ObjectiveId


class Scenario(Strict):
    name: str = "Untitled table"
    # A default written here, made as it is: validating it would build the model's validator on every start.
    table: TableSize = TableSize.model_construct(width=36.0, height=36.0)
    rulings: dict[str, str | int | float] = {}
    scale: float = Field(default=1.0, ge=0.1, le=10, description="A56: 0.5 for figures under 20 mm")
    attacker: Side | None = None
    terrain: Annotated[list[TerrainEntry], Field(max_length=MAX_PIECES)] = []
    units: Annotated[list[UnitEntry], Field(max_length=MAX_PIECES)] = []
    blips: Annotated[list[BlipEntry], Field(max_length=MAX_PIECES)] = []
    objectives: list[ObjectiveEntry] = []
    ground: Annotated[list[GroundPoint], Field(max_length=MAX_PIECES)] = []     # Target counters on ground (A54)

    @field_validator("scale")
    @classmethod
    def _finite(cls, v: float) -> float:
        if not math.isfinite(v):
            raise ValueError("expected a finite number")
        return v


def terrain_geometry(entry: TerrainEntry) -> Geometry:
    if entry.polygon is not None:
        return shapely.Polygon(entry.polygon)
    c = entry.circle
    if c is None:
        raise ValueError(f"terrain {entry.id!r} has neither a polygon nor a circle")
    return shapely.Point(c.x, c.y).buffer(c.r, quad_segs=16)


def invalid_polygon_words(reason: str) -> str:
    """The geometry library's reason ("Self-intersection[13 17]") in the table's words: "its edges cross at
    (13, 17)"."""
    m = re.match(r"^\s*([A-Za-z -]+?)\s*\[\s*(\S+)\s+(\S+)\s*\]\s*$", reason)
    if m is None:
        return reason
    what = {"self-intersection": "its edges cross", "ring self-intersection": "its outline touches itself",
            "too few points": "too few corners", "duplicate rings": "an outline is repeated"}.get(
        m.group(1).strip().lower(), m.group(1).strip().lower())
    try:
        return f"{what} at ({float(m.group(2)):g}, {float(m.group(3)):g})"
    except ValueError:
        return what
def _standing_in_impassable(s: Scenario, standing: list[tuple[str, TerrainEntry]]) -> list[str]:
    """Units and blips whose base centre lies in terrain they could never Move into nor land on (p.24, A10): a
    centre within EPS of the edge is in it (A58, A67)."""
    types = terrain_types()
    walls = []
    for item, t in standing:
        ttype = types[t.type]
        barred = {drone for drone in (False, True)
                  if ttype.column(drone).impassable or not ttype.column(drone).landable}
        if barred:
            c = t.circle
            walls.append((item, make_feature(t.id, t.type, terrain_geometry(t), None if c is None else (c.x, c.y, c.r)),
                          barred))
    if not walls:
        return []
    out = []
    pieces = ([(f"units[{i}]", u.id, u.x, u.y, is_drone_type(u.type)) for i, u in enumerate(s.units)]
              + [(f"blips[{i}]", b.id, b.x, b.y, False) for i, b in enumerate(s.blips)])
    for item, ident, x, y, drone in pieces:
        for t_item, feature, barred in walls:
            if drone in barred and feature.holds(x, y):
                who = "drones" if drone else "troopers and blips"
                out.append(f"{item}: {ident!r} stands at ({x:g}, {y:g}) inside {feature.id} ({t_item}, "
                           f"{feature.ttype.name}), which is impassable to {who}: no unit can stand there "
                           f"[p.24, A10, A67]")
                break
    return out


def scenario_problems(s: Scenario, base_dir: Path | None = None) -> list[str]:
    """Every semantic problem at once: unknown types and factions, broken polygons, overlapping bases."""
    problems: list[str] = []
    types = terrain_types()
    seen: dict[str, str] = {}
    standing: list[tuple[str, TerrainEntry]] = []    # pieces whose shape is sound: a unit may be found inside one

    def claim(ident: str, item: str) -> None:
        if ident in seen:
            problems.append(f"{item}.id: {ident!r} is already used by {seen[ident]}; ids must be unique")
        else:
            seen[ident] = item

    for i, t in enumerate(s.terrain):
        item = f"terrain[{i}]"
        claim(t.id, item)
        if t.type not in types or types[t.type].placed_by_program:
            allowed = [k for k, v in types.items() if not v.placed_by_program]
            problems.append(f"{item}.type: expected one of {', '.join(allowed)} (got {t.type!r})")
        if (t.polygon is None) == (t.circle is None):
            problems.append(f"{item}: expected exactly one of 'polygon' or 'circle'")
            continue
        if t.polygon is not None:
            if len(t.polygon) < 3:
                problems.append(f"{item}.polygon: expected at least 3 points (got {len(t.polygon)})")
                continue
            if not all(math.isfinite(c) for p in t.polygon for c in p):
                problems.append(f"{item}.polygon: expected finite numbers")
                continue
            geom = shapely.Polygon(t.polygon)
            if not geom.is_valid:
                reason = shapely.is_valid_reason(geom)
                problems.append(f"{item}.polygon: expected a simple polygon whose edges do not cross "
                                f"({invalid_polygon_words(reason)})")
                continue
            elif geom.area <= 1e-9:
                problems.append(f"{item}.polygon: expected a polygon with an area (its points are in a line)")
                continue
        if t.type in types and not types[t.type].placed_by_program:
            standing.append((item, t))

    factions: dict[str, Faction | None] = {}

    def check_member(m_item: str, m: UnitContents) -> None:
        if m.type not in unit_type_names():
            problems.append(f"{m_item}.type: expected one of {', '.join(unit_type_names())} (got {m.type!r})")
            return
        if m.faction not in factions:
            try:
                factions[m.faction] = get_faction(m.faction, base_dir)
            except InputError as e:
                factions[m.faction] = None
                problems.append(f"{m_item}.faction: {e.problems[0]}")
        drone = is_drone_type(m.type)
        if drone and (m.damaged or m.stunned):
            problems.append(f"{m_item}: drones are never Damaged or Stunned [p.~13]")
        if m.jammer_on and m.type != "haywire-drone":
            problems.append(f"{m_item}.jammer_on: only haywire drones carry a jammer [p.23]")

    for i, u in enumerate(s.units):
        claim(u.id, f"units[{i}]")
        check_member(f"units[{i}]", u)
    for i, blip in enumerate(s.blips):
        item = f"blips[{i}]"
        claim(blip.id, item)
        if blip.contents is not None:
            if len(blip.contents) > 2:
                problems.append(f"{item}.contents: a blip holds at most 2 units (holding square) [p.~10] (got {len(blip.contents)})")
            for j, c in enumerate(blip.contents):
                claim(c.id, f"{item}.contents[{j}]")
                if c.side != blip.side:
                    problems.append(f"{item}.contents[{j}].side: expected {blip.side!r}, the blip's side (got {c.side!r})")
        for j, c in enumerate(blip.contents or []):
            check_member(f"{item}.contents[{j}]", c)

    squares: dict[tuple[str, int], str] = {}
    for i, b in enumerate(s.blips):
        if b.square is not None:
            key = (b.side, b.square)
            if key in squares:
                problems.append(f"blips[{i}].square: side {b.side}'s square {b.square} already belongs to blip {squares[key]!r}")
            squares[key] = b.id

    for i, o in enumerate(s.objectives):
        claim(o.id, f"objectives[{i}]")
    for i, g in enumerate(s.ground):
        claim(g.id, f"ground[{i}]")
        if not (0 <= g.x <= s.table.width and 0 <= g.y <= s.table.height):
            problems.append(f"ground[{i}]: ({g.x}, {g.y}) is off the {s.table.width:g}\" x {s.table.height:g}\" table")

    discs = (
        [(f"units[{i}]", u.id, u.x, u.y, u.base / 2) for i, u in enumerate(s.units)]
        + [(f"blips[{i}]", b.id, b.x, b.y, b.base / 2) for i, b in enumerate(s.blips)]
        + [(f"objectives[{i}]", o.id, o.x, o.y, o.base / 2) for i, o in enumerate(s.objectives)]
    )
    w, h = s.table.width, s.table.height
    for item, _ident, x, y, _r in discs:
        if not (0 <= x <= w and 0 <= y <= h):
            problems.append(f"{item}: centre ({x}, {y}) is off the {w:g}\" x {h:g}\" table")
    problems += _standing_in_impassable(s, standing)
    for first in range(len(discs)):
        for second in range(first + 1, len(discs)):
            ia, na, xa, ya, ra = discs[first]
            ib, nb, xb, yb, rb = discs[second]
            gap = math.hypot(xa - xb, ya - yb) - ra - rb
            if gap < -1e-6:
                problems.append(
                    f"{ib}: base of {nb!r} overlaps {na!r} ({ia}) by {-gap:.2f}\"; bases may touch but not overlap [p.18, A51]"
                )
    try:
        Rulings(s.rulings, source="rulings")
    except InputError as e:
        if e.source != "rulings":
            raise           # the rulings file itself is broken: reported against that file, not the scenario
        problems.extend(e.problems)
    return problems


def parse_scenario(data: dict[str, Any], source: str, base_dir: Path | None = None) -> Scenario:
    scenario = validate(Scenario, data, source)
    problems = scenario_problems(scenario, base_dir)
    if problems:
        raise InputError(source, problems)
    return scenario


def load_scenario(path: Path | str) -> Scenario:
    path = Path(path)
    scenario = remembered_file(path, model_kind(Scenario), lambda: _read_scenario(path))
    # What the table names elsewhere (its factions, the rulings and terrain tables) is looked up on every load.
    problems = scenario_problems(scenario, path.parent)
    if problems:
        raise InputError(str(path), problems)
    return scenario


def _read_scenario(path: Path) -> Scenario:
    data = read_document(path)
    expect_kind(data, "scenario", str(path))
    return validate(Scenario, data, str(path))


def scenario_to_data(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain data in the file format (for ``do --out`` and JSON ``state``)."""
    data = scenario.model_dump(mode="json", by_alias=True, exclude_none=True)
    for t in data.get("terrain", []):
        if "polygon" in t:
            t["polygon"] = [list(p) for p in t["polygon"]]
    return data
