"""A random player that chooses only among the legal actions (``legal.py``), filling in their free parameters.

It serves ``selfplay``, soak tests and the property tests. Free parameters are drawn inside the ranges the list
gives (a point in a Move's disc, a number of dice, counters on the pieces with a price); a point inside the disc may
still be refused (hindering terrain, another base), and then the player draws again or falls back to an action
with nothing left to choose. It reads only the legal actions, which hold nothing of the opponent's secrets.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..battle.action_kinds import Kind
from ..battle.intents import Action
from ..battle.intents import LegalAction
from ..play.session import Session
from ..play.setup_steps import SETUP_KINDS

TRIES = 6
WEIGHTS: dict[str, float] = {
    Kind.ACTIVATE: 6.0, Kind.END_TURN: 0.3, Kind.END_ACTIVATION: 0.4, Kind.MOVE: 3.0, Kind.JUMP: 1.0,
    Kind.TARGET: 2.5, Kind.RIFLE: 3.0, Kind.MISSILE: 1.5, Kind.FLAMER: 0.6, Kind.KAMIKAZE: 0.6, Kind.COMMAND: 0.7,
    Kind.REPAIR: 1.0, Kind.SCRAMBLE: 0.2, Kind.JAMMER: 0.4, Kind.REVEAL: 0.6, Kind.END_OF_ROUND: 1.0,
    Kind.OBJECTIVES: 1.0, Kind.PLACE_BLIP: 1.0, Kind.PLACE_BLIPS: 0.05,
}


def _in_box(free: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A point of a set-up zone (its x and y ranges); the engine's preview judges the rest (A55, p.~15)."""
    return {"x": round(rng.uniform(*free["x"]), 2), "y": round(rng.uniform(*free["y"]), 2)}


def _arrangement(units: list[str], rng: random.Random) -> dict[str, list[str]]:
    """The issued units in random squares, at most 2 a square (p.~10)."""
    squares: dict[str, list[str]] = {}
    for uid in rng.sample(units, len(units)):
        room = [n for n in range(1, 17) if len(squares.get(str(n), [])) < 2]
        squares.setdefault(str(rng.choice(room)), []).append(uid)
    return squares


def _setup_fill(legal: LegalAction, rng: random.Random) -> Action:
    """A set-up decision: half the time the player's own choice, else "place for me" (A60)."""
    free, kind = legal.free, legal.kind
    if rng.random() < 0.5:
        return legal.action()
    if kind == Kind.CHOOSE_EDGE:
        return legal.action(turn=rng.choice(free["turn"]))
    if kind == Kind.PLACE_OBJECTIVE:
        return legal.action(**_in_box(free["x, y"], rng))
    if kind == Kind.CHOOSE_CARDS:
        return legal.action(mission=rng.choice(free["mission"]), troop=rng.choice(free["troop"]))
    if kind == Kind.FILL_HOLDING:
        return legal.action(squares=_arrangement(free["squares"]["units"], rng))
    if kind == Kind.PLACE_BLIP:
        return legal.action(square=rng.choice(free["square"]), **_in_box(free["x, y"], rng))
    return legal.action()


def _point(free: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    disc = free["within"]
    (cx, cy), r = disc["centre"], disc["radius"]
    arc = free.get("arc")
    if arc is not None:
        angle = arc["facing"] + rng.uniform(-arc["width"] / 2, arc["width"] / 2)
    else:
        angle = rng.uniform(0.0, 360.0)
    d = r * math.sqrt(rng.random())
    return {"x": round(cx + d * math.cos(math.radians(angle)), 3), "y": round(cy + d * math.sin(math.radians(angle)), 3)}


def fill(legal: LegalAction, rng: random.Random) -> Action:
    """One action of the kind ``legal`` offers, its free parameters drawn within their ranges."""
    free = legal.free
    if not free:
        return legal.action()
    kind = legal.kind
    if kind in SETUP_KINDS:
        return _setup_fill(legal, rng)
    if kind in (Kind.MOVE, Kind.FLAMER):
        return legal.action(**_point(free["x, y"], rng))
    if kind == Kind.JUMP:
        return legal.action(**_point(free["x, y"], rng))
    if kind == Kind.KAMIKAZE:
        jump = free.get("jump") is not None and rng.random() < 0.3
        args = _point(free["jump"]["x, y"] if jump else free["x, y"], rng)
        if jump:
            args["jump"] = True
        if free.get("target") and rng.random() < 0.7:
            args["target"] = rng.choice(free["target"])
        return legal.action(**args)
    if kind == Kind.TARGET:
        lo, hi = free["dice"]
        dice = rng.randint(lo, hi)
        budget = 3.5 * dice
        assign: dict[str, int] = {}
        for tid, price in sorted(free["assign"].items()):
            if rng.random() < 0.5:
                n = max(0, int(budget // max(1, price["price"])) - price["eaten"])
                if n:
                    assign[tid] = rng.randint(1, n)
                    budget -= (price["eaten"] + assign[tid]) * price["price"]
        return legal.action(dice=dice, assign=assign)
    if kind == Kind.FACE:
        return legal.action(facing=round(rng.uniform(*free["facing"]), 1) % 360.0)
    if kind == Kind.REVEAL:
        return legal.action(facing=round(rng.uniform(*free["facing"]), 1)) if rng.random() < 0.5 else legal.action()
    if kind == Kind.END_OF_ROUND:
        r = rng.random()
        if r < 0.08:
            return legal.action(withdraw=rng.choice(["A", "B"]), answer=rng.choice(["allow", "pursue"]))
        if r < 0.1:
            return legal.action(stop=True)
        return legal.action()
    if kind == Kind.OBJECTIVES:
        return legal.action(**{oid: rng.choice(choices) for oid, choices in free.items()})
    return legal.action()


def choose(session: Session, rng: random.Random, side: str | None = None) -> Action | None:
    """A random action among the legal ones for ``side`` (default: the side to act) that the engine's preview
    accepts; None when that side has nothing to do."""
    offered = session.legal_actions(side)
    if not offered:
        return None
    weights = [WEIGHTS.get(a.kind, 1.0) for a in offered]
    for _ in range(TRIES):
        legal = rng.choices(offered, weights)[0]
        action = fill(legal, rng)
        p = session.preview(action)
        if p.legal and p.needs_contents is None:
            return action
    # A set-up decision left to "place for me" is always one the engine can take.
    complete = [a for a in offered if not a.free or a.kind in SETUP_KINDS]
    return rng.choice(complete).action() if complete else fill(offered[0], rng)
