"""Which printed marker is which piece: the marker plan of a table (no OpenCV needed).

Markers come from OpenCV's standard ArUco dictionary ``DICT_4X4_250`` (big cells, so a small marker is still read
from across the table). The numbers are given in a fixed order, so a table always gets the same sheet:

* 0-3: the table's corners (bottom-left, bottom-right, top-right, top-left as side A sees them), 1.5" markers whose
  centres lie 1" inside both edges, their top towards the far edge (side B's);
* then every unit, blip and objective by id: a unit's marker is on a paper tail under its base, its centre
  ``tail`` inches straight behind the base's centre and its top pointing the way the unit faces; a blip's or an
  objective's is stuck on the counter itself, centred;
* then two markers per terrain piece, stuck on the piece near its two corners furthest apart, their top towards the
  far edge when the piece stands where the table file puts it (a drifted piece is read by how its markers moved);
* pieces a battle added later (a blip's units, once revealed) come after all of these, so the sheet printed at
  set-up keeps its numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Literal

from ..game.battle.state import GameState
from ..rules.errors import InputError
from ..rules.pieces import Terrain

DICTIONARY = "DICT_4X4_250"
DICTIONARY_SIZE = 250
CORNER_SIZE = 1.5            # inches: the four table-corner markers
CORNER_INSET = 1.0           # inches from both edges to a corner marker's centre
PIECE_SIZE = 0.8             # inches (20 mm): a unit's, blip's or objective's marker
TERRAIN_SIZE = 1.0           # inches: a terrain piece's markers
TAIL_GAP = 0.1               # inches between a base's rim and its tail marker's edge
TERRAIN_INSET = 0.8          # inches from a terrain corner towards its centre, where its marker goes

Kind = Literal["corner", "unit", "blip", "objective", "terrain"]
CORNER_NAMES = ("bottom-left", "bottom-right", "top-right", "top-left")


@dataclass(frozen=True)
class Marker:
    """One printed marker: its number, the piece it belongs to and where it sits on that piece."""

    number: int
    piece: str                 # the battle's id (``corner-bottom-left`` for the table's corners)
    kind: Kind
    size: float                # printed side, inches
    tail: float = 0.0          # a unit's marker: centre this far behind the base's centre
    x: float = 0.0             # corners and terrain: the marker's centre on the table as the file has it
    y: float = 0.0

    def label(self) -> str:
        if self.kind == "corner":
            return f"table corner, {self.piece.removeprefix('corner-')}"
        if self.kind == "terrain":
            return f"{self.piece} at ({self.x:g}, {self.y:g})"
        return self.piece


@dataclass(frozen=True)
class MarkerPlan:
    """The markers of one table: by number, and the table's size."""

    width: float
    height: float
    markers: dict[int, Marker]
    outlines: dict[str, tuple[tuple[float, float], ...]]      # terrain: its polygon as the table file has it

    def of_piece(self, piece: str) -> list[Marker]:
        return [m for m in self.markers.values() if m.piece == piece]

    def corners(self) -> list[Marker]:
        return [m for m in self.markers.values() if m.kind == "corner"]

    def corner_points(self, marker: Marker) -> list[tuple[float, float]]:
        """A corner marker's four printed corners on the table, in the order OpenCV reports them (top-left,
        top-right, bottom-right, bottom-left of the printed square; its top towards the far edge)."""
        h = marker.size / 2
        return [(marker.x - h, marker.y + h), (marker.x + h, marker.y + h),
                (marker.x + h, marker.y - h), (marker.x - h, marker.y - h)]


def tail_of(base: float) -> float:
    """How far behind a base's centre its tail marker's centre lies: the rim, a small gap, half the marker."""
    return round(base / 2 + TAIL_GAP + PIECE_SIZE / 2, 3)


def terrain_spots(t: Terrain) -> list[tuple[float, float]]:
    """Where a terrain piece's two markers go: near its two corners furthest apart, moved inwards."""
    if t.polygon is None:
        return []
    pts = [(float(p[0]), float(p[1])) for p in t.polygon]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    best = (0.0, pts[0], pts[0])
    for i, a in enumerate(pts):
        for b in pts[i + 1:]:
            d = math.dist(a, b)
            if d > best[0]:
                best = (d, a, b)
    out = []
    for p in best[1:]:
        d = math.dist(p, (cx, cy))
        k = min(TERRAIN_INSET + TERRAIN_SIZE / 2, d * 0.6) / d if d > 0 else 0.0
        out.append((round(p[0] + (cx - p[0]) * k, 2), round(p[1] + (cy - p[1]) * k, 2)))
    if best[0] < 2 * TERRAIN_SIZE:          # too small for two markers side by side: one, at its centre
        return [(round(cx, 2), round(cy, 2))]
    return out


def plan_for(first: GameState, now: GameState | None = None) -> MarkerPlan:
    """The marker plan of a table as it was first laid out; pieces ``now`` holds that it did not come after."""
    markers: dict[int, Marker] = {}
    outlines: dict[str, tuple[tuple[float, float], ...]] = {}

    def add(m: Marker) -> None:
        if m.number >= DICTIONARY_SIZE:
            raise InputError("markers", f"the table needs more than {DICTIONARY_SIZE} markers ({DICTIONARY})")
        markers[m.number] = m

    w, h = first.width, first.height
    spots = [(CORNER_INSET, CORNER_INSET), (w - CORNER_INSET, CORNER_INSET),
             (w - CORNER_INSET, h - CORNER_INSET), (CORNER_INSET, h - CORNER_INSET)]
    for n, (name, (x, y)) in enumerate(zip(CORNER_NAMES, spots)):
        add(Marker(n, f"corner-{name}", "corner", CORNER_SIZE, x=x, y=y))
    seen: set[str] = set()

    def pieces(s: GameState) -> Iterable[tuple[str, Kind, float]]:
        out: list[tuple[str, Kind, float]] = []
        out += [(u.id, "unit", u.base) for u in s.units.values()]
        out += [(b.id, "blip", b.base) for b in s.blips.values()]
        out += [(o.id, "objective", o.base) for o in s.objectives.values()]
        return sorted(out)

    for state in (first,) if now is None or now is first else (first, now):
        for ident, kind, base in pieces(state):
            if ident in seen:
                continue
            seen.add(ident)
            add(Marker(len(markers), ident, kind, PIECE_SIZE, tail=tail_of(base) if kind == "unit" else 0.0))
        if state is first:
            for t in first.terrain:
                seen.add(t.id)
                if t.polygon is not None:
                    outlines[t.id] = tuple((float(p[0]), float(p[1])) for p in t.polygon)
                for x, y in terrain_spots(t):
                    add(Marker(len(markers), t.id, "terrain", TERRAIN_SIZE, x=x, y=y))
    return MarkerPlan(w, h, markers, outlines)
