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

from ....rules.battlefield import piece_from_unit
from ....rules.odds import blast_odds, missile_odds
from ...battle.state import GameState, UnitState
from .evaluate import Aims
from .evaluate import DRONE_VALUE, weights

REPLY_SHOTS = 2          # enemy missiles counted before the computer's units act again (its two best aims)
DAMAGE_COST = 0.25       # a Damaged or Stunned trooper, as a share of losing it
# A blast counts at ``Weights.threat`` of what it may take, as the enemy's next shots do in the evaluation
# (``evaluate``): the enemy takes one turn for each of the side's and has other aims.
DEVIATION = tuple((d, (6 - abs(d - 7)) / 36) for d in range(2, 13))     # the Red Die plus a normal die [p.21]


@functools.lru_cache(maxsize=512)
def _kit(faction: str, rating: str, type_: str) -> tuple[bool, int, int, int]:
    """Whether a unit of this kind fires missiles (a trooper other than the Commander, p.21, A5), its
    countermeasures, its Nuclear and its Armour."""
    probe = UnitState(id="probe", side="A", faction=faction, rating=rating, type=type_, x=0.0, y=0.0)
    piece = piece_from_unit(probe)
    missile = piece.is_trooper and piece.trooper_type().missile
    return missile, piece.stat("countermeasures"), piece.stat("nuclear"), piece.stat("armour")


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


@functools.lru_cache(maxsize=512)
def _through_and_hit(cm: int, damaged: bool, counters: int) -> tuple[float, float]:
    """A missile at a unit (or an objective, ``cm`` 0) gets past its countermeasures, and its hit die is a direct
    hit: ``rules.odds.missile_odds``, the odds the preview shows (p.21, A24)."""
    o = missile_odds([(max(0, cm), damaged)], max(0, counters))
    return float(o.p_all_cm_fail), float(o.p_hit_die)


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
    aims_at = [(u.x, u.y, u.target_counters, u.id, _kit(u.faction, u.rating, u.type)[1], u.damaged and not u.is_drone)
               for u in state.units.values() if u.side == me and u.target_counters > 0]
    aims_at += [(o.x, o.y, o.target_counters, o.id, 0, False) for o in state.objectives.values()
                if o.target_counters > 0 and not o.destroyed]
    if not aims_at:
        return 0.0
    scale = state.scale or 1.0
    total = 0.0
    used: set[str] = set()
    for nuc in sorted(nucs, reverse=True)[:REPLY_SHOTS]:
        best, best_id = 0.0, ""
        victims = _victims(state, me, aims, nuc)
        for x, y, counters, aim_id, cm, damaged in aims_at:
            if aim_id in used:
                continue
            # Its own countermeasures, then the hit die: the rules' odds (p.21, A24).
            through, hit = _through_and_hit(cm, damaged, counters)
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
