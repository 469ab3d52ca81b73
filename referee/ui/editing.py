"""Mirroring a physical table: the scenario being drawn, edit by edit, with undo (no pygame here).

Every edit builds the changed scenario and asks the scenario model itself (``scenario_problems``, the loader's own
checks) whether it is still a valid table. A refused edit changes nothing and returns the reason, with the item
named; an accepted one keeps the previous scenario for ``undo``. So the scenario held here is always one that
``load_scenario`` accepts, and saving writes exactly what the loader reads back.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from dataclasses import dataclass
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import ValidationError

from ..rules.catalogue import is_drone_type, terrain_types, type_title, unit_type_names
from ..rules.errors import InputError, pydantic_problems
from ..rules.factions import faction_files
from ..rules.scenario import (OBJECTIVE_IDS, BlipEntry, Circle, ObjectiveEntry, Scenario, TableSize, TerrainEntry,
                              UnitContents, UnitEntry, parse_scenario, scenario_problems)
from ..rules.stats import RATINGS
from ..storage import atomic_write_text
from ..rules.scenario import load_scenario
from ..rules.files import read_document, validate

TABLE_SIZES = ((36.0, 36.0), (48.0, 48.0), (72.0, 48.0))
SIDES = ("A", "B")
CORNER_GAP = 0.05       # inches: a corner this close to the previous one is the same corner (a double click)
MAX_UNDO = 200
SUFFIXES = (".toml", ".json")
KIND_KEYS = {"terrain": "terrain", "unit": "units", "blip": "blips", "objective": "objectives"}
_ITEM = re.compile(r"\b(terrain|units|blips|objectives)\[(\d+)\]")


@dataclass(frozen=True)
class Edit:
    """What became of one edit: ``ok``, a message for the window and the item it is about."""

    ok: bool
    message: str
    item: str | None = None
    problems: tuple[str, ...] = ()
    confirm: bool = False        # refused only until the user says yes (overwriting another table's file)


def placeable_terrain() -> list[str]:
    """Terrain types a player may draw (the program's own jammer fields are not among them)."""
    return [k for k, t in terrain_types().items() if not t.placed_by_program]


def faction_ids() -> list[str]:
    """Bundled and user factions, by id (a user's file of the same id replaces the bundled one)."""
    return list(faction_files())


def default_facing(side: str) -> float:
    """Troopers start facing the enemy's table edge: side A towards +y (90°), side B towards -y (270°)."""
    return 90.0 if side == "A" else 270.0


def item_names(scenario: Scenario) -> dict[str, str]:
    """``units[3]`` -> ``a-tactical-2`` for every item of the scenario (to name items in messages)."""
    out: dict[str, str] = {}
    groups: tuple[tuple[str, Sequence[TerrainEntry | UnitEntry | BlipEntry | ObjectiveEntry]], ...] = (
        ("terrain", scenario.terrain), ("units", scenario.units), ("blips", scenario.blips),
        ("objectives", scenario.objectives))
    for key, entries in groups:
        for i, e in enumerate(entries):
            out[f"{key}[{i}]"] = e.id
    return out


def name_items(problem: str, scenario: Scenario) -> str:
    """A loader problem in the words of the table: every ``kind[i]`` becomes the item's id (``units[3].rating``
    -> ``a-tactical-2.rating``; ``'b-1' (blips[0])`` -> ``'b-1'``), as players know their pieces by name."""
    names = item_names(scenario)
    problem = re.sub(r"'([^']+)' \((?:terrain|units|blips|objectives)\[\d+\]\)",
                     lambda m: f"'{m.group(1)}'", problem)
    return _ITEM.sub(lambda m: names.get(m.group(0), m.group(0)), problem)


def plain_words(problem: str) -> str:
    """A validation message in the editor's words: "x: expected a number (got 'ten')", not the library's "Input
    should be a valid number, unable to parse string as a number"."""
    problem = re.sub(r"Input should be (?:a valid )?", "expected ", problem)
    return re.sub(r", unable to parse string as an? \w+", "", problem)


class TableEditor:
    """The scenario of a physical table, changed one checked edit at a time."""

    def __init__(self, scenario: Scenario | None = None, source: Path | None = None) -> None:
        self.scenario = scenario if scenario is not None else Scenario()
        self.source = Path(source) if source is not None else None
        self.history: list[tuple[Scenario, str, tuple[str, ...]]] = []
        self.undone: list[tuple[Scenario, str, tuple[str, ...]]] = []       # for redo, newest last
        self.revision = 0            # goes up with every change (the view redraws from it)
        self.saved_revision = 0
        # A file opened with problems (two overlapping bases...) keeps them until they are fixed here: an edit may
        # leave any of these, never add a new one; saving waits until there are none.
        self.problems: tuple[str, ...] = ()

    # ---- starting -----------------------------------------------------------------------------------------------
    @classmethod
    def empty(cls, width: float = 36.0, height: float = 36.0, name: str = "My table") -> "TableEditor":
        """An empty table; raises ``InputError`` naming a bad size."""
        try:
            size = TableSize(width=float(width), height=float(height))
        except (ValidationError, TypeError, ValueError) as e:
            problems = pydantic_problems(e) if isinstance(e, ValidationError) else [str(e)]
            raise InputError("table size", [p.replace("(top level)", "table") for p in problems]) from None
        return cls(Scenario(name=name, table=size))

    @classmethod
    def open(cls, path: Path | str) -> "TableEditor":
        """Start from a scenario file; raises ``InputError`` (or ``OSError``) naming what is wrong with it."""

        path = Path(path)
        try:
            return cls(load_scenario(path), path)
        except InputError as first:

            try:                        # a table that reads but breaks the rules opens to be fixed here
                scenario = validate(Scenario, read_document(path), str(path))
            except InputError:
                raise first from None
            editor = cls(scenario, path)
            editor.problems = tuple(name_items(p, scenario) for p in scenario_problems(scenario, path.parent))
            if not editor.problems:
                raise
            return editor

    def problem_items(self) -> dict[str, list[str]]:
        """Each item named in a problem, with its problems (the window rings it in red)."""
        out: dict[str, list[str]] = {}
        for ident in self.ids():
            pattern = re.compile(rf"(?<![\w-]){re.escape(ident)}(?![\w-])")
            for p in self.problems:
                if pattern.search(p):
                    out.setdefault(ident, []).append(p)
        return out

    @property
    def base_dir(self) -> Path | None:
        return self.source.parent if self.source is not None else None

    @property
    def width(self) -> float:
        return self.scenario.table.width

    @property
    def height(self) -> float:
        return self.scenario.table.height

    @property
    def dirty(self) -> bool:
        return self.revision != self.saved_revision

    # ---- the one way to change the table --------------------------------------------------------------------------
    def _apply(self, candidate: Scenario, done: str, item: str | None, refused: str) -> Edit:
        named = tuple(name_items(p, candidate) for p in scenario_problems(candidate, self.base_dir))
        new = tuple(p for p in named if p not in self.problems)
        if new:
            first = new[0]
            if item and first.startswith(f"{item}: "):
                first = first[len(item) + 2:]
            return Edit(False, f"{refused}: {first}", item, new)
        self.history.append((self.scenario, done, self.problems))
        del self.history[:-MAX_UNDO]
        self.undone.clear()             # a new edit: what was undone before it cannot be redone on top of it
        self.scenario = candidate
        fixed = len(self.problems) - len(named)
        self.problems = named
        self.revision += 1
        if fixed > 0:
            done += f"; {fixed} problem{'s' if fixed != 1 else ''} fixed, {len(named)} left"
        return Edit(True, done, item)

    def _replace(self, **changes) -> Scenario:
        return self.scenario.model_copy(update=changes)

    def place_all(self, candidate: Scenario, done: str) -> Edit:
        """Every piece placed at once (read from a photo of the table): one edit, undone in one step."""
        return self._apply(candidate, done, None, "The table was not placed")

    def undo(self) -> Edit:
        if not self.history:
            return Edit(False, "Nothing to undo")
        before, done, problems = self.history.pop()
        self.undone.append((self.scenario, done, self.problems))
        self.scenario, self.problems = before, problems
        self.revision += 1
        return Edit(True, f"Undone: {done}")

    def redo(self) -> Edit:
        """The last edit undone, made again exactly (it was checked when first made, on the same table)."""
        if not self.undone:
            return Edit(False, "Nothing to redo")
        after, done, problems = self.undone.pop()
        self.history.append((self.scenario, done, self.problems))
        self.scenario, self.problems = after, problems
        self.revision += 1
        return Edit(True, f"Redone: {done}")

    def rename(self, name: str) -> Edit:
        name = name.strip()
        if not name:
            return Edit(False, "The table needs a name")
        if name == self.scenario.name:
            return Edit(True, "Name unchanged")
        return self._apply(self._replace(name=name), f"Renamed the table {name!r}", None, "Not renamed")

    # ---- ids --------------------------------------------------------------------------------------------------
    def ids(self) -> set[str]:
        s = self.scenario
        out = {t.id for t in s.terrain} | {u.id for u in s.units} | {o.id for o in s.objectives}
        for b in s.blips:
            out.add(b.id)
            out.update(c.id for c in b.contents or [])
        return out

    def new_id(self, stem: str) -> str:
        used = self.ids()
        n = 1
        while f"{stem}-{n}" in used:
            n += 1
        return f"{stem}-{n}"

    def kind_of(self, ident: str) -> str | None:
        """``terrain``, ``unit``, ``blip``, ``objective`` or None."""
        s = self.scenario
        for kind, entries in (("unit", s.units), ("blip", s.blips), ("objective", s.objectives),
                              ("terrain", s.terrain)):
            if any(e.id == ident for e in entries):
                return kind
        return None

    def entry(self, ident: str):
        kind = self.kind_of(ident)
        if kind is None:
            return None
        return next(e for e in getattr(self.scenario, KIND_KEYS[kind]) if e.id == ident)

    def _index(self, kind: str, ident: str) -> int:
        return next(i for i, e in enumerate(getattr(self.scenario, KIND_KEYS[kind])) if e.id == ident)

    def _with(self, kind: str, index: int, entry) -> Scenario:
        key = KIND_KEYS[kind]
        entries = list(getattr(self.scenario, key))
        if index >= len(entries):
            entries.append(entry)
        else:
            entries[index] = entry
        return self._replace(**{key: entries})

    # ---- terrain ------------------------------------------------------------------------------------------------
    def _check_terrain_type(self, type_id: str) -> Edit | None:
        if type_id not in placeable_terrain():
            return Edit(False, f"Unknown terrain type {type_id!r}: expected one of {', '.join(placeable_terrain())}")
        return None

    def add_polygon(self, type_id: str, corners) -> Edit:
        """A terrain piece with these corners (table inches, in drawing order)."""
        bad = self._check_terrain_type(type_id)
        if bad is not None:
            return bad
        ident = self.new_id(type_id)
        try:
            entry = TerrainEntry(id=ident, type=type_id, polygon=[[float(x), float(y)] for x, y in corners])
        except ValidationError as e:
            return self._invalid(ident, "terrain", e)
        name = terrain_types()[type_id].name.lower()
        return self._apply(self._with("terrain", len(self.scenario.terrain), entry),
                           f"Drew {ident} ({name}, {len(corners)} corners)", ident, f"{ident} not drawn")

    def add_circle(self, type_id: str, x: float, y: float, r: float) -> Edit:
        """A round terrain piece (smoke, a crater, a pond) centred at (x, y)."""
        bad = self._check_terrain_type(type_id)
        if bad is not None:
            return bad
        ident = self.new_id(type_id)
        try:
            entry = TerrainEntry(id=ident, type=type_id, circle=Circle(x=float(x), y=float(y), r=float(r)))
        except ValidationError as e:
            return self._invalid(ident, "terrain", e)
        name = terrain_types()[type_id].name.lower()
        return self._apply(self._with("terrain", len(self.scenario.terrain), entry),
                           f'Drew {ident} ({name}, radius {r:.1f}")', ident, f"{ident} not drawn")

    def set_terrain_type(self, ident: str, type_id: str) -> Edit:
        if self.kind_of(ident) != "terrain":
            return Edit(False, f"{ident!r} is not a terrain piece")
        bad = self._check_terrain_type(type_id)
        if bad is not None:
            return bad
        old = self.entry(ident)
        if old.type == type_id:
            return Edit(True, f"{ident} is already {type_id}", ident)
        entry = old.model_copy(update={"type": type_id})
        return self._apply(self._with("terrain", self._index("terrain", ident), entry),
                           f"{ident} is now {terrain_types()[type_id].name.lower()}", ident, f"{ident} not changed")

    # -- the corners of a polygon --
    def set_corners(self, ident: str, corners, done: str) -> Edit:
        if self.kind_of(ident) != "terrain":
            return Edit(False, f"{ident!r} is not a terrain piece", ident)
        t = self.entry(ident)
        if t.polygon is None:
            return Edit(False, f"{ident} is round: it has a centre and a radius, no corners", ident)
        if len(corners) < 3:
            return Edit(False, f"{ident} needs at least 3 corners", ident)
        try:
            entry = t.model_copy(update={"polygon": [[round(float(x), 2), round(float(y), 2)] for x, y in corners]})
            TerrainEntry.model_validate(entry.model_dump())
        except ValidationError as e:
            return self._invalid(ident, "terrain", e)
        return self._apply(self._with("terrain", self._index("terrain", ident), entry), done, ident,
                           f"{ident} not changed")

    def corners(self, ident: str) -> list[tuple[float, float]]:
        t = self.entry(ident)
        return [(x, y) for x, y in t.polygon] if t is not None and getattr(t, "polygon", None) else []

    def move_corner(self, ident: str, index: int, x: float, y: float) -> Edit:
        c = self.corners(ident)
        if not 0 <= index < len(c):
            return Edit(False, f"{ident} has no corner {index + 1}", ident)
        c[index] = (x, y)
        return self.set_corners(ident, c, f"{ident}: corner {index + 1} moved to ({x:.1f}, {y:.1f})")

    def insert_corner(self, ident: str, index: int, x: float, y: float) -> Edit:
        """A new corner before corner ``index`` (on the edge from corner ``index - 1``)."""
        c = self.corners(ident)
        if not 0 < index <= len(c):
            return Edit(False, f"{ident} has no edge there", ident)
        c.insert(index, (x, y))
        return self.set_corners(ident, c, f"{ident}: corner added at ({x:.1f}, {y:.1f}), {len(c)} corners")

    def remove_corner(self, ident: str, index: int) -> Edit:
        c = self.corners(ident)
        if not 0 <= index < len(c):
            return Edit(False, f"{ident} has no corner {index + 1}", ident)
        if len(c) <= 3:
            return Edit(False, f"{ident} has only 3 corners: a terrain piece needs at least 3 (delete the piece "
                               "instead)", ident)
        del c[index]
        return self.set_corners(ident, c, f"{ident}: corner {index + 1} removed, {len(c)} corners left")

    def _invalid(self, ident: str, kind: str, error: ValidationError) -> Edit:
        problems = tuple(f"{ident}: {plain_words(p)}" for p in pydantic_problems(error))
        return Edit(False, f"{ident} not {'drawn' if kind == 'terrain' else 'placed'}: {problems[0]}", ident, problems)

    # ---- pieces -------------------------------------------------------------------------------------------------
    def place_unit(self, side: str, faction: str, rating: str, unit_type: str, x: float, y: float,
                   facing: float | None = None) -> Edit:
        if side not in SIDES:
            return Edit(False, f"Unknown side {side!r}: expected A or B")
        if rating not in RATINGS:
            return Edit(False, f"Unknown rating {rating!r}: expected one of {', '.join(RATINGS)}")
        if unit_type not in unit_type_names():
            return Edit(False, f"Unknown unit type {unit_type!r}: expected one of {', '.join(unit_type_names())}")
        ident = self.new_id(f"{side.lower()}-{unit_type}")
        facing = default_facing(side) if facing is None else float(facing) % 360.0
        try:
            entry = UnitEntry.model_validate({"id": ident, "side": side, "faction": faction, "rating": rating,
                                              "type": unit_type, "x": float(x), "y": float(y),
                                              "facing": 0.0 if is_drone_type(unit_type) else facing})
        except ValidationError as e:
            return self._invalid(ident, "unit", e)
        return self._apply(self._with("unit", len(self.scenario.units), entry),
                           f"Placed {ident} ({type_title(unit_type)}, side {side}) at ({x:.1f}, {y:.1f})", ident,
                           f"{ident} not placed")

    def place_blip(self, side: str, x: float, y: float) -> Edit:
        if side not in SIDES:
            return Edit(False, f"Unknown side {side!r}: expected A or B")
        ident = self.new_id(f"{side.lower()}-blip")
        try:
            entry = BlipEntry.model_validate({"id": ident, "side": side, "x": float(x), "y": float(y)})
        except ValidationError as e:
            return self._invalid(ident, "blip", e)
        return self._apply(self._with("blip", len(self.scenario.blips), entry),
                           f"Placed blip {ident} (side {side}) at ({x:.1f}, {y:.1f})", ident, f"{ident} not placed")

    def free_objectives(self) -> list[str]:
        used = {o.id for o in self.scenario.objectives}
        return [o for o in OBJECTIVE_IDS if o not in used]

    def place_objective(self, ident: str | None, x: float, y: float) -> Edit:
        """Objective ``ident`` (alpha..epsilon; None: the first one not on the table) at (x, y)."""
        free = self.free_objectives()
        if ident is None:
            if not free:
                return Edit(False, "All five objectives (alpha to epsilon) are on the table already")
            ident = free[0]
        if ident not in OBJECTIVE_IDS:
            return Edit(False, f"Unknown objective {ident!r}: expected one of {', '.join(OBJECTIVE_IDS)}")
        if ident not in free:
            return Edit(False, f"Objective {ident} is on the table already: drag it to move it", ident)
        try:
            entry = ObjectiveEntry.model_validate({"id": ident, "x": float(x), "y": float(y)})
        except ValidationError as e:
            return self._invalid(ident, "objective", e)
        return self._apply(self._with("objective", len(self.scenario.objectives), entry),
                           f"Placed objective {ident} at ({x:.1f}, {y:.1f})", ident, f"{ident} not placed")

    # ---- changing what is there ----------------------------------------------------------------------------------
    def _change(self, ident: str, done: str, refused: str, **changes) -> Edit:
        kind = self.kind_of(ident)
        if kind is None:
            return Edit(False, f"Nothing called {ident!r} on the table")
        entry = self.entry(ident).model_copy(update=changes)
        return self._apply(self._with(kind, self._index(kind, ident), entry), done, ident, refused)

    def move(self, ident: str, x: float, y: float) -> Edit:
        """A piece to (x, y), or a terrain piece so that its centre of area lands there."""
        kind = self.kind_of(ident)
        if kind is None:
            return Edit(False, f"Nothing called {ident!r} on the table")
        if not (math.isfinite(x) and math.isfinite(y)):
            return Edit(False, f"{ident} not moved: the point is not on the table", ident)
        if kind == "terrain":
            cx, cy = self.terrain_centre(ident)
            return self.shift_terrain(ident, x - cx, y - cy)
        return self._change(ident, f"Moved {ident} to ({x:.1f}, {y:.1f})", f"{ident} not moved",
                            x=float(x), y=float(y))

    def terrain_centre(self, ident: str) -> tuple[float, float]:
        t = self.entry(ident)
        if t.circle is not None:
            return (t.circle.x, t.circle.y)
        xs = [p[0] for p in t.polygon]
        ys = [p[1] for p in t.polygon]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)

    def shift_terrain(self, ident: str, dx: float, dy: float) -> Edit:
        t = self.entry(ident)
        try:
            if t.circle is not None:
                c = t.circle
                entry = t.model_copy(update={"circle": Circle(x=round(c.x + dx, 3), y=round(c.y + dy, 3), r=c.r)})
            else:
                entry = t.model_copy(update={"polygon": [[round(x + dx, 3), round(y + dy, 3)] for x, y in t.polygon]})
                TerrainEntry.model_validate(entry.model_dump())
        except ValidationError as e:
            return self._invalid(ident, "terrain", e)
        return self._apply(self._with("terrain", self._index("terrain", ident), entry),
                           f'Moved {ident} by ({dx:+.1f}", {dy:+.1f}")', ident, f"{ident} not moved")

    def rotate_terrain(self, ident: str, degrees: float) -> Edit:
        """Turn a terrain piece counter-clockwise by ``degrees`` about its centre (a round one is the same turned)."""
        t = self.entry(ident)
        if t.polygon is None:
            return Edit(False, f"{ident} is round: turning it changes nothing", ident)
        cx, cy = self.terrain_centre(ident)
        a = math.radians(degrees)
        turned = [(cx + (x - cx) * math.cos(a) - (y - cy) * math.sin(a),
                   cy + (x - cx) * math.sin(a) + (y - cy) * math.cos(a)) for x, y in t.polygon]
        word = "counter-clockwise" if degrees > 0 else "clockwise"
        return self.set_corners(ident, turned, f"Turned {ident} {abs(degrees):g}° {word}")

    def rotate(self, ident: str, degrees: float) -> Edit:
        """Turn a trooper counter-clockwise by ``degrees`` (negative: clockwise); a terrain piece about its centre."""
        e = self.entry(ident)
        if self.kind_of(ident) == "terrain":
            return self.rotate_terrain(ident, degrees)
        if self.kind_of(ident) != "unit":
            return Edit(False, f"Only troopers have a facing ({ident} is a {self.kind_of(ident) or 'nothing'})", ident)
        if is_drone_type(e.type):
            return Edit(False, f"{ident} is a drone: drones have no facing, they see all round [p.~13]", ident)
        return self.set_facing(ident, e.facing + degrees)

    def set_facing(self, ident: str, facing: float) -> Edit:
        facing = round(float(facing) % 360.0, 6) % 360.0
        return self._change(ident, f"{ident} faces {facing:g}°", f"{ident} not turned", facing=facing)

    def add_counters(self, ident: str, delta: int) -> Edit:
        kind = self.kind_of(ident)
        if kind not in ("unit", "objective"):
            what = "a blip (its counters are on its units)" if kind == "blip" else "terrain"
            return Edit(False, f"{ident} is {what}: Target counters go on units and objectives", ident)
        now = self.entry(ident).target_counters + int(delta)
        if now < 0:
            return Edit(False, f"{ident} has no Target counters to take off", ident)
        return self._change(ident, f"{ident}: {now} Target counter{'s' if now != 1 else ''}",
                            f"{ident} not changed", target_counters=now)

    def toggle(self, ident: str, flag: str) -> Edit:
        """Damaged or Stunned on and off (the loader refuses them on drones)."""
        if flag not in ("damaged", "stunned"):
            return Edit(False, f"Unknown mark {flag!r}: expected damaged or stunned")
        if self.kind_of(ident) != "unit":
            return Edit(False, f"{ident} is not a unit: only units are {flag.title()}", ident)
        on = not getattr(self.entry(ident), flag)
        return self._change(ident, f"{ident} {'is' if on else 'is no longer'} {flag.title()}",
                            f"{ident} not {flag.title()}", **{flag: on})

    def delete(self, ident: str) -> Edit:
        kind = self.kind_of(ident)
        if kind is None:
            return Edit(False, f"Nothing called {ident!r} on the table")
        key = KIND_KEYS[kind]
        entries = [e for e in getattr(self.scenario, key) if e.id != ident]
        return self._apply(self._replace(**{key: entries}), f"Removed {ident}", None, f"{ident} not removed")

    # ---- exact entry ----------------------------------------------------------------------------------------------
    EXACT_KEYS = {"unit": ("x", "y", "facing", "id", "type"), "blip": ("x", "y", "id", "contents"),
                  "objective": ("x", "y"), "terrain": ("x", "y", "id", "type", "corners", "rotate")}

    def set_exact(self, ident: str, changes: dict) -> Edit:
        """Several typed values for one item as one edit (one undo): ``x``, ``y`` (a terrain piece: its centre),
        ``facing``, ``id``, ``type`` (unit or terrain type) and a blip's ``contents`` (a list of units given as
        ``{rating, type, faction}``, empty for a decoy, None for unknown)."""
        kind = self.kind_of(ident)
        if kind is None:
            return Edit(False, f"Nothing called {ident!r} on the table")
        for key in ("x", "y", "facing", "rotate"):
            if key in changes:
                try:
                    float(changes[key])
                except (TypeError, ValueError):
                    return Edit(False, f"{ident} not changed: {key}: expected a number of "
                                       f"{'degrees' if key in ('facing', 'rotate') else 'inches'} "
                                       f"(got {changes[key]!r})", ident)
        wrong = [k for k in changes if k not in self.EXACT_KEYS[kind]]
        if wrong:
            return Edit(False, f"{ident} is {'a' if kind != 'objective' else 'an'} {kind}: it takes "
                               f"{', '.join(self.EXACT_KEYS[kind])}, not {', '.join(wrong)}", ident)
        entry = self.entry(ident)
        update: dict = {}
        new_id = str(changes.get("id", ident)).strip()
        if new_id != ident:
            if not new_id or any(c.isspace() for c in new_id):
                return Edit(False, f"{ident} not renamed: an id is one word (got {new_id!r})", ident)
            if new_id in self.ids():
                return Edit(False, f"{ident} not renamed: {new_id!r} is already on the table; ids must be unique",
                            ident)
            update["id"] = new_id
        if kind == "terrain":
            if "type" in changes:
                bad = self._check_terrain_type(changes["type"])
                if bad is not None:
                    return bad
                update["type"] = changes["type"]
            if "corners" in changes or "rotate" in changes:
                if entry.polygon is None:
                    return Edit(False, f"{ident} is round: it has a centre and a radius, no corners", ident)
                corners = [tuple(map(float, c)) for c in changes.get("corners", entry.polygon)]
                if len(corners) < 3:
                    return Edit(False, f"{ident} not changed: a terrain piece needs at least 3 corners "
                                       f"(got {len(corners)})", ident)
                if "rotate" in changes:
                    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
                    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
                    a = math.radians(float(changes["rotate"]))
                    corners = [(cx + (x - cx) * math.cos(a) - (y - cy) * math.sin(a),
                                cy + (x - cx) * math.sin(a) + (y - cy) * math.cos(a)) for x, y in corners]
                update["polygon"] = [[round(x, 3), round(y, 3)] for x, y in corners]
            candidate = entry.model_copy(update=update)
            if "x" in changes or "y" in changes:
                cx, cy = self.terrain_centre(ident)
                if candidate.polygon is not None:          # typed corners too: the centre of the new outline
                    xs, ys = [p[0] for p in candidate.polygon], [p[1] for p in candidate.polygon]
                    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
                dx, dy = float(changes.get("x", cx)) - cx, float(changes.get("y", cy)) - cy
                if candidate.circle is not None:
                    c = candidate.circle
                    candidate = candidate.model_copy(update={"circle": Circle(x=round(c.x + dx, 3),
                                                                             y=round(c.y + dy, 3), r=c.r)})
                else:
                    candidate = candidate.model_copy(update={"polygon": [[round(x + dx, 3), round(y + dy, 3)]
                                                                         for x, y in candidate.polygon]})
        else:
            for key in ("x", "y"):
                if key in changes:
                    update[key] = float(changes[key])
            if "facing" in changes:
                if is_drone_type(entry.type if "type" not in changes else changes["type"]):
                    return Edit(False, f"{ident} is a drone: drones have no facing, they see all round [p.~13]",
                                ident)
                update["facing"] = round(float(changes["facing"]) % 360.0, 6) % 360.0
            if "type" in changes:
                if changes["type"] not in unit_type_names():
                    return Edit(False, f"Unknown unit type {changes['type']!r}: expected one of "
                                       f"{', '.join(unit_type_names())}", ident)
                update["type"] = changes["type"]
                if is_drone_type(changes["type"]):
                    update.update(facing=0.0, damaged=False, stunned=False)
            if "contents" in changes:
                try:
                    update["contents"] = self._contents(entry, changes["contents"])
                except ValidationError as e:
                    return self._invalid(ident, kind, e)
            candidate = entry.model_copy(update=update)
        try:
            type(candidate).model_validate(candidate.model_dump())
        except ValidationError as e:
            return self._invalid(ident, kind, e)
        said = ", ".join(f"{k} {v}" for k, v in changes.items() if k not in ("contents", "corners"))
        if "corners" in changes:
            said = ", ".join(filter(None, [said, f"{len(changes['corners'])} corners"]))
        if "contents" in changes:
            held = candidate.contents
            said = ", ".join(filter(None, [said, "holds " + (", ".join(f"{c.rating} {c.type}" for c in held)
                                                            if held else "nothing (a decoy)")
                                          if held is not None else "contents unknown"]))
        return self._apply(self._with(kind, self._index(kind, ident), candidate), f"{new_id}: {said}", new_id,
                           f"{ident} not changed")

    def _contents(self, blip, given):
        if given is None:
            return None
        used = self.ids() - {c.id for c in blip.contents or []}
        out = []
        for d in given:
            n, stem = 1, f"{blip.side.lower()}-{d.get('type', 'unit')}"
            while f"{stem}-{n}" in used:
                n += 1
            used.add(f"{stem}-{n}")
            out.append(UnitContents(id=d.get("id") or f"{stem}-{n}", side=blip.side,
                                    **{k: v for k, v in d.items() if k not in ("id", "side")}))
        return out

    # ---- saving -------------------------------------------------------------------------------------------------
    def scenario_data(self) -> dict:
        """The scenario in the file format, without keys that only repeat a default (name and size are kept)."""
        s = self.scenario
        data = s.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)
        out: dict[str, Any] = {"name": s.name, "table": {"width": s.table.width, "height": s.table.height}}
        out.update({k: v for k, v in data.items() if k not in out})
        for t in out.get("terrain", []):
            if "polygon" in t:
                t["polygon"] = [list(p) for p in t["polygon"]]
        return out

    def holds_other_table(self, path: Path) -> str | None:
        """What ``path`` holds, if it is a file other than this table's own: saving there would lose it."""
        if not path.exists() or (self.source is not None and _same_file(path, self.source)):
            return None

        try:
            other = load_scenario(path)
        except (InputError, OSError):  # unreadable or not a table: still someone's file
            return f"{path} already exists (it is not a table this editor can read)"
        if other == self.scenario:
            return None
        return f"{path} already holds the table {other.name!r}"

    def save(self, path: Path | str, overwrite: bool = False) -> Edit:
        """Write the table to ``path`` (.toml or .json) atomically, after the loader accepted exactly that text.
        A file that holds a different table is overwritten only with ``overwrite`` (the user said yes)."""
        path = Path(path).expanduser()
        if path.suffix.lower() not in SUFFIXES:
            return Edit(False, f"Not saved: {path.name or path} should end in .toml or .json")
        if path.is_dir():
            return Edit(False, f"Not saved: {path} is a folder, expected a file name ending in .toml")
        if not overwrite:
            held = self.holds_other_table(path)
            if held is not None:
                return Edit(False, f"Not saved: {held}. Overwrite it, save as another file, or cancel",
                            confirm=True)
        data = self.scenario_data()
        try:
            if path.suffix.lower() == ".json":

                text = json.dumps(data, indent=2) + "\n"
                parse_scenario(json.loads(text), str(path), path.parent)
            else:
                text = tomli_w.dumps(data)
                parse_scenario(tomllib.loads(text), str(path), path.parent)
        except InputError as e:
            named = tuple(name_items(p, self.scenario) for p in e.problems)
            return Edit(False, f"Not saved: {named[0]}", None, named)
        try:
            atomic_write_text(path, text)
        except OSError as e:
            return Edit(False, f"Not saved: {path} cannot be written ({e.strerror or e})")
        self.source = path
        self.saved_revision = self.revision
        return Edit(True, f"Saved {path}")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


class PolygonDraft:
    """The corners of a terrain piece being drawn, before it is closed and handed to ``TableEditor.add_polygon``.

    A click just outside the table lands on its edge (a river runs off the table); a corner on top of the last one
    (the second click of a double click) is not a new corner.
    """

    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = width, height
        self.corners: list[tuple[float, float]] = []

    def __len__(self) -> int:
        return len(self.corners)

    def clamp(self, x: float, y: float) -> tuple[float, float]:
        return (min(max(x, 0.0), self.width), min(max(y, 0.0), self.height))

    def add(self, x: float, y: float) -> Edit:
        if not (math.isfinite(x) and math.isfinite(y)):
            return Edit(False, "That point is not on the table")
        x, y = self.clamp(x, y)
        if self.corners and math.dist(self.corners[-1], (x, y)) < CORNER_GAP:
            return Edit(False, "Same corner as the last one")
        self.corners.append((round(x, 2), round(y, 2)))
        return Edit(True, f"Corner {len(self.corners)} at ({x:.1f}, {y:.1f})")

    def remove_last(self) -> Edit:
        if not self.corners:
            return Edit(False, "No corner to remove")
        self.corners.pop()
        return Edit(True, f"Removed the last corner ({len(self.corners)} left)")

    def clear(self) -> None:
        self.corners = []
