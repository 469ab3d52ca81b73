"""Every non-combat action of the Action Table (p.17) resolved with fixed dice: Move, Jump, Target, Command, Repair,
Scramble and Toggle Jammer. Expected values are worked out by hand from the rules digest; the comments show the sums.

Stats used (DIGEST §5, A5): Council of Zane Veteran is 3/3/3/3/3/3, so a Zane Vet Tactical has Sen 3, Stl 3, Arm 3,
CM 3, Nuc 3; a Zane Vet Scout Sen 4, Stl 4; a Zane Vet Engineer CM 4; Zane Vet drones Rob 3. PUC Veteran is
3/3/4/3/3/2 (drones Rob 2); New Tokyo Veteran is 3/4/2/4/1/4.
"""

import math

import pytest

from referee.game.battle.intents import Action
from referee.game.play.actions import resolve
from referee.game.battle.dice import ScriptedDice
from referee.rules.sight import cover

from .tables import game_state, rect, unit


def blip(ident, side, x, y, contents, **kw):
    return {"id": ident, "side": side, "x": x, "y": y, "contents": contents, **kw}


def content(ident, side, type="tactical", faction="council-of-zane", rating="veteran", **kw):
    return {"id": ident, "side": side, "faction": faction, "rating": rating, "type": type, **kw}


def do(state, kind, actor, roll=(), bearings=(), **args):
    return resolve(state, Action(kind, actor, args), ScriptedDice(list(roll), list(bearings)))


def refused(state, kind, actor, roll=(), **args):
    """The action is not allowed: the outcome says why and the state is the very same, unchanged."""
    before = state.to_data()
    out = do(state, kind, actor, roll, **args)
    assert not out.legal, "expected a refusal"
    assert out.reason
    assert out.state is state and state.to_data() == before
    assert out.events == []
    return out


def tcs(out, *ids):
    return [out.state.units[i].target_counters for i in ids]


# ---- Move (p.18, A13, A14, A51, A52) -------------------------------------------------------------------------------


def woods_table(**kw):
    return game_state(units=[unit("a", "A", 2, 10, facing=0, **kw)], terrain=[rect("wood", "woods", 4, 5, 6, 15)])


def test_move_through_woods_costs_double():
    s = woods_table()
    # 4" of path, 2" of it in the wood: 2 + 2x2 = 6", exactly the allowance.
    out = do(s, "move", "a", x=6, y=10)
    assert out.legal, out.reason
    assert (out.state.units["a"].x, out.state.units["a"].y) == (6, 10)


def test_move_through_woods_over_the_allowance_is_refused():
    # 4.5" of path, 2" in the wood: 2.5 + 4 = 6.5" > 6".
    out = refused(woods_table(), "move", "a", x=6.5, y=10)
    assert "6.50" in out.reason or "6.5" in out.reason


def test_move_in_the_open_is_six_inches():
    s = game_state(units=[unit("a", "A", 2, 10, facing=0)])
    assert do(s, "move", "a", x=8, y=10).legal
    refused(s, "move", "a", x=8.5, y=10)


def test_bush_hinders_drones_but_not_troopers():
    bush = rect("bush", "bush", 4, 0, 7, 36)
    s = game_state(units=[unit("a", "A", 2, 10, facing=0), unit("d", "A", 2, 20, type="basic-drone")], terrain=[bush])
    # Trooper: 6" of path, bush is not hindering in the Troopers column: cost 6.
    assert do(s, "move", "a", x=8, y=10).legal
    # Drone: 6" of path with 3" in bush (hindering for drones): cost 9.
    refused(s, "move", "d", x=8, y=20)
    # 4" of path with 2" in bush: cost 6.
    assert do(s, "move", "d", x=6, y=20).legal


def river_table():
    river = rect("river", "river", 5, 0, 6, 36)
    building = rect("hall", "large-building", 5, 20, 6, 30)
    return game_state(units=[unit("a", "A", 2, 10, facing=0), unit("d", "A", 2, 12, type="basic-drone"),
                             unit("d2", "A", 2, 25, type="basic-drone")],
                      terrain=[river, building])


def test_river_is_impassable_to_troopers_but_open_to_drones():
    s = river_table()
    out = refused(s, "move", "a", x=7, y=10)
    assert "river" in out.reason
    assert do(s, "move", "d", x=7, y=12).legal


def test_a_large_building_stops_drones_too():
    # The building lies over the river's northern part; the Drones column of a large building is impassable (A10).
    s = game_state(units=[unit("d2", "A", 2, 25, type="basic-drone")],
                   terrain=[rect("hall", "large-building", 5, 20, 6, 30)])
    out = refused(s, "move", "d2", x=7, y=25)
    assert "hall" in out.reason


def test_no_passing_through_a_unit_friend_or_foe_and_going_round_is_fine():
    s = game_state(units=[unit("a", "A", 2, 10, facing=0), unit("friend", "A", 5, 10), unit("foe", "B", 5, 20)])
    out = refused(s, "move", "a", x=7, y=10)
    assert "friend" in out.reason
    # Around it: (2,10) -> (5,11.2) -> (7,10), 3.23" + 2.33" = 5.56"; the centre path stays 1.03" or more from
    # friend's centre, so the bases never overlap.
    out = do(s, "move", "a", x=7, y=10, via=[[5, 11.2]])
    assert out.legal, out.reason
    s2 = game_state(units=[unit("a", "A", 2, 20, facing=0), unit("foe", "B", 5, 20)])
    assert "foe" in refused(s2, "move", "a", x=7, y=20).reason


def test_objective_counters_do_not_obstruct_a_move_but_cannot_be_overlapped():
    s = game_state(units=[unit("a", "A", 2, 10, facing=0)], objectives=[{"id": "alpha", "x": 5, "y": 10}])
    assert do(s, "move", "a", x=8, y=10).legal
    assert "alpha" in refused(s, "move", "a", x=5.5, y=10).reason


def test_off_the_table_is_refused():
    s = game_state(units=[unit("a", "A", 1, 10, facing=180)])
    refused(s, "move", "a", x=0.4, y=10)          # the base would reach x = -0.1
    assert do(s, "move", "a", x=0.5, y=10).legal  # touching the edge is on the table


@pytest.mark.parametrize("held, x, left", [
    (5, 12.9, 3),   # floor(2.9) = 2 removed
    (5, 15.0, 2),   # min(Stl 3, 5) = 3 removed
    (1, 15.0, 0),   # capped by the 1 counter held
    (0, 15.0, 0),
])
def test_move_removes_min_stealth_floor_displacement(held, x, left):
    s = game_state(units=[unit("a", "A", 10, 10, facing=0, target_counters=held)])
    out = do(s, "move", "a", x=x, y=10)
    assert out.legal
    assert out.state.units["a"].target_counters == left


def test_r12_move_around_an_obstacle_removes_by_displacement_and_faces_the_last_segment():
    s = game_state(units=[unit("a", "A", 10, 10, facing=90, target_counters=5)])
    # Path 1.5 + 2 + 1.5 = 5"; the displacement is 2", so min(3, 2) = 2 are removed.
    out = do(s, "move", "a", x=12, y=10, via=[[10, 11.5], [12, 11.5]])
    assert out.legal, out.reason
    a = out.state.units["a"]
    assert a.target_counters == 3
    # The final segment runs from (12, 11.5) to (12, 10): facing 270° (A13 Rec B), not the 0° of the displacement.
    assert a.facing == pytest.approx(270.0)


def test_a_zero_length_move_keeps_facing():
    s = game_state(units=[unit("a", "A", 10, 10, facing=37, target_counters=2)])
    out = do(s, "move", "a", x=10, y=10)
    assert out.legal
    assert out.state.units["a"].facing == pytest.approx(37.0)
    assert out.state.units["a"].target_counters == 2


def test_drones_remove_by_robotics():
    # A PUC Veteran drone has Rob 2: a 5" move removes 2, not 3.
    s = game_state(units=[unit("d", "A", 10, 10, type="basic-drone", faction="peoples-utopian-collective",
                               target_counters=5)])
    out = do(s, "move", "d", x=15, y=10)
    assert out.state.units["d"].target_counters == 3


# ---- passive sensors after a move (p.18, A15) ----------------------------------------------------------------------


def test_passive_sensors_count_each_enemy_within_six_inclusive_and_not_behind_a_hill():
    hill = rect("hill", "hills", 16, 11, 24, 13)
    s = game_state(units=[unit("m", "A", 20, 2, facing=90, target_counters=0),
                          unit("e1", "B", 13, 8),            # 13,8 to 20,8: 7 - 1 = 6.0", exactly in range
                          unit("e2", "B", 20, 15),           # behind the hill
                          unit("e3", "B", 27.1, 8)],         # 7.1 - 1 = 6.1": out of range
                   terrain=[hill])
    out = do(s, "move", "m", x=20, y=8)
    assert out.legal
    assert tcs(out, "m", "e1", "e2", "e3") == [1, 1, 0, 0]


def test_passive_sensors_reveal_enemy_blips():
    s = game_state(units=[unit("m", "A", 10, 2, facing=90)],
                   blips=[blip("pair", "B", 8, 12, [content("p1", "B"), content("p2", "B", type="basic-drone")]),
                          blip("decoy", "B", 13, 12, [])])
    out = do(s, "move", "m", x=10, y=8)
    assert out.legal
    assert "pair" not in out.state.blips and "decoy" not in out.state.blips
    # A 2-unit blip gives the mover +2 and each of its units +1; a decoy is removed and gives nothing.
    assert tcs(out, "m", "p1", "p2") == [2, 1, 1]


def test_a_moving_blip_is_revealed_first_and_its_units_sense_from_the_counter():
    s = game_state(units=[unit("e", "B", 10, 14)],
                   blips=[blip("bl", "A", 10, 2, [content("u1", "A"), content("u2", "A", type="basic-drone")])])
    out = do(s, "move", "bl", x=10, y=8)
    assert out.legal
    assert "bl" not in out.state.blips
    # Both revealed units are movers measured from the counter at (10, 8), 5" from e: each gains 1, e gains 2.
    assert tcs(out, "u1", "u2", "e") == [1, 1, 2]


def test_a_blip_far_from_every_enemy_stays_hidden():
    s = game_state(units=[unit("e", "B", 10, 30)], blips=[blip("bl", "A", 10, 2, [content("u1", "A")])])
    out = do(s, "move", "bl", x=10, y=8)
    assert out.legal and "bl" in out.state.blips and out.state.blips["bl"].y == 8


# ---- objectives after a move (p.~12, A16, A41) ---------------------------------------------------------------------


def objective_table(units, control="contested", attacker="A", tc=0, blips=()):
    return game_state(units=units, blips=list(blips), attacker=attacker,
                      objectives=[{"id": "alpha", "x": 18, "y": 18, "target_counters": tc, "control": control}])


def test_an_attacker_unit_ending_near_an_objective_secures_it_and_adds_a_counter():
    s = objective_table([unit("a", "A", 18, 6, facing=90)])
    out = do(s, "move", "a", x=18, y=12)          # 6 - 1 = 5" from alpha
    alpha = out.state.objectives["alpha"]
    assert alpha.control == "A" and alpha.target_counters == 1
    assert out.state.units["a"].target_counters == 0      # objectives give the mover nothing


def test_an_enemy_near_the_objective_leaves_it_contested():
    s = objective_table([unit("a", "A", 18, 6, facing=90), unit("b", "B", 18, 24)])
    out = do(s, "move", "a", x=18, y=12)
    assert out.state.objectives["alpha"].control == "contested"
    assert out.state.objectives["alpha"].target_counters == 1


def test_a_side_never_unsecures_its_own_objective():
    s = objective_table([unit("a", "A", 18, 6, facing=90), unit("b", "B", 18, 24)], control="A")
    out = do(s, "move", "a", x=18, y=12)
    assert out.state.objectives["alpha"].control == "A"


def test_the_defender_contests_and_secures_but_adds_no_counters():
    contested = do(objective_table([unit("a", "A", 18, 12, facing=90), unit("b", "B", 18, 30, facing=270)],
                                   control="A", tc=2),
                   "move", "b", x=18, y=24)
    alpha = contested.state.objectives["alpha"]
    assert alpha.control == "contested" and alpha.target_counters == 2    # A16: only the attacker's units
    secured = do(objective_table([unit("a", "A", 18, 2, facing=90), unit("b", "B", 18, 30, facing=270)],
                                 control="A", tc=2),
                 "move", "b", x=18, y=24)
    alpha = secured.state.objectives["alpha"]
    assert alpha.control == "B" and alpha.target_counters == 2


def test_the_counter_that_inspects_an_objective_tells_only_the_side_whose_mission_counts_it():
    from referee.game.views.view import player_view

    # A attacks under Eyes On, which counts an objective Inspected from 8 Target counters (its card); alpha has 7.
    # A's passive sensors reach alpha from 5": the 8th counter; B's mission (Hold the Line) counts no inspection.
    s = objective_table([unit("a", "A", 18, 6, facing=90), unit("b", "B", 18, 24)], tc=7)
    s.missions["A"], s.missions["B"] = "eyes-on", "hold-the-line"
    out = do(s, "move", "a", x=18, y=12)
    assert out.state.objectives["alpha"].target_counters == 8
    line = next(e for e in player_view(out.state, "A")["log"] if "objective alpha +1 Target counter" in e["text"])
    assert line["note"] == ("objective alpha now has 8 Target counters: Inspected for your mission (Eyes On), "
                            "which counts it so from 8 [A41]")
    # The card's number is A's secret (A59): B reads the counter, never the word.
    b_line = next(e for e in player_view(out.state, "B")["log"] if "objective alpha +1 Target counter" in e["text"])
    assert "note" not in b_line
    # Said once, when the number is reached: the 9th counter says nothing more.
    s = objective_table([unit("a", "A", 18, 6, facing=90), unit("b", "B", 18, 24)], tc=8)
    s.missions["A"], s.missions["B"] = "eyes-on", "hold-the-line"
    out = do(s, "move", "a", x=18, y=12)
    assert not any("note" in e for e in player_view(out.state, "A")["log"])


def test_a_blip_neither_secures_nor_inspects():
    s = objective_table([unit("b", "B", 2, 34)], blips=[blip("bl", "A", 18, 6, [content("u", "A")])])
    out = do(s, "move", "bl", x=18, y=12)
    assert out.legal and "bl" in out.state.blips
    assert out.state.objectives["alpha"].control == "contested"
    assert out.state.objectives["alpha"].target_counters == 0


# ---- Jump (p.18, A39) ----------------------------------------------------------------------------------------------


def test_only_scouts_and_drones_jump():
    s = game_state(units=[unit("t", "A", 10, 10), unit("c", "A", 10, 14, type="commander"),
                          unit("s", "A", 10, 18, type="scout"), unit("d", "A", 10, 22, type="basic-drone")])
    assert "Scouts and drones" in refused(s, "jump", "t", x=15, y=10).reason
    refused(s, "jump", "c", x=15, y=14)
    assert do(s, "jump", "s", x=15, y=18).legal
    assert do(s, "jump", "d", x=15, y=22).legal


def test_jump_is_at_most_nine_inches_and_ignores_terrain_in_between():
    s = game_state(units=[unit("s", "A", 2, 10, type="scout", facing=0)],
                   terrain=[rect("hall", "large-building", 4, 0, 8, 36)])
    out = do(s, "jump", "s", x=11, y=10)    # 9.0" over the building
    assert out.legal, out.reason
    assert out.state.units["s"].facing == pytest.approx(0.0)
    refused(s, "jump", "s", x=11.5, y=10)


def test_jump_landing_refusals():
    s = game_state(units=[unit("s", "A", 2, 10, type="scout", facing=0), unit("d", "A", 2, 20, type="basic-drone")],
                   terrain=[rect("hall", "large-building", 5, 8, 8, 12), rect("river", "river", 5, 13, 8, 17)])
    assert "hall" in refused(s, "jump", "s", x=6, y=10).reason        # a building cannot be landed on
    assert "river" in refused(s, "jump", "s", x=6, y=15).reason       # a river is impassable to troopers
    assert do(s, "jump", "d", x=6, y=15).legal                        # ... and open to drones
    s2 = game_state(units=[unit("s", "A", 2, 30, type="scout", facing=0), unit("other", "B", 8, 30)])
    assert "other" in refused(s2, "jump", "s", x=7.5, y=30).reason     # bases 0.5" apart: overlapping
    assert do(s2, "jump", "s", x=7, y=30).legal                       # touching is fine


@pytest.mark.parametrize("held, x, left", [
    (3, 10.0, 1),   # 8": min(Stl 4, 8) = 4, capped at the 3 held -> 0, then +1
    (6, 7.0, 3),    # 5": 4 removed -> 2, then +1
    (6, 4.5, 5),    # 2.5": floor 2 removed -> 4, then +1
    (0, 4.5, 1),    # nothing to remove, then +1
])
def test_jump_removes_then_adds_one(held, x, left):
    s = game_state(units=[unit("s", "A", 2, 10, type="scout", facing=0, target_counters=held)])
    out = do(s, "jump", "s", x=x, y=10)
    assert out.legal
    assert out.state.units["s"].target_counters == left


def test_passive_sensors_follow_a_jump():
    s = game_state(units=[unit("s", "A", 2, 10, type="scout", facing=0, target_counters=2), unit("e", "B", 14, 10)])
    # 8" jump: 2 removed (all held) -> 0, +1 for the jump, +1 for e at 14 - 10 - 1 = 3".
    out = do(s, "jump", "s", x=10, y=10)
    assert tcs(out, "s", "e") == [2, 1]


# ---- Target (p.19, A12, A17, A50, A25) -----------------------------------------------------------------------------


def target_table(**extra):
    return game_state(units=[unit("t", "A", 10, 2, facing=90, **extra), unit("s", "A", 20, 2, type="scout", facing=90),
                             unit("r", "A", 30, 2, type="recce-drone"), unit("bd", "A", 4, 2, type="basic-drone"),
                             unit("e", "B", 10, 7)])


def test_target_dice_limits():
    s = target_table()
    out = do(s, "target", "t", roll=[1, 1, 1, 1], dice=4, assign={"e": 1})
    assert not out.legal and "1 to 3" in out.reason                    # Tactical: Sen 3
    out = do(s, "target", "s", roll=[1, 1, 1, 1], dice=4, assign={"e": 1})
    assert out.legal                                                    # Scout: Sen 3 + 1
    out = do(s, "target", "s", roll=[1] * 5, dice=5, assign={"e": 1})
    assert not out.legal and "1 to 4" in out.reason
    out = do(s, "target", "r", roll=[2, 2, 2], dice=3, assign={"e": 1})
    assert out.legal, out.reason                                        # Recce: Rob 3 (e at 19.6": band 4)
    out = do(s, "target", "r", roll=[1] * 4, dice=4, assign={"e": 1})
    assert not out.legal and "1 to 3" in out.reason
    out = do(s, "target", "bd", roll=[1], dice=1, assign={"e": 1})
    assert not out.legal and "cannot target" in out.reason


def test_the_pool_is_the_sum_and_the_actor_gains_one_per_die():
    s = target_table()
    # e is 5 - 1 = 4" away in the open: band 1, price 1. Pool 6 + 5 + 2 = 13.
    out = do(s, "target", "t", roll=[6, 5, 2], dice=3, assign={"e": 13})
    assert out.legal, out.reason
    assert tcs(out, "t", "e") == [3, 13]


def test_an_assignment_costing_more_than_the_pool_changes_nothing():
    s = target_table()
    out = refused(s, "target", "t", roll=[3, 4], dice=2, assign={"e": 8})
    assert "costs 8" in out.reason and "pool is 7" in out.reason


def test_counters_named_up_to_are_placed_as_far_as_the_rolled_pool_pays():
    # The pool is spent once rolled (p.19): a player naming up to 8 counters on e (price 1) with a pool of 7 places 7.
    out = do(target_table(), "target", "t", roll=[3, 4], dice=2, assign={"e": 8}, up_to=True)
    assert out.legal, out.reason
    assert tcs(out, "t", "e") == [2, 7]


def test_counters_named_up_to_are_bought_in_the_order_named():
    # e and the blip bl both stand in t's first band (price 1): a pool of 5 buys the 3 named on e, then 2 on bl.
    s = game_state(units=[unit("t", "A", 10, 2, facing=90), unit("e", "B", 14, 7)],
                   blips=[blip("bl", "B", 10, 7, [content("b1", "B")])])
    out = do(s, "target", "t", roll=[2, 3], dice=2, assign={"e": 3, "bl": 3}, up_to=True)
    assert out.legal, out.reason
    assert tcs(out, "t", "e", "b1") == [2, 3, 2]
    # Named the other way round, the blip takes its 3 first and e the 2 points left.
    out = do(s, "target", "t", roll=[2, 3], dice=2, assign={"bl": 3, "e": 3}, up_to=True)
    assert tcs(out, "t", "e", "b1") == [2, 2, 3]


def test_a_pool_too_small_for_one_counter_named_up_to_places_none_and_spends_the_action():
    # Two counters eaten by the wood at 4 points each before the first placed: a pool of 7 reaches none (12 needed).
    out = do(eaten_table(), "target", "t", roll=[4, 3], dice=2, assign={"e": 2}, up_to=True)
    assert out.legal, out.reason
    assert tcs(out, "t", "e") == [2, 0]


def eaten_table():
    # e's centre is in the wood (Heavy, +2 bands); the closest-edge line from (10.5, 10) to (19, 10) runs 2" inside
    # the wood (x 17 to 19): -2 counters. Range 8.5": band 2. Price 2 + 2 = 4; the first 2 counters are eaten.
    return game_state(units=[unit("t", "A", 10, 10, facing=0), unit("e", "B", 19.5, 10)],
                      terrain=[rect("wood", "woods", 17, 0, 25, 36)])


@pytest.mark.parametrize("dice, n, legal", [([6, 6], 1, True), ([6, 6], 2, False), ([6, 6, 4], 2, True),
                                            ([4, 3], 1, False)])
def test_eaten_counters_are_paid_for_first(dice, n, legal):
    # n counters cost (n + 2) x 4: 12 for one, 16 for two.
    out = do(eaten_table(), "target", "t", roll=dice, dice=len(dice), assign={"e": n})
    assert out.legal is legal, out.reason
    if legal:
        assert tcs(out, "t", "e") == [len(dice), n]


def test_out_of_arc_doubles_every_counter_bought_eaten_included():
    # e is behind t (facing 0): range 4", band 1, price 1 doubled to 2. A bush between eats 1 counter, bought at
    # the doubled price too (A50): n counters cost (n + 1) x 2.
    s = game_state(units=[unit("t", "A", 10, 10, facing=0), unit("e", "B", 5, 10)],
                   terrain=[rect("bush", "bush", 7, 0, 8, 36)])
    assert do(s, "target", "t", roll=[4, 3], dice=2, assign={"e": 2}).legal     # 6 <= 7
    out = do(s, "target", "t", roll=[4, 3], dice=2, assign={"e": 3})           # 8 > 7
    assert not out.legal and "costs 8" in out.reason


def test_blips_are_revealed_only_after_the_whole_pool_is_spent():
    s = game_state(units=[unit("t", "A", 10, 2, facing=90), unit("e", "B", 14, 7)],
                   blips=[blip("bl", "B", 10, 7, [content("b1", "B"), content("b2", "B", type="basic-drone")]),
                          blip("decoy", "B", 6, 7, [])])
    out = do(s, "target", "t", roll=[3, 3], dice=2, assign={"bl": 2, "e": 1, "decoy": 3})
    assert out.legal, out.reason
    assert "bl" not in out.state.blips and "decoy" not in out.state.blips
    # Each unit of a revealed blip receives all the counters assigned to it (A17); the decoy takes its 3 away.
    assert tcs(out, "t", "e", "b1", "b2") == [2, 1, 2, 2]
    events = out.events
    spent = max(i for i, e in enumerate(events) if "Target counter" in e and "on " in e)
    reveals = [i for i, e in enumerate(events) if "revealed" in e]
    assert reveals and min(reveals) > spent


def test_a_damaged_targeter_rolls_its_check_first():
    s = target_table(damaged=True)
    failed = do(s, "target", "t", roll=[5], dice=2, assign={"e": 3})
    assert failed.legal and failed.failed
    assert len(failed.rolls) == 1
    assert tcs(failed, "t", "e") == [0, 0]                 # the action is spent: no counters at all (A25)
    ok = do(s, "target", "t", roll=[4, 2, 3], dice=2, assign={"e": 5})
    assert ok.legal and not ok.failed
    assert tcs(ok, "t", "e") == [2, 5]                     # check 4 passes; pool 2 + 3 = 5


def test_target_refuses_friends_and_hidden_units():
    hill = rect("hill", "hills", 8, 5, 12, 6)
    s = game_state(units=[unit("t", "A", 10, 2, facing=90), unit("f", "A", 14, 2), unit("e", "B", 10, 9)],
                   terrain=[hill])
    refused(s, "target", "t", roll=[6], dice=1, assign={"f": 1})
    refused(s, "target", "t", roll=[6], dice=1, assign={"e": 1})


# ---- Command (p.22, A40) -------------------------------------------------------------------------------------------


def command_table():
    return game_state(units=[unit("cmd", "A", 10, 10, type="commander"), unit("eng", "A", 14, 10, type="engineer"),
                             unit("tac", "A", 18, 10, activation=False), unit("dr", "A", 22, 10, type="basic-drone",
                                                                                activation=False),
                             unit("held", "A", 26, 10), unit("foe", "B", 30, 30, activation=False)],
                      blips=[blip("bl", "A", 5, 5, [content("u", "A")], activation=False)])


def test_a_commander_commands_any_friendly_unit_without_a_counter():
    out = do(command_table(), "command", "cmd", target="tac")
    assert out.legal, out.reason
    assert out.state.units["tac"].activation is True
    assert out.state.units["cmd"].target_counters == 1
    assert do(command_table(), "command", "cmd", target="dr").legal


def test_an_engineer_commands_drones_only():
    out = do(command_table(), "command", "eng", target="dr")
    assert out.legal and out.state.units["dr"].activation is True and out.state.units["eng"].target_counters == 1
    assert "drones only" in refused(command_table(), "command", "eng", target="tac").reason


@pytest.mark.parametrize("who, target", [("cmd", "cmd"), ("cmd", "bl"), ("cmd", "held"), ("cmd", "foe"),
                                         ("tac", "dr")])
def test_command_refusals(who, target):
    s = command_table()
    s.units["cmd"].activation = False
    s.units["tac"].activation = False
    refused(s, "command", who, target=target)


# ---- Repair (p.22) -------------------------------------------------------------------------------------------------


def repair_table(gap=0.0, **eng):
    return game_state(units=[unit("eng", "A", 10, 10, type="engineer", **eng),
                             unit("hurt", "A", 11 + gap, 10, damaged=True), unit("fine", "A", 10, 11)])


def test_repair_a_touching_damaged_trooper():
    out = do(repair_table(), "repair", "eng", target="hurt")
    assert out.legal, out.reason
    assert out.state.units["hurt"].damaged is False and out.state.units["eng"].target_counters == 1


def test_repair_refusals():
    assert "touch" in refused(repair_table(gap=0.1), "repair", "eng", target="hurt").reason
    assert "not Damaged" in refused(repair_table(), "repair", "eng", target="fine").reason
    assert "Engineer" in refused(repair_table(), "repair", "fine", target="hurt").reason


def test_a_damaged_engineer_repairs_itself_after_its_check():
    s = repair_table(damaged=True)
    failed = do(s, "repair", "eng", roll=[6], target="eng")
    assert failed.legal and failed.failed
    assert failed.state.units["eng"].damaged is True and failed.state.units["eng"].target_counters == 0
    ok = do(s, "repair", "eng", roll=[1], target="eng")
    assert ok.state.units["eng"].damaged is False and ok.state.units["eng"].target_counters == 1


# ---- Scramble (p.22, A23) ------------------------------------------------------------------------------------------


def test_scramble_puts_the_unit_in_the_holding_area_and_three_blips_on_the_table():
    s = game_state(units=[unit("tac", "A", 10, 10), unit("foe", "B", 30, 30)])
    # The owner chooses square 7 (A23); the draws then say the real blip is at the second corner and give labels.
    out = resolve(s, Action("scramble", "tac", {"square": 7}), ScriptedDice(draws=[1, 0, 0, 0]))
    assert out.legal, out.reason
    st = out.state
    assert "tac" not in st.units
    new = [b for b in st.blips.values() if b.side == "A"]
    assert len(new) == 3
    assert all(b.activation is False for b in new)                  # no counters until the next Refresh (A23)
    assert st.units == {"foe": st.units["foe"]}
    own = [b for b in new if st.holding["A"].squares[b.square]]
    assert len(own) == 1 and own[0].square == 7
    assert [c.id for c in st.holding["A"].squares[7]] == ["tac"]
    decoys = [b for b in new if b is not own[0]]
    assert all(st.holding["A"].squares[b.square] == [] for b in decoys)
    assert len({b.square for b in new}) == 3
    # A small triangle of touching blips whose centre is where the unit stood: none stands on the unit's spot.
    assert all(abs(math.hypot(b.x - 10, b.y - 10) - 1 / math.sqrt(3)) < 1e-2 for b in new)
    assert abs(sum(b.x for b in new) / 3 - 10) < 1e-2 and abs(sum(b.y for b in new) / 3 - 10) < 1e-2
    assert all(abs(math.hypot(a.x - b.x, a.y - b.y) - 1.0) < 1e-2 for a in new for b in new if a is not b)
    # Labels say nothing of squares (A59).
    assert all(not b.id.endswith(f"-{b.square}") for b in new)
    # No target counter for a Scramble.
    assert not any("Target counter" in e for e in out.events)


def test_scramble_refuses_a_square_that_is_not_empty_and_unused():
    s = game_state(units=[unit("tac", "A", 10, 10)],
                   blips=[blip("a9", "A", 30, 30, [], square=9)])
    out = resolve(s, Action("scramble", "tac", {"square": 9}), ScriptedDice(draws=[0, 0, 0, 0]))
    assert not out.legal and "A23" in out.reason and "square 9" in out.reason


def test_scramble_needs_zero_counters_and_three_unused_blips():
    assert "Target counters" in refused(game_state(units=[unit("tac", "A", 10, 10, target_counters=1)]),
                                        "scramble", "tac").reason
    # 14 of side A's blips are on the table: only squares 15 and 16 are unused.
    blips = [blip(f"a{n}", "A", 1 + 2 * ((n - 1) % 8), 30 + 2 * ((n - 1) // 8), [], square=n) for n in range(1, 15)]
    s = game_state(units=[unit("tac", "A", 10, 10)], blips=blips)
    assert "3 unused" in refused(s, "scramble", "tac").reason


def test_a_blip_cannot_scramble():
    s = game_state(blips=[blip("bl", "A", 10, 10, [content("u", "A")])])
    refused(s, "scramble", "bl")


# ---- Toggle Jammer (p.23, A37) ------------------------------------------------------------------------------------


def test_toggle_jammer_switches_the_field_and_adds_a_counter():
    s = game_state(units=[unit("h", "A", 10, 10, type="haywire-drone"), unit("t", "A", 14, 14),
                          unit("e", "B", 12, 20, facing=270)])
    on = do(s, "jammer", "h")
    assert on.legal and on.state.units["h"].jammer_on is True and on.state.units["h"].target_counters == 1
    off = do(on.state, "jammer", "h")
    assert off.state.units["h"].jammer_on is False and off.state.units["h"].target_counters == 2
    refused(s, "jammer", "t")
    refused(game_state(units=[unit("b", "A", 10, 10, type="basic-drone")]), "jammer", "b")


def test_an_active_field_is_heavy_cover():
    # t at (12, 10): its centre is 2" from h's centre, inside the 3" field measured from h's base edge.
    s = game_state(units=[unit("h", "A", 10, 10, type="haywire-drone"), unit("t", "A", 12, 10),
                          unit("e", "B", 12, 16, facing=270)])
    bf = s.battlefield()
    assert cover(bf, bf.piece("e"), bf.piece("t")).target_cover == "none"
    on = do(s, "jammer", "h")
    bf = on.state.battlefield()
    assert cover(bf, bf.piece("e"), bf.piece("t")).target_cover == "heavy"
