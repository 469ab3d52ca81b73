"""The exposure map's Target prices measured by sweeping the rays from each enemy (``fast_geometry.RayCells``) are
the prices measured segment by segment (the earlier way, ``exposure_fast(..., sweep=False)``), which the reference
engine checks in test_fast_sight: on generated dense tables under every reading of the rulings that moves a price,
on the bundled tables (terrain and units on round coordinates: segments through vertices and ending on edges), and
length by length against Shapely."""

import math
import random

import numpy as np
import pytest
import shapely

from benchmarks.generated_tables import generated_scenario
from referee import paths
from referee.rules.battlefield import battlefield_from_scenario
from referee.rules.fast_geometry import EdgeTable, RayCells
from referee.rules.fast_sight import exposure_fast
from referee.rules.rulings import Rulings
from referee.rules.scenario import load_scenario

GENERATED = 200
GENERATED_NOW = 60
PRICE_RULINGS = ("A2", "A6", "A7", "A8", "A9", "A10", "A11", "A12", "A50")


def generated(seed):
    """A generated table of 3 to 16 units a side and 8 to 34 terrain pieces, under rulings drawn from the seed."""
    rng = random.Random(seed)
    rulings = Rulings({rid: rng.choice("AB") for rid in PRICE_RULINGS if rng.random() < 0.5})
    scenario = generated_scenario(3 + seed % 14, 8 + (seed * 7) % 27, seed)
    return battlefield_from_scenario(scenario, rulings=rulings)


def assert_sweep_agrees(bf, step, sides=("A", "B")):
    for side in sides:
        swept, measured = exposure_fast(bf, side, step), exposure_fast(bf, side, step, sweep=False)
        assert swept.counts == measured.counts, side
        assert swept.prices == measured.prices, side


def check_generated(seeds: range) -> None:
    for seed in seeds:
        bf = generated(seed)
        assert_sweep_agrees(bf, 1.5 if seed % 3 else 1.0, ("A", "B")[seed % 2:][:1])


@pytest.mark.parametrize("block", range(10))
def test_prices_on_generated_tables(block):
    # The default suite: the first GENERATED_NOW tables (every size of table and force comes up in them), in ten
    # blocks; the soak run checks all GENERATED.
    check_generated(range(block * GENERATED_NOW // 10, (block + 1) * GENERATED_NOW // 10))


@pytest.mark.soak
@pytest.mark.parametrize("block", range(10))
def test_prices_on_every_generated_table(block):
    check_generated(range(block * GENERATED // 10, (block + 1) * GENERATED // 10))


@pytest.mark.parametrize("name", ["pastoral-hills", "blasted-urban", "battle-site", "cover-example"])
def test_prices_on_bundled_tables(name):
    bf = battlefield_from_scenario(load_scenario(paths.table_file(name)))
    assert_sweep_agrees(bf, 0.5)


def star(rng, cx, cy, size, n):
    pts = []
    for k in range(n):
        a = 2 * math.pi * k / n
        r = size * (1.0 if k % 2 == 0 else rng.uniform(0.3, 0.7))
        pts.append((round(cx + r * math.cos(a), 1), round(cy + r * math.sin(a), 1)))
    return shapely.Polygon(pts)


def test_ray_lengths_are_shapely_lengths_through_vertices_along_boundaries_and_from_inside():
    """Segments from a viewer's centre outward, many of them aimed at vertices, ending on edges or starting inside
    the feature (a star, a box with a hole, squares in line with the viewer): the swept length, or the length by
    every edge, is Shapely's wherever it is not flagged a knife edge; the flagged ones are rays along an edge."""
    rng = random.Random(7)
    geoms = [star(rng, 10, 10, 3, 14), shapely.box(2, 12, 6, 16).difference(shapely.box(3, 13, 4.5, 14.5)),
             shapely.box(14, 2, 16, 4), shapely.box(14, 6, 16, 8)]
    oriented = list(shapely.orient_polygons(np.array(geoms, dtype=object)))
    edges = EdgeTable(oriented)
    circles = np.full((len(geoms), 3), np.nan)            # polygons all: no disc among them
    viewers = [(1.0, 1.0), (10.0, 10.0), (15.0, 0.0), (3.5, 12.5), (20.0, 20.0), (11.0, 9.5)]
    vx, vy = np.array([v[0] for v in viewers]), np.array([v[1] for v in viewers])
    cells = RayCells(edges, circles, vx, vy)
    rows = []
    for e, (x, y) in enumerate(viewers):
        for f, g in enumerate(geoms):
            targets = [tuple(c) for c in shapely.get_coordinates(g.boundary)]
            targets += [(rng.uniform(0, 22), rng.uniform(0, 22)) for _ in range(20)]
            for tx, ty in targets:
                if math.hypot(tx - x, ty - y) < 1e-6:
                    continue
                for scale in (1.0, 0.5, 1.3):
                    rows.append((e, f, (tx - x) * scale, (ty - y) * scale))
    e, f = np.array([r[0] for r in rows]), np.array([r[1] for r in rows])
    wx, wy = np.array([r[2] for r in rows]), np.array([r[3] for r in rows])
    lo = np.full(len(rows), 0.1)
    hi = np.ones(len(rows))
    swept = cells.ready[e, f]
    lengths, knife = np.zeros(len(rows)), np.zeros(len(rows), dtype=bool)
    on = np.nonzero(swept)[0]
    lengths[on], knife[on] = cells.lengths(e[on], f[on], wx[on], wy[on], lo[on], hi[on])
    across = np.nonzero(~swept)[0]
    lengths[across], knife[across] = cells.lengths_across(e[across], f[across], wx[across], wy[across], lo[across],
                                                          hi[across])
    assert swept.any() and (~swept).any()
    assert knife.sum() < len(rows) // 20
    for k in np.nonzero(~knife)[0].tolist():
        x, y = vx[e[k]], vy[e[k]]
        seg = shapely.LineString([(x + 0.1 * wx[k], y + 0.1 * wy[k]), (x + wx[k], y + wy[k])])
        expected = geoms[f[k]].intersection(seg).length
        assert lengths[k] == pytest.approx(expected, abs=1e-9), rows[k]
    # Every edge gives what the sweep gives, where both apply.
    both, flag = cells.lengths_across(e[on], f[on], wx[on], wy[on], lo[on], hi[on])
    fine = ~knife[on] & ~flag
    assert both[fine] == pytest.approx(lengths[on][fine], abs=1e-9)
