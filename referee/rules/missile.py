"""Fire Missile (p.21): countermeasures along the flight path (A27), the direct hit, deviation and blast."""

from __future__ import annotations

import math
from typing import NamedTuple

import shapely

from .battlefield import Battlefield, Piece
from .catalogue import COVER_BANDS
from .explain import Step, Working, inches
from .geometry import edge_range
from .numbers import at_most
from .sight import cover_of

CM_CORRIDOR = 3.0


class MissileShot(NamedTuple):
    """A named tuple, as ``sight``'s results: a plain value, cheaper than a dataclass for a start to define."""

    allowed: bool
    reason: str
    countermeasures: tuple[str, ...]
    effective_counters: int
    p_direct_hit: float
    p_shot_down: float
    explain: tuple[Step, ...]
    # each unit's own chance to shoot the missile down, A24's pre-roll included: the figures a preview shows
    shoot_down: tuple[tuple[str, float], ...] = ()


def flight_path_units(bf: Battlefield, firer: Piece, target: Piece) -> list[Piece]:
    """Enemy units that roll CM: base edge within 3\" of the centre-to-centre path (A27), nearest the firer first."""
    rules = bf.rulings
    limit = bf.distance(CM_CORRIDOR)
    path = shapely.LineString([(firer.x, firer.y), (target.x, target.y)])
    rolling = []
    for p in bf.pieces.values():
        if not p.is_unit or p.side is None or p.side == firer.side:
            continue
        if p.is_blip and rules.reads("A27", "A"):
            continue
        gap = path.distance(shapely.Point(p.x, p.y))
        near = at_most(gap, limit) if rules.reads("A27", "B") else at_most(gap - p.radius, limit)
        if near or p.id == target.id:
            rolling.append(p)
    rolling.sort(key=lambda p: (edge_range(firer, p), p.id))
    return rolling


def can_fire_missile(shooter: Piece) -> str:
    if shooter.is_blip:
        return "an unrevealed blip may only Move; reveal it first [A18]"
    if not shooter.is_trooper:
        return f"only troopers carry missiles; {shooter.describe()} does not [p.17, p.21]"
    if not shooter.trooper_type().missile:
        return "the Commander sacrifices the missile system [p.33, A5]"
    return ""


def missile_shot(bf: Battlefield, firer: Piece, target: Piece) -> MissileShot:

    rules = bf.rulings
    why = Working()
    reason = can_fire_missile(firer)
    if not reason and target.id == firer.id:
        reason = "a unit cannot fire at itself [p.21]"
    if not reason and not target.is_objective and target.side == firer.side:
        reason = f"{target.id} is a friendly unit [p.21]"
    if not reason and target.is_blip:
        reason = f"{target.id} is a blip: blips never keep Target counters [p.17]"
    if not reason and target.target_counters < 1:
        reason = f"{target.id} has no Target counters; a missile needs a target with at least 1 [p.21]"
    why.add("no line of sight or arc is needed for a missile", "p.21", "A28")
    if reason:
        why.add(f"not allowed: {reason}")
        return MissileShot(False, reason, (), 0, 0.0, 0.0, why.freeze())
    rolling = flight_path_units(bf, firer, target)
    corridor = inches(bf.distance(CM_CORRIDOR))
    if rolling:
        why.add(f"enemy units within {corridor} of the flight path roll countermeasures, nearest the firer first: "
                f"{', '.join(p.id for p in rolling)}", "p.21", rules.label("A27"))
    else:
        why.add(f"no enemy unit within {corridor} of the flight path has countermeasures", "p.21", rules.label("A27"))
    cms = []
    rollers = []
    for p in rolling:
        if p.is_blip:
            # A27 option B: the blip is revealed as the missile passes and its units roll; its contents are secret
            # here, so its countermeasures cannot enter the odds.
            why.add(f"{p.id} is a blip: it is revealed and its units roll countermeasures, which these odds cannot "
                    f"include (a decoy rolls nothing)", rules.label("A27"))
            continue
        cm = p.stat("countermeasures")
        damaged = p.is_trooper and p.damaged and rules.reads("A24", "A")
        cms.append((cm, damaged))
        rollers.append(p.id)
    tc = target.target_counters
    cov, where = cover_of(bf, target)
    eff = tc - COVER_BANDS[cov]
    if where is not None:
        why.add(f"effective counters {tc} - {COVER_BANDS[cov]} for {cov} cover ({where.id}) = {eff}", "p.21")
    else:
        why.add(f"effective counters {eff}: target not in cover; intervening terrain is ignored", "p.21")
    # lazy: the odds' exact arithmetic (nine result classes, fractions) is needed by a missile shot alone, not by
    # the flight path's units that every sightline reads
    from .odds import missile_odds

    odds = missile_odds(cms, eff)
    why.extend(odds.explain)
    return MissileShot(True, "", tuple(p.id for p in rolling), eff, float(odds.p_direct_hit),
                       float(odds.p_shot_down), why.freeze(),
                       tuple((uid, float(p)) for uid, p in zip(rollers, odds.p_each_cm_shoots_down, strict=True)))


def deviation_point(x: float, y: float, red: float, normal: float, bearing_deg: float, scale: float = 1.0) -> tuple[float, float, float]:
    """Point of impact after a deviation: red + normal inches along the bearing (p.21, A29)."""
    dist = (red + normal) * scale
    rad = math.radians(bearing_deg)
    return x + dist * math.cos(rad), y + dist * math.sin(rad), dist
