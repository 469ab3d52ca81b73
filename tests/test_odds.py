"""Exact odds (referee.rules.odds) against brute force over every die face, hand-worked values and sampling."""

import itertools
import math
import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.odds import (blast_odds, damaged_action_fails, graze_effects, jammer_test, kamikaze_contact,
                                missile_odds, percent, pool_distribution, rifle_odds, rifle_outcomes, stun_recovery,
                                target_counters_distribution)

FACES = range(1, 7)


def faces(n):
    return itertools.product(FACES, repeat=n)


def frequency(counts, total):
    return {k: F(v, total) for k, v in counts.items()}


# ---- brute force, written from the rules text and independent of the module ------------------------------


def shot_result(weapon, roll, drone):
    """'kill', 'graze' or 'miss' for one set of rifle dice (p.20)."""
    if weapon == "gauss":
        if 1 in roll:
            return "kill"
        return ("kill" if drone else "graze") if min(roll) == 2 else "miss"
    if weapon == "plasma":
        if any(f <= 2 for f in roll):
            return "kill"
        return ("kill" if drone else "graze") if min(roll) == 3 else "miss"
    if weapon == "mg":
        return "kill" if drone and any(f <= 2 for f in roll) else "miss"
    raise AssertionError(weapon)


def brute_rifle(weapon, dice, drone):
    counts = {"kill": 0, "graze": 0, "miss": 0}
    for roll in faces(dice):
        counts[shot_result(weapon, roll, drone)] += 1
    return frequency(counts, 6 ** dice)


def graze_result(armour, damaged, stunned, red, normal):
    """What a graze newly does, for one Red Die and one normal die (p.20, p.25, A53)."""
    if normal > armour and damaged:
        return "destroyed"
    new_stun = red > armour and not stunned
    new_damage = normal > armour
    if new_stun and new_damage:
        return "damaged_and_stunned"
    if new_damage:
        return "damaged_only"
    if new_stun:
        return "stunned_only"
    return "unharmed"


def brute_graze(armour, damaged, stunned):
    counts = dict.fromkeys(["unharmed", "stunned_only", "damaged_only", "damaged_and_stunned", "destroyed"], 0)
    for red, normal in faces(2):
        counts[graze_result(armour, damaged, stunned, red, normal)] += 1
    return frequency(counts, 36)


def brute_blast(dice, armour, damaged):
    """Enumerate all three rolls of the cascade jointly (p.21, A31)."""
    counts = dict.fromkeys(["unharmed", "damaged", "damaged_stunned", "destroyed"], 0)
    for first, second, third in itertools.product(list(faces(dice)), repeat=3):
        if not any(f > armour for f in first):
            counts["unharmed"] += 1
        elif damaged:
            counts["destroyed"] += 1
        elif not any(f > armour for f in second):
            counts["damaged"] += 1
        elif not any(f > armour for f in third):
            counts["damaged_stunned"] += 1
        else:
            counts["destroyed"] += 1
    return frequency(counts, 6 ** (3 * dice))


def brute_missile(cms, effective):
    """Every unit rolls a pre-roll die (used only when Damaged) and a CM die; then the hit die."""
    counts = {"down": 0, "hit": 0, "deviates": 0}
    per_unit = list(faces(2))
    for rolls in itertools.product(per_unit, repeat=len(cms)):
        down = any((not hurt or pre <= 4) and cm_die <= cm for (cm, hurt), (pre, cm_die) in zip(cms, rolls))
        for hit_die in FACES:
            if down:
                counts["down"] += 1
            elif hit_die <= effective:
                counts["hit"] += 1
            else:
                counts["deviates"] += 1
    return frequency(counts, 36 ** len(cms) * 6)


def brute_counters(dice, price, eaten):
    counts = {}
    for roll in faces(dice):
        c = max(0, sum(roll) // price - eaten)
        counts[c] = counts.get(c, 0) + 1
    return frequency(counts, 6 ** dice)


# ---- hand-worked values ------------------------------------------------------------------------------------


def test_gauss_two_dice_by_hand():
    r = rifle_odds("gauss", 2, False)
    assert r.p_kill == F(11, 36)
    assert r.p_graze == F(5, 6) ** 2 - F(4, 6) ** 2 == F(9, 36)
    assert r.p_miss == F(16, 36)
    assert r.p_kill_float == pytest.approx(11 / 36)
    assert "a 1 on any of 2 dice kills: 1 - (5/6)^2 = 11/36 (30.6%) [p.20]" in r.explain


def test_plasma_one_die_by_hand():
    r = rifle_odds("plasma", 1, False)
    assert (r.p_kill, r.p_graze, r.p_miss) == (F(1, 3), F(1, 6), F(1, 2))
    drone = rifle_odds("plasma", 1, True)
    assert (drone.p_kill, drone.p_graze, drone.p_miss) == (F(1, 2), 0, F(1, 2))


def test_machine_gun():
    assert rifle_odds("mg", 1, True).p_kill == F(1, 3)
    assert rifle_odds("mg", 2, True).p_kill == 1 - F(4, 6) ** 2
    trooper = rifle_odds("mg", 4, False)
    assert (trooper.p_kill, trooper.p_graze, trooper.p_miss) == (0, 0, 1)
    assert any("A57" in line for line in trooper.explain)


def test_gauss_against_a_drone_counts_the_graze_as_removal():
    r = rifle_odds("gauss", 2, True)
    assert r.p_kill == F(11, 36) + F(9, 36) and r.p_graze == 0


def test_graze_by_hand():
    g = graze_effects(3, False, False)
    assert g.p_unharmed == g.p_stunned_only == g.p_damaged_only == g.p_damaged_and_stunned == F(1, 4)
    assert g.p_destroyed == 0
    damaged = graze_effects(4, True, False)
    assert damaged.p_destroyed == F(1, 3)              # normal die 5-6, whatever the Red Die
    assert damaged.p_stunned_only == F(2, 3) * F(1, 3)
    assert damaged.p_damaged_only == damaged.p_damaged_and_stunned == 0
    assert any("A53" in line for line in damaged.explain)
    stunned = graze_effects(2, False, True)             # a second stun does nothing
    assert stunned.p_stunned_only == stunned.p_damaged_and_stunned == 0
    assert stunned.p_damaged_only == F(2, 3) and stunned.p_unharmed == F(1, 3)


def test_rifle_outcomes_by_hand():
    # plasma, 1 die, Armour 3: kill 1/3, graze 1/6 then each quarter of the graze table
    o = rifle_outcomes("plasma", 1, 3, False, False, False)
    assert o.p_destroyed == F(1, 3)
    assert o.p_damaged == o.p_stunned == o.p_damaged_and_stunned == F(1, 24)
    assert o.p_no_effect == F(1, 2) + F(1, 24)
    damaged = rifle_outcomes("gauss", 2, 3, True, False, False)
    assert damaged.p_destroyed == F(11, 36) + F(9, 36) * F(1, 2)
    drone = rifle_outcomes("gauss", 2, 5, False, False, True)
    assert drone.p_destroyed == F(20, 36) and drone.p_no_effect == F(16, 36) and drone.graze is None


def test_missile_by_hand():
    m = missile_odds([(3, False), (4, True)], 3)
    assert m.p_each_cm_shoots_down == (F(1, 2), F(4, 6) * F(4, 6))
    assert m.p_each_cm_fails == (F(1, 2), F(5, 9))
    assert m.p_shot_down == 1 - F(1, 2) * F(5, 9) == F(13, 18)
    assert m.p_direct_hit == F(5, 18) * F(1, 2) == m.p_deviates
    assert any("A24" in line and "4/6 x 4/6" in line for line in m.explain)


def test_damaged_countermeasures():
    assert missile_odds([(3, True)], 0).p_shot_down == F(4, 6) * F(3, 6) == F(1, 3)
    assert missile_odds([(6, True)], 0).p_shot_down == F(2, 3)      # even CM 6 needs the 1-4 pre-roll
    assert missile_odds([(6, False)], 6).p_shot_down == 1
    assert missile_odds([(7, True)], 0).p_shot_down == F(2, 3)


def test_missile_effective_counters_edges():
    for eff in (-3, 0):
        m = missile_odds([], eff)
        assert m.p_direct_hit == 0 and m.p_deviates == 1 and m.p_shot_down == 0
    for eff in (6, 9):
        assert missile_odds([], eff).p_direct_hit == 1
    assert missile_odds([(0, False)], 2).p_direct_hit == F(1, 3)        # CM 0 never stops it
    m = missile_odds([(2, False), (5, True)], 4, names=["b-1", "b-2"])
    assert m.explain[0].startswith("b-1") and m.explain[1].startswith("b-2")


def test_blast_by_hand():
    b = blast_odds(2, 3, False)
    assert (b.p_unharmed, b.p_damaged, b.p_damaged_stunned, b.p_destroyed) == (F(1, 4), F(3, 16), F(9, 64), F(27, 64))
    d = blast_odds(2, 3, True)
    assert (d.p_unharmed, d.p_damaged, d.p_damaged_stunned, d.p_destroyed) == (F(1, 4), 0, 0, F(3, 4))
    zero = blast_odds(0, 1, True)
    assert zero.p_unharmed == 1 and zero.p_destroyed == 0
    drone = blast_odds(3, 5, False, target_is_drone=True)
    assert drone.p_destroyed == 1 and any("drone" in line for line in drone.explain)
    option_b = blast_odds(2, 3, True, second_damage_destroys=False)   # A31 option B: on to the stun roll
    assert option_b.p_destroyed == F(27, 64) and any("A31 option B" in line for line in option_b.explain)


def test_single_rolls():
    assert stun_recovery().p == F(1, 3)
    assert damaged_action_fails().p == F(1, 3) and damaged_action_fails().p_not == F(2, 3)
    assert any("A25" in line for line in damaged_action_fails().explain)
    j = jammer_test(4, False)
    assert (j.p_unharmed, j.p_damaged, j.p_destroyed) == (F(2, 3), F(1, 3), 0)
    j = jammer_test(4, True)
    assert (j.p_unharmed, j.p_damaged, j.p_destroyed) == (F(2, 3), 0, F(1, 3))


def test_kamikaze_contact_strict_and_not():
    assert kamikaze_contact(4).p == F(3, 6)
    assert kamikaze_contact(4, strict=False).p == F(4, 6)
    assert kamikaze_contact(1).p == 0 and kamikaze_contact(-2).p == 0
    assert kamikaze_contact(1, strict=False).p == F(1, 6)
    assert kamikaze_contact(7).p == 1 and kamikaze_contact(6).p == F(5, 6)
    assert "A34]" in kamikaze_contact(3).explain[0]
    assert "A34 option B" in kamikaze_contact(3, strict=False).explain[0]
    for eff in range(-1, 9):
        assert kamikaze_contact(eff).p == F(sum(1 for f in FACES if f < eff), 6)
        assert kamikaze_contact(eff, False).p == F(sum(1 for f in FACES if f <= eff), 6)


def test_target_counters_by_hand():
    # p.19 Example 2: price 4 with 2 eaten, 2 dice: only a 12 places a counter
    c = target_counters_distribution(2, 4, 2)
    assert dict(c.distribution) == {0: F(35, 36), 1: F(1, 36)}
    assert c.expected == F(1, 36) and c.p_none == F(35, 36)
    easy = target_counters_distribution(1, 1, 0)
    assert dict(easy.distribution) == {n: F(1, 6) for n in FACES} and easy.expected == F(7, 2)
    assert pool_distribution(2).distribution[7] == F(6, 36)
    assert pool_distribution(3).mean == F(21, 2)
    assert c.p_at_least(1) == F(1, 36)


def test_eaten_counters_at_a_different_price_follow_ruling_a50_option_b():
    # out of arc under A50 B: eaten counters cost the base price 2, placed ones the doubled 4
    c = target_counters_distribution(2, 4, 1, eaten_price=2)
    counts = {}
    for roll in faces(2):
        rest = sum(roll) - 2
        n = max(0, rest // 4) if rest > 0 else 0
        counts[n] = counts.get(n, 0) + 1
    assert dict(c.distribution) == frequency(counts, 36)


# ---- brute force over every die face -----------------------------------------------------------------------


@pytest.mark.parametrize("weapon", ["gauss", "plasma", "mg"])
@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("drone", [False, True])
def test_rifle_against_brute_force(weapon, dice, drone):
    r = rifle_odds(weapon, dice, drone)
    b = brute_rifle(weapon, dice, drone)
    assert (r.p_kill, r.p_graze, r.p_miss) == (b["kill"], b["graze"], b["miss"])


@pytest.mark.parametrize("armour", range(0, 8))
@pytest.mark.parametrize("damaged", [False, True])
@pytest.mark.parametrize("stunned", [False, True])
def test_graze_against_brute_force(armour, damaged, stunned):
    g = graze_effects(armour, damaged, stunned)
    b = brute_graze(armour, damaged, stunned)
    assert (g.p_unharmed, g.p_stunned_only, g.p_damaged_only, g.p_damaged_and_stunned, g.p_destroyed) == (
        b["unharmed"], b["stunned_only"], b["damaged_only"], b["damaged_and_stunned"], b["destroyed"])


@pytest.mark.parametrize("weapon", ["gauss", "plasma"])
@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("armour, damaged, stunned", [(1, False, False), (3, True, False), (4, False, True),
                                                      (2, True, True), (6, False, False)])
def test_rifle_outcomes_against_joint_brute_force(weapon, dice, armour, damaged, stunned):
    counts = dict.fromkeys(["destroyed", "damaged", "stunned", "both", "none"], 0)
    rename = {"destroyed": "destroyed", "damaged_only": "damaged", "stunned_only": "stunned",
              "damaged_and_stunned": "both", "unharmed": "none"}
    for roll in faces(dice):
        shot = shot_result(weapon, roll, False)
        for red, normal in faces(2):
            if shot == "kill":
                counts["destroyed"] += 1
            elif shot == "miss":
                counts["none"] += 1
            else:
                counts[rename[graze_result(armour, damaged, stunned, red, normal)]] += 1
    b = frequency(counts, 6 ** dice * 36)
    o = rifle_outcomes(weapon, dice, armour, damaged, stunned, False)
    assert (o.p_destroyed, o.p_damaged, o.p_stunned, o.p_damaged_and_stunned, o.p_no_effect) == (
        b["destroyed"], b["damaged"], b["stunned"], b["both"], b["none"])


@pytest.mark.parametrize("dice", [1, 2])
@pytest.mark.parametrize("armour", [0, 2, 3, 5, 6])
@pytest.mark.parametrize("damaged", [False, True])
def test_blast_against_brute_force(dice, armour, damaged):
    o = blast_odds(dice, armour, damaged)
    b = brute_blast(dice, armour, damaged)
    assert (o.p_unharmed, o.p_damaged, o.p_damaged_stunned, o.p_destroyed) == (
        b["unharmed"], b["damaged"], b["damaged_stunned"], b["destroyed"])


@pytest.mark.parametrize("cms", [[], [(3, False)], [(3, True)], [(2, False), (5, True)], [(6, True), (0, False)],
                                 [(1, True), (4, False), (3, True)]])
@pytest.mark.parametrize("effective", [-1, 0, 1, 3, 5, 6, 8])
def test_missile_against_brute_force(cms, effective):
    m = missile_odds(cms, effective)
    b = brute_missile(cms, effective)
    assert (m.p_shot_down, m.p_direct_hit, m.p_deviates) == (b["down"], b["hit"], b["deviates"])


@pytest.mark.parametrize("armour", range(0, 8))
@pytest.mark.parametrize("damaged", [False, True])
def test_jammer_against_brute_force(armour, damaged):
    hurt = F(sum(1 for f in FACES if f > armour), 6)
    j = jammer_test(armour, damaged)
    assert j.p_unharmed == 1 - hurt
    assert (j.p_damaged, j.p_destroyed) == ((0, hurt) if damaged else (hurt, 0))


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_pool_against_brute_force(dice):
    counts = {}
    for roll in faces(dice):
        counts[sum(roll)] = counts.get(sum(roll), 0) + 1
    assert dict(pool_distribution(dice).distribution) == frequency(counts, 6 ** dice)


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("price, eaten", [(1, 0), (2, 0), (3, 1), (4, 2), (5, 0), (7, 3), (13, 0)])
def test_target_counters_against_brute_force(dice, price, eaten):
    c = target_counters_distribution(dice, price, eaten)
    b = brute_counters(dice, price, eaten)
    assert {n: p for n, p in c.distribution.items() if p} == b
    assert c.expected == sum(n * p for n, p in b.items())


# ---- edge cases and bad input ------------------------------------------------------------------------------


def test_armour_six_cannot_be_hurt():
    for damaged, stunned in itertools.product([False, True], repeat=2):
        assert graze_effects(6, damaged, stunned).p_unharmed == 1
        assert rifle_outcomes("plasma", 3, 6, damaged, stunned, False).p_destroyed == rifle_odds("plasma", 3, False).p_kill
    assert blast_odds(4, 6, True).p_unharmed == 1
    assert jammer_test(6, True).p_unharmed == 1
    assert any("A5" in line for line in graze_effects(6, False, False).explain)


@pytest.mark.parametrize("call", [
    lambda: rifle_odds("gauss", 0, False),
    lambda: rifle_odds("plasma", -1, True),
    lambda: rifle_odds("laser", 2, False),
    lambda: rifle_odds("gauss", 1.5, False),
    lambda: rifle_outcomes("gauss", 0, 3, False, False, False),
    lambda: graze_effects(-1, False, False),
    lambda: blast_odds(-1, 3, False),
    lambda: jammer_test(-2, False),
    lambda: missile_odds([(3,)], 2),
    lambda: missile_odds([(-1, False)], 2),
    lambda: missile_odds([(3, False)], 2, names=["a", "b"]),
    lambda: target_counters_distribution(2, 0, 0),
    lambda: target_counters_distribution(2, -3, 0),
    lambda: target_counters_distribution(0, 3, 0),
    lambda: target_counters_distribution(2, 3, -1),
    lambda: pool_distribution(0),
])
def test_bad_input_is_a_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_error_message_quotes_the_input():
    with pytest.raises(ValueError, match="'laser'"):
        rifle_odds("laser", 2, False)
    with pytest.raises(ValueError, match="price"):
        target_counters_distribution(2, 0, 0)


def every_result():
    yield rifle_odds("gauss", 3, False)
    yield rifle_odds("mg", 1, False)
    yield graze_effects(3, True, True)
    yield rifle_outcomes("plasma", 2, 4, False, False, False)
    yield missile_odds([(3, True), (2, False)], 4)
    yield missile_odds([], 0)
    yield blast_odds(3, 4, False)
    yield blast_odds(0, 4, False)
    yield blast_odds(2, 4, False, target_is_drone=True)
    yield jammer_test(3, True)
    yield kamikaze_contact(3)
    yield stun_recovery()
    yield damaged_action_fails()
    yield pool_distribution(3)
    yield target_counters_distribution(3, 4, 1)


@pytest.mark.parametrize("result", list(every_result()), ids=lambda r: type(r).__name__)
def test_every_explanation_line_ends_with_its_page_or_ruling(result):
    assert result.explain
    for line in result.explain:
        assert isinstance(line, str) and line.endswith("]")
        tag = line[line.rindex("[") + 1:-1]
        assert all(part.strip().startswith(("p.", "A")) for part in tag.split(","))


def test_results_are_frozen_and_have_float_views():
    r = rifle_odds("gauss", 2, False)
    with pytest.raises(AttributeError):
        r.p_kill = F(1)
    assert r.as_floats() == {"p_kill": 11 / 36, "p_graze": 0.25, "p_miss": 16 / 36}
    with pytest.raises(TypeError):
        pool_distribution(2).distribution[7] = F(1)     # the cached distribution is read-only
    assert percent(F(11, 36)) == "30.6%" and percent(F(1, 10 ** 6)) == "<0.1%"


def test_large_dice_counts_stay_exact():
    r = rifle_odds("gauss", 12, False)
    assert r.p_kill == 1 - F(5, 6) ** 12 and r.p_kill + r.p_graze + r.p_miss == 1
    assert sum(pool_distribution(12).distribution.values()) == 1
    assert sum(blast_odds(12, 5, False).as_floats()[k] for k in
               ("p_unharmed", "p_damaged", "p_damaged_stunned", "p_destroyed")) == pytest.approx(1)


# ---- sampled with a seeded generator -----------------------------------------------------------------------

N = 20000


def within_four_standard_errors(hits, exact):
    p = float(exact)
    se = math.sqrt(p * (1 - p) / N)
    assert abs(hits / N - p) <= 4 * se + 1e-12, (hits / N, p)


def test_sampled_rifle_shot():
    rng = random.Random(7)
    kills = grazes = 0
    for _ in range(N):
        roll = [rng.randint(1, 6) for _ in range(3)]
        result = shot_result("gauss", roll, False)
        kills += result == "kill"
        grazes += result == "graze"
    r = rifle_odds("gauss", 3, False)
    within_four_standard_errors(kills, r.p_kill)
    within_four_standard_errors(grazes, r.p_graze)


def test_sampled_missile():
    rng = random.Random(11)
    cms = [(3, True), (2, False)]
    down = hit = 0
    for _ in range(N):
        stopped = False
        for cm, hurt in cms:
            if hurt and rng.randint(1, 6) > 4:
                continue
            if rng.randint(1, 6) <= cm:
                stopped = True
        if stopped:
            down += 1
        elif rng.randint(1, 6) <= 3:
            hit += 1
    m = missile_odds(cms, 3)
    within_four_standard_errors(down, m.p_shot_down)
    within_four_standard_errors(hit, m.p_direct_hit)


def test_sampled_blast_cascade():
    rng = random.Random(23)
    dice, armour = 3, 4
    destroyed = damaged_only = 0
    for _ in range(N):
        stage = 0
        while stage < 3 and any(rng.randint(1, 6) > armour for _ in range(dice)):
            stage += 1
        destroyed += stage == 3
        damaged_only += stage == 1
    b = blast_odds(dice, armour, False)
    within_four_standard_errors(destroyed, b.p_destroyed)
    within_four_standard_errors(damaged_only, b.p_damaged)


def test_sampled_target_counters():
    rng = random.Random(31)
    dice, price, eaten = 4, 3, 2
    at_least_two = 0
    for _ in range(N):
        pool = sum(rng.randint(1, 6) for _ in range(dice))
        at_least_two += max(0, pool // price - eaten) >= 2
    within_four_standard_errors(at_least_two, target_counters_distribution(dice, price, eaten).p_at_least(2))


# ---- properties for any valid input ------------------------------------------------------------------------


def assert_distribution(*ps):
    for p in ps:
        assert isinstance(p, F) and 0 <= p <= 1
    assert sum(ps) == 1


@settings(max_examples=200, deadline=None)
@given(weapon=st.sampled_from(["gauss", "plasma", "mg"]), dice=st.integers(1, 14), armour=st.integers(0, 7),
       damaged=st.booleans(), stunned=st.booleans(), drone=st.booleans())
def test_rifle_and_graze_are_distributions(weapon, dice, armour, damaged, stunned, drone):
    r = rifle_odds(weapon, dice, drone)
    assert_distribution(r.p_kill, r.p_graze, r.p_miss)
    g = graze_effects(armour, damaged, stunned)
    assert_distribution(g.p_unharmed, g.p_stunned_only, g.p_damaged_only, g.p_damaged_and_stunned, g.p_destroyed)
    o = rifle_outcomes(weapon, dice, armour, damaged, stunned, drone)
    assert_distribution(o.p_destroyed, o.p_damaged, o.p_stunned, o.p_damaged_and_stunned, o.p_no_effect)
    assert o.p_destroyed >= r.p_kill


@settings(max_examples=200, deadline=None)
@given(cms=st.lists(st.tuples(st.integers(0, 7), st.booleans()), max_size=6), effective=st.integers(-4, 10),
       dice=st.integers(0, 12), armour=st.integers(0, 7), damaged=st.booleans(), a31=st.booleans())
def test_missile_blast_and_jammer_are_distributions(cms, effective, dice, armour, damaged, a31):
    m = missile_odds(cms, effective)
    assert_distribution(m.p_shot_down, m.p_direct_hit, m.p_deviates)
    assert len(m.p_each_cm_fails) == len(cms)
    b = blast_odds(dice, armour, damaged, second_damage_destroys=a31)
    assert_distribution(b.p_unharmed, b.p_damaged, b.p_damaged_stunned, b.p_destroyed)
    j = jammer_test(armour, damaged)
    assert_distribution(j.p_unharmed, j.p_damaged, j.p_destroyed)
    k = kamikaze_contact(effective, a31)
    assert_distribution(k.p, k.p_not)


@settings(max_examples=150, deadline=None)
@given(dice=st.integers(1, 12), price=st.integers(1, 30), eaten=st.integers(0, 8))
def test_target_counters_are_distributions(dice, price, eaten):
    c = target_counters_distribution(dice, price, eaten)
    assert_distribution(*c.distribution.values())
    assert all(n >= 0 for n in c.distribution)
    assert 0 <= c.expected <= F(6 * dice, price)
