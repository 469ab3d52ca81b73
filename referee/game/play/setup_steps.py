"""Set-up as the players' decisions (p.~14-15, A47, A55, A60): each step is an action, recorded like any other.

The state carries the set-up in progress (``GameState.setup``): the factions, the campaign streaks, the decisions
still to make in order (``queue``; the first is the one the battle waits for, and names the side that makes it) and,
secret to their owner, the cards drawn and the units they issue. The kinds, in the order they come:

* ``roll-roles``: both sides roll, streak bonus added (A47); high attacks, a tie is a Chance Encounter, whose
  Initiative roll-off follows at once (p.~15);
* ``choose-edge``: the defender (Chance Encounter: the second player) picks its table edge; ``turn: true`` takes the
  far edge, and the terrain is turned 180 degrees about the table's centre, so side A's edge stays at y = 0;
* ``place-objective``: the attacker places delta and epsilon, the defender alpha, beta and gamma (A55);
* ``draw-cards``: a side draws its mission, troop and drone cards (secret); at streak 2 an extra Troop card, at
  streak 3 also an extra Mission card (A47), and ``choose-cards`` then picks the ones to play;
* ``fill-holding``: the owner puts its issued units into the 16 squares, at most 2 a square (p.~10);
* ``place-blip`` (one counter: where, and which square it stands for) and ``place-blips`` (the rest of the side's
  counters in this turn of placing): the defender 16 in its half, the attacker 16 within 6" of its edge; a Chance
  Encounter alternately 4 at a time, first player first.

Every choice may be left out ("place for me"): the engine then draws it from the dice source, seeded and recorded.
After the last blip the attacker takes the Initiative with no roll (a Chance Encounter's roll-off winner keeps it),
both sides are sealed, and round 1 begins.
"""

from __future__ import annotations

import copy
import math
from bisect import bisect_left
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from ..battle.action_kinds import SETUP_KINDS as SETUP_KINDS, Kind
from ...rules.numbers import EPS
from ...rules.pieces import Circle, DealtCards, UnitContents
from ...rules.pieces import Terrain as TerrainEntry
from ..battle.intents import Action
from ..battle.cards import Deck, issue_force, playing_deck
from ..battle.commit import UNIT_KEYS, arrangement_problems, battle_id, drawn_groups, is_digest, square_overfull as square_overfull
from ..battle.kept_cards import cards_moment, draw_problems, issued_entries
from ..battle.dice import Rolling, RollRequest, Spots
from .effects import Ctx, Refused, d6
from .seal import seal_all
from ..battle.state_parts import Decision, Setup
from .turns import start_round_one
from ..battle.state import (BLIP_LABELS, SIDES, SQUARES, UNITS_PER_SQUARE, BlipState, Data, GameState, Holding,
                    ObjectiveState, as_side, blip_id, free_labels, labels_among, other)
from ...rules.errors import InputError

# Each step of the set-up queue, and the kind of action that makes it.
STEP_KIND = {"roles": Kind.ROLL_ROLES, "edge": Kind.CHOOSE_EDGE, "objective": Kind.PLACE_OBJECTIVE,
             "cards": Kind.DRAW_CARDS, "choose-cards": Kind.CHOOSE_CARDS, "holding": Kind.FILL_HOLDING,
             "blip": Kind.PLACE_BLIP}
STEP_TEXT = {"roles": "roll for attacker and defender", "edge": "pick its table edge", "objective": "place objective",
             "cards": "draw its cards", "choose-cards": "choose the cards it plays", "holding": "fill its holding area",
             "blip": "place a blip"}
OBJECTIVE_ORDER = ("delta", "epsilon", "alpha", "beta", "gamma")
BLIPS = 16
RULE = "p.~14-15, A60"

# The deck set-up draws from: the program's deck, or the one ``new_battle`` was given.
_deck_override: list[Deck] = []


def setup_deck() -> Deck:
    return _deck_override[-1] if _deck_override else playing_deck()


# ---- where set-up stands ----------------------------------------------------------------------------------------


def decision(s: GameState) -> Decision | None:
    """The decision the set-up waits for: ``{"step", "side", ...}``; ``None`` outside set-up."""
    if s.phase != "setup" or s.setup is None or not s.setup.queue:
        return None
    return s.setup.queue[0]


def deciding_side(s: GameState) -> str | None:
    d = decision(s)
    return d["side"] if d else None


def step(kind: str, side: str, objective: str | None = None) -> Decision:
    """One decision of the queue: every entry has the same keys, so a save read back compares equal."""
    return {"step": kind, "side": side, "objective": objective}


def blank_setup(factions: dict[str, str], streak: dict[str, int] | None = None) -> Setup:
    return Setup(dict(factions), {side: int((streak or {}).get(side, 0)) for side in SIDES}, [step("roles", "A")])


def _setup(s: GameState) -> Setup:
    if s.setup is None:
        raise Refused(f"set-up is over: the battle has begun [{RULE}]")
    return s.setup


# ---- the actions --------------------------------------------------------------------------------------------------


def check_setup_step(ctx: Ctx, action: Action) -> Decision:
    """That ``action`` is the decision set-up waits for, by the side that makes it (A60): that decision."""
    s = ctx.state
    if s.phase != "setup" or s.setup is None:
        raise Refused(f"{action.kind}: set-up is over, the battle has begun [{RULE}]")
    d = decision(s)
    if d is None:
        raise Refused(f"set-up has no decision left [{RULE}]")
    want = STEP_KIND[d["step"]]
    kind = action.kind
    if kind != want and not (kind == Kind.PLACE_BLIPS and want == Kind.PLACE_BLIP):
        raise Refused(f"set-up waits for side {d['side']} to {what_to_do(d)} ({want}), not {kind} [{RULE}]")
    if d["step"] != "roles" and action.actor != d["side"]:
        raise Refused(f"set-up waits for side {d['side']} to {what_to_do(d)}; side {action.actor or '?'} may not "
                      f"[{RULE}]")
    return d


def setup_action(ctx: Ctx, action: Action) -> Rolling[None]:
    """Check that ``action`` is the decision set-up waits for, by the side that makes it, and resolve it."""
    s = ctx.state
    d = check_setup_step(ctx, action)
    kind = action.kind
    if d["step"] == "roles":
        yield from roll_roles(ctx)
    elif d["step"] == "edge":
        yield from choose_edge(ctx, d["side"], action.args)
    elif d["step"] == "objective":
        yield from place_objective(ctx, d["side"], d["objective"] or "", action.args)
    elif d["step"] == "cards":
        yield from draw_cards(ctx, d["side"], action.args)
    elif d["step"] == "choose-cards":
        yield from choose_cards(ctx, d["side"], action.args)
    elif d["step"] == "holding":
        yield from fill_holding(ctx, d["side"], action.args)
    elif kind == Kind.PLACE_BLIPS:
        if action.args:
            raise Refused("place-blips takes no arguments: it places the rest of this turn's blips for you")
        side = d["side"]
        while True:
            yield from place_blip(ctx, side, {})
            nxt = decision(s)
            if nxt is None or nxt["step"] != "blip" or nxt["side"] != side:
                break
    else:
        yield from place_blip(ctx, d["side"], action.args)
    if s.setup is not None and not s.setup.queue:
        finish(ctx)


def what_to_do(d: Decision) -> str:
    text = STEP_TEXT[d["step"]]
    return f"{text} {d['objective']}" if d["step"] == "objective" else text


def _done(s: GameState) -> Decision:
    return _setup(s).queue.pop(0)


def roll_roles(ctx: Ctx) -> Rolling[None]:
    """High roll attacks, low defends, a tie is a Chance Encounter; a campaign streak adds its bonus (A47)."""
    s = ctx.state
    setup = _setup(s)
    rolls, said = {}, {}
    for side in SIDES:
        bonus = int(setup.streak.get(side, 0))
        face = yield d6(f"attacker/defender roll for side {side}", "p.~15, A47", "high attacks")
        rolls[side] = face + bonus
        # The log says the streak's bonus too, as the campaign screen announced it [p.31, A47].
        said[side] = f"{face} + {bonus} for its winning streak = {face + bonus}" if bonus else f"{face}"
        if bonus:
            ctx.note(f"side {side} rolls {said[side]} [p.31, A47]")
    _done(s)
    if rolls["A"] == rolls["B"]:
        s.mode, s.attacker = "chance-encounter", None
        streaks = any(int(setup.streak.get(side, 0)) for side in SIDES)
        ctx.event(f"{'A rolls ' + said['A'] + ', B rolls ' + said['B'] + ': both' if streaks else 'both sides roll'} "
                  f"{rolls['A']}: a Chance Encounter", "[p.~15, A47]" if streaks else "[p.~15]")
        yield from roll_initiative(ctx)
        first = s.initiative
        queue: list[Decision] = [step("edge", other(first))]
    else:
        s.mode = "attack-defence"
        s.attacker = "A" if rolls["A"] > rolls["B"] else "B"
        ctx.event(f"A rolls {said['A']}, B rolls {said['B']}: side {s.attacker} attacks, side {other(s.attacker)} "
                  f"defends", "[p.~15, A47]" if said != {side: str(rolls[side]) for side in SIDES} else "[p.~15]")
        attacker, defender = s.attacker, other(s.attacker)
        queue = [step("edge", defender)]
        queue += [step("objective", attacker if oid in ("delta", "epsilon") else defender, oid)
                  for oid in OBJECTIVE_ORDER]
    queue += [step("cards", side) for side in SIDES]
    queue += [step("holding", side) for side in SIDES]
    queue += [step("blip", side) for side in blip_order(s)]
    setup.queue = queue


def roll_initiative(ctx: Ctx) -> Rolling[None]:
    """A Chance Encounter's roll-off for the Initiative, ties rolled again (p.~15)."""
    s = ctx.state
    while True:
        a = yield d6("Initiative roll-off for side A", "p.~15", "high takes it")
        b = yield d6("Initiative roll-off for side B", "p.~15", "high takes it")
        if a != b:
            break
        ctx.note(f"both roll {a}: roll again [p.~15]")
    s.initiative = "A" if a > b else "B"
    ctx.event(f"Initiative roll-off: A {a}, B {b}: side {s.initiative} is the first player", "[p.~15]")


def blip_order(s: GameState) -> list[str]:
    """Whose blip goes down next: the defender's 16 then the attacker's; a Chance Encounter 4 at a time (p.~15)."""
    if s.mode == "chance-encounter":
        order: list[str] = []
        first = s.initiative
        for _ in range(BLIPS // 4):
            for side in (first, other(first)):
                order.extend([side] * 4)
        return order
    return [other(s.attacking_side())] * BLIPS + [s.attacking_side()] * BLIPS


def _rotated(t: TerrainEntry, w: float, h: float) -> TerrainEntry:
    if t.polygon is not None:
        return t.model_copy(update={"polygon": [[w - x, h - y] for x, y in t.polygon]})
    if t.circle is not None:
        return t.model_copy(update={"circle": Circle(x=w - t.circle.x, y=h - t.circle.y, r=t.circle.r)})
    return t


def choose_edge(ctx: Ctx, side: str, args: Data) -> Rolling[None]:
    """The defender picks its edge (Chance Encounter: the second player). Taking the far edge turns the terrain about
    the table's centre, so side A's edge stays at y = 0 and every zone keeps its place (p.~15)."""
    s = ctx.state
    _check_args(Kind.CHOOSE_EDGE, args, ("turn",))
    if "turn" in args:
        turn = args["turn"]
        if not isinstance(turn, bool):
            raise Refused(f"choose-edge: turn is true (take the far edge) or false (got {turn!r})")
    else:
        turn = bool(int((yield RollRequest(f"side {side} picks its table edge", "p.~15", "draw",
                                           options=("this edge", "the far edge")))))
    _done(s)
    if turn:
        s.terrain = [_rotated(t, s.width, s.height) for t in s.terrain]
        ctx.event(f"side {side} takes the far table edge: the terrain is turned round about the table's centre",
                  "[p.~15]")
    else:
        ctx.event(f"side {side} keeps its table edge", "[p.~15]")


# ---- objectives ----------------------------------------------------------------------------------------------------


def objective_zone(s: GameState, oid: str) -> tuple[float, float]:
    """Delta and epsilon in the defender's 25 %, alpha-gamma in the defender's half (p.~15, A55)."""
    defender = other(s.attacking_side())
    depth = s.height / 4 if oid in ("delta", "epsilon") else s.height / 2
    return (0.0, depth) if defender == "A" else (s.height - depth, s.height)


EDGE_MARGIN = 6.0
OBJECTIVE_GAP = 8.0


def _keeps_apart(oid: str, other_id: str) -> bool:
    """Delta and epsilon keep 8" from each other only; alpha to gamma from every objective (A55)."""
    return oid not in ("delta", "epsilon") or other_id in ("delta", "epsilon")


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
        if o.id == oid or not _keeps_apart(oid, o.id):
            continue
        d = math.hypot(o.x - x, o.y - y) - o.base / 2 - r
        if d < gap - EPS:
            problems.append(f"{oid} is {max(d, 0):.2f}\" from {o.id}; at least {gap:g}\" [p.~15, A55]")
    bf = s.battlefield()
    if any(f.column(False).impassable and f.holds(x, y) for f in bf.terrain):
        problems.append(f"{oid} would stand in impassable terrain [p.24]")
    return problems


def objective_free(s: GameState, oid: str) -> Data:
    """Where ``oid`` may stand, as legal actions list it: the zone inside the 6\" margin, the discs of the
    objectives it must keep 8\" from, and the impassable terrain (A55)."""
    lo, hi = objective_zone(s, oid)
    margin = EDGE_MARGIN * s.scale + 0.5
    gap = OBJECTIVE_GAP * s.scale
    apart = {o.id: {"centre": [o.x, o.y], "radius": gap + o.base / 2 + 0.5}
             for o in s.objectives.values() if _keeps_apart(oid, o.id)}
    impassable = [f.id for f in s.battlefield().terrain if f.column(False).impassable]
    return {"x": [margin, s.width - margin], "y": [max(lo, margin), min(hi, s.height - margin)], "apart": apart,
            "not_in": impassable}


@lru_cache(maxsize=256)
def _grid(lo_x: float, hi_x: float, lo_y: float, hi_y: float, step: float) -> tuple[tuple[float, float], ...]:
    """The points from (lo_x, lo_y) to (hi_x, hi_y) ``step`` apart, row by row (y, then x ascending), rounded to
    thousandths. Kept: each blip placed and each objective's zone asks again for the same few grids."""
    out = []
    y = lo_y
    while y <= hi_y + EPS:
        x = lo_x
        while x <= hi_x + EPS:
            out.append((round(x, 3), round(y, 3)))
            x += step
        y += step
    return tuple(out)


class _Zone(NamedTuple):
    """An objective's zone as grid points in rows (y, then x ascending, as ``_grid`` lists them), with each point's
    x and the index just past its row: the search for an open point jumps along a row past a closed stretch."""

    points: list[tuple[float, float]]
    xs: list[float]
    row_end: list[int]


def _zone(points: list[tuple[float, float]]) -> _Zone:
    row_end = [len(points)] * len(points)
    for i in range(len(points) - 2, -1, -1):
        row_end[i] = i + 1 if points[i + 1][1] != points[i][1] else row_end[i + 1]
    return _Zone(points, [x for x, _ in points], row_end)


def _zones(s: GameState, oids: Any, impassable: list[Any]) -> dict[str, _Zone]:
    """The grid points of each objective's zone (A55: inside the 6\" margin, outside impassable terrain), worked out
    once per placing: the search for a legal spot asks for them again for every candidate spot."""
    out = {}
    margin = EDGE_MARGIN * s.scale + 0.5
    for oid in oids:
        lo, hi = objective_zone(s, oid)
        grid = _grid(margin, s.width - margin, max(lo, margin), min(hi, s.height - margin), 1.0)
        out[oid] = _zone([p for p, clear in zip(grid, _clear_of(impassable, grid)) if clear])
    return out


# Which points of a grid stand in no impassable terrain, by grid and terrain: the terrain stands still through
# set-up, and every blip placed and every objective's zone asks again for the same few grids (``_clear_of``).
_CLEAR: dict[tuple[Any, ...], tuple[tuple[Any, ...], list[bool]]] = {}
CLEAR_KEPT = 64


def _clear_of(impassable: list[Any], grid: tuple[tuple[float, float], ...]) -> list[bool]:
    """For each point of ``grid`` (a ``_grid``), whether it stands in none of the ``impassable`` terrain pieces."""
    key = (grid, tuple(map(id, impassable)))
    held = _CLEAR.get(key)
    if held is not None:
        return held[1]
    rows: dict[float, list[Any]] = {}
    clear = []
    for x, y in grid:
        features = rows.get(y)
        if features is None:
            # Only terrain whose box reaches the row can hold a point of it (``_row_features``).
            features = rows[y] = _row_features(impassable, y)
        clear.append(not any(f.holds(x, y) for f in features))
    if len(_CLEAR) >= CLEAR_KEPT:
        try:
            _CLEAR.pop(next(iter(_CLEAR)), None)
        except (RuntimeError, StopIteration):    # another thread changed it meanwhile (the computer's thinking)
            pass
    # The pieces are kept with it: the key names them by identity, which stays theirs while they live.
    _CLEAR[key] = (tuple(impassable), clear)
    return clear


def _row_features(features: list[Any], y: float) -> list[Any]:
    """The terrain pieces whose box reaches the line at ``y``: no other holds a point of it (``Feature.holds``
    looks no further than its box, ``Feature.near``)."""
    return [f for f in features if y <= f.box[3] + EPS and f.box[1] <= y + EPS]


SURE = 1e-6     # a point this much nearer than the gap is closed whatever the rounding of its distance


def _first_open(oid: str, placed: dict[str, tuple[float, float]], zone: _Zone, limit: float,
                start: int = 0) -> int | None:
    """The index of the first point of ``zone`` from ``start`` where objective ``oid`` may stand, given the ones
    already placed (A55: nearer than ``limit`` to one it keeps apart from is closed), or None.

    A point surely inside an objective's circle (by its squared distance, ``SURE`` inside) closes the stretch of its
    row up to where the circle ends as surely: the search goes on past it. A point near the circle's edge is judged
    by its distance, as ``_spots`` judges it."""
    near = [(px, py) for o, (px, py) in placed.items() if _keeps_apart(oid, o)]
    inside, outside = (limit - SURE) ** 2, (limit + SURE) ** 2
    points, xs, row_end = zone
    hypot, sqrt = math.hypot, math.sqrt
    i, n = start, len(points)
    while i < n:
        x, y = points[i]
        for px, py in near:
            dx, dy = px - x, py - y
            d2 = dx * dx + dy * dy
            if d2 < inside:
                i = max(i + 1, bisect_left(xs, px + sqrt(inside - dy * dy), i + 1, row_end[i]))
                break
            if d2 < outside and hypot(dx, dy) < limit:
                i += 1
                break
        else:
            return i
    return None


def _spots(s: GameState, oid: str, placed: dict[str, tuple[float, float]],
           zones: dict[str, _Zone]) -> list[tuple[float, float]]:
    """Grid points where objective ``oid`` may stand, given the ones already placed (A55), without building geometry."""
    near = [(px, py) for o, (px, py) in placed.items() if _keeps_apart(oid, o)]
    limit = OBJECTIVE_GAP * s.scale + 1.0 - EPS
    return [(x, y) for x, y in zones[oid].points if not any(math.hypot(px - x, py - y) < limit for px, py in near)]


def _completes(s: GameState, placed: dict[str, tuple[float, float]], zones: dict[str, _Zone]) -> bool:
    """Can the remaining objectives still be placed (greedily: each on the first open point of its zone) after
    ``placed``?"""
    trial = dict(placed)
    limit = OBJECTIVE_GAP * s.scale + 1.0 - EPS
    for oid in OBJECTIVE_ORDER:
        if oid in trial:
            continue
        first = _first_open(oid, trial, zones[oid], limit)
        if first is None:
            return False
        trial[oid] = zones[oid].points[first]
    return True


def _candidates(s: GameState, oid: str, placed: dict[str, tuple[float, float]],
                zones: dict[str, _Zone]) -> list[tuple[float, float]]:
    """The open points of ``oid``'s zone that leave the rest room to be placed greedily (``_completes`` of each).

    The greedy placing of the rest is worked out once with ``oid`` left out: a candidate point changes it only where
    it stands too near a point that placing chose, and then only from that point on (the points before it were
    closed already). A set-up left to the program asks this for every point of the zone, on every replay."""
    limit = OBJECTIVE_GAP * s.scale + 1.0 - EPS
    rest = [o for o in OBJECTIVE_ORDER if o not in placed and o != oid]
    chain: list[int | None] = []
    trial = dict(placed)
    for o in rest:
        i = _first_open(o, trial, zones[o], limit)
        chain.append(i)
        if i is None:
            break
        trial[o] = zones[o].points[i]
    out = []
    for cx, cy in _spots(s, oid, placed, zones):
        trial = {**placed, oid: (cx, cy)}
        same = True
        for k, o in enumerate(rest):
            zone, start = zones[o].points, 0
            if same:
                i = chain[k]
                if i is None:
                    break
                px, py = zone[i]
                if not (_keeps_apart(o, oid) and math.hypot(cx - px, cy - py) < limit):
                    trial[o] = zone[i]
                    continue
                same, start = False, i + 1
            j = _first_open(o, trial, zones[o], limit, start)
            if j is None:
                break
            trial[o] = zone[j]
        else:
            out.append((cx, cy))
    return out


ROOM_SEARCH = 4000      # placements tried before a spot is given the benefit of the doubt (it is rarely needed)


def _leaves_room(s: GameState, placed: dict[str, tuple[float, float]], impassable: list[Any]) -> bool:
    """Can every objective still to place find a legal spot after ``placed`` (A55)? The greedy check first; where
    it finds none, every way of placing them on the 1" grid is tried, up to ``ROOM_SEARCH`` placements: the greedy
    check alone would refuse a spot that leaves room for a cleverer placing of the rest."""
    left = [oid for oid in OBJECTIVE_ORDER if oid not in placed]
    zone = _zones(s, left, impassable)
    if _completes(s, placed, zone):
        return True
    gap = OBJECTIVE_GAP * s.scale + 1.0
    tried = [0]

    def place(i: int, trial: dict[str, tuple[float, float]]) -> bool:
        if i == len(left):
            return True
        oid = left[i]
        near = [p for o, p in trial.items() if _keeps_apart(oid, o)]
        for x, y in zone[oid].points:
            if any(math.hypot(px - x, py - y) < gap - EPS for px, py in near):
                continue
            tried[0] += 1
            if tried[0] > ROOM_SEARCH or place(i + 1, {**trial, oid: (x, y)}):
                return True
        return False

    return place(0, dict(placed))


def _point(kind: str, args: Data) -> tuple[float, float] | None:
    has_x, has_y = "x" in args, "y" in args
    if has_x != has_y:
        raise Refused(f"{kind}: give both x and y, or neither (place it for me)")
    if not has_x:
        return None
    x, y = args["x"], args["y"]
    for name, v in (("x", x), ("y", y)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise Refused(f"{kind}: {name} must be a number of inches (got {v!r})")
    return float(x), float(y)


def _check_args(kind: str, args: Data, allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(args) - set(allowed))
    if unknown:
        raise Refused(f"{kind}: unknown argument {', '.join(unknown)} (expected {', '.join(allowed) or 'none'})")


def place_objective(ctx: Ctx, side: str, oid: str, args: Data) -> Rolling[None]:
    s = ctx.state
    _check_args(Kind.PLACE_OBJECTIVE, args, ("objective", "x", "y"))
    if args.get("objective", oid) != oid:
        raise Refused(f"side {side} places {oid} now, not {args.get('objective')!r} (order: "
                      f"{', '.join(OBJECTIVE_ORDER)}) [p.~15, A55]")
    ctx.figures["zone"] = objective_free(s, oid)
    point = _point(Kind.PLACE_OBJECTIVE, args)
    if point is not None:
        x, y = point
        problems = objective_problems(s, oid, x, y)
        if problems:
            raise Refused("; ".join(problems))
        impassable = [f for f in s.battlefield().terrain if f.column(False).impassable]
        placed = {o.id: (o.x, o.y) for o in s.objectives.values()}
        if not _leaves_room(s, {**placed, oid: (x, y)}, impassable):
            # The set-up could not go on: the objectives still to place would have no legal spot (p.~15, A55).
            rest = ", ".join(o for o in OBJECTIVE_ORDER if o not in placed and o != oid)
            raise Refused(f"{oid} at ({x:g}, {y:g}) would leave no legal place for {rest}: every objective must "
                          f"stand in its zone, 6\" from the table edges and 8\" from the others [p.~15, A55]")
    else:
        impassable = [f for f in s.battlefield().terrain if f.column(False).impassable]
        placed = {o.id: (o.x, o.y) for o in s.objectives.values()}
        zones = _zones(s, [o for o in OBJECTIVE_ORDER if o not in placed], impassable)
        cands = _candidates(s, oid, placed, zones)
        if not cands:
            raise Refused(f"there is no legal place left for objective {oid} [p.~15, A55]")
        pick = yield RollRequest(f"place objective {oid} (side {side})", "p.~15, A55", "draw",
                                 options=Spots(cands))
        x, y = cands[int(pick)]
    _done(s)
    s.objectives[oid] = ObjectiveState(oid, x, y)
    ctx.event(f"side {side} places objective {oid} at ({x:g}, {y:g})", "[p.~15, A55]", units=[oid])


# ---- cards ---------------------------------------------------------------------------------------------------------


def _mission_kind(s: GameState, side: str) -> str:
    if s.mode == "chance-encounter":
        return "chance-encounter"
    return "offence" if side == s.attacker else "defence"


def draw_cards(ctx: Ctx, side: str, args: Data) -> Rolling[None]:
    """A mission, a troop card and a drone card, secret to the owner; the mission names the troop line (p.~9, A42).
    At streak 2 an extra Troop card, at streak 3 also an extra Mission card: the side then chooses (A47)."""
    s = ctx.state
    setup = _setup(s)
    if "committed" in args or "draw" in args:
        draw_kept(ctx, side, args)
        return
    _check_args(Kind.DRAW_CARDS, args, ("purchase",))
    deck = setup_deck()
    kind = _mission_kind(s, side)
    missions, troops, drones = deck.missions(kind), deck.troop_cards, deck.drone_cards
    m = missions[int((yield RollRequest(f"side {side} draws a {kind} mission card", "p.~9, A42", "draw",
                                        options=tuple(c.id for c in missions), secret=side)))]
    t = troops[int((yield RollRequest(f"side {side} draws a troop card", "p.~9, A42", "draw",
                                      options=tuple(c.id for c in troops), secret=side)))]
    d = drones[int((yield RollRequest(f"side {side} draws a drone card", "p.~9, A42", "draw",
                                      options=tuple(c.id for c in drones), secret=side)))]
    streak = int(setup.streak.get(side, 0))
    mission_ids, troop_ids = [m.id], [t.id]
    if streak >= 2:
        rest = tuple(c.id for c in troops if c.id != t.id)
        if rest:
            troop_ids.append(rest[int((yield RollRequest(f"side {side} draws an extra troop card", "p.31, A47",
                                                         "draw", options=rest, secret=side)))])
    if streak >= 3:
        rest = tuple(c.id for c in missions if c.id != m.id)
        if rest:
            mission_ids.append(rest[int((yield RollRequest(f"side {side} draws an extra mission card", "p.31, A47",
                                                           "draw", options=rest, secret=side)))])
    _done(s)
    if len(mission_ids) == 1 and len(troop_ids) == 1:
        _issue(ctx, side, m.id, t.id, d.id, args.get("purchase"))
        return
    if "purchase" in args:
        raise Refused("draw-cards: with a choice of cards to make, the drone purchase goes with choose-cards [A47]")
    setup.offered[side] = {"mission": mission_ids, "troop": troop_ids, "drone": d.id}
    setup.queue.insert(0, step("choose-cards", side))
    titles = "; ".join([f"mission {deck.mission(i).title!r} (troop line {deck.mission(i).troop_line})" for i in mission_ids]
                       + [f"troop card {deck.troop(i).title!r}" for i in troop_ids] + [f"drone card {d.title!r}"])
    ctx.event(f"side {side} draws its cards and, for its winning streak of {streak}, "
              f"{'an extra Troop and Mission card' if streak >= 3 else 'an extra Troop card'} (secret)", "[p.31, A47]",
              private={side: f"{titles}; choose the cards you play"})


def kept_draw(s: GameState, side: str, parts: list[str]) -> Data:
    """The public part of ``side``'s card draw made on its own computer (``kept_cards.py``): the moment, the host's
    ``parts`` (``SeededDice.host_parts`` of that moment), the side's streak and the cards drawn from, in the order
    ``draw_cards`` draws them."""
    deck = setup_deck()
    kind = _mission_kind(s, side)
    return {"moment": cards_moment(side), "parts": list(parts), "streak": int(_setup(s).streak.get(side, 0)),
            "kind": kind, "missions": [c.id for c in deck.missions(kind)], "troops": [c.id for c in deck.troop_cards],
            "drones": [c.id for c in deck.drone_cards]}


def draw_kept(ctx: Ctx, side: str, args: Data) -> None:
    """A side that keeps its secrets on its own computer drew its cards there, from the host's parts (``draw``) and
    its own shares, made its streak's choice and its purchase there, and sends only the commitment to them: the host
    holds no mission, card or issued unit of that side until it opens them at the end (``kept_cards.py``)."""
    s = ctx.state
    _check_args(Kind.DRAW_CARDS, args, ("committed", "draw"))
    if not battle_id(s.dice_commitments) or side not in s.dice_commitments:
        raise Refused(f"side {side}'s cards: a battle whose dice are not keyed by its own contribution draws its cards "
                      f"here [p.~9]")
    committed, draw = args.get("committed"), args.get("draw")
    if not is_digest(committed):
        raise Refused(f"side {side}'s cards: committed is the SHA-256 (64 hex digits) of the cards drawn on its own "
                      f"computer [p.~9]")
    problems = draw_problems(draw)
    if problems:
        raise Refused(f"side {side}'s cards: " + "; ".join(problems))
    assert isinstance(draw, dict)
    if draw["moment"] != cards_moment(side) or draw["kind"] != _mission_kind(s, side) or draw["streak"] != int(
            _setup(s).streak.get(side, 0)):
        raise Refused(f"side {side}'s cards: the draw names another moment, kind of mission or streak than this "
                      f"battle's [p.~9]")
    _done(s)
    s.card_commitments[side] = {"committed": str(committed), "draw": copy.deepcopy(draw),
                                "faction": _setup(s).factions[side], "opened": [], "checked": False}
    ctx.event(f"side {side} draws its cards on its own computer (secret, kept there)", "[p.~9, A42]",
              private={side: "its computer keeps its mission, troop and drone cards; the host holds the commitment"})


def choose_cards(ctx: Ctx, side: str, args: Data) -> Rolling[None]:
    """The streak's choice (A47): which mission and troop card to play; the others go back unseen."""
    s = ctx.state
    setup = _setup(s)
    _check_args(Kind.CHOOSE_CARDS, args, ("mission", "troop", "purchase"))
    offered = setup.offered.get(side)
    if not offered:
        raise Refused(f"side {side} has no cards to choose from [p.31, A47]")
    for what in ("mission", "troop"):
        if what in args and args[what] not in offered[what]:
            raise Refused(f"choose-cards: {what} must be one of the cards drawn ({', '.join(offered[what])}) "
                          f"[p.31, A47]")
    chosen = {}
    for what in ("mission", "troop"):
        ids = list(offered[what])
        if what in args:
            chosen[what] = args[what]
        elif len(ids) == 1:
            chosen[what] = ids[0]
        else:
            chosen[what] = ids[int((yield RollRequest(f"side {side} chooses its {what} card", "p.31, A47", "draw",
                                                      options=tuple(ids), secret=side)))]
    _done(s)
    del setup.offered[side]
    _issue(ctx, side, chosen["mission"], chosen["troop"], offered["drone"], args.get("purchase"))


def _issue(ctx: Ctx, side: str, mission_id: str, troop_id: str, drone_id: str, purchase: object) -> None:
    s = ctx.state
    setup = _setup(s)
    deck = setup_deck()
    m, t, d = deck.mission(mission_id), deck.troop(troop_id), deck.drone(drone_id)
    if purchase is not None and s.mode != "chance-encounter":
        raise Refused("drones are bought only in a Chance Encounter [p.~15, A42]")
    if purchase is not None and not isinstance(purchase, dict):
        raise Refused(f"purchase: expected {{drone type: number}} (got {purchase!r})")

    try:
        force = issue_force(t, m.troop_line, d, deck.prices, purchase)
    except InputError as e:
        raise Refused("; ".join(e.problems)) from None
    s.missions[side] = m.id
    s.cards[side] = DealtCards(troop=t.id, line=m.troop_line, drone=d.id, drone_line=force.drone_line)
    setup.issued[side] = issued_entries(side, force)
    ctx.event(f"side {side} draws its cards (secret)", "[p.~9]",
              private={side: f"mission {m.title!r} (troop line {m.troop_line}); troop card {t.title!r}; "
                             f"drone card {d.title!r} line {force.drone_line}"})


def issued_units(s: GameState, side: str) -> list[UnitContents]:
    """The units ``side``'s cards issued, still to go into its holding area."""
    setup = _setup(s)
    faction = setup.factions[side]
    return [UnitContents(id=u["id"], side=as_side(side), faction=faction, rating=u["rating"], type=u["type"])
            for u in setup.issued.get(side, [])]


# ---- the holding area -------------------------------------------------------------------------------------------


def holding_problems(s: GameState, side: str, squares: object) -> list[str]:
    """Why an arrangement of ``side``'s issued units is not allowed (``commit.arrangement_problems``, the rule the
    joining computer of a side kept on its own computer checks too)."""
    return arrangement_problems(side, [u.id for u in issued_units(s, side)], squares)


def fill_holding(ctx: Ctx, side: str, args: Data) -> Rolling[None]:
    """16 squares, at most 2 units each; squares left empty become decoys (p.~10)."""
    s = ctx.state
    _check_args(Kind.FILL_HOLDING, args, ("squares", "committed", "blips_committed"))
    if "committed" in args:
        if "squares" in args:
            raise Refused(f"side {side}'s holding area: squares or their commitments, not both [p.~10]")
        fill_committed(ctx, side, args["committed"], args.get("blips_committed"))
        return
    if "blips_committed" in args:
        raise Refused(f"side {side}'s holding area: its blips' squares are committed with its squares' commitments "
                      f"(committed), never alone [A59]")
    units = issued_units(s, side)
    by_id = {u.id: u for u in units}
    holding: dict[int, list[UnitContents] | None] = {n: [] for n in range(1, SQUARES + 1)}
    if "squares" in args:
        problems = holding_problems(s, side, args["squares"])
        if problems:
            raise Refused(f"side {side}'s holding area: " + "; ".join(problems))
        for key, ids in args["squares"].items():
            holding[int(key)] = [by_id[u] for u in ids]
    else:
        # One unit per square while there is room, pairs beyond 16; the squares are drawn from the owner's secret
        # stream, so that nothing about a square's number says what it holds.
        try:
            groups = drawn_groups(units)
        except ValueError as e:
            raise Refused(f"side {side}: {e}") from None
        free = list(range(1, SQUARES + 1))
        for g in groups:
            pick = yield RollRequest(f"side {side} chooses a holding square", "p.~10", "draw",
                                     options=tuple(str(n) for n in free), secret=side)
            holding[free.pop(int(pick))] = g
    _done(s)
    _setup(s).issued.pop(side, None)
    s.holding[side] = Holding(holding)
    filled = sum(1 for v in holding.values() if v)
    # How many squares hold units is secret (A59): the opponent learns only that the area was filled.
    ctx.event(f"side {side} fills its holding area (secret)", "[p.~10, A59]",
              private={side: f"{filled} squares hold units, {SQUARES - filled} are decoys: "
                             + "; ".join(f"{n}: {', '.join(u.id for u in v or []) or 'decoy'}" for n, v in holding.items())})


def fill_committed(ctx: Ctx, side: str, committed: object, blips: object = None) -> None:
    """The owner filled its holding area on its own computer and sent one commitment a square (``commit.py``): the
    battle holds the commitments, and every square stays unknown until its owner opens it (p.~10, A59). ``blips``
    (slot "1".."16" -> SHA-256): the square each counter it places stands for, in the order it places them,
    committed there too; without them (a battle saved before they were sent) the host draws the counters' squares."""
    s = ctx.state
    if not battle_id(s.dice_commitments):
        raise Refused(f"side {side}'s holding area: a battle whose dice are not keyed by the sides' contributions has "
                      f"no id to commit to; its holding area is filled here [p.~10]")
    want = [str(n) for n in range(1, SQUARES + 1)]
    if not isinstance(committed, dict) or sorted(committed, key=str) != sorted(want) or not all(
            is_digest(v) for v in committed.values()):
        raise Refused(f"committed: expected one SHA-256 (64 hex digits) for each square 1 to {SQUARES} [p.~10]")
    if blips is not None and (not isinstance(blips, dict) or sorted(blips, key=str) != sorted(want) or not all(
            is_digest(v) for v in blips.values()) or len(set(blips.values())) != SQUARES):
        raise Refused(f"blips_committed: expected a different SHA-256 (64 hex digits) for each blip counter 1 to "
                      f"{SQUARES}, in the order they are placed [A59]")
    _done(s)
    s.issued_kept[side] = [u.model_dump(mode="json", include=set(UNIT_KEYS)) for u in issued_units(s, side)]
    _setup(s).issued.pop(side, None)
    s.holding[side] = Holding({n: None for n in range(1, SQUARES + 1)})
    s.square_commitments[side] = {n: str(committed[n]) for n in want}
    if blips is not None:
        assert isinstance(blips, dict)
        s.blip_commitments[side] = {n: str(blips[n]) for n in want}
    ctx.event(f"side {side} fills its holding area (secret, kept on its own computer)", "[p.~10, A59]",
              private={side: "each square is committed; its owner's computer keeps what it holds"})


# ---- blips ---------------------------------------------------------------------------------------------------------


DEPLOY_DEPTH = 6.0


def deployment_zone(s: GameState, side: str) -> tuple[float, float]:
    """The band of y a side's blips deploy in: within 6\" of its edge, or the defender's whole half (p.~15)."""
    depth = DEPLOY_DEPTH * s.scale
    defender = s.mode == "attack-defence" and s.attacker is not None and side != s.attacker
    if side == "A":
        return (0.0, s.height / 2) if defender else (0.0, depth)
    return (s.height / 2, s.height) if defender else (s.height - depth, s.height)


def unused_squares(s: GameState, side: str) -> list[int]:
    taken = {b.square for b in s.blips.values() if b.side == side}
    return [n for n in range(1, SQUARES + 1) if n not in taken]


def blip_problems(s: GameState, side: str, x: float, y: float, r: float = 0.5) -> list[str]:
    """Why a blip of ``side`` may not stand at (x, y): its zone (with the distance that fails), the table, the
    other bases, impassable terrain (p.~15)."""
    problems = []
    lo, hi = deployment_zone(s, side)
    defender = s.mode == "attack-defence" and side != s.attacker
    edge_y = 0.0 if side == "A" else s.height
    if defender:
        if not (lo - EPS <= y <= hi + EPS):
            problems.append(f"side {side}, the defender, deploys anywhere in its half (y from {lo:g} to {hi:g}); "
                            f"({x:g}, {y:g}) is {abs(y - s.height / 2):.2f}\" beyond the centre line [p.~15]")
    else:
        # measured like range, from the base's closest point (A61): the centre may stand up to 6" + r from the edge
        depth = DEPLOY_DEPTH * s.scale
        far = abs(y - edge_y) - r
        if far > depth + EPS:
            problems.append(f"side {side}'s blips deploy within {depth:g}\" of its edge (y = {edge_y:g}); the base "
                            f"at ({x:g}, {y:g}) is {far:.2f}\" from it at its closest point [p.~15, A61]")
    bf = s.battlefield()
    if not bf.on_table(x, y, r):
        problems.append(f"({x:g}, {y:g}): the blip's base must stand wholly on the table")
    for p in bf.pieces.values():
        gap = math.hypot(p.x - x, p.y - y) - p.radius - r
        if gap < -EPS:
            problems.append(f"({x:g}, {y:g}) overlaps {p.id} by {-gap:.2f}\"")
    for f in bf.terrain:
        if f.column(False).impassable and f.holds(x, y):
            problems.append(f"({x:g}, {y:g}) is in impassable terrain ({f.id}) [p.24]")
    return problems


def blip_free(s: GameState, side: str) -> Data:
    lo, hi = deployment_zone(s, side)
    if not (s.mode == "attack-defence" and side != s.attacker):
        # within 6" of the edge at the base's closest point (A61): centres up to 6" + the radius away
        lo, hi = (lo, hi + 0.5) if side == "A" else (lo - 0.5, hi)
    impassable = [f.id for f in s.battlefield().terrain if f.column(False).impassable]
    return {"x": [0.5, s.width - 0.5], "y": [max(lo, 0.5), min(hi, s.height - 0.5)], "not_in": impassable,
            "not_on": "another base"}


def _free_spots(s: GameState, spots: tuple[tuple[float, float], ...], r: float = 0.5) -> list[tuple[float, float]]:
    """The points of ``spots`` (a ``_grid``, in its order) where a base of radius ``r`` stands on the table, on no
    base and in no impassable terrain.

    Every spot is measured against every base at once (a side places 16 blips, each over the whole grid). A base
    surely overlaps a spot (its squared distance ``SURE`` inside the reach) or surely does not (``SURE`` outside);
    only a spot near a base's edge is judged by its distance, as a single spot is."""
    bf = s.battlefield()
    if not spots:
        return []
    xs, ys = np.array(spots, dtype=float).T
    # On the table (``Battlefield.on_table``, for every spot at once), and in no impassable terrain.
    fits = (-EPS <= xs - r) & (xs + r <= bf.width + EPS) & (-EPS <= ys - r) & (ys + r <= bf.height + EPS)
    fits &= np.array(_clear_of([f for f in bf.terrain if f.column(False).impassable], spots), dtype=bool)
    pieces = [(p.x, p.y, p.radius + r - EPS) for p in bf.pieces.values()]
    if pieces:
        px, py, reach = np.array(pieces, dtype=float).T
        d2 = (px - xs[:, None]) ** 2 + (py - ys[:, None]) ** 2
        fits &= ~(d2 < (reach - SURE) ** 2).any(axis=1)
        hypot = math.hypot
        for i in np.flatnonzero(fits & (d2 < (reach + SURE) ** 2).any(axis=1)).tolist():
            x, y = spots[i]
            if any(hypot(px_ - x, py_ - y) < reach_ for px_, py_, reach_ in pieces):
                fits[i] = False
    return [spots[i] for i in np.flatnonzero(fits).tolist()]


def place_blip(ctx: Ctx, side: str, args: Data) -> Rolling[None]:
    """One blip counter: where it stands and which square it stands for (secret), or either drawn for the owner."""
    s = ctx.state
    _check_args(Kind.PLACE_BLIP, args, ("x", "y", "square", "slot"))
    ctx.figures["zone"] = blip_free(s, side)
    unused = unused_squares(s, side)
    slots = [k for k in s.blip_commitments.get(side, {}) if k.isdigit()]
    if slots and "square" in args:
        raise Refused(f"square: side {side} committed to its counters' squares on its own computer; the host is told "
                      f"none until a reveal (its computer names the commitment: slot) [A59]")
    slot = min(slots, key=int) if slots else None
    if "slot" in args:
        if not slots or isinstance(args["slot"], bool) or str(args["slot"]) not in slots:
            raise Refused(f"slot: one of the commitments side {side} sent for its counters' squares and has not "
                          f"placed yet ({', '.join(sorted(slots, key=int)) or 'none'}) (got {args['slot']!r}) [A59]")
        slot = str(args["slot"])
    if "square" in args:
        square = args["square"]
        if isinstance(square, bool) or not isinstance(square, int) or square not in unused:
            raise Refused(f"square: a square of side {side}'s holding area no blip stands for yet "
                          f"({', '.join(map(str, unused))}) (got {square!r}) [p.~10, A59]")
    else:
        square = None
    point = _point(Kind.PLACE_BLIP, args)
    lo, hi = deployment_zone(s, side)
    if point is not None:
        x, y = point
        problems = blip_problems(s, side, x, y)
        if problems:
            raise Refused("; ".join(problems))
    else:
        cands = _free_spots(s, _grid(1, s.width - 1, lo + 0.75, hi - 0.75, 1.5))
        if not cands:
            raise Refused(f"side {side} has no room left to deploy a blip [p.~15]")
        pick = yield RollRequest(f"side {side} places a blip", "p.~15", "draw",
                                 options=Spots(cands))
        x, y = cands[int(pick)]
    if square is None and slots:
        # Kept on the owner's computer: the counter takes the next committed square unseen, and a stand-in square
        # here (the lowest free one, drawn from nothing) until its owner opens it.
        square = unused[0]
    elif square is None:
        square = unused[int((yield RollRequest(f"side {side} chooses the square of a blip", "A59", "draw",
                                               options=tuple(map(str, unused)), secret=side)))]
    # The counter's label is drawn from the owner's secret stream: nothing the opponent sees names its square
    # (A59); the square stays on the counter's reverse side, in the state.
    if s.labels_apart:
        free = free_labels(s, side)
    else:
        on_table = labels_among(s.blips, side)
        free = [label for label in BLIP_LABELS if label not in on_table]
    label = free[int((yield RollRequest(f"side {side} labels a blip counter", "A59", "draw", options=tuple(free),
                                        secret=side)))]
    ident = blip_id(side, label)
    _done(s)
    s.blips[ident] = BlipState(ident, side, x, y, square, 1.0, True)
    if slot is not None:
        kept = s.blip_commitments[side]
        kept[ident] = kept.pop(slot)
    # The table shows where the counter went, and its owner's view what it stands for; the log says no more, not
    # even which counter it was in the order of placing (A59).
    ctx.event(f"side {side} places a blip", "[p.~15]")


# ---- the end of set-up ------------------------------------------------------------------------------------------


def finish(ctx: Ctx) -> None:
    """The attacker takes the Initiative with no roll (a Chance Encounter's roll-off already gave it), both sides
    are sealed, and round 1 begins (p.~15, p.16)."""

    s = ctx.state
    if s.mode == "attack-defence":
        s.initiative = s.attacking_side()
        ctx.event(f"side {s.attacker}, the attacker, takes the Initiative counter (no roll)", "[p.~15]")
    seal_all(s, ctx, dict(s.salts) if all(side in s.salts for side in SIDES) else None)
    s.setup = None
    start_round_one(ctx, s.initiative)


# ---- what the side to decide may do -------------------------------------------------------------------------------


def setup_legal(s: GameState, side: str) -> list[tuple[str, str, Data, Data]]:
    """(kind, actor, args, free) of every set-up action ``side`` may take now (empty when it is not its call)."""
    d = decision(s)
    if d is None or d["side"] != side:
        return []
    step = d["step"]
    if step == "roles":
        return [(Kind.ROLL_ROLES, "", {}, {})]
    if step == "edge":
        return [(Kind.CHOOSE_EDGE, side, {}, {"turn": [False, True]})]
    if step == "objective":
        zone = {"x, y": objective_free(s, d["objective"] or "")}
        return [(Kind.PLACE_OBJECTIVE, side, {"objective": d["objective"]}, zone)]
    if step == "cards":
        free = {"purchase": "Chance Encounter: {drone type: number} within the troop line's points [A42]"} \
            if s.mode == "chance-encounter" else {}
        return [(Kind.DRAW_CARDS, side, {}, free)]
    if step == "choose-cards":
        offered = _setup(s).offered[side]
        return [(Kind.CHOOSE_CARDS, side, {}, {"mission": list(offered["mission"]), "troop": list(offered["troop"])})]
    if step == "holding":
        ids = [u.id for u in issued_units(s, side)]
        return [(Kind.FILL_HOLDING, side, {}, {"squares": {"squares": [1, SQUARES], "per_square": UNITS_PER_SQUARE,
                                                        "units": ids}})]
    return [(Kind.PLACE_BLIP, side, {}, {"x, y": blip_free(s, side), "square": unused_squares(s, side)}),
            (Kind.PLACE_BLIPS, side, {}, {})]
