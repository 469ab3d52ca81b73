"""The fast whole-table engine gives the reference engine's answers: random tables and deliberate knife edges."""

import itertools
import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.fast_geometry import EdgeTable, segment_lengths, union_measure
from referee import paths
from referee.rules.battlefield import battlefield_from_scenario
from referee.rules.fast_sight import ExposureTiles, _cover_on_knife_edge, exposure_fast, sightlines_fast
from referee.rules.rulings import Rulings
from referee.rules.scenario import load_scenario
from referee.rules.sight import LineOfSight, cover
from referee.rules.table_sight import exposure_reference, opposing_pairs, pair_intervening, sightlines_reference
from referee.rules.whole_table import exposure, sightlines

from .fuzz.strategies import examples
from .tables import rect, unit
from .tables import unchecked_battlefield as battlefield     # units may stand inside buildings here (A10 refuses it)

TERRAIN_TYPES = ["hills", "large-building", "rock-formation", "woods", "bush", "civilian-building", "swamp",
                 "marsh", "broken-ground", "smoke", "crater", "plains", "stream", "river", "lake"]
BLOCKING = ["hills", "large-building", "rock-formation"]
SIGHT_RULINGS = ("A6", "A7", "A8", "A9", "A10", "A11")
PRICE_RULINGS = SIGHT_RULINGS + ("A2", "A3", "A50")      # bands, Scouts' bands, eaten counters' price


def assert_same_sightlines(bf):
    ref, fast = sightlines_reference(bf), sightlines_fast(bf)
    assert [(p.viewer, p.target) for p in fast] == [(p.viewer, p.target) for p in ref]
    for r, f in zip(ref, fast):
        assert (f.visible, f.target_cover, f.blocked) == (r.visible, r.target_cover, r.blocked), (r, f)
        assert f.distance == pytest.approx(r.distance, abs=1e-9), (r, f)
        assert f.hidden_fraction == pytest.approx(r.hidden_fraction, abs=1e-9), (r, f)
        assert (f.band, f.corridor) == (r.band, r.corridor), (r, f)
        assert [t for t, _ in f.intervening] == [t for t, _ in r.intervening], (r, f)
        assert [v for _, v in f.intervening] == pytest.approx([v for _, v in r.intervening], abs=1e-9), (r, f)
        assert f.heavy_length == pytest.approx(r.heavy_length, abs=1e-9), (r, f)


def assert_same_exposure(bf, step):
    for side in ("A", "B"):
        ref, fast = exposure_reference(bf, side, step), exposure_fast(bf, side, step)
        assert (fast.step, fast.columns, fast.rows) == (ref.step, ref.columns, ref.rows)
        assert fast.counts == ref.counts, side
        assert fast.prices == ref.prices, side


# --- random tables ------------------------------------------------------------------------------------------------

coord = st.one_of(
    st.integers(2, 28).map(lambda k: k / 2),                      # on a half-inch grid: exact alignments
    st.floats(1.0, 14.0, allow_nan=False).map(lambda v: round(v, 3)),
)


@st.composite
def polygons(draw):
    """A simple polygon: a box, a convex hull of points, a star (concave), or a circle."""
    kind = draw(st.sampled_from(["box", "convex", "star", "circle"]))
    cx, cy = draw(coord), draw(coord)
    if kind == "box":
        w, h = draw(st.integers(1, 8)) / 2, draw(st.integers(1, 8)) / 2
        return {"polygon": [[cx, cy], [cx + w, cy], [cx + w, cy + h], [cx, cy + h]]}
    if kind == "circle":
        return {"circle": {"x": cx, "y": cy, "r": draw(st.integers(1, 6)) / 2}}
    n = draw(st.integers(3, 8))
    if kind == "convex":
        pts = draw(st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=n, max_size=n, unique=True))
        hull = shapely.MultiPoint([(cx + a / 2, cy + b / 2) for a, b in pts]).convex_hull
        if hull.geom_type != "Polygon" or hull.area < 0.25:
            return {"polygon": [[cx, cy], [cx + 1, cy], [cx, cy + 1]]}
        return {"polygon": [list(p) for p in hull.exterior.coords[:-1]]}
    radii = draw(st.lists(st.integers(1, 8), min_size=2 * n, max_size=2 * n))
    pts = []
    for k, r in enumerate(radii):
        a = math.pi * k / n
        rr = r / 2 if k % 2 == 0 else r / 4
        pts.append([round(cx + rr * math.cos(a), 3), round(cy + rr * math.sin(a), 3)])
    return {"polygon": pts}


@st.composite
def tables(draw):
    width = height = 15
    terrain = []
    for i in range(draw(st.integers(0, 6))):
        shape = draw(polygons())
        if "polygon" in shape and not shapely.Polygon(shape["polygon"]).is_valid:
            continue
        terrain.append({"id": f"t{i}", "type": draw(st.sampled_from(TERRAIN_TYPES)), **shape})
    # Units on distinct cells of a 2" lattice, exactly on it or jittered a little, with bases of 0.5" to 1.5": bases
    # never overlap.
    cells = draw(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=2, max_size=6, unique=True))
    units, blips = [], []
    for k, (i, j) in enumerate(cells):
        jitter = draw(st.sampled_from([(0.0, 0.0), (0.25, 0.0), (0.0, -0.25), None]))
        if jitter is None:
            jitter = (draw(st.floats(-0.24, 0.24)), draw(st.floats(-0.24, 0.24)))
        x, y = 1.0 + 2.0 * i + jitter[0], 1.0 + 2.0 * j + jitter[1]
        side = "A" if k % 2 == 0 else "B"
        base = draw(st.sampled_from([1.0, 1.0, 0.5, 1.5]))
        kind = draw(st.sampled_from(["tactical", "scout", "assault", "basic-drone", "recce-drone", "haywire-drone",
                                     "blip"]))
        if kind == "blip":
            blips.append({"id": f"u{k}", "side": side, "x": x, "y": y, "base": base})
            continue
        extra = {"jammer_on": draw(st.booleans())} if kind == "haywire-drone" else {}
        units.append(unit(f"u{k}", side, x, y, type=kind, facing=draw(st.sampled_from([0, 90, 180, 270])), base=base,
                          **extra))
    rulings = {rid: draw(st.sampled_from(["A", "B"])) for rid in draw(st.sets(st.sampled_from(PRICE_RULINGS)))}
    scale = draw(st.sampled_from([1.0, 1.0, 0.5]))
    return battlefield(units, terrain, blips=blips, rulings=rulings, width=width, height=height, scale=scale)


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(tables())
def test_random_tables_sightlines(bf):
    assert_same_sightlines(bf)


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(tables(), st.sampled_from([3.0, 4.0, 2.5]))
def test_random_tables_exposure(bf, step):
    assert_same_exposure(bf, step)


# --- random knife edges: terrain placed exactly on sight lines ----------------------------------------------------

def _on_line(x0, y0, x1, y1, t):
    return [x0 + t * (x1 - x0), y0 + t * (y1 - y0)]


@st.composite
def knife_tables(draw):
    """Two opposing units at random, and terrain built from their sight lines: a polygon vertex on the line between
    the centres, on the closest-points segment, or on a tangent from the viewer's closest point to the target's base
    (the edge of the A9 cone); a polygon edge lying along one of those lines; a rectangle whose side touches the
    target's base. Whatever the floating-point rounding of such coordinates, both engines must agree."""
    vx, vy = draw(st.floats(1.5, 13.5)), draw(st.floats(1.5, 6.0))
    tx, ty = draw(st.floats(1.5, 13.5)), draw(st.floats(9.0, 16.5))
    vb, tb = draw(st.sampled_from([1.0, 0.5, 1.5])), draw(st.sampled_from([1.0, 0.5, 1.5]))
    vr, tr = vb / 2, tb / 2
    dx, dy = tx - vx, ty - vy
    dist = math.hypot(dx, dy)
    ux, uy = dx / dist, dy / dist
    px, py = vx + ux * vr, vy + uy * vr                       # the viewer's closest point
    ex, ey = tx - ux * tr, ty - uy * tr                       # the target's closest point
    d = math.hypot(tx - px, ty - py)
    alpha = math.asin(tr / d)
    theta0 = math.atan2(ty - py, tx - px)
    lines = {
        "centres": (vx, vy, tx, ty),
        "closest points": (px, py, ex, ey),
        "left tangent": (px, py, px + d * math.cos(alpha) * math.cos(theta0 + alpha),
                         py + d * math.cos(alpha) * math.sin(theta0 + alpha)),
        "right tangent": (px, py, px + d * math.cos(alpha) * math.cos(theta0 - alpha),
                          py + d * math.cos(alpha) * math.sin(theta0 - alpha)),
    }
    terrain = []
    for i in range(draw(st.integers(1, 3))):
        x0, y0, x1, y1 = lines[draw(st.sampled_from(sorted(lines)))]
        t = draw(st.sampled_from([0.3, 0.5, 0.7, 1.0]) | st.floats(0.15, 0.95))
        a = _on_line(x0, y0, x1, y1, t)
        ttype = draw(st.sampled_from(["hills", "large-building", "woods", "bush", "hills", "woods"]))
        shape = draw(st.sampled_from(["vertex", "edge", "touching"]))
        nx, ny = -(y1 - y0), x1 - x0                          # a normal of the line
        nl = math.hypot(nx, ny)
        nx, ny = nx / nl, ny / nl
        side = draw(st.sampled_from([1.0, -1.0]))
        w = draw(st.floats(0.4, 2.5))
        if shape == "vertex":           # a triangle with one corner on the line, the rest to one side
            b = [a[0] + side * w * nx + 0.7 * (x1 - x0) / 4, a[1] + side * w * ny + 0.7 * (y1 - y0) / 4]
            c = [a[0] + side * w * nx - 0.5 * (x1 - x0) / 4, a[1] + side * w * ny - 0.5 * (y1 - y0) / 4]
            poly = [a, b, c]
        elif shape == "edge":           # a quadrilateral with one side along the line
            t2 = max(0.0, t - draw(st.floats(0.1, 0.6)))
            b = _on_line(x0, y0, x1, y1, t2)
            poly = [b, a, [a[0] + side * w * nx, a[1] + side * w * ny], [b[0] + side * w * nx, b[1] + side * w * ny]]
        else:                           # a box whose side touches the target's base
            cx, cy = tx + side * tr * nx, ty + side * tr * ny
            poly = [[cx - 0.5 * ux, cy - 0.5 * uy], [cx + 0.5 * ux, cy + 0.5 * uy],
                    [cx + 0.5 * ux + side * w * nx, cy + 0.5 * uy + side * w * ny],
                    [cx - 0.5 * ux + side * w * nx, cy - 0.5 * uy + side * w * ny]]
        g = shapely.Polygon(poly)
        if g.is_valid and g.area > 1e-3:
            terrain.append({"id": f"k{i}", "type": ttype, "polygon": poly})
    viewer = draw(st.sampled_from(["tactical", "scout", "recce-drone", "basic-drone"]))
    target = draw(st.sampled_from(["tactical", "assault", "basic-drone"]))
    facing = math.degrees(theta0) + draw(st.sampled_from([0.0, 90.0, -90.0, 180.0, 45.0]))
    units = [unit("V", "A", vx, vy, type=viewer, base=vb, facing=facing % 360.0),
             unit("T", "B", tx, ty, type=target, base=tb, facing=0)]
    rulings = {rid: draw(st.sampled_from(["A", "B"])) for rid in draw(st.sets(st.sampled_from(PRICE_RULINGS)))}
    return battlefield(units, terrain, rulings=rulings, width=15, height=18)


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(knife_tables())
def test_random_knife_edge_sightlines(bf):
    assert_same_sightlines(bf)


@settings(max_examples=examples(20), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(knife_tables())
def test_random_knife_edge_exposure(bf):
    assert_same_exposure(bf, 1.5)


# --- knife edges, deliberately --------------------------------------------------------------------------------------

def diamond(ident, type, cx, cy, r=1.0):
    return {"id": ident, "type": type, "polygon": [[cx, cy + r], [cx + r, cy], [cx, cy - r], [cx - r, cy]]}


KNIFE_TABLES = {
    "target directly behind a vertex": (
        [unit("V", "A", 1, 10), unit("T", "B", 11, 10), unit("U", "B", 11, 12)], [diamond("hill", "hills", 6, 11)]),
    "sight line along an edge": (
        [unit("V", "A", 1, 10), unit("T", "B", 11, 10), unit("W", "A", 1, 8)], [rect("hill", "hills", 4, 8, 6, 10)]),
    "sight line along a wood's edge": (
        [unit("V", "A", 1, 10), unit("T", "B", 11, 10)], [rect("wood", "woods", 2, 10, 10, 12)]),
    "polygon touching the target's base": (
        [unit("V", "A", 1, 10), unit("T", "B", 11, 10)], [rect("hill", "hills", 8, 9, 10.5, 11)]),
    "vertex touching the target's base": (
        [unit("V", "A", 1, 10), unit("T", "B", 11, 10)], [diamond("hill", "hills", 9.5, 11, 1.0)]),
    "viewer point on a polygon's edge": (
        [unit("V", "A", 1, 10), unit("T", "B", 11, 10)], [rect("hill", "hills", 1.5, 5, 4, 15)]),
    "viewer point on a polygon's vertex": (
        [unit("V", "A", 1, 10), unit("T", "B", 11, 10)], [diamond("hill", "hills", 2.5, 10, 1.0)]),
    "viewer inside a hill": (
        [unit("V", "A", 3, 10), unit("T", "B", 11, 10), unit("S", "B", 3, 13)], [rect("hill", "hills", 1, 8, 5, 12)]),
    "target inside a building, viewer edge inside a hill": (
        [unit("V", "A", 2.2, 10), unit("T", "B", 11, 10)],
        [rect("hill", "hills", 2.5, 5, 6, 15), rect("b", "large-building", 10, 9, 12, 11)]),
    "two units in the same wood": (
        [unit("V", "A", 3, 10), unit("T", "B", 6, 10), unit("F", "B", 8.5, 10)], [rect("wood", "woods", 0, 5, 10, 15)]),
    "two units in the same bush": (
        [unit("V", "A", 3, 10), unit("T", "B", 6, 10)], [rect("bush", "bush", 0, 5, 10, 15)]),
    "exactly 3 inches of woods between": (
        [unit("V", "A", 1, 10), unit("T", "B", 11, 10)], [rect("wood", "woods", 4, 5, 7, 15)]),
    "a wood ending on the target's base": (
        [unit("V", "A", 1, 10), unit("T", "B", 11, 10)], [rect("wood", "woods", 4, 5, 10.5, 15)]),
    "units touching": (
        [unit("V", "A", 1, 10), unit("T", "B", 2, 10)], [rect("hill", "hills", 1.4, 5, 1.6, 15)]),
    "jammer field and a crater": (
        [unit("V", "A", 1, 10), unit("T", "B", 11, 10), unit("H", "B", 6, 11, type="haywire-drone", jammer_on=True)],
        [{"id": "c", "type": "crater", "circle": {"x": 9, "y": 10, "r": 1.5}}]),
    "points inside a large viewer's base": (
        [unit("V", "B", 5.2, 9.2, type="basic-drone", base=3.0), unit("T", "A", 11, 10)],
        [rect("rock", "rock-formation", 5.75, 9.75, 6.05, 10.05), rect("hill", "hills", 3, 7.5, 4.5, 8.2)]),
    "concave hill around the target": (
        [unit("V", "A", 1, 10), unit("T", "B", 10, 10)],
        [{"id": "c", "type": "hills", "polygon": [[8, 8], [12, 8], [12, 12], [8, 12], [8, 10.5], [11, 10.5], [11, 9.5],
                                                   [8, 9.5]]}]),
}


@pytest.mark.parametrize("name", sorted(KNIFE_TABLES))
@pytest.mark.parametrize("rulings", [{}, {"A9": "A"}, {"A10": "A"}, {"A6": "B", "A7": "B", "A8": "B"}])
def test_knife_edges(name, rulings):
    units, terrain = KNIFE_TABLES[name]
    bf = battlefield(units, terrain, rulings=rulings, width=14, height=18)
    assert_same_sightlines(bf)
    assert_same_exposure(bf, 2.0)


@pytest.mark.parametrize("rulings", [dict(zip(("A6", "A7", "A8"), c)) for c in itertools.product("AB", repeat=3)])
def test_a_knife_edge_pair_s_cover_is_the_reference_s_to_the_last_bit(rulings):
    """The pairs the fast engine leaves to the reference get ``sight.cover``'s very figures (its explanation left
    out): every pair of a bundled table, seen and unseen, under each reading of A6, A7 and A8."""
    bf = battlefield_from_scenario(load_scenario(paths.table_file("battle-site")), rulings=Rulings(rulings))
    for k, (a, b) in enumerate(opposing_pairs(bf)):
        seen = k % 2 == 0
        cov = cover(bf, a, b, LineOfSight(seen, 0.0, (), ()))
        assert _cover_on_knife_edge(bf, a, b, seen) == (*pair_intervening(cov), cov.blocked), (a.id, b.id)


def test_sight_line_through_a_vertex_hides_exactly_half():
    units, terrain = KNIFE_TABLES["target directly behind a vertex"]
    bf = battlefield([unit("V", "A", 1, 10), unit("T", "B", 11, 10)], terrain)
    pair = sightlines_fast(bf)[0]
    assert pair.hidden_fraction == pytest.approx(0.5, abs=1e-9) and pair.visible


def test_points_inside_a_large_viewer_base_on_a_fine_grid():
    units, terrain = KNIFE_TABLES["points inside a large viewer's base"]
    assert_same_exposure(battlefield(units, terrain, width=14, height=18), 1.0)


def test_a_fine_grid_near_knife_edges():
    units, terrain = KNIFE_TABLES["target directly behind a vertex"]
    bf = battlefield(units + [unit("X", "A", 2, 3)], terrain + [rect("h2", "hills", 3, 3, 5, 5)], width=12, height=14)
    assert_same_exposure(bf, 1.0)


def test_engines_agree_through_the_query_layer():
    units, terrain = KNIFE_TABLES["two units in the same wood"]
    bf = battlefield(units, terrain)
    fast, ref = sightlines(bf), sightlines(bf, "reference")
    assert fast["engine"] == "fast" and ref["engine"] == "reference"
    assert fast["pairs"] == ref["pairs"]
    fast, ref = exposure(bf, "A", 3.0), exposure(bf, "A", 3.0, "reference")
    assert (fast["counts"], fast["prices"]) == (ref["counts"], ref["prices"])
    assert fast["engine"] == "fast" and ref["engine"] == "reference" and fast["elapsed_ms"] >= 0


# --- the array helpers ------------------------------------------------------------------------------------------------

def test_union_measure_merges_overlaps_per_pair():
    pair = np.array([0, 0, 0, 1, 1, 2])
    lo = np.array([0.0, 0.5, 2.0, -1.0, -0.5, 0.1])
    hi = np.array([1.0, 1.5, 2.5, 0.0, -0.2, 0.1])
    assert union_measure(pair, lo, hi, 4).tolist() == pytest.approx([2.0, 1.0, 0.0, 0.0])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-3, 8, allow_nan=False), min_size=4, max_size=4), st.integers(0, 3))
def test_segment_lengths_match_shapely(coords, which):
    shapes = [shapely.Polygon([(0, 0), (5, 0), (5, 1), (1, 1), (1, 4), (5, 4), (5, 5), (0, 5)]),
              shapely.Polygon([(1, 1), (4, 2), (2, 4)]),
              shapely.Point(2, 2).buffer(2, quad_segs=16),
              shapely.Polygon([(0, 0), (6, 0), (6, 6), (0, 6)], [[(2, 2), (4, 2), (4, 4), (2, 4)]])]
    edges = EdgeTable([shapes[which]])
    sx, sy, tx, ty = (np.array([v]) for v in coords)
    lengths, knife = segment_lengths(sx, sy, tx, ty, np.array([0]), np.array([0]), edges)
    seg = shapely.LineString([coords[:2], coords[2:]])
    if not knife[0]:
        assert lengths[0] == pytest.approx(shapes[which].intersection(seg).length, abs=1e-9)


# --- the whole-table questions of the query command ----------------------------------------------------------------

@pytest.mark.parametrize("question", [["sightlines"], ["exposure", "B", "--step", "3"]])
def test_query_command_gives_the_same_answers_on_both_engines(capsys, question):
    import json
    from pathlib import Path

    from referee.cli.main import main

    scenario = str(Path(__file__).resolve().parent.parent / "scenarios" / "pastoral-hills.toml")
    answers = {}
    for engine in ("fast", "reference"):
        assert main(["query", scenario, *question, "--engine", engine, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["engine"] == engine and isinstance(out["elapsed_ms"], float) and out["elapsed_ms"] >= 0
        answers[engine] = {k: v for k, v in out.items() if k not in ("engine", "elapsed_ms", "explain")}
    assert answers["fast"] == answers["reference"]
    if question[0] == "exposure":
        a = answers["fast"]
        assert len(a["prices"]) == a["rows"] and all(len(row) == a["columns"] for row in a["prices"])
        assert any(p is not None for row in a["prices"] for p in row)


def test_an_exposure_map_worked_out_a_tile_at_a_time_has_the_whole_map_s_figures():
    # The computer reads the points in its units' reach, a tile of them at a time: every point, whatever was read
    # before it, has the figures the whole map gives there (counts and prices), on the bundled tables' terrain.
    rng = np.random.default_rng(3)
    for name in ("pastoral-hills", "blasted-urban"):
        table = load_scenario(paths.table_file(name))
        terrain = [t.model_dump(exclude_none=True) for t in table.terrain]
        for trial in range(3):
            units = [unit(f"{side.lower()}-{k}", side, float(rng.uniform(1, 35)), float(rng.uniform(1, 35)),
                          type=str(rng.choice(["tactical", "assault", "scout"])), facing=float(rng.uniform(0, 360)))
                     for side in ("A", "B") for k in range(int(rng.integers(1, 5)))]
            bf = battlefield(units=units, terrain=terrain, width=table.table.width, height=table.table.height)
            whole = exposure_fast(bf, "A", 1.0)
            tiles = ExposureTiles(bf, "A", 1.0)
            assert (tiles.columns, tiles.rows) == (whole.columns, whole.rows)
            i, j = int(rng.integers(0, whole.columns)), int(rng.integers(0, whole.rows))
            tiles.fetch(i - 6, i + 7, j - 6, j + 7)
            cells = [(i, j) for j in range(whole.rows) for i in range(whole.columns)]
            for k in rng.permutation(len(cells)).tolist():
                i, j = cells[k]
                assert tiles.count(i, j) == whole.count(i, j), (name, trial, i, j)
                assert tiles.price(i, j) == whole.price(i, j), (name, trial, i, j)
