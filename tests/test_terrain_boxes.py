"""A terrain piece's box spares the geometry of pieces a sight line or a base centre is nowhere near; it never
changes an answer."""

import pytest

from benchmarks.generated_tables import generated_table
from referee.rules.battlefield import Feature, disc_feature
from referee.rules.numbers import EPS
from referee.rules.table_sight import sightlines_reference
from tests.tables import battlefield, rect, unit


def test_a_square_holds_its_boundary_within_eps_and_nothing_beyond():
    f = battlefield(terrain=[rect("w1", "woods", 0, 0, 4, 4)]).terrain[0]
    assert f.box == (0.0, 0.0, 4.0, 4.0)
    assert f.holds(2, 2) and f.holds(4, 2) and f.holds(4 + EPS / 2, 2) and f.holds(-EPS / 2, -EPS / 2)
    assert not f.holds(4 + 3 * EPS, 2) and not f.holds(2, -3 * EPS) and not f.holds(30, 30)


def test_a_disc_has_the_whole_circle_as_its_box():
    f = disc_feature("c1", "crater", 10.0, 10.0, 2.0)
    assert f.box == (8.0, 8.0, 12.0, 12.0)
    assert f.holds(12.0, 10.0) and f.holds(12.0 + EPS / 2, 10.0) and not f.holds(12.0 + 3 * EPS, 10.0)
    assert f.near(12.0 + EPS / 2, 0.0, 20.0, 20.0) and not f.near(12.0 + 3 * EPS, 0.0, 20.0, 20.0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_sight_line_is_the_same_with_and_without_the_boxes(seed, monkeypatch):
    bf = generated_table(6, 30, seed)
    with_boxes = sightlines_reference(bf)
    monkeypatch.setattr(Feature, "near", lambda self, *box: True)
    without = sightlines_reference(generated_table(6, 30, seed))
    assert with_boxes == without
    assert any(0.0 < p.hidden_fraction < 1.0 for p in with_boxes) and any(p.intervening for p in with_boxes)


def test_sight_and_cover_beside_a_piece_are_measured_against_it():
    # The sight line passes 0.2" from the wood's corner: inside the boxes' reach but outside the wood.
    bf = battlefield([unit("a", "A", 2, 2), unit("b", "B", 10, 2)], [rect("w1", "woods", 4, 2.7, 6, 6)])
    p = next(p for p in sightlines_reference(bf) if p.viewer == "a")
    assert p.visible and p.intervening == ()
