"""Pre-game set-up (p.~14-15, A42, A47, A55): roles, objectives, cards, holding areas, blips, initiative.

Set-up is a generator like every action: it yields the rolls and card draws it needs (see ``dice.py``), so a
seeded source, physical dice typed in, or a script in tests answers them, and the log explains every step.
Choices players make (objective positions, holding-area arrangement, blip positions, drone purchases) come in a
``SetupChoices``; anything left out is placed automatically, by draws from the same source.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..rules.numbers import EPS
from ..rules.scenario import Scenario, UnitContents
from .cards import Deck, Force, issue_force, playing_deck
from .dice import DiceSource, Recorder, Roll, Rolling, RollRequest
from .effects import Ctx, Refused, d6
from .seal import seal_all
from .state import BLIP_LABELS, SIDES, SQUARES, BlipState, GameState, Holding, ObjectiveState, as_side, blip_id, other

EDGE_MARGIN = 6.0
OBJECTIVE_GAP = 8.0
DEPLOY_DEPTH = 6.0
BLIPS = 16


@dataclass
class SetupChoices:
    factions: dict[str, str]
    streak: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    objectives: dict[str, tuple[float, float]] = field(default_factory=dict)
    holding: dict[str, dict[int, list[str]]] = field(default_factory=dict)   # side -> square -> unit ids
    blips: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    purchase: dict[str, dict[str, int]] = field(default_factory=dict)        # Chance Encounter drones
    ratings: dict[str, str] = field(default_factory=dict)                     # unused: cards give ratings


def blank_state(table: Scenario) -> GameState:
    return GameState(
        name=table.name, width=table.table.width, height=table.table.height, terrain=list(table.terrain),
        units={}, blips={}, objectives={}, holding={side: Holding({n: [] for n in range(1, SQUARES + 1)}) for side in SIDES},
        rulings=dict(table.rulings), scale=table.scale, attacker=None, mode="table", phase="setup",
    )


# ---- zones --------------------------------------------------------------------------------------


def deployment_zone(s: GameState, side: str) -> tuple[float, float]:
    """The band of y a side's blips deploy in: within 6\" of its edge, or the defender's whole half (p.~15)."""
    depth = DEPLOY_DEPTH * s.scale
    defender = s.mode == "attack-defence" and s.attacker is not None and side != s.attacker
    if side == "A":
        return (0.0, s.height / 2) if defender else (0.0, depth)
    return (s.height / 2, s.height) if defender else (s.height - depth, s.height)


def objective_zone(s: GameState, oid: str) -> tuple[float, float]:
    """Delta and epsilon in the defender's 25 %, alpha-gamma in the defender's half (p.~15, A55)."""
    defender = other(s.attacking_side())
    depth = s.height / 4 if oid in ("delta", "epsilon") else s.height / 2
    return (0.0, depth) if defender == "A" else (s.height - depth, s.height)


def objective_problems(s: GameState, oid: str, x: float, y: float, r: float = 0.5) -> list[str]:
    """Why an objective may not stand at (x, y): zone, 6\" from every table edge, 8\" from the others (A55)."""
    problems = []
    lo, hi = objective_zone(s, oid)
    where = "the defender's 25 %" if oid in ("delta", "epsilon") else "the defender's half"
    if not (lo - EPS <= y <= hi + EPS):
        problems.append(f"{oid} must stand in {where} (y from {lo:g} to {hi:g}) [p.~15, A55]")
    margin = EDGE_MARGIN * s.scale
    edge = min(x - r, y - r, s.width - x - r, s.height - y - r)
    if edge < margin - EPS:
        problems.append(f"{oid} is {edge:.2f}\" from a table edge; at least {margin:g}\" [p.~15, A55]")
    gap = OBJECTIVE_GAP * s.scale
    for o in s.objectives.values():
        if o.id == oid:
            continue
        if oid in ("delta", "epsilon") and o.id not in ("delta", "epsilon"):
            continue
        d = math.hypot(o.x - x, o.y - y) - o.base / 2 - r
        if d < gap - EPS:
            problems.append(f"{oid} is {max(d, 0):.2f}\" from {o.id}; at least {gap:g}\" [p.~15, A55]")
    bf = s.battlefield()
    if any(f.column(False).impassable and f.holds(x, y) for f in bf.terrain):
        problems.append(f"{oid} would stand in impassable terrain")
    return problems


def _free_spots(s: GameState, spots: Iterable[tuple[float, float]], r: float = 0.5) -> list[tuple[float, float]]:
    """The spots where a base of radius ``r`` stands on the table, on no other base and out of impassable terrain."""
    bf = s.battlefield()
    pieces = list(bf.pieces.values())
    impassable = [f for f in bf.terrain if f.column(False).impassable]
    return [
        (x, y) for x, y in spots
        if bf.on_table(x, y, r)
        and not any(math.hypot(p.x - x, p.y - y) < p.radius + r - EPS for p in pieces)
        and not any(f.holds(x, y) for f in impassable)
    ]


def _grid(lo_x: float, hi_x: float, lo_y: float, hi_y: float, step: float) -> list[tuple[float, float]]:
    out = []
    y = lo_y
    while y <= hi_y + EPS:
        x = lo_x
        while x <= hi_x + EPS:
            out.append((round(x, 3), round(y, 3)))
            x += step
        y += step
    return out


# ---- the steps ----------------------------------------------------------------------------------


def roll_roles(ctx: Ctx, choices: SetupChoices) -> Rolling[None]:
    """High roll attacks, low defends, a tie is a Chance Encounter; a campaign streak adds its bonus (A47)."""
    s = ctx.state
    rolls = {}
    for side in SIDES:
        bonus = choices.streak.get(side, 0)
        face = yield d6(f"attacker/defender roll for side {side}", "p.~15, A47", "high attacks")
        rolls[side] = face + bonus
        if bonus:
            ctx.note(f"side {side} rolls {face} + {bonus} for its winning streak = {face + bonus} [p.31, A47]")
    if rolls["A"] == rolls["B"]:
        s.mode, s.attacker = "chance-encounter", None
        ctx.event(f"both sides roll {rolls['A']}: a Chance Encounter", "[p.~15]")
    else:
        s.mode = "attack-defence"
        s.attacker = "A" if rolls["A"] > rolls["B"] else "B"
        ctx.event(f"A rolls {rolls['A']}, B rolls {rolls['B']}: side {s.attacker} attacks, side {other(s.attacker)} defends",
                  "[p.~15]")


def _spots(s: GameState, oid: str, placed: dict[str, tuple[float, float]],
           blocked: Callable[[float, float], bool]) -> list[tuple[float, float]]:
    """Grid points where objective ``oid`` may stand, given the ones already placed (A55), without building geometry."""
    lo, hi = objective_zone(s, oid)
    margin = EDGE_MARGIN * s.scale + 0.5
    gap = OBJECTIVE_GAP * s.scale + 1.0
    out = []
    for x, y in _grid(margin, s.width - margin, max(lo, margin), min(hi, s.height - margin), 1.0):
        # Delta and epsilon keep 8" from each other only; alpha to gamma from every objective (A55).
        near = [(px, py) for o, (px, py) in placed.items() if oid not in ("delta", "epsilon") or o in ("delta", "epsilon")]
        if any(math.hypot(px - x, py - y) < gap - EPS for px, py in near):
            continue
        if blocked(x, y):
            continue
        out.append((x, y))
    return out


def _completes(s: GameState, order: list[tuple[str, str]], placed: dict[str, tuple[float, float]],
               blocked: Callable[[float, float], bool]) -> bool:
    """Can the remaining objectives still be placed (greedily) after ``placed``?"""
    trial = dict(placed)
    for oid, _ in order:
        if oid in trial:
            continue
        spots = _spots(s, oid, trial, blocked)
        if not spots:
            return False
        trial[oid] = spots[0]
    return True


def place_objectives(ctx: Ctx, choices: SetupChoices) -> Rolling[None]:
    s = ctx.state
    attacker = s.attacking_side()
    order = [("delta", attacker), ("epsilon", attacker), ("alpha", other(attacker)), ("beta", other(attacker)),
             ("gamma", other(attacker))]
    impassable = [f for f in s.battlefield().terrain if f.column(False).impassable]

    def blocked(x: float, y: float) -> bool:
        return any(f.holds(x, y) for f in impassable)

    placed: dict[str, tuple[float, float]] = {}
    for oid, placer in order:
        if oid in choices.objectives:
            x, y = choices.objectives[oid]
            problems = objective_problems(s, oid, x, y)
            if problems:
                raise Refused("; ".join(problems))
        else:
            cands = [c for c in _spots(s, oid, placed, blocked) if _completes(s, order, {**placed, oid: c}, blocked)]
            if not cands:
                raise Refused(f"there is no legal place left for objective {oid} [p.~15, A55]")
            pick = yield RollRequest(f"place objective {oid} (side {placer})", "p.~15, A55", "draw",
                                     options=tuple(f"({x:g}, {y:g})" for x, y in cands))
            x, y = cands[int(pick)]
        placed[oid] = (x, y)
        s.objectives[oid] = ObjectiveState(oid, x, y)
        ctx.event(f"side {placer} places objective {oid} at ({x:g}, {y:g})", "[p.~15, A55]", units=[oid])


def draw_cards(ctx: Ctx, deck: Deck, choices: SetupChoices) -> Rolling[dict[str, Force]]:
    """Each player draws a mission, a troop card and a drone card; the mission names the troop line (p.~9, A42)."""
    s = ctx.state
    forces: dict[str, Force] = {}
    for side in SIDES:
        if s.mode == "chance-encounter":
            kind = "chance-encounter"
        else:
            kind = "offence" if side == s.attacker else "defence"
        missions = deck.missions(kind)
        m = missions[int((yield RollRequest(f"side {side} draws a {kind} mission card", "p.~9, A42", "draw",
                                        options=tuple(c.id for c in missions), secret=side)))]
        troops = deck.troop_cards
        t = troops[int((yield RollRequest(f"side {side} draws a troop card", "p.~9, A42", "draw",
                                      options=tuple(c.id for c in troops), secret=side)))]
        drones = deck.drone_cards
        d = drones[int((yield RollRequest(f"side {side} draws a drone card", "p.~9, A42", "draw",
                                      options=tuple(c.id for c in drones), secret=side)))]
        purchase = choices.purchase.get(side) if s.mode == "chance-encounter" else None
        force = issue_force(t, m.troop_line, d, deck.prices, purchase)
        s.missions[side] = m.id
        s.cards[side] = {"troop": t.id, "line": m.troop_line, "drone": d.id, "drone_line": force.drone_line}
        ctx.event(f"side {side} draws its cards (secret)", "[p.~9]",
                  private={side: f"mission {m.title!r} (troop line {m.troop_line}); troop card {t.title!r}; "
                                 f"drone card {d.title!r} line {force.drone_line}"})
        forces[side] = force
    return forces


def fill_holding(ctx: Ctx, forces: dict[str, Force], choices: SetupChoices) -> Rolling[None]:
    """16 squares, at most 2 units each; squares left empty become decoys (p.~10)."""
    s = ctx.state
    for side in SIDES:
        faction = choices.factions[side]
        units: list[UnitContents] = []
        counts: dict[str, int] = {}
        for issued in forces[side].units:
            counts[issued.type] = counts.get(issued.type, 0) + 1
            uid = f"{side.lower()}-{issued.type}-{counts[issued.type]}"
            units.append(UnitContents(id=uid, side=as_side(side), faction=faction, rating=issued.rating, type=issued.type))
        by_id = {u.id: u for u in units}
        holding: dict[int, list[UnitContents] | None] = {n: [] for n in range(1, SQUARES + 1)}
        arranged = choices.holding.get(side)
        if arranged:
            placed = set()
            for square, ids in arranged.items():
                if not 1 <= int(square) <= SQUARES or len(ids) > 2:
                    raise Refused(f"side {side}: square {square} holds at most 2 units, squares are 1-16 [p.~10]")
                for uid in ids:
                    if uid not in by_id or uid in placed:
                        raise Refused(f"side {side}: {uid!r} is not an issued unit, or placed twice")
                    placed.add(uid)
                holding[int(square)] = [by_id[u] for u in ids]
            if placed != set(by_id):
                raise Refused(f"side {side}: every issued unit must go in a square ({', '.join(sorted(set(by_id) - placed))} left)")
        else:
            # One unit per square while there is room, pairs beyond 16; the squares are shuffled by draws so
            # that blip numbers say nothing about what they hold.
            if len(units) > SQUARES * 2:
                raise Refused(f"side {side}: {len(units)} units do not fit 16 squares of 2 [p.~10]")
            groups = [[u] for u in units[:SQUARES]]
            for i, u in enumerate(units[SQUARES:]):
                groups[i].append(u)
            free = list(range(1, SQUARES + 1))
            for g in groups:
                pick = yield RollRequest(f"side {side} chooses a holding square", "p.~10", "draw",
                                         options=tuple(str(n) for n in free), secret=side)
                holding[free.pop(int(pick))] = g
        s.holding[side] = Holding(holding)
        filled = sum(1 for v in holding.values() if v)
        # How many squares hold units is secret (A59): the opponent learns only that the area was filled.
        ctx.event(f"side {side} fills its holding area (secret)", "[p.~10, A59]",
                  private={side: f"{filled} squares hold units, {SQUARES - filled} are decoys: "
                                 + "; ".join(f"{n}: {', '.join(u.id for u in v or []) or 'decoy'}" for n, v in holding.items())})


def deploy_blips(ctx: Ctx, choices: SetupChoices) -> Rolling[None]:
    """Defender anywhere in his half, attacker within 6\" of his edge; Chance Encounter: 4 at a time, alternately."""
    s = ctx.state
    if s.mode == "chance-encounter":
        order: list[str] = []
        first = s.initiative
        for _ in range(BLIPS // 4):
            for side in (first, other(first)):
                order.extend([side] * 4)
    else:
        order = [other(s.attacking_side())] * BLIPS + [s.attacking_side()] * BLIPS
    given = {side: list(choices.blips.get(side, [])) for side in SIDES}
    next_number = {side: 1 for side in SIDES}
    for side in order:
        n = next_number[side]
        next_number[side] += 1
        lo, hi = deployment_zone(s, side)
        if given[side]:
            x, y = given[side].pop(0)
            if not (lo - EPS <= y <= hi + EPS) or not _free_spots(s, [(x, y)]):
                raise Refused(f"side {side}'s blip {n} at ({x:g}, {y:g}) must stand in its zone (y {lo:g}-{hi:g}) "
                              f"on free ground [p.~15]")
        else:
            cands = _free_spots(s, _grid(1, s.width - 1, lo + 0.75, hi - 0.75, 1.5))
            if not cands:
                raise Refused(f"side {side} has no room left to deploy blip {n} [p.~15]")
            pick = yield RollRequest(f"side {side} places blip {n}", "p.~15", "draw",
                                     options=tuple(f"({x:g}, {y:g})" for x, y in cands))
            x, y = cands[int(pick)]
        # The counter's label is drawn from the owner's secret stream: nothing the opponent sees names its square
        # (A59); the square stays on the counter's reverse side, in the state.
        free = [label for label in BLIP_LABELS if blip_id(side, label) not in s.blips]
        label = free[int((yield RollRequest(f"side {side} labels a blip counter", "A59", "draw", options=tuple(free),
                                        secret=side)))]
        ident = blip_id(side, label)
        s.blips[ident] = BlipState(ident, side, x, y, n, 1.0, True)
    ctx.event("both sides deploy their 16 blips", "[p.~14, p.~15]")


def roll_initiative(ctx: Ctx) -> Rolling[None]:
    """Attack/Defence: the attacker takes the Initiative. Chance Encounter: roll off, ties rolled again (p.~15)."""
    s = ctx.state
    if s.mode == "attack-defence":
        s.initiative = s.attacking_side()
        ctx.event(f"side {s.attacker}, the attacker, takes the Initiative counter", "[p.~15]")
        return
    while True:
        a = yield d6("Initiative roll-off for side A", "p.~15", "high takes it")
        b = yield d6("Initiative roll-off for side B", "p.~15", "high takes it")
        if a != b:
            break
        ctx.note(f"both roll {a}: roll again [p.~15]")
    s.initiative = "A" if a > b else "B"
    ctx.event(f"Initiative roll-off: A {a}, B {b}: side {s.initiative} is the first player", "[p.~15]")


def setup_battle(ctx: Ctx, choices: SetupChoices, deck: Deck) -> Rolling[None]:
    s = ctx.state
    yield from roll_roles(ctx, choices)
    if s.mode == "chance-encounter":
        yield from roll_initiative(ctx)
    else:
        yield from place_objectives(ctx, choices)
    forces = yield from draw_cards(ctx, deck, choices)
    yield from fill_holding(ctx, forces, choices)
    yield from deploy_blips(ctx, choices)
    if s.mode == "attack-defence":
        yield from roll_initiative(ctx)
    seal_all(s, ctx)


def new_battle(table: Scenario, choices: SetupChoices, source: DiceSource,
               deck: Deck | None = None) -> tuple[GameState, list[Roll]]:
    """Runs the whole set-up; returns the state ready for round 1 and the rolls it used (for the record)."""
    from .engine import begin_battle

    deck = deck or playing_deck()
    state = blank_state(table)
    ctx = Ctx(state)
    rec = Recorder(source)
    gen = setup_battle(ctx, choices, deck)
    try:
        req = next(gen)
        while True:
            req = gen.send(rec.answer(req))
    except StopIteration:
        pass
    return begin_battle(ctx.state), rec.rolls
