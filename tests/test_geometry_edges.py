"""Edge cases of the table geometry: exact boundaries (A58), vertices and edges, units inside terrain."""

import pytest

from referee.rules.numbers import band, band_ceil
from referee.rules.ranges import measure
from referee.rules.sight import cover, line_of_sight
from referee.rules.targeting import target_price

from .tables import battlefield, rect, unit


@pytest.mark.parametrize("d, size, expected", [
    (6.0, 6, 2), (6.0 - 1e-7, 6, 2), (6.0 - 1e-4, 6, 1), (12.0, 6, 3), (11.999, 6, 2),
    (12.0, 12, 2), (24.0 + 1e-7, 12, 3), (0.0, 6, 1),
])
def test_band_boundaries(d, size, expected):
    assert band(d, size) == expected


def test_band_option_b_counts_6_as_band_1():
    assert band_ceil(6.0, 6) == 1 and band_ceil(6.01, 6) == 2 and band_ceil(0.0, 6) == 1


def test_range_band_switches_with_ruling_a2():
    units = [unit("a", "A", 1, 1, type="engineer"), unit("b", "B", 8, 1)]
    assert measure(battlefield(units), *battlefield(units).pieces.values()).rifle_band == 2
    bf = battlefield(units, rulings={"A2": "B"})
    assert measure(bf, bf.piece("a"), bf.piece("b")).rifle_band == 1


def los(bf, a="V", b="T"):
    return line_of_sight(bf, bf.piece(a), bf.piece(b))


def test_sight_line_through_a_polygon_vertex_hides_exactly_half():
    diamond = {"id": "hill", "type": "hills", "polygon": [[5, 10], [6, 9], [5, 8], [4, 9]]}
    bf = battlefield([unit("V", "A", 0, 10), unit("T", "B", 10, 10)], [diamond])
    r = los(bf)
    assert r.hidden_fraction == pytest.approx(0.5, abs=1e-9) and r.visible


def test_sight_line_along_a_polygon_edge():
    wall = rect("hill", "hills", 4, 8, 6, 10)
    bf = battlefield([unit("V", "A", 0, 10), unit("T", "B", 10, 10)], [wall])
    r = los(bf)
    assert r.hidden_fraction == pytest.approx(0.5, abs=1e-9) and r.visible


def test_vertex_just_above_the_line_blocks():
    diamond = {"id": "hill", "type": "hills", "polygon": [[5, 10.01], [6, 9], [5, 8], [4, 9]]}
    bf = battlefield([unit("V", "A", 0, 10), unit("T", "B", 10, 10)], [diamond])
    assert not los(bf).visible and los(bf).blocked_by == ("hill",)


def test_hill_wholly_between_hides_everything():
    bf = battlefield([unit("V", "A", 0, 10), unit("T", "B", 10, 10)], [rect("hill", "hills", 4, 5, 6, 15)])
    r = los(bf)
    assert r.hidden_fraction == pytest.approx(1.0) and not r.visible


def test_unit_on_a_hill_sees_and_is_seen_a10():
    hill = rect("hill", "hills", 2, 5, 8, 15)
    bf = battlefield([unit("V", "A", 5, 10), unit("T", "B", 15, 10)], [hill])
    assert los(bf).visible and los(bf, "T", "V").visible
    opaque = battlefield([unit("V", "A", 5, 10), unit("T", "B", 15, 10)], [hill], rulings={"A10": "A"})
    assert not los(opaque).visible


def test_hill_between_two_units_outside_it_blocks_even_with_a10_b():
    hill = rect("hill", "hills", 4, 5, 6, 15)
    bf = battlefield([unit("V", "A", 0, 10), unit("T", "B", 10, 10)], [hill])
    assert not los(bf).visible


def test_two_units_in_the_same_wood_a8():
    wood = rect("wood", "woods", 0, 0, 20, 20)
    near = battlefield([unit("V", "A", 5, 10, facing=0), unit("T", "B", 8, 10)], [wood])
    c = cover(near, near.piece("V"), near.piece("T"))
    assert c.target_cover == "heavy" and [i.length for i in c.intervening] == [pytest.approx(2.0)]
    assert c.penalty == 2 and not c.blocked
    far = battlefield([unit("V", "A", 5, 10, facing=0), unit("T", "B", 10, 10)], [wood])
    assert cover(far, far.piece("V"), far.piece("T")).blocked


def test_two_units_in_the_same_bush_take_no_penalty():
    bush = rect("bush", "bush", 0, 0, 20, 20)
    bf = battlefield([unit("V", "A", 5, 10, facing=0), unit("T", "B", 10, 10)], [bush])
    c = cover(bf, bf.piece("V"), bf.piece("T"))
    assert c.target_cover == "light" and c.intervening == () and c.penalty == 0


def test_heavy_exactly_three_inches_is_not_blocking_a58():
    wood = rect("wood", "woods", 5, 0, 8, 20)
    bf = battlefield([unit("V", "A", 1, 10, facing=0), unit("T", "B", 12, 10)], [wood])
    c = cover(bf, bf.piece("V"), bf.piece("T"))
    assert [i.length for i in c.intervening] == [pytest.approx(3.0)]
    assert not c.blocked and c.penalty == 2


def test_out_of_arc_doubles_the_price_and_the_arc_edge_is_inside():
    bf = battlefield([unit("V", "A", 10, 10, facing=90), unit("T", "B", 15, 10), unit("U", "B", 10, 4)])
    edge = target_price(bf, bf.piece("V"), bf.piece("T"))
    assert edge.in_arc and edge.price == 1
    behind = target_price(bf, bf.piece("V"), bf.piece("U"))
    assert not behind.in_arc and behind.price == 2 and behind.allowed


def test_target_blocked_by_deep_heavy_cover_is_refused():
    wood = rect("wood", "woods", 5, 0, 20, 20)
    bf = battlefield([unit("V", "A", 1, 10, facing=0), unit("T", "B", 10, 10)], [wood])
    p = target_price(bf, bf.piece("V"), bf.piece("T"))
    assert not p.allowed and "3\"" in p.reason and p.placed(50) == 0
