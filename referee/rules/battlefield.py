"""The table as the rules see it: terrain features with their geometry, and every piece on a round base."""

from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Literal, Protocol


from .catalogue import TrooperType, is_drone_type, unit_types
from .errors import InputError
from .factions import get_faction
from .numbers import EPS
from .rulings import Rulings
from .scenario import Scenario, TerrainEntry, terrain_geometry
from .stats import StatLine
from .units import unit_stats
from .features import Feature as Feature
from .features import disc_feature as disc_feature
from .features import make_feature as make_feature
from .catalogue import type_title

Kind = Literal["trooper", "drone", "blip", "objective", "ground"]
JAMMER_RANGE = 3.0


class UnitLike(Protocol):
    """A trooper or drone as a scenario file or a battle's state holds it."""

    @property
    def id(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def faction(self) -> str: ...
    @property
    def rating(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def facing(self) -> float: ...
    @property
    def base(self) -> float: ...
    @property
    def target_counters(self) -> int: ...
    @property
    def damaged(self) -> bool: ...
    @property
    def stunned(self) -> bool: ...
    @property
    def jammer_on(self) -> bool: ...


@dataclass(frozen=True)
class Piece:
    """Anything standing on a round base: a trooper, a drone, a blip counter or an objective counter."""

    id: str
    kind: Kind
    x: float
    y: float
    radius: float = 0.5
    side: str | None = None
    unit_type: str | None = None
    faction: str | None = None
    rating: str | None = None
    stats: StatLine | None = None
    facing: float = 0.0
    target_counters: int = 0
    damaged: bool = False
    stunned: bool = False
    jammer_on: bool = False
    arc: bool | None = None        # has a facing and a 180° arc; None: troopers only (A12 option A)
    # What the piece is, written once when it is made: read as plain values wherever a piece is drawn or judged
    # (the window draws every piece every frame and asks the rules nothing for it).
    is_trooper: bool = field(init=False, repr=False, compare=False)
    is_drone: bool = field(init=False, repr=False, compare=False)
    is_blip: bool = field(init=False, repr=False, compare=False)
    is_objective: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kind = self.kind
        object.__setattr__(self, "is_trooper", kind == "trooper")
        object.__setattr__(self, "is_drone", kind == "drone")
        object.__setattr__(self, "is_blip", kind == "blip")
        object.__setattr__(self, "is_objective", kind == "objective")

    @property
    def has_arc(self) -> bool:
        """Troopers face a direction; drones too under A12 option B; blips and objectives never (A12)."""
        return self.arc if self.arc is not None else self.kind == "trooper"

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def is_unit(self) -> bool:
        """Troopers, drones and blips are Units (glossary p.37); objectives and patches of ground are not."""
        return self.kind not in ("objective", "ground")

    @property
    def is_ground(self) -> bool:
        """A patch of ground holding Target counters (p.19, A54): a point with no base."""
        return self.kind == "ground"

    def stat(self, name: str) -> int:
        """Drones use Robotics in place of every other stat (p.~11)."""
        if self.stats is None:
            raise ValueError(f"{self.id} has no stats")
        return self.stats.robotics if self.is_drone else self.stats.get(name)

    def trooper_type(self) -> TrooperType:
        """The unit type's entry in the trooper table (A5): weapon, Missile, Jump, Target bands."""
        if not self.is_trooper or self.unit_type is None:
            raise ValueError(f"{self.id} is not a trooper")
        return unit_types().troopers[self.unit_type]

    def describe(self) -> str:
        if self.kind in ("trooper", "drone") and self.unit_type is not None:
            return f"{self.id} ({type_title(self.unit_type)})"
        return f"{self.id} ({self.kind})"


@dataclass
class Battlefield:
    width: float
    height: float
    rulings: Rulings
    scale: float = 1.0
    attacker: str | None = None
    terrain: list[Feature] = field(default_factory=list)
    pieces: dict[str, Piece] = field(default_factory=dict)
    # Patches of ground holding Target counters (p.19, A54): kept apart from the pieces, since a point of ground
    # blocks no move, no landing and no line of sight; only Target and Fire Missile look here.
    ground: dict[str, Piece] = field(default_factory=dict)
    # What has been worked out on this battlefield, by what was asked (a Target's price between two of its pieces):
    # a battlefield is never changed once made, and the same one is handed out again for a table that stands the
    # same, in every world the computer imagines. Never carried over by ``dataclasses.replace``.
    known: dict[tuple[Any, ...], Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @cached_property
    def jammer_fields(self) -> list[Feature]:
        """An active haywire drone's 3\" field is portable Heavy cover (p.23), measured from its base edge (A38)."""
        return [
            disc_feature(f"{p.id}-field", "jammer-field", p.x, p.y, p.radius + JAMMER_RANGE * self.scale)
            for p in self.pieces.values()
            if p.jammer_on
        ]

    @property
    def features(self) -> list[Feature]:
        return self.terrain + self.jammer_fields

    @cached_property
    def blocking_features(self) -> list[Feature]:
        return [f for f in self.terrain if f.blocking]

    def piece(self, ident: str) -> Piece:
        try:
            return self.pieces[ident]
        except KeyError:
            raise InputError("unit id", f"{ident!r} is not in this scenario (expected one of {', '.join(sorted(self.pieces))})") from None

    def target_piece(self, ident: str) -> Piece | None:
        """What Target counters may go on or a missile be aimed at: a unit, blip or objective by its id, a patch of
        ground by its id, or a point of ground given as ``x,y`` (a new patch, with no counters yet, A54)."""
        if ident in self.pieces:
            return self.pieces[ident]
        if ident in self.ground:
            return self.ground[ident]
        point = ground_point(ident)
        if point is None:
            return None
        for g in self.ground.values():
            if math.hypot(g.x - point[0], g.y - point[1]) <= EPS:
                return g
        return ground_piece(ident, *point)

    def units(self) -> Iterable[Piece]:
        return (p for p in self.pieces.values() if p.is_unit)

    def enemies_of(self, side: str | None) -> list[Piece]:
        return [p for p in self.pieces.values() if p.is_unit and p.side is not None and p.side != side]

    def distance(self, inches: float) -> float:
        """Every distance of the rules, scaled for small figures (ruling A56, option B by default)."""
        return inches * self.scale

    def on_table(self, x: float, y: float, radius: float = 0.0) -> bool:
        return -EPS <= x - radius and x + radius <= self.width + EPS and -EPS <= y - radius and y + radius <= self.height + EPS


def piece_from_unit(u: UnitLike, x: float | None = None, y: float | None = None, facing: float | None = None,
                    rulings: Rulings | None = None, base_dir: Path | None = None) -> Piece:
    faction = get_faction(u.faction, base_dir)
    drone = is_drone_type(u.type)
    stats = unit_stats(faction, u.rating, u.type, rulings).stats
    return Piece(
        id=u.id, kind="drone" if drone else "trooper",
        x=u.x if x is None else x, y=u.y if y is None else y, radius=u.base / 2,
        side=u.side, unit_type=u.type, faction=u.faction, rating=u.rating, stats=stats,
        facing=(u.facing if facing is None else facing) % 360.0,
        target_counters=u.target_counters, damaged=u.damaged, stunned=u.stunned,
        jammer_on=u.jammer_on, arc=not drone or (rulings is not None and rulings.reads("A12", "B")),
    )


_FEATURES: dict[tuple[object, ...], Feature] = {}
# The feature of each terrain entry, by the entry's identity (the entry is kept with it, so the identity stays its
# own): a battle's entries are shared by every copy of its state, and working out ``feature_of``'s key (the polygon's
# points) for every entry of every battlefield made was a tenth of the cost of making one. A player view's table is
# made of new entries each time (``views.view_table``), which are kept here too until the next clearing: a bound of a
# few tables' entries keeps the window's memory from holding thousands of them (about 4 MB over a 200-round battle).
FEATURES_KEPT = 300         # terrain entries' features kept (all are let go when full)
_ENTRY_FEATURES: dict[int, tuple[TerrainEntry, Feature]] = {}


# The features of a table's terrain entries taken together, by the entries' identities (kept with them): every
# battlefield of a battle, and every state the computer imagines, stands on the same entries.
TABLES_KEPT = 64            # sets of terrain entries whose features are kept (all are let go when full)
_TABLE_FEATURES: dict[tuple[int, ...], tuple[tuple[TerrainEntry, ...], list[Feature]]] = {}


def features_of(terrain: Iterable[TerrainEntry]) -> list[Feature]:
    entries = tuple(terrain)
    key = tuple(map(id, entries))
    held = _TABLE_FEATURES.get(key)
    if held is None:
        if len(_TABLE_FEATURES) >= TABLES_KEPT:
            _TABLE_FEATURES.clear()
        held = _TABLE_FEATURES[key] = (entries, _features_of(entries))
    return list(held[1])            # a list of the battlefield's own: a test may add a piece to one


def _features_of(terrain: Iterable[TerrainEntry]) -> list[Feature]:
    out = []
    for t in terrain:
        held = _ENTRY_FEATURES.get(id(t))
        if held is None or held[0] is not t:
            if len(_ENTRY_FEATURES) >= FEATURES_KEPT:
                _ENTRY_FEATURES.clear()
            held = _ENTRY_FEATURES[id(t)] = (t, feature_of(t))
        out.append(held[1])
    return out


def feature_of(t: TerrainEntry) -> Feature:
    """The feature of a terrain entry, made once: a table's terrain is rebuilt for every action and every view."""
    circle = (t.circle.x, t.circle.y, t.circle.r) if t.circle else None
    key = (t.id, t.type, tuple(map(tuple, t.polygon)) if t.polygon else None, circle)
    f = _FEATURES.get(key)
    if f is None:
        f = make_feature(t.id, t.type, terrain_geometry(t), circle)
        if len(_FEATURES) > 5000:
            _FEATURES.clear()
        _FEATURES[key] = f
    return f


GROUND_POINT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$")


# Everything ``piece_from_unit`` reads of a unit: a unit whose fields are all the same makes the same piece.
UNIT_FIELDS = operator.attrgetter("id", "side", "faction", "rating", "type", "x", "y", "facing", "base",
                                  "target_counters", "damaged", "stunned", "jammer_on")
# Pieces kept for units that may stand the same again, the oldest let go first: the pieces asked for again are those
# of the units standing now and in the states imagined from them, so a few hundred battlefields' worth is enough, and
# a long battle's window holds no more than that (one piece a unit for every place it has stood would grow with it).
PIECES_KEPT = 1024
_PIECES: dict[tuple[Any, ...], tuple[Rulings, Any, Piece]] = {}


def _unit_piece(u: UnitLike, rulings: Rulings, base_dir: Path | None, factions: dict[str, Any]) -> Piece:
    """A unit's piece, made once for a unit that stands the same under the same rulings and the same faction file:
    a battlefield is made for every table an action leaves, and most of its units have not changed (a piece is never
    changed once made, so battlefields share it). The rulings and the faction are kept with it: the key names them
    by identity, and a faction file rewritten since is a new faction."""
    if base_dir is not None:
        return piece_from_unit(u, rulings=rulings, base_dir=base_dir)
    faction = factions.get(u.faction)
    if faction is None:
        faction = factions[u.faction] = get_faction(u.faction)
    key = (UNIT_FIELDS(u), id(rulings), id(faction))
    held = _PIECES.get(key)
    if held is not None and held[0] is rulings and held[1] is faction:
        return held[2]
    piece = piece_from_unit(u, rulings=rulings)
    if len(_PIECES) >= PIECES_KEPT:
        del _PIECES[next(iter(_PIECES))]
    _PIECES[key] = (rulings, faction, piece)
    return piece


# Blip and objective counters' pieces by all they are made of, made once (as units' pieces, ``_unit_piece``).
_COUNTERS: dict[tuple[Any, ...], Piece] = {}


def _counter(key: tuple[Any, ...], piece: Piece) -> Piece:
    if len(_COUNTERS) >= PIECES_KEPT:
        del _COUNTERS[next(iter(_COUNTERS))]
    _COUNTERS[key] = piece
    return piece


def ground_point(text: str) -> tuple[float, float] | None:
    """``"20,18"`` -> (20.0, 18.0): a point of ground named by where it is (p.19, A54); None for anything else."""
    m = GROUND_POINT.match(text) if isinstance(text, str) and len(text) <= 40 else None
    return None if m is None else (float(m.group(1)), float(m.group(2)))


def ground_piece(ident: str, x: float, y: float, counters: int = 0) -> Piece:
    """A patch of ground as the rules measure it: a point (no base), no side, no arc (p.19, A54)."""
    return Piece(id=ident, kind="ground", x=x, y=y, radius=0.0, target_counters=counters)


def build_battlefield(width: float, height: float, rulings: Rulings, scale: float, attacker: str | None,
                      terrain: Iterable[TerrainEntry], units: Iterable[UnitLike], blips: Iterable[Any],
                      objectives: Iterable[Any], base_dir: Path | None = None,
                      ground: Iterable[Any] = ()) -> Battlefield:
    """The one place a battlefield is made, for the engine and for every view of the table alike.

    ``units`` have the fields of a scenario's unit entry, ``blips`` and ``objectives`` theirs. A destroyed objective
    is no longer a piece: it blocks no move and takes no counter (p.~12).
    """
    pieces: dict[str, Piece] = {}
    factions: dict[str, Any] = {}       # each faction as its file is now, asked once for the table
    for u in units:
        pieces[u.id] = _unit_piece(u, rulings, base_dir, factions)
    for b in blips:
        key = ("blip", b.id, b.x, b.y, b.base, b.side)
        piece = _COUNTERS.get(key)
        if piece is None:
            piece = _counter(key, Piece(id=b.id, kind="blip", x=b.x, y=b.y, radius=b.base / 2, side=b.side))
        pieces[b.id] = piece
    for o in objectives:
        if not o.destroyed:
            key = ("objective", o.id, o.x, o.y, o.base, o.target_counters)
            piece = _COUNTERS.get(key)
            if piece is None:
                piece = _counter(key, Piece(id=o.id, kind="objective", x=o.x, y=o.y, radius=o.base / 2,
                                            target_counters=o.target_counters))
            pieces[o.id] = piece
    patches = {g.id: ground_piece(g.id, g.x, g.y, g.target_counters) for g in ground}
    return Battlefield(width, height, rulings, scale, attacker, features_of(terrain), pieces, patches)


def battlefield_from_scenario(s: Scenario, base_dir: Path | None = None, rulings: Rulings | None = None) -> Battlefield:
    return build_battlefield(s.table.width, s.table.height, rulings or Rulings(s.rulings), s.scale, s.attacker,
                             s.terrain, s.units, s.blips, s.objectives, base_dir, s.ground)


def angle_deg(dx: float, dy: float) -> float:
    return math.degrees(math.atan2(dy, dx)) % 360.0
