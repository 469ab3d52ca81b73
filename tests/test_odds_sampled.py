"""Every exact chance of ``rules.odds`` against sampled rolls: the rolls are simulated as the rules describe them
(p.19-25, A24, A27, A31, A34, A38, A53), with a seeded generator, and each outcome's share must lie within four and a
half standard errors of the exact chance (the seeds are fixed, so these tests never flicker)."""

import math

import numpy as np
import pytest

from referee.rules.odds import (
    blast_odds, damaged_action_fails, graze_effects, jammer_test, kamikaze_contact, missile_odds, rifle_odds,
    rifle_outcomes, stun_recovery, target_counters_distribution,
)

N = 40_000


def d6(rng, *shape):
    return rng.integers(1, 7, size=(N, *shape))


def near(hits, exact, n=N):
    """``hits`` (a count or a boolean array) is within 4.5 standard errors of ``n * exact``."""
    count = int(np.sum(hits))
    p = float(exact)
    se = math.sqrt(max(p * (1 - p), 1e-12) / n)
    assert abs(count / n - p) <= 4.5 * se + 1e-12, (count / n, p)


# ---- the rifle: kill roll, then the graze roll --------------------------------------------------------------------

KILL = {"gauss": 1, "plasma": 2}          # faces up to this kill
GRAZE = {"gauss": 2, "plasma": 3}         # a lowest die of this grazes


@pytest.mark.parametrize("weapon,dice,armour", [("gauss", 1, 3), ("gauss", 3, 2), ("plasma", 2, 4), ("plasma", 4, 3)])
def test_rifle_shot_against_a_trooper(weapon, dice, armour):
    rng = np.random.default_rng(100 + dice * 7 + armour)
    roll = d6(rng, dice)
    low = roll.min(axis=1)
    kill = low <= KILL[weapon]
    grazed = ~kill & (low == GRAZE[weapon])
    red, normal = d6(rng), d6(rng)
    stun, damage = grazed & (red > armour), grazed & (normal > armour)
    o = rifle_outcomes(weapon, dice, armour, False, False, False)
    r = rifle_odds(weapon, dice, False)
    near(kill, r.p_kill)
    near(grazed, r.p_graze)
    near(kill, o.p_destroyed)
    near(damage & ~stun, o.p_damaged)
    near(stun & ~damage, o.p_stunned)
    near(stun & damage, o.p_damaged_and_stunned)
    near(~kill & ~stun & ~damage, o.p_no_effect)


@pytest.mark.parametrize("weapon,dice", [("gauss", 2), ("plasma", 3), ("mg", 2), ("mg", 5)])
def test_rifle_shot_against_a_drone_removes_it_on_a_kill_or_a_graze(weapon, dice):
    rng = np.random.default_rng(200 + dice)
    low = d6(rng, dice).min(axis=1)
    if weapon == "mg":
        removed = low <= 2
    else:
        removed = (low <= KILL[weapon]) | (low == GRAZE[weapon])
    r = rifle_odds(weapon, dice, True)
    near(removed, r.p_kill)
    assert r.p_graze == 0


def test_machine_gun_cannot_harm_a_trooper():
    r = rifle_odds("mg", 4, False)
    assert r.p_kill == 0 and r.p_graze == 0 and r.p_miss == 1


@pytest.mark.parametrize("armour,damaged,stunned", [(2, False, False), (3, True, False), (3, False, True),
                                                    (4, True, True), (0, False, False)])
def test_graze_on_a_trooper_in_any_state(armour, damaged, stunned):
    rng = np.random.default_rng(300 + armour * 4 + damaged * 2 + stunned)
    red, normal = d6(rng), d6(rng)
    hurt, dazed = normal > armour, red > armour
    g = graze_effects(armour, damaged, stunned)
    if damaged:
        destroyed = hurt
        stun_only = ~hurt & dazed & (not stunned)
        near(destroyed, g.p_destroyed)
        near(stun_only, g.p_stunned_only)
        near(~destroyed & ~stun_only, g.p_unharmed)
        assert g.p_damaged_only == 0 and g.p_damaged_and_stunned == 0
    elif stunned:
        near(hurt, g.p_damaged_only)
        near(~hurt, g.p_unharmed)
    else:
        near(hurt & dazed, g.p_damaged_and_stunned)
        near(hurt & ~dazed, g.p_damaged_only)
        near(~hurt & dazed, g.p_stunned_only)
        near(~hurt & ~dazed, g.p_unharmed)


# ---- the missile: every countermeasure, then the hit ---------------------------------------------------------------

@pytest.mark.parametrize("cms,effective", [
    ([], 3), ([(2, False)], 4), ([(3, True), (2, False)], 3), ([(4, False), (1, True), (3, True)], 5),
    ([(6, True)], 6), ([(0, False), (2, True)], 0),
])
def test_missile_chain(cms, effective):
    rng = np.random.default_rng(400 + len(cms) * 10 + effective)
    m = missile_odds(cms, effective)
    stops = []
    for i, (cm, hurt) in enumerate(cms):
        pre = d6(rng) <= 4 if hurt else np.ones(N, dtype=bool)       # A24: a Damaged unit pre-rolls 1-4
        stop = pre & (d6(rng) <= cm)
        near(stop, m.p_each_cm_shoots_down[i])
        near(~stop, m.p_each_cm_fails[i])
        stops.append(stop)
    down = np.any(stops, axis=0) if stops else np.zeros(N, dtype=bool)
    hit = ~down & (d6(rng) <= effective)
    near(down, m.p_shot_down)
    near(~down, m.p_all_cm_fail)
    near(hit, m.p_direct_hit)
    near(~down & ~hit, m.p_deviates)


# ---- the blast cascade on each unit caught --------------------------------------------------------------------

@pytest.mark.parametrize("dice,armour,damaged,a31", [(3, 4, False, True), (1, 2, False, True), (5, 3, True, True),
                                                     (2, 3, True, False), (4, 5, False, True)])
def test_blast_cascade(dice, armour, damaged, a31):
    rng = np.random.default_rng(500 + dice * 10 + armour + damaged * 100 + a31 * 1000)
    rolls = [np.any(d6(rng, dice) > armour, axis=1) for _ in range(3)]
    first, second, third = rolls
    b = blast_odds(dice, armour, damaged, second_damage_destroys=a31)
    if damaged and a31:                   # A31: the second Damage destroys at once
        near(first, b.p_destroyed)
        near(~first, b.p_unharmed)
        assert b.p_damaged == 0 and b.p_damaged_stunned == 0
        return
    near(~first, b.p_unharmed)
    near(first & ~second, b.p_damaged)
    near(first & second & ~third, b.p_damaged_stunned)
    near(first & second & third, b.p_destroyed)


def test_a_drone_caught_in_a_blast_is_destroyed():
    b = blast_odds(3, 4, False, target_is_drone=True)
    assert b.p_destroyed == 1 and b.p_unharmed == 0


# ---- single rolls ----------------------------------------------------------------------------------------------

def test_stun_recovery_and_a_damaged_action_failing():
    rng = np.random.default_rng(600)
    near(d6(rng) <= 2, stun_recovery().p)              # stands on 1-2 (p.25)
    near(d6(rng) >= 5, damaged_action_fails().p)       # fails on 5-6 (p.25)


@pytest.mark.parametrize("armour,damaged", [(2, False), (4, True), (0, False)])
def test_jammer_field(armour, damaged):
    rng = np.random.default_rng(700 + armour)
    hurt = d6(rng) > armour
    j = jammer_test(armour, damaged)
    near(hurt, j.p_destroyed if damaged else j.p_damaged)
    near(~hurt, j.p_unharmed)


@pytest.mark.parametrize("effective,strict", [(1, True), (3, True), (3, False), (7, True), (0, False)])
def test_kamikaze_contact(effective, strict):
    rng = np.random.default_rng(800 + effective)
    roll = d6(rng)
    near(roll < effective if strict else roll <= effective, kamikaze_contact(effective, strict).p)


# ---- Target: the counters placed, for each number of dice ------------------------------------------------------------

@pytest.mark.parametrize("dice", range(1, 9))
@pytest.mark.parametrize("price,eaten,eaten_price", [(2, 0, None), (3, 1, None), (4, 2, 2)])
def test_target_counters_distribution_for_each_number_of_dice(dice, price, eaten, eaten_price):
    rng = np.random.default_rng(900 + dice * 13 + price)
    pool = d6(rng, dice).sum(axis=1)
    rest = pool - eaten * (price if eaten_price is None else eaten_price)
    counters = np.where(rest > 0, rest // price, 0)
    c = target_counters_distribution(dice, price, eaten, eaten_price=eaten_price)
    for n in range(0, int(counters.max()) + 2):
        near(counters == n, c.distribution.get(n, 0))
    assert abs(float(np.mean(counters)) - float(c.expected)) <= 4.5 * float(np.std(counters)) / math.sqrt(N) + 1e-9
