"""Round terrain measured as circles in the 50 % test (A9) and in movement (p.18, p.24), with hand-computed figures.

A disc's polygon (an inscribed 64-gon) lies up to 0.12 % of its radius inside the circle: these cases are chosen
where that difference changes the answer.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from referee.rules.battlefield import disc_feature
from referee.rules.fast_sight import sightlines_fast
from referee.rules.movement import length_inside, move
from referee.rules.sight_reference import hidden_fraction, segment_crosses
from referee.rules.table_sight import sightlines_reference

from .tables import battlefield, unit


def disc(x, y, r):
    return SimpleNamespace(x=x, y=y, radius=r)


# The viewer's base (radius 0.5 about (-0.5, 0)) has its closest point P at the origin; the target's base, radius 1
# about (10, 0), spans asin(1 / 10) either side of the x axis as seen from P.
VIEWER, TARGET = disc(-0.5, 0.0, 0.5), disc(10.0, 0.0, 1.0)
ALPHA = math.asin(0.1)


def test_a_hill_exactly_tangent_to_the_cone_hides_all_of_it():
    # A hill of radius 0.5 about (5, 0) is 5 from P: its tangent lines from P make asin(0.5 / 5) = asin(0.1) with the
    # axis, exactly the target's half-width. The disc hides the whole cone; its inscribed polygon would leave slivers.
    hill = disc_feature("h", "hills", 5.0, 0.0, 0.5)
    assert hidden_fraction(VIEWER, TARGET, [hill]).fraction == pytest.approx(1.0, abs=1e-12)


def test_a_hill_on_the_axis_hides_the_ratio_of_the_half_widths():
    # Radius 0.25 about (5, 0): asin(0.25 / 5) = asin(0.05) either side, of the target's asin(0.1).
    hill = disc_feature("h", "hills", 5.0, 0.0, 0.25)
    hidden = hidden_fraction(VIEWER, TARGET, [hill])
    assert hidden.fraction == pytest.approx(math.asin(0.05) / ALPHA, abs=1e-12)
    assert hidden.hiders == ("h",)


def test_a_hill_hiding_just_over_half_blocks_the_sight_line():
    # The radius whose tangent lines make 50.05 % of the target's half-width: exactly 0.5005 hidden, so the sight line
    # is blocked (A58: more than half). The inscribed polygon of this disc hides 0.4999 and would let it through.
    r = 5 * math.sin(0.5005 * ALPHA)
    hill = {"id": "h", "type": "hills", "circle": {"x": 10.0, "y": 10.0, "r": r}}
    bf = battlefield([unit("s", "A", 4.5, 10.0, base=1.0), unit("t", "B", 15.0, 10.0, base=2.0)], [hill], width=20,
                     height=20)
    for pairs in (sightlines_reference(bf), sightlines_fast(bf)):
        seen = {(p.viewer, p.target): p for p in pairs}[("s", "t")]
        assert seen.hidden_fraction == pytest.approx(0.5005, abs=1e-9)
        assert not seen.visible


def test_a_hill_behind_the_target_hides_nothing_and_one_crossing_the_base_hides_its_front_part():
    behind = disc_feature("h", "hills", 13.0, 0.0, 1.5)
    assert hidden_fraction(VIEWER, TARGET, [behind]).fraction == 0.0
    # Radius 1 about (10, 1) cuts the target's circle at (10 -/+ sqrt(3)/2, 0.5): the rays from P above the one
    # through the nearer crossing meet the hill before the base, up to the cone's edge; those below meet the base.
    crossing = disc_feature("h", "hills", 10.0, 1.0, 1.0)
    qx, qy = 10 - math.sqrt(3) / 2, 0.5
    below = math.atan2(qy, qx)
    assert hidden_fraction(VIEWER, TARGET, [crossing]).fraction == pytest.approx((ALPHA - below) / (2 * ALPHA), abs=1e-12)


def test_a_sight_line_grazing_a_hill_under_a9_option_a():
    # Closest-points segment along y = 0 from (0, 0) to (9, 0); a hill of radius 1 about (5, 1) touches it at one
    # point (no length), one about (5, 0.999) crosses it for 2 * sqrt(1 - 0.999^2) = 0.0894".
    assert segment_crosses(VIEWER, TARGET, [disc_feature("h", "hills", 5.0, 1.0, 1.0)]) == ()
    assert segment_crosses(VIEWER, TARGET, [disc_feature("h", "hills", 5.0, 0.999, 1.0)]) == ("h",)


def test_a_path_through_a_crater_pays_its_exact_chord():
    # The path (0, 0) -> (4, 0) crosses a crater of radius 1 about (2, 0.6): chord 2 * sqrt(1 - 0.36) = 1.6.
    crater = disc_feature("c", "crater", 2.0, 0.6, 1.0)
    assert length_inside([(0.0, 0.0), (4.0, 0.0)], [crater]) == pytest.approx(1.6, abs=1e-12)
    # Grazing it (centre 1" off the path): no length at all.
    grazed = disc_feature("c", "crater", 2.0, 1.0, 1.0)
    assert length_inside([(0.0, 0.0), (4.0, 0.0)], [grazed]) == 0.0


def test_overlapping_hindering_terrain_counts_once():
    # Two craters of radius 1 about (2, 0) and (3, 0) along the x axis: inside either from x = 1 to x = 4, 3".
    craters = [disc_feature("c1", "crater", 2.0, 0.0, 1.0), disc_feature("c2", "crater", 3.0, 0.0, 1.0)]
    assert length_inside([(0.0, 0.0), (5.0, 0.0)], craters) == pytest.approx(3.0, abs=1e-12)


def _move_past(terrain, path):
    bf = battlefield([unit("m", "A", 2.0, 5.0, base=1.0)], [terrain], width=20, height=20)
    return move(bf, bf.piece("m"), path)


def test_a_move_cost_counts_a_crater_chord_double():
    # (2, 5) -> (6, 5) past a crater of radius 1 about (4, 5.6): 4" plus a 1.6" chord counted again.
    result = _move_past({"id": "c", "type": "crater", "circle": {"x": 4.0, "y": 5.6, "r": 1.0}}, [(6.0, 5.0)])
    assert result.legal
    assert result.cost == pytest.approx(5.6, abs=1e-12)


def test_a_path_just_inside_an_impassable_circle_is_refused_and_one_grazing_it_is_not():
    # A lake of radius 2 about (4.5, 6.999): the path along y = 5 passes 1.999" from its centre, inside for
    # 2 * sqrt(2^2 - 1.999^2) = 0.1265". The lake's polygon has a vertex at its lowest point and holds only a sliver
    # of that chord.
    inside = _move_past({"id": "l", "type": "lake", "circle": {"x": 4.5, "y": 6.999, "r": 2.0}}, [(7.0, 5.0)])
    assert not inside.legal and "impassable" in inside.reason
    grazing = _move_past({"id": "l", "type": "lake", "circle": {"x": 4.5, "y": 7.0, "r": 2.0}}, [(7.0, 5.0)])
    assert grazing.legal, grazing.reason
