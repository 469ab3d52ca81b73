"""The fast whole-table engine: every sight line between opposite sides, and the exposure grid, as numpy arrays.

It gives the same answers as ``table_sight`` (the per-pair Shapely reference) under the same rulings:

* A9: option B, the exact hidden angular fraction from the viewer's closest point (``fast_geometry.shadow_measure``),
  blocked above one half (A58); option A, the closest-points segment through blocking terrain.
* A10: blocking features holding either centre are left out (option B) or kept (option A).
* A6, A7, A8, A11: the target's cover and every feature giving cover along the measuring segment with its length
  (the Heavy ones each alone against 3", scaled (A56), or summed (A6 option B)), the target's and the shooter's own
  features as the rulings say. Discs (craters, smoke, jammer fields) are held and crossed exactly, as circles.
* The viewer's Target range band (A2, A3), and the missile corridor: who rolls countermeasures against a missile
  from the viewer at the target (A27), nearest the firer first.

The exposure grid asks for tens of thousands of sight lines but only whether each is visible: guaranteed bounds
(``fast_geometry.ShadowBounds``) settle nearly all of them, and the exact sweep answers the rest (the penumbrae).
Its Target prices (``targeting.target_price(...).cost(1)``, the cheapest per point) need the intervening terrain
only for each point's cheapest sight lines: the price per counter bounds the cost from below. That terrain is
measured along the rays from each enemy's centre (every A6 segment lies on one): each feature seen from outside is
found by its span of directions among the rays sorted by direction, and its length read from an angular sweep of
its vertices (``fast_geometry.RayCells``), where a segment ending on an edge or passing through a vertex is no knife
edge.

Terrain is turned into arrays once per table and cached (keyed by the terrain pieces themselves); what an exposure
map measures from its enemies' places alone (the bounds' extents, the rays' cells) is kept with them for the last few
sets of places, and ``prepare`` makes it for the units on the table. The rare sight lines that sit on a
floating-point knife edge (a viewer point on a polygon's boundary, a segment through a polygon vertex or along an
edge) are answered by the reference functions themselves, so both engines agree there too.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, cast, overload

import numpy as np
import shapely

from ..collector import cycle_collection_held
from .battlefield import Battlefield, Piece
from .catalogue import COVER_BANDS, unit_types
from .fast_geometry import (
    KNIFE_EDGE,
    TWO_PI,
    Array,
    ConvexParts,
    EdgeTable,
    RayCells,
    ShadowBounds,
    _fast_wrap,
    bbox_candidates,
    disc_chords,
    disc_shadow,
    distinct,
    nonzero_2d,
    pick,
    near_segments,
    norm,
    segment_lengths,
    shadow_measure,
    union_measure,
)
from .geometry import edge_range
from .missile import CM_CORRIDOR, flight_path_units
from .numbers import EPS
from .sight import HEAVY_LIMIT, feature_cover, intervening, line_of_sight
from .table_sight import (
    ExposureGrid,
    PairSight,
    exposure_probe,
    grid_shape,
    pair_band,
    watchers,
)
from .ranges import target_band_inches
from .targeting import can_target, target_price

COVER_NAMES = {v: k for k, v in COVER_BANDS.items()}
PROBE_RADIUS = 0.5
# The exposure search sorts each viewer's grid points by distance band, then by direction bucket.
DISTANCE_BANDS = np.array([0.0, 2.0, 4.0, 7.0, 11.0, 17.0, 26.0, np.inf])      # inches from the viewer's centre
_BAND_OF_INCH = np.searchsorted(DISTANCE_BANDS, np.arange(27.0), side="right") - 1   # whole inches -> band
DIRECTION_BUCKETS = 4096                # per band; bands * buckets must fit in an int16
TABLE_CACHE_SIZE = 8
SEEN_FROM_KEPT = 4          # sets of enemies' places whose views of a table's terrain are kept (``_Table.seen_from``)


def _keep_work_arrays_in_heap() -> None:
    """Let the C allocator keep freed work arrays for the next call instead of returning them to the system.

    The engine allocates a few megabytes of short-lived arrays per call. With glibc's default thresholds they are
    mapped and unmapped every time, and the page faults cost more than the arithmetic (about half of a sight-lines
    call). Freeing one large block raises glibc's adaptive mmap and trim thresholds (to about 32 and 64 MB), as any
    program that frees a large array would; elsewhere this does nothing.
    """
    block = np.empty(32 * 1024 * 1024 - 64 * 1024, dtype=np.uint8)
    del block


_keep_work_arrays_in_heap()

# What an exposure map or the sight lines of a crowded table may keep of the C heap between two calls (about 130 MB
# at the 0.25" grid of 16 enemies, 100 MB for the sight lines of 128 units a side).
KEPT_HEAP = 256 * 1024 * 1024
# Sight lines of fewer pairs than this need under 64 MB of work arrays (about 19 MB at 64 units a side).
CROWDED_PAIRS = 12_000
_HEAP_KEPT = threading.Event()


def _keep_large_work_in_heap() -> None:
    """Let glibc keep the heap a large computation grew to, for the next one, instead of handing its top back.

    A fine exposure grid needs over 100 MB of work arrays at once. The adaptive thresholds raised above trim the
    heap's top beyond 64 MB when the map ends, and the next map faults every page of it back in (about 20,000 page
    faults, a quarter of a 0.25" map on the standard table); so do the sight lines of 128 units a side. Done on the
    first such computation or its preparing, so a process that never asks for one (a sight-lines query of an
    ordinary table) neither loads ctypes nor keeps more. Setting one threshold turns glibc's adaptation off, so both
    are set; on another C library this does nothing."""
    if _HEAP_KEPT.is_set():
        return
    _HEAP_KEPT.set()
    try:
        # lazy: see the docstring (a process that never asks loads no ctypes)
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
        mallopt(-3, 32 * 1024 * 1024)           # M_MMAP_THRESHOLD: glibc's largest, what the block above gave
        mallopt(-1, KEPT_HEAP)                  # M_TRIM_THRESHOLD
    except (OSError, AttributeError, TypeError):
        return


def _bucket(angle: Array) -> Array:
    """Direction bucket of angles in [-π, π]: monotone, so a range of angles maps to a range of buckets."""
    scaled = np.floor((angle + math.pi) * (DIRECTION_BUCKETS / TWO_PI))
    return np.clip(scaled, 0, DIRECTION_BUCKETS - 1).astype(np.int64)


class _Table:
    """Everything the engine needs from the terrain alone, built once per table (and per A11 reading)."""

    def __init__(self, bf: Battlefield):
        self.features = list(bf.features)
        self.blocking = list(bf.blocking_features)
        index = {id(f): i for i, f in enumerate(self.features)}
        self.blocking_index = np.array([index[id(f)] for f in self.blocking], dtype=np.int64)
        self.tree = shapely.STRtree([f.geometry for f in self.features])
        # Discs (craters, smoke, jammer fields, round terrain) are held and crossed exactly, as ``Feature.holds`` and
        # ``sight_reference.crossings`` treat them, not as their inscribed polygons.
        self.circles = np.array([f.circle if getattr(f, "circle", None) is not None else (np.nan,) * 3
                                 for f in self.features], dtype=float).reshape(-1, 3)
        self.circle_index = np.nonzero(~np.isnan(self.circles[:, 2]))[0]
        self.blocking_circles = self.circles[self.blocking_index] if len(self.blocking) else np.zeros((0, 3))
        self.geometries = np.array([f.geometry for f in self.features], dtype=object)
        self.bounds = shapely.bounds(self.geometries).reshape(-1, 4)
        self.boundaries = shapely.boundary(self.geometries)
        shapely.prepare(self.boundaries)
        self.blocking_edges = EdgeTable([f.geometry for f in self.blocking])
        self.blocking_boundaries = [f.geometry.boundary for f in self.blocking]
        for g in self.blocking_boundaries:
            shapely.prepare(g)
        # Cover of every feature for troopers (0) and drones (1); blocking ones give none (cover_of skips them).
        bands = np.zeros((2, len(self.features)), dtype=np.int64)
        for i, f in enumerate(self.features):
            if not f.blocking:
                for drone in (0, 1):
                    bands[drone, i] = COVER_BANDS[feature_cover(f, bool(drone), bf.rulings)]
        self.bands = bands
        self.probe_holds: dict[tuple[float, int, int], np.ndarray] = {}
        self._of_grid: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = {}
        self._seen_from: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._seen_lock = threading.Lock()
        self._parts: ConvexParts | None = None
        self._cover: tuple[np.ndarray, EdgeTable] | None = None
        self._any_cover: tuple[np.ndarray, EdgeTable] | None = None
        self._cover_rays: EdgeTable | None = None

    def any_cover_edges(self) -> tuple[np.ndarray, EdgeTable]:
        """The features that give a trooper or a drone cover: their indices and edges (built on first use)."""
        if self._any_cover is None:
            index = np.nonzero((self.bands > 0).any(axis=0))[0]
            self._any_cover = (index, EdgeTable([self.features[i].geometry for i in index]))
        return self._any_cover

    def cover_edges(self) -> tuple[np.ndarray, EdgeTable]:
        """The features that give a trooper cover (``bands[0] > 0``): their indices and edges (built on first use)."""
        if self._cover is None:
            index = np.nonzero(self.bands[0] > 0)[0]
            self._cover = (index, EdgeTable([self.features[i].geometry for i in index]))
        return self._cover

    def cover_rays(self) -> EdgeTable:
        """The edges of ``cover_edges``' features with every ring turned to have its feature on the left (for
        ``fast_geometry.RayCells``)."""
        if self._cover_rays is None:
            geoms = [self.features[i].geometry for i in self.cover_edges()[0]]
            oriented = shapely.orient_polygons(np.array(geoms, dtype=object)) if geoms else []
            self._cover_rays = EdgeTable(list(oriented))
        return self._cover_rays

    def of_grid(self, holds: np.ndarray, what: str) -> np.ndarray:
        """What an exposure map reads of where its grid's points stand, from ``probe_holds`` (one of its arrays), kept
        with it: ``"blocking"``, which blocking features hold each point; ``"cover"``, which features of
        ``cover_edges``; ``"band"``, the trooper cover band of the best feature holding it (``sight.cover_of``)."""
        key = (id(holds), what)
        kept = self._of_grid.get(key)
        if kept is not None and kept[0] is holds:
            return kept[1]
        if what == "blocking":
            out = np.ascontiguousarray(holds[:, self.blocking_index])
        elif what == "cover":
            out = np.ascontiguousarray(holds[:, self.cover_edges()[0]])
        else:
            out = np.where(holds, self.bands[0], 0).max(axis=1) if self.features else np.zeros(len(holds), np.int64)
        self._of_grid[key] = (holds, out)        # the array itself kept, so that its id stays its own
        return out

    def seen_from(self, ex: Array, ey: Array, er: Array, radius: float) -> tuple[ShadowBounds, RayCells | None]:
        """What an exposure map measures from its enemies' places alone: the blocking terrain's extents seen from
        their bases (``ShadowBounds``) and the cover terrain swept around their centres (``RayCells``, None without
        cover terrain). Kept for the last few sets of places: a set-up search, or the computer weighing its own
        moves, asks for many maps watched by the same enemies, and ``prepare`` makes them for the units on the
        table as it is loaded."""
        key = (ex.tobytes(), ey.tobytes(), er.tobytes(), float(radius))
        with self._seen_lock:
            got = self._seen_from.get(key)
            if got is not None:
                self._seen_from.move_to_end(key)
                return cast(tuple[ShadowBounds, "RayCells | None"], got)
        bounds = ShadowBounds(self.convex_parts(), ex, ey, er, radius)
        cover_index, edges = self.cover_edges()
        rays = RayCells(self.cover_rays(), self.circles[cover_index], ex, ey) if len(edges) else None
        with self._seen_lock:
            self._seen_from[key] = (bounds, rays)
            while len(self._seen_from) > SEEN_FROM_KEPT:
                self._seen_from.popitem(last=False)
        return bounds, rays

    def convex_parts(self) -> ConvexParts:
        if self._parts is None:
            self._parts = ConvexParts([f.geometry for f in self.blocking], [f.circle for f in self.blocking])
        return self._parts

    def holds(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """(points, features) matrix of ``Feature.holds``: inside, or within EPS of the boundary (A58)."""
        out = np.zeros((len(xs), len(self.features)), dtype=bool)
        if len(xs) and self.features:
            pi, fi = self.tree.query(shapely.points(xs, ys), predicate="dwithin", distance=EPS)
            out[pi, fi] = True
            for f in self.circle_index.tolist():
                cx, cy, r = self.circles[f]
                out[:, f] = np.hypot(np.asarray(xs) - cx, np.asarray(ys) - cy) <= r + EPS
        return out


_TABLES: OrderedDict[tuple[Any, ...], tuple[_Table, tuple[Any, ...]]] = OrderedDict()
_TABLES_LOCK = threading.Lock()
_BUILD_LOCK = threading.Lock()     # one table built at a time: a caller arriving mid-build waits for it, not rebuilds


def _cached(key: tuple[Any, ...]) -> _Table | None:
    with _TABLES_LOCK:            # the table view computes exposure maps on a thread of its own
        entry = _TABLES.get(key)
        if entry is None:
            return None
        _TABLES.move_to_end(key)
        return entry[0]


def _table(bf: Battlefield) -> _Table:
    """The terrain arrays of this table, shared by every Battlefield with the same terrain, the same active jammer
    fields and the same A11 reading.

    Looked up by the terrain pieces' identities first (each entry keeps its pieces alive, so their ids stay theirs),
    then by their content: a battlefield rebuilt with equal terrain (the battle view makes one per action) finds the
    arrays built for an earlier one."""
    jammers = tuple((f.id, f.circle) for f in bf.jammer_fields)
    a11 = bf.rulings.choices.get("A11")
    key = (tuple(map(id, bf.terrain)), jammers, a11)
    table = _cached(key)
    if table is not None:
        return table
    with _BUILD_LOCK:
        content = (tuple((f.id, f.type_id, f.circle, shapely.to_wkb(f.geometry)) for f in bf.terrain), jammers, a11)
        table = _cached(key) or _cached(content)
        if table is None:
            table = _Table(bf)
        with _TABLES_LOCK:
            _TABLES[content] = (table, ())
            _TABLES[key] = (table, tuple(bf.terrain))
            while len(_TABLES) > 2 * TABLE_CACHE_SIZE:
                _TABLES.popitem(last=False)
    return table


def prepare(bf: Battlefield, exposure_steps: tuple[float, ...] = ()) -> None:
    """Build the terrain arrays of this table now, when the table is loaded, so that the first computation on it
    costs what the hundredth does. With ``exposure_steps``, also what the exposure map needs: the blocking
    features' convex pieces, where each point of those grids stands in the terrain, and the terrain as seen from
    the places of each side's watchers (``_Table.seen_from``).

    Safe on a background thread: a computation asking for the same table meanwhile waits for this one."""
    table = _table(bf)
    for edges in (table.blocking_edges, table.any_cover_edges()[1]):
        edges.groups()
    unit_types()            # the catalogue the Target bands read, loaded on its first use
    if exposure_steps:
        _keep_large_work_in_heap()
    _fault_in_work_heap(bf, exposure_steps)
    # The warm-up after the heap's pages, not before: touching megabytes of heap pushed the engine's own arrays and
    # code out of the processor's caches, and the first answer paid for it (3 to 8 % of a first call at 16 a side).
    _warm_up(bf)
    if exposure_steps:
        table.convex_parts()
        table.cover_edges()[1].groups()
        table.cover_rays().hulls()
    for step in exposure_steps:
        _probe_holds(bf, table, step)
    if exposure_steps:
        for side in sorted({p.side for p in bf.pieces.values() if p.side is not None}):
            enemies = watchers(bf, side)
            if enemies:
                table.seen_from(*_arrays(enemies), PROBE_RADIUS)


_WARM = threading.Event()
WARM_UP_UNITS = 16          # a side, at most, in the sight lines run once when the first table is prepared
WORK_PER_PAIR = 4096        # bytes of work arrays a sight line needs at most at once (2.3 MB at 16 a side)
WORK_PER_PROBE = 256        # bytes per sight line of an exposure map at most (12 MB at 0.5", 45 MB at 0.25", 16 enemies)
# The most the sight lines keep pre-faulted: below the trim threshold glibc raised to (twice the block above).
WORK_HEAP_MAX = 60 * 1024 * 1024
# Pre-faulted in pieces well below the mmap threshold, so that each comes from the heap and, freed, stays in it: one
# block the size of the work would be mapped on its own and handed back to the system when freed, faulting nothing
# in for the calls (above 32 MB, 64 units a side).
FAULT_CHUNK = 4 * 1024 * 1024


def _fault_in_work_heap(bf: Battlefield, exposure_steps: tuple[float, ...] = ()) -> None:
    """Touch, then free, as much heap as this table's sight lines (and, with ``exposure_steps``, its exposure maps)
    will work in, so that its pages are the process's before the first answer: a fresh process's heap has little
    free room, and the first call would otherwise take thousands of page faults growing it (about 12 ms at 64 a
    side). The freed pieces stay in the heap for the calls (``_keep_work_arrays_in_heap``,
    ``_keep_large_work_in_heap``)."""
    sides: dict[str, int] = {}
    for p in bf.units():
        if p.side is not None:
            sides[p.side] = sides.get(p.side, 0) + 1
    pairs = sum(n * (sum(sides.values()) - n) for n in sides.values())
    need = min(WORK_HEAP_MAX, WORK_PER_PAIR * pairs + 1024 * 1024)
    for step in exposure_steps:
        cols, rows = grid_shape(bf, step)
        need = max(need, min(KEPT_HEAP // 2, WORK_PER_PROBE * cols * rows * max(sides.values(), default=0)))
    chunks = [np.ones(FAULT_CHUNK // 8) for _ in range(-(-need // FAULT_CHUNK))]
    del chunks


def _warm_up(bf: Battlefield) -> None:
    """Run the sight lines once, over up to ``WARM_UP_UNITS`` units of each of two sides of this table, the first time
    a table is prepared in this process: numpy resolves each array function's loop on its first use, and Python
    specialises the engine's code after it has run, so that work is done at loading rather than in the first answer.
    Enough units that the pairs meet terrain the way a real table's do (edges crossing target bases, several
    crossings of one feature, ties among the missile candidates): a warm-up over one unit a side left about a third
    of the first answer's cost on a bundled table to the first answer itself (about a twelfth with sixteen)."""
    if _WARM.is_set():
        return
    _WARM.set()
    first: dict[str, list[Piece]] = {}
    for p in sorted((p for p in bf.units() if p.side is not None), key=lambda p: p.id):
        side = first.setdefault(p.side or "", [])
        if len(side) < WARM_UP_UNITS:
            side.append(p)
    if len(first) >= 2:
        # Active jammers stay: their fields are part of the terrain arrays this table is prepared with.
        keep = [p for side in list(first.values())[:2] for p in side] + [p for p in bf.pieces.values() if p.jammer_on]
        _sightlines(dataclasses.replace(bf, pieces={p.id: p for p in keep}))


def _probe_holds(bf: Battlefield, table: _Table, step: float) -> np.ndarray:
    """Which features hold each point of the exposure grid (``Feature.holds``), kept per grid."""
    cols, rows = grid_shape(bf, step)
    key = (step, cols, rows)
    holds = table.probe_holds.get(key)
    if holds is None:
        gx = (np.arange(cols) + 0.5) * step
        gy = (np.arange(rows) + 0.5) * step
        holds = table.probe_holds[key] = table.holds(np.tile(gx, rows), np.repeat(gy, cols))
        for what in ("blocking", "cover", "band"):
            table.of_grid(holds, what)
    return holds


def _viewer_points(vx: Array, vy: Array, vr: Array, tx: Array, ty: Array) -> tuple[Array, Array, Array]:
    """The viewer's closest point to each target's centre (``geometry.viewer_point``)."""
    dx, dy = tx - vx, ty - vy
    dc = np.hypot(dx, dy)
    far = dc > EPS
    safe = np.where(far, dc, 1.0)
    return np.where(far, vx + dx / safe * vr, vx), np.where(far, vy + dy / safe * vr, vy), dc


def _closest_segments(vx: Array, vy: Array, vr: Array, tx: Array, ty: Array,
                      tr: Array) -> tuple[Array, Array, Array, Array, Array]:
    """The closest-points segment of each pair of bases (``geometry.closest_points``); zero length when touching."""
    dx, dy = tx - vx, ty - vy
    dc = np.hypot(dx, dy)
    far = dc > EPS
    safe = np.where(far, dc, 1.0)
    ux, uy = dx / safe, dy / safe
    apart = far & (dc - vr - tr > 0)
    sx = np.where(apart, vx + ux * vr, vx)
    sy = np.where(apart, vy + uy * vr, vy)
    ex = np.where(apart, tx - ux * tr, np.where(far, sx, tx))
    ey = np.where(apart, ty - uy * tr, np.where(far, sy, ty))
    return sx, sy, ex, ey, apart


def _segment_bbox(sx: Array, sy: Array, ex: Array, ey: Array) -> tuple[Array, Array, Array, Array]:
    return np.minimum(sx, ex), np.minimum(sy, ey), np.maximum(sx, ex), np.maximum(sy, ey)


def _hidden(table: _Table, vx: Array, vy: Array, vr: Array, tx: Array, ty: Array, tr: Array,
            allowed: Array) -> tuple[Array, Array]:
    """A9 option B for many sight lines at once: (hidden fraction, knife-edge flags)."""
    n = len(vx)
    fraction = np.zeros(n)
    knife = np.zeros(n, dtype=bool)
    edges = table.blocking_edges
    if n == 0 or len(edges) == 0:
        return fraction, knife
    px, py, _ = _viewer_points(vx, vy, vr, tx, ty)
    d = np.hypot(tx - px, ty - py)
    act = np.nonzero((d > tr + EPS) & allowed.any(axis=1))[0]
    if len(act) == 0:
        return fraction, knife
    px, py, cx, cy, r, d = px[act], py[act], tx[act], ty[act], tr[act], d[act]
    cp, cf = bbox_candidates(
        np.minimum(px, cx - r), np.minimum(py, cy - r), np.maximum(px, cx + r), np.maximum(py, cy + r),
        edges, np.take(allowed, act, axis=0),
    )
    # The cone lies within r of the segment from P to the target's centre.
    close = near_segments(px, py, cx, cy, r, cp, cf, edges)
    close = np.flatnonzero(close)
    cp, cf = cp[close], cf[close]
    if len(cp) == 0:
        return fraction, knife
    theta0 = np.arctan2(cy - py, cx - px)
    alpha = np.arcsin(r / d)
    # Viewer points inside a feature see nothing through it; on its boundary, the reference decides.
    near = np.nonzero(
        (px[cp] >= edges.minx[cf] - KNIFE_EDGE) & (px[cp] <= edges.maxx[cf] + KNIFE_EDGE)
        & (py[cp] >= edges.miny[cf] - KNIFE_EDGE) & (py[cp] <= edges.maxy[cf] + KNIFE_EDGE)
    )[0]
    circles = table.blocking_circles[cf]
    disc = ~np.isnan(circles[:, 2])
    p_inside = np.zeros(len(cp), dtype=bool)
    if len(near):
        for f in distinct(cf[near]).tolist():
            k = near[cf[near] == f]
            if disc[k[0]]:
                continue
            qx, qy = px[cp[k]], py[cp[k]]
            p_inside[k] = shapely.contains_xy(table.blocking[f].geometry, qx, qy)
            on_edge = shapely.dwithin(table.blocking_boundaries[f], shapely.points(qx, qy), KNIFE_EDGE)
            knife[act[cp[k[on_edge]]]] = True
    # Discs exactly (``discs.shadow``): P inside one sees nothing through it; on its circle, the reference decides.
    extra = None
    dk = np.nonzero(disc)[0]
    if len(dk):
        q = cp[dk]
        bx, by, rb = circles[dk, 0], circles[dk, 1], circles[dk, 2]
        gap = np.hypot(bx - px[q], by - py[q])
        p_inside[dk] = gap <= rb
        knife[act[q[np.abs(gap - rb) <= KNIFE_EDGE]]] = True
        out = np.nonzero(~p_inside[dk])[0]
        q, bx, by, rb = q[out], bx[out], by[out], rb[out]
        rows, lo, hi = disc_shadow(px[q], py[q], theta0[q], alpha[q], d[q], cx[q], cy[q], r[q], bx, by, rb)
        whole = cp[dk[p_inside[dk]]]
        extra = (np.concatenate([q[rows], whole]), np.concatenate([lo, -alpha[whole]]),
                 np.concatenate([hi, alpha[whole]]))
    poly = np.nonzero(~disc)[0]
    total = shadow_measure(px, py, cx, cy, r, d, theta0, alpha, cp[poly], cf[poly], p_inside[poly], edges, extra)
    fraction[act] = np.minimum(1.0, total / (2 * alpha))
    return fraction, knife


def _crossed(table: _Table, vx: Array, vy: Array, vr: Array, tx: Array, ty: Array, tr: Array,
             allowed: Array) -> tuple[Array, Array]:
    """A9 option A for many sight lines: (hidden 1.0 / 0.0, knife-edge flags)."""
    n = len(vx)
    fraction = np.zeros(n)
    knife = np.zeros(n, dtype=bool)
    edges = table.blocking_edges
    if n == 0 or len(edges) == 0:
        return fraction, knife
    sx, sy, ex, ey, apart = _closest_segments(vx, vy, vr, tx, ty, tr)
    cp, cf = bbox_candidates(*_segment_bbox(sx, sy, ex, ey), edges, allowed & apart[:, None])
    close = near_segments(sx, sy, ex, ey, 0.0, cp, cf, edges)
    close = np.flatnonzero(close)
    cp, cf = cp[close], cf[close]
    circles = table.blocking_circles[cf]
    disc = ~np.isnan(circles[:, 2])
    poly = np.nonzero(~disc)[0]
    lengths, k = segment_lengths(sx, sy, ex, ey, cp[poly], cf[poly], edges)
    fraction[cp[poly][lengths > EPS]] = 1.0
    knife[cp[poly][k]] = True
    # Discs exactly (``discs.chord``); a tangent segment or a chord of about EPS goes to the reference.
    dk = np.nonzero(disc)[0]
    if len(dk):
        q = cp[dk]
        r = circles[dk, 2]
        length, root = disc_chords(sx[q], sy[q], ex[q], ey[q], circles[dk, 0], circles[dk, 1], r)
        fraction[q[length > EPS]] = 1.0
        a = (ex[q] - sx[q]) ** 2 + (ey[q] - sy[q]) ** 2
        knife[q[(np.abs(root) <= 1e-12 * np.maximum(a * r * r, 1e-300)) | (np.abs(length - EPS) <= _CHORD_KNIFE)]] = True
    return fraction, knife


def _sight(bf: Battlefield, table: _Table, vx: Array, vy: Array, vr: Array, tx: Array, ty: Array, tr: Array,
           allowed: Array) -> tuple[Array, Array]:
    if bf.rulings.reads("A9", "A"):
        return _crossed(table, vx, vy, vr, tx, ty, tr, allowed)
    return _hidden(table, vx, vy, vr, tx, ty, tr, allowed)


def _allowed(bf: Battlefield, table: _Table, viewer_holds: Array, I: Array, target_holds: Array, J: Array) -> Array:
    """Blocking features that may break each sight line from viewer ``I[k]`` to target ``J[k]``
    (``sight.blockers_between``, A10): those holding neither, worked out once per viewer and per target (``holds``: a
    row each), then taken for each line by rows."""
    if bf.rulings.reads("A10", "A"):
        return np.ones((len(I), len(table.blocking)), dtype=bool)
    bi = table.blocking_index
    allowed: Array = np.take(~viewer_holds[:, bi], I, axis=0)
    allowed &= np.take(~target_holds[:, bi], J, axis=0)
    return allowed


_CHORD_KNIFE = 1e-9


def _cover_lengths(bf: Battlefield, table: _Table, index: Array, sx: Array, sy: Array, ex: Array, ey: Array, cp: Array,
                   cf: Array, edges: EdgeTable, start_status: Array | None = None) -> tuple[Array, Array]:
    """``fast_geometry.segment_lengths`` for features that give cover (``index``: their table indices, ``cf``
    indexes ``index``), with discs measured exactly (``discs.chord``): (lengths, knife flags)."""
    circles = table.circles[index[cf]] if len(cf) else np.zeros((0, 3))
    disc = ~np.isnan(circles[:, 2])
    lengths = np.zeros(len(cp))
    knife = np.zeros(len(cp), dtype=bool)
    poly = np.nonzero(~disc)[0]
    if len(poly):
        status = None if start_status is None else start_status[poly]
        lengths[poly], knife[poly] = segment_lengths(sx, sy, ex, ey, cp[poly], cf[poly], edges, status)
    dk = np.nonzero(disc)[0]
    if len(dk):
        k = cp[dk]
        r = circles[dk, 2]
        length, disc_ = disc_chords(sx[k], sy[k], ex[k], ey[k], circles[dk, 0], circles[dk, 1], r)
        a = (ex[k] - sx[k]) ** 2 + (ey[k] - sy[k]) ** 2
        lengths[dk] = length
        limit = bf.distance(HEAVY_LIMIT) + EPS
        # Tangent lines, and lengths at the thresholds the rules compare them with, go to the reference.
        knife[dk] = ((np.abs(disc_) <= 1e-12 * np.maximum(a * r * r, 1e-300))
                     | (np.abs(length - EPS) <= _CHORD_KNIFE) | (np.abs(length - limit) <= _CHORD_KNIFE))
    return lengths, knife


def _arrays(pieces: Sequence[Piece]) -> tuple[Array, Array, Array]:
    return (
        np.array([p.x for p in pieces], dtype=float), np.array([p.y for p in pieces], dtype=float),
        np.array([p.radius for p in pieces], dtype=float),
    )


def sightlines_fast(bf: Battlefield) -> PairSights:
    """Every ordered pair of units of opposite sides, as ``table_sight.sightlines_reference`` gives them (a
    sequence whose records are made as they are read: ``PairSights``)."""
    with cycle_collection_held():
        return _sightlines(bf)


def _sightlines(bf: Battlefield) -> PairSights:
    units = sorted((p for p in bf.units() if p.side is not None), key=lambda p: p.id)
    if len(units) < 2:
        return PairSights()
    table = _table(bf)
    ux, uy, ur = _arrays(units)
    side = np.array([p.side for p in units])
    drone = np.array([p.is_drone for p in units])
    holds = table.holds(ux, uy)
    I, J = nonzero_2d(side[:, None] != side[None, :])
    if len(I) == 0:
        return PairSights()
    if len(I) >= CROWDED_PAIRS:
        _keep_large_work_in_heap()
    vx, vy, vr, tx, ty, tr = ux[I], uy[I], ur[I], ux[J], uy[J], ur[J]
    hidden, knife = _sight(bf, table, vx, vy, vr, tx, ty, tr, _allowed(bf, table, holds, I, holds, J))
    fraction = hidden.tolist()
    knives = np.nonzero(knife)[0].tolist()
    if knives:
        hidden = hidden.copy()
    for k in knives:
        fraction[k] = hidden[k] = line_of_sight(bf, units[I[k]], units[J[k]]).hidden_fraction
    visible = hidden <= 0.5 + EPS
    intervening, heavy_length, heavy, knife = _pair_intervening(bf, table, units, I, J, holds, drone)
    blocked = (~visible | heavy).tolist()
    for k in np.nonzero(knife)[0].tolist():
        intervening[k], heavy_length[k], blocked[k] = _cover_on_knife_edge(bf, units[I[k]], units[J[k]], bool(visible[k]))
    # The target's own cover does not depend on the viewer: once per unit.
    bands = np.zeros(len(units), dtype=np.int64)
    if table.features:
        bands = np.where(holds, table.bands[drone.astype(np.int64)], 0).max(axis=1)
    cover_name = np.array([COVER_NAMES[b] for b in bands.tolist()], dtype=object)
    d = np.maximum(0.0, np.hypot(tx - vx, ty - vy) - vr - tr)
    ids = np.array([p.id for p in units], dtype=object)
    band = _pair_bands(bf, units, I, J, d)
    corridor = _corridors(bf, units, I, J)
    return PairSights(ids[I].tolist(), ids[J].tolist(), d.tolist(), visible.tolist(), fraction,
                      cover_name[J].tolist(), blocked, band, intervening, heavy_length, corridor)


def _cover_on_knife_edge(bf: Battlefield, viewer: Piece, target: Piece,
                         visible: bool) -> tuple[tuple[tuple[str, float], ...], float, bool]:
    """One knife-edge pair's intervening terrain, Heavy length and blocking, by the rules' own ``sight.intervening``
    (as ``sight.cover`` and ``table_sight.pair_intervening`` give them), without the cover's explanation, whose
    wording costs more than the crossings."""
    found, heavy_blocked = intervening(bf, viewer, target)
    return (tuple((i.terrain, i.length) for i in found), sum(i.length for i in found if i.cover == "heavy"),
            (not visible) or heavy_blocked)


def _pair_bands(bf: Battlefield, units: Sequence[Piece], I: Array, J: Array, d: Array) -> list[int]:
    """The viewer's Target band of each pair (``table_sight.pair_band``)."""
    size = np.array([target_band_inches(bf, p) for p in units])[I]
    bands, knife = _bands(bf, d, size)
    band: list[int] = bands.tolist()
    for k in np.nonzero(knife)[0].tolist():
        band[k] = pair_band(bf, units[I[k]], units[J[k]])
    return band


def _start_status(table: _Table, index: Array, x: Array, y: Array, r: Array) -> Array:
    """(pieces, features ``index``): 1 where a piece's whole base lies inside the feature, 0 wholly outside (its
    centre more than its radius, and a margin, from the boundary), -1 otherwise. Segments measured from a piece
    start on or within its base."""
    status = np.full((len(x), len(index)), -1, dtype=np.int8)
    if len(index) and len(x):
        reach = np.asarray(r) + 1e-6
        minx, miny, maxx, maxy = (table.bounds[index, k] for k in range(4))
        apart = ((x[:, None] + reach[:, None] < minx[None, :]) | (x[:, None] - reach[:, None] > maxx[None, :])
                 | (y[:, None] + reach[:, None] < miny[None, :]) | (y[:, None] - reach[:, None] > maxy[None, :]))
        status[apart] = 0
        p, j = nonzero_2d(~apart)
        if len(p):
            f = index[j]
            centres = shapely.points(x[p], y[p])
            far = shapely.distance(table.boundaries[f], centres) > reach[p]
            inside = shapely.contains_xy(table.geometries[f], x[p], y[p])
            status[p[far], j[far]] = inside[far]
    return status


def _pair_intervening(bf: Battlefield, table: _Table, units: Sequence[Piece], I: Array, J: Array, holds: Array,
                      drone: Array) -> tuple[_Runs, list[float], Array, Array]:
    """Each pair's intervening terrain as ``sight.cover`` lists it (A6 segment; A7, A8; Light inside the target's own
    feature left out), as (terrain id, length) in the features' order; its Heavy length summed; whether the Heavy
    cover blocks (more than 3", scaled, in one feature, or in all under A6 option B); and the knife-edge pairs,
    which the caller answers with ``sight.cover``."""
    n = len(I)
    index, edges = table.any_cover_edges()
    if len(edges) == 0:
        return _Runs.of((), np.zeros(n, dtype=np.int64)), [0.0] * n, np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    rules = bf.rulings
    ux, uy, ur = _arrays(units)
    vx, vy, vr, tx, ty, tr = ux[I], uy[I], ur[I], ux[J], uy[J], ur[J]
    if rules.reads("A6", "B"):
        sx, sy, _ = _viewer_points(vx, vy, vr, tx, ty)
        ex, ey = tx, ty
    else:
        sx, sy, ex, ey, _ = _closest_segments(vx, vy, vr, tx, ty, tr)
    # Which features may count against each unit as the target (its kind of cover from each, the Light cover it is
    # in, A7), once per unit; then per pair, its segment's length and A8. Rows taken by ``np.take`` (far faster than
    # indexing for rows of a 2-D array).
    nf = len(index)
    kind = np.take(table.bands[:, index], drone.astype(np.int64), axis=0)     # (units, features): 1 Light, 2 Heavy
    own = holds[:, index]
    as_target = (kind > 0) & ~((kind == 1) & own)
    if rules.reads("A7", "B"):
        as_target &= ~((kind == 2) & own)
    mask = np.take(as_target, J, axis=0)
    mask &= (np.hypot(ex - sx, ey - sy) > EPS)[:, None]
    if rules.reads("A8", "B"):
        mask &= ~(np.take(own, I, axis=0) & ~np.take(own, J, axis=0))
    # Every segment starts on or within its viewer's base: whether it starts inside a feature is mostly known from
    # the viewer alone, once per unit rather than once per pair.
    start_status = _start_status(table, index, ux, uy, ur)
    lead_of = None
    if rules.reads("A6", "B"):
        cp, cf, lengths, knife_c = _crossings(bf, table, index, edges, sx, sy, ex, ey, mask, start_status, I)
    else:
        # The closest-points segment between two bases is the same segment both ways (A6): its crossings are worked
        # once per two opposite pairs, over the features either of them may count, and each pair then keeps its own.
        at = np.full((len(units), len(units)), -1, dtype=np.int64)
        at[I, J] = np.arange(n)
        partner = at[J, I]
        lead = np.nonzero(I < J)[0]
        ucp, ucf, ulen, uknife = _crossings(bf, table, index, edges, sx[lead], sy[lead], ex[lead], ey[lead],
                                            np.take(mask, lead, axis=0) | np.take(mask, partner[lead], axis=0),
                                            start_status, I[lead])
        slot = np.full(n, -1, dtype=np.int64)
        slot[lead] = np.arange(len(lead))
        slot[partner[lead]] = slot[lead]
        ucount = np.bincount(ucp, minlength=len(lead))
        count = ucount[slot]
        cp = np.repeat(np.arange(n), count)
        row = np.arange(len(cp)) + np.repeat((np.cumsum(ucount) - ucount)[slot] - (np.cumsum(count) - count), count)
        keep = np.nonzero(mask.ravel()[cp * nf + ucf[row]])[0]
        cp, row = cp[keep], row[keep]
        cf, lengths, knife_c = ucf[row], ulen[row], uknife[row]
        lead_of = slot, len(lead), ucp, ucf, ulen
    knife = np.zeros(n, dtype=bool)
    knife[cp[knife_c]] = True
    counted = np.nonzero(lengths > EPS)[0]            # item-major: each pair's features in the features' order
    names = [table.features[i].id for i in index.tolist()]
    pair_of, feat, length = cp[counted], cf[counted], lengths[counted]
    is_heavy = kind.ravel()[J[pair_of] * nf + feat] == 2
    heavy_sum = np.bincount(pair_of[is_heavy], weights=length[is_heavy], minlength=n)
    limit = bf.distance(HEAVY_LIMIT) + EPS
    if rules.reads("A6", "B"):
        blocks = heavy_sum > limit
    else:
        blocks = np.zeros(n, dtype=bool)
        blocks[pair_of[is_heavy & (length > limit)]] = True
    name_of = np.array(names, dtype=object)
    own = np.bincount(pair_of, minlength=n)
    if lead_of is None:
        # Each pair's entries are a slice of one tuple of them all (a pair with no terrain between gets the empty one).
        intervening = _TerrainRuns.cut(name_of[feat].tolist(), length.tolist(), own)
    else:
        # Two opposite pairs measure the same segment: where both keep every feature it crosses (most pairs), they
        # share one run of entries, made once; the others' runs follow them in the same tuple.
        slot, leads, ucp, ucf, ulen = lead_of
        crossed = np.nonzero(ulen > EPS)[0]
        every = np.bincount(ucp[crossed], minlength=leads)
        names, lengths = name_of[ucf[crossed]].tolist(), ulen[crossed].tolist()
        lead_end = np.cumsum(every)
        end = lead_end[slot]
        rest = np.nonzero(own != every[slot])[0]
        if len(rest):
            mine = np.nonzero(own[pair_of] != every[slot[pair_of]])[0]
            end[rest] = len(names) + np.cumsum(own[rest])
            names += name_of[feat[mine]].tolist()
            lengths += length[mine].tolist()
        intervening = _TerrainRuns(names, lengths, (end - own).tolist(), end.tolist())
    return intervening, heavy_sum.tolist(), blocks, knife


def _crossings(bf: Battlefield, table: _Table, index: Array, edges: EdgeTable, sx: Array, sy: Array, ex: Array,
               ey: Array, mask: Array, start_status: Array, start_unit: Array) -> tuple[Array, Array, Array, Array]:
    """The cover features (``index``, allowed by ``mask``) each segment passes through: (segment, feature) in the
    segments' order, features in theirs; the length inside; and the knife-edge flags (``_cover_lengths``).
    ``start_unit``: the unit on whose base each segment starts."""
    cp, cf = bbox_candidates(*_segment_bbox(sx, sy, ex, ey), edges, mask)
    close = near_segments(sx, sy, ex, ey, 0.0, cp, cf, edges)
    close = np.flatnonzero(close)
    cp, cf = cp[close], cf[close]
    lengths, knife = _cover_lengths(bf, table, index, sx, sy, ex, ey, cp, cf, edges, pick(start_status, start_unit[cp], cf))
    return cp, cf, lengths, knife


class _Runs:
    """One field of every pair that is a tuple of its own (the intervening terrain, the missile corridor): runs of
    one tuple of all the pairs' items, each cut out when its pair's record is read, so a call makes a few objects
    rather than one per pair (each of which the cycle collector would scan). A pair answered by the reference keeps
    its own tuple in ``replaced``."""

    __slots__ = ("items", "starts", "ends", "replaced")

    def __init__(self, items: Sequence[Any], starts: list[int], ends: list[int]):
        self.items, self.starts, self.ends = items, starts, ends
        self.replaced: dict[int, tuple[Any, ...]] = {}

    @classmethod
    def of(cls, items: tuple[Any, ...], counts: Array) -> _Runs:
        """``items`` cut into consecutive runs of the given lengths."""
        ends = np.cumsum(counts)
        return cls(items, (ends - counts).tolist(), ends.tolist())

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, k: int) -> tuple[Any, ...]:
        if k in self.replaced:
            return self.replaced[k]
        return self._run(self.starts[k], self.ends[k])

    def __setitem__(self, k: int, run: tuple[Any, ...]) -> None:
        self.replaced[k] = run

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        runs = self._runs()
        if not self.replaced:
            return runs
        return (self.replaced.get(k, run) for k, run in enumerate(runs))

    def _run(self, start: int, end: int) -> tuple[Any, ...]:
        return tuple(self.items[start:end])

    def _runs(self) -> Iterator[tuple[Any, ...]]:
        items = tuple(self.items)           # a tuple already (``of``): the same object, not a copy
        return map(items.__getitem__, map(slice, self.starts, self.ends))


class _TerrainRuns(_Runs):
    """The intervening terrain as ``_Runs``, each entry a (terrain id, length) tuple made when its pair's record is
    read, from the two lists of all the pairs' ids and lengths. Made in the call, the entries were the one kind of
    object the call left by the thousand (some 5,600 at 64 units a side): the cycle collector's pass over them, as
    soon as the call gave it back (``cycle_collection_held``), was a tenth of a first call at 64 units a side."""

    __slots__ = ("lengths",)

    def __init__(self, names: list[str], lengths: list[float], starts: list[int], ends: list[int]):
        super().__init__(names, starts, ends)
        self.lengths = lengths

    @classmethod
    def cut(cls, names: list[str], lengths: list[float], counts: Array) -> _TerrainRuns:
        """The entries cut into consecutive runs of the given lengths."""
        ends = np.cumsum(counts)
        return cls(names, lengths, (ends - counts).tolist(), ends.tolist())

    def _run(self, start: int, end: int) -> tuple[Any, ...]:
        return tuple(zip(self.items[start:end], self.lengths[start:end]))

    def _runs(self) -> Iterator[tuple[Any, ...]]:
        return map(self._run, self.starts, self.ends)


class PairSights(Sequence[PairSight]):
    """The fast engine's sight lines: a sequence of ``PairSight`` records, equal to the reference's list of them,
    each record made when it is read. The fields are kept as one list (or ``_Runs``) each: a table of 64 units a
    side has 8,192 pairs, and making their records and tuples in the call, then having the cycle collector scan
    them, was about a sixth of it, whether or not the caller reads every pair."""

    __slots__ = ("_fields",)
    __hash__: ClassVar[None]  # type: ignore[assignment]

    def __init__(self, *fields: Any):
        self._fields: tuple[Any, ...] = fields or ([],) * len(PairSight._fields)

    def __len__(self) -> int:
        return len(self._fields[0])

    @overload
    def __getitem__(self, k: int) -> PairSight: ...

    @overload
    def __getitem__(self, k: slice) -> list[PairSight]: ...

    def __getitem__(self, k: int | slice) -> PairSight | list[PairSight]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError("pair index out of range")
        return tuple.__new__(PairSight, tuple(field[k] for field in self._fields))

    def __iter__(self) -> Iterator[PairSight]:
        # Each record made straight from its row (a named tuple's ``__new__`` would take the fields one by one).
        return map(functools.partial(tuple.__new__, PairSight), zip(*self._fields))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (PairSights, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"PairSights({list(self)!r})"


def _corridors(bf: Battlefield, units: Sequence[Piece], I: Array, J: Array) -> _Runs:
    """Who rolls countermeasures against a missile from each pair's viewer at its target
    (``missile.flight_path_units``): enemies of the firer whose base (A27 option B: centre) lies within 3" of the
    centre-to-centre path, and the target itself, nearest the firer first.

    Every firer's candidates (the enemies that may roll) are put in its order once, and each is tested only against
    the targets whose direction from the firer its corridor can reach (``_corridor_triples``), so the work grows
    with the pairs and the units that may roll for them, not with every pair times every unit. All firers are
    worked at once, whatever their side."""
    rules = bf.rulings
    limit = bf.distance(CM_CORRIDOR) + EPS
    ux, uy, ur = _arrays(units)
    may = np.array([not (p.is_blip and rules.reads("A27", "A")) for p in units], dtype=bool)
    # Candidates: the pairs whose target may roll, each firer's nearest first, ties by id (the units are in the
    # order of their ids), as ``missile.flight_path_units`` orders them. Distances within a hair of each other are
    # compared as the reference computes them.
    cand = np.nonzero(may[J])[0]
    CI, CJ = I[cand], J[cand]
    dist = np.maximum(0.0, np.hypot(ux[CJ] - ux[CI], uy[CJ] - uy[CI]) - ur[CI] - ur[CJ])
    order = _nearest_first(CI, dist, len(units))
    CI, CJ, dist = CI[order], CJ[order], dist[order]
    tie = np.nonzero((CI[1:] == CI[:-1]) & (np.abs(np.diff(dist)) <= 1e-12))[0]
    for v in dict.fromkeys(CI[tie].tolist()):
        at = slice(int(np.searchsorted(CI, v)), int(np.searchsorted(CI, v, side="right")))
        CJ[at] = sorted(CJ[at].tolist(), key=lambda m: (edge_range(units[v], units[m]), units[m].id))
    reach = np.full(len(CJ), limit) if rules.reads("A27", "B") else limit + ur[CJ]
    pair, rolling, knife = _corridor_triples(ux, uy, I, J, CI, CJ, reach)
    ids = np.array([p.id for p in units], dtype=object)
    out = _Runs.of(tuple(ids[CJ[rolling]].tolist()), np.bincount(pair, minlength=len(I)))
    for k in np.flatnonzero(knife).tolist():
        out[k] = tuple(p.id for p in flight_path_units(bf, units[int(I[k])], units[int(J[k])]))
    return out


def _nearest_first(CI: Array, dist: Array, units: int) -> Array:
    """The order sorting firer-major candidates (``CI`` non-decreasing, each firer's in the order of their ids) by
    firer, then distance, ties kept in id order: ``np.lexsort((CJ, dist, CI))``. Each firer's distances are sorted in
    a row of their own (rows padded with infinity past a firer's count), many short sorts being far cheaper than one
    long one by three keys."""
    count = np.bincount(CI, minlength=units)
    start = np.cumsum(count) - count
    width = int(count.max()) if len(CI) else 0
    rows = np.full((units, width), np.inf)
    rows[CI, np.arange(len(CI)) - start[CI]] = dist
    order: Array = (np.argsort(rows, axis=1, kind="stable") + start[:, None])[
        np.arange(width)[None, :] < count[:, None]]
    return order


_CORRIDOR_SLACK = 1e-6      # inches added to a candidate's reach when choosing the targets it may lie beside
_ROW = 20.0                 # apart in the keys of the firers' targets: a range of directions reaches at most 3π either way


def _corridor_triples(ux: Array, uy: Array, I: Array, J: Array, CI: Array, CJ: Array,
                      reach: Array) -> tuple[Array, Array, Array]:
    """Which candidates lie within reach of each firer-target path.

    ``ux, uy``: the units' centres; ``I, J``: the pairs (firer, target), firer-major; ``CI, CJ, reach``: the
    candidates (firer, candidate unit), firer-major, and how far from the path each may stand. Returns the rolling
    (pair, candidate) as two index arrays, pairs in order and each pair's candidates in theirs, and per pair whether
    some candidate stands within a hair of its reach (the caller asks the reference).

    A candidate farther than its reach from the firer can lie within reach of a path only if the path's direction
    is within ``asin(reach / distance)`` of the candidate's: each candidate is tested against the targets in that
    range of directions only, found by binary search among its firer's targets sorted by direction."""
    n, nc = len(I), len(CI)
    if n == 0 or nc == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(n, dtype=bool)
    count = np.bincount(I, minlength=len(ux))          # targets per firer
    first = np.cumsum(count) - count                     # where each firer's pairs begin
    dx, dy = ux[J] - ux[I], uy[J] - uy[I]                # per pair
    ll = dx * dx + dy * dy
    # Each firer's targets by direction, the list repeated 2π below and above it so that a range across ±π needs no
    # cut; firers kept apart by _ROW.
    heading = np.arctan2(dy, dx) + _ROW * I
    by_heading = np.argsort(heading)
    v = I[by_heading]
    slot = 2 * first[v] + np.arange(n)                  # firer v's keys begin at 3 * first[v]
    keys = np.empty(3 * n)
    pair_at = np.empty(3 * n, dtype=np.int64)
    for k, turn in enumerate((-TWO_PI, 0.0, TWO_PI)):
        at = slot + k * count[v]
        keys[at] = heading[by_heading] + turn
        pair_at[at] = by_heading
    px, py = ux[CJ] - ux[CI], uy[CJ] - uy[CI]            # per candidate, from its firer
    wide = reach + _CORRIDOR_SLACK
    gap = np.hypot(px, py)
    around = gap <= wide                                 # beside the firer: every direction
    half = np.arcsin(np.minimum(1.0, wide / np.where(around, 1.0, gap))) + 1e-9
    toward = np.arctan2(py, px) + _ROW * CI
    lo = np.searchsorted(keys, toward - half, side="left")
    hi = np.searchsorted(keys, toward + half, side="right")
    whole = np.flatnonzero(around)
    lo[whole] = 3 * first[CI[whole]] + count[CI[whole]]
    hi[whole] = lo[whole] + count[CI[whole]]
    span = hi - lo
    run = np.repeat(np.arange(nc), span)                 # the candidate of each row
    pair = pair_at[np.arange(len(run)) + np.repeat(lo - (np.cumsum(span) - span), span)]
    # The candidate's squared distance from the centre-to-centre path; off the firer's end it is the distance to the
    # firer, off the target's end to the target; a target on the firer makes a path of one point.
    inverse = np.where(ll > 0, 1.0 / np.where(ll > 0, ll, 1.0), 0.0)
    qx, qy, ex, ey, el = px[run], py[run], dx[pair], dy[pair], ll[pair]
    along = ex * qx + ey * qy
    across = ex * qy - ey * qx
    near_end = (px * px + py * py)[run]
    gap2 = np.where(along <= 0.0, near_end, across * across * inverse[pair])
    gap2 = np.where(along >= el, near_end - 2.0 * along + el, gap2)
    r = reach[run]
    target = CJ[run] == J[pair]
    knife = np.zeros(n, dtype=bool)
    knife[pair[np.flatnonzero((gap2 >= (r - _BAND_KNIFE) ** 2) & (gap2 <= (r + _BAND_KNIFE) ** 2) & ~target)]] = True
    rolling = np.flatnonzero((gap2 <= r * r) | target)
    # Rows come candidate by candidate, each firer's nearest first: a stable sort by pair keeps that order within
    # each pair (a radix sort when the pairs fit 16 bits).
    key = pair[rolling]
    rolling = rolling[np.argsort(key.astype(np.uint16) if n <= 1 << 16 else key, kind="stable")]
    return pair[rolling], run[rolling], knife


def _ragged(counts: Array) -> tuple[Array, Array]:
    """For runs of the given lengths: the run of each element and its position inside the run."""
    total = int(counts.sum())
    run = np.repeat(np.arange(len(counts)), counts)
    return run, np.arange(total) - (np.cumsum(counts) - counts)[run]


def _exposure_bounded(table: _Table, vx: Array, vy: Array, vr: Array, qx: Array, qy: Array, radius: float,
                      e_holds: Array, q_of: dict[str, Array], a10_open: bool, D: Array,
                      psi: Array) -> tuple[Array, Any, Any, Any]:
    """A9 option B on the exposure grid: visible (viewers, points), and the undecided sight lines (viewer indices,
    point indices, and the blocking features that may reach each one's cone).

    Most sight lines are settled by bounds (``fast_geometry.ShadowBounds``): if the hulls of the blocking features
    can hide at most half of the target's cone it is visible; if convex pieces that every ray enters before the
    target's base hide more than half, it is not. The rest (the penumbrae) go through the exact sweep.

    Each viewer's sight lines are worked apart from the others', so a few viewers are worked at a time (about
    ``BOUNDED_CHUNK`` sight lines): the arrays of each step of the work, a few candidates per sight line, then stay
    in the processor's cache rather than streaming through memory (at a 0.25" grid of 16 enemies they are several
    megabytes each, and the bounds took about a sixth longer worked all at once).
    """
    ne, g = len(vx), len(qx)
    nb = len(table.blocking)
    if nb == 0:
        return (np.ones((ne, g), dtype=bool), np.zeros(0, np.int64), np.zeros(0, np.int64),
                np.zeros((0, nb), dtype=bool))
    parts = table.convex_parts()
    b = table.seen_from(vx, vy, vr, radius)[0]
    step = max(1, BOUNDED_CHUNK // max(g, 1))
    if step >= ne:
        return _bounded_rows(table, parts, b, vx, vy, vr, qx, qy, radius, e_holds, q_of, a10_open, D, psi)
    visible = np.empty((ne, g), dtype=bool)
    ues, uqs, reaches = [], [], []
    for e0 in range(0, ne, step):
        at = slice(e0, min(ne, e0 + step))
        v, ue, uq, r = _bounded_rows(table, parts, _ViewerRows(b, at), vx[at], vy[at], vr[at], qx, qy, radius,
                                     e_holds[at], q_of, a10_open, D[at], psi[at])
        visible[at] = v
        ues.append(ue + e0)
        uqs.append(uq)
        reaches.append(r)
    return visible, np.concatenate(ues), np.concatenate(uqs), np.concatenate(reaches)


BOUNDED_CHUNK = 1 << 15     # sight lines of the exposure bounds worked at once (a 0.25" grid's are 20,736 a viewer)


class _ViewerRows:
    """``ShadowBounds`` of some of its viewers (``rows``): their rows of its (viewer, feature) arrays, as views, and
    its samples' arrays whole (the rows' offsets point into them)."""

    def __init__(self, b: ShadowBounds, rows: slice):
        self.ok, self.dist, self.reach, self.rho = b.ok[rows], b.dist[rows], b.reach[rows], b.rho[rows]
        self.phi1, self.phi2, self.eps, self.lo, self.h = b.phi1[rows], b.phi2[rows], b.eps[rows], b.lo[rows], b.h[rows]
        self.K, self.err, self.soff = b.K[rows], b.err[rows], b.soff[rows]
        self.lam1, self.lam2, self.poff, self.near, self.mu1, self.mu2 = b.lam1, b.lam2, b.poff, b.near, b.mu1, b.mu2


def _bounded_rows(table: _Table, parts: ConvexParts, b: ShadowBounds | _ViewerRows, vx: Array, vy: Array, vr: Array,
                  qx: Array, qy: Array, radius: float, e_holds: Array, q_of: dict[str, Array], a10_open: bool, D: Array,
                  psi: Array) -> tuple[Array, Any, Any, Any]:
    """``_exposure_bounded`` for some viewers: everything indexed by viewer is theirs alone, ``b`` included."""
    ne, g = len(vx), len(qx)
    nb = len(table.blocking)
    visible = np.ones((ne, g), dtype=bool)
    none = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, nb), dtype=bool))
    edges = table.blocking_edges
    bi = table.blocking_index
    blocked_by_probe = None if a10_open else q_of["blocking"]
    blocked_by_viewer = None if a10_open else e_holds[:, bi]

    # Every sight line: the distance D between centres, the distance d from the viewer's closest point P to the
    # point (D - rv; recomputed as the reference does where it decides whether the bases overlap), the direction
    # psi of P from the viewer's centre (also that from P to the point), the cone's half-width alpha.
    # A point within the viewer's own base (D <= rv) is seen from a P beyond it: those few go to the exact sweep.
    d = D - vr[:, None]
    within = D <= vr[:, None] + 1e-6
    edge_e, edge_q = nonzero_2d((np.abs(d - (radius + EPS)) <= 1e-9) | within)
    if len(edge_e):
        px, py, _ = _viewer_points(vx[edge_e], vy[edge_e], vr[edge_e], qx[edge_q], qy[edge_q])
        d[edge_e, edge_q] = np.hypot(qx[edge_q] - px, qy[edge_q] - py)
    active = d > radius + EPS
    within &= active
    alpha = np.arcsin(np.minimum(1.0, radius / np.where(active, d, 2 * radius)))

    # Candidates (viewer, point, feature): points whose direction from the viewer lies in the feature's shadow
    # range. Each viewer's points are sorted by distance band, then direction bucket (a radix sort of small
    # integers), and each range is found by binary search. Nearer bands have wider cones; bands wholly in front of a
    # feature are skipped; ranges are cut where they cross ±π. Points no feature can hide (a base over the viewer's,
    # or within its reach) get a key past every range.
    nbands = len(DISTANCE_BANDS) - 1
    band = _BAND_OF_INCH[np.minimum(D, len(_BAND_OF_INCH) - 1).astype(np.int64)]
    key = (band * DIRECTION_BUCKETS + _bucket(psi)).astype(np.int16)
    key[~active | within] = nbands * DIRECTION_BUCKETS
    order = np.argsort(key, axis=1, kind="stable")
    row_key = nbands * DIRECTION_BUCKETS + 1
    sorted_q = order.ravel()                                       # sorted position -> point q
    order = (order + g * np.arange(ne)[:, None]).ravel()          # sorted position -> sight line e * g + q
    # (Each row's keys taken through the flat order: np.take_along_axis is several times slower.)
    sorted_key = (key.ravel()[order].reshape(ne, g) + row_key * np.arange(ne)[:, None]).ravel()
    usable = b.ok if blocked_by_viewer is None else b.ok & ~blocked_by_viewer
    ue, uf = nonzero_2d(usable)
    dist = b.dist[ue, uf][:, None]
    nearest = np.maximum(DISTANCE_BANDS[:-1][None, :], dist - 1e-6)
    wanted = DISTANCE_BANDS[1:][None, :] >= dist - 1e-6
    gam = np.arcsin(np.minimum(1.0, b.reach[ue][:, None] / np.maximum(nearest, 1e-9)))
    ce, cb = nonzero_2d(wanted)
    cf, ce = uf[ce], ue[ce]
    gam = gam[wanted]
    rho, eps = pick(b.rho, ce, cf), pick(b.eps, ce, cf)
    lo = rho + pick(b.phi1, ce, cf) - eps - gam - 1e-9
    hi = rho + pick(b.phi2, ce, cf) + eps + gam + 1e-9
    over, under = hi > math.pi, lo < -math.pi
    seg_e = np.concatenate([ce, ce[over], ce[under]])
    seg_f = np.concatenate([cf, cf[over], cf[under]])
    seg_b = np.concatenate([cb, cb[over], cb[under]])
    seg_lo = np.concatenate([np.maximum(lo, -math.pi), np.full(over.sum(), -math.pi), lo[under] + TWO_PI])
    seg_hi = np.concatenate([np.minimum(hi, math.pi), hi[over] - TWO_PI, np.full(under.sum(), math.pi)])
    base = row_key * seg_e + DIRECTION_BUCKETS * seg_b
    first = np.searchsorted(sorted_key, base + _bucket(seg_lo), side="left")
    last = np.searchsorted(sorted_key, base + _bucket(seg_hi), side="right")
    run, k = _ragged(np.maximum(0, last - first))
    at = first[run] + k
    pair = order[at]
    # ... in front of the point, and not holding it (A10).
    flat_d = d.ravel()
    seg_near = (b.dist - vr[:, None])[seg_e, seg_f] - 1e-9
    keep = seg_near[run] < flat_d[pair]
    if blocked_by_probe is not None:
        keep &= ~blocked_by_probe.ravel()[sorted_q[at] * nb + seg_f[run]]
    keep = np.flatnonzero(keep)         # indices: taking by a boolean mask is several times slower
    run, pair = run[keep], pair[keep]
    f_i = seg_f[run]

    # Features too close to a viewer for the bounds: any sight line whose cone's box meets them is left undecided.
    exact = np.zeros((ne, g), dtype=bool)
    xe, xf = np.nonzero(~b.ok)
    for e, f in zip(xe.tolist(), xf.tolist()):
        if blocked_by_viewer is not None and blocked_by_viewer[e, f]:
            continue
        # P lies within rv of the viewer's centre: a box around both bases holds the cone.
        m = (
            active[e] & (np.minimum(vx[e] - vr[e], qx - radius) <= edges.maxx[f])
            & (np.maximum(vx[e] + vr[e], qx + radius) >= edges.minx[f])
            & (np.minimum(vy[e] - vr[e], qy - radius) <= edges.maxy[f])
            & (np.maximum(vy[e] + vr[e], qy + radius) >= edges.miny[f])
        )
        if blocked_by_probe is not None:
            m &= ~blocked_by_probe[:, f]
        exact[e] |= m

    # Upper bound: the hulls' extents, widened by the sampling slack.
    key = seg_e * nb + seg_f
    seg_rho, seg_lo0, seg_h = b.rho.ravel()[key], b.lo.ravel()[key], b.h.ravel()[key]
    seg_soff, seg_top, seg_err = b.soff.ravel()[key], b.K.ravel()[key] - 1, b.err.ravel()[key]
    rel = _fast_wrap(psi.ravel()[pair] - seg_rho[run])
    # The nearest sample (clipped to the samples while a whole number in floating point: the same one).
    smp = seg_soff[run] + np.minimum(np.maximum(np.rint((rel - seg_lo0[run]) / seg_h[run]), 0.0),
                                     seg_top[run]).astype(np.int64)
    al = alpha.ravel()[pair]
    err = seg_err[run]
    ulen = np.maximum(0.0, np.minimum(b.lam2[smp] + err, rel + al) - np.maximum(b.lam1[smp] - err, rel - al))
    sum_u = np.bincount(pair, weights=ulen, minlength=ne * g).reshape(ne, g)
    sure_visible = ~active | ((sum_u <= alpha * (1 - 1e-9)) & ~exact & ~within)

    # Lower bound: convex pieces that every ray of the cone enters before the target's base, narrowed by the slack.
    hidden: Array = np.zeros(ne * g, dtype=bool)
    reach = ulen > 0
    live = np.nonzero(reach & ~sure_visible.ravel()[pair])[0]
    if len(live):
        npc = parts.feat_pieces[f_i[live]]
        row, j = _ragged(npc)
        lv = live[row]
        m = b.poff[smp[lv]] + j
        pl = pair[lv]
        front = b.near[m] < flat_d[pl] - (radius + 1e-9)
        r0, a0, er = rel[lv], al[lv], err[lv]
        llo = np.maximum(b.mu1[m] + er, r0 - a0) - r0
        lhi = np.minimum(b.mu2[m] - er, r0 + a0) - r0
        good = np.nonzero(front & (lhi > llo))[0]
        if len(good):
            pg, lg, hg = pl[good], llo[good], lhi[good]
            scale = (0.5 + EPS) * 2 * (1 + 1e-9)
            # A line hidden by one piece alone; the others by the union of their pieces.
            hidden[pg[hg - lg > a0[good] * scale]] = True
            rest = np.nonzero(~hidden[pg])[0]
            if len(rest):
                hidden |= union_measure(pg[rest], lg[rest], hg[rest], ne * g) > alpha.ravel() * scale
    hidden = hidden.reshape(ne, g)
    visible = sure_visible & ~hidden
    undecided = ~sure_visible & ~hidden
    ue, uq = nonzero_2d(undecided)
    if len(ue) == 0:
        return (visible, *none)
    # The blocking features that may reach each undecided cone (the others cannot hide any of it).
    slot = np.full(ne * g, -1, dtype=np.int64)
    slot[ue * g + uq] = np.arange(len(ue))
    reaches = (exact[ue, uq][:, None] & (~b.ok[ue])) | within[ue, uq][:, None]
    rows = np.nonzero(reach & undecided.ravel()[pair])[0]
    reaches[slot[pair[rows]], f_i[rows]] = True
    return visible, ue, uq, reaches


def exposure_fast(bf: Battlefield, side: str, step: float = 0.5, radius: float = PROBE_RADIUS,
                  sweep: bool = True) -> ExposureGrid:
    """For a unit of ``side`` at each grid point, how many ``watchers`` could see it, and the cheapest Target counter
    on it (``exposure_reference``).

    ``sweep``: the cover along each sight line is measured on the rays from each enemy's centre
    (``fast_geometry.RayCells``); without it, segment by segment against each feature's edges, as the sight lines
    are (``fast_geometry.segment_lengths``): the earlier way, kept to check the sweep against."""
    cols, rows = grid_shape(bf, step)
    enemies = watchers(bf, side)
    if not enemies or cols == 0 or rows == 0:
        return ExposureGrid(step, cols, rows, [[0] * cols for _ in range(rows)], [[None] * cols for _ in range(rows)])
    counts, cheapest = _exposure_points(bf, side, enemies, step, None, radius, sweep)
    # Python ints, None where no enemy can Target: made by numpy rather than one comparison at a time.
    price_objects = cheapest.astype(object)
    price_objects[cheapest < 0] = None
    prices = price_objects.reshape(rows, cols).tolist()
    return ExposureGrid(step, cols, rows, counts.reshape(rows, cols).tolist(), prices)


def exposure_cells(bf: Battlefield, side: str, step: float, cells: Array,
                   radius: float = PROBE_RADIUS) -> tuple[Array, Array]:
    """``exposure_fast``'s figures at some of its grid's points only (``cells``: flat indices ``row * columns +
    column``): how many watchers see each, and its cheapest Target counter (-1 where none can Target). Each point's
    sight lines are worked out on their own, so a point's figures are the whole map's there, to the last digit."""
    cols, rows = grid_shape(bf, step)
    enemies = watchers(bf, side)
    cells = np.asarray(cells, dtype=np.int64)
    if not enemies or cols == 0 or rows == 0 or len(cells) == 0:
        return np.zeros(len(cells), dtype=np.int64), np.full(len(cells), -1, dtype=np.int64)
    return _exposure_points(bf, side, enemies, step, cells, radius, True)


class ExposureTiles:
    """An exposure map (``table_sight.ExposureMap``) worked out a tile of ``TILE`` by ``TILE`` points at a time, as
    its points are asked for: a player weighing where its units may go reads the points in their reach, not the
    whole table, and most of a map's points were never read. The same figures at every point as ``exposure_fast``."""

    TILE = 8

    def __init__(self, bf: Battlefield, side: str, step: float):
        self.bf, self.side, self.step = bf, side, step
        self.columns, self.rows = grid_shape(bf, step)
        self._counts = [0] * (self.columns * self.rows)
        self._prices: list[int | None] = [None] * (self.columns * self.rows)
        self._tiles_across = -(-self.columns // self.TILE)
        self._done: set[int] = set()

    def fetch(self, i0: int, i1: int, j0: int, j1: int) -> None:
        self.fetch_regions([(i0, i1, j0, j1)])

    def fetch_regions(self, regions: list[tuple[int, int, int, int]]) -> None:
        t = self.TILE
        todo: list[int] = []
        for i0, i1, j0, j1 in regions:
            i0, i1 = max(0, i0), min(self.columns, i1)
            j0, j1 = max(0, j0), min(self.rows, j1)
            if i0 >= i1 or j0 >= j1:
                continue
            todo += [k for k in (ty * self._tiles_across + tx for ty in range(j0 // t, (j1 - 1) // t + 1)
                                 for tx in range(i0 // t, (i1 - 1) // t + 1)) if k not in self._done]
        todo = list(dict.fromkeys(todo))
        if not todo:
            return
        cells: list[int] = []
        for k in todo:
            ty, tx = divmod(k, self._tiles_across)
            for j in range(ty * t, min(self.rows, ty * t + t)):
                cells.extend(range(j * self.columns + tx * t, j * self.columns + min(self.columns, tx * t + t)))
        counts, cheapest = exposure_cells(self.bf, self.side, self.step, np.array(cells, dtype=np.int64))
        for c, n, p in zip(cells, counts.tolist(), cheapest.tolist()):
            self._counts[c] = n
            self._prices[c] = None if p < 0 else p
        self._done.update(todo)

    def count(self, i: int, j: int) -> int:
        if (j // self.TILE) * self._tiles_across + i // self.TILE not in self._done:
            self.fetch(i, i + 1, j, j + 1)
        return self._counts[j * self.columns + i]

    def price(self, i: int, j: int) -> int | None:
        if (j // self.TILE) * self._tiles_across + i // self.TILE not in self._done:
            self.fetch(i, i + 1, j, j + 1)
        return self._prices[j * self.columns + i]


def _exposure_points(bf: Battlefield, side: str, enemies: list[Piece], step: float, cells: Array | None,
                     radius: float, sweep: bool) -> tuple[Array, Array]:
    """The watchers' count and the cheapest price at the grid's points (``cells`` of them, or all)."""
    cols, rows = grid_shape(bf, step)
    _keep_large_work_in_heap()
    table = _table(bf)
    grid_holds = _probe_holds(bf, table, step)
    q_of = {what: table.of_grid(grid_holds, what) for what in ("blocking", "cover", "band")}
    if cells is None:
        gx = (np.arange(cols) + 0.5) * step
        gy = (np.arange(rows) + 0.5) * step
        qx = np.tile(gx, rows)
        qy = np.repeat(gy, cols)
        q_holds = grid_holds
    else:
        qx = (cells % cols + 0.5) * step
        qy = (cells // cols + 0.5) * step
        q_holds = grid_holds[cells]
        q_of = {what: grid[cells] for what, grid in q_of.items()}
    ex, ey, er = _arrays(enemies)
    e_holds = table.holds(ex, ey)
    ne, g = len(enemies), len(qx)
    a10_open = bf.rulings.reads("A10", "A")
    radius = float(radius)
    # Each sight line's distance between centres and direction from the viewer's centre.
    dx, dy = qx[None, :] - ex[:, None], qy[None, :] - ey[:, None]
    D, psi = norm(dx, dy), np.arctan2(dy, dx)
    if bf.rulings.reads("A9", "A"):
        e_idx, q_idx = np.repeat(np.arange(ne), g), np.tile(np.arange(g), ne)
        visible = np.zeros((ne, g), dtype=bool)
        reach = None
    else:
        visible, e_idx, q_idx, reach = _exposure_bounded(table, ex, ey, er, qx, qy, radius, e_holds, q_of, a10_open,
                                                         D, psi)
    if len(e_idx):
        tr = np.full(len(e_idx), radius)
        allowed = _allowed(bf, table, e_holds, e_idx, q_holds, q_idx)
        if reach is not None:
            allowed &= reach
        fraction, knife = _sight(bf, table, ex[e_idx], ey[e_idx], er[e_idx], qx[q_idx], qy[q_idx], tr, allowed)
        visible[e_idx, q_idx] = fraction <= 0.5 + EPS
        for k in np.nonzero(knife)[0].tolist():
            e, q = int(e_idx[k]), int(q_idx[k])
            probe = exposure_probe(side, float(qx[q]), float(qy[q]), radius)
            visible[e, q] = line_of_sight(bf, enemies[e], probe).visible
    counts = visible.sum(axis=0)
    cheapest = _exposure_prices(bf, table, enemies, ex, ey, er, e_holds, qx, qy, q_of, radius, visible, side,
                                D, psi, sweep)
    return counts, cheapest


_SWEPT_KNIFE = 1e-7      # inches: a swept length this close to a threshold the rules compare it with goes to the reference
_BAND_KNIFE = 1e-9       # a distance this close to the A58 tolerance around a band boundary goes to the reference
_ARC_KNIFE = 1e-7        # degrees: a bearing this close to the edge of the 180° arc goes to the reference


def _bands(bf: Battlefield, d: Array, size: Array | float) -> tuple[Array, Array]:
    """``ranges.band_index`` for arrays of distances (one band size per distance), and the knife-edge flags."""
    q = d / size
    nearest = np.rint(q)
    off = np.abs(d - nearest * size)
    q = np.where(off <= EPS, nearest, q)
    knife = np.abs(off - EPS) <= _BAND_KNIFE
    if bf.rulings.reads("A2", "B"):
        return np.maximum(1, np.ceil(q)).astype(np.int64), knife
    return np.where(d <= 0, 1, np.floor(q).astype(np.int64) + 1), knife


def _exposure_prices(bf: Battlefield, table: _Table, enemies: Sequence[Piece], ex: Array, ey: Array, er: Array,
                     e_holds: Array, qx: Array, qy: Array, q_of: dict[str, Array], radius: float, visible: Array,
                     side: str, centre_d: Array, centre_psi: Array, sweep: bool = True) -> Array:
    """The cheapest Target counter on a probe at each point, as ``targeting.target_price(...).cost(1)`` gives it for
    every enemy that may Target and sees the point; -1 where none can (``table_sight.exposure_reference``).

    Per sight line: the range band (``ranges.band_index``), the probe's own cover (``sight.cover_of``), the arc
    (``geometry.in_arc``, price doubled outside), and the intervening features along the A6 segment (``sight.cover``:
    1 counter eaten per Light one, 2 per Heavy one, blocked beyond 3" of Heavy, A7 and A8 as the rulings say).

    The price per counter is a lower bound of the cost (eaten counters only add to it), and it needs no terrain
    crossing: the intervening terrain is measured first for each point's cheapest sight lines, then only for those
    whose bound is below the best cost found (the others cannot be the cheapest).
    """
    g = len(qx)
    none = np.iinfo(np.int64).max
    best = np.full(g, none, dtype=np.int64)
    able = np.array([can_target(e)[0] for e in enemies], dtype=bool)
    E, Q = nonzero_2d(visible & able[:, None])
    if len(E) == 0:
        return np.full(g, -1, dtype=np.int64)
    rules = bf.rulings
    n = len(E)
    flat = E * g + Q
    vr = er[E]
    size = np.array([target_band_inches(bf, e) for e in enemies])[E]
    dc, psi = centre_d.ravel()[flat], centre_psi.ravel()[flat]
    d = np.maximum(0.0, dc - vr - radius)
    band, knife = _bands(bf, d, size)
    # The probe's cover: the best feature holding its centre.
    own = q_of["band"]
    base = band + own[Q]
    # The arc of trooper viewers (A12): the bearing of the probe's centre off facing, boundary included.
    trooper = np.array([e.has_arc for e in enemies], dtype=bool)[E]      # troopers, drones under A12 B
    facing = np.array([e.facing for e in enemies], dtype=float)[E]
    turn = np.degrees(psi) - facing + 180.0
    if len(facing) and (facing.min() < 0.0 or facing.max() > 360.0):
        turn %= 360.0
    else:           # within [-360, 360]: what ``% 360`` gives, bit for bit, without its cost
        turn = np.where(turn < 0.0, turn + 360.0, np.where(turn >= 360.0, turn - 360.0, turn))
    off = np.abs(turn - 180.0)
    arc = ~trooper | (off <= 90.0 + EPS)
    knife |= trooper & (np.abs(off - (90.0 + EPS)) <= _ARC_KNIFE)
    price = np.where(arc, base, 2 * base)
    eaten_price = price if rules.reads("A50", "A") else base

    # Intervening cover along the A6 segment, for some of the sight lines.
    cover_index, edges = table.cover_edges()
    kind = table.bands[0, cover_index]                      # 1 Light, 2 Heavy

    def segments(idx: np.ndarray) -> tuple[Array, Array, Array, Array]:
        """The A6 segment of each of these sight lines."""
        vx, vy, tx, ty = ex[E[idx]], ey[E[idx]], qx[Q[idx]], qy[Q[idx]]
        if rules.reads("A6", "B"):
            sx, sy, _ = _viewer_points(vx, vy, vr[idx], tx, ty)
            return sx, sy, tx, ty
        return _closest_segments(vx, vy, vr[idx], tx, ty, np.full(len(idx), radius))[:4]

    def ray_span(idx: np.ndarray) -> tuple[Array, Array]:
        """The parameters lo .. hi of these sight lines' A6 segments along the vectors between the centres."""
        c = dc[idx]
        safe = np.where(c > 0, c, 1.0)
        return vr[idx] / safe, (np.ones(len(idx)) if rules.reads("A6", "B") else (c - radius) / safe)

    limit = bf.distance(HEAVY_LIMIT)
    # Every A6 segment lies on the ray from its viewer's centre through the target's centre: at parameters lo .. hi
    # of the vector w between the centres (from the viewer's edge to the target's edge or centre).
    rays = None
    if sweep and len(edges):
        rays = table.seen_from(ex, ey, er, radius)[1]
        # Only discs are measured segment by segment: whether a segment starts inside a feature is never asked.
        start_status = np.full((len(ex), len(cover_index)), -1, dtype=np.int8)
    else:
        start_status = _start_status(table, cover_index, ex, ey, er)
    q_cover, e_cover = q_of["cover"], e_holds[:, cover_index]
    # The same tables flat: one (sight line, feature) entry each is read by a single index, far faster than by two.
    nk = len(cover_index)
    q_flat, e_flat = np.ascontiguousarray(q_cover).ravel(), np.ascontiguousarray(e_cover).ravel()

    def costs(idx: np.ndarray) -> np.ndarray:
        m = len(idx)
        eaten: Array = np.zeros(m)
        blocked: Array = np.zeros(m, dtype=bool)
        edge_knife = np.zeros(m, dtype=bool)
        if len(edges) and m:
            qi, ei = Q[idx], E[idx]
            x0, y0, x1, y1 = segments(idx)
            long = np.hypot(x1 - x0, y1 - y0) > EPS
            light, heavy_kind = kind == 1, kind == 2

            def counts(p: Array, f: Array) -> Array:
                """Which (sight line, feature) pairs may count as intervening (``sight.cover``: A7, A8, the Light
                cover the target is in)."""
                t, v = q_flat[qi[p] * nk + f], e_flat[ei[p] * nk + f]
                ok: Array = long[p] & ~(light[f] & t)
                if rules.reads("A8", "B"):
                    ok &= ~(v & ~t)
                if rules.reads("A7", "B"):
                    ok &= ~(heavy_kind[f] & t)
                return ok

            def counts_all(rows: Array) -> Array:
                """``counts`` of these sight lines against every feature, as a (sight lines, features) array: whole
                rows of the tables taken at once (``np.take``) rather than one (sight line, feature) entry at a time."""
                t, v = np.take(q_cover, qi[rows], axis=0), np.take(e_cover, ei[rows], axis=0)
                ok: Array = long[rows][:, None] & ~(light & t)
                if rules.reads("A8", "B"):
                    ok &= ~(v & ~t)
                if rules.reads("A7", "B"):
                    ok &= ~(heavy_kind & t)
                return ok

            boxed = np.arange(m)
            found = None
            if rays is not None:
                # Features seen from outside, by direction from the viewer's centre, then by distance: the segment
                # reaching from short of the feature's farthest point to beyond its nearest one.
                ap, af = rays.candidates(E[idx], psi[idx])
                lo, hi = ray_span(idx)
                ae = E[idx][ap]
                near_end = np.minimum(lo, hi)[ap] * dc[idx][ap]
                far_end = np.maximum(lo, hi)[ap] * dc[idx][ap]
                keep = ((far_end >= pick(rays.gap, ae, af) - 1e-9) & (near_end <= pick(rays.far, ae, af) + 1e-9))
                keep = np.nonzero(keep)[0]
                ap, af = ap[keep], af[keep]
                keep = np.flatnonzero(counts(ap, af))
                found = (ap[keep], af[keep])
                # The rest by boxes: the sight lines of viewers standing within some feature's hull or disc.
                boxed = np.nonzero((~rays.by_direction).any(axis=1)[E[idx]])[0]
            mask = counts_all(boxed)
            if rays is not None:
                mask &= ~np.take(rays.by_direction, E[idx][boxed], axis=0)
            cp, cf = bbox_candidates(*_segment_bbox(x0[boxed], y0[boxed], x1[boxed], y1[boxed]), edges, mask)
            cp = boxed[cp]
            close = near_segments(x0, y0, x1, y1, 0.0, cp, cf, edges)
            close = np.flatnonzero(close)
            cp, cf = cp[close], cf[close]
            if found is not None:
                cp, cf = np.concatenate([cp, found[0]]), np.concatenate([cf, found[1]])
            lengths, k = np.zeros(len(cp)), np.zeros(len(cp), dtype=bool)
            # Polygons on the rays (swept where the viewer stands clear of them, else across their every edge);
            # discs as circles.
            ce = E[idx][cp]
            how = np.zeros(len(cp), dtype=np.int64) if rays is None else np.where(
                pick(rays.ready, ce, cf), 1, np.where(rays.polygon[cf], 2, 0))
            rest = np.nonzero(how == 0)[0]
            lengths[rest], k[rest] = _cover_lengths(bf, table, cover_index, x0, y0, x1, y1, cp[rest], cf[rest], edges,
                                                    pick(start_status, ce[rest], cf[rest]))
            for way, measure in ((1, rays.lengths), (2, rays.lengths_across)) if rays is not None else ():
                on = np.nonzero(how == way)[0]
                if len(on):
                    sp = idx[cp[on]]
                    wx, wy = qx[Q[sp]] - ex[E[sp]], qy[Q[sp]] - ey[E[sp]]
                    lengths[on], k[on] = measure(ce[on], cf[on], wx, wy, lo[cp[on]], hi[cp[on]])
                    near = lengths[on]
                    k[on] |= (np.abs(near - EPS) <= _SWEPT_KNIFE) | (np.abs(near - (limit + EPS)) <= _SWEPT_KNIFE)
            edge_knife[cp[k]] = True
            counted = lengths > EPS
            crossed = np.flatnonzero(counted)
            eaten = np.bincount(cp[crossed], weights=kind[cf[crossed]], minlength=m)
            heavy = np.flatnonzero(counted & (kind[cf] == 2))
            if rules.reads("A6", "B"):
                total = np.bincount(cp[heavy], weights=lengths[heavy], minlength=m)
                blocked = total > limit + EPS
                edge_knife |= np.abs(total - (limit + EPS)) <= _SWEPT_KNIFE
            else:
                blocked[cp[heavy[lengths[heavy] > limit + EPS]]] = True
        out = np.where(blocked, none, eaten.astype(np.int64) * eaten_price[idx] + price[idx])
        for j in np.nonzero(knife[idx] | edge_knife)[0].tolist():
            row = int(idx[j])
            e, q = int(E[row]), int(Q[row])
            tp = target_price(bf, enemies[e], exposure_probe(side, float(qx[q]), float(qy[q]), radius))
            out[j] = tp.cost(1) if tp.allowed else none
        return out

    # Rounds: at each point, the sight lines of the lowest price not measured yet, while that price is below the
    # best cost found there (a cost equal to its price ends the point's search: no other can be cheaper).
    # A sight line whose price is not below its point's best cost never will be (the best only falls): dropped.
    # (Indices taken by ``np.flatnonzero`` rather than boolean masks: several times faster on these long arrays.)
    pending = np.arange(n)
    while True:
        pending = pending[np.flatnonzero(price[pending] < best[Q[pending]])]
        if len(pending) == 0:
            break
        at, cost = Q[pending], price[pending]
        lowest = np.full(g, none, dtype=np.int64)
        np.minimum.at(lowest, at, cost)
        now = cost == lowest[at]
        idx = pending[np.flatnonzero(now)]
        pending = pending[np.flatnonzero(~now)]
        np.minimum.at(best, Q[idx], costs(idx))
    return np.where(best == none, -1, best)


__all__ = ["ExposureTiles", "exposure_cells", "exposure_fast", "prepare", "sightlines_fast"]
