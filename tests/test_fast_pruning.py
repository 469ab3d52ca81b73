"""The fast engine's pruning leaves out only what cannot matter: edges and groups of edges beside a segment's line,
targets outside a missile corridor's reach of directions. Each case is answered by the reference (or by Shapely) as
well, and must come out the same."""

import math

import numpy as np
import pytest
import shapely

from referee.rules.fast_geometry import EDGE_GROUP, EdgeTable, segment_lengths
from referee.rules.fast_sight import sightlines_fast

from .tables import battlefield, rect, unit
from .test_fast_sight import assert_same_sightlines


def diamond(ident, type, cx, cy, r=1.0):
    return {"id": ident, "type": type, "polygon": [[cx, cy + r], [cx + r, cy], [cx, cy - r], [cx - r, cy]]}


def star(ident, type, cx, cy, size, points):
    out = []
    for k in range(2 * points):
        r = size if k % 2 == 0 else size * 0.45
        a = math.pi * k / points
        out.append([round(cx + r * math.cos(a), 3), round(cy + r * math.sin(a), 3)])
    return {"id": ident, "type": type, "polygon": out}


# --- segment lengths against Shapely -----------------------------------------------------------------------------

# Rings shorter than a group of edges, one after another: a group that ran on from one ring into the next would
# join the end of one ring to the start of the next.
SHAPES = {
    "square with a square hole": shapely.Polygon([(0, 0), (6, 0), (6, 6), (0, 6)], [[(2, 2), (4, 2), (4, 4), (2, 4)]]),
    "pentagon with a triangular hole": shapely.Polygon([(0, 0), (5, -1), (7, 3), (3, 6), (-1, 4)],
                                                       [[(2, 1), (4, 2), (2, 3)]]),
    "three small islands": shapely.MultiPolygon([shapely.box(0, 0, 1, 1), shapely.box(2, 2, 3, 4),
                                                 shapely.Polygon([(4, 0), (6, 1), (5, 3)])]),
    "star of 28 vertices": shapely.Polygon(star("s", "woods", 3, 3, 3, 14)["polygon"]),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_segment_lengths_inside_rings_shorter_than_a_group(name):
    shape = SHAPES[name]
    edges = EdgeTable([shape])
    assert (edges.groups()[3] <= EDGE_GROUP).all()
    rng = np.random.default_rng(7)
    n = 400
    sx, sy, tx, ty = (rng.uniform(-2, 8, n) for _ in range(4))
    # Segments through vertices (knife edges) and along the x and y of box corners (grazing a group's box).
    x0, y0, x1, y1 = shape.bounds
    sx[:40], sy[:40], tx[:40], ty[:40] = x0 - 1, y0 - 1, x1 + 1, y1 + 1
    sx[40:80], tx[40:80] = x1, x1
    lengths, knife = segment_lengths(sx, sy, tx, ty, np.arange(n), np.zeros(n, np.int64), edges)
    checked = 0
    for k in np.nonzero(~knife)[0].tolist():
        seg = shapely.LineString([(sx[k], sy[k]), (tx[k], ty[k])])
        assert lengths[k] == pytest.approx(shape.intersection(seg).length, abs=1e-9), k
        checked += 1
    assert checked > n // 2


# --- whole tables against the reference ---------------------------------------------------------------------------

TABLES = {
    # The diamond's box corner (7, 12) lies on the sight line from (1, 7) to (13, 17); the diamond does not.
    "sight line grazing a hill's box corner": (
        [unit("V", "A", 1, 7), unit("T", "B", 13, 17), unit("U", "B", 13, 16)],
        [diamond("hill", "hills", 6, 11), diamond("wood", "woods", 10.5, 14.5, 1.5)]),
    "sight line through a star wood's points": (
        [unit("V", "A", 1, 10), unit("T", "B", 13, 10), unit("U", "B", 13, 13), unit("W", "A", 2, 4)],
        [star("wood", "woods", 7, 10, 3, 14), star("bush", "bush", 7, 4, 2, 6)]),
    "viewer inside a star wood and a hill beyond": (
        [unit("V", "A", 4, 10), unit("T", "B", 13, 10), unit("U", "B", 12, 15)],
        [star("wood", "woods", 4, 10, 3, 12), rect("hill", "hills", 8, 11, 10, 16)]),
    "viewer inside a star-shaped hill": (
        [unit("V", "A", 4, 10), unit("T", "B", 13, 10), unit("U", "B", 4, 16)],
        [star("hill", "hills", 4, 10, 3.5, 10)]),
    "discs: a crater on the line, a round hill beside it": (
        [unit("V", "A", 1, 10), unit("T", "B", 13, 10), unit("U", "B", 13, 13)],
        [{"id": "c", "type": "crater", "circle": {"x": 7, "y": 10, "r": 1.5}},
         {"id": "h", "type": "hills", "circle": {"x": 7, "y": 13.5, "r": 1.2}}]),
}


@pytest.mark.parametrize("name", sorted(TABLES))
@pytest.mark.parametrize("rulings", [{}, {"A9": "A"}, {"A6": "B", "A7": "B", "A8": "B"}])
def test_pruned_sight_lines_agree_with_the_reference(name, rulings):
    units, terrain = TABLES[name]
    assert_same_sightlines(battlefield(units, terrain, rulings=rulings, width=14, height=18))


# --- missile corridors ----------------------------------------------------------------------------------------------

def test_corridors_across_the_west_and_beside_the_firer():
    """Targets due west of the firer (their directions either side of ±π), an enemy beside the firer (within reach
    in every direction), enemies exactly 3" plus their base from a path, and enemies beyond their target."""
    firers = [unit("F", "A", 18, 10), unit("G", "A", 30, 10)]
    enemies = [unit("W1", "B", 4, 10), unit("W2", "B", 4, 11.1), unit("W3", "B", 4, 8.9), unit("W4", "B", 10, 10),
               unit("N", "B", 19, 11), unit("E1", "B", 12, 13.5), unit("E2", "B", 12, 6.5), unit("B1", "B", 2, 10)]
    bf = battlefield(firers + enemies, [], width=36, height=20)
    radius = bf.pieces["E1"].radius
    # E1's base edge is 3" (and the tolerance) from the path F -> W1 when its centre is 3" + its radius from it.
    bf = battlefield(firers + enemies[:5] + [unit("E1", "B", 12, 13 + radius), unit("E2", "B", 12, 7 - radius),
                                             enemies[7]], [], width=36, height=20)
    pairs = {(p.viewer, p.target): p.corridor for p in sightlines_fast(bf)}
    assert pairs[("F", "W4")][0] == "N"
    assert "B1" not in pairs[("F", "W4")] and "W4" in pairs[("F", "B1")]
    assert_same_sightlines(bf)
    for rulings in ({}, {"A27": "B"}):
        assert_same_sightlines(battlefield(firers + enemies, [], rulings=rulings, width=36, height=20))


# --- intervening terrain worked once for both directions of a pair ------------------------------------------------

@pytest.mark.parametrize("rulings", [{}, {"A7": "B"}, {"A8": "B"}, {"A7": "B", "A8": "B"}])
def test_each_direction_keeps_only_the_features_it_may_count(rulings):
    """The segment between two bases is measured once for both pairs; which features count still depends on the
    direction: the target's own Light wood is left out, the viewer's own wood is kept (A8 A) or not (A8 B), the
    target's own Heavy wood under A7, and a drone target reads the terrain's drone column."""
    units = [unit("V", "A", 3, 10), unit("T", "B", 12, 10), unit("D", "B", 12, 14, type="basic-drone"),
             unit("W", "A", 3, 14)]
    terrain = [rect("wood", "woods", 1, 8, 5, 16), rect("bush", "bush", 10, 8, 14, 12),
               star("scrub", "woods", 8, 12, 1.5, 7)]
    bf = battlefield(units, terrain, rulings=rulings, width=16, height=18)
    assert_same_sightlines(bf)
    pairs = {(p.viewer, p.target): p for p in sightlines_fast(bf)}
    there = [t for t, _ in pairs[("V", "T")].intervening]
    back = [t for t, _ in pairs[("T", "V")].intervening]
    if not rulings:
        assert "bush" not in there and "bush" in back     # Light: left out inside the target's own bush only


@pytest.mark.parametrize("rulings", [{}, {"A27": "B"}])
def test_corridors_of_unequal_sides_with_ids_interleaved_ties_and_blips(rulings):
    """Every firer's corridors are worked at once: sides of different sizes, units whose ids interleave the two
    sides (the pairs' order mixes them), two enemies at exactly the same distance from a firer (nearest first, then
    by id), and a blip on the path, which does not roll under A27 A."""
    units = [unit("a1", "A", 5, 5), unit("b1", "B", 20, 5), unit("b2", "B", 20, 13), unit("a2", "A", 5, 13),
             unit("c1", "B", 11, 7), unit("c0", "B", 11, 3), unit("b3", "B", 28, 9)]
    blips = [{"id": "a3", "side": "A", "x": 14, "y": 5, "base": 1.0}, {"id": "b4", "side": "B", "x": 12, "y": 9,
                                                                         "base": 1.0}]
    bf = battlefield(units, [], blips=blips, rulings=rulings, width=32, height=18)
    assert_same_sightlines(bf)
    pairs = {(p.viewer, p.target): p.corridor for p in sightlines_fast(bf)}
    # c0 and c1 stand 6.32" from a1, either side of the path to b1: c0 first, by id.
    assert pairs[("a1", "b1")][:2] == ("c0", "c1")
    assert ("b4" in pairs[("a1", "b3")]) == (rulings == {"A27": "B"})
    assert pairs[("b1", "a1")] == (("a3", "a1") if rulings else ("a1",))
    # One firer against many targets, and many firers against one.
    lone = [unit("a1", "A", 5, 9)] + [unit(f"b{k}", "B", 14 + 2 * k, 3 + 3 * (k % 4)) for k in range(6)]
    assert_same_sightlines(battlefield(lone, [], rulings=rulings, width=32, height=18))
