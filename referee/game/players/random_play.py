"""Random play: plausible actions for whoever is to act, for tests, demonstrations and a first opponent.

``random_action(state, rng)`` looks at the state the way a careless but well-meaning player would and proposes
something: activate a unit with a counter, then move it somewhere within reach, jump, Target with a random number of
dice and a random assignment, fire at an enemy, Command, Repair, Scramble, toggle a jammer, reveal a blip, end the
activation or the turn; at the end of a round it sometimes withdraws, pursues or agrees to stop; when the battle is
over it sets the objectives. It does not check the rules: the engine refuses what is illegal, and a refused action
changes nothing. A small share of proposals are deliberately odd (a unit of the wrong side, an action for a unit that
is not being activated) so that refusals are exercised too.

``play_random(game, rng, steps, source)`` plays that many proposals through ``Game.play``.

The proposals use only what the acting player may know (``view.player_view``): they never look inside a blip or at
either holding area, so a random player cannot play better by peeking.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..battle.action_kinds import Kind
from ..battle.intents import Action
from ..battle.dice import DiceSource
from ..battle.state import SIDES, Data, GameState
from ..views.view import player_view
from ..views.view_types import as_data

if TYPE_CHECKING:
    from ..play.engine import Game

MOVE_REACH = 6.0
JUMP_REACH = 9.0
FLAMER_REACH = 6.0
OBJECTIVE_CHOICES = ("secured", "destroyed", "inspected")


# ---- what a player may see, in handy form ------------------------------------------------------------


@dataclass
class _Seen:
    """The parts of a player view a random player uses."""

    side: str
    width: float
    height: float
    units: dict[str, Data]
    blips: dict[str, Data]
    objectives: dict[str, Data]


def _seen(state: GameState, side: str) -> _Seen:

    v = as_data(player_view(state, side, log=False))
    return _Seen(
        side, v["table"]["width"], v["table"]["height"],
        {u["id"]: u for u in v["units"]},
        {b["id"]: b for b in v["blips"]},
        {o["id"]: o for o in v["objectives"]},
    )


def _point_near(seen: _Seen, x: float, y: float, reach: float, rng: random.Random, spill: float = 1.1,
                facing: float | None = None, arc: float = 180.0) -> tuple[float, float]:
    """A random point up to ``reach * spill`` from (x, y), kept on the table; within ``arc`` of ``facing`` if given."""
    if facing is None:
        angle = rng.uniform(0.0, 360.0)
    else:
        angle = facing + rng.uniform(-arc / 2, arc / 2)
    d = rng.uniform(0.0, reach * spill)
    px = x + d * math.cos(math.radians(angle))
    py = y + d * math.sin(math.radians(angle))
    px = min(max(px, 0.5), seen.width - 0.5)
    py = min(max(py, 0.5), seen.height - 0.5)
    return round(px, 3), round(py, 3)


def _enemies(seen: _Seen, side: str) -> list[str]:
    return [i for i, u in seen.units.items() if u["side"] != side]


def _friends(seen: _Seen, side: str, ident: str) -> list[str]:
    return [i for i, u in seen.units.items() if u["side"] == side and i != ident]


def _pick(rng: random.Random, options: list[str], fallback: str = "nobody") -> str:
    return rng.choice(sorted(options)) if options else fallback


def _weighted(rng: random.Random, weights: dict[str, float]) -> str:
    kinds = [k for k, w in weights.items() if w > 0]
    return rng.choices(kinds, [weights[k] for k in kinds])[0]


# ---- unit actions ----------------------------------------------------------------------------------------


def _move_args(seen: _Seen, me: Data, rng: random.Random, reach: float) -> Data:
    x, y = _point_near(seen, me["x"], me["y"], reach, rng)
    args: Data = {"x": x, "y": y}
    if rng.random() < 0.15:
        vx, vy = _point_near(seen, me["x"], me["y"], reach / 2, rng)
        args["via"] = [[vx, vy]]
    return args


def _toward_enemy(seen: _Seen, me: Data, rng: random.Random, reach: float) -> Data:
    """A move that ends next to an enemy or objective: passive sensors, reveals and contact rolls happen."""
    marks = [u for u in seen.units.values() if u["side"] != me["side"]]
    marks += [b for b in seen.blips.values() if b["side"] != me["side"]]
    marks += list(seen.objectives.values())
    near = [m for m in marks if math.hypot(m["x"] - me["x"], m["y"] - me["y"]) <= reach + 1.5]
    if not near:
        return _move_args(seen, me, rng, reach)
    m = rng.choice(sorted(near, key=lambda m: m["id"]))
    d = math.hypot(m["x"] - me["x"], m["y"] - me["y"])
    gap = (me.get("base", 1.0) + m.get("base", 1.0)) / 2
    if d <= 1e-9:
        return _move_args(seen, me, rng, reach)
    t = max(0.0, (d - gap - rng.choice([0.0, 0.0, 0.3, 2.0])) / d)
    return {"x": round(me["x"] + (m["x"] - me["x"]) * t, 4), "y": round(me["y"] + (m["y"] - me["y"]) * t, 4),
            "_mark": m["id"]}


def _target_args(seen: _Seen, me: Data, rng: random.Random) -> Data:
    marks = sorted(_enemies(seen, me["side"]) + [b for b, v in seen.blips.items() if v["side"] != me["side"]]
                   + list(seen.objectives))
    assign: dict[str, int] = {}
    for _ in range(rng.choice([1, 1, 2, 3])):
        if marks:
            assign[rng.choice(marks)] = rng.choice([0, 1, 1, 1, 2, 3])
    return {"dice": rng.choice([1, 2, 2, 3, 3, 4, 5]), "assign": assign}


def _trooper_action(seen: _Seen, me: Data, rng: random.Random) -> Action:
    ident, side = me["id"], me["side"]
    enemies = _enemies(seen, side)
    marked = [e for e in enemies if seen.units[e].get("target_counters", 0) > 0]
    kind = _weighted(rng, {
        Kind.MOVE: 22, "approach": 8, Kind.JUMP: 4, Kind.TARGET: 20, Kind.RIFLE: 16, Kind.MISSILE: 8, Kind.FLAMER: 5,
        Kind.COMMAND: 4, Kind.REPAIR: 3, Kind.SCRAMBLE: 3, Kind.END_ACTIVATION: 5, Kind.JAMMER: 1, Kind.KAMIKAZE: 1,
    })
    if kind == Kind.MOVE:
        return Action(Kind.MOVE, ident, _move_args(seen, me, rng, MOVE_REACH))
    if kind == "approach":
        args = _toward_enemy(seen, me, rng, MOVE_REACH)
        args.pop("_mark", None)
        return Action(Kind.MOVE, ident, args)
    if kind == Kind.JUMP:
        x, y = _point_near(seen, me["x"], me["y"], JUMP_REACH, rng)
        return Action(Kind.JUMP, ident, {"x": x, "y": y})
    if kind == Kind.TARGET:
        return Action(Kind.TARGET, ident, _target_args(seen, me, rng))
    if kind in (Kind.RIFLE, Kind.MISSILE):
        pool = marked if marked and rng.random() < 0.85 else enemies
        if kind == Kind.MISSILE and seen.objectives and rng.random() < 0.2:
            pool = list(seen.objectives)
        return Action(kind, ident, {"target": _pick(rng, pool)})
    if kind == Kind.FLAMER:
        x, y = _point_near(seen, me["x"], me["y"], FLAMER_REACH, rng, spill=1.05, facing=me.get("facing", 0.0))
        return Action(Kind.FLAMER, ident, {"x": x, "y": y})
    if kind == Kind.COMMAND:
        idle = [f for f in _friends(seen, side, ident) if not seen.units[f].get("activation", True)]
        return Action(Kind.COMMAND, ident, {"target": _pick(rng, idle or _friends(seen, side, ident))})
    if kind == Kind.REPAIR:
        hurt = [f for f in _friends(seen, side, ident) + [ident] if seen.units[f].get("damaged")]
        return Action(Kind.REPAIR, ident, {"target": _pick(rng, hurt, ident)})
    if kind == Kind.END_ACTIVATION:
        return Action(Kind.END_ACTIVATION)
    if kind == Kind.KAMIKAZE:
        x, y = _point_near(seen, me["x"], me["y"], MOVE_REACH, rng)
        return Action(Kind.KAMIKAZE, ident, {"x": x, "y": y})
    return Action(kind, ident, {})


def _drone_action(seen: _Seen, me: Data, rng: random.Random) -> Action:
    ident, side, kind_of = me["id"], me["side"], me["type"]
    enemies = _enemies(seen, side)
    marked = [e for e in enemies if seen.units[e].get("target_counters", 0) > 0]
    drones = [e for e in enemies if seen.units[e]["type"].endswith("-drone")]
    kind = _weighted(rng, {
        Kind.MOVE: 30, "approach": 10, Kind.JUMP: 12, Kind.RIFLE: 14,
        Kind.KAMIKAZE: 25 if kind_of == "kamikaze-drone" else 1,
        Kind.JAMMER: 15 if kind_of == "haywire-drone" else 1,
        Kind.TARGET: 15 if kind_of == "recce-drone" else 1,
        Kind.SCRAMBLE: 2, Kind.END_ACTIVATION: 4, Kind.MISSILE: 1,
    })
    if kind == Kind.MOVE:
        return Action(Kind.MOVE, ident, _move_args(seen, me, rng, MOVE_REACH))
    if kind == "approach":
        args = _toward_enemy(seen, me, rng, MOVE_REACH)
        args.pop("_mark", None)
        return Action(Kind.MOVE, ident, args)
    if kind == Kind.JUMP:
        x, y = _point_near(seen, me["x"], me["y"], JUMP_REACH, rng)
        return Action(Kind.JUMP, ident, {"x": x, "y": y})
    if kind == Kind.RIFLE:
        pool = [d for d in drones if d in marked] or marked or enemies
        return Action(Kind.RIFLE, ident, {"target": _pick(rng, pool)})
    if kind == Kind.KAMIKAZE:
        jump = rng.random() < 0.25
        args = _toward_enemy(seen, me, rng, JUMP_REACH if jump else MOVE_REACH)
        mark = args.pop("_mark", None)
        if mark and mark not in seen.blips and rng.random() < 0.8:
            args["target"] = mark
        if jump:
            args["jump"] = True
        return Action(Kind.KAMIKAZE, ident, args)
    if kind == Kind.TARGET:
        return Action(Kind.TARGET, ident, _target_args(seen, me, rng))
    if kind == Kind.END_ACTIVATION:
        return Action(Kind.END_ACTIVATION)
    if kind == Kind.MISSILE:
        return Action(Kind.MISSILE, ident, {"target": _pick(rng, enemies)})
    return Action(kind, ident, {})


def _blip_action(seen: _Seen, me: Data, state: GameState, rng: random.Random) -> Action:
    ident = me["id"]
    kind = _weighted(rng, {Kind.MOVE: 55, "approach": 15, Kind.REVEAL: 15, Kind.END_ACTIVATION: 10, Kind.TARGET: 3, Kind.JUMP: 2})
    if kind == Kind.MOVE:
        return Action(Kind.MOVE, ident, _move_args(seen, me, rng, MOVE_REACH))
    if kind == "approach":
        args = _toward_enemy(seen, me, rng, MOVE_REACH)
        args.pop("_mark", None)
        return Action(Kind.MOVE, ident, args)
    if kind == Kind.REVEAL:
        args = {}
        if rng.random() < 0.3:
            args["facing"] = float(rng.choice([0, 45, 90, 180, 270]))
        return Action(Kind.REVEAL, ident, args)
    if kind == Kind.END_ACTIVATION:
        return Action(Kind.END_ACTIVATION)
    if kind == Kind.JUMP:
        x, y = _point_near(seen, me["x"], me["y"], JUMP_REACH, rng)
        return Action(Kind.JUMP, ident, {"x": x, "y": y})
    return Action(Kind.TARGET, ident, _target_args(seen, me, rng))


# ---- turn-level proposals ---------------------------------------------------------------------------------


def _end_of_round(state: GameState, rng: random.Random) -> Action:
    r = rng.random()
    if r < 0.08:
        return Action(Kind.END_OF_ROUND, "", {"withdraw": rng.choice(SIDES), "answer": rng.choice(["allow", "pursue"])})
    if r < 0.12:
        return Action(Kind.END_OF_ROUND, "", {"stop": True})
    if r < 0.14:
        return Action(Kind.END_OF_ROUND, "", {"withdraw": "both"})
    return Action(Kind.END_OF_ROUND, "", {})


def _objectives(state: GameState, rng: random.Random) -> Action:
    standing = sorted(i for i, o in state.objectives.items() if not o.destroyed)
    choice = {i: rng.choice(OBJECTIVE_CHOICES) for i in standing}
    if standing and rng.random() < 0.1:
        choice.pop(rng.choice(standing))          # forgetting one: refused
    return Action(Kind.OBJECTIVES, state.attacker or "", choice)


def _odd(state: GameState, seen: _Seen, rng: random.Random) -> Action:
    """Something a confused player might try: the engine must refuse it and change nothing."""
    everyone = sorted(set(seen.units) | set(seen.blips))
    who = rng.choice(everyone) if everyone else "nobody"
    kind = rng.choice([Kind.ACTIVATE, Kind.MOVE, Kind.RIFLE, Kind.END_ACTIVATION, Kind.REVEAL, Kind.END_OF_ROUND,
                       Kind.OBJECTIVES, "teleport"])
    if kind == Kind.MOVE:
        return Action(Kind.MOVE, who, {"x": rng.uniform(0, seen.width), "y": rng.uniform(0, seen.height)})
    if kind == Kind.RIFLE:
        return Action(Kind.RIFLE, who, {"target": rng.choice(everyone) if everyone else "nobody"})
    if kind in (Kind.ACTIVATE, Kind.REVEAL):
        return Action(kind, who, {"extra": True} if rng.random() < 0.3 else {})
    return Action(kind, who, {})


def random_action(state: GameState, rng: random.Random) -> Action:
    """A plausible action for the side whose turn it is (the engine decides whether it is legal)."""
    if state.phase == "over":
        return _objectives(state, rng)
    if state.phase == "end-of-round":
        return _end_of_round(state, rng)
    t = state.turn
    side = t.player if t is not None else state.initiative
    seen = _seen(state, side)
    if t is None or rng.random() < 0.03:
        return _odd(state, seen, rng)
    if t.active is not None:
        me = seen.units.get(t.active) or seen.blips.get(t.active)
        if me is None:
            return Action(Kind.END_ACTIVATION)
        if t.active in seen.blips:
            if t.actions_left <= 0:
                # A blip that has moved in its own activation may still be revealed (p.17 Example 3).
                if t.activation_kind == "primary" and rng.random() < 0.3:
                    return Action(Kind.REVEAL, t.active, {})
                return Action(Kind.END_ACTIVATION)
            if t.activation_kind == "extra" and rng.random() < 0.9:
                return Action(Kind.MOVE, t.active, _move_args(seen, me, rng, MOVE_REACH))
            return _blip_action(seen, me, state, rng)
        if me.get("stunned") and rng.random() < 0.9:
            return Action(Kind.END_ACTIVATION)
        if me["type"].endswith("-drone"):
            return _drone_action(seen, me, rng)
        return _trooper_action(seen, me, rng)
    if t.queue:
        return Action(Kind.END_ACTIVATION)
    mine = sorted([i for i, u in seen.units.items() if u["side"] == side and u.get("activation")]
                  + [i for i, b in seen.blips.items() if b["side"] == side and b.get("activation")])
    my_blips = [i for i in mine if i in seen.blips]
    r = rng.random()
    primary_left = t.primary_used < t.primary_allowed and t.extra_blips_used == 0
    extra_left = t.primary_used >= 1 and t.extra_blips_used < 3 and my_blips
    if extra_left and (r < 0.25 or (not primary_left and r < 0.8)):
        return Action(Kind.ACTIVATE, rng.choice(my_blips), {"extra": True})
    if mine and primary_left and r < 0.92:
        return Action(Kind.ACTIVATE, rng.choice(mine), {})
    if mine and r < 0.05:
        return Action(Kind.ACTIVATE, rng.choice(mine), {})      # one too many: refused
    return Action(Kind.END_TURN)


# ---- playing ----------------------------------------------------------------------------------------------


@dataclass
class RandomRun:
    """What ``play_random`` did: how many proposals were legal and refused, and the refusal reasons seen."""

    legal: int = 0
    refused: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)

    @property
    def steps(self) -> int:
        return self.legal + self.refused


def play_random(game: Game, rng: random.Random, steps: int, source: DiceSource,
                check: Callable[[GameState, Action, object], None] | None = None,
                stop_when_over: bool = True) -> RandomRun:
    """Propose ``steps`` random actions to ``game`` (a ``Game``), rolling with ``source``.

    ``check(before, action, outcome)`` is called after each proposal, legal or refused (tests check invariants
    there). With ``stop_when_over`` the run ends once the battle is over and the attacker has set the objectives
    (or a proposal to do so was refused).
    """
    run = RandomRun()
    for _ in range(steps):
        before = game.state
        action = random_action(before, rng)
        outcome = game.play(action, source)
        if outcome.legal:
            run.legal += 1
            run.kinds[action.kind] = run.kinds.get(action.kind, 0) + 1
        else:
            run.refused += 1
            key = outcome.reason.split(":")[0][:60]
            run.reasons[key] = run.reasons.get(key, 0) + 1
        if check is not None:
            check(before, action, outcome)
        if stop_when_over and before.phase == "over":
            break
    return run


__all__ = ["random_action", "play_random", "RandomRun"]
