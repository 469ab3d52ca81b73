"""Move and Jump (p.18, A10, A13, A14, A39, A52): path cost, legality, counters removed, facing."""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely

from . import discs
from .battlefield import Battlefield, Feature, Piece, angle_deg
from .catalogue import TerrainColumn
from .explain import Step, Working, inches
from .numbers import EPS, at_most

MOVE_ALLOWANCE = 6.0
JUMP_DISTANCE = 9.0


@dataclass(frozen=True)
class MoveResult:
    legal: bool
    reason: str
    cost: float
    allowance: float
    distance: float          # straight-line displacement start to end
    removes: int
    adds: int
    facing: float | None     # new facing for troopers
    end: tuple[float, float]
    explain: tuple[Step, ...]


def stealth_of(p: Piece) -> int:
    """Troopers remove up to Stealth counters, drones up to Robotics; blips have none to remove (p.18)."""
    if p.is_trooper:
        return p.stat("stealth")
    if p.is_drone:
        return p.stat("robotics")
    return 0


def removal(bf: Battlefield, p: Piece, displacement: float, why: Working) -> int:
    if p.is_blip:
        why.add("a blip never keeps Target counters: nothing to remove", "p.17")
        return 0
    stl = stealth_of(p)
    inch = displacement / bf.scale
    if bf.rulings.reads("A14", "B"):
        whole = int(math.floor(inch + 0.5 + EPS))
        rule = "round"
    else:
        whole = int(math.floor(inch + EPS))
        rule = "floor"
    can = min(stl, whole)
    removes = min(can, p.target_counters)
    stat = "Stl" if p.is_trooper else "Rob"
    scaled = f" / scale {bf.scale:g}" if bf.scale != 1.0 else ""
    why.add(f"removes min({stat} {stl}, {rule}({inches(displacement)}{scaled}) = {whole}) = {can}"
            + (f", but holds only {p.target_counters}" if p.target_counters < can else "")
            + f": {removes} removed", "p.18", bf.rulings.label("A14"), "A56" if scaled else "")
    return removes


def _column(p: Piece) -> bool:
    """Drones use the Drones column; troopers and blips (even blips holding drones) the Troopers column (A52)."""
    return p.is_drone


def _spans(a: tuple[float, float], b: tuple[float, float], features: list[Feature]) -> list[tuple[float, float]]:
    """The parameter ranges [t0, t1] of the segment a->b inside any of the features: discs exactly, as circles (their
    polygons lie up to 0.12 % of r inside), polygons from their intersection with the segment."""
    spans = []
    for f in features:
        if f.circle is not None:
            span = discs.segment_inside(a, b, *f.circle)
            if span is not None:
                spans.append(span)
    # Each polygon is cut on its own (overlapping spans are merged by ``length_inside``): a union of the polygons
    # for every segment cost more than the whole rest of a Move's check.
    lo_x, hi_x, lo_y, hi_y = min(a[0], b[0]), max(a[0], b[0]), min(a[1], b[1]), max(a[1], b[1])
    for f in features:
        if f.circle is not None:
            continue
        x0, y0, x1, y1 = f.box
        if x0 > hi_x or x1 < lo_x or y0 > hi_y or y1 < lo_y:
            continue
        spans.extend(_polygon_spans(a, b, f))
    return spans


SPANS_KEPT = 20000          # segments' spans in polygons kept (all are let go when full)
_SPANS: dict[tuple[tuple[float, float], tuple[float, float], Feature], list[tuple[float, float]]] = {}


def _polygon_spans(a: tuple[float, float], b: tuple[float, float], f: Feature) -> list[tuple[float, float]]:
    """The spans of the segment a->b inside a polygon piece, cut once for a segment and a piece: the computer's
    imagined Moves go over the same ground from the same spots again and again, on tables that differ elsewhere."""
    key = (a, b, f)
    held = _SPANS.get(key)
    if held is not None:
        return held
    seg = shapely.LineString([a, b])
    spans: list[tuple[float, float]] = []
    # Most segments whose box meets the piece's miss the piece itself: the prepared geometry says so at a fraction of
    # the cost of cutting (a segment that misses it has nothing inside it).
    if shapely.intersects(f.geometry, seg):
        # Each part of the cut with a length, from the least to the most of the segment its points lie along: read
        # from its points' coordinates in one call, measured as GEOS measures them (``_line_length``, ``_along``).
        coords, part_of = shapely.get_coordinates(shapely.get_parts(f.geometry.intersection(seg)), return_index=True)
        xs, ys, parts = coords[:, 0].tolist(), coords[:, 1].tolist(), part_of.tolist()
        first, n = 0, len(parts)
        while first < n:
            last = first
            while last < n and parts[last] == parts[first]:
                last += 1
            if _line_length(xs, ys, first, last) > 0:
                ts = [_along(a, b, xs[i], ys[i]) for i in range(first, last)]
                spans.append((min(ts), max(ts)))
            first = last
    if len(_SPANS) >= SPANS_KEPT:
        _SPANS.clear()
    _SPANS[key] = spans
    return spans


def _line_length(xs: list[float], ys: list[float], first: int, last: int) -> float:
    """The length of the line through points ``first`` to ``last - 1``, added up as GEOS adds it (``Length::ofLine``:
    the same figure to the last digit as shapely's ``length``)."""
    total = 0.0
    for i in range(first + 1, last):
        dx, dy = xs[i] - xs[i - 1], ys[i] - ys[i - 1]
        total += math.sqrt(dx * dx + dy * dy)
    return total


def _along(a: tuple[float, float], b: tuple[float, float], x: float, y: float) -> float:
    """How far along the segment a->b the point (x, y) projects, as a share of its length: GEOS's working of
    ``project(..., normalized=True)`` for a line of one segment (the projection factor, clamped to the segment, times
    its length, over the line's length), the same operations in the same order, so the same figure to the last
    digit at a fraction of the cost of a point object and a call per coordinate."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    length = math.sqrt(dx * dx + dy * dy)
    if x == ax and y == ay:
        factor = 0.0
    elif x == bx and y == by:
        factor = 1.0
    else:
        factor = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)
    measure = 0.0 if factor <= 0.0 else (factor * length if factor <= 1.0 else length)
    if measure == 0.0 and length == 0.0:
        return 0.0
    return measure / length


def length_inside(points: list[tuple[float, float]], features: list[Feature]) -> float:
    """Length of the path (its waypoints) inside the union of the features."""
    total = 0.0
    for a, b in zip(points, points[1:]):
        seg = math.dist(a, b)
        if seg == 0:
            continue
        end = -1.0
        for t0, t1 in sorted(_spans(a, b, features)):
            if t1 > end:
                total += (t1 - max(t0, end)) * seg
                end = t1
    return total


def path_distance(points: list[tuple[float, float]], x: float, y: float) -> float:
    """The distance of (x, y) from the path through ``points``: each segment's worked out as GEOS works out a point's
    distance from a segment (the same operations in the same order, so the same figure to the last digit as
    ``shapely.distance`` from the path's line), the least kept. Plain arithmetic: for the few pieces near a path it
    costs less than any geometry object or array."""
    best = math.inf
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        abx, aby = bx - ax, by - ay
        len2 = abx * abx + aby * aby
        dxa, dya = x - ax, y - ay
        if len2 == 0:
            d = math.sqrt(dxa * dxa + dya * dya)        # a segment of no length: the distance from its point
        else:
            r = (dxa * abx + dya * aby) / len2
            if r <= 0:
                d = math.sqrt(dxa * dxa + dya * dya)
            elif r >= 1:
                dxb, dyb = x - bx, y - by
                d = math.sqrt(dxb * dxb + dyb * dyb)
            else:
                d = abs(((ay - y) * abx - (ax - x) * aby) / len2) * math.sqrt(len2)
        if d < best:
            best = d
    return best


def _blocked_by_units(bf: Battlefield, mover: Piece, points: list[tuple[float, float]],
                      end: tuple[float, float]) -> str:
    # A piece whose centre lies farther outside the path's box than the two bases' radii cannot touch the path: only
    # the pieces near it are measured (a Move's check asks of every piece on the table).
    px0, px1 = min(p[0] for p in points), max(p[0] for p in points)
    py0, py1 = min(p[1] for p in points), max(p[1] for p in points)
    for other in bf.pieces.values():
        if other.id == mover.id:
            continue
        if other.is_objective:
            gap = math.hypot(end[0] - other.x, end[1] - other.y) - other.radius - mover.radius
            if gap < -EPS:
                return f"the base would end overlapping objective {other.id} [A51]"
            continue
        reach = other.radius + mover.radius + 1e-6
        if other.x < px0 - reach or other.x > px1 + reach or other.y < py0 - reach or other.y > py1 + reach:
            continue
        gap = path_distance(points, other.x, other.y) - other.radius - mover.radius
        if gap < -EPS:
            return f"the path passes through {other.id}; units may not overlap or move through other units [p.18]"
    return ""


MOVES_KEPT = 512            # Moves worked out on battlefields that may be asked again (the oldest go first)
_MOVES: dict[tuple[int, str, tuple[tuple[float, float], ...]], tuple[Battlefield, MoveResult]] = {}


def move(bf: Battlefield, mover: Piece, path: list[tuple[float, float]]) -> MoveResult:
    """Move along the base centre's path (A52): ``path`` lists the waypoints after the start.

    A battlefield is never changed once made, and the same table is handed out again for a state that stands the
    same (``GameState.battlefield``): the same Move of a piece of the battlefield on it is worked out once (the
    computer weighs each of its Moves over several rolls of the dice, each checking the path anew)."""
    if bf.pieces.get(mover.id) is not mover:
        return _move(bf, mover, path)
    key = (id(bf), mover.id, tuple((float(x), float(y)) for x, y in path))
    held = _MOVES.get(key)
    if held is not None and held[0] is bf:
        return held[1]
    result = _move(bf, mover, path)
    if len(_MOVES) >= MOVES_KEPT:
        _MOVES.pop(next(iter(_MOVES)))
    _MOVES[key] = (bf, result)          # the battlefield is kept with it: the key names it by identity
    return result


def _length(points: list[tuple[float, float]]) -> float:
    """The path's length, added up segment by segment as GEOS adds a line's (the same figure to the last digit)."""
    total = 0.0
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        dx, dy = bx - ax, by - ay
        total += math.sqrt(dx * dx + dy * dy)
    return total


def _columns(bf: Battlefield, drone: bool) -> tuple[list[tuple[Feature, TerrainColumn]], list[Feature]]:
    """Each terrain piece with the column a mover reads (drones' or troopers'), and the hindering ones: read once
    for a battlefield (``Battlefield.known``), which every Move on it asks again."""
    key = ("move columns", drone)
    held = bf.known.get(key)
    if held is None:
        columns = [(f, f.column(drone)) for f in bf.terrain]
        held = bf.known[key] = (columns, [f for f, col in columns if col.hindering])
    return held


def _move(bf: Battlefield, mover: Piece, path: list[tuple[float, float]]) -> MoveResult:
    rules = bf.rulings
    why = Working()
    allowance = bf.distance(MOVE_ALLOWANCE)
    start = (mover.x, mover.y)
    points = [start] + [(float(x), float(y)) for x, y in path]
    end = points[-1]
    if mover.is_objective:
        return MoveResult(False, "objectives do not move [p.~12]", 0.0, allowance, 0.0, 0, 0, None, start, why.freeze())
    drone = _column(mover)
    column = "Drones" if drone else "Troopers & Blips"
    line = len(points) > 1 and any(math.dist(points[i], points[i + 1]) > 0 for i in range(len(points) - 1))
    length = _length(points) if line else 0.0
    columns, hindering = _columns(bf, drone)
    slow = 0.0
    if line and hindering:
        slow = length_inside(points, hindering)
    cost = length + slow
    why.add(f"path {inches(length)} of which {inches(slow)} in hindering terrain ({column} column) counts double: cost {inches(cost)}", "p.18", "p.24", "A52")
    why.add(f"Move allowance {inches(allowance)}", "p.18")
    reason = ""
    if not at_most(cost, allowance):
        reason = f"the path costs {inches(cost)}, more than the {inches(allowance)} a Move allows [p.18]"
    if not reason and line:
        px0, py0, px1, py1 = (min(p[0] for p in points), min(p[1] for p in points), max(p[0] for p in points),
                              max(p[1] for p in points))
        for f, col in columns:
            if not col.impassable:
                continue
            x0, y0, x1, y1 = f.box
            # A piece whose box lies clear of the path's cannot hold any of it: only its edge is left to check.
            clear = x0 > px1 + 1e-6 or x1 < px0 - 1e-6 or y0 > py1 + 1e-6 or y1 < py0 - 1e-6
            if not clear and length_inside(points, [f]) > EPS:
                reason = f"the path enters {f.id} ({f.ttype.name}), impassable to {column.lower()} [p.24, A10]"
                break
            if f.holds(*end):
                # a centre within EPS of the edge is in the feature (A58); a path touching it at a point is not
                reason = (f"the base centre would end in {f.id} ({f.ttype.name}), impassable to {column.lower()}: "
                          f"a centre on its edge is in it [p.24, A10, A67]")
                break
    if not reason and not bf.on_table(end[0], end[1], mover.radius):
        reason = "the base would end off the table: the way off the table is a Withdraw [p.18, A64, A43]"
    if not reason and line:
        reason = _blocked_by_units(bf, mover, points, end)
    displacement = math.dist(start, end)
    why.add(f"displacement {inches(displacement)} in a straight line from start to end", "p.18")
    facing = None
    if mover.has_arc:
        if displacement <= EPS:
            facing = mover.facing
            why.add("a zero-length Move leaves facing unchanged", "A13")
        elif rules.reads("A13", "A"):
            facing = angle_deg(end[0] - start[0], end[1] - start[1])
            why.add(f"ends facing {facing:.1f}°, along the displacement", rules.label("A13"))
        else:
            a, b = next((points[i], points[i + 1]) for i in range(len(points) - 2, -1, -1) if math.dist(points[i], points[i + 1]) > EPS)
            facing = angle_deg(b[0] - a[0], b[1] - a[1])
            why.add(f"ends facing {facing:.1f}°, along the final path segment", "p.18", "A13")
    if reason:
        # A refused Move changes nothing: no counters are worked out as if removed.
        why.add(f"not allowed: {reason}")
        return MoveResult(False, reason, cost, allowance, displacement, 0, 0, facing, end, why.freeze())
    removes = removal(bf, mover, displacement, why)
    return MoveResult(True, "", cost, allowance, displacement, removes, 0, facing, end, why.freeze())


def can_jump(bf: Battlefield, p: Piece) -> str:
    if p.is_blip:
        return "blips cannot Jump [A18, A39]"
    if p.is_objective:
        return "objectives do not move [p.~12]"
    if p.is_drone:
        return ""
    if bf.rulings.reads("A39", "A") or p.trooper_type().jump:
        return ""
    return "only Scouts and drones may Jump [p.17, p.37, A39]"


def jump(bf: Battlefield, jumper: Piece, x: float, y: float) -> MoveResult:
    why = Working()
    limit = bf.distance(JUMP_DISTANCE)
    start = (jumper.x, jumper.y)
    end = (float(x), float(y))
    d = math.dist(start, end)
    why.add(f"jump of {inches(d)} in a straight line, up to {inches(limit)}, over any terrain and any unit",
            "p.18", "A65")
    reason = can_jump(bf, jumper)
    drone = _column(jumper)
    if not reason and not at_most(d, limit):
        reason = f"the jump is {inches(d)}, more than {inches(limit)} [p.18]"
    if not reason and not bf.on_table(*end, jumper.radius):
        reason = "the base would land off the table: the way off the table is a Withdraw [p.18, A64, A43]"
    if not reason:
        for f in bf.terrain:
            col = f.column(drone)
            if (col.impassable or not col.landable) and f.holds(*end):
                reason = f"cannot land in {f.id} ({f.ttype.name}) [p.24, A10, A39]"
                break
    if not reason:
        for other in bf.pieces.values():
            if other.id != jumper.id and math.hypot(end[0] - other.x, end[1] - other.y) - other.radius - jumper.radius < -EPS:
                reason = f"the base would land overlapping {other.id}: a Jump passes over units but may not end on one [p.18, A39, A65]"
                break
    facing = None
    if jumper.has_arc:
        facing = angle_deg(end[0] - start[0], end[1] - start[1]) if d > EPS else jumper.facing
        why.add(f"lands facing {facing:.1f}°, the jump direction", "p.18", "A13")
    if reason:
        # A refused Jump changes nothing: neither its removal nor its own counter is worked out.
        why.add(f"not allowed: {reason}")
        return MoveResult(False, reason, d, limit, d, 0, 0, facing, end, why.freeze())
    removes = removal(bf, jumper, d, why) if not jumper.is_objective else 0
    why.add("then +1 Target counter for the jump", "p.17", "p.18")
    return MoveResult(True, "", d, limit, d, removes, 1, facing, end, why.freeze())
