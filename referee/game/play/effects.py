"""What actions do to the table: counters, reveals, damage, blasts, craters, passive sensors, objectives.

Effects that roll dice are generators: they ``yield`` a RollRequest and receive the face (see ``dice.py``).
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

import shapely

from ...rules.battlefield import Battlefield, Piece
from ...rules.catalogue import is_drone_type
from ...rules.explain import inches
from ...rules.geometry import edge_range
from ...rules.numbers import EPS, at_most
from ...rules.scenario import Circle, TerrainEntry
from ...rules.sensors import PASSIVE_RANGE, enemies_in_passive_range, sensor_link
from ..battle.missions import inspection_notes
from ..battle.dice import Rolling, RollRequest
from ..battle.state import BlipState, GameState, UnitState, other, unit_from_contents


class Refused(Exception):
    """The rules forbid this action; the state is left as it was."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class UnknownContents(Exception):
    """A blip whose contents the referee was not told cannot be revealed."""

    def __init__(self, blip_id: str):
        self.blip_id = blip_id
        super().__init__(f"blip {blip_id!r} has no recorded contents, so it cannot be revealed")


class RevealReached(Exception):
    """A preview reached a blip's reveal: it stops there, as at the first die, so that what the blip holds never
    reaches a screen before the action is taken (only the blip's id, which the table shows, is carried)."""

    def __init__(self, blip_id: str):
        self.blip_id = blip_id
        super().__init__(f"the action reveals {blip_id}")


@dataclass
class Ctx:
    state: GameState
    events: list[str] = field(default_factory=list)
    explain: list[str] = field(default_factory=list)
    revealed: dict[str, list[str]] = field(default_factory=dict)   # blip id -> unit ids ([] for a decoy)
    # The numbers an action's checks find before any die (what a preview shows), and the numbers its resolution then
    # uses (what the property tests hold the preview to); see ``actions.FIGURES``.
    figures: dict[str, Any] = field(default_factory=dict)
    applied: dict[str, Any] = field(default_factory=dict)
    # A preview: the resolution stops at the first reveal, before anything of the blip's contents is known.
    stop_at_reveal: bool = False
    # The action a unit's checks passed and what they found, while nothing has changed since: its resolution goes on
    # from there instead of checking it again (``actions.unit_action``).
    checked: tuple[Any, Any] | None = None

    def bf(self) -> Battlefield:
        return self.state.battlefield()

    def event(self, text: str, *why: object, private: Mapping[str, str] | None = None, units: Iterable[str] = (),
              rule: str = "") -> None:
        """An event; a bare ``[p.18]`` in ``why`` tags the event's own explanation line, longer texts add lines.

        An event with no bare tag is tagged in the explanation with ``rule``, else with the rules its lines cite, so
        that every line of the working names its page or ruling (the query contract). The battle's log keeps its
        lines as they were: a save's digest covers the log, and saves written before stay as they were."""
        tags = [str(w) for w in why if str(w).startswith("[")]
        lines = [text + (" " + " ".join(tags) if tags else "")] + [str(w) for w in why if w and not str(w).startswith("[")]
        self.events.append(text)
        cited = [] if tags else [rule] if rule else [
            part.strip() for w in why if w for m in [_TRAILING_TAG.search(str(w))] if m
            for part in m.group(0)[1:-1].split(",")]
        self.explain.extend([f"{text} [{', '.join(dict.fromkeys(cited))}]", *lines[1:]] if cited else lines)
        self.state.log_event(text, lines, units, private)

    def note(self, *why: object) -> None:
        self.explain.extend(str(w) for w in why)


_TRAILING_TAG = re.compile(r"\[(?:p\.|A\d)[^\[\]]*\]$")


def d6(label: str, rule: str, success: str = "", red: bool = False) -> RollRequest:
    return RollRequest(label, rule, "d6", success, "red" if red else "normal")


# ---- counters -----------------------------------------------------------------------------------


def add_counters(ctx: Ctx, ident: str, n: int, why: str = "") -> None:
    """Target counters go on units and objectives; a blip that receives any is revealed (p.17)."""
    if n <= 0:
        return
    s = ctx.state
    if ident in s.units:
        s.units[ident].target_counters += n
    elif ident in s.objectives:
        s.objectives[ident].target_counters += n
    elif ident in s.blips:
        reveal_blip(ctx, ident, counters=n, cause=why or "received Target counters")


def objective_inspected(s: GameState, ident: str, n: int) -> dict[str, str]:
    """Before ``n`` Target counters go on ``ident``: if it is an objective, the private word to each side whose own
    mission now counts it Inspected (``missions.inspection_notes``, A41); nothing for a unit or a blip."""
    o = s.objectives.get(ident)
    if o is None or n <= 0:
        return {}
    return inspection_notes(s, ident, o.target_counters, o.target_counters + n)


# ---- blips --------------------------------------------------------------------------------------


def default_facing(side: str) -> float:
    """Revealed troopers face the enemy's edge unless their owner says otherwise (A13)."""
    return 90.0 if side == "A" else 270.0


def _free_spot(s: GameState, x: float, y: float, r: float, near_r: float, drone: bool,
               side: str = "A") -> tuple[float, float]:
    """A spot touching a base of radius ``near_r`` at (x, y): on the table, on no base, not in impassable terrain.

    It tries behind first (toward the owner's own edge), so a revealed unit does not stand in its partner's way.
    """
    bf = s.battlefield()
    behind = 270.0 if side == "A" else 90.0
    for ring in range(0, 6):
        reach = near_r + r + ring * 2 * r
        for k in range(24):
            a = math.radians(behind + (15 * ((k + 1) // 2)) * (1 if k % 2 else -1))
            px, py = x + reach * math.cos(a), y + reach * math.sin(a)
            if not bf.on_table(px, py, r):
                continue
            if any(math.hypot(px - p.x, py - p.y) < p.radius + r - EPS for p in bf.pieces.values()):
                continue
            if any(f.column(drone).impassable and f.holds(px, py) for f in bf.terrain):
                continue
            return px, py
    return x, y


# Spots offered around the first unit of a square, every 30° (A66): enough that some stay free beside a wall.
SPOT_STEP = 30
TOUCH_TOLERANCE = 0.01      # inches: a base "touching" another may stand this far from exact contact


def revealed_spot_problem(s: GameState, uid: str, x: float, y: float) -> str:
    """Why ``uid`` (a unit just revealed after the first of its square) may not stand at (x, y), or "" (A66): it
    touches the first unit, is on the table, overlaps no base and stands in no impassable terrain."""
    first = s.units.get(s.to_place.get(uid, ""))
    unit = s.units.get(uid)
    if unit is None or first is None:
        return (f"{uid} is not a unit just revealed beside the first of its square: only those are placed by their "
                f"owner, until the next other action [A66]")
    r = unit.base / 2
    gap = math.hypot(x - first.x, y - first.y) - (first.base / 2 + r)
    if abs(gap) > TOUCH_TOLERANCE:
        return (f"({x:.2f}, {y:.2f}) is {gap:+.2f}\" from touching {first.id}: a revealed unit stands touching the "
                f"first unit of its square [p.17, A66]")
    bf = s.battlefield()
    if not bf.on_table(x, y, r):
        return f"({x:.2f}, {y:.2f}) puts {uid}'s base off the table [A66]"
    for p in bf.pieces.values():
        if p.id != uid and math.hypot(x - p.x, y - p.y) < p.radius + r - TOUCH_TOLERANCE - EPS:
            return f"({x:.2f}, {y:.2f}) overlaps {p.id}'s base [A66]"
    drone = is_drone_type(unit.type)
    for f in bf.terrain:
        if f.column(drone).impassable and f.holds(x, y):
            return f"({x:.2f}, {y:.2f}) is inside impassable terrain ({f.id}) [A10, A66]"
    return ""


def revealed_spots(s: GameState, uid: str) -> list[tuple[float, float]]:
    """The legal spots for ``uid`` touching the first unit of its square, every ``SPOT_STEP``° (A66), the spot
    it stands on now first when that is legal."""
    first = s.units.get(s.to_place.get(uid, ""))
    unit = s.units.get(uid)
    if unit is None or first is None:
        return []
    reach = first.base / 2 + unit.base / 2
    spots = [(unit.x, unit.y)]
    for k in range(0, 360, SPOT_STEP):
        a = math.radians(k)
        spots.append((round(first.x + reach * math.cos(a), 3), round(first.y + reach * math.sin(a), 3)))
    seen: list[tuple[float, float]] = []
    for x, y in spots:
        if any(math.hypot(x - a, y - b) < 1e-6 for a, b in seen):
            continue
        if not revealed_spot_problem(s, uid, x, y):
            seen.append((x, y))
    return seen


def place_revealed(ctx: Ctx, uid: str, x: float, y: float) -> None:
    """The owner places a unit just revealed, touching the first unit of its square, on a legal spot (A66)."""
    s = ctx.state
    why = revealed_spot_problem(s, uid, x, y)
    if why:
        raise Refused(why)
    unit = s.units[uid]
    unit.x, unit.y = x, y
    first = s.to_place.pop(uid)
    ctx.event(f"side {unit.side} places {uid} at ({x:.2f}, {y:.2f}), touching {first}",
              "the first unit replaces the counter; each further unit stands touching it where its owner chooses "
              "[p.17, A66]", units=[uid])


def reveal_blip(ctx: Ctx, blip_id: str, counters: int = 0, cause: str = "", facing: float | None = None,
                voluntary: bool = False) -> list[str]:
    """Replace a blip by its units, placed touching the counter (p.17); a decoy is removed with its counters."""
    s = ctx.state
    blip = s.blips[blip_id]
    contents = s.blip_contents(blip)
    if contents is None:
        raise UnknownContents(blip_id)
    if ctx.stop_at_reveal:
        raise RevealReached(blip_id)
    rules = s.rulings_in_force()
    del s.blips[blip_id]
    s.holding[blip.side].squares[blip.square] = []
    how = "voluntarily" if voluntary else "involuntarily"
    if not contents:
        ctx.event(f"{blip_id} is revealed ({cause}): a decoy, removed" + (f" with its {counters} counters" if counters else ""),
                  "a decoy is discarded together with its Target counters [p.17]", units=[blip_id])
        ctx.revealed[blip_id] = []
        return []
    activation = blip.activation if rules.reads("A20", "A") else False
    split = rules.reads("A17", "B") and counters > 0 and len(contents) > 1
    made: list[str] = []
    for i, c in enumerate(contents):
        if i == 0:
            x, y = blip.x, blip.y            # the first unit replaces the counter (A66)
        else:
            # Each further unit touches the first; the program offers a spot, its owner may choose another (A66).
            first = s.units[made[0]]
            x, y = _free_spot(s, first.x, first.y, c.base / 2, first.base / 2, is_drone_type(c.type), c.side)
        f = default_facing(c.side) if facing is None else facing
        # A17 option B splits the counters between the units (the first ones take any odd counter).
        share = counters // len(contents) + (1 if i < counters % len(contents) else 0) if split else counters
        unit = unit_from_contents(c, x, y, f, activation, share)
        s.units[unit.id] = unit
        made.append(unit.id)
        if i > 0:
            s.to_place[unit.id] = made[0]
    names = ", ".join(f"{u} ({s.units[u].type}) at ({s.units[u].x:.2f}, {s.units[u].y:.2f})" for u in made)
    ctx.event(
        f"{blip_id} is revealed {how} ({cause}): {names}"
        + ((f", the {counters} Target counters split between them" if split else f", each with {counters} Target counters")
           if counters else ""),
        "the first unit replaces the counter; each further unit stands touching it, where its owner chooses "
        "[p.17, A66]" if len(made) > 1 else "the unit replaces the counter [p.17, A66]",
        (f"the counters assigned to the blip are split between its units [p.17, {rules.label('A17')}]" if split else
         f"each revealed unit receives all the counters assigned to the blip [p.17, {rules.label('A17')}]") if counters else "",
        f"revealed units keep the blip's activation counter [{rules.label('A20')}]",
        units=[blip_id] + made,
    )
    ctx.revealed[blip_id] = made
    if facing is None:
        drones_face = rules.reads("A12", "B")
        s.to_face.extend(u for u in made if drones_face or not s.units[u].is_drone)
    return made


def face_revealed(ctx: Ctx, uid: str, facing: float) -> None:
    """The owner faces a trooper just revealed (A13): voluntary or involuntary, in either side's action."""
    s = ctx.state
    if uid not in s.to_face:
        raise Refused(f"{uid} was not revealed by the last action: only a trooper just revealed is faced by its owner; "
                      f"afterwards it turns by moving [A13]")
    unit = s.units[uid]
    unit.facing = float(facing) % 360.0
    s.to_face.remove(uid)
    ctx.event(f"side {unit.side} faces {uid} at {unit.facing:g}°",
              "revealed troopers take a facing chosen by their owner [A13]", units=[uid])


# ---- damage -------------------------------------------------------------------------------------


def destroy(ctx: Ctx, ident: str, cause: str, rule: str = "") -> None:
    """``ident`` destroyed by ``cause``; ``rule``: the page or ruling of a cause that does not cite its own."""
    s = ctx.state
    if ident in s.units:
        u = s.units.pop(ident)
        s.destroyed.append({"id": u.id, "side": u.side, "type": u.type, "by": cause, "round": s.round})
        ctx.event(f"{ident} is destroyed ({cause})", units=[ident], rule=rule)
    elif ident in s.objectives:
        s.objectives[ident].destroyed = True
        ctx.event(f"objective {ident} is destroyed ({cause})", units=[ident], rule=rule)


def armour_of(s: GameState, unit: UnitState) -> int:
    return s.battlefield().piece(unit.id).stat("armour")


def new_damage(ctx: Ctx, uid: str, cause: str, rule: str) -> None:
    """A second Damaged result destroys the suit (p.25)."""
    u = ctx.state.units[uid]
    if u.damaged:
        destroy(ctx, uid, f"{cause}: damaged a second time [{rule}]")
    else:
        u.damaged = True
        ctx.event(f"{uid} is Damaged ({cause})", f"Damaged [{rule}]", units=[uid])


def graze(ctx: Ctx, uid: str, cause: str) -> Rolling[None]:
    """Red Die > Arm stuns; normal die > Arm damages; a second damage destroys (p.20, A53)."""
    s = ctx.state
    u = s.units[uid]
    if u.is_drone:
        destroy(ctx, uid, f"{cause}: a graze destroys a drone [p.20]")
        return
    arm = armour_of(s, u)
    red = yield d6(f"Red Die for {uid}'s graze", "p.20", f"above {arm} stuns", red=True)
    normal = yield d6(f"normal die for {uid}'s graze", "p.20", f"above {arm} damages")
    ctx.note(f"{uid} grazed: Red {red}, normal {normal} against Armour {arm} [p.20]")
    if normal > arm and u.damaged:
        destroy(ctx, uid, f"{cause}: graze on a Damaged suit [p.25, A53]")
        return
    if red > arm:
        if u.stunned:
            ctx.event(f"{uid} is stunned again: no further effect", "[p.25, A26]", units=[uid])
        else:
            u.stunned = True
            ctx.event(f"{uid} is Stunned ({cause})", "Red Die above Armour [p.20]", units=[uid])
    if normal > arm:
        new_damage(ctx, uid, cause, "p.20")
    if red <= arm and normal <= arm:
        ctx.event(f"{uid} shrugs off the graze", units=[uid], rule="p.20")


def blast_cascade(ctx: Ctx, uid: str, dice: int, cause: str) -> Rolling[None]:
    """Blast on one trooper (p.21, A31): damage, then stun, then destruction, each roll only if the last one hurt."""
    s = ctx.state
    u = s.units[uid]
    arm = armour_of(s, u)
    rules = s.rulings_in_force()
    if dice <= 0:
        return
    faces = []
    for i in range(dice):
        faces.append((yield d6(f"blast die {i + 1} of {dice} for {uid} (damage)", "p.21", f"above {arm} damages")))
    ctx.note(f"{uid} blast damage roll {faces} against Armour {arm} [p.21]")
    if not any(f > arm for f in faces):
        ctx.event(f"{uid} is unharmed by the blast", units=[uid], rule="p.21, A31")
        return
    if u.damaged and rules.reads("A31", "A"):
        destroy(ctx, uid, f"{cause}: blast on a Damaged suit [p.21, p.25, A31]")
        return
    if not u.damaged:
        u.damaged = True
        ctx.event(f"{uid} is Damaged by the blast", "[p.21]", units=[uid])
    faces = []
    for i in range(dice):
        faces.append((yield d6(f"blast die {i + 1} of {dice} for {uid} (stun)", "p.21", f"above {arm} stuns")))
    ctx.note(f"{uid} blast stun roll {faces} [p.21]")
    if not any(f > arm for f in faces):
        return
    u.stunned = True
    ctx.event(f"{uid} is Stunned by the blast", "[p.21]", units=[uid])
    faces = []
    for i in range(dice):
        faces.append((yield d6(f"blast die {i + 1} of {dice} for {uid} (destruction)", "p.21", f"above {arm} destroys")))
    ctx.note(f"{uid} blast destruction roll {faces} [p.21]")
    if any(f > arm for f in faces):
        destroy(ctx, uid, f"{cause} [p.21, A31]")


def caught(ctx: Ctx, x: float, y: float, radius: float, friendly_side: str | None = None,
           edge: bool = True) -> list[str]:
    """Ids of units and blips whose base is within ``radius`` of (x, y) (edge distance, inclusive; A30)."""
    s = ctx.state
    out: list[tuple[float, str]] = []
    things: list[UnitState | BlipState] = [*s.units.values(), *s.blips.values()]
    for thing in things:
        if friendly_side is not None and thing.side == friendly_side:
            continue
        d = math.hypot(thing.x - x, thing.y - y) - (thing.base / 2 if edge else 0.0)
        if at_most(d, radius):
            out.append((max(0.0, d), thing.id))
    return [i for _, i in sorted(out)]


def area_attack(ctx: Ctx, ids: list[str], x: float, y: float, cause: str, blips_rule: str) -> list[str]:
    """Reveal caught blips first (A32), then sort units nearest the centre first (ties by id)."""
    s = ctx.state
    rules = s.rulings_in_force()
    units: list[str] = []
    for ident in ids:
        if ident in s.blips:
            if rules.reads("A32", "B"):
                ctx.note(f"{ident} is a blip: unaffected [{rules.label('A32')}]")
                continue
            units.extend(reveal_blip(ctx, ident, cause=f"caught by {cause}"))
        elif ident in s.units:
            units.append(ident)
    units = sorted(set(units), key=lambda i: (max(0.0, math.hypot(s.units[i].x - x, s.units[i].y - y) - s.units[i].base / 2), i))
    return units


def blast_catch(ctx: Ctx, x: float, y: float, radius: float, firer_side: str | None,
                exclude: tuple[str, ...] = ()) -> list[str]:
    """Who a blast at (x, y) would catch: edge or centre (A30), friends spared under A30 option B."""
    rules = ctx.state.rulings_in_force()
    edge = rules.reads("A30", "A")
    friendly = firer_side if rules.reads("A30", "B") else None
    return [i for i in caught(ctx, x, y, radius, friendly, edge) if i not in exclude]


def blast(ctx: Ctx, x: float, y: float, radius: float, dice: int, cause: str, firer_side: str | None,
          exclude: tuple[str, ...] = ()) -> Rolling[None]:
    s = ctx.state
    rules = s.rulings_in_force()
    ids = blast_catch(ctx, x, y, radius, firer_side, exclude)
    ctx.applied["blast"] = {"centre": [x, y], "radius": radius, "dice": dice, "catches": list(ids)}
    ctx.note(f"blast of radius {inches(radius)} at ({x:.2f}, {y:.2f}) catches: {', '.join(ids) or 'nobody'} "
             f"[p.21, {rules.label('A30')}]")
    for uid in area_attack(ctx, ids, x, y, cause, "A32"):
        if uid not in s.units or uid in exclude:
            continue
        if s.units[uid].is_drone:
            destroy(ctx, uid, f"{cause}: drones caught in a blast are destroyed [p.21]")
        else:
            yield from blast_cascade(ctx, uid, dice, cause)


def add_crater(ctx: Ctx, x: float, y: float, blast_radius: float) -> None:
    """Heavy, hindering crater at the point of impact (p.21, A33); it removes features it more than half covers."""
    s = ctx.state
    rules = s.rulings_in_force()
    r = rules.crater_diameter / 2 * s.scale if rules.reads("A33", "A") else blast_radius
    disc = shapely.Point(x, y).buffer(r, quad_segs=16)
    on_table = 0.0 <= x <= s.width and 0.0 <= y <= s.height
    shape: dict[str, Any] = {"circle": Circle(x=x, y=y, r=r)}
    if not on_table:
        # A point of impact off the table: the crater is the part of its template on the table, if any (A62)
        disc = disc.intersection(shapely.box(0.0, 0.0, s.width, s.height))
        if disc.is_empty or disc.area <= EPS or disc.geom_type != "Polygon":
            ctx.event(f"the point of impact ({x:.2f}, {y:.2f}) is off the table and no part of the crater lies on it: "
                      f"no crater", "[p.21, A62]")
            return
        shape = {"polygon": [[round(px, 6), round(py, 6)] for px, py in list(disc.exterior.coords)[:-1]]}
    ident = s.new_id("crater")
    kept = []
    bf = s.battlefield()
    by_id = {f.id: f for f in bf.terrain}
    for t in s.terrain:
        g = by_id[t.id].geometry
        if g.area > 0 and disc.intersection(g).area > 0.5 * g.area + EPS:
            ctx.event(f"the crater covers more than half of {t.id}: removed", "[p.21, A33]")
            continue
        kept.append(t)
    kept.append(TerrainEntry(id=ident, type="crater", **shape))
    s.terrain = kept
    if on_table:
        ctx.event(f"crater {ident} ({inches(2 * r)} across) at ({x:.2f}, {y:.2f})", f"[p.21, {rules.label('A33')}]")
    else:
        ctx.event(f"crater {ident}: the part of the {inches(2 * r)} template around ({x:.2f}, {y:.2f}) that lies on "
                  f"the table", f"[p.21, {rules.label('A33')}, A62]")


# ---- passive sensors and objectives ---------------------------------------------------------------


def passive_after_move(ctx: Ctx, mover_id: str) -> None:
    """Passive sensors at the end of a Move or Jump (p.18, A15, A16)."""
    s = ctx.state
    bf = s.battlefield()
    if mover_id in s.blips:
        mover = bf.piece(mover_id)
        near = enemies_in_passive_range(bf, mover)
        if not near:
            ctx.note(f"{mover_id} ends more than 6\" from every enemy: stays hidden [p.18]")
            return
        ctx.note(f"{mover_id} ends within 6\" of {', '.join(p.id for p in near)}: revealed first [p.18, A15]")
        origin = (mover.x, mover.y, mover.radius)
        units = reveal_blip(ctx, mover_id, cause="ended a move within 6\" of an enemy")
        for uid in units:
            _sense(ctx, uid, origin)
        return
    if mover_id in s.units:
        _sense(ctx, mover_id, None)


def _sense(ctx: Ctx, uid: str, origin: tuple[float, float, float] | None) -> None:
    s = ctx.state
    bf = s.battlefield()
    mover = bf.piece(uid)
    if origin is not None:
        # A unit revealed from a moving blip measures from the blip counter's final position (A15).
        mover = replace(mover, x=origin[0], y=origin[1], radius=origin[2])
    gained = 0
    for enemy in sorted(bf.enemies_of(mover.side), key=lambda p: (edge_range(mover, p), p.id)):
        if not sensor_link(bf, mover, enemy):
            continue
        if enemy.is_blip:
            if enemy.id not in s.blips:
                continue
            units = reveal_blip(ctx, enemy.id, cause=f"within 6\" of {uid}'s passive sensors")
            for eu in units:
                s.units[eu].target_counters += 1
                gained += 1
            if units:
                ctx.event(f"{uid} +{len(units)} and {', '.join(units)} +1 each (passive sensors)", "[p.18]", units=[uid] + units)
        elif enemy.id in s.units:
            s.units[enemy.id].target_counters += 1
            gained += 1
            ctx.event(f"{uid} and {enemy.id} +1 Target counter each (passive sensors, {inches(edge_range(mover, enemy))})",
                      "[p.18, A15]", units=[uid, enemy.id])
    if gained and uid in s.units:
        s.units[uid].target_counters += gained
    # Objectives gain a counter only from the attacker's revealed units (A16).
    if s.attacker == mover.side:
        for o in s.objectives.values():
            if o.destroyed:
                continue
            op = bf.pieces.get(o.id)
            if op is not None and sensor_link(bf, mover, op):
                ctx.event(f"objective {o.id} +1 Target counter from {uid}'s passive sensors", "[p.18, A16]", units=[o.id],
                          private=objective_inspected(s, o.id, 1))
                o.target_counters += 1
    secure_objectives(ctx, uid, mover)


def secure_objectives(ctx: Ctx, uid: str, mover: Piece) -> None:
    """A revealed unit ending a move within 6\" secures an objective unless an enemy unit is within 6\" (A41)."""
    s = ctx.state
    if not s.objectives:
        return
    bf = s.battlefield()
    limit = bf.distance(PASSIVE_RANGE)
    side = mover.side
    if side is None:
        return
    for o in s.objectives.values():
        if o.destroyed:
            continue
        op = bf.pieces.get(o.id)
        if op is None or not at_most(edge_range(mover, op), limit):
            continue
        if o.control == side:
            continue
        rivals = [p.id for p in bf.pieces.values()
                  if (p.is_trooper or p.is_drone) and p.side == other(side) and at_most(edge_range(p, op), limit)]
        new: Literal["contested", "A", "B"] = "contested" if rivals else ("A" if side == "A" else "B")
        if new != o.control:
            o.control = new
            if new == side:
                ctx.event(f"objective {o.id} is Secured by side {side} ({uid} within 6\", no enemy near)", "[p.~12, A41]", units=[o.id])
            else:
                ctx.event(f"objective {o.id} is Contested ({uid} within 6\"; {', '.join(rivals)} also near)", "[p.~12, A41]", units=[o.id])


def jammer_fields_over(s: GameState, uid: str) -> list[str]:
    """Haywire drones (other than the unit itself) whose active field reaches the unit's base (A38)."""
    me = s.unit_or_blip(uid)
    out: list[str] = []
    if me is None:
        return out
    for d in s.units.values():
        if d.jammer_on and d.id != uid:
            gap = math.hypot(d.x - me.x, d.y - me.y) - d.base / 2 - me.base / 2
            if at_most(gap, 3.0 * s.scale):
                out.append(d.id)
    return out
