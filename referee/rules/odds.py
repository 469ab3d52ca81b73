"""Exact odds for every roll in the game: rifle, graze, missile, blast, jammer, kamikaze, recovery and Target.

All dice are d6. Every probability is an exact ``Fraction`` computed from a closed form (or, for the sensor pool,
a cached convolution), so a preview shows exactly what the engine's dice can do. Each public function returns a
small frozen dataclass holding the Fractions, float views of them (``<field>_float``, and ``as_floats()``) and an
``explain`` tuple of short lines, each ending with its page or ruling tag, e.g.
``"a 1 on any of 2 dice kills: 1 - (5/6)^2 = 11/36 (30.6%) [p.20]"``.

The rifle weapons are read from the same table the engine rolls against (``data/weapons.toml``: kill faces, graze
face, whether it harms troopers). Options of a ruling that changes the arithmetic are keyword arguments whose
defaults are the recommended readings (A31, A34, A50); options that only change who rolls (A24, A57) are decided by
the caller, which passes the result in (a Damaged flag, a weapon and target).

Bad input (no dice, a price of 0, a negative stat, an unknown weapon) raises ``ValueError`` quoting the input.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Mapping, Sequence, SupportsIndex, TypeVar

from .explain import Step
from .catalogue import weapons

if TYPE_CHECKING:
    from .catalogue import Weapon

__all__ = [
    "RifleOdds", "GrazeOdds", "ShotOutcomes", "MissileOdds", "BlastOdds", "JammerOdds", "Chance", "PoolOdds",
    "CountersOdds",
    "rifle_odds", "graze_effects", "rifle_outcomes", "missile_odds", "blast_odds", "jammer_test", "stun_recovery",
    "damaged_action_fails", "kamikaze_contact", "pool_distribution", "target_counters_distribution", "percent",
]

ZERO = Fraction(0)
ONE = Fraction(1)
SIDES = 6

T = TypeVar("T")


# ---- result types ------------------------------------------------------------------------------------------


def _float_twin(name: str) -> property:
    def get(self: object) -> float:
        return float(getattr(self, name))

    return property(get, doc=f"``{name}`` as a float, for display.")


def _float_views(cls: type[T]) -> type[T]:
    """Give every Fraction field ``p_x`` a float twin ``p_x_float``, and the class an ``as_floats()`` dict."""
    names = [f.name for f in fields(cls) if f.type in ("Fraction", Fraction)]  # type: ignore[arg-type]
    for name in names:
        setattr(cls, f"{name}_float", _float_twin(name))

    def as_floats(self: object) -> dict[str, float]:
        return {n: float(getattr(self, n)) for n in names}

    setattr(cls, "as_floats", as_floats)  # noqa: B010 -- a plain assignment to type[T] does not type-check
    return cls


@_float_views
@dataclass(frozen=True)
class RifleOdds:
    """One rifle shot before any graze roll (p.20).

    Against a drone a graze destroys it too, so ``p_kill`` is the chance the drone is removed and ``p_graze`` is 0.
    A machine gun against a trooper has ``p_kill = p_graze = 0``.
    """

    weapon: str
    dice: int
    target_is_drone: bool
    p_kill: Fraction
    p_graze: Fraction
    p_miss: Fraction
    explain: tuple[str, ...]


@_float_views
@dataclass(frozen=True)
class GrazeOdds:
    """What one graze newly does to a trooper: Red Die > Arm stuns, normal die > Arm damages (p.20, A53).

    Outcomes are the graze's new effects: a trooper already Stunned cannot be stunned again (p.25), so for it
    ``p_stunned_only`` and ``p_damaged_and_stunned`` are 0; a trooper already Damaged is destroyed by a normal die
    above Arm, so for it ``p_damaged_only`` and ``p_damaged_and_stunned`` are 0.
    """

    armour: int
    damaged: bool
    stunned: bool
    p_unharmed: Fraction
    p_stunned_only: Fraction
    p_damaged_only: Fraction
    p_damaged_and_stunned: Fraction
    p_destroyed: Fraction
    explain: tuple[str, ...]


@_float_views
@dataclass(frozen=True)
class ShotOutcomes:
    """The whole distribution of one rifle shot: the kill roll, then the graze roll if it grazed a trooper."""

    p_destroyed: Fraction
    p_damaged: Fraction
    p_stunned: Fraction
    p_damaged_and_stunned: Fraction
    p_no_effect: Fraction
    rifle: RifleOdds
    graze: GrazeOdds | None          # None against a drone or when the shot cannot graze a trooper
    explain: tuple[str, ...]


@_float_views
@dataclass(frozen=True)
class MissileOdds:
    """Countermeasures, then the hit die (p.21). ``p_shot_down + p_direct_hit + p_deviates == 1``."""

    p_shot_down: Fraction
    p_direct_hit: Fraction
    p_deviates: Fraction
    p_all_cm_fail: Fraction
    p_hit_die: Fraction                          # the hit die alone: d6 <= effective counters
    p_each_cm_shoots_down: tuple[Fraction, ...]  # in the order given
    p_each_cm_fails: tuple[Fraction, ...]
    effective_counters: int
    explain: tuple[str, ...]


@_float_views
@dataclass(frozen=True)
class BlastOdds:
    """How far the blast cascade goes on one unit (p.21, A31).

    ``p_damaged``: damaged, then the stun roll passed; ``p_damaged_stunned``: damaged and stunned, then the
    destruction roll passed; ``p_destroyed``: destroyed (a drone always, a Damaged trooper on its first failed roll).
    """

    dice: int
    armour: int
    damaged: bool
    target_is_drone: bool
    p_unharmed: Fraction
    p_damaged: Fraction
    p_damaged_stunned: Fraction
    p_destroyed: Fraction
    explain: tuple[str, ...]


@_float_views
@dataclass(frozen=True)
class JammerOdds:
    """The jamming-field test at the end of a trooper's activation (p.23, A38)."""

    armour: int
    damaged: bool
    p_unharmed: Fraction
    p_damaged: Fraction
    p_destroyed: Fraction
    explain: tuple[str, ...]


@_float_views
@dataclass(frozen=True)
class Chance:
    """A single yes/no roll: ``p`` is the chance of the event the function is named after."""

    p: Fraction
    explain: tuple[str, ...]

    @property
    def p_not(self) -> Fraction:
        return ONE - self.p


@_float_views
@dataclass(frozen=True)
class PoolOdds:
    """The sum of ``dice`` d6 (the Sensor Pool, p.19): ``distribution`` maps each sum to its exact chance."""

    dice: int
    distribution: Mapping[int, Fraction]
    mean: Fraction
    explain: tuple[str, ...]

    def p_at_least(self, total: int) -> Fraction:
        return sum((p for s, p in self.distribution.items() if s >= total), ZERO)


@_float_views
@dataclass(frozen=True)
class CountersOdds:
    """Counters one Target action places on one target (p.19): ``distribution`` maps counters to chance."""

    dice: int
    price: int
    eaten: int
    distribution: Mapping[int, Fraction]
    expected: Fraction
    p_none: Fraction
    explain: tuple[str, ...]

    def p_at_least(self, counters: int) -> Fraction:
        return sum((p for n, p in self.distribution.items() if n >= counters), ZERO)


# ---- small helpers -----------------------------------------------------------------------------------------


def percent(p: Fraction | float) -> str:
    """A probability as players read it: ``30.6%``; tiny non-zero chances show as ``<0.1%``."""
    x = float(p)
    if 0 < x < 0.0005:
        return "<0.1%"
    if 0.9995 < x < 1:
        return ">99.9%"
    return f"{x:.1%}"


def _line(text: str, *sources: str) -> str:
    return str(Step(text, ", ".join(s for s in sources if s)))


def _value(p: Fraction) -> str:
    return f"{p} ({percent(p)})"


def _whole(what: str, value: object, minimum: int | None = None) -> int:
    """An integer argument, checked: ``ValueError`` quoting the input otherwise."""
    if type(value) is int:                  # the usual case, answered before the protocol check (which is slow)
        if minimum is not None and value < minimum:
            raise ValueError(f"{what}: expected at least {minimum} (got {value!r})")
        return value
    if isinstance(value, bool):
        raise ValueError(f"{what}: expected a whole number (got {value!r})")
    if isinstance(value, SupportsIndex):
        n = operator.index(value)
    elif isinstance(value, float) and value.is_integer():
        n = int(value)
    else:
        raise ValueError(f"{what}: expected a whole number (got {value!r})")
    if minimum is not None and n < minimum:
        raise ValueError(f"{what}: expected at least {minimum} (got {value!r})")
    return n


def _faces(lo: int, hi: int) -> str:
    """Faces lo..hi of a d6 in words: ``1``, ``4-6``, ``no face``."""
    lo, hi = max(lo, 1), min(hi, SIDES)
    if lo > hi:
        return "no face"
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _at_most(threshold: int) -> Fraction:
    """P(d6 <= threshold)."""
    return Fraction(min(max(threshold, 0), SIDES), SIDES)


def _above(armour: int) -> Fraction:
    """P(d6 > armour): the armour test of grazes, blasts, flamers and the jammer (p.26)."""
    return Fraction(SIDES - min(max(armour, 0), SIDES), SIDES)


def _any_of(p: Fraction, dice: int) -> Fraction:
    """P(at least one of ``dice`` independent dice shows an event of chance ``p``)."""
    return ONE - (ONE - p) ** dice


def _or_list(faces: Sequence[int]) -> str:
    words = [str(f) for f in faces]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _dice_words(dice: int) -> str:
    return "the die" if dice == 1 else f"any of {dice} dice"


# ---- Fire Rifle (p.20) -------------------------------------------------------------------------------------


def _weapon(weapon: str) -> Weapon:

    table = weapons()
    if weapon not in table:
        raise ValueError(f"weapon: expected one of {', '.join(sorted(table))} (got {weapon!r})")
    return table[weapon]


def rifle_odds(weapon: str, dice: int, target_is_drone: bool) -> RifleOdds:
    """Kill, graze and miss chances of one rifle shot with ``dice`` dice (p.20).

    Gauss: a 1 on any die kills, otherwise a lowest die of 2 grazes. Plasma: 1 or 2 kills, lowest 3 grazes.
    Machine gun: 1 or 2 destroys a drone; it cannot harm troopers (A57). A graze destroys a drone, so against a
    drone ``p_kill`` includes it and ``p_graze`` is 0.
    """
    n = _whole("dice", dice)
    if n <= 0:
        raise ValueError(f"dice: a rifle shot needs at least 1 die (got {dice!r}); 0 or fewer is impossible [p.20, A49]")
    return _rifle_odds(str(weapon), n, bool(target_is_drone))


@lru_cache(maxsize=1024)
def _rifle_odds(weapon: str, dice: int, drone: bool) -> RifleOdds:
    w = _weapon(weapon)
    name = w.name.lower()
    explain = [_line(f"{name}: {dice} {'die' if dice == 1 else 'dice'} against a {'drone' if drone else 'trooper'}",
                     "p.20")]
    if not drone and not w.harms_troopers:
        explain.append(_line(f"a {name} cannot harm troopers: no kill, no graze", "p.20", "A57"))
        return RifleOdds(weapon, dice, drone, ZERO, ZERO, ONE, tuple(explain))

    kill = sorted(set(w.kill_faces))
    safe = SIDES - len(kill)
    p_kill = ONE - Fraction(safe, SIDES) ** dice
    explain.append(_line(f"a {_or_list(kill)} on {_dice_words(dice)} kills: 1 - ({safe}/6)^{dice} = {_value(p_kill)}",
                         "p.20"))
    p_graze = ZERO
    g = w.graze_face
    if g is not None and g not in kill:
        at_least = sum(1 for f in range(g, SIDES + 1) if f not in kill)
        above = at_least - 1
        p_graze = Fraction(at_least, SIDES) ** dice - Fraction(above, SIDES) ** dice
        explain.append(_line(f"otherwise a lowest die of {g} grazes: ({at_least}/6)^{dice} - ({above}/6)^{dice} = "
                             f"{_value(p_graze)}", "p.20"))
    if drone and p_graze:
        p_kill += p_graze
        p_graze = ZERO
        explain.append(_line(f"a graze destroys a drone: removed {_value(p_kill)}", "p.20"))
    p_miss = ONE - p_kill - p_graze
    explain.append(_line(f"no effect: {_value(p_miss)}", "p.20"))
    return RifleOdds(weapon, dice, drone, p_kill, p_graze, p_miss, tuple(explain))


def graze_effects(armour: int, damaged: bool, stunned: bool) -> GrazeOdds:
    """What a graze newly does to a trooper with ``armour`` (p.20): Red Die > Arm stuns, normal die > Arm damages.

    Both can happen. An already Damaged trooper is destroyed by a normal die above Arm, whatever the Red Die shows
    (p.25, A53). A second stun has no further effect (p.25, A26). Armour 6 (A5) cannot be exceeded.
    """
    arm = _whole("armour", armour, 0)
    return _graze(arm, bool(damaged), bool(stunned))


@lru_cache(maxsize=256)
def _graze(arm: int, damaged: bool, stunned: bool) -> GrazeOdds:
    s = _above(arm)                       # the Red Die stuns
    d = _above(arm)                       # the normal die damages
    explain = [_line(f"graze: Red Die above Armour {arm} stuns ({_faces(arm + 1, 6)}): {s}; "
                     f"normal die above Armour {arm} damages: {d}", "p.20")]
    if arm >= SIDES:
        explain.append(_line(f"Armour {arm}: no die can exceed it, the graze cannot hurt", "p.20", "A5"))
    unharmed = stunned_only = damaged_only = both = destroyed = ZERO
    if damaged:
        destroyed = d
        explain.append(_line(f"already Damaged: a normal die above Armour destroys, the Red Die is then irrelevant: "
                             f"{_value(destroyed)}", "p.25", "A53"))
        if stunned:
            unharmed = ONE - d
            explain.append(_line("already Stunned: a second stun has no further effect", "p.25", "A26"))
        else:
            stunned_only = (ONE - d) * s
            unharmed = (ONE - d) * (ONE - s)
            explain.append(_line(f"otherwise the Red Die stuns: ({1 - d})({s}) = {_value(stunned_only)}", "p.20"))
    elif stunned:
        damaged_only = d
        unharmed = ONE - d
        explain.append(_line("already Stunned: a second stun has no further effect", "p.25", "A26"))
        explain.append(_line(f"damaged: {_value(damaged_only)}", "p.20"))
    else:
        both = s * d
        stunned_only = s * (ONE - d)
        damaged_only = (ONE - s) * d
        unharmed = (ONE - s) * (ONE - d)
        explain.append(_line(f"stunned only {stunned_only}, damaged only {damaged_only}, "
                             f"damaged and stunned {both}", "p.20"))
    explain.append(_line(f"the graze does nothing: {_value(unharmed)}", "p.20"))
    return GrazeOdds(arm, damaged, stunned, unharmed, stunned_only, damaged_only, both, destroyed, tuple(explain))


def rifle_outcomes(weapon: str, dice: int, target_armour: int, target_damaged: bool, target_stunned: bool,
                   target_is_drone: bool) -> ShotOutcomes:
    """The full distribution of one rifle shot: destroyed, damaged, stunned, damaged and stunned, no effect.

    Combines ``rifle_odds`` with ``graze_effects`` (p.20, A53). Against a drone only destroyed / no effect occur, and
    the armour and status arguments are ignored. Outcomes are new effects, as in ``graze_effects``.
    """
    rifle = rifle_odds(weapon, dice, target_is_drone)
    arm = _whole("target_armour", target_armour, 0)
    return _outcomes(rifle, arm, bool(target_damaged), bool(target_stunned))


@lru_cache(maxsize=1024)
def _outcomes(rifle: RifleOdds, arm: int, damaged: bool, stunned: bool) -> ShotOutcomes:
    explain = list(rifle.explain)
    if rifle.target_is_drone or not rifle.p_graze:
        return ShotOutcomes(rifle.p_kill, ZERO, ZERO, ZERO, rifle.p_miss, rifle, None, tuple(explain))
    g = _graze(arm, damaged, stunned)
    explain.extend(g.explain)
    pg = rifle.p_graze
    destroyed = rifle.p_kill + pg * g.p_destroyed
    damaged_p = pg * g.p_damaged_only
    stunned_p = pg * g.p_stunned_only
    both = pg * g.p_damaged_and_stunned
    nothing = rifle.p_miss + pg * g.p_unharmed
    explain.append(_line(f"one shot: destroyed {_value(destroyed)}, damaged {damaged_p}, stunned {stunned_p}, "
                         f"damaged and stunned {both}, no effect {_value(nothing)}", "p.20", "A53"))
    return ShotOutcomes(destroyed, damaged_p, stunned_p, both, nothing, rifle, g, tuple(explain))


# ---- Fire Missile (p.21) -----------------------------------------------------------------------------------


def missile_odds(countermeasures: Sequence[tuple[int, bool]], effective_counters: int, *,
                 names: Sequence[str] | None = None) -> MissileOdds:
    """Shot down, direct hit or deviation for one missile (p.21).

    ``countermeasures``: one ``(CM, damaged)`` pair for each unit that rolls CM (A27). A die <= CM shoots the
    missile down; a Damaged trooper must first pre-roll 1-4 (A24: pass ``damaged=False`` when option B is in force,
    and for drones). After every CM fails, a hit die <= ``effective_counters`` (TC minus cover) is a direct hit.
    ``names`` labels the per-unit lines (unit ids); by default they are numbered.
    """
    cms = []
    for i, entry in enumerate(countermeasures):
        try:
            cm, hurt = entry
        except (TypeError, ValueError):
            raise ValueError(f"countermeasures[{i}]: expected a (CM, damaged) pair (got {entry!r})") from None
        cms.append((_whole(f"countermeasures[{i}] CM", cm, 0), bool(hurt)))
    eff = _whole("effective_counters", effective_counters)
    labels = None
    if names is not None:
        labels = tuple(str(n) for n in names)
        if len(labels) != len(cms):
            raise ValueError(f"names: expected {len(cms)} names, one per countermeasure (got {len(labels)})")
    return _missile(tuple(cms), eff, labels)


@lru_cache(maxsize=1024)
def _missile(cms: tuple[tuple[int, bool], ...], eff: int, labels: tuple[str, ...] | None) -> MissileOdds:
    explain = []
    succeed, fail = [], []
    if not cms:
        explain.append(_line("no unit rolls countermeasures", "p.21", "A27"))
    for i, (cm, hurt) in enumerate(cms):
        who = labels[i] if labels else f"CM roll {i + 1}"
        die = _at_most(cm)
        if cm >= SIDES:
            how = f"CM {cm}: any die shoots it down"
        elif cm <= 0:
            how = f"CM {cm}: no die shoots it down"
        else:
            how = f"CM {cm}: {_faces(1, cm)} shoots it down"
        if hurt:
            p = Fraction(4, 6) * die
            explain.append(_line(f"{who}, {how}, Damaged so pre-roll 1-4 first: 4/6 x {min(max(cm, 0), 6)}/6 = "
                                 f"{_value(p)}", "p.21", "p.37", "A24"))
        else:
            p = die
            explain.append(_line(f"{who}, {how}: {_value(p)}", "p.21"))
        succeed.append(p)
        fail.append(ONE - p)
    p_all_fail = ONE
    for q in fail:
        p_all_fail *= q
    p_down = ONE - p_all_fail
    if cms:
        product = " x ".join(str(q) for q in fail)
        explain.append(_line(f"every CM fails: {product} = {p_all_fail}; shot down: {_value(p_down)}",
                             "p.21", "A27"))
    hit = _at_most(eff)
    if eff <= 0:
        explain.append(_line(f"effective counters {eff}: no hit die can be {eff} or less, no direct hit", "p.21"))
    elif eff >= SIDES:
        explain.append(_line(f"effective counters {eff}: any hit die is a direct hit", "p.21"))
    else:
        explain.append(_line(f"hit die {_faces(1, eff)} (at most {eff} effective counters): {hit}", "p.21"))
    p_hit = p_all_fail * hit
    p_dev = p_all_fail - p_hit
    explain.append(_line(f"direct hit {p_all_fail} x {hit} = {_value(p_hit)}; deviates {_value(p_dev)}", "p.21"))
    return MissileOdds(p_down, p_hit, p_dev, p_all_fail, hit, tuple(succeed), tuple(fail), eff, tuple(explain))


# ---- Blast (p.21, p.22) ------------------------------------------------------------------------------------


def blast_odds(dice: int, armour: int, damaged: bool, *, target_is_drone: bool = False,
               second_damage_destroys: bool = True) -> BlastOdds:
    """The blast cascade on one unit caught in a missile or kamikaze blast (p.21, A31, A35).

    Roll ``dice`` dice (Nuc, or Rob for a kamikaze): any die > Arm damages (an already Damaged trooper is destroyed
    instead, and the cascade stops). If damaged, roll again: any > Arm stuns. If stunned, roll again: any > Arm
    destroys. A drone caught in a blast is simply destroyed (p.21); ``dice == 0`` leaves a trooper unharmed.
    ``second_damage_destroys=False`` is ruling A31 option B: an already Damaged trooper goes on to the stun roll.
    """
    n = _whole("dice", dice, 0)
    arm = _whole("armour", armour, 0)
    return _blast(n, arm, bool(damaged), bool(target_is_drone), bool(second_damage_destroys))


@lru_cache(maxsize=1024)
def _blast(dice: int, arm: int, damaged: bool, drone: bool, a31: bool) -> BlastOdds:
    rule = "A31" if a31 else "A31 option B"
    if drone:
        return BlastOdds(dice, arm, damaged, True, ZERO, ZERO, ZERO, ONE,
                         (_line("a drone caught in a blast is destroyed", "p.21"),))
    if dice == 0:
        return BlastOdds(dice, arm, damaged, False, ONE, ZERO, ZERO, ZERO,
                         (_line("no blast dice: unharmed", "p.21"),))
    e = _above(arm)
    h = _any_of(e, dice)
    explain = [_line(f"each die above Armour {arm} ({_faces(arm + 1, 6)}): {e}; on {_dice_words(dice)}: "
                     f"1 - ({min(arm, SIDES)}/6)^{dice} = {_value(h)}", "p.21")]
    if arm >= SIDES:
        explain.append(_line(f"Armour {arm}: no die can exceed it, the blast cannot hurt", "p.21", "A5"))
    miss = ONE - h
    if damaged and a31:
        explain.append(_line(f"already Damaged: the first roll above Armour destroys it: {_value(h)}",
                             "p.21", "p.25", rule))
        return BlastOdds(dice, arm, True, False, miss, ZERO, ZERO, h, tuple(explain))
    if damaged:
        explain.append(_line("already Damaged: it stays Damaged and goes on to the stun roll", "p.21", rule))
    explain.append(_line("damage roll, then stun roll, then destruction roll, each only if the last one hurt",
                         "p.21", rule))
    only = h * miss
    stunned = h * h * miss
    destroyed = h ** 3
    explain.append(_line(f"unharmed 1 - h = {miss}; damaged h(1 - h) = {only}; damaged and stunned "
                         f"h^2(1 - h) = {stunned}", "p.21"))
    explain.append(_line(f"destroyed h^3 = {_value(destroyed)}", "p.21", rule))
    return BlastOdds(dice, arm, damaged, False, miss, only, stunned, destroyed, tuple(explain))


# ---- Damage effects, jammer, kamikaze (p.22-25) ------------------------------------------------------------


@lru_cache(maxsize=1)
def stun_recovery() -> Chance:
    """A Stunned trooper stands on a d6 of 1-2 at the start of its activation (p.25): 1/3."""
    p = Fraction(2, 6)
    return Chance(p, (
        _line(f"a Stunned trooper stands on 1-2: 2/6 = {_value(p)}", "p.25"),
        _line("on 3-6 the activation counter is spent with no actions; a Command gives another try", "p.22", "p.25"),
    ))


@lru_cache(maxsize=1)
def damaged_action_fails() -> Chance:
    """A Damaged trooper's action fails on a d6 of 5-6, rolled before each action (p.25): 1/3."""
    p = Fraction(2, 6)
    return Chance(p, (
        _line(f"before each action a Damaged trooper rolls: 5-6 fails, 2/6 = {_value(p)}", "p.25"),
        _line("a failed action is spent and does nothing, no Target counters", "p.25", "A25"),
    ))


def jammer_test(armour: int, damaged: bool) -> JammerOdds:
    """A trooper ending its activation in a jamming field rolls d6: above Arm it is Damaged (p.23, A38).

    An already Damaged trooper is destroyed instead (p.25).
    """
    arm = _whole("armour", armour, 0)
    return _jammer(arm, bool(damaged))


@lru_cache(maxsize=64)
def _jammer(arm: int, damaged: bool) -> JammerOdds:
    e = _above(arm)
    explain = [_line(f"jamming field: a d6 above Armour {arm} ({_faces(arm + 1, 6)}) damages: {_value(e)}",
                     "p.23", "A38")]
    if damaged:
        explain.append(_line("already Damaged: the new Damage destroys it", "p.23", "p.25"))
        return JammerOdds(arm, True, ONE - e, ZERO, e, tuple(explain))
    return JammerOdds(arm, False, ONE - e, e, ZERO, tuple(explain))


def kamikaze_contact(effective_counters: int, strict: bool = True) -> Chance:
    """Chance a kamikaze contact roll destroys the touched target (p.22).

    ``strict=True`` (ruling A34, the default): a d6 strictly lower than the effective counters (TC minus cover).
    ``strict=False`` (A34 option B): a d6 equal to or lower, as for missiles.
    """
    eff = _whole("effective_counters", effective_counters)
    return _contact(eff, bool(strict))


@lru_cache(maxsize=128)
def _contact(eff: int, strict: bool) -> Chance:
    rule = "A34" if strict else "A34 option B"
    top = eff - 1 if strict else eff
    p = _at_most(top)
    word = "strictly lower than" if strict else "at most"
    if top <= 0:
        how = "no face"
    elif top >= SIDES:
        how = "any face"
    else:
        how = _faces(1, top)
    return Chance(p, (_line(f"contact: a d6 {word} {eff} effective counters ({how}) destroys: {_value(p)}",
                            "p.22", rule),))


# ---- Target (p.19) -----------------------------------------------------------------------------------------


def pool_distribution(dice: int) -> PoolOdds:
    """The exact distribution of the Sensor Pool, the sum of ``dice`` d6 (p.19). Cached per number of dice."""
    n = _whole("dice", dice, 1)
    return _pool(n)


@lru_cache(maxsize=64)
def _pool_counts(dice: int) -> tuple[int, ...]:
    """Number of ways each sum 0..6*dice can be rolled (index = sum)."""
    if dice == 0:
        return (1,)
    prev = _pool_counts(dice - 1)
    # Each new die spreads a sum's ways over the next six sums: a running window of six adds keeps this linear,
    # which matters for a cold 24-dice preview.
    out = [0] * (len(prev) + SIDES)
    window = 0
    for s in range(1, len(out)):
        if s - 1 < len(prev):
            window += prev[s - 1]
        if s - 1 - SIDES >= 0:
            window -= prev[s - 1 - SIDES]
        out[s] = window
    return tuple(out)


@lru_cache(maxsize=64)
def _pool(dice: int) -> PoolOdds:
    counts = _pool_counts(dice)
    total = SIDES ** dice
    dist = {s: Fraction(w, total) for s, w in enumerate(counts) if w}
    mean = Fraction(7 * dice, 2)
    return PoolOdds(dice, MappingProxyType(dist), mean, (
        _line(f"Sensor Pool: the sum of {dice}d6, {dice} to {SIDES * dice}, mean {mean}", "p.19"),))


def target_counters_distribution(dice: int, price: int, eaten: int, *, eaten_price: int | None = None) -> CountersOdds:
    """Counters a Target action with ``dice`` dice places on one target that costs ``price`` points each (p.19).

    ``counters = max(0, floor(pool / price) - eaten)`` (p.26). ``eaten_price`` is the price of each eaten counter
    when it differs from ``price`` (ruling A50 option B, out of arc: ``TargetPrice.base_price``).
    """
    n = _whole("dice", dice, 1)
    pr = _whole("price", price)
    if pr <= 0:
        raise ValueError(f"price: expected a price of at least 1 point per counter (got {price!r})")
    ea = _whole("eaten", eaten, 0)
    ep = pr if eaten_price is None else _whole("eaten_price", eaten_price)
    if ep <= 0:
        raise ValueError(f"eaten_price: expected at least 1 point per counter (got {eaten_price!r})")
    return _counters(n, pr, ea, ep)


@lru_cache(maxsize=1024)
def _counters(dice: int, price: int, eaten: int, eaten_price: int) -> CountersOdds:
    pool = _pool(dice)
    # Whole numbers of ways until the end: one Fraction per number of counters instead of one per pool sum.
    ways: dict[int, int] = {}
    for s, w in enumerate(_pool_counts(dice)):
        if w:
            rest = s - eaten * eaten_price
            c = rest // price if rest > 0 else 0
            ways[c] = ways.get(c, 0) + w
    total = SIDES ** dice
    dist = {c: Fraction(w, total) for c, w in sorted(ways.items())}
    expected = Fraction(sum(c * w for c, w in ways.items()), total)
    need = eaten * eaten_price + price
    explain = list(pool.explain)
    if eaten_price == price:
        formula = f"max(0, floor(pool / {price}) - {eaten})" if eaten else f"floor(pool / {price})"
        explain.append(_line(f"counters placed = {formula}", "p.19", "p.26"))
    else:
        explain.append(_line(f"counters placed = max(0, floor((pool - {eaten} x {eaten_price}) / {price}))",
                             "p.19", "A50 option B"))
    p_none = dist.get(0, ZERO)
    explain.append(_line(f"a pool of {need} or more places at least 1: {_value(ONE - p_none)}", "p.19"))
    explain.append(_line(f"expected counters {expected} ({float(expected):.2f})", "p.19"))
    return CountersOdds(dice, price, eaten, MappingProxyType(dist), expected, p_none, tuple(explain))
