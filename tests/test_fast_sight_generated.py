"""The fast engine gives the reference engine's answers on generated dense tables (star woods, rotated hills and
buildings, craters) under rulings drawn from each table's seed: a few tables in the default suite, 1,000 in the soak
run (``pytest -m soak``). The visibility bounds' extents, taken over the vertices that may be extreme only, are
those over every vertex."""

import math
import random
from dataclasses import replace

import numpy as np
import pytest

from benchmarks.generated_tables import generated_scenario
from referee.rules.battlefield import battlefield_from_scenario
from referee.rules.fast_geometry import ShadowBounds, _fast_wrap
from referee.rules.fast_sight import PROBE_RADIUS, _arrays, _table, exposure_fast, prepare
from referee.rules.rulings import Rulings
from referee.rules.table_sight import exposure_reference, watchers

from .tables import unchecked_battlefield as battlefield
from .tables import unit
from .test_fast_sight import assert_same_sightlines

RULINGS = ("A2", "A6", "A7", "A8", "A9", "A10", "A11", "A12", "A27", "A50")
SOAK_TABLES = 1000
EXPOSURE_EVERY = 10         # the reference exposure map is slow: every tenth table's, on a coarse grid
EXPOSURE_STEP = 3.0


def generated(seed):
    """A generated table of 3 to 16 units a side and 8 to 34 terrain pieces, under rulings drawn from the seed."""
    rng = random.Random(seed)
    rulings = Rulings({rid: rng.choice("AB") for rid in RULINGS if rng.random() < 0.5})
    return battlefield_from_scenario(generated_scenario(3 + seed % 14, 8 + (seed * 7) % 27, seed), rulings=rulings)


def assert_bounds_over_every_vertex(bf, side):
    """Each sample's hull and piece extents (``ShadowBounds``) are the least and greatest directions over every
    vertex, seen from the sample's point of the viewer's base. Returns how many samples there are."""
    enemies = watchers(bf, side)
    table = _table(bf)
    if not enemies or not table.blocking:
        return 0
    parts = table.convex_parts()
    ex, ey, er = _arrays(enemies)
    b = ShadowBounds(parts, ex, ey, er, PROBE_RADIUS)
    nf = parts.n
    for e in range(len(ex)):
        for f in range(nf):
            for k in range(int(b.K[e, f])):
                s = int(b.soff[e, f]) + k
                psi = b.rho[e, f] + b.lo[e, f] + k * b.h[e, f]
                px, py = ex[e] + er[e] * np.cos(psi), ey[e] + er[e] * np.sin(psi)
                hull = slice(parts.hstart[f], parts.hstart[f] + parts.hcount[f])
                a = _fast_wrap(np.arctan2(parts.hy[hull] - py, parts.hx[hull] - px) - b.rho[e, f])
                assert (b.lam1[s], b.lam2[s]) == (a.min(), a.max()), (e, f, k)
                for j in range(parts.feat_pieces[f]):
                    p = parts.feat_pstart[f] + j
                    piece = slice(parts.pstart[p], parts.pstart[p] + parts.pcount[p])
                    a = _fast_wrap(np.arctan2(parts.py[piece] - py, parts.px[piece] - px) - b.rho[e, f])
                    m = b.poff[s] + j
                    assert (b.mu1[m], b.mu2[m]) == (a.min(), a.max()), (e, f, k, j)
    return int(b.K.sum())


def check_table(seed, exposure):
    bf = generated(seed)
    assert_same_sightlines(bf)
    side = "AB"[seed % 2]
    if exposure:
        ref, fast = exposure_reference(bf, side, EXPOSURE_STEP), exposure_fast(bf, side, EXPOSURE_STEP)
        assert (fast.counts, fast.prices) == (ref.counts, ref.prices), seed
    # The prices read along the rays are those measured segment by segment, on a finer grid.
    step = 1.0 if seed % 3 else 1.5
    swept, measured = exposure_fast(bf, side, step), exposure_fast(bf, side, step, sweep=False)
    assert (swept.counts, swept.prices) == (measured.counts, measured.prices), seed


@pytest.mark.parametrize("seed", [3, 8, 21, 34, 41])
def test_generated_tables_agree_with_the_reference(seed):
    check_table(seed, exposure=seed == 3)


@pytest.mark.parametrize("seed", [2, 7, 15])
def test_bounds_are_the_extents_over_every_vertex(seed):
    bf = generated(seed)
    for side in ("A", "B"):
        assert_bounds_over_every_vertex(bf, side)


@pytest.mark.soak
@pytest.mark.parametrize("block", range(20))
def test_a_thousand_generated_tables_agree_with_the_reference(block):
    per = math.ceil(SOAK_TABLES / 20)
    for seed in range(1000 + block * per, 1000 + min(SOAK_TABLES, (block + 1) * per)):
        check_table(seed, exposure=seed % EXPOSURE_EVERY == 0)
        if seed % EXPOSURE_EVERY == 5:
            assert_bounds_over_every_vertex(generated(seed), "AB"[seed % 2])


def test_maps_watched_by_the_same_enemies_reuse_their_view_of_the_terrain():
    """``prepare`` makes the terrain as seen from each side's watchers; a map asked on a battlefield whose other
    side moved reads it (nothing new is kept) and is the map made afresh; enemies moved make a new view."""
    bf = generated(4)
    prepare(bf, (1.5,))
    table = _table(bf)
    kept = dict(table._seen_from)
    assert len(kept) == 2
    moved = replace(bf, pieces={pid: (replace(p, x=p.x + 0.25) if p.side == "A" else p)
                                for pid, p in bf.pieces.items()})
    again = exposure_fast(moved, "A", 1.5)
    assert dict(table._seen_from) == kept
    table._seen_from.clear()
    afresh = exposure_fast(moved, "A", 1.5)
    assert (again.counts, again.prices) == (afresh.counts, afresh.prices)
    exposure_fast(moved, "B", 1.5)
    assert len(table._seen_from) == 2


def test_bounds_of_round_hills_and_concave_rocks_are_the_extents_over_every_vertex():
    """Discs (whose hull is a polygon drawn round the circle) and a concave piece cut into convex ones, seen from
    viewers near and far."""
    star = [[20 + (3 if k % 2 == 0 else 1.2) * math.cos(k * math.pi / 6),
             14 + (3 if k % 2 == 0 else 1.2) * math.sin(k * math.pi / 6)] for k in range(12)]
    terrain = [{"id": "h1", "type": "hills", "circle": {"x": 10.0, "y": 12.0, "r": 2.5}},
               {"id": "h2", "type": "hills", "circle": {"x": 26.0, "y": 24.0, "r": 1.0}},
               {"id": "r1", "type": "rock-formation", "polygon": [[round(x, 3), round(y, 3)] for x, y in star]}]
    units = [unit(f"a{k}", "A", 2.0 + 4.5 * k, 3.0 + (k % 3), base=0.5 + 0.25 * (k % 3)) for k in range(7)]
    units += [unit(f"b{k}", "B", 3.0 + 5.0 * k, 32.0) for k in range(6)]
    bf = battlefield(units, terrain)
    assert max(_table(bf).convex_parts().feat_pieces) > 1
    for side in ("A", "B"):
        assert assert_bounds_over_every_vertex(bf, side) > 100
