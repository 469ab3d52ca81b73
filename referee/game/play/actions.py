"""The Action Table (p.17): each action checked against the rules, then resolved with injected dice."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any
from dataclasses import dataclass, field

from ..battle.action_kinds import UNIT_KINDS, Kind
from ...rules.catalogue import TrooperType, unit_types, weapons
from ...rules.explain import inches
from ...rules.geometry import bearing_off_facing, edge_range
from ...rules.missile import MissileShot, deviation_point, missile_shot
from ...rules.movement import jump as jump_rule
from ...rules.movement import MoveResult
from ...rules.movement import move as move_rule
from ...rules.numbers import EPS, at_most
from ...rules.rifle import RifleShot, rifle_shot
from ...rules.scenario import Circle, TerrainEntry
from ...rules.battlefield import Piece, ground_point
from ...rules.sight import blockers_between, cover_of
from ...rules.sight_reference import segment_crosses
from ...rules.catalogue import COVER_BANDS
from ...rules.targeting import TargetPrice, can_target, sensor_dice_limit, target_price
from ..battle.commit import UNIT_KEYS, is_digest
from ..battle.dice import DiceMissing, DiceSource, Recorder, Roll, Rolling, RollRequest, dice_lines
from ..battle.intents import Action
from ...rules import odds
from .effects import (Ctx, Refused, RevealReached, add_counters, add_crater, area_attack, armour_of, blast, blast_catch, caught, d6,
                      destroy,
                      graze,
                      objective_inspected, passive_after_move, reveal_blip, _free_spot)
from ..battle.state import BlipState, GameState, GroundState, UnitState, blip_id, contents_from_unit, free_labels
from ...rules.odds import pool_distribution

UNIT_ACTIONS = UNIT_KINDS          # the Action Table's kinds, in its order (``action_kinds``)
FLAMER_REACH = 6.0
SMOKE_DIAMETER = 5.0


@dataclass
class ActionOutcome:
    legal: bool
    reason: str
    state: GameState
    events: list[str] = field(default_factory=list)
    explain: list[str] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    failed: bool = False              # a Damaged suit failed to respond (A25)
    revealed: dict[str, list[str]] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)   # what the checks found before any die (``FIGURES``)
    applied: dict[str, Any] = field(default_factory=dict)   # the numbers the resolution used
    first_roll: RollRequest | None = None           # a preview: the die the resolution stopped at
    first_reveal: str | None = None                 # a preview: the blip whose reveal it stopped at


# ---- checks shared by every unit action -------------------------------------------------------------


def _actor(ctx: Ctx, ident: str) -> UnitState | BlipState:
    s = ctx.state
    if ident in s.units:
        return s.units[ident]
    if ident in s.blips:
        return s.blips[ident]
    if ident in s.objectives:
        raise Refused(f"{ident} is an objective, not a unit [p.17]")
    raise Refused(f"there is no unit {ident!r} on the table")


def _trooper_type(u: UnitState) -> TrooperType:
    return unit_types().troopers[u.type]


def check_unit_action(ctx: Ctx, action: Action) -> UnitState | BlipState:
    """Who may take which action (Action Table p.17, A18), before any die is rolled."""
    actor = _actor(ctx, action.actor)
    if isinstance(actor, BlipState):
        if action.kind != Kind.MOVE:
            raise Refused(f"an unrevealed blip may only Move; reveal {actor.id} first to {action.kind} [p.17, A18]")
        return actor
    if not actor.is_drone and actor.stunned:
        raise Refused(f"{actor.id} is Stunned: it must recover (1-2) at the start of its activation before acting [p.25]")
    kind = action.kind
    if actor.is_drone:
        allowed = set(unit_types().drones[actor.type].actions)
        names: dict[str, str] = {Kind.MOVE: "move", Kind.JUMP: "jump", Kind.RIFLE: "fire-rifle",
                                 Kind.KAMIKAZE: "kamikaze", Kind.JAMMER: "toggle-jammer", Kind.TARGET: "target",
                                 Kind.SCRAMBLE: "move"}
        if kind == Kind.SCRAMBLE:
            return actor
        if names.get(kind) not in allowed:
            raise Refused(f"a {unit_types().drones[actor.type].name} cannot {kind} [p.17, p.34]")
    else:
        t = _trooper_type(actor)
        if kind in (Kind.KAMIKAZE, Kind.JAMMER):
            raise Refused(f"only drones can {kind} [p.17]")
        if kind == Kind.COMMAND and t.command == "none":
            raise Refused("only a Commander or an Engineer may Command [p.22]")
        if kind == Kind.REPAIR and not t.repair:
            raise Refused("only an Engineer may Repair [p.22]")
    return actor


def damaged_check(ctx: Ctx, action: Action) -> Rolling[bool]:
    """A Damaged trooper rolls before each action: 5-6 and the suit does nothing (p.25, A25)."""
    u = ctx.state.units.get(action.actor)
    if u is None or u.is_drone or not u.damaged:
        return True
    roll = yield d6(f"Damaged check for {u.id} before its {action.kind}", "p.25", "1-4 acts, 5-6 fails")
    if roll >= 5:
        rules = ctx.state.rulings_in_force()
        ctx.event(f"{u.id}'s damaged suit fails to respond (rolled {roll}): the {action.kind} is spent",
                  f"Damaged: 5-6 fails [p.25, {rules.label('A25')}]", units=[u.id])
        if rules.reads("A25", "B"):
            gain = TC_GAIN.get(action.kind, 0)
            if action.kind == Kind.TARGET:
                gain = int(action.args.get("dice", 0))
            u.target_counters += gain
        return False
    ctx.note(f"{u.id}'s Damaged check {roll}: the suit responds [p.25]")
    return True


TC_GAIN: dict[str, int] = {Kind.JUMP: 1, Kind.RIFLE: 1, Kind.MISSILE: 1, Kind.FLAMER: 1, Kind.COMMAND: 1,
                           Kind.REPAIR: 1, Kind.JAMMER: 1}


# ---- Move and Jump ----------------------------------------------------------------------------------


def _path(a: dict[str, Any]) -> list[tuple[float, float]]:
    return [(float(v[0]), float(v[1])) for v in a.get("via", [])] + [(float(a["x"]), float(a["y"]))]


def check_move(ctx: Ctx, action: Action) -> MoveResult:
    bf = ctx.bf()
    r = move_rule(bf, bf.piece(action.actor), _path(action.args))
    if not r.legal:
        raise Refused(r.reason)
    return r


def apply_movement(ctx: Ctx, ident: str, r: MoveResult, verb: str) -> None:
    s = ctx.state
    thing = s.unit_or_blip(ident)
    if thing is None:
        raise Refused(f"there is no unit {ident!r} on the table")
    thing.x, thing.y = r.end
    if r.facing is not None and ident in s.units:
        s.units[ident].facing = r.facing
    if ident in s.units:
        u = s.units[ident]
        u.target_counters -= r.removes
        u.target_counters += r.adds
    ctx.applied.update({"end": [thing.x, thing.y], "removes": r.removes, "adds": r.adds})
    removed = f", removes {r.removes} counter{'s' if r.removes != 1 else ''}" if r.removes else ""
    added = ", then +1 for the jump" if r.adds else ""
    ctx.event(f"{ident} {verb} to ({r.end[0]:.2f}, {r.end[1]:.2f}){removed}{added}", *r.explain, units=[ident])


def _passed(ctx: Ctx, action: Action) -> Any:
    """What the action's check found, if it was checked on the table as it still stands (``unit_action``)."""
    held = ctx.checked
    return held[1] if held is not None and held[0] is action else None


def perform_move(ctx: Ctx, action: Action) -> Rolling[None]:
    r = _passed(ctx, action) or check_move(ctx, action)
    apply_movement(ctx, action.actor, r, "moves")
    passive_after_move(ctx, action.actor)
    return
    yield


def check_jump(ctx: Ctx, action: Action) -> MoveResult:
    bf = ctx.bf()
    r = jump_rule(bf, bf.piece(action.actor), float(action.args["x"]), float(action.args["y"]))
    if not r.legal:
        raise Refused(r.reason)
    return r


def perform_jump(ctx: Ctx, action: Action) -> Rolling[None]:
    r = _passed(ctx, action) or check_jump(ctx, action)
    apply_movement(ctx, action.actor, r, "jumps")
    passive_after_move(ctx, action.actor)
    return
    yield


# ---- Target -----------------------------------------------------------------------------------------


def check_target(ctx: Ctx, action: Action) -> tuple[int, dict[str, tuple[int, TargetPrice]]]:
    bf = ctx.bf()
    actor = bf.piece(action.actor)
    ok, reason = can_target(actor)
    if not ok:
        raise Refused(reason)
    k = int(action.args.get("dice", 0))
    limit = sensor_dice_limit(actor)
    stat = "Sensors" if actor.is_trooper else "Robotics"
    if not 1 <= k <= limit:
        raise Refused(f"{actor.id} may roll 1 to {limit} sensor dice ({stat} {limit}), not {k} [p.19]")
    prices: dict[str, tuple[int, TargetPrice]] = {}
    for tid, n in action.args.get("assign", {}).items():
        target = bf.target_piece(tid)
        if target is None:
            raise Refused(f"there is no {tid!r} on the table to place counters on (a unit, blip or objective id, or "
                          f"a point of ground as x,y) [p.19]")
        if int(n) < 0:
            raise Refused(f"{n} counters on {tid}: a number of counters is 0 or more")
        if target.is_ground and not bf.on_table(target.x, target.y):
            raise Refused(f"the point of ground ({target.x:g}, {target.y:g}) is off the table [p.19, A54]")
        price = target_price(bf, actor, target)
        if not price.allowed:
            raise Refused(price.reason)
        prices[tid] = (int(n), price)
    return k, prices


def eaten_only(ctx: Ctx, tid: str, n: int, price: TargetPrice) -> bool:
    """A17 option B: buying any counter reveals a blip, so a blip assigned 0 counters behind terrain that eats them
    has its first counter bought (and eaten): it is revealed with none."""
    return n == 0 and price.eaten > 0 and tid in ctx.state.blips and ctx.state.rulings_in_force().reads("A17", "B")


def assignment_cost(ctx: Ctx, prices: dict[str, tuple[int, TargetPrice]]) -> int:
    """The points a Target assignment costs (p.19, A17, A50)."""
    return sum(price.eaten_price if eaten_only(ctx, tid, n, price) else price.cost(n)
               for tid, (n, price) in prices.items())


def afforded(prices: dict[str, tuple[int, TargetPrice]], pool: int) -> dict[str, tuple[int, TargetPrice]]:
    """An assignment named as the most wanted (``up_to``), bought in the order given as far as the rolled pool pays:
    the pool is spent after the roll (p.19), so a player who names what it wants first places what the roll affords,
    never more. A target the pool reaches no counter of is left out."""
    out: dict[str, tuple[int, TargetPrice]] = {}
    left = pool
    for tid, (n, price) in prices.items():
        m = min(n, price.placed(left))
        if m >= 1:
            out[tid] = (m, price)
            left -= price.cost(m)
    return out


def perform_target(ctx: Ctx, action: Action) -> Rolling[None]:
    k, prices = check_target(ctx, action)
    s = ctx.state
    faces = []
    for i in range(k):
        faces.append((yield d6(f"sensor die {i + 1} of {k} for {action.actor}", "p.19", "summed: high is good")))
    pool = sum(faces)
    ctx.note(f"sensor pool {' + '.join(map(str, faces))} = {pool} [p.19]")
    if action.args.get("up_to"):
        # What was named stays with its player (a mission's needs): the log shows what the roll placed.
        prices = afforded(prices, int(pool))
    cost = assignment_cost(ctx, prices)
    if cost > pool:
        raise Refused(f"the assignment costs {cost} points but the sensor pool is {pool} [p.19]")
    s.units[action.actor].target_counters += k
    ctx.applied.update({"dice": len(faces), "cost": cost,
                        "prices": {tid: {"price": p.price, "eaten": p.eaten} for tid, (n, p) in prices.items()}})
    ctx.event(f"{action.actor} Targets with {k} dice, pool {pool}; +{k} Target counters on itself", "+1 per die rolled [p.19]",
              units=[action.actor])
    blips = []
    for tid, (n, price) in prices.items():
        ctx.note(*price.explain)
        if eaten_only(ctx, tid, n, price):
            ctx.event(f"{action.actor} buys a counter on {tid}; terrain eats it ({price.eaten_price} points)",
                      f"buying any counter reveals a blip [p.17, p.19, {ctx.state.rulings_in_force().label('A17')}]",
                      units=[tid])
            blips.append((tid, 0))
            continue
        if n == 0:
            continue
        eaten = f" ({price.eaten} eaten by terrain first)" if price.eaten else ""
        ctx.event(f"{n} Target counter{'s' if n != 1 else ''} on {tid} at {price.price} each{eaten}: {price.cost(n)} points",
                  "[p.19]", units=[tid], private=objective_inspected(s, tid, n))
        if tid in s.blips:
            blips.append((tid, n))
        elif ground_point(tid) is not None or tid in s.ground:
            counters_on_ground(ctx, tid, n)
        else:
            add_counters(ctx, tid, n)
    if pool > cost:
        ctx.note(f"{pool - cost} unspent points are lost [p.19]")
    # Reveals come only after the whole pool is assigned: no re-spending (p.17, A17).
    for tid, n in blips:
        if n == 0:
            reveal_blip(ctx, tid, 0, cause=f"a counter bought by {action.actor}, eaten by terrain")
        else:
            add_counters(ctx, tid, n, why=f"received {n} Target counters from {action.actor}")


# ---- Fire Rifle ---------------------------------------------------------------------------------------


def check_rifle(ctx: Ctx, action: Action) -> RifleShot:
    bf = ctx.bf()
    tid = action.args.get("target", "")
    if tid not in bf.pieces:
        raise Refused(f"there is no {tid!r} on the table to fire at")
    shot = rifle_shot(bf, bf.piece(action.actor), bf.piece(tid))
    if not shot.allowed:
        ctx.figures.update(_rifle_figures(ctx, action, shot))     # a refusal shows its working too
        raise Refused(shot.reason)
    return shot


def perform_rifle(ctx: Ctx, action: Action) -> Rolling[None]:
    shot = check_rifle(ctx, action)
    s = ctx.state
    tid = action.args["target"]
    if shot.weapon is None:             # rifle_shot allows no shot without a rifle
        raise Refused(shot.reason or f"{action.actor} carries no rifle [p.20]")
    w = weapons()[shot.weapon]
    s.units[action.actor].target_counters += 1
    ctx.note(*shot.explain)
    faces = []
    for i in range(shot.dice):
        faces.append((yield d6(f"{w.name} die {i + 1} of {shot.dice} at {tid}", "p.20",
                               f"{'/'.join(map(str, w.kill_faces))} kills" + (f", lowest {w.graze_face} grazes" if w.graze_face else ""))))
    target = s.units[tid]
    ctx.applied.update({"weapon": shot.weapon, "dice": len(faces)})
    ctx.event(f"{action.actor} fires its {w.name.lower()} at {tid}: {shot.dice} dice {faces}; +1 Target counter on {action.actor}",
              "[p.20]", units=[action.actor, tid])
    if shot.weapon == "mg" and not target.is_drone:
        ctx.event("the machine gun cannot harm a trooper: no effect", "[p.20, A57]")
        return
    low = min(faces)
    if any(f in w.kill_faces for f in faces):
        destroy(ctx, tid, f"killed by {action.actor}'s {w.name.lower()}", "p.20")
    elif w.graze_face is not None and low == w.graze_face:
        if target.is_drone:
            destroy(ctx, tid, f"grazed by {action.actor}: a graze destroys a drone [p.20]")
        else:
            ctx.event(f"{tid} is grazed", "[p.20]", units=[tid])
            yield from graze(ctx, tid, f"grazed by {action.actor}")
    else:
        ctx.event(f"no effect on {tid}", units=[tid], rule="p.20")


# ---- Fire Missile --------------------------------------------------------------------------------------


def counters_on_ground(ctx: Ctx, key: str, n: int) -> None:
    """Target counters on a patch of ground (p.19, A54): on the patch already standing at that point, or on a new
    one; ground is immobile, so its counters stay for the rest of the battle."""
    s = ctx.state
    target = ctx.bf().target_piece(key)
    assert target is not None and target.is_ground     # checked by check_target
    patch = s.ground.get(target.id)
    if patch is None:
        ident = s.new_id("ground")
        patch = s.ground[ident] = GroundState(ident, target.x, target.y)
        ctx.event(f"{patch.id} marks the patch of ground at ({patch.x:g}, {patch.y:g}); its Target counters stay",
                  "[p.19, A54]", units=[patch.id])
    patch.target_counters += n


def check_missile(ctx: Ctx, action: Action) -> MissileShot:
    bf = ctx.bf()
    tid = action.args.get("target", "")
    target = bf.target_piece(tid) if isinstance(tid, str) else None
    if target is None:
        raise Refused(f"there is no {tid!r} on the table to fire at (a unit or objective id, or a patch of ground "
                      f"with Target counters) [p.21, A28, A54]")
    shot = missile_shot(bf, bf.piece(action.actor), target)
    if not shot.allowed:
        ctx.figures.update(_missile_figures(ctx, action, shot))
        raise Refused(shot.reason)
    return shot


def perform_missile(ctx: Ctx, action: Action) -> Rolling[None]:
    shot = check_missile(ctx, action)
    s = ctx.state
    rules = s.rulings_in_force()
    bf = ctx.bf()
    firer = bf.piece(action.actor)
    target = bf.target_piece(action.args["target"])
    assert target is not None                          # checked by check_missile
    tid = target.id
    s.units[action.actor].target_counters += 1
    ctx.event(f"{action.actor} fires a missile at {tid}; +1 Target counter on {action.actor}", "[p.21]", units=[action.actor, tid])
    rollers = []
    for uid in shot.countermeasures:
        if uid in s.blips:
            # A27 option B: a blip in the flight path is revealed and each of its units rolls (a decoy is removed).
            rollers.extend(reveal_blip(ctx, uid, cause=f"in the flight path of {action.actor}'s missile [{rules.label('A27')}]"))
        else:
            rollers.append(uid)
    if any(uid in ctx.revealed for uid in shot.countermeasures):
        bf = ctx.bf()
    ctx.applied["countermeasures"] = list(rollers)
    for uid in rollers:
        cm_unit = bf.piece(uid)
        cm = cm_unit.stat("countermeasures")
        if cm_unit.is_trooper and cm_unit.damaged and rules.reads("A24", "A"):
            pre = yield d6(f"Damaged pre-roll for {uid}'s countermeasures", "p.37, A24", "1-4 lets the CM fire")
            if pre >= 5:
                ctx.event(f"{uid}'s damaged countermeasures fail to respond ({pre})", "[p.37, A24]", units=[uid])
                continue
        roll = yield d6(f"CM die for {uid}", "p.21", f"{cm} or less shoots the missile down")
        if roll <= cm:
            ctx.event(f"{uid}'s countermeasures shoot the missile down ({roll} against CM {cm}): no effect, no crater",
                      "[p.21]", units=[uid])
            return
        ctx.event(f"{uid}'s countermeasures miss ({roll} against CM {cm})", "[p.21]", units=[uid])
    eff = shot.effective_counters
    ctx.applied["effective_counters"] = eff
    hit = yield d6(f"missile hit die against {tid}", "p.21", f"{eff} or less is a direct hit")
    nuc = firer.stat("nuclear")
    radius = bf.distance(nuc)
    exclude: tuple[str, ...] = ()
    if hit <= eff and target.is_ground:
        # The point of impact is the patch of ground itself: nothing there is hit directly, not even a blip standing
        # on it; the blast then takes whatever is within its radius, as any blast does (A54, A29-A32).
        ctx.event(f"direct hit on {tid}, the patch of ground at ({target.x:g}, {target.y:g}) ({hit} against {eff} "
                  f"effective counters): the point of impact", "[p.21, A28, A54]", units=[tid])
        x, y = target.x, target.y
    elif hit <= eff:
        ctx.event(f"direct hit on {tid} ({hit} against {eff} effective counters)", "[p.21]", units=[tid])
        x, y = target.x, target.y
        destroy(ctx, tid, f"direct missile hit from {action.actor}", "p.21")
        exclude = (tid,)
    else:
        red = yield d6("Red Die for the deviation distance", "p.21", "added to the normal die", red=True)
        normal = yield d6("normal die for the deviation distance", "p.21", "added to the Red Die")
        bearing = yield RollRequest("deviation bearing: from the Red Die to the normal die, degrees counter-clockwise from +x",
                                    f"p.21, {rules.label('A29')}", "bearing")
        x, y, dist = deviation_point(target.x, target.y, red, normal, bearing, s.scale)
        ctx.event(f"no direct hit ({hit} against {eff}): deviates {inches(dist)} at {bearing:.1f}° to ({x:.2f}, {y:.2f})",
                  "[p.21, A29]")
    yield from blast(ctx, x, y, radius, nuc, f"missile blast from {action.actor}", firer.side, exclude)
    add_crater(ctx, x, y, radius)


# ---- Fire Flamer ---------------------------------------------------------------------------------------


def check_flamer(ctx: Ctx, action: Action) -> tuple[float, float, float, list[str]]:
    bf = ctx.bf()
    rules = bf.rulings
    actor = bf.piece(action.actor)
    if not actor.is_trooper:
        raise Refused("only troopers carry flamers [p.17]")
    x, y = float(action.args["x"]), float(action.args["y"])
    reach = bf.distance(FLAMER_REACH)
    d = math.hypot(x - actor.x, y - actor.y)
    if rules.reads("A36", "A"):
        d -= actor.radius
    if not at_most(d, reach):
        raise Refused(f"the smoke must be centred within {inches(reach)} of the flamer ({inches(d)}) [p.22, {rules.label('A36')}]")
    if math.hypot(x - actor.x, y - actor.y) > EPS and bearing_off_facing(actor, x, y) > 90.0 + EPS:
        raise Refused(f"the flamer's direction must be inside {actor.id}'s 180° arc [p.22]")
    if rules.reads("A36", "B"):
        # Option B needs line of sight to where the smoke lands: the line to its centre crosses no blocking terrain.
        centre = Piece(id="the smoke's centre", kind="objective", x=x, y=y, radius=0.0)
        hiders = segment_crosses(actor, centre, blockers_between(bf, actor, centre))
        if hiders:
            raise Refused(f"no line of sight from {actor.id} to the smoke's centre ({', '.join(hiders)}) "
                          f"[p.22, {rules.label('A36')}]")
    r = SMOKE_DIAMETER / 2 * bf.scale
    friendly = actor.side if rules.reads("A36", "B") else None
    return x, y, r, caught(ctx, x, y, r, friendly, edge=True)


def perform_flamer(ctx: Ctx, action: Action) -> Rolling[None]:
    x, y, r, ids = check_flamer(ctx, action)
    s = ctx.state
    rules = s.rulings_in_force()
    s.units[action.actor].target_counters += 1
    ident = s.new_id("smoke")
    s.terrain.append(TerrainEntry(id=ident, type="smoke", circle=Circle(x=x, y=y, r=r)))
    ctx.event(f"{action.actor} fires its flamer: smoke {ident} at ({x:.2f}, {y:.2f}); +1 Target counter on {action.actor}",
              "the smoke is Light cover for the rest of the game [p.22]", units=[action.actor])
    ctx.applied.update({"centre": [x, y], "radius": r, "under": list(ids)})
    for uid in area_attack(ctx, ids, x, y, "the flamer", "A32"):
        if uid not in s.units:
            continue
        if s.units[uid].is_drone:
            destroy(ctx, uid, f"burned by {action.actor}'s flamer: drones are destroyed [p.22]")
        else:
            ctx.event(f"{uid} is under the flamer template: grazed", f"[p.22, {rules.label('A36')}]", units=[uid])
            yield from graze(ctx, uid, f"flamer from {action.actor}")


# ---- Kamikaze -------------------------------------------------------------------------------------------


def check_kamikaze(ctx: Ctx, action: Action) -> MoveResult:
    bf = ctx.bf()
    actor = bf.piece(action.actor)
    if not (actor.is_drone and actor.unit_type == "kamikaze-drone"):
        raise Refused("only a Kamikaze drone can Kamikaze [p.22]")
    x, y = float(action.args["x"]), float(action.args["y"])
    if action.args.get("jump"):
        r = jump_rule(bf, actor, x, y)
    else:
        r = move_rule(bf, actor, _path(action.args))
    if not r.legal:
        raise Refused(r.reason)
    tid = action.args.get("target")
    if tid:
        if tid not in bf.pieces:
            raise Refused(f"there is no {tid!r} on the table")
        t = bf.piece(tid)
        if t.is_blip:
            raise Refused(f"{tid} is a blip, a counter and not a Unit: a Kamikaze cannot make contact with it; it may "
                          f"still detonate at a point, and its blast affects blips as any blast does [p.22, A63]")
        if not t.is_objective and t.side == actor.side:
            raise Refused(f"{tid} is a friendly unit [p.22]")
    return r


def perform_kamikaze(ctx: Ctx, action: Action) -> Rolling[None]:
    r = check_kamikaze(ctx, action)
    s = ctx.state
    rules = s.rulings_in_force()
    uid = action.actor
    apply_movement(ctx, uid, r, "jumps" if action.args.get("jump") else "moves")
    passive_after_move(ctx, uid)
    if uid not in s.units:
        return
    bf = ctx.bf()
    drone = bf.piece(uid)
    rob = drone.stat("robotics")
    tid = action.args.get("target")
    exclude = [uid]
    radius = bf.distance(rob)
    if drone.stats is None:             # every unit on the table has its faction's stats
        raise Refused(f"{uid} has no stats")
    # The faction's Nuc itself: Piece.stat would give a drone its Robotics for every stat.
    dice = drone.stats.get("nuclear") if rules.reads("A35", "B") else rob
    contact = isinstance(tid, str) and tid in bf.pieces and at_most(edge_range(drone, bf.piece(tid)), 0.0)
    ctx.figures["blast"] = _blast_figures(ctx, drone.x, drone.y, radius, dice,
                                          blast_catch(ctx, drone.x, drone.y, radius, drone.side, (uid,)))
    if contact and isinstance(tid, str):
        t = bf.piece(tid)
        cov, where = cover_of(bf, t)
        eff = t.target_counters - COVER_BANDS[cov]
        strict = rules.reads("A34", "A")
        wins = sum(1 for f in range(1, 7) if ((f < eff) if strict else (f <= eff)))
        ctx.figures["contact"] = {"target": tid, "effective_counters": eff, "p_destroy": wins / 6}
    if tid and tid in bf.pieces:
        t = bf.piece(tid)
        if contact:
            ctx.applied["contact"] = {"target": tid, "effective_counters": eff}
            roll = yield d6(f"Kamikaze contact roll against {tid}", f"p.22, {rules.label('A34')}",
                            f"{'lower than' if strict else 'at most'} {eff} destroys")
            if (roll < eff) if strict else (roll <= eff):
                ctx.event(f"contact! {tid} is destroyed ({roll} against {eff} effective counters)",
                          f"[p.22, {rules.label('A34')}, A35]", units=[tid])
                destroy(ctx, tid, f"kamikaze contact from {uid}", "p.23, A35")
                exclude.append(tid)
            else:
                ctx.event(f"contact roll {roll} against {eff} effective counters fails: the drone detonates as a deviated missile",
                          "[p.22, A35]", units=[tid])
        else:
            ctx.note(f"{uid} is not touching {tid}: no contact roll [A34]")
    x, y = drone.x, drone.y
    if rules.reads("A35", "B") and tid not in exclude:
        # A35 option B: without a successful contact the drone deviates like a missile from where it stands; the
        # blast rolls the faction's Nuc.
        red = yield d6("Red Die for the kamikaze deviation distance", f"p.22, {rules.label('A35')}", "added to the normal die", red=True)
        normal = yield d6("normal die for the kamikaze deviation distance", f"p.22, {rules.label('A35')}", "added to the Red Die")
        bearing = yield RollRequest("deviation bearing: from the Red Die to the normal die, degrees counter-clockwise from +x",
                                    f"p.21, {rules.label('A29')}", "bearing")
        x, y, dist = deviation_point(x, y, red, normal, bearing, s.scale)
        ctx.event(f"{uid} deviates {inches(dist)} at {bearing:.1f}° to ({x:.2f}, {y:.2f}); blast dice = Nuc {dice}",
                  f"[p.22, {rules.label('A35')}]")
    destroy(ctx, uid, "kamikaze detonation", "p.23, A35")
    yield from blast(ctx, x, y, radius, dice, f"kamikaze blast from {uid}", drone.side, tuple(exclude))
    add_crater(ctx, x, y, radius)


# ---- Command, Repair, Scramble, Toggle Jammer -------------------------------------------------------------


def check_command(ctx: Ctx, action: Action) -> str:
    s = ctx.state
    actor = s.units[action.actor]
    tid = str(action.args.get("target", ""))
    t = _trooper_type(actor)
    if tid in s.blips:
        raise Refused("blips may not be Commanded [A40]")
    if tid not in s.units or s.units[tid].side != actor.side:
        raise Refused(f"{tid!r} is not a friendly unit on the table [p.22, A40]")
    if tid == actor.id:
        raise Refused("a unit cannot Command itself [A40]")
    target = s.units[tid]
    if t.command == "drones" and not target.is_drone:
        raise Refused("an Engineer may Command drones only [p.22]")
    if target.activation:
        raise Refused(f"{tid} still holds an activation counter; a unit never holds more than one [p.22]")
    return tid


def perform_command(ctx: Ctx, action: Action) -> Rolling[None]:
    tid = check_command(ctx, action)
    s = ctx.state
    s.units[action.actor].target_counters += 1
    s.units[tid].activation = True
    ctx.event(f"{action.actor} Commands {tid}: a new activation counter; +1 Target counter on {action.actor}",
              "[p.22, A40]", units=[action.actor, tid])
    return
    yield


def check_repair(ctx: Ctx, action: Action) -> str:
    s = ctx.state
    bf = ctx.bf()
    tid = str(action.args.get("target", action.actor) or action.actor)
    if tid not in s.units or s.units[tid].side != s.units[action.actor].side or s.units[tid].is_drone:
        raise Refused(f"{tid!r} is not a friendly trooper [p.22]")
    if not s.units[tid].damaged:
        raise Refused(f"{tid} is not Damaged [p.22]")
    if tid != action.actor and not at_most(edge_range(bf.piece(action.actor), bf.piece(tid)), 0.0):
        raise Refused(f"the Engineer must touch {tid} to Repair it [p.22]")
    return tid


def perform_repair(ctx: Ctx, action: Action) -> Rolling[None]:
    tid = check_repair(ctx, action)
    s = ctx.state
    s.units[action.actor].target_counters += 1
    s.units[tid].damaged = False
    ctx.event(f"{action.actor} Repairs {tid}: no longer Damaged; +1 Target counter on {action.actor}", "[p.22]",
              units=[action.actor, tid])
    return
    yield


def unused_blips(s: GameState, side: str) -> list[int]:
    """Blip numbers whose counter is off the table and whose square is empty (A23)."""
    on_table = {b.square for b in s.blips.values() if b.side == side}
    return [n for n in range(1, 17) if n not in on_table and s.holding[side].squares.get(n) == []]


def check_scramble(ctx: Ctx, action: Action) -> list[int]:
    s = ctx.state
    u = s.units[action.actor]
    if u.target_counters:
        raise Refused(f"{u.id} holds {u.target_counters} Target counters; only a unit with none may Scramble [p.22]")
    free = unused_blips(s, u.side)
    if len(free) < 3:
        raise Refused(f"Scramble needs 3 unused blip counters; side {u.side} has {len(free)} [p.22, A23]")
    square = action.args.get("square")
    if square is not None and square not in free:
        raise Refused(f"square {square} cannot take the unit: the owner chooses an empty square whose blip counter is "
                      f"off the table [p.22, A23]")
    return free


# The three blips touch each other in a small triangle centred on the unit's spot (A23): corners this far out (a
# hair more than touching, so that positions rounded to 0.001" never overlap).
TRIANGLE_REACH = 1.002 / math.sqrt(3)


def scramble_corners(s: GameState, x: float, y: float, base: float = 1.0) -> list[tuple[float, float]]:
    """Three touching spots for blips of ``base`` around (x, y), turned until all three stand on free ground.

    The turn depends only on the table, never on which blip is real."""
    bf = s.battlefield()
    r = base / 2
    reach = base * TRIANGLE_REACH
    for step in range(24):
        turn = 90.0 + 5.0 * step
        corners = [(round(x + reach * math.cos(math.radians(turn + 120 * k)), 3),
                    round(y + reach * math.sin(math.radians(turn + 120 * k)), 3)) for k in range(3)]
        if all(bf.on_table(px, py, r)
               and not any(math.hypot(px - p.x, py - p.y) < p.radius + r - EPS for p in bf.pieces.values())
               and not any(f.column(False).impassable and f.holds(px, py) for f in bf.terrain)
               for px, py in corners):
            return corners
    return []


def kept_scramble_squares(free: list[int]) -> list[int]:
    """The three squares a Scramble of a side kept on its own computer fills: the three lowest unused, drawn from
    nothing, whichever the owner chose. Its computer commits which of them holds the unit and which counter stands for
    which (``commit.py``), so the host learns neither until a reveal (A23, A59)."""
    return free[:3]


def _kept_scramble(ctx: Ctx, action: Action, free: list[int]) -> Rolling[None]:
    """A Scramble by a side kept on its own computer: its client sends, with the action, a commitment for each of the
    three squares (``committed``: the unit in one, the other two decoys) and one for each new counter by corner
    (``blips_committed``, 1 to 3: the square it stands for). The host holds the three squares unknown and each counter on a
    stand-in square, the same whatever the owner chose; a reveal opens them as any of its counters."""
    s = ctx.state
    rules = s.rulings_in_force()
    u = s.units[action.actor]
    side = u.side
    squares = kept_scramble_squares(free)
    committed, counters = action.args.get("committed"), action.args.get("blips_committed")
    if "square" in action.args:
        raise Refused(f"side {side} keeps its holding area on its own computer: its computer chooses the square "
                      f"{u.id} scrambles into and sends commitments, never the square [p.22, A23]")
    if not isinstance(committed, dict) or sorted(committed) != sorted(str(n) for n in squares) or not all(
            is_digest(c) for c in committed.values()):
        raise Refused(f"side {side}'s Scramble: expected committed, a commitment (64 hex digits) for each of squares "
                      f"{', '.join(str(n) for n in squares)} [p.22, A23]")
    if not isinstance(counters, dict) or sorted(counters) != ["1", "2", "3"] or not all(
            is_digest(c) for c in counters.values()):
        raise Refused(f"side {side}'s Scramble: expected blips_committed, a commitment (64 hex digits) for each of "
                      f"the three new counters by corner (1, 2, 3) [A23, A59]")
    s.units.pop(action.actor)
    corners = scramble_corners(s, u.x, u.y)
    if not corners:
        x, y = u.x, u.y
        corners = [(x, y)]
        for _ in range(2):
            corners.append(_free_spot(s, *corners[-1], 0.5, 0.5, False, side))
    for n in squares:
        s.holding[side].squares[n] = None
        s.square_commitments[side][str(n)] = str(committed[str(n)])
    # The unit is public (it stood on the table): one of the three squares must open to it, as an issued unit does,
    # and it comes back as it left (Damaged, Stunned: p.22), which the table saw, so the host keeps it ("as_left").
    left = contents_from_unit(u).model_dump(mode="json")
    entry: dict[str, Any] = {k: left[k] for k in UNIT_KEYS}
    entry["as_left"] = {k: v for k, v in left.items() if k not in UNIT_KEYS}
    s.issued_kept.setdefault(side, []).append(entry)
    activation = rules.reads("A23", "B")
    made = []
    for n, (x, y), c in zip(squares, corners, (counters[str(k)] for k in (1, 2, 3))):
        options = tuple(free_labels(s, side))
        label = options[int((yield RollRequest(f"side {side} labels a blip counter", "A59", "draw", options=options,
                                               secret=side)))]
        ident = blip_id(side, label)
        s.blips[ident] = BlipState(ident, side, x, y, n, 1.0, activation)
        s.blip_commitments.setdefault(side, {})[ident] = str(c)
        made.append(ident)
    shown = sorted(made)
    ctx.event(f"{u.id} Scrambles: it leaves the table and three blips take its place ({', '.join(shown)}); side "
              f"{side}'s computer keeps which is real", f"[p.22, {rules.label('A23')}, A59]", units=[u.id] + shown)


def perform_scramble(ctx: Ctx, action: Action) -> Rolling[None]:
    if action.args.get("legacy"):
        yield from _legacy_scramble(ctx, action)
        return
    free = check_scramble(ctx, action)
    s = ctx.state
    rules = s.rulings_in_force()
    u = s.units[action.actor]
    side = u.side
    if side in s.square_commitments:
        yield from _kept_scramble(ctx, action, free)
        return
    # The owner chooses the empty square (A23); left out, it is drawn from the owner's secret stream.
    square = action.args.get("square")
    if square is None:
        square = free[int((yield RollRequest(f"side {side} chooses the square {u.id} scrambles into", "p.22, A23",
                                             "draw", options=tuple(str(n) for n in free), secret=side)))]
    decoys = [n for n in free if n != square][:2]
    s.units.pop(action.actor)
    corners = scramble_corners(s, u.x, u.y)
    if not corners:
        x, y = u.x, u.y
        corners = [(x, y)]
        for _ in range(2):
            corners.append(_free_spot(s, *corners[-1], 0.5, 0.5, False, side))
    real = yield RollRequest(f"side {side} chooses which scrambled blip is real", "A23", "draw",
                             options=("first corner", "second corner", "third corner"), secret=side)
    order = [decoys[0], decoys[1]]
    order.insert(int(real), square)
    s.holding[side].squares[square] = [contents_from_unit(u)]
    activation = rules.reads("A23", "B")
    made = []
    for n, (x, y) in zip(order, corners):
        options = tuple(free_labels(s, side))
        label = options[int((yield RollRequest(f"side {side} labels a blip counter", "A59", "draw", options=options,
                                               secret=side)))]
        ident = blip_id(side, label)
        s.blips[ident] = BlipState(ident, side, x, y, n, 1.0, activation)
        made.append(ident)
    own = made[order.index(square)]
    shown = sorted(made)               # the log names them in an order that says nothing (A23, A59)
    ctx.event(f"{u.id} Scrambles: it leaves the table and three blips take its place ({', '.join(shown)})",
              f"[p.22, {rules.label('A23')}, A59]", units=[u.id] + shown,
              private={side: f"{u.id} Scrambles into square {square} ({own}); "
                             f"{' and '.join(b for b in shown if b != own)} are decoys"})


def _legacy_scramble(ctx: Ctx, action: Action) -> Rolling[None]:
    """Scramble as saves of format 1 recorded it (the lowest free squares, the real blip where the unit stood), so
    those saves still replay; new battles never use it."""
    squares = check_scramble(ctx, action)[:3]
    s = ctx.state
    rules = s.rulings_in_force()
    u = s.units.pop(action.actor)
    s.holding[u.side].squares[squares[0]] = [contents_from_unit(u)]
    activation = rules.reads("A23", "B")
    made: list[str] = []
    x, y = u.x, u.y
    for i, n in enumerate(squares):
        ident = f"{u.side.lower()}-blip-{n}"
        if ident in s.blips or ident in s.units:
            ident = s.new_id(f"{u.side.lower()}-blip-{n}")
        if i > 0:
            prev = s.blips[made[-1]]
            x, y = _free_spot(s, prev.x, prev.y, 0.5, prev.base / 2, False, u.side)
        s.blips[ident] = BlipState(ident, u.side, x, y, n, 1.0, activation)
        made.append(ident)
    ctx.event(f"{u.id} Scrambles: it leaves the table and three blips take its place ({', '.join(sorted(made))})",
              f"[p.22, {rules.label('A23')}]", units=[u.id] + sorted(made),
              private={u.side: f"{u.id} Scrambles into square {squares[0]} ({made[0]}); {made[1]} and {made[2]} are decoys"})
    yield from ()


def check_jammer(ctx: Ctx, action: Action) -> None:
    u = ctx.state.units[action.actor]
    if u.type != "haywire-drone":
        raise Refused("only a Haywire drone can Toggle Jammer [p.23]")


def perform_jammer(ctx: Ctx, action: Action) -> Rolling[None]:
    check_jammer(ctx, action)
    u = ctx.state.units[action.actor]
    u.jammer_on = not u.jammer_on
    u.target_counters += 1
    ctx.event(f"{u.id} switches its jammer {'on' if u.jammer_on else 'off'}; +1 Target counter", "[p.23, A37]", units=[u.id])
    return
    yield


# ---- voluntary reveal ------------------------------------------------------------------------------------


def perform_reveal(ctx: Ctx, action: Action) -> Rolling[None]:
    s = ctx.state
    if action.actor not in s.blips:
        raise Refused(f"{action.actor!r} is not a blip on the table")
    facing = action.args.get("facing")
    reveal_blip(ctx, action.actor, cause="by its owner", facing=None if facing is None else float(facing), voluntary=True)
    return
    yield


PERFORM: dict[str, Callable[[Ctx, Action], Rolling[None]]] = {
    Kind.MOVE: perform_move, Kind.JUMP: perform_jump, Kind.TARGET: perform_target, Kind.RIFLE: perform_rifle,
    Kind.MISSILE: perform_missile, Kind.FLAMER: perform_flamer, Kind.KAMIKAZE: perform_kamikaze,
    Kind.COMMAND: perform_command, Kind.REPAIR: perform_repair, Kind.SCRAMBLE: perform_scramble,
    Kind.JAMMER: perform_jammer, Kind.REVEAL: perform_reveal,
}
CHECK: dict[str, Callable[[Ctx, Action], object]] = {
    Kind.MOVE: check_move, Kind.JUMP: check_jump, Kind.TARGET: check_target, Kind.RIFLE: check_rifle,
    Kind.MISSILE: check_missile, Kind.FLAMER: check_flamer, Kind.KAMIKAZE: check_kamikaze, Kind.COMMAND: check_command,
    Kind.REPAIR: check_repair, Kind.SCRAMBLE: check_scramble, Kind.JAMMER: check_jammer,
}


def unit_action(ctx: Ctx, action: Action) -> Rolling[bool]:
    """Check, then the Damaged roll, then the action itself: the order the rules roll dice in."""
    if action.kind == Kind.REVEAL:
        yield from perform_reveal(ctx, action)
        return True
    if action.kind not in PERFORM:
        raise Refused(f"unknown action {action.kind!r}")
    check_unit_action(ctx, action)
    checked = CHECK[action.kind](ctx, action)
    ctx.figures.update(FIGURES[action.kind](ctx, action, checked))
    responds = yield from damaged_check(ctx, action)
    if not responds:
        return False
    # A Damaged check that lets the suit respond changes nothing on the table: a Move or Jump goes on from the path
    # its check found (the check asked for the battlefield and the path again, for the same answer).
    ctx.checked = (action, checked)
    try:
        yield from PERFORM[action.kind](ctx, action)
    finally:
        ctx.checked = None
    return True


class Resolving:
    """One resolution driven on its own copy of the state, which it can stop at a die nobody has answered yet
    (``DiceMissing``) and go on from when the die is given: players typing in their physical dice answer one roll at
    a time, and the action is resolved once, not again from its start for every die. ``state`` is never changed,
    unless ``in_place``: a replay that keeps only the state it ends in gives each state up to the action after it,
    and resolves that action on it instead of on a copy (a copy was a sixth of a replay's cost)."""

    def __init__(self, state: GameState, gen_factory: Callable[[Ctx], Rolling[object]], source: DiceSource,
                 in_place: bool = False) -> None:
        self.state = state
        self.work = state if in_place else state.copy()
        self.ctx = Ctx(self.work)
        self.recorder = Recorder(source)
        self.request: RollRequest | None = None        # the roll it stopped at, waiting for an answer
        self._logged = len(self.work.log)
        self._gen = gen_factory(self.ctx)
        self._started = False

    def advance(self) -> ActionOutcome:
        """Answer the rolls from the source until the action is resolved or refused. A roll the source cannot
        answer raises ``DiceMissing`` and leaves the resolution where it stands (``request``), to go on later."""
        ctx, rec = self.ctx, self.recorder
        try:
            if not self._started:
                self._started = True
                self.request = next(self._gen)
            while self.request is not None:
                self.request = self._gen.send(rec.answer(self.request))
        except StopIteration as stop:
            self.request = None
            log_dice(self.work, rec.public, self._logged)
            return ActionOutcome(True, "", self.work, ctx.events, ctx.explain, rec.rolls, failed=(stop.value is False),
                                 revealed=ctx.revealed, figures=ctx.figures, applied=ctx.applied)
        except Refused as r:
            self.request = None
            return ActionOutcome(False, r.reason, self.state, [], [f"not allowed: {r.reason}"], list(rec.rolls),
                                 figures=ctx.figures)
        raise RuntimeError("a resolution yielded no roll and did not end")


def run(state: GameState, gen_factory: Callable[[Ctx], Rolling[object]], source: DiceSource,
        until_first_die: bool = False, in_place: bool = False) -> ActionOutcome:
    """Drive a resolution generator with a dice source on a copy of the state; keep the copy only if legal.

    ``until_first_die``: a source that has no answer (``DiceMissing``) ends the run as a preview, with the figures
    found so far and the roll it stopped at; a blip's reveal ends it too, before its contents are known
    (``first_reveal``). Otherwise a missing die is the caller's to handle.

    ``in_place``: the caller gives ``state`` up, and the action is resolved on it (see ``Resolving``); whatever the
    outcome, ``state`` is then not to be read again.
    """
    resolving = Resolving(state, gen_factory, source, in_place)
    resolving.ctx.stop_at_reveal = until_first_die
    ctx = resolving.ctx
    try:
        return resolving.advance()
    except DiceMissing as missing:
        if not until_first_die:
            raise
        return ActionOutcome(True, "", resolving.work, ctx.events, ctx.explain, resolving.recorder.rolls,
                             revealed=ctx.revealed, figures=ctx.figures, applied=ctx.applied,
                             first_roll=missing.request)
    except RevealReached as reached:
        return ActionOutcome(True, "", resolving.work, ctx.events, ctx.explain, resolving.recorder.rolls,
                             figures=ctx.figures, applied=ctx.applied, first_reveal=reached.blip_id)


def log_dice(state: GameState, rolled: list[tuple[RollRequest, float]], since: int) -> None:
    """Every die rolled on the table goes into the log with its face (typed or rolled by the program), so the players
    can check each one; the units are those of the action's own entries."""
    if not rolled:
        return
    units = list(dict.fromkeys(u for e in state.log[since:] for u in e.units))
    text, explain = dice_lines(rolled)
    state.log_event(text, [text, *explain], units)


def resolve(state: GameState, action: Action, source: DiceSource) -> ActionOutcome:
    """One action on the table, as the ``do`` query resolves it (no turn structure)."""
    return run(state, lambda ctx: unit_action(ctx, action), source)


# ---- what a preview shows: the checks' own numbers, before any die ------------------------------------------


def _move_figures(ctx: Ctx, action: Action, r: Any) -> dict[str, Any]:
    return {"cost": r.cost, "allowance": r.allowance, "distance": r.distance, "end": list(r.end),
            "removes": r.removes, "adds": r.adds, "facing": r.facing, "explain": [str(x) for x in r.explain]}


def _target_figures(ctx: Ctx, action: Action, checked: Any) -> dict[str, Any]:

    k, prices = checked
    bf = ctx.bf()
    limit = sensor_dice_limit(bf.piece(action.actor))
    cost = assignment_cost(ctx, prices)
    return {"dice": k, "limit": limit, "cost": cost,
            "prices": {tid: {"price": p.price, "eaten": p.eaten} for tid, (n, p) in prices.items()},
            # The odds that a pool of n dice pays for this assignment, for every pool the Targeter may roll.
            "p_enough": {n: float(pool_distribution(n).p_at_least(cost)) for n in range(1, limit + 1)}}


def _rifle_figures(ctx: Ctx, action: Action, shot: Any) -> dict[str, Any]:
    return {"target": action.args["target"], "allowed": shot.allowed, "weapon": shot.weapon, "dice": shot.dice,
            "p_kill": shot.p_kill,
            "p_graze": shot.p_graze, "explain": [str(x) for x in shot.explain]}


def _missile_figures(ctx: Ctx, action: Action, shot: Any) -> dict[str, Any]:
    bf = ctx.bf()
    firer, target = bf.piece(action.actor), bf.target_piece(action.args["target"])
    assert target is not None                          # checked by check_missile
    radius = bf.distance(firer.stat("nuclear"))
    cms = []
    each = dict(shot.shoot_down)    # the engine's own chance per unit, a Damaged trooper's A24 pre-roll included
    for uid in shot.countermeasures:
        p = bf.piece(uid)
        cm = None if p.is_blip else p.stat("countermeasures")
        cms.append({"unit": uid, "cm": cm, "p_shoot_down": each.get(uid)})
    return {"target": target.id, "allowed": shot.allowed, "countermeasures": cms,
            "effective_counters": shot.effective_counters,
            "p_direct_hit": shot.p_direct_hit, "p_shot_down": shot.p_shot_down,
            "blast": _blast_figures(ctx, target.x, target.y, radius, firer.stat("nuclear"),
                                    blast_catch(ctx, target.x, target.y, radius, firer.side, (target.id,))),
            "deviated": deviated_blast_figures(ctx, target.x, target.y, radius, firer.stat("nuclear"), firer.side,
                                               max(0.0, 1.0 - shot.p_direct_hit - shot.p_shot_down)),
            "explain": [str(x) for x in shot.explain]}


def deviated_blast_figures(ctx: Ctx, x: float, y: float, radius: float, dice: int, firer_side: str | None,
                           p_deviates: float) -> dict[str, Any]:
    """Who a missile's blast catches when it misses: it lands Red Die + normal die inches away (times the scale) at
    a bearing equally likely all round (p.21, A29), and catches as a direct hit's blast does (``caught``: edge or
    centre, A30; friends spared under A30 option B). For each unit or blip, the exact chance that the deviated blast
    catches it: over the 36 throws of the two dice, the share of the circle of landing points within its reach."""
    s = ctx.state
    rules = s.rulings_in_force()
    edge = rules.reads("A30", "A")
    friendly = firer_side if rules.reads("A30", "B") else None
    catches: dict[str, float] = {}
    things: list[UnitState | BlipState] = [*s.units.values(), *s.blips.values()]
    for thing in things:
        if friendly is not None and thing.side == friendly:
            continue
        reach = radius + (thing.base / 2 if edge else 0.0)
        centre_gap = math.hypot(thing.x - x, thing.y - y)
        if centre_gap - 12 * s.scale > reach + 1e-6:
            continue            # farther than the longest deviation and the reach: no throw can catch it
        p = _deviation_catch(centre_gap, reach, s.scale)
        if p > 0:
            catches[thing.id] = p
    ids = sorted(catches, key=lambda i: (-catches[i], i))
    return {"p_deviates": p_deviates, "radius": radius, "dice": dice, "catches": {i: catches[i] for i in ids},
            "odds": blast_odds_of(ctx, ids, dice),
            "explain": [f"a miss deviates 2-12\" (Red Die + die) at any bearing [p.21, A29]; its {radius:g}\" blast "
                        f"catches as a direct hit's [p.21, {rules.label('A30')}]"]}


THROW_SUMS = tuple(red + normal for red in range(1, 7) for normal in range(1, 7))   # Red Die + die, in order
CATCHES_KEPT = 20000        # deviation odds kept for distances and reaches that may come again (all let go when full)
_CATCHES: dict[tuple[float, float, float], float] = {}


def _deviation_catch(centre_gap: float, reach: float, scale: float) -> float:
    """The chance a deviated blast lands within ``reach`` of a centre ``centre_gap`` from the aim point, worked out
    once for each distance and reach (the computer previews the same missiles in every world it imagines).

    The share of landing points within reach depends on the two dice's sum only: each sum's share is worked out once
    and added for each of its throws, in the throws' order (the same sum, to the last digit)."""
    key = (centre_gap, reach, scale)
    held = _CATCHES.get(key)
    if held is not None:
        return held
    shares: dict[int, float] = {}
    for total in range(2, 13):
        d = total * scale
        if centre_gap < EPS:
            shares[total] = 1.0 if d <= reach + EPS else 0.0
        else:
            c = (centre_gap ** 2 + d ** 2 - reach ** 2) / (2 * centre_gap * d)
            shares[total] = 1.0 if c <= -1 else 0.0 if c > 1 else math.acos(c) / math.pi
    p = 0.0
    for total in THROW_SUMS:
        p += shares[total] / 36
    if len(_CATCHES) >= CATCHES_KEPT:
        _CATCHES.clear()
    _CATCHES[key] = p
    return p


def _blast_figures(ctx: Ctx, x: float, y: float, radius: float, dice: int, catches: list[str]) -> dict[str, Any]:
    return {"centre": [x, y], "radius": radius, "dice": dice, "catches": catches,
            "odds": blast_odds_of(ctx, catches, dice)}


def _flamer_figures(ctx: Ctx, action: Action, checked: Any) -> dict[str, Any]:
    x, y, r, under = checked
    return {"centre": [x, y], "radius": r, "under": list(under), "odds": graze_odds_of(ctx, under)}


def graze_odds_of(ctx: Ctx, ids: Any) -> dict[str, dict[str, float]]:
    """The exact chances of what the flamer's graze does to each unit under the smoke (p.20, p.22, A53): a drone is
    destroyed. A blip has none: what it holds is its owner's secret until it is revealed (A32)."""
    s = ctx.state
    out: dict[str, dict[str, float]] = {}
    for uid in ids:
        u = s.units.get(uid)
        if u is None:
            continue
        if u.is_drone:
            out[uid] = {"unharmed": 0.0, "stunned": 0.0, "damaged": 0.0, "damaged_stunned": 0.0, "destroyed": 1.0}
            continue
        g = odds.graze_effects(armour_of(s, u), u.damaged, u.stunned)
        out[uid] = {"unharmed": float(g.p_unharmed), "stunned": float(g.p_stunned_only),
                    "damaged": float(g.p_damaged_only), "damaged_stunned": float(g.p_damaged_and_stunned),
                    "destroyed": float(g.p_destroyed)}
    return out


def blast_odds_of(ctx: Ctx, ids: Any, dice: int) -> dict[str, dict[str, float]]:
    """The exact chances of the blast cascade on each unit it catches (p.21, A31): a drone is destroyed. A blip has
    none: what it holds is its owner's secret until the blast reveals it (A32)."""
    s = ctx.state
    a31 = s.rulings_in_force().reads("A31", "A")
    out: dict[str, dict[str, float]] = {}
    for uid in ids:
        u = s.units.get(uid)
        if u is None:
            continue
        b = odds.blast_odds(dice, armour_of(s, u), u.damaged, target_is_drone=u.is_drone, second_damage_destroys=a31)
        out[uid] = {"unharmed": float(b.p_unharmed), "stunned": 0.0, "damaged": float(b.p_damaged),
                    "damaged_stunned": float(b.p_damaged_stunned), "destroyed": float(b.p_destroyed)}
    return out


def _target_only(ctx: Ctx, action: Action, checked: Any) -> dict[str, Any]:
    return {"target": checked}


def _jammer_figures(ctx: Ctx, action: Action, checked: Any) -> dict[str, Any]:
    return {"jammer_on": not ctx.state.units[action.actor].jammer_on}


FIGURES: dict[str, Callable[[Ctx, Action, Any], dict[str, Any]]] = {
    Kind.MOVE: _move_figures, Kind.JUMP: _move_figures, Kind.KAMIKAZE: _move_figures, Kind.TARGET: _target_figures,
    Kind.RIFLE: _rifle_figures, Kind.MISSILE: _missile_figures, Kind.FLAMER: _flamer_figures, Kind.COMMAND: _target_only,
    Kind.REPAIR: _target_only, Kind.SCRAMBLE: lambda ctx, action, checked: {"blips": len(checked)},
    Kind.JAMMER: _jammer_figures,
}
