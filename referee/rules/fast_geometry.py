"""Array geometry for the fast whole-table engine.

Terrain polygons become parallel numpy arrays of edges, once per table. The computations below then run over many
(sight line, feature) candidates at once, with no Python loop over pairs or edges:

* ``shadow_measure``: for each sight line (viewer point P, target disc), the angular measure of the directions whose
  segment from P to the target's base passes through a feature's interior. It is exact in the sense of rulings A9
  and A58: every polygon edge is split where it crosses the target's circle; each piece covers the angles between
  its end points (the reference's critical angles: vertices and edge/circle crossings), and one ray through the
  middle of that angular interval decides whether the piece lies in front of the target's base. The union of the
  covered intervals of every candidate feature is the hidden measure.
* ``segment_lengths``: the length of a segment inside a closed polygon (the intervening terrain of A6), from the
  segment's crossings with the edges and a crossing-number test of its start.
* ``ShadowBounds``: cheap guaranteed bounds on the hidden measure, for grids of many sight lines. A feature's convex
  hull hides at most its angular extent; a convex piece inside it that every ray of the cone enters before the
  target's base hides at least its extent. Extents are sampled along the viewer's base, with a Lipschitz slack.

``shadow_measure`` and ``segment_lengths`` report candidates that sit on a floating-point knife edge (a viewer point
on a polygon's boundary, a segment through a vertex or along an edge), so that the caller can answer those few with
the reference implementation.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
import shapely

from .geometry import Geometry

# Every array here is a flat numpy array (floats, indices or flags, as its name says).
Array: TypeAlias = npt.NDArray[Any]

TWO_PI = 2 * math.pi
KNIFE_EDGE = 1e-9          # parameter or distance below which a configuration is treated as degenerate
EDGE_GROUP = 8             # edges per group of ``EdgeTable.groups``
NEAR_LINE = 1e-6           # inches: a group of edges farther than this from a segment's line cannot meet it


def norm(x: Array, y: Array) -> Array:
    """``np.hypot`` without its guard against overflow and its last bit: several times faster, for distances that
    are only compared with a margin far wider than a rounding (never for a length the rules read)."""
    out: Array = np.sqrt(x * x + y * y)
    return out


def _rings(geom: Geometry) -> Iterator[Sequence[Sequence[float]]]:
    if geom.geom_type == "Polygon":
        yield geom.exterior.coords
        for hole in geom.interiors:
            yield hole.coords
    else:
        for part in getattr(geom, "geoms", ()):
            yield from _rings(part)


class EdgeTable:
    """Every edge of a list of polygons; feature ``f`` owns the edges ``start[f] : start[f] + count[f]``.

    Edge ``e`` runs from ``(ax[e], ay[e])`` to ``(bx[e], by[e])``, in ring order as the reference walks them (``bx, by``
    are the very coordinates of the next vertex).
    """

    def __init__(self, geometries: Iterable[Geometry]):
        self.geometries = list(geometries)
        n = len(self.geometries)
        starts, counts, parts = np.zeros(n, np.int64), np.zeros(n, np.int64), list[Array]()
        rings: list[tuple[int, int, int]] = []         # (feature, first edge, edges) of each ring
        total = 0
        for f, g in enumerate(self.geometries):
            starts[f] = total
            local = 0
            for ring in _rings(g):
                c = np.asarray(ring, dtype=float)[:, :2]
                k = len(c) - 1
                if k < 1:
                    continue
                parts.append(np.column_stack([c[:-1], c[1:]]))
                rings.append((f, total + local, k))
                local += k
            counts[f] = local
            total += local
        edges = np.concatenate(parts) if parts else np.zeros((0, 4))
        self.ax, self.ay, self.bx, self.by = (np.ascontiguousarray(edges[:, i]) for i in range(4))
        self.start, self.count = starts, counts
        self.rings = np.array(rings, dtype=np.int64).reshape(-1, 3)
        self.length = np.hypot(self.bx - self.ax, self.by - self.ay)
        self.longest = float(self.length.max()) if len(self.length) else 0.0
        self.eminx, self.emaxx = np.minimum(self.ax, self.bx), np.maximum(self.ax, self.bx)
        self.eminy, self.emaxy = np.minimum(self.ay, self.by), np.maximum(self.ay, self.by)
        if n:
            b = shapely.bounds(np.array(self.geometries, dtype=object))
            self.minx, self.miny, self.maxx, self.maxy = (np.ascontiguousarray(b[:, i]) for i in range(4))
        else:
            self.minx = self.miny = self.maxx = self.maxy = np.zeros(0)
        # A bounding circle per feature: the centre of its box, and its farthest vertex (plus a hair).
        self.cx, self.cy = (self.minx + self.maxx) / 2, (self.miny + self.maxy) / 2
        feat = np.repeat(np.arange(n), counts)
        far = np.hypot(self.ax - self.cx[feat], self.ay - self.cy[feat]) if len(feat) else np.zeros(0)
        self.radius = np.zeros(n)
        np.maximum.at(self.radius, feat, far)
        self.radius = self.radius * (1 + 1e-9) + 1e-9

        self._groups: tuple[Array, ...] | None = None
        self._hulls: tuple[Array, Array, Array] | None = None

    def __len__(self) -> int:
        return len(self.geometries)

    def hulls(self) -> tuple[Array, Array, Array]:
        """Each feature's convex hull, prepared, and the hull's centroid (built on first use)."""
        if self._hulls is None:
            hulls = shapely.convex_hull(np.array(self.geometries, dtype=object)) if self.geometries else np.zeros(0, object)
            shapely.prepare(hulls)
            centre = shapely.centroid(hulls)
            self._hulls = (hulls, shapely.get_x(centre), shapely.get_y(centre))
        return self._hulls

    def groups(self) -> tuple[Array, ...]:
        """Runs of at most ``EDGE_GROUP`` consecutive edges of one ring, each with the box of its edges, for
        finding the edges near a segment without looking at every edge of a many-sided feature (a crater's disc).
        Returns (first group of each feature, groups per feature, first edge, edges, minx, miny, maxx, maxy, x, y):
        ``x, y`` hold each group's ``EDGE_GROUP + 1`` vertices in ring order (edge k runs from vertex k to k + 1),
        the last repeated past its count."""
        if self._groups is None:
            n = len(self.geometries)
            ring_feat, ring_start, ring_count = self.rings.T
            chunks = (ring_count + EDGE_GROUP - 1) // EDGE_GROUP          # a group never spans two rings
            ring = np.repeat(np.arange(len(ring_count)), chunks)
            k = np.arange(int(chunks.sum())) - (np.cumsum(chunks) - chunks)[ring]
            start = ring_start[ring] + k * EDGE_GROUP
            count = np.minimum(EDGE_GROUP, ring_count[ring] - k * EDGE_GROUP)
            per = np.bincount(ring_feat[ring], minlength=n).astype(np.int64)
            first = np.cumsum(per) - per
            if len(start):
                boxes = [np.minimum.reduceat(self.eminx, start), np.minimum.reduceat(self.eminy, start),
                         np.maximum.reduceat(self.emaxx, start), np.maximum.reduceat(self.emaxy, start)]
            else:
                boxes = [np.zeros(0)] * 4
            edge = start[:, None] + np.minimum(np.arange(EDGE_GROUP + 1)[None, :], count[:, None] - 1)
            tail = np.arange(EDGE_GROUP + 1)[None, :] >= count[:, None]      # past the last edge: its far end
            x = np.where(tail, self.bx[edge], self.ax[edge]) if len(start) else np.zeros((0, EDGE_GROUP + 1))
            y = np.where(tail, self.by[edge], self.ay[edge]) if len(start) else np.zeros((0, EDGE_GROUP + 1))
            self._groups = (first, per, start, count, *boxes, np.ascontiguousarray(x), np.ascontiguousarray(y))
        return self._groups


def nonzero_2d(mask: Array) -> tuple[Array, Array]:
    """``np.nonzero`` of a 2-D array, the same indices in the same order: the flat indices split into row and column,
    several times faster than numpy's own 2-D walk (600 -> 130 us for 8,192 x 12)."""
    flat = np.flatnonzero(mask)
    rows = flat // mask.shape[1]
    cols: Array = flat - rows * mask.shape[1]
    return rows, cols


def pick(table: Array, rows: Array, cols: Array) -> Array:
    """``table[rows, cols]`` for a 2-D table, taken by one flat index: about twice as fast as by two index arrays."""
    out: Array = table.ravel()[rows * table.shape[1] + cols]
    return out


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values of an integer array, sorted: ``np.unique`` without its import of ``numpy.ma`` (about
    13 ms, paid inside the first computation that needs it)."""
    s = np.sort(values)
    if len(s) < 2:
        return s
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def _edges_in_boxes(edge: Array, minx: Array, miny: Array, maxx: Array, maxy: Array, edges: EdgeTable,
                    margin: float = 1e-6) -> Array:
    """Rows whose edge's box meets the row's box (grown by ``margin``)."""
    return np.nonzero(
        (edges.eminx[edge] <= maxx + margin) & (edges.emaxx[edge] >= minx - margin)
        & (edges.eminy[edge] <= maxy + margin) & (edges.emaxy[edge] >= miny - margin)
    )[0]


def expand(cand_feat: Array, edges: EdgeTable) -> tuple[Array, Array]:
    """One row per (candidate, edge of its feature): the candidate of each row and its global edge index."""
    cnt = edges.count[cand_feat]
    row_cand = np.repeat(np.arange(len(cand_feat)), cnt)
    first = np.cumsum(cnt) - cnt
    edge = edges.start[cand_feat][row_cand] + (np.arange(int(cnt.sum())) - first[row_cand])
    return row_cand, edge


def bbox_candidates(minx: Array, miny: Array, maxx: Array, maxy: Array, edges: EdgeTable,
                    allowed: Array | None = None) -> tuple[Array, Array]:
    """(item, feature) index pairs whose bounding boxes overlap, item-major (the order of the items)."""
    hit = (
        (minx[:, None] <= edges.maxx[None, :]) & (maxx[:, None] >= edges.minx[None, :])
        & (miny[:, None] <= edges.maxy[None, :]) & (maxy[:, None] >= edges.miny[None, :])
    )
    if allowed is not None:
        hit &= allowed
    return nonzero_2d(hit)


def near_segments(x0: Array, y0: Array, x1: Array, y1: Array, pad: Array | float, cand_pair: Array, cand_feat: Array,
                  edges: EdgeTable) -> Array:
    """Which candidates' features come within ``pad`` of their pair's segment (x0, y0) -> (x1, y1), judged by the
    features' bounding circles (never wrongly false)."""
    ax, ay = x0[cand_pair], y0[cand_pair]
    dx, dy = x1[cand_pair] - ax, y1[cand_pair] - ay
    qx, qy = edges.cx[cand_feat] - ax, edges.cy[cand_feat] - ay
    ll = dx * dx + dy * dy
    t = np.clip((qx * dx + qy * dy) / np.where(ll > 0, ll, 1.0), 0.0, 1.0)
    gx, gy = qx - t * dx, qy - t * dy
    gap = norm(gx, gy)
    p = pad[cand_pair] if isinstance(pad, np.ndarray) and pad.ndim else pad
    close: Array = gap <= edges.radius[cand_feat] + p + 1e-9
    return close


def _wrap(a: Array) -> Array:
    """``(a + π) % 2π - π`` as the reference computes it, bit for bit, for a in [-2π, 2π] (float ``%`` is slow)."""
    t = a + math.pi
    return np.where(t >= TWO_PI, t - TWO_PI, np.where(t < 0.0, t + TWO_PI, t)) - math.pi


def _group_order(group: np.ndarray, value: np.ndarray) -> np.ndarray:
    """An order sorting by group, then by value (values within about 1e-12 of each other may tie either way).

    Integer keys sort far faster than ``lexsort`` on floats; ``value`` must lie in [-4, 4].
    """
    if len(group) and int(group.max()) < (1 << 19):
        q = np.floor((value + 4.0) * 2.0 ** 40).astype(np.int64)
        return np.argsort(group.astype(np.int64) << 43 | q, kind="stable")
    return np.lexsort((value, group))


def _segmented_running_max(group: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Running maximum of ``value`` within runs of equal ``group`` (a Hillis-Steele scan: exact, log-many steps)."""
    out = value.copy()
    n, shift = len(out), 1
    while shift < n:
        same = group[shift:] == group[:-shift]
        if not same.any():
            break
        out[shift:] = np.where(same, np.maximum(out[shift:], out[:-shift]), out[shift:])
        shift *= 2
    return out


def union_measure(pair: np.ndarray, lo: np.ndarray, hi: np.ndarray, npairs: int) -> np.ndarray:
    """Per pair, the measure of the union of its intervals [lo, hi] (sorted by start, with a running maximum end).

    Angles must lie in [-4, 4]."""
    m = len(pair)
    if m == 0:
        return np.zeros(npairs)
    order = _group_order(pair, lo)
    p, l, h = pair[order], lo[order], hi[order]
    running = _segmented_running_max(p, h)
    begin = l.copy()
    same = np.zeros(m, dtype=bool)
    same[1:] = p[1:] == p[:-1]
    begin[1:] = np.where(same[1:], np.maximum(l[1:], running[:-1]), l[1:])
    return np.bincount(p, weights=np.maximum(0.0, h - begin), minlength=npairs)


def shadow_measure(px: Array, py: Array, cx: Array, cy: Array, r: Array, d: Array, theta0: Array, alpha: Array,
                   cand_pair: Array, cand_feat: Array, p_inside: Array, edges: EdgeTable,
                   extra: tuple[Array, Array, Array] | None = None) -> Array:
    """Per sight line, the measure in radians of the directions (within ``theta0 ± alpha``) hidden by its candidates.

    ``px, py``: the viewer's closest point; ``cx, cy, r``: the target's base; ``d, theta0, alpha``: the distance from P
    to the target's centre, its direction, and the half-width ``asin(r / d)``. ``cand_pair, cand_feat``: the
    (sight line, feature) candidates; ``p_inside``: per candidate, P lies inside the feature (everything hidden).
    ``extra``: further hidden intervals (sight line, lo, hi), such as the discs' (``disc_shadow``).
    """
    npairs = len(px)
    first, per, gstart, gcount, gminx, gminy, gmaxx, gmaxy, gx, gy = edges.groups()
    # An edge wholly beyond one side of the cone (both ends outside the same bounding line) hides nothing. Whole
    # groups of edges first, by their boxes: the box's least (or greatest) value of a bounding line's cross product
    # bounds every vertex's, so a group left out here has only edges that the test of each edge leaves out.
    lx, ly = np.cos(theta0 + alpha), np.sin(theta0 + alpha)
    rx, ry = np.cos(theta0 - alpha), np.sin(theta0 - alpha)
    cnt = per[cand_feat]
    row_cand = np.repeat(np.arange(len(cand_feat)), cnt)
    grp = first[cand_feat][row_cand] + (np.arange(int(cnt.sum())) - (np.cumsum(cnt) - cnt)[row_cand])
    rp = cand_pair[row_cand]
    PX, PY = px[rp], py[rp]
    LX, LY, RX, RY = lx[rp], ly[rp], rx[rp], ry[rp]
    x0, x1, y0, y1 = gminx[grp] - PX, gmaxx[grp] - PX, gminy[grp] - PY, gmaxy[grp] - PY
    left = np.minimum(LX * y0, LX * y1) - np.maximum(LY * x0, LY * x1) > 0
    right = np.maximum(RX * y0, RX * y1) - np.minimum(RY * x0, RY * x1) < 0
    keep = np.nonzero(~(left | right))[0]
    grp, rp, PX, PY, LX, LY, RX, RY = (v[keep] for v in (grp, rp, PX, PY, LX, LY, RX, RY))
    # Then each edge of the groups left, from its group's vertices in ring order (edge k runs from vertex k to k + 1).
    vx, vy = _rows_less(gx, grp, PX), _rows_less(gy, grp, PY)
    # Each vertex's side of the bounding lines (the cross products worked in two arrays, reused), each vertex compared
    # once, not once per edge.
    cross, part = LX[:, None] * vy, LY[:, None] * vx
    cross -= part
    left_of = cross > 0
    np.multiply(RX[:, None], vy, out=cross)
    np.multiply(RY[:, None], vx, out=part)
    cross -= part
    right_of = cross < 0
    beyond = (left_of[:, :-1] & left_of[:, 1:]) | (right_of[:, :-1] & right_of[:, 1:])
    slot = np.arange(EDGE_GROUP)
    rows = np.flatnonzero(~beyond & (slot[None, :] < gcount[grp][:, None]))
    row = rows // EDGE_GROUP
    edge = gstart[grp][row] + rows % EDGE_GROUP
    rp = rp[row]
    PX, PY, T0 = PX[row], PY[row], theta0[rp]
    AX, AY, BX, BY = edges.ax[edge], edges.ay[edge], edges.bx[edge], edges.by[edge]
    dA = _wrap(np.arctan2(AY - PY, AX - PX) - T0)
    dB = _wrap(np.arctan2(BY - PY, BX - PX) - T0)

    # Where each edge crosses the target's circle (the reference's formula, term for term).
    CX, CY, R = cx[rp], cy[rp], r[rp]
    dx, dy = BX - AX, BY - AY
    fx, fy = AX - CX, AY - CY
    a = dx * dx + dy * dy
    b = 2 * (fx * dx + fy * dy)
    c = fx * fx + fy * fy - R * R
    disc = b * b - 4 * a * c
    hit = np.nonzero((disc >= 0) & (a != 0))[0]
    s_ang, e_ang, prow = [dA], [dB], [np.arange(len(rp))]
    if len(hit):
        s = np.sqrt(disc[hit])
        ah, bh = a[hit], b[hit]
        t1 = (-bh - s) / (2 * ah)
        t2 = (-bh + s) / (2 * ah)
        v1 = (t1 >= 0.0) & (t1 <= 1.0)
        v2 = (t2 >= 0.0) & (t2 <= 1.0)
        keep = np.flatnonzero(v1 | v2)
        if len(keep):
            h, t1, t2, v1, v2 = hit[keep], t1[keep], t2[keep], v1[keep], v2[keep]
            hp = PX[h], PY[h], T0[h]

            def angle(t: Array) -> Array:
                hx = AX[h] + t * (BX[h] - AX[h])
                hy = AY[h] + t * (BY[h] - AY[h])
                return _wrap(np.arctan2(hy - hp[1], hx - hp[0]) - hp[2])

            a1 = np.where(v1, angle(t1), dA[h])
            a2 = np.where(v2, angle(t2), dB[h])
            # The whole edge is replaced by its three pieces: A -> H1 -> H2 -> B.
            s_ang[0] = s_ang[0].copy()
            e_ang[0] = e_ang[0].copy()
            e_ang[0][h] = a1
            s_ang += [a1, a2]
            e_ang += [a2, dB[h]]
            prow += [h, h]
    sa, ea, pr = np.concatenate(s_ang), np.concatenate(e_ang), np.concatenate(prow)

    # Each piece covers the short arc between its end angles; clip it to the target's cone.
    al = alpha[rp][pr]
    mn, mx = np.minimum(sa, ea), np.maximum(sa, ea)
    wraps = (mx - mn) > math.pi
    lo = np.where(wraps, np.where(mx < al, mx, -al), mn)
    hi = np.where(wraps, np.where(mx < al, al, mn), mx)
    lo = np.maximum(lo, -al)
    hi = np.minimum(hi, al)
    k = np.nonzero(hi > lo)[0]
    lo, hi, pr = lo[k], hi[k], pr[k]

    # One ray through the middle of each piece's interval: does it meet the piece before the target's base?
    mid = (lo + hi) / 2
    cm, sm = np.cos(mid), np.sin(mid)
    # The ray's direction is the axis's turned by ``mid``; the edge is turned back by the axis's direction instead
    # (a cross product does not change under a rotation), so the ray needs no sine or cosine of its own.
    ca, sa_ = np.cos(theta0), np.sin(theta0)
    c0, s0 = ca[rp][pr], sa_[rp][pr]
    ex, ey = dx[pr], dy[pr]
    wx, wy = AX[pr] - PX[pr], AY[pr] - PY[pr]
    with np.errstate(divide="ignore", invalid="ignore"):
        dist = (wx * ey - wy * ex) / (cm * (c0 * ey - s0 * ex) - sm * (c0 * ex + s0 * ey))
    D, RR = d[rp][pr], R[pr]
    entry = D * cm - np.sqrt(np.maximum(0.0, RR * RR - (D * sm) ** 2))
    front = np.flatnonzero((dist > 0) & (dist < entry))     # indices: taking by a boolean mask is far slower
    pairs = [rp[pr[front]]]
    los, his = [lo[front]], [hi[front]]
    if p_inside is not None and p_inside.any():
        ip = cand_pair[p_inside]
        pairs.append(ip)
        los.append(-alpha[ip])
        his.append(alpha[ip])
    if extra is not None:
        pairs.append(extra[0])
        los.append(extra[1])
        his.append(extra[2])
    return union_measure(np.concatenate(pairs), np.concatenate(los), np.concatenate(his), npairs)


def disc_chords(x0: Array, y0: Array, x1: Array, y1: Array, cx: Array, cy: Array, r: Array) -> tuple[Array, Array]:
    """Per segment, its length inside the disc (``discs.chord``, term for term), and the discriminant of its
    crossings with the circle (near zero: a tangent, a knife edge)."""
    dx, dy = x1 - x0, y1 - y0
    fx, fy = x0 - cx, y0 - cy
    a = dx * dx + dy * dy
    b = 2 * (fx * dx + fy * dy)
    c = fx * fx + fy * fy - r * r
    disc = b * b - 4 * a * c
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(np.maximum(disc, 0.0))
        t1 = (-b - root) / (2 * a)
        t2 = (-b + root) / (2 * a)
    inside = np.clip(np.minimum(t2, 1.0) - np.maximum(t1, 0.0), 0.0, None)
    return np.where((a > 0) & (disc >= 0), inside * np.hypot(dx, dy), 0.0), disc


def disc_shadow(px: Array, py: Array, theta0: Array, alpha: Array, d: Array, tx: Array, ty: Array, tr: Array,
                bx: Array, by: Array, rb: Array) -> tuple[Array, Array, Array]:
    """``discs.shadow`` over arrays, one row per (sight line, disc) candidate with P outside the disc: the covered
    pieces as (row, lo, hi)."""
    D = np.hypot(bx - px, by - py)
    phi = _wrap(np.arctan2(by - py, bx - px) - theta0)
    beta = np.arcsin(np.minimum(1.0, rb / D))
    lo = np.maximum(-alpha, phi - beta)
    hi = np.minimum(alpha, phi + beta)
    # The directions through the points where the disc's circle crosses the target's.
    dx, dy = bx - tx, by - ty
    d2 = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        dd = np.sqrt(d2)
        a = (tr * tr - rb * rb + d2) / (2 * dd)
        h2 = tr * tr - a * a
        h = np.sqrt(np.maximum(h2, 0.0))
        mx, my = tx + a * dx / dd, ty + a * dy / dd
        ok = (d2 > 0) & (h2 >= 0)
        cuts = [lo]
        for sgn in (-1.0, 1.0):
            qx, qy = mx - sgn * h * dy / dd, my + sgn * h * dx / dd
            c = _wrap(np.arctan2(qy - py, qx - px) - theta0)
            cuts.append(np.where(ok & (c > lo) & (c < hi), c, lo))
    cuts.append(hi)
    cut = np.sort(np.stack(cuts, axis=1), axis=1)
    rows, los, his = [], [], []
    for j in range(3):
        a0, b0 = cut[:, j], cut[:, j + 1]
        k = np.nonzero(b0 - a0 > 1e-12)[0]
        if len(k) == 0:
            continue
        mid = (a0[k] + b0[k]) / 2
        entry = d[k] * np.cos(mid) - np.sqrt(np.maximum(0.0, tr[k] * tr[k] - (d[k] * np.sin(mid)) ** 2))
        along = D[k] * np.cos(mid - phi[k])
        half = np.sqrt(np.maximum(0.0, rb[k] * rb[k] - (D[k] * np.sin(mid - phi[k])) ** 2))
        through = np.minimum(along + half, entry) - np.maximum(along - half, 0.0) > 1e-12
        k = k[through]
        rows.append(k)
        los.append(a0[k])
        his.append(b0[k])
    if not rows:
        return np.zeros(0, np.int64), np.zeros(0), np.zeros(0)
    return np.concatenate(rows), np.concatenate(los), np.concatenate(his)


def _starts_inside(sx: Array, sy: Array, cand_pair: Array, cand_feat: Array, edges: EdgeTable) -> Array:
    """Crossing number of a ray from each candidate's segment start toward +x: every edge of the feature takes
    part."""
    m = len(cand_pair)
    row_cand, edge = expand(cand_feat, edges)
    rp = cand_pair[row_cand]
    S0x, S0y = sx[rp], sy[rp]
    AX, AY, BX, BY = edges.ax[edge], edges.ay[edge], edges.bx[edge], edges.by[edge]
    st = np.nonzero((AY > S0y) != (BY > S0y))[0]
    ray = S0x[st] < AX[st] + (S0y[st] - AY[st]) * (BX[st] - AX[st]) / (BY[st] - AY[st])
    inside: Array = (np.bincount(row_cand[st], weights=ray, minlength=m).astype(np.int64) % 2) == 1
    return inside


def _rows_less(table: Array, rows: Array, value: Array) -> Array:
    """``table[rows] - value[:, None]``, the same figures: the rows taken by ``np.take`` (several times faster than
    indexing for rows of a 2-D array) and the subtraction done in place, into the array just made."""
    out: Array = np.take(table, rows, axis=0)
    out -= value[:, None]
    return out


def _edges_near(sx: Array, sy: Array, tx: Array, ty: Array, box: tuple[Array, Array, Array, Array], cand_pair: Array,
                cand_feat: Array, edges: EdgeTable) -> tuple[Array, Array, Array]:
    """(candidate, edge) rows for the edges that may meet or touch their candidate's segment. Groups of edges are
    tested first, their boxes against the segment's box and against the segment's line (a group whose box lies
    wholly more than NEAR_LINE to one side of the line holds no edge that meets or touches the segment); then each
    edge of the groups left: both its ends clearly on one side of the line, it cannot meet the segment, nor come
    within the knife-edge tolerances of ``segment_lengths``."""
    first, per, gstart, gcount, gminx, gminy, gmaxx, gmaxy, gx, gy = edges.groups()
    cnt = per[cand_feat]
    row_cand = np.repeat(np.arange(len(cand_feat)), cnt)
    grp = first[cand_feat][row_cand] + (np.arange(int(cnt.sum())) - (np.cumsum(cnt) - cnt)[row_cand])
    rp = cand_pair[row_cand]
    minx, miny, maxx, maxy = (v[rp] for v in box)
    margin = 1e-6
    keep = np.flatnonzero((gminx[grp] <= maxx + margin) & (gmaxx[grp] >= minx - margin)
                          & (gminy[grp] <= maxy + margin) & (gmaxy[grp] >= miny - margin))
    row_cand, grp, rp = row_cand[keep], grp[keep], rp[keep]
    x0, y0 = sx[rp], sy[rp]
    dx, dy = tx[rp] - x0, ty[rp] - y0
    # Signed distances (times the segment's length) of the box's corners from the line.
    ax, bx = dy * (gminx[grp] - x0), dy * (gmaxx[grp] - x0)
    ay, by = dx * (gminy[grp] - y0), dx * (gmaxy[grp] - y0)
    hi = np.maximum(ay, by) - np.minimum(ax, bx)
    lo = np.minimum(ay, by) - np.maximum(ax, bx)
    tol = NEAR_LINE * norm(dx, dy)
    keep = np.flatnonzero((lo <= tol) & (hi >= -tol))
    row_cand, grp = row_cand[keep], grp[keep]
    # Each edge of those groups (a row of EDGE_GROUP slots per group, the slots past its count left out): both ends
    # clearly on one side of the line, it cannot meet the segment. The tolerance of ``segment_lengths`` (KNIFE_EDGE
    # times both lengths) is kept with room to spare: ``tol`` grown by the longest edge.
    tol = (tol[keep] * (1.0 + edges.longest))[:, None]
    x0, y0, dx, dy = x0[keep], y0[keep], dx[keep][:, None], dy[keep][:, None]
    side = dx * _rows_less(gy, grp, y0) - dy * _rows_less(gx, grp, x0)         # each vertex of the group
    below, above = side <= tol, side >= -tol                         # each vertex compared once, not once per edge
    slot = np.arange(EDGE_GROUP)[None, :]
    near = np.flatnonzero((slot < gcount[grp][:, None]) & (below[:, :-1] | below[:, 1:]) & (above[:, :-1] | above[:, 1:]))
    edge = gstart[grp][:, None] + slot
    row_cand, edge = row_cand[near // EDGE_GROUP], edge.ravel()[near]
    rp = cand_pair[row_cand]
    return row_cand, edge, rp


def _order_along(cc: Array, ct: Array, ncross: Array) -> Array:
    """The rank of each crossing along its segment (``ct``: its parameter), among its candidate's (``cc``, grouped,
    ``ncross`` per candidate). Most candidates are crossed once or twice: those are ranked without sorting."""
    first = np.cumsum(ncross) - ncross
    j: Array = np.arange(len(cc)) - first[cc]
    count = ncross[cc]
    pos = np.nonzero((count == 2) & (j == 0))[0]
    swap = pos[ct[pos] > ct[pos + 1]]
    j[swap], j[swap + 1] = 1, 0
    many = np.nonzero(count > 2)[0]
    if len(many):
        sub = many[_group_order(cc[many], ct[many])]
        g = cc[sub]
        k = np.arange(len(sub))
        start = np.ones(len(sub), dtype=bool)
        start[1:] = g[1:] != g[:-1]
        j[sub] = k - np.maximum.accumulate(np.where(start, k, 0))
    return j


def segment_lengths(sx: Array, sy: Array, tx: Array, ty: Array, cand_pair: Array, cand_feat: Array, edges: EdgeTable,
                    start_inside: Array | None = None) -> tuple[Array, Array]:
    """Per candidate, the length of its pair's segment (sx, sy) -> (tx, ty) inside its feature, and a flag for the
    candidates on a knife edge (the segment through a vertex, along an edge, or starting or ending on the boundary).

    ``start_inside`` may say, per candidate, whether its segment starts inside its feature (1), outside (0) or
    unknown (-1), when the caller knows it for sure (a start far from the feature's boundary)."""
    m = len(cand_pair)
    if m == 0:
        return np.zeros(0), np.zeros(0, bool)
    if start_inside is None:
        inside0 = _starts_inside(sx, sy, cand_pair, cand_feat, edges)
    else:
        inside0 = np.asarray(start_inside) == 1
        unknown = np.nonzero(np.asarray(start_inside) < 0)[0]
        if len(unknown):
            inside0[unknown] = _starts_inside(sx, sy, cand_pair[unknown], cand_feat[unknown], edges)
    # Crossings and knife edges: only edges near the segment.
    box = np.minimum(sx, tx), np.minimum(sy, ty), np.maximum(sx, tx), np.maximum(sy, ty)
    row_cand, edge, rp = _edges_near(sx, sy, tx, ty, box, cand_pair, cand_feat, edges)
    AX, AY, BX, BY = edges.ax[edge], edges.ay[edge], edges.bx[edge], edges.by[edge]
    S0x, S0y = sx[rp], sy[rp]
    Dx, Dy = tx[rp] - S0x, ty[rp] - S0y
    Ex, Ey = BX - AX, BY - AY
    wx, wy = AX - S0x, AY - S0y
    denom = Dx * Ey - Dy * Ex
    tn = wx * Ey - wy * Ex
    un = wx * Dy - wy * Dx
    seg_len = np.hypot(tx - sx, ty - sy)          # per pair: the rows' lengths gathered, not recomputed
    lenD = seg_len[rp]
    lenE = edges.length[edge]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = tn / denom
        u = un / denom
        parallel = np.abs(denom) <= KNIFE_EDGE * lenD * lenE
        along = parallel & (np.abs(un) <= KNIFE_EDGE * lenD)
        t_in = (t >= -KNIFE_EDGE) & (t <= 1 + KNIFE_EDGE)
        u_in = (u >= -KNIFE_EDGE) & (u <= 1 + KNIFE_EDGE)
        at_vertex = t_in & ((np.abs(u) <= KNIFE_EDGE) | (np.abs(u - 1) <= KNIFE_EDGE))
        at_end = u_in & ((np.abs(t) <= KNIFE_EDGE) | (np.abs(t - 1) <= KNIFE_EDGE))
        proper = ~parallel & (t > KNIFE_EDGE) & (t < 1 - KNIFE_EDGE) & (u > KNIFE_EDGE) & (u < 1 - KNIFE_EDGE)
    knife = np.bincount(row_cand, weights=(along | at_vertex | at_end), minlength=m) > 0

    cr = np.nonzero(proper)[0]
    cc, ct = row_cand[cr], t[cr]                # rows come candidate by candidate
    ncross = np.bincount(cc, minlength=m)
    j = _order_along(cc, ct, ncross)
    inside_before = inside0[cc] ^ (j % 2 == 1)
    signed = np.where(inside_before, ct, -ct)
    param = np.bincount(cc, weights=signed, minlength=m)
    final_inside = inside0 ^ (ncross % 2 == 1)
    param = param + final_inside
    return param * seg_len[cand_pair], knife


# --- Bounds on the hidden measure, for deciding most sight lines of the exposure grid without the exact sweep -------

BOUND_ERROR = 2e-3          # target angular slack (radians) of the sampled extents
NEAR_MARGIN = 0.25          # a feature closer than this to a viewer's base is always handled exactly
WRAP_MARGIN = 0.3


def _convex(geom: Geometry) -> bool:
    """A polygon without holes whose every turn goes the same way (collinear points allowed)."""
    if geom.geom_type != "Polygon" or geom.interiors:
        return False
    c = np.asarray(geom.exterior.coords, dtype=float)[:-1, :2]
    e = np.roll(c, -1, axis=0) - c
    turn = e[:, 0] * np.roll(e[:, 1], -1) - e[:, 1] * np.roll(e[:, 0], -1)
    return bool((turn >= 0).all() or (turn <= 0).all())


CONVEX_KEPT = 4096           # terrain pieces whose convex parts are kept (all are let go when full)
_CONVEX: dict[int, tuple[Geometry, list[Geometry]]] = {}


def convex_parts(geom: Geometry) -> list[Geometry]:
    """Convex polygons inside ``geom`` whose union is ``geom``: itself when convex, else its constrained Delaunay
    triangles merged greedily while the union stays convex. Worked out once for a piece's geometry (kept with its
    parts, by identity): a table's terrain arrays are made again whenever its terrain changes (a crater, a smoke
    cloud), and every other piece of it stands as it stood."""
    held = _CONVEX.get(id(geom))
    if held is None or held[0] is not geom:
        if len(_CONVEX) >= CONVEX_KEPT:
            _CONVEX.clear()
        held = _CONVEX[id(geom)] = (geom, _convex_parts(geom))
    return list(held[1])


def _convex_parts(geom: Geometry) -> list[Geometry]:
    if _convex(geom):
        return [geom]
    pieces = sorted((t for t in shapely.constrained_delaunay_triangles(geom).geoms if t.area > 0),
                    key=lambda t: -t.area)
    merged = True
    while merged:
        merged = False
        for i in range(len(pieces)):
            for j in range(i + 1, len(pieces)):
                if pieces[i].intersection(pieces[j]).length <= 1e-9:
                    continue
                u = pieces[i].union(pieces[j])
                if _convex(u):
                    pieces[i] = u
                    del pieces[j]
                    merged = True
                    break
            if merged:
                break
    return pieces


def _vertex_table(polys: Iterable[Geometry]) -> tuple[Array, Array, Array, Array]:
    xs: list[Array] = []
    ys: list[Array] = []
    start: list[int] = []
    count: list[int] = []
    n = 0
    for p in polys:
        c = np.asarray(p.exterior.coords, dtype=float)[:-1, :2]
        xs.append(c[:, 0])
        ys.append(c[:, 1])
        start.append(n)
        count.append(len(c))
        n += len(c)
    return (np.concatenate(xs) if xs else np.zeros(0), np.concatenate(ys) if ys else np.zeros(0),
            np.array(start, np.int64), np.array(count, np.int64))


def _around(cx: float, cy: float, r: float) -> Geometry:
    """A 64-gon whose sides all lie outside the circle (its inscribed radius is r, plus a hair)."""
    return shapely.Point(cx, cy).buffer(r / math.cos(math.pi / 64) * (1 + 1e-9) + 1e-12, quad_segs=16)


class ConvexParts:
    """Per blocking feature: its convex hull (an upper bound of what it hides) and convex pieces inside it (a lower
    bound), as vertex arrays."""

    def __init__(self, geometries: Iterable[Geometry], circles: Sequence[tuple[float, float, float] | None] = ()):
        geometries = list(geometries)
        self.n = len(geometries)
        # A disc's polygon lies inside its circle: its hull would bound what the disc hides from below, not above, so
        # a disc's hull is a polygon drawn round the circle.
        circles = list(circles) or [None] * self.n
        self.hulls = np.array([g.convex_hull if c is None else _around(*c) for g, c in zip(geometries, circles)],
                              dtype=object)
        self.hx, self.hy, self.hstart, self.hcount = _vertex_table(self.hulls)
        self.hfeat = np.repeat(np.arange(self.n), self.hcount)
        cent = shapely.centroid(self.hulls) if self.n else np.zeros(0, dtype=object)
        self.mx, self.my = shapely.get_x(cent), shapely.get_y(cent)
        pieces: list[Geometry] = []
        pfeat: list[int] = []
        for f, g in enumerate(geometries):
            parts = convex_parts(g)
            pieces += parts
            pfeat += [f] * len(parts)
        self.px, self.py, self.pstart, self.pcount = _vertex_table(pieces)
        # For each piece vertex: the next vertex of its ring, and the outward normal of the edge to it.
        local = np.arange(len(self.px)) - np.repeat(self.pstart, self.pcount)
        self.pnext = np.repeat(self.pstart, self.pcount) + (local + 1) % np.repeat(self.pcount, self.pcount)
        ex, ey = self.px[self.pnext] - self.px, self.py[self.pnext] - self.py
        ccw = np.repeat(np.array([p.exterior.is_ccw for p in pieces], dtype=bool), self.pcount)
        length = np.hypot(ex, ey)
        length[length == 0] = 1.0
        self.pnx = np.where(ccw, ey, -ey) / length
        self.pny = np.where(ccw, -ex, ex) / length
        self.pfeat = np.array(pfeat, np.int64)
        self.pvfeat = np.repeat(self.pfeat, self.pcount)          # the feature of each piece vertex
        self.feat_pieces = np.bincount(self.pfeat, minlength=self.n).astype(np.int64)
        self.feat_pstart = np.cumsum(self.feat_pieces) - self.feat_pieces


def _extreme_vertices(ang: Array, dist: Array, vr: Array, start: Array, wanted: Array) -> Array:
    """(viewers, vertices) of polygons (``start``: each one's first vertex): the vertices that may have the least or
    the greatest direction among their polygon's, seen from some point of the viewer's base. ``ang``: their
    directions from the viewer's centre, relative to a direction within π - 0.3 of them all where ``wanted`` (flat
    (viewer, polygon)); ``dist``: their distances from it.

    Seen from a point of the base rather than the centre, a vertex's direction moves by at most ``asin(rv / dist)``:
    one whose direction can be the least there lies within its own and the least one's moves of the least at the
    centre (the greatest likewise). A vertex whose direction could cross ±π is kept as a greatest one, so the
    extremes over the vertices kept show it as those over every vertex do."""
    ne, nv = ang.shape
    if nv == 0:
        return np.zeros((ne, 0), dtype=bool)
    rv = vr[:, None]
    with np.errstate(divide="ignore"):
        move = np.where(dist > rv * (1 + 1e-9) + 1e-9, np.arcsin(np.minimum(1.0, rv / dist)), 4.0) * (1 + 1e-9) + 1e-9
    counts = np.diff(np.append(start, nv))
    least = np.repeat(np.minimum.reduceat(ang + move, start, axis=1), counts, axis=1)
    most = np.repeat(np.maximum.reduceat(ang - move, start, axis=1), counts, axis=1)
    keep: Array = ((ang - move <= least) | (ang + move >= most)) & np.repeat(wanted.reshape(ne, -1), counts, axis=1)
    return keep


def _sample_vertices(keep: Array, start: Array, owner: Array) -> tuple[Array, Array, Array]:
    """One row per (sample, vertex ``keep`` marks for the sample's flat (viewer, polygon) ``owner``): the sample of
    each row, its vertex, and each sample's first row (every sample has a row: the least vertex is always kept)."""
    kept = np.add.reduceat(keep.astype(np.int64), start, axis=1).ravel() if keep.shape[1] else np.zeros(0, np.int64)
    _, vertex = np.nonzero(keep)                # by viewer, then vertex: each (viewer, polygon)'s kept ones together
    offset = np.cumsum(kept) - kept
    cnt = kept[owner]
    first = np.cumsum(cnt) - cnt
    srow = np.repeat(np.arange(len(owner)), cnt)
    return srow, vertex[offset[owner][srow] + (np.arange(len(srow)) - first[srow])], first


def _fast_wrap(a: Array) -> Array:
    return a + np.where(a > math.pi, -TWO_PI, np.where(a < -math.pi, TWO_PI, 0.0))


class ShadowBounds:
    """For each viewer and blocking feature, the angular extents of the feature's hull and of its convex pieces as
    seen from the viewer's closest point P, sampled over the directions ψ of P on the viewer's base.

    Between samples an extent moves by at most ``rv / (δ - rv)`` per radian of ψ (δ: the feature's distance from the
    viewer's centre), so each looked-up extent is widened (hull) or narrowed (pieces) by that slack ``err``. Features
    too close to a viewer, or seen across the ±π cut, are flagged ``ok = False`` and left to the exact sweep.
    """

    def __init__(self, parts: ConvexParts, vx: Array, vy: Array, vr: Array, probe_r: float):
        ne, nf = len(vx), parts.n
        self.parts = parts
        pts = shapely.points(vx, vy)
        dist = shapely.distance(parts.hulls[None, :], pts[:, None]) if nf else np.zeros((ne, 0))
        rho = np.arctan2(parts.my[None, :] - vy[:, None], parts.mx[None, :] - vx[:, None])
        ang = np.arctan2(parts.hy[None, :] - vy[:, None], parts.hx[None, :] - vx[:, None])
        ang = _fast_wrap(ang - rho[:, parts.hfeat])
        if nf:
            phi1 = np.minimum.reduceat(ang, parts.hstart, axis=1)
            phi2 = np.maximum.reduceat(ang, parts.hstart, axis=1)
        else:
            phi1 = phi2 = np.zeros((ne, 0))
        rv = vr[:, None]
        ok = (dist > rv + NEAR_MARGIN) & (phi1 > -math.pi + WRAP_MARGIN) & (phi2 < math.pi - WRAP_MARGIN)
        safe = np.where(ok, dist, 10.0 * (rv + 1.0))
        eps = np.arcsin(np.minimum(1.0, rv / safe))
        lip = rv / (safe - rv)
        reach = probe_r + rv
        # Only points at least as far as the feature can be hidden by it (the caller checks), and their cones lie
        # within asin(reach / D) of the direction psi.
        gam = np.arcsin(np.minimum(1.0, reach / np.maximum(safe - 1e-6, 1e-9)))
        lo = phi1 - eps - gam
        hi = phi2 + eps + gam
        ok &= (lo > -math.pi) & (hi < math.pi)
        h = np.clip(2 * BOUND_ERROR / lip, 1e-4, 0.05)
        K = np.where(ok, np.ceil((hi - lo) / h).astype(np.int64) + 1, 0)
        self.err = lip * h / 2 * (1 + 1e-6) + 1e-12
        self.rho, self.lo, self.hi, self.h, self.K, self.dist = rho, lo, hi, h, K, dist
        self.phi1, self.phi2, self.eps, self.reach = phi1, phi2, eps, probe_r + vr

        # Samples: (viewer, feature, k) -> P on the viewer's base at direction rho + lo + k h.
        kflat = K.ravel()
        S = int(kflat.sum())
        soff = (np.cumsum(kflat) - kflat).reshape(ne, nf)
        ef = np.repeat(np.arange(ne * nf), kflat)
        k = np.arange(S) - soff.ravel()[ef]
        e, f = ef // max(nf, 1), ef % max(nf, 1)
        psi = rho.ravel()[ef] + lo.ravel()[ef] + k * h.ravel()[ef]
        spx = vx[e] + vr[e] * np.cos(psi)
        spy = vy[e] + vr[e] * np.sin(psi)
        srho = rho.ravel()[ef]
        self.soff = soff

        # Hull extents per sample, over the vertices that may be extreme seen from somewhere on the base.
        h_keep = _extreme_vertices(ang, np.hypot(parts.hx[None, :] - vx[:, None], parts.hy[None, :] - vy[:, None]),
                                   vr, parts.hstart, kflat > 0)
        srow, vidx, first = _sample_vertices(h_keep, parts.hstart, ef)
        a = _fast_wrap(np.arctan2(parts.hy[vidx] - spy[srow], parts.hx[vidx] - spx[srow]) - srho[srow])
        if S:
            self.lam1 = np.minimum.reduceat(a, first)
            self.lam2 = np.maximum.reduceat(a, first)
            bad = (self.lam1 < -math.pi + 0.1) | (self.lam2 > math.pi - 0.1)
            if bad.any():
                badef = distinct(ef[bad])
                ok.ravel()[badef] = False
        else:
            self.lam1 = self.lam2 = np.zeros(0)
        self.ok = ok

        # Piece extents per sample: for sample s of (e, f), the pieces of f at poff[s] + j.
        npc = parts.feat_pieces[f]
        self.poff = np.cumsum(npc) - npc
        prow_s = np.repeat(np.arange(S), npc)                          # one row per (sample, piece)
        pj = parts.feat_pstart[f][prow_s] + (np.arange(int(npc.sum())) - self.poff[prow_s])
        vc = parts.pcount[pj]
        vfirst = np.cumsum(vc) - vc
        vrow = np.repeat(np.arange(len(pj)), vc)
        vv = parts.pstart[pj][vrow] + (np.arange(int(vc.sum())) - vfirst[vrow])
        s_of_v = prow_s[vrow]
        # A ray entering a convex piece does so on an edge facing P, so no farther than that edge's far end. The
        # edges that may face P anywhere within half a sample of P_s are taken, and the distances widened to match.
        move = (vr[e] * h.ravel()[ef] / 2 * (1 + 1e-6) + 1e-12)[s_of_v]
        rx, ry = spx[s_of_v], spy[s_of_v]
        wx, wy = parts.px[vv] - rx, parts.py[vv] - ry
        dist2 = wx * wx + wy * wy
        last = vfirst + vc - 1
        nxt = np.arange(len(vv)) + 1
        nxt[last] = vfirst
        faces = parts.pnx[vv] * wx + parts.pny[vv] * wy < move
        reach2 = np.where(faces, np.maximum(dist2, dist2[nxt]), 0.0)
        if len(pj):
            # The pieces' extents, over their vertices that may be extreme (as the hulls' above).
            npieces = len(parts.pstart)
            pang = _fast_wrap(np.arctan2(parts.py[None, :] - vy[:, None], parts.px[None, :] - vx[:, None])
                              - rho[:, parts.pvfeat])
            wanted = np.zeros(ne * npieces, dtype=bool)
            owner = e[prow_s] * npieces + pj
            wanted[owner] = True
            p_keep = _extreme_vertices(pang, np.hypot(parts.px[None, :] - vx[:, None], parts.py[None, :] - vy[:, None]),
                                       vr, parts.pstart, wanted)
            prow, pvv, pfirst = _sample_vertices(p_keep, parts.pstart, owner)
            s_of_p = prow_s[prow]
            a = _fast_wrap(np.arctan2(parts.py[pvv] - spy[s_of_p], parts.px[pvv] - spx[s_of_p]) - srho[s_of_p])
            self.mu1 = np.minimum.reduceat(a, pfirst)
            self.mu2 = np.maximum.reduceat(a, pfirst)
            self.near = np.sqrt(np.maximum.reduceat(reach2, vfirst)) * (1 + 1e-12) + move[vfirst]
        else:
            self.mu1 = self.mu2 = self.near = np.zeros(0)


# --- Lengths inside cover along the rays from each viewer's centre, for the exposure map's Target prices ------------

NARROW_EDGE = 1e-7          # radians: an edge this nearly in line with a viewer's centre is measured by the reference
RAY_KNIFE = 1e-9            # radians: a ray this close to such an edge's directions goes to the reference


class RayCells:
    """An angular sweep of each feature's vertices around each viewer's centre, for measuring many segments that lie
    on rays from those centres (every A6 segment does: it runs from the viewer's base toward the target's centre).

    For a viewer whose centre lies outside a feature's bounding circle, the feature's vertices sorted by direction
    cut the directions it spans into cells; within a cell the same edges cross every ray, and nothing else of the
    feature does. A segment on the ray at parameters ``lo .. hi`` (in units of the ray's direction vector) then has
    inside the feature the length ``Σ s·clip(τ, lo, hi)`` over its cell's edges, ``τ`` the parameter where the ray
    crosses the edge and ``s`` +1 where it leaves the feature, -1 where it enters (the rings are oriented with the
    feature on their left). The sum changes continuously as a segment's end or the ray meets the boundary or passes
    through a vertex: only a ray along an edge (in line with the centre) is a knife edge, and it is flagged.

    ``ready[e, f]``: the viewer ``e``'s centre is far enough from feature ``f`` (and ``f`` a polygon) to be swept; the
    caller measures the other pairs otherwise."""

    def __init__(self, edges: EdgeTable, circles: Array, vx: Array, vy: Array):
        ne, nf = len(vx), len(edges)
        self.edges, self.vx, self.vy = edges, vx, vy
        polygon = np.isnan(circles[:, 2]) if nf else np.zeros(0, dtype=bool)
        self.polygon = polygon
        # Swept: a viewer's centre clear of a polygon's convex hull, whose vertices then lie within π either way of
        # the direction of the hull's centroid (inside the hull).
        hulls, mx, my = edges.hulls()
        gap = shapely.distance(hulls[None, :], shapely.points(vx, vy)[:, None]) if nf else np.zeros((ne, 0))
        self.ready = (gap > 1e-6) & polygon[None, :] & (edges.count > 0)[None, :]
        self.rho = np.arctan2(my[None, :] - vy[:, None], mx[None, :] - vx[:, None])
        self.gap = gap
        re, rf = np.nonzero(self.ready)
        self.slot = np.full((ne, nf), -1, dtype=np.int64)
        self.slot[re, rf] = np.arange(len(re))
        # The next vertex of each edge's ring.
        nxt = np.arange(len(edges.ax)) + 1
        if len(edges.rings):
            nxt[edges.rings[:, 1] + edges.rings[:, 2] - 1] = edges.rings[:, 1]
        # One row per (ready pair, edge of its feature): the pair's rows are consecutive, in the feature's edge order.
        row_pair, edge = expand(rf, edges)
        e_row = re[row_pair]
        cx, cy = vx[e_row], vy[e_row]
        ang = _fast_wrap(np.arctan2(edges.ay[edge] - cy, edges.ax[edge] - cx) - self.rho[e_row, rf[row_pair]])
        end = np.arange(len(edge)) + (nxt[edge] - edge)             # the row of each edge's far vertex
        key = row_pair * 8.0 + ang                                   # directions are within π of rho
        order = np.argsort(key, kind="stable")
        self.keys = key[order]
        pos = np.empty(len(order), dtype=np.int64)
        pos[order] = np.arange(len(order))
        first = np.zeros(len(re) + 1, dtype=np.int64)
        np.cumsum(edges.count[rf], out=first[1:])
        self.block_start, self.block_end = first[:-1], first[1:]
        # Per (viewer, feature): the directions the feature spans (relative to rho; empty where not swept) and its
        # farthest vertex.
        self.first = np.full((ne, nf), np.inf)
        self.last = np.full((ne, nf), -np.inf)
        self.far = np.zeros((ne, nf))
        if len(re):
            self.first[re, rf] = np.minimum.reduceat(ang, self.block_start)
            self.last[re, rf] = np.maximum.reduceat(ang, self.block_start)
            self.far[re, rf] = np.maximum.reduceat(np.hypot(edges.ax[edge] - cx, edges.ay[edge] - cy),
                                                   self.block_start)
        # Cell c lies between the sorted directions c and c + 1 of one pair; an edge crosses the cells between its
        # ends' directions.
        lo, hi = np.minimum(pos, pos[end]), np.maximum(pos, pos[end])
        run, k = _spans(hi - lo)
        cell = lo[run] + k
        by_cell = np.argsort(cell, kind="stable")
        self.cell_edge = run[by_cell]                                # rows (pair, edge)
        self.cell_count = np.bincount(cell, minlength=len(order)).astype(np.int64)
        self.cell_first = np.cumsum(self.cell_count) - self.cell_count
        ex, ey = edges.bx[edge] - edges.ax[edge], edges.by[edge] - edges.ay[edge]
        self.ex, self.ey = ex, ey
        self.numer = (edges.ax[edge] - cx) * ey - (edges.ay[edge] - cy) * ex
        # Edges nearly in line with the centre: their direction ranges, for flagging rays along them.
        narrow = np.nonzero(np.abs(ang[end] - ang) <= NARROW_EDGE)[0]
        self.narrow_pair = row_pair[narrow]
        self.narrow_lo = np.minimum(ang[narrow], ang[end[narrow]]) - RAY_KNIFE
        self.narrow_hi = np.maximum(ang[narrow], ang[end[narrow]]) + RAY_KNIFE

        # Discs seen from outside span the directions within asin(r / distance) of their centre's.
        dx, dy = circles[:, 0][None, :] - vx[:, None], circles[:, 1][None, :] - vy[:, None]
        dist = np.hypot(dx, dy)
        r = circles[:, 2][None, :]
        with np.errstate(invalid="ignore"):
            clear = ~polygon[None, :] & (dist > r + 1e-6)
        de, df = np.nonzero(clear)
        half = np.arcsin(np.minimum(1.0, r[0, df] / dist[de, df]))
        self.rho[de, df] = np.arctan2(dy[de, df], dx[de, df])
        self.first[de, df], self.last[de, df] = -half, half
        self.gap[de, df] = dist[de, df] - r[0, df]
        self.far[de, df] = dist[de, df] + r[0, df]
        # Found by direction: the polygons swept and the discs seen from outside. Their spans as absolute
        # directions, widened a hair (a ray on the very edge of a span crosses nothing, or touches), cut at ±π.
        self.by_direction = self.ready | clear
        pe, pf = np.nonzero(self.by_direction)
        lo = self.rho[pe, pf] + self.first[pe, pf] - 1e-9
        hi = self.rho[pe, pf] + self.last[pe, pf] + 1e-9
        under, over = lo < -math.pi, hi > math.pi
        self.span_e = np.concatenate([pe, pe[under], pe[over]])
        self.span_f = np.concatenate([pf, pf[under], pf[over]])
        self.span_lo = np.concatenate([np.maximum(lo, -math.pi), lo[under] + TWO_PI, np.full(over.sum(), -math.pi)])
        self.span_hi = np.concatenate([np.minimum(hi, math.pi), np.full(under.sum(), math.pi), hi[over] - TWO_PI])

    def candidates(self, e: Array, psi: Array) -> tuple[Array, Array]:
        """The (ray, feature) pairs, among rays from the viewers ``e`` in directions ``psi``, whose direction lies
        in the feature's span (``by_direction`` features only): the rays sorted by viewer and direction once, each
        feature's span found among its viewer's rays by binary search."""
        key = e * 8.0 + psi
        order = np.argsort(key, kind="stable")
        keys = key[order]
        start = np.searchsorted(keys, self.span_e * 8.0 + self.span_lo, side="left")
        stop = np.searchsorted(keys, self.span_e * 8.0 + self.span_hi, side="right")
        run, k = _spans(np.maximum(0, stop - start))
        return order[start[run] + k], self.span_f[run]

    def lengths(self, e: Array, f: Array, wx: Array, wy: Array, lo: Array, hi: Array) -> tuple[Array, Array]:
        """Per (viewer ``e``, feature ``f``) candidate with ``ready[e, f]``: the length inside ``f`` of the segment
        ``C + t·w`` for ``t`` from ``lo`` to ``hi`` (either order), ``C`` the viewer's centre, ``w`` the ray's
        direction vector (``wx, wy``, not normalised); and a knife-edge flag."""
        n = len(e)
        slot = pick(self.slot, e, f)
        rel = _fast_wrap(np.arctan2(wy, wx) - pick(self.rho, e, f))
        cell = np.searchsorted(self.keys, slot * 8.0 + rel, side="right") - 1
        inside = (cell >= self.block_start[slot]) & (cell < self.block_end[slot] - 1)
        count = np.where(inside, self.cell_count[np.clip(cell, 0, None)], 0)
        run, k = _spans(count)
        row = self.cell_edge[self.cell_first[cell[run]] + k]
        denom = wx[run] * self.ey[row] - wy[run] * self.ex[row]
        with np.errstate(divide="ignore", invalid="ignore"):
            tau = self.numer[row] / denom
        a, b = np.minimum(lo, hi)[run], np.maximum(lo, hi)[run]
        part = np.where(denom > 0, 1.0, -1.0) * np.clip(tau, a, b)
        length = np.bincount(run, weights=part, minlength=n) * np.hypot(wx, wy)
        knife = np.zeros(n, dtype=bool)
        for p, nlo, nhi in zip(self.narrow_pair.tolist(), self.narrow_lo.tolist(), self.narrow_hi.tolist()):
            knife |= (slot == p) & (rel >= nlo) & (rel <= nhi)
        return np.maximum(length, 0.0), knife

    def lengths_across(self, e: Array, f: Array, wx: Array, wy: Array, lo: Array, hi: Array) -> tuple[Array, Array]:
        """``lengths`` for any (viewer, polygon feature) candidate, the viewer's centre anywhere (inside the feature
        too), by every edge of the feature: the whole line through the centre is taken, which starts and ends
        outside the feature, so ``Σ s·clip(τ, lo, hi)`` over every edge the line crosses needs no inside test. An
        edge crosses the line where its ends lie on either side (an end on the line counted with one side, the same
        for both edges that share it); an edge along the line is a knife edge."""
        n = len(e)
        edges = self.edges
        run, edge = expand(f, edges)
        cx, cy = self.vx[e][run], self.vy[e][run]
        ux, uy = wx[run], wy[run]
        sa = ux * (edges.ay[edge] - cy) - uy * (edges.ax[edge] - cx)
        sb = ux * (edges.by[edge] - cy) - uy * (edges.bx[edge] - cx)
        cross = np.nonzero((sa > 0) != (sb > 0))[0]
        r, g = run[cross], edge[cross]
        denom = sb[cross] - sa[cross]
        numer = ((edges.ax[g] - self.vx[e][r]) * (edges.by[g] - edges.ay[g])
                 - (edges.ay[g] - self.vy[e][r]) * (edges.bx[g] - edges.ax[g]))
        a, b = np.minimum(lo, hi)[r], np.maximum(lo, hi)[r]
        part = np.where(denom > 0, 1.0, -1.0) * np.clip(numer / denom, a, b)
        length = np.bincount(r, weights=part, minlength=n) * np.hypot(wx, wy)
        tol = NARROW_EDGE * norm(ux, uy)
        along = ((np.abs(sa) <= tol * norm(edges.ax[edge] - cx, edges.ay[edge] - cy))
                 & (np.abs(sb) <= tol * norm(edges.bx[edge] - cx, edges.by[edge] - cy)))
        knife = np.bincount(run, weights=along, minlength=n) > 0
        return np.maximum(length, 0.0), knife


def _spans(counts: Array) -> tuple[Array, Array]:
    """For runs of the given lengths: the run of each element and its position inside the run."""
    run = np.repeat(np.arange(len(counts)), counts)
    return run, np.arange(len(run)) - (np.cumsum(counts) - counts)[run]
