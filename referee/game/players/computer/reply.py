"""Hard's look at the opponent's reply: what the enemy's next missiles can do to its units, blasts included.

Normal's evaluation (``evaluate.threat``) counts an enemy missile only as a direct hit on the unit it aims at. A
missile does more [p.21]: it bursts where it lands, direct hit or deviation, and every unit within the firer's
Nuclear inches of that point (edge distance, A30) rolls Nuc dice against its Armour, a drone caught in it destroyed;
a deviation lands 2-12" away (the Red Die plus a normal die) in any direction (A29). A missile needs neither sight
nor range, only Target counters on its aim (p.21, A28), and an objective with counters is an aim too. So units
standing close together beside one that carries counters, or beside an objective that does, can all be lost to one
shot: the battles hard lost to normal were decided by such blasts (one deviated missile at an objective took four
of its units).

``blast_loss`` is the VP the computer's side can expect to lose to the blasts of the enemy's next missiles, from the
best aims the enemy has: each aim's direct-hit blast on the units around it and its deviation's blast on every unit
it may land near, at the odds of the engine's own blast cascade (``odds.blast_odds``). It reads only what the
imagined world holds, which is the computer's own view with the hidden parts sampled, so it is peek-free like the
rest. The direct hit itself is left to ``evaluate.threat``.
"""

from __future__ import annotations

import functools
import math

from ....rules.battlefield import Battlefield, piece_from_unit
from ....rules.catalogue import weapons
from ....rules.odds import blast_odds
from ....rules.ranges import rifle_band_size
from ....rules.table_sight import ExposureMap
from ...battle.state import GameState, UnitState
from .evaluate import Aims
from .evaluate import DRONE_VALUE, LATER_SHOT, weights

REPLY_SHOTS = 2          # enemy missiles counted before the computer's units act again (its two best aims)
DAMAGE_COST = 0.25       # a Damaged or Stunned trooper, as a share of losing it
POOL_PER_DIE = 3.5       # a sensor die's average [p.19]
# The shares of a loss still to come are the evaluation's own (``evaluate``): a blast or an enemy's activation counts at
# ``Weights.threat`` of what it may take, as the enemy's next shots do (the enemy takes one turn for each of the side's
# and has other aims); an enemy that has used its activation this round acts again only after the Refresh [p.16], and
# an enemy blip's units must be revealed first, so each counts at ``LATER_SHOT``, as a shot that must wait does there.
DEVIATION = tuple((d, (6 - abs(d - 7)) / 36) for d in range(2, 13))     # the Red Die plus a normal die [p.21]


@functools.lru_cache(maxsize=512)
def _kit(faction: str, rating: str, type_: str) -> tuple[bool, int, int, int]:
    """Whether a unit of this kind fires missiles (a trooper other than the Commander, p.21, A5), its
    countermeasures, its Nuclear and its Armour."""
    probe = UnitState(id="probe", side="A", faction=faction, rating=rating, type=type_, x=0.0, y=0.0)
    piece = piece_from_unit(probe)
    missile = piece.is_trooper and piece.trooper_type().missile
    return missile, piece.stat("countermeasures"), piece.stat("nuclear"), piece.stat("armour")


def _shooter(bf: Battlefield, faction: str, rating: str, type_: str) -> tuple[bool, int, float, float]:
    """How an enemy trooper can hurt a unit in one activation: whether it fires missiles, its Sensors (the dice of a
    Target, p.19), its rifle's band as the engine measures it (weapon, trooper type, rulings A1 and A3, scale; p.20)
    and the chance one rifle die kills (the weapon's kill faces, p.20)."""
    piece = piece_from_unit(UnitState(id="probe", side="A", faction=faction, rating=rating, type=type_, x=0.0, y=0.0))
    weapon, band, _ = rifle_band_size(bf, piece)
    die = len(set(weapons()[weapon].kill_faces)) / 6.0 if weapon is not None else 0.0
    return piece.trooper_type().missile, piece.stat("sensors"), band or bf.distance(6.0), die


def price_at(grid: ExposureMap | None, x: float, y: float) -> int | None:
    """The cheapest Target counter a known enemy could place on a unit at (x, y) (``ExposureMap.price``): band,
    cover and the terrain between included [p.19]; None where none can Target it."""
    if grid is None:
        return None
    i = min(max(int(x / grid.step), 0), grid.columns - 1)
    j = min(max(int(y / grid.step), 0), grid.rows - 1)
    return grid.price(i, j)


def _missile_hit(counters: int, cm: int) -> float:
    """A missile's chance of a direct hit, which destroys whatever it hits [p.21]: the target's countermeasures
    fail (a die above CM), then a die at most its counters."""
    return max(0.0, 1.0 - min(6, max(0, cm)) / 6.0) * min(6, max(0, counters)) / 6.0


def _rifle_kill(counters: int, distance: float, band: float, die: float) -> float:
    """A rifle shot's chance to kill: a die per band's worth of counters [p.20]."""
    dice = counters // (int(distance // band) + 1)
    return 1.0 - (1.0 - die) ** dice if dice > 0 else 0.0


def reply_loss(state: GameState, me: str, aims: Aims, grid: ExposureMap | None) -> float:
    """Expected VP the computer's side loses to the enemy's next activations: for each of its units, the worst one
    enemy trooper's two actions [p.16] can do to it, the better of two shots with the counters already on it (missiles need neither
    sight nor range, p.21, A28) and a Target that adds counters at the price the exposure map gives, then one shot
    [p.19]. The evaluation counts each shot already open at a share of its odds and none that a Target would open
    first: a unit that Targets or fires ends its action with counters on it [p.17], and a Tactical that stood after
    two missiles was Targeted no further and lost to the enemy's two."""
    bf = state.battlefield()
    kits: dict[tuple[str, str, str], tuple[bool, int, float, float]] = {}

    def kit(faction: str, rating: str, type_: str) -> tuple[bool, int, float, float]:
        if (faction, rating, type_) not in kits:
            kits[faction, rating, type_] = _shooter(bf, faction, rating, type_)
        return kits[faction, rating, type_]

    shooters = []
    for u in state.units.values():
        if u.side == me or u.stunned or u.is_drone:
            continue
        missile, sen, band, die = kit(u.faction, u.rating, u.type)
        shooters.append((u.x, u.y, u.base, missile, sen, band, die, 1.0 if u.activation else LATER_SHOT, True))
    for b in state.blips.values():
        if b.side == me:
            continue
        for c in state.blip_contents(b) or []:
            if not c.type.endswith("-drone"):
                missile, sen, band, die = kit(c.faction, c.rating, c.type)
                shooters.append((b.x, b.y, b.base, missile, sen, band, die, LATER_SHOT if b.activation else
                                 LATER_SHOT * LATER_SHOT, False))
    if not shooters:
        return 0.0
    total = 0.0
    for u in state.units.values():
        if u.side != me:
            continue
        best = 0.0
        cm = _kit(u.faction, u.rating, u.type)[1]
        worth = _worth(u.type, aims)
        tc = u.target_counters
        price = price_at(grid, u.x, u.y)
        for sx, sy, sbase, missile, sen, band, die, weight, seen in shooters:
            gained = int(POOL_PER_DIE * sen // price) if seen and price else 0
            kill = 0.0
            if missile:
                once = _missile_hit(tc, cm)
                kill = max(1.0 - (1.0 - once) ** 2, _missile_hit(tc + gained, cm))
            if seen and price is not None:
                # A rifle needs sight: only where the exposure map shows a known enemy could see the unit. A graze
                # destroys a drone [p.20].
                d = max(0.0, math.hypot(sx - u.x, sy - u.y) - (u.base + sbase) / 2.0)     # edge to edge [p.6]
                hit = max(die, 2.0 / 6.0) if u.is_drone else die
                once = _rifle_kill(tc, d, band, hit)
                kill = max(kill, 1.0 - (1.0 - once) ** 2, _rifle_kill(tc + gained, d, band, hit))
            best = max(best, weight * kill * worth)
        total += best
    return weights().threat * total


@functools.lru_cache(maxsize=4096)
def _near_deviation(d_tenths: int, r_tenths: int) -> float:
    """The chance that a deviated missile lands within ``r`` of a point ``d`` from its aim (both in tenths of an
    inch): 2-12" away at a bearing the dice make uniform (A29)."""
    d, r = d_tenths / 10.0, r_tenths / 10.0
    p = 0.0
    for dist, w in DEVIATION:
        if d < 1e-9:
            p += w if dist <= r else 0.0
            continue
        c = (dist * dist + d * d - r * r) / (2.0 * dist * d)
        if c <= -1.0:
            p += w
        elif c < 1.0:
            p += w * math.acos(c) / math.pi
    return p


@functools.lru_cache(maxsize=512)
def _caught(nuc: int, armour: int, damaged: bool, drone: bool) -> float:
    """A unit caught in a blast of ``nuc`` dice, as a share of losing it: destroyed, or hurt (p.21, A31)."""
    o = blast_odds(nuc, armour, damaged, target_is_drone=drone)
    return float(o.p_destroyed) + DAMAGE_COST * float(o.p_damaged + o.p_damaged_stunned)


def _worth(type_: str, aims: Aims) -> float:

    if type_.endswith("-drone"):
        return DRONE_VALUE
    return max(aims.lose, 1.0) + weights().attrition


Victim = tuple[str, float, float, float, float]


def _victims(state: GameState, me: str, aims: Aims, nuc: int) -> list[Victim]:
    """The computer's units a blast of ``nuc`` dice could catch: id, where, base and what the blast takes of its
    worth; a blip's units where the blip stands (a blast reveals a blip before it hurts its units, A32)."""
    out = []
    for u in state.units.values():
        if u.side == me:
            hurt = _caught(nuc, _kit(u.faction, u.rating, u.type)[3], u.damaged, u.is_drone)
            out.append((u.id, u.x, u.y, u.base, hurt * _worth(u.type, aims)))
    for b in state.blips.values():
        if b.side != me:
            continue
        for c in state.blip_contents(b) or []:
            hurt = _caught(nuc, _kit(c.faction, c.rating, c.type)[3], c.damaged, c.type.endswith("-drone"))
            out.append((b.id, b.x, b.y, b.base, hurt * _worth(c.type, aims)))
    return out


def blast_loss(state: GameState, me: str, aims: Aims) -> float:
    """Expected VP the computer's side loses to the blasts of the enemy's next missiles (see the module)."""
    nucs = []
    for u in state.units.values():
        if u.side == me or u.stunned or u.is_drone:
            continue
        missile, _, nuc, _ = _kit(u.faction, u.rating, u.type)
        if missile and nuc > 0:
            nucs.append(nuc)
    if not nucs:
        return 0.0
    aims_at = [(u.x, u.y, u.target_counters, u.id, _kit(u.faction, u.rating, u.type)[1])
               for u in state.units.values() if u.side == me and u.target_counters > 0]
    aims_at += [(o.x, o.y, o.target_counters, o.id, 0) for o in state.objectives.values()
                if o.target_counters > 0 and not o.destroyed]
    if not aims_at:
        return 0.0
    scale = state.scale or 1.0
    total = 0.0
    used: set[str] = set()
    for nuc in sorted(nucs, reverse=True)[:REPLY_SHOTS]:
        best, best_id = 0.0, ""
        victims = _victims(state, me, aims, nuc)
        for x, y, counters, aim_id, cm in aims_at:
            if aim_id in used:
                continue
            through = 1.0 - min(6, max(0, cm)) / 6.0         # its own countermeasures [p.21]
            hit = min(6, counters) / 6.0
            loss = 0.0
            for vid, vx, vy, base, hurt in victims:
                d = math.hypot(vx - x, vy - y)
                r = nuc * scale + base / 2.0
                if d > 12.0 * scale + r:
                    continue
                near = _near_deviation(round(d / scale * 10), round(r / scale * 10))
                on_hit = 0.0 if vid == aim_id else (1.0 if d <= r else 0.0)
                loss += hurt * (hit * on_hit + (1.0 - hit) * near)
            loss *= through
            if loss > best:
                best, best_id = loss, aim_id
        total += best
        used.add(best_id)
    return weights().threat * total
