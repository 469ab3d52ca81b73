"""The plain per-pair Shapely implementation of line of sight and intervening terrain.

It is the reference: the fast whole-table engine must give the same answers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

import shapely

from . import discs
from .discs import circle_hits
from .geometry import Disc, Geometry, closest_points, viewer_point
from .numbers import EPS

if TYPE_CHECKING:
    from .battlefield import Feature

Point = tuple[float, float]


class Hidden(NamedTuple):
    """What A9 hides of a target: named tuples here (and ``Crossing``) are plain working values, cheaper for a start
    to define than dataclasses."""

    fraction: float
    hiders: tuple[str, ...]          # features that hide some part of the target
    viewer_point: tuple[float, float]
    half_width_deg: float


class Crossing(NamedTuple):
    feature: Feature
    length: float


def _wrap(a: float) -> float:
    return (a + math.pi) % (2 * math.pi) - math.pi


def _rings(geom: Geometry) -> Iterator[Sequence[Sequence[float]]]:
    yield geom.exterior.coords
    for hole in geom.interiors:
        yield hole.coords


def hidden_fraction(viewer: Disc, target: Disc, blockers: Sequence[Feature]) -> Hidden:
    """Share of the target base's angular width hidden by blocking features, seen from the viewer's closest point.

    Ruling A9: exact angles. Between two consecutive critical directions (a polygon vertex, or a polygon edge crossing
    the target's circle) the ray either passes through a polygon's interior or not, so one ray in the middle of each
    interval decides it.
    """
    px, py = viewer_point(viewer, target)
    cx, cy, r = target.x, target.y, target.radius
    d = math.hypot(cx - px, cy - py)
    if d <= r + EPS or not blockers:
        return Hidden(0.0, (), (px, py), 90.0 if d <= r + EPS else math.degrees(math.asin(min(1.0, r / d))))
    theta0 = math.atan2(cy - py, cx - px)
    alpha = math.asin(r / d)
    # The region below lies within the box of P and the target's base, widened by its margin: a blocker whose box
    # is apart from that one hides nothing (most of a table's terrain, for most pairs).
    margin = 0.01 * r + 1e-6
    blockers = [f for f in blockers
                if f.near(min(px, cx - r) - margin, min(py, cy - r) - margin, max(px, cx + r) + margin,
                          max(py, cy + r) + margin)]
    if not blockers:
        return Hidden(0.0, (), (px, py), math.degrees(alpha))

    def entry(delta: float) -> float:
        # Distance along the ray at angle theta0 + delta to where it first meets the target's base.
        return d * math.cos(delta) - math.sqrt(max(0.0, r * r - (d * math.sin(delta)) ** 2))

    region = shapely.Polygon(
        [(px, py)] + [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in
                      (theta0 + math.pi / 2 + k * math.pi / 16 for k in range(17))]
    ).convex_hull.buffer(0.01 * r + 1e-6)  # a prefilter only: generous beyond the chords
    covered: list[tuple[float, float, str]] = []   # (lo, hi, feature id)
    for f in blockers:
        if f.circle is not None:
            # A disc exactly: between its tangent lines from P, cut where its circle crosses the target's.
            bx, by, rb = f.circle
            if shapely.dwithin(region, shapely.Point(bx, by), rb):
                covered += [(lo, hi, f.id) for lo, hi in discs.shadow(px, py, theta0, alpha, d, cx, cy, r, bx, by, rb)]
            continue
        if not f.geometry.intersects(region):
            continue
        cuts = {-alpha, alpha}
        for ring in _rings(f.geometry):
            pts = list(ring)
            for i in range(len(pts) - 1):
                a, b = pts[i], pts[i + 1]
                delta = _wrap(math.atan2(a[1] - py, a[0] - px) - theta0)
                if -alpha < delta < alpha:
                    cuts.add(delta)
                for t in circle_hits(a, b, cx, cy, r):
                    hx, hy = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
                    delta = _wrap(math.atan2(hy - py, hx - px) - theta0)
                    if -alpha < delta < alpha:
                        cuts.add(delta)
        ordered = sorted(cuts)
        for lo, hi in zip(ordered, ordered[1:]):
            if hi - lo <= 1e-12:
                continue
            mid = (lo + hi) / 2
            t = entry(mid)
            ex, ey = px + t * math.cos(theta0 + mid), py + t * math.sin(theta0 + mid)
            ray = shapely.LineString([(px, py), (ex, ey)])
            if f.geometry.intersection(ray).length > 1e-12:
                covered.append((lo, hi, f.id))
    if not covered:
        return Hidden(0.0, (), (px, py), math.degrees(alpha))
    covered.sort()
    total = 0.0
    cur_lo, cur_hi = covered[0][0], covered[0][1]
    for lo, hi, _ in covered[1:]:
        if lo > cur_hi:
            total += cur_hi - cur_lo
            cur_lo, cur_hi = lo, hi
        else:
            cur_hi = max(cur_hi, hi)
    total += cur_hi - cur_lo
    hiders = tuple(dict.fromkeys(fid for _, _, fid in covered))
    return Hidden(min(1.0, total / (2 * alpha)), hiders, (px, py), math.degrees(alpha))


def segment_crosses(viewer: Disc, target: Disc, blockers: Iterable[Feature]) -> tuple[str, ...]:
    """Ruling A9 option A: the closest-points segment crosses blocking terrain or it does not."""
    cp = closest_points(viewer.x, viewer.y, viewer.radius, target.x, target.y, target.radius)
    if cp.range <= 0:
        return ()
    seg = shapely.LineString([cp.start, cp.end])
    box = _box(cp.start, cp.end)
    return tuple(f.id for f in blockers if f.near(*box) and _length_inside(f, cp.start, cp.end, seg) > EPS)


def _box(start: Point, end: Point) -> tuple[float, float, float, float]:
    """The segment's box: a feature apart from it holds none of the segment."""
    return (min(start[0], end[0]), min(start[1], end[1]), max(start[0], end[0]), max(start[1], end[1]))


def _length_inside(f: Feature, start: Point, end: Point, seg: Geometry) -> float:
    """Length of the segment inside the feature: a disc exactly (its polygon is an inscribed 64-gon)."""
    if f.circle is not None:
        return discs.chord(start, end, *f.circle)
    return float(f.geometry.intersection(seg).length)


def crossings(start: Point, end: Point, features: Iterable[Feature]) -> list[Crossing]:
    """Length of the segment start->end inside each feature (only those it really passes through)."""
    if math.dist(start, end) <= EPS:
        return []
    seg = shapely.LineString([start, end])
    box = _box(start, end)
    out = []
    for f in features:
        if not f.near(*box) or (f.circle is None and not f.geometry.intersects(seg)):
            continue
        length = _length_inside(f, start, end, seg)
        if length > EPS:
            out.append(Crossing(f, length))
    return out
