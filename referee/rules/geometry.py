"""Measuring between round bases: every range is taken between the closest edges (p.~6)."""

from __future__ import annotations

import math
from typing import Any, NamedTuple, Protocol, TypeAlias

from .numbers import EPS


# A shapely geometry: shapely 2 ships no type information, so its objects are Any to the checker.
Geometry: TypeAlias = Any


class Disc(Protocol):
    """Anything with a round base on the table: a piece, a unit's state."""

    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def radius(self) -> float: ...


class Viewer(Disc, Protocol):
    """A disc that looks one way: troopers see a 180° arc about their facing, drones all round."""

    @property
    def facing(self) -> float: ...
    @property
    def is_trooper(self) -> bool: ...
    @property
    def has_arc(self) -> bool: ...


class ClosestPoints(NamedTuple):
    """The closest points of two discs along the line of centres, and the edge-to-edge range. A named tuple, as
    ``sight_reference``'s working values: a plain value, cheaper for a start to define than a dataclass."""

    start: tuple[float, float]
    end: tuple[float, float]
    range: float
    centre_distance: float


def closest_points(ax: float, ay: float, ar: float, bx: float, by: float, br: float) -> ClosestPoints:
    dx, dy = bx - ax, by - ay
    d = math.hypot(dx, dy)
    if d <= EPS:
        return ClosestPoints((ax, ay), (bx, by), 0.0, d)
    ux, uy = dx / d, dy / d
    rng = d - ar - br
    if rng <= 0:
        # Touching (or overlapping) bases are at range 0: the line between them has no length.
        mid = (ax + ux * (ar + rng / 2), ay + uy * (ar + rng / 2))
        return ClosestPoints(mid, mid, 0.0, d)
    return ClosestPoints((ax + ux * ar, ay + uy * ar), (bx - ux * br, by - uy * br), rng, d)


def edge_range(a: Disc, b: Disc) -> float:
    return max(0.0, math.hypot(b.x - a.x, b.y - a.y) - a.radius - b.radius)


def viewer_point(viewer: Disc, target: Disc) -> tuple[float, float]:
    """The viewer's closest point: the point of its base nearest the target's centre (A9)."""
    dx, dy = target.x - viewer.x, target.y - viewer.y
    d = math.hypot(dx, dy)
    if d <= EPS:
        return (viewer.x, viewer.y)
    return (viewer.x + dx / d * viewer.radius, viewer.y + dy / d * viewer.radius)


def bearing_off_facing(viewer: Viewer, x: float, y: float) -> float:
    """Absolute angle in degrees between the viewer's facing and the direction to (x, y), 0..180."""
    ang = math.degrees(math.atan2(y - viewer.y, x - viewer.x))
    diff = (ang - viewer.facing + 180.0) % 360.0 - 180.0
    return abs(diff)


def in_arc(viewer: Viewer, target: Disc) -> bool:
    """Troopers (and drones under A12 option B) see a 180° arc, 90° either side of facing, tested on the target's
    centre, boundary included (A12, A58)."""
    if not viewer.has_arc:
        return True
    return bearing_off_facing(viewer, target.x, target.y) <= 90.0 + EPS
