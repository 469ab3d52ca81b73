"""Round terrain measured as circles, not as the polygons drawn for them (A9, A58, p.18, p.24).

Craters, smoke, jammer fields and round terrain keep their exact circle beside an inscribed polygon. The polygon
lies up to 0.12 % of the radius inside the circle, enough to turn a sight line just under one half hidden into one
just over it, or a path that grazes a crater into one that misses it; so every rule that measures them uses these
formulas instead:

* ``segment_inside``: the part of a segment within the closed disc (path cost, impassable terrain, intervening
  terrain), from the segment's two crossings with the circle.
* ``shadow``: the directions from the viewer's closest point whose ray meets the disc before the target's base
  (the 50 % test). The disc covers the directions between its two tangent lines from the viewer; the critical
  directions inside them are those through the points where the disc's circle crosses the target's circle, and
  one ray through the middle of each piece decides whether the disc lies in front of the base there.

The fast whole-table engine (``fast_geometry.disc_shadow``) computes the same terms over arrays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]

# A ray must run this far inside a disc, in front of the base, to count as passing through it (as for polygons).
THROUGH = 1e-12


def circle_hits(p0: Sequence[float], p1: Sequence[float], cx: float, cy: float, r: float) -> list[float]:
    """Parameters t in [0, 1] where the segment p0->p1 meets the circle."""
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    fx, fy = p0[0] - cx, p0[1] - cy
    a = dx * dx + dy * dy
    if a == 0:
        return []
    b = 2 * (fx * dx + fy * dy)
    c = fx * fx + fy * fy - r * r
    disc = b * b - 4 * a * c
    if disc < 0:
        return []
    s = math.sqrt(disc)
    return [t for t in ((-b - s) / (2 * a), (-b + s) / (2 * a)) if 0.0 <= t <= 1.0]


def segment_inside(p0: Sequence[float], p1: Sequence[float], cx: float, cy: float, r: float) -> tuple[float, float] | None:
    """The parameters [t0, t1] (within [0, 1]) of the part of the segment p0->p1 inside the closed disc, or None.

    A segment that only touches the circle gives t0 == t1."""
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    fx, fy = p0[0] - cx, p0[1] - cy
    a = dx * dx + dy * dy
    c = fx * fx + fy * fy - r * r
    if a == 0:
        return (0.0, 1.0) if c <= 0 else None
    b = 2 * (fx * dx + fy * dy)
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    s = math.sqrt(disc)
    t0, t1 = max(0.0, (-b - s) / (2 * a)), min(1.0, (-b + s) / (2 * a))
    return (t0, t1) if t0 <= t1 else None


def chord(p0: Sequence[float], p1: Sequence[float], cx: float, cy: float, r: float) -> float:
    """Length of the segment p0->p1 inside the disc of centre (cx, cy) and radius r."""
    span = segment_inside(p0, p1, cx, cy, r)
    if span is None:
        return 0.0
    return (span[1] - span[0]) * math.dist(p0, p1)


def _wrap(a: float) -> float:
    return (a + math.pi) % (2 * math.pi) - math.pi


def crossing_angles(px: float, py: float, theta0: float, tx: float, ty: float, tr: float,
                    bx: float, by: float, rb: float) -> list[float]:
    """Directions from P (relative to theta0) of the points where the circles (tx, ty, tr) and (bx, by, rb) cross."""
    dx, dy = bx - tx, by - ty
    d2 = dx * dx + dy * dy
    if d2 == 0:
        return []
    d = math.sqrt(d2)
    a = (tr * tr - rb * rb + d2) / (2 * d)
    h2 = tr * tr - a * a
    if h2 < 0:
        return []
    h = math.sqrt(h2)
    mx, my = tx + a * dx / d, ty + a * dy / d
    out = []
    for sgn in (-1.0, 1.0):
        qx, qy = mx - sgn * h * dy / d, my + sgn * h * dx / d
        out.append(_wrap(math.atan2(qy - py, qx - px) - theta0))
    return out


def shadow(px: float, py: float, theta0: float, alpha: float, d: float, tx: float, ty: float, tr: float,
           bx: float, by: float, rb: float) -> list[tuple[float, float]]:
    """The intervals of directions (relative to theta0, within ±alpha) whose ray from P meets the disc (bx, by, rb)
    before the target's base (centre (tx, ty), radius tr, at distance d from P in direction theta0)."""
    D = math.hypot(bx - px, by - py)
    if D <= rb:
        return [(-alpha, alpha)]          # P inside the disc: every ray starts in it
    phi = _wrap(math.atan2(by - py, bx - px) - theta0)
    beta = math.asin(rb / D)
    lo, hi = max(-alpha, phi - beta), min(alpha, phi + beta)
    if hi <= lo:
        return []
    cuts = sorted({lo, hi, *(c for c in crossing_angles(px, py, theta0, tx, ty, tr, bx, by, rb) if lo < c < hi)})
    out: list[tuple[float, float]] = []
    for a, b in zip(cuts, cuts[1:]):
        if b - a <= 1e-12:
            continue
        mid = (a + b) / 2
        entry = d * math.cos(mid) - math.sqrt(max(0.0, tr * tr - (d * math.sin(mid)) ** 2))
        along = D * math.cos(mid - phi)
        half = math.sqrt(max(0.0, rb * rb - (D * math.sin(mid - phi)) ** 2))
        if min(along + half, entry) - max(along - half, 0.0) > THROUGH:
            out.append((a, b))
    return out
