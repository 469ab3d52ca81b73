"""Fire Rifle, Fire Missile, Fire Flamer and Kamikaze with fixed dice, in the order the rules roll them (p.20-22,
p.25; spec: query do, dice order). Every expected result is worked out by hand; the comments give the sums.

Council of Zane Veteran is 3/3/3/3/3/3: a Zane Vet Tactical has Arm 3, CM 3, Nuc 3; a Zane Vet Assault Arm 4 and a
plasma rifle; a Zane Vet Engineer a gauss rifle with 6" bands; Zane Vet drones Rob 3. New Tokyo Veteran is
3/4/2/4/1/4 (drones Rob 4).
"""

import pytest

from referee.game.battle.intents import Action
from referee.game.play.actions import resolve
from referee.game.battle.dice import DiceMissing, ScriptedDice
from referee.rules.sight import cover

from .tables import game_state, rect, unit


def blip(ident, side, x, y, contents, **kw):
    return {"id": ident, "side": side, "x": x, "y": y, "contents": contents, **kw}


def content(ident, side, type="tactical", faction="council-of-zane", rating="veteran", **kw):
    return {"id": ident, "side": side, "faction": faction, "rating": rating, "type": type, **kw}


def do(state, kind, actor, roll=(), bearings=(), **args):
    return resolve(state, Action(kind, actor, args), ScriptedDice(list(roll), list(bearings)))


def refused(state, kind, actor, roll=(), **args):
    before = state.to_data()
    out = do(state, kind, actor, roll, **args)
    assert not out.legal and out.reason
    assert out.state is state and state.to_data() == before
    return out


def used(out):
    return len([r for r in out.rolls if r.kind == "d6"])


def alive(out, ident):
    return ident in out.state.units


# ---- Fire Rifle (p.20, A49, A53, A57) ------------------------------------------------------------------------------


def rifle_table(shooter="engineer", target="tactical", tc=2, **target_kw):
    # Range 4 - 1 = 3": band 1 with 6" bands, so 2 counters give 2 dice.
    return game_state(units=[unit("s", "A", 10, 10, type=shooter, facing=0),
                             unit("e", "B", 14, 10, type=target, target_counters=tc, **target_kw)])


@pytest.mark.parametrize("faces, killed", [([1, 5], True), ([5, 1], True), ([2, 1], True), ([3, 6], False)])
def test_gauss_kill_or_nothing(faces, killed):
    out = do(rifle_table(), "rifle", "s", faces, target="e")
    assert out.legal, out.reason
    assert used(out) == 2
    assert alive(out, "e") is not killed
    if not killed:
        e = out.state.units["e"]
        assert not e.damaged and not e.stunned
    assert out.state.units["s"].target_counters == 1


@pytest.mark.parametrize("red, normal, stunned, damaged", [
    (4, 2, True, False),     # R17: Red 4 > Arm 3 stuns; normal 2 does not damage
    (2, 5, False, True),
    (6, 6, True, True),
    (3, 3, False, False),    # equal to Armour is a pass
])
def test_gauss_graze_red_then_normal_against_armour(red, normal, stunned, damaged):
    out = do(rifle_table(), "rifle", "s", [2, 4, red, normal], target="e")
    assert used(out) == 4
    e = out.state.units["e"]
    assert (e.stunned, e.damaged) == (stunned, damaged)
    reds = [r for r in out.rolls if "Red" in r.label]
    assert [r.value for r in reds] == [red], "the Red Die is the first graze die"


def test_a_graze_damaging_a_damaged_trooper_destroys_it():
    out = do(rifle_table(damaged=True), "rifle", "s", [2, 4, 1, 4], target="e")
    assert not alive(out, "e")                                   # A53
    out = do(rifle_table(damaged=True), "rifle", "s", [2, 4, 5, 3], target="e")
    assert alive(out, "e") and out.state.units["e"].stunned and out.state.units["e"].damaged


@pytest.mark.parametrize("faces, result", [([2, 6], "killed"), ([3, 5], "grazed"), ([4, 5], "nothing")])
def test_plasma_kills_on_one_or_two_and_grazes_on_three(faces, result):
    out = do(rifle_table(shooter="assault"), "rifle", "s", faces + [6, 6], target="e")
    assert out.legal, out.reason
    if result == "killed":
        assert not alive(out, "e") and used(out) == 2
    elif result == "grazed":
        assert used(out) == 4 and out.state.units["e"].stunned and out.state.units["e"].damaged
    else:
        assert used(out) == 2 and not out.state.units["e"].stunned


def test_a_graze_destroys_a_drone_without_further_dice():
    out = do(rifle_table(target="basic-drone"), "rifle", "s", [2, 4], target="e")
    assert not alive(out, "e") and used(out) == 2


@pytest.mark.parametrize("faces, destroyed", [([2, 5], True), ([1, 6], True), ([3, 3], False)])
def test_machine_gun_destroys_drones_on_one_or_two(faces, destroyed):
    out = do(rifle_table(shooter="basic-drone", target="recce-drone"), "rifle", "s", faces, target="e")
    assert out.legal, out.reason
    assert alive(out, "e") is not destroyed and used(out) == 2
    assert out.state.units["s"].target_counters == 1


def test_machine_gun_at_a_trooper_is_refused():
    assert "A57" in refused(rifle_table(shooter="basic-drone"), "rifle", "s", [1, 1], target="e").reason


def test_rifle_refusals():
    behind = game_state(units=[unit("s", "A", 10, 10, type="engineer", facing=180),
                               unit("e", "B", 14, 10, target_counters=2)])
    assert "arc" in refused(behind, "rifle", "s", [1, 1], target="e").reason
    assert "no Target counters" in refused(rifle_table(tc=0), "rifle", "s", [1], target="e").reason
    # One counter at band 2 (range 7"): floor(1 / 2) = 0 dice.
    far = game_state(units=[unit("s", "A", 10, 10, type="engineer", facing=0),
                            unit("e", "B", 18, 10, target_counters=1)])
    assert "0 dice" in refused(far, "rifle", "s", [1], target="e").reason


def test_a_damaged_shooter_that_fails_its_check_does_nothing():
    s = game_state(units=[unit("s", "A", 10, 10, type="engineer", facing=0, damaged=True),
                          unit("e", "B", 14, 10, target_counters=2)])
    out = do(s, "rifle", "s", [6], target="e")
    assert out.legal and out.failed and used(out) == 1
    assert out.state.units["s"].target_counters == 0 and alive(out, "e")
    out = do(s, "rifle", "s", [4, 1, 6], target="e")
    assert not alive(out, "e") and out.state.units["s"].target_counters == 1


# ---- Fire Missile (p.21, A24, A27-A33) -----------------------------------------------------------------------------


def missile_table(target_kw=None, extra=(), terrain=(), blips=(), b2_kw=None):
    """f fires from (2, 10) at t at (20, 10). b2 (edge 1.5" from the path) and b3 (edge 2.5") roll countermeasures
    with t, nearest f first: b2 at 7.25", b3 at 12.34", t at 17". Everyone is a Zane Vet: CM 3, Arm 3; f has Nuc 3.
    Not rolling: the friend near the path, a blip on the path, and far (edge 9.5" from the path)."""
    return game_state(
        units=[unit("f", "A", 2, 10, facing=0), unit("friend", "A", 6, 11),
               unit("b2", "B", 10, 12, **(b2_kw or {})), unit("b3", "B", 15, 7),
               unit("t", "B", 20, 10, **{"target_counters": 2, **(target_kw or {})}),
               unit("far", "B", 10, 20), *extra],
        blips=[blip("bp", "B", 12, 10, [content("hidden", "B")]), *blips], terrain=list(terrain))


def test_countermeasures_roll_nearest_the_firer_first_then_the_hit_die():
    out = do(missile_table(), "missile", "f", [4, 5, 6, 2], target="t")
    assert out.legal, out.reason
    labels = [r.label for r in out.rolls]
    assert [lab.split(" for ")[-1] if "CM" in lab else "hit" for lab in labels] == ["b2", "b3", "t", "hit"]
    # Direct hit: 2 <= 2 counters. t is destroyed; the blast (3") around (20, 10) reaches nobody else.
    assert not alive(out, "t")
    assert "bp" in out.state.blips and alive(out, "b3")
    assert out.state.units["f"].target_counters == 1
    craters = [t for t in out.state.terrain if t.type == "crater"]
    assert len(craters) == 1 and (craters[0].circle.x, craters[0].circle.y, craters[0].circle.r) == (20, 10, 1.5)


def test_a_successful_countermeasure_stops_everything():
    out = do(missile_table(), "missile", "f", [4, 3], target="t")
    assert out.legal and used(out) == 2
    assert alive(out, "t") and out.state.units["t"].target_counters == 2
    assert out.state.terrain == [] and out.state.units["f"].target_counters == 1


def test_a_damaged_unit_pre_rolls_before_its_countermeasure():
    # b2 is Damaged: its pre-roll 5 fails, so its CM die is not rolled; b3 6, t 6 fail; hit 1.
    out = do(missile_table(b2_kw={"damaged": True}), "missile", "f", [5, 6, 6, 1], target="t")
    assert [r.label.startswith("Damaged") for r in out.rolls] == [True, False, False, False]
    assert not alive(out, "t") and used(out) == 4
    # Pre-roll 2 lets the CM fire; CM 1 shoots the missile down.
    out = do(missile_table(b2_kw={"damaged": True}), "missile", "f", [2, 1], target="t")
    assert alive(out, "t") and used(out) == 2 and out.state.terrain == []


def test_the_hit_die_is_rolled_even_when_no_hit_is_possible():
    # t has 1 counter in Heavy cover: effective 1 - 2 = -1. After three failed CMs the hit die is still rolled.
    s = missile_table(target_kw={"target_counters": 1}, terrain=[rect("wood", "woods", 19, 8, 21, 12)])
    with pytest.raises(DiceMissing) as err:
        do(s, "missile", "f", [6, 6, 6], target="t")
    assert "hit die" in err.value.request.label
    with pytest.raises(DiceMissing) as err:
        do(s, "missile", "f", [6, 6, 6, 1], target="t")
    assert "Red" in err.value.request.label


def test_deviation_red_and_normal_dice_and_the_bearing_give_the_point_of_impact():
    # Hit 6 > 2: no direct hit. Red 2 + normal 1 = 3" at 90°: MPI (20, 13). Blast radius Nuc 3, edge distance:
    # t 3 - 0.5 = 2.5" and b4 3.5 - 0.5 = 3.0" (inclusive) are caught, t first. b3 is 6.7" - 0.5 away.
    s = missile_table(extra=[unit("b4", "B", 20, 16.5)])
    dice = [4, 5, 6, 6, 2, 1,
            1, 2, 4,      # t: 4 > 3, Damaged
            6, 1, 1,      # t: 6 > 3, Stunned
            2, 2, 2,      # t: survives
            1, 1, 1]      # b4: unharmed
    out = do(s, "missile", "f", dice, [90.0], target="t")
    assert out.legal and used(out) == len(dice)
    t = out.state.units["t"]
    assert t.damaged and t.stunned
    b4 = out.state.units["b4"]
    assert not b4.damaged and not b4.stunned
    crater = [x for x in out.state.terrain if x.type == "crater"][0]
    assert crater.circle.x == pytest.approx(20) and crater.circle.y == pytest.approx(13)
    assert crater.circle.r == 1.5
    blast_labels = [r.label for r in out.rolls if "blast" in r.label]
    assert [lab.split(" for ")[1].split(" ")[0] for lab in blast_labels] == ["t"] * 9 + ["b4"] * 3


def test_missing_bearing_is_a_missing_roll():
    with pytest.raises(DiceMissing) as err:
        do(missile_table(), "missile", "f", [4, 5, 6, 6, 2, 1], target="t")
    assert err.value.request.kind == "bearing"


def test_blast_cascade_destroys_at_the_third_roll_and_an_already_damaged_trooper_at_the_first():
    s = missile_table(extra=[unit("b4", "B", 20, 16.5, damaged=True)])
    dice = [4, 5, 6, 6, 2, 1,
            4, 1, 1, 4, 1, 1, 4, 1, 1,   # t: damaged, stunned, destroyed
            1, 5, 1]                     # b4 was Damaged: a die above Armour destroys it at once (A31)
    out = do(s, "missile", "f", dice, [90.0], target="t")
    assert used(out) == len(dice)
    assert not alive(out, "t") and not alive(out, "b4")


def test_an_already_stunned_trooper_rolls_the_cascade_normally():
    # b4 was Stunned: it still rolls damage (6: Damaged) and then the stun dice (1, 1, 1), which change nothing.
    s = missile_table(extra=[unit("b4", "B", 20, 16.5, stunned=True)])
    dice = [4, 5, 6, 6, 2, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1]
    out = do(s, "missile", "f", dice, [90.0], target="t")
    assert used(out) == len(dice)
    assert out.state.units["b4"].damaged and out.state.units["b4"].stunned


def test_blast_reveals_blips_first_destroys_drones_and_hurts_friends_too():
    # MPI (20, 13) as above. Caught, by edge distance from the MPI: drone bd (1.5"), blip bl -> trooper bt (1.5"),
    # friendly pal (1.5"), t (2.5"). The decoy dc is removed. Ties are broken by id: bd, bt, pal.
    s = missile_table(extra=[unit("bd", "B", 22, 13, type="basic-drone"), unit("pal", "A", 20, 15)],
                      blips=[blip("bl", "B", 18, 13, [content("bt", "B")]), blip("dc", "B", 21.5, 11.5, [])])
    dice = [4, 5, 6, 6, 2, 1,
            4, 1, 1, 1, 1, 1,   # bt: Damaged, not Stunned
            1, 1, 1,            # pal: unharmed
            1, 1, 1]            # t: unharmed
    out = do(s, "missile", "f", dice, [90.0], target="t")
    assert used(out) == len(dice), [r.label for r in out.rolls]
    assert "bl" not in out.state.blips and "dc" not in out.state.blips
    assert not alive(out, "bd")
    assert out.state.units["bt"].damaged and not out.state.units["bt"].stunned
    assert not out.state.units["pal"].damaged and not out.state.units["t"].damaged
    order = []
    for r in out.rolls:
        if "blast" in r.label:
            who = r.label.split(" for ")[1].split(" ")[0]
            if who not in order:
                order.append(who)
    assert order == ["bt", "pal", "t"]
    reveal = next(i for i, e in enumerate(out.events) if "bl is revealed" in e)
    drone = next(i for i, e in enumerate(out.events) if "bd is destroyed" in e)
    assert reveal < drone


def test_a_crater_removes_a_feature_it_more_than_half_covers():
    bush = rect("bush", "bush", 19, 12, 21, 14)          # 2" x 2" around the MPI: wholly under the 3" crater
    wood = rect("wood", "woods", 24, 0, 34, 36)          # far bigger than the crater
    s = missile_table(terrain=[bush, wood])
    out = do(s, "missile", "f", [4, 5, 6, 6, 2, 1, 1, 1, 1], [90.0], target="t")
    ids = [x.id for x in out.state.terrain]
    assert "bush" not in ids and "wood" in ids
    assert [x.type for x in out.state.terrain if x.id != "wood"] == ["crater"]


def test_direct_hit_on_a_drone_and_on_an_objective():
    drone = game_state(units=[unit("f", "A", 2, 10, facing=0),
                              unit("td", "B", 20, 10, type="basic-drone", target_counters=2)])
    out = do(drone, "missile", "f", [4, 2], target="td")     # the drone's CM is its Rob 3: 4 fails; 2 <= 2 hits
    assert not alive(out, "td")
    obj = game_state(units=[unit("f", "A", 2, 10, facing=0), unit("n", "B", 20, 12)],
                     objectives=[{"id": "alpha", "x": 20, "y": 10, "target_counters": 2}])
    # n rolls its CM (it is 1.5" from the path), then the hit die; n is 1.5" from the MPI: 3 blast dice.
    out = do(obj, "missile", "f", [6, 1, 1, 5, 1, 1, 1, 1, 1], target="alpha")
    assert out.legal, out.reason
    assert out.state.objectives["alpha"].destroyed
    assert out.state.units["n"].damaged and not out.state.units["n"].stunned
    assert used(out) == 8


def test_missile_hit_against_cover():
    # t in Light cover (bush) with 2 counters: effective 1. Hit die 2 is not a direct hit.
    s = missile_table(terrain=[rect("bush", "bush", 19, 9, 21, 11)])
    with pytest.raises(DiceMissing):
        do(s, "missile", "f", [4, 5, 6, 2], target="t")
    out = do(s, "missile", "f", [4, 5, 6, 1, 1, 1, 1], target="t")
    assert not alive(out, "t")


def test_missile_refusals():
    s = game_state(units=[unit("c", "A", 2, 10, type="commander", facing=0),
                          unit("t", "B", 20, 10, target_counters=2), unit("z", "B", 20, 20)])
    assert "Commander" in refused(s, "missile", "c", [1], target="t").reason
    s = game_state(units=[unit("f", "A", 2, 10, facing=0), unit("z", "B", 20, 20)])
    assert "no Target counters" in refused(s, "missile", "f", [1], target="z").reason


# ---- Fire Flamer (p.22, A32, A36) ----------------------------------------------------------------------------------


def flamer_table():
    """Smoke centred at (12.5, 10), radius 2.5. Under it, by edge distance from the centre: e 0.5", drone d 1.5",
    friendly fr 1.7", blip bl (trooper bt) 2.0", the firer f 2.0". o is 3.5" away."""
    return game_state(units=[unit("f", "A", 10, 10, facing=0), unit("e", "B", 13.5, 10),
                             unit("d", "B", 12.5, 12, type="basic-drone"), unit("fr", "A", 12.5, 7.8),
                             unit("o", "B", 12.5, 14)],
                      blips=[blip("bl", "B", 14.5, 11.5, [content("bt", "B")])],
                      objectives=[{"id": "alpha", "x": 11.2, "y": 11.2}])


def test_flamer_reach_is_six_inches_from_the_base_edge_inside_the_arc():
    s = game_state(units=[unit("f", "A", 10, 10, facing=0)])
    assert do(s, "flamer", "f", x=16.5, y=10).legal              # 6.5 - 0.5 = 6.0"
    assert "6.0" in refused(s, "flamer", "f", x=16.6, y=10).reason
    assert "arc" in refused(s, "flamer", "f", x=5, y=10).reason
    assert do(s, "flamer", "f", x=10, y=16).legal                # 90° off facing: on the arc's edge
    d = game_state(units=[unit("d", "A", 10, 10, type="basic-drone")])
    refused(d, "flamer", "d", x=12, y=10)


def test_flamer_attacks_everyone_under_the_template_nearest_the_centre_first():
    dice = [4, 4,    # e: Red 4 stuns, normal 4 damages
            1, 1,    # fr: nothing
            1, 6,    # bt: Damaged
            6, 1]    # f: Stunned
    out = do(flamer_table(), "flamer", "f", dice, x=12.5, y=10)
    assert out.legal, out.reason
    assert used(out) == 8
    st = out.state
    assert st.units["e"].stunned and st.units["e"].damaged
    assert "d" not in st.units
    assert not st.units["fr"].stunned and not st.units["fr"].damaged
    assert "bl" not in st.blips and st.units["bt"].damaged and not st.units["bt"].stunned
    assert st.units["f"].stunned and not st.units["f"].damaged and st.units["f"].target_counters == 1
    assert not st.units["o"].stunned and st.units["o"].target_counters == 0
    assert not st.objectives["alpha"].destroyed
    graze_order = []
    for r in out.rolls:
        who = r.label.split(" for ")[1].split("'")[0]
        if who not in graze_order:
            graze_order.append(who)
    assert graze_order == ["e", "fr", "bt", "f"]
    smoke = [t for t in st.terrain if t.type == "smoke"]
    assert len(smoke) == 1 and (smoke[0].circle.x, smoke[0].circle.y, smoke[0].circle.r) == (12.5, 10, 2.5)


def test_smoke_is_light_cover_afterwards():
    s = game_state(units=[unit("f", "A", 10, 10, facing=0), unit("v", "B", 22, 10, facing=180)])
    out = do(s, "flamer", "f", x=16, y=10)
    # v walks into the smoke afterwards, its centre 1" from the smoke's centre.
    moved = do(out.state, "move", "v", x=17, y=10)
    assert moved.legal                                            # the smoke is not hindering
    bf = moved.state.battlefield()
    assert cover(bf, bf.piece("f"), bf.piece("v")).target_cover == "light"


# ---- Kamikaze (p.22, A34, A35) -------------------------------------------------------------------------------------


def kamikaze_table(t_kw=None, terrain=()):
    """New Tokyo Vet kamikaze drone k (Rob 4: blast radius 4", 4 dice) at (10, 10). t (3 counters) at (15, 10);
    k moves to (14, 10), touching it. t2 at (14, 14.5) is 4.5 - 0.5 = 4.0" from the drone: in the blast."""
    return game_state(units=[unit("k", "A", 10, 10, type="kamikaze-drone", faction="new-tokyo"),
                             unit("t", "B", 15, 10, **{"target_counters": 3, **(t_kw or {})}),
                             unit("t2", "B", 14, 14.5)], terrain=list(terrain))


def test_kamikaze_passive_sensors_come_before_the_strict_contact_roll():
    # Passive sensors first: t 3 + 1 = 4 counters. Contact 3 < 4 destroys t. The blast still hits t2: 4 dice.
    out = do(kamikaze_table(), "kamikaze", "k", [3, 1, 1, 1, 1], x=14, y=10, target="t")
    assert out.legal, out.reason
    assert used(out) == 5
    assert not alive(out, "t") and not alive(out, "k")
    assert out.state.units["t2"].target_counters == 1 and not out.state.units["t2"].damaged
    crater = [x for x in out.state.terrain if x.type == "crater"]
    assert len(crater) == 1 and (crater[0].circle.x, crater[0].circle.y, crater[0].circle.r) == (14, 10, 1.5)
    events = out.events
    passive = next(i for i, e in enumerate(events) if "passive" in e and "t " in e + " ")
    contact = next(i for i, e in enumerate(events) if "contact" in e)
    assert passive < contact


def test_kamikaze_contact_equal_to_the_counters_fails_and_the_target_is_blasted():
    # 4 is not lower than 4 (A34). t (edge 0" from the drone) rolls first, then t2 (4.0"); Arm 3.
    dice = [4,
            4, 1, 1, 1,     # t: Damaged
            1, 1, 1, 1,     # t: not Stunned
            1, 1, 1, 1]     # t2: unharmed
    out = do(kamikaze_table(), "kamikaze", "k", dice, x=14, y=10, target="t")
    assert used(out) == len(dice)
    assert out.state.units["t"].damaged and not out.state.units["t"].stunned
    assert not out.state.units["t2"].damaged


def test_kamikaze_contact_against_cover():
    # t in Light cover: 3 + 1 - 1 = 3 effective. 2 < 3 destroys.
    out = do(kamikaze_table(terrain=[rect("bush", "bush", 14.6, 9, 16, 11)]), "kamikaze", "k", [2, 1, 1, 1, 1],
             x=14, y=10, target="t")
    assert not alive(out, "t")


def test_kamikaze_on_an_objective():
    s = game_state(units=[unit("k", "A", 10, 10, type="kamikaze-drone"), unit("far", "B", 30, 30)],
                   objectives=[{"id": "alpha", "x": 15, "y": 10, "target_counters": 2}], attacker="A")
    # The attacker's drone ends within 6": alpha 2 + 1 = 3. Contact 2 < 3 destroys it.
    out = do(s, "kamikaze", "k", [2], x=14, y=10, target="alpha")
    assert out.legal, out.reason
    assert out.state.objectives["alpha"].destroyed and not alive(out, "k")


def test_kamikaze_without_contact_just_explodes():
    s = game_state(units=[unit("k", "A", 10, 10, type="kamikaze-drone"), unit("n", "B", 16, 10),
                          unit("d", "B", 15, 12, type="basic-drone")])
    # Zane Vet: Rob 3. k ends at (13, 10): d is 2.83 - 0.5 = 2.33", n 3 - 0.5 = 2.5": both caught. d is destroyed;
    # n rolls 3 dice: 6 > 3 Damaged, then 1, 1, 1 for the stun: not Stunned.
    out = do(s, "kamikaze", "k", [6, 1, 1, 1, 1, 1, 1, 1], x=13, y=10)
    assert not alive(out, "d") and not alive(out, "k")
    assert out.state.units["n"].damaged and used(out) == 6


def test_kamikaze_can_jump_over_a_building_into_contact():
    # The building between them stops a Move but not a Jump. 4" jump: the drone's counters are removed, +1 for the
    # jump, +1 from passive sensors; t 1 + 1 = 2 counters; contact 1 < 2 destroys it.
    s = game_state(units=[unit("k", "A", 10, 10, type="kamikaze-drone"), unit("t", "B", 15, 10, target_counters=1)],
                   terrain=[rect("hall", "large-building", 11, 5, 13, 15)])
    refused(s, "kamikaze", "k", [1], x=14, y=10, target="t")
    out = do(s, "kamikaze", "k", [1], x=14, y=10, target="t", jump=True)
    assert out.legal, out.reason
    assert not alive(out, "t") and not alive(out, "k") and used(out) == 1


def test_only_kamikaze_drones_explode():
    s = game_state(units=[unit("b", "A", 10, 10, type="basic-drone"), unit("t", "A", 20, 10)])
    refused(s, "kamikaze", "b", x=12, y=10)
    refused(s, "kamikaze", "t", x=12, y=10)


def test_a_crater_is_heavy_cover_and_hindering_afterwards():
    s = missile_table(extra=[unit("w", "A", 24, 13, facing=180)])
    # Direct hit on t (2 <= 2): crater of 1.5" radius at (20, 10).
    out = do(s, "missile", "f", [4, 5, 6, 2], target="t")
    assert not alive(out, "t")
    # w walks into the crater: 4.61" of path from (24, 13) to (20.5, 10), the last 1.09" inside the crater's 1.5"
    # radius, which counts double: 5.70", within the 6" allowance. Standing in it, w is in Heavy cover.
    walked = do(out.state, "move", "w", x=20.5, y=10)
    assert walked.legal, walked.reason
    bf = walked.state.battlefield()
    assert cover(bf, bf.piece("b3"), bf.piece("w")).target_cover == "heavy"


def test_crater_hinders_movement():
    s = game_state(units=[unit("w", "A", 2, 10, facing=0)],
                   terrain=[{"id": "crater-1", "type": "crater", "circle": {"x": 5, "y": 10, "r": 1.5}}])
    # 6" of path, 3" of it across the crater: cost 9".
    assert "9.0" in refused(s, "move", "w", x=8, y=10).reason
    # 3" of path ending at the crater's centre, 1.5" of it inside: cost 4.5".
    assert do(s, "move", "w", x=5, y=10).legal


def test_a_damaged_firer_checks_first_then_a_damaged_unit_pre_rolls_before_its_countermeasure():
    s = missile_table(b2_kw={"damaged": True})
    s.units["f"].damaged = True
    out = do(s, "missile", "f", [4, 2, 5, 6, 6, 1], target="t")
    kinds = [r.label.split(" ")[0] for r in out.rolls]
    assert kinds == ["Damaged", "Damaged", "CM", "CM", "CM", "missile"]
    assert [r.value for r in out.rolls] == [4, 2, 5, 6, 6, 1]
    # b2's pre-roll 2 lets its CM fire, but 5 > 3 misses; b3 and t miss; 1 <= 2 is a direct hit.
    assert not alive(out, "t")
    failed = do(s, "missile", "f", [6], target="t")
    assert failed.legal and failed.failed and used(failed) == 1
    assert failed.state.units["f"].target_counters == 0 and alive(failed, "t")


def test_the_firer_is_caught_in_its_own_blast():
    # f fires at t 4" away (edge 3"); only t rolls CM (6 fails). Hit 6 misses; Red 2 + normal 1 = 3" at 180°:
    # MPI (4.5, 10), 1.5" from f's edge and 2.5" from t's: f rolls first. f: 6 > 3 Damaged, then 1, 1, 1: not
    # Stunned. t: 1, 1, 1: unharmed.
    s = game_state(units=[unit("f", "A", 2.5, 10, facing=0), unit("t", "B", 7.5, 10, target_counters=2)])
    dice = [6, 6, 2, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1]
    out = do(s, "missile", "f", dice, [180.0], target="t")
    assert out.legal and used(out) == 13
    assert out.state.units["f"].damaged and not out.state.units["f"].stunned
    assert not out.state.units["t"].damaged
    first_blast = next(r for r in out.rolls if "blast" in r.label)
    assert "for f " in first_blast.label
