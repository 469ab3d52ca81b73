"""A terrain piece as the rules measure it: its type's columns, its prepared geometry, and whether a point is in it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import shapely

from .catalogue import TerrainColumn, TerrainType, terrain_types
from .geometry import Geometry
from .numbers import EPS


@dataclass(frozen=True, eq=False)
class Feature:
    """One terrain piece. ``geometry`` is an immutable shapely polygon, prepared for repeated tests."""

    id: str
    type_id: str
    ttype: TerrainType
    geometry: Geometry
    circle: tuple[float, float, float] | None = None

    def column(self, drone: bool) -> TerrainColumn:
        return self.ttype.column(drone)

    @property
    def blocking(self) -> bool:
        return self.ttype.blocking

    @cached_property
    def box(self) -> tuple[float, float, float, float]:
        """The smallest upright rectangle holding the piece (min x, min y, max x, max y): the whole circle for a
        disc. Whatever lies outside it by more than EPS is outside the piece, which spares the geometry of every
        piece a sight line or a base centre is nowhere near."""
        if self.circle is not None:
            cx, cy, r = self.circle
            return (cx - r, cy - r, cx + r, cy + r)
        x0, y0, x1, y1 = self.geometry.bounds
        return (float(x0), float(y0), float(x1), float(y1))

    def near(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """May the piece touch the rectangle (``x0 <= x1``, ``y0 <= y1``)? False only if their boxes are more than
        EPS apart."""
        bx0, by0, bx1, by1 = self.box
        return x0 <= bx1 + EPS and bx0 <= x1 + EPS and y0 <= by1 + EPS and by0 <= y1 + EPS

    def holds(self, x: float, y: float) -> bool:
        """Is a base centre inside (boundary within EPS counts as inside, A58)?"""
        if not self.near(x, y, x, y):
            return False
        if self.circle is not None:
            # A disc is tested exactly: its polygon is only an inscribed 64-gon, up to 0.12 % of r inside the circle.
            cx, cy, r = self.circle
            return math.hypot(x - cx, y - cy) <= r + EPS
        return bool(shapely.intersects_xy(self.geometry, x, y) or self.geometry.distance(shapely.Point(x, y)) <= EPS)


def make_feature(ident: str, type_id: str, geometry: Geometry, circle: tuple[float, float, float] | None = None) -> Feature:
    shapely.prepare(geometry)
    return Feature(ident, type_id, terrain_types()[type_id], geometry, circle)


def disc_feature(ident: str, type_id: str, x: float, y: float, r: float) -> Feature:
    return make_feature(ident, type_id, shapely.Point(x, y).buffer(r, quad_segs=16), (x, y, r))
