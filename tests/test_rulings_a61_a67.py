"""Rulings A62-A65 and A67 followed by the engine, each refusal citing its ruling (A61 is tested with the set-up
steps, A66 with the reveals)."""

import pytest

from .tables import game_state, rect, unit
from .test_damage import blip, content, do


def missile_at_the_edge(tx):
    """f fires from (2, 18) along +x at t standing at (tx, 18), near the right edge of a 36" table."""
    return game_state(units=[unit("f", "A", 2, 18, facing=0), unit("t", "B", tx, 18, target_counters=2)])


def test_a62_a_missile_landing_wholly_off_the_table_leaves_no_crater():
    # t's CM 6 fails, hit 6 misses, deviation 3 + 3 = 6" along +x: the point of impact (40, 18) is 4" off the table
    out = do(missile_at_the_edge(34), "missile", "f", [6, 6, 3, 3], bearings=[0], target="t")
    assert out.legal, out.reason
    assert [t for t in out.state.terrain if t.type == "crater"] == []
    assert any("no part of the crater lies on it: no crater" in e for e in out.events)


def test_a62_the_crater_is_the_part_of_its_template_on_the_table():
    # deviation 1 + 1 = 2" to (37, 18): the 3" crater reaches 1.5" back, to x = 35.5; the blast catches t (Arm 3:
    # three 1s leave it unharmed)
    out = do(missile_at_the_edge(35), "missile", "f", [6, 6, 1, 1, 1, 1, 1], bearings=[0], target="t")
    assert out.legal, out.reason
    [crater] = [t for t in out.state.terrain if t.type == "crater"]
    assert crater.circle is None
    xs = [x for x, _ in crater.polygon]
    assert min(xs) == pytest.approx(35.5) and max(xs) == pytest.approx(36.0)
    assert "t" in out.state.units


def test_a63_a_kamikaze_cannot_make_contact_with_a_blip():
    state = game_state(units=[unit("k", "A", 10, 10, type="kamikaze-drone")],
                       blips=[blip("bl", "B", 14, 10, [content("hidden", "B")])])
    out = do(state, "kamikaze", "k", [3], x=13, y=10, target="bl")
    assert not out.legal and "a Kamikaze cannot make contact with it" in out.reason and "A63" in out.reason
    # it may still detonate at a point: the blast reveals the blip as any blast does
    out = do(state, "kamikaze", "k", [1, 1, 1, 1], x=13, y=10)
    assert out.legal, out.reason


def test_a64_no_move_or_jump_ends_with_part_of_the_base_off_the_table():
    state = game_state(units=[unit("s", "A", 2, 10, type="scout", facing=180), unit("e", "B", 30, 30)])
    out = do(state, "move", "s", x=0.2, y=10)
    assert not out.legal and "A64" in out.reason and "Withdraw" in out.reason
    out = do(state, "jump", "s", x=0.3, y=12)
    assert not out.legal and "A64" in out.reason
    assert do(state, "move", "s", x=0.5, y=10).legal                  # the base touching the edge is on the table


def test_a65_a_jump_passes_over_a_unit_but_may_not_land_on_one():
    state = game_state(units=[unit("s", "A", 10, 10, type="scout", facing=0), unit("e", "B", 12, 10),
                              unit("far", "B", 30, 30)])
    out = do(state, "jump", "s", x=14, y=10)
    assert out.legal, out.reason
    assert any("A65" in line for line in out.explain)
    out = do(state, "jump", "s", x=12.5, y=10)
    assert not out.legal and "may not end on one" in out.reason and "A65" in out.reason


def test_a67_a_centre_on_an_impassable_edge_is_in_it_a_path_touching_it_at_a_point_is_not():
    state = game_state(units=[unit("a", "A", 5, 10, facing=0), unit("e", "B", 30, 30)],
                       terrain=[rect("bunker", "large-building", 8, 12, 12, 16)])
    out = do(state, "move", "a", x=8, y=12.5)                        # its centre on the bunker's left edge
    assert not out.legal and "a centre on its edge is in it" in out.reason and "A67" in out.reason
    out = do(state, "move", "a", x=9, y=11, via=[[8, 12]])           # touches the corner (8, 12) only
    assert out.legal, out.reason
