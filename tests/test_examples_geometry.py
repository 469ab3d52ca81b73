"""The rulebook's worked examples R1-R5 and R12-R19 (EXAMPLES.md), with their rulings."""


import pytest

from referee.rules.movement import move
from referee.rules.numbers import band
from referee.rules.ranges import measure
from referee.rules.rifle import rifle_shot
from referee.rules.sight import cover, line_of_sight
from referee.rules.targeting import target_price

from .tables import battlefield, rect, unit


def test_r1_touching_units_are_at_range_zero():
    bf = battlefield([unit("a", "A", 0.5, 0.5, facing=0), unit("b", "B", 1.5, 0.5, target_counters=3)])
    r = measure(bf, bf.piece("a"), bf.piece("b"))
    assert r.distance == 0.0
    assert band(0.0, 6) == band(0.0, 12) == 1
    bf_engineer = battlefield([unit("a", "A", 0.5, 0.5, type="engineer", facing=0),
                               unit("b", "B", 1.5, 0.5, target_counters=3)])
    shot = rifle_shot(bf_engineer, bf_engineer.piece("a"), bf_engineer.piece("b"))
    assert shot.allowed and shot.dice == 3


def r2_table(d_counters=6, s_counters=2):
    wood = {"id": "W", "type": "woods", "polygon": [[10, 0], [20, 0], [20, 20], [10, 20]]}
    return battlefield(
        [unit("D", "A", 10.3, 10, type="engineer", facing=180, target_counters=d_counters),
         unit("S", "B", 4.3, 10, type="engineer", facing=0, target_counters=s_counters)],
        [wood])


def test_r2_edge_of_wood_gives_cover_and_fires_out_without_penalty():
    bf = r2_table()
    d, s = bf.piece("D"), bf.piece("S")
    out = rifle_shot(bf, d, s)
    assert out.allowed and out.band == 1 and out.dice == 2
    back = rifle_shot(bf, s, d)
    assert back.band == 3 and back.dice == 2
    assert cover(bf, s, d).intervening == ()
    price = target_price(bf, s, d)
    assert price.price == 3 and price.placed(9) == 3


@pytest.mark.parametrize("y_top, fraction, visible", [(0.0, 0.5, True), (0.05, 0.6055, False), (-0.05, 0.3990, True)])
def test_r3_fifty_percent_rule(y_top, fraction, visible):
    wall = {"id": "wall", "type": "hills", "polygon": [[5.0, -5.0], [5.2, -5.0], [5.2, y_top], [5.0, y_top]]}
    bf = battlefield([unit("V", "A", 0, 0), unit("T", "B", 10, 0)], [wall], width=36, height=36)
    los = line_of_sight(bf, bf.piece("V"), bf.piece("T"))
    assert los.hidden_fraction == pytest.approx(fraction, abs=5e-5)
    assert los.visible is visible
    assert los.blocked_by == (() if visible else ("wall",))


def test_r3_exactly_half_is_visible_not_just_close():
    wall = {"id": "wall", "type": "hills", "polygon": [[5.0, -5.0], [5.2, -5.0], [5.2, 0.0], [5.0, 0.0]]}
    bf = battlefield([unit("V", "A", 0, 0), unit("T", "B", 10, 0)], [wall])
    assert abs(line_of_sight(bf, bf.piece("V"), bf.piece("T")).hidden_fraction - 0.5) < 1e-9


@pytest.mark.parametrize("d, expected", [(5.9, 1), (8.0, 2), (13.0, 3), (6.0, 2)])
def test_r4_engineer_gauss_bands(d, expected):
    bf = battlefield([unit("E", "A", 1, 1, type="engineer"), unit("T", "B", 2 + d, 1)])
    assert measure(bf, bf.piece("E"), bf.piece("T")).rifle_band == expected


@pytest.mark.parametrize("d, expected", [(11.9, 1), (18.0, 2), (30.0, 3), (24.0, 3)])
def test_r5_tactical_gauss_bands(d, expected):
    bf = battlefield([unit("T", "A", 1, 1, type="tactical"), unit("X", "B", 2 + d, 1)], width=40)
    assert measure(bf, bf.piece("T"), bf.piece("X")).rifle_band == expected


def test_r12_move_removes_by_displacement_not_path():
    # A 5.0" path around an obstacle ending 2.0" from the start: up 1.5", across 2", down 1.5".
    bf = battlefield([unit("M", "A", 10, 10, target_counters=5, facing=90)])
    r = move(bf, bf.piece("M"), [(10, 11.5), (12, 11.5), (12, 10)])
    assert r.legal and r.cost == pytest.approx(5.0)
    assert r.removes == 2
    assert r.facing == pytest.approx(270.0)


def test_r15_target_example_1_light_cover():
    bush = rect("bush", "bush", 20, 5, 24, 9)
    bf = battlefield([unit("T", "A", 11, 7, facing=0), unit("X", "B", 20.5 , 7)], [bush])
    # 8.0" edge to edge: centres 9.0" apart.
    bf = battlefield([unit("T", "A", 11.5, 7, facing=0), unit("X", "B", 20.5, 7)], [rect("bush", "bush", 20.2, 5, 24, 9)])
    p = target_price(bf, bf.piece("T"), bf.piece("X"))
    assert p.band == 3 and p.price == 3 and p.eaten == 0
    assert p.placed(10) == 3


@pytest.mark.parametrize("pool, placed", [(16, 2), (12, 1), (8, 0), (7, 0)])
def test_r16_target_example_2_heavy_cover_with_intervening_heavy(pool, placed):
    # Target 8.0" away in a wood, with 2.0" of that wood between (closest-edge line): band 2 + 2 = 4, 2 eaten.
    wood = rect("wood", "woods", 17.5, 0, 30, 14)
    bf = battlefield([unit("T", "A", 11, 7, facing=0), unit("X", "B", 20, 7)], [wood])
    p = target_price(bf, bf.piece("T"), bf.piece("X"))
    assert [i.length for i in p.cover.intervening] == [pytest.approx(2.0)]
    assert p.price == 4 and p.eaten == 2
    assert p.cost(1) == 12
    assert p.placed(pool) == placed


def test_r17_fire_rifle_example_tactical_and_other():
    bf = battlefield([unit("T", "A", 1, 10, facing=0), unit("X", "B", 27, 10, target_counters=6)], width=40)
    shot = rifle_shot(bf, bf.piece("T"), bf.piece("X"))
    assert shot.band == 3 and shot.dice == 2
    assert shot.p_kill == pytest.approx(11 / 36)
    bf2 = battlefield([unit("E", "A", 1, 10, type="engineer", facing=0), unit("X", "B", 27, 10, target_counters=6)], width=40)
    assert rifle_shot(bf2, bf2.piece("E"), bf2.piece("X")).dice == 1


def test_r18_deviation():
    from referee.rules.missile import deviation_point

    x, y, dist = deviation_point(0.0, 0.0, 5, 3, 225.0)
    assert dist == 8 and x == pytest.approx(-5.657, abs=1e-3) and y == pytest.approx(-5.657, abs=1e-3)
