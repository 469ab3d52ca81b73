"""A weighed set-up: the covered spots of the blips weighed for the mission drawn (p.~14-15, A55, A60).

The fixed set-up (``setup.py``) puts every other blip on the best-covered free spot of its zone, whatever its
mission wants: a defender holding alpha, beta and gamma could start its blips in a wood at the far end of its half,
and an attacker sent to the objectives in the corner of the table its own cover faces away from. This weighs those
spots instead. Its mission card is known once the cards are drawn, before any blip goes down, so on each of the
fixed set-up's turns for a covered spot a few candidate spots are weighed for a blip holding units:

* the state it leaves, by the battle's own evaluation (``evaluate.py``) in the imagined worlds of ``determinize.py``:
  how near its blips stand to the objectives its mission holds, Inspects or destroys (the nearest blip to each
  one counting, so the next blip goes to the next objective), and, when its mission hunts, to the enemy;
* the cover round the spot, as the fixed set-up counts it (p.~24: cover is what keeps a revealed unit alive);
* how many enemies could see the spot: the enemy blips already down, or, before the enemy has placed any, points
  of its deployment zone and a Move in front of it (p.~15: the attacker's blips stand within 6" of its edge) --
  every blip is an enemy that may be a trooper, a Targeted blip is revealed, and sight from its zone is where
  the first Targets come from;
* whether it brings an objective its mission wants within a Move of one of its blips: the evaluation's pull is
  made for a unit that can Move again next activation, but where a unit starts sets how many rounds it needs,
  and Delaying Action and Eyes On end at round 6 (A43);
* room from its other blips: a missile's blast takes every unit in its reach (p.21, A30), so they do not start
  in one heap.

Every blip already down is weighed as if it held units, and the square a blip stands for is still drawn at
random among those left: where a blip goes, and when, says nothing of whether it holds units. Only the player
view and the public deck are read, so it is peek-free like the rest of the computer. The reason the opponent may
read says only where the blip went.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from ...battle.action_kinds import Kind
from ....rules.battlefield import Piece
from ....rules.fast_sight import exposure_fast
from ....rules.movement import MOVE_ALLOWANCE
from ...battle.intents import Action
from ...views.battlefield import battlefield_from_view
from ...battle.intents import LegalAction
from ...battle.state import BlipState, GameState
from .belief import belief
from .candidates import exposure_at
from .determinize import sample_state
from .evaluate import Aims, evaluate
from .seen import Seen, fingerprint
from .setup import _cover_near, _cover_pieces, _depth, _spots, blip

SPOT_STEP = 1.5          # inches between the spots tried (the fixed set-up's grid)
SHORTLIST = 24           # spots weighed by the evaluation, the best by cover, sight and room first
WORLDS = 2               # imagined worlds each shortlisted spot is weighed in
COVER_VP = 0.3           # VP per point of cover round the spot (``setup._cover_near``), up to COVER_CAP
COVER_CAP = 3
SEEN_VP = 0.08           # VP per enemy (blip or point of its zone) that could see the spot
ZONE_STEP = 4.0          # inches between the points of the enemy's zone watched before its blips are down
ZONE_DEPTH = 6.0         # the attacker's blips stand within 6" of its edge (p.~15)
BLAST_ROOM = 4.0         # inches: blips holding units nearer than this to each other share a missile's blast
BLAST_VP = 0.25          # VP per such neighbour
REACH_VP = 0.06          # VP per inch an objective its mission wants lies beyond a Move from its nearest such blip


def _watchers(seen: Seen) -> list[tuple[float, float]]:
    """Where the enemy may look from at the start: its blips on the table, else its deployment zone (points every
    ZONE_STEP inches across the table, on its edge strip and a Move in front of it)."""
    blips = [(b["x"], b["y"]) for b in seen.enemy_blips()]
    if blips:
        return blips
    width, height = seen.view["table"]["width"], seen.view["table"]["height"]
    out = []
    for depth in (ZONE_DEPTH / 2, ZONE_DEPTH + MOVE_ALLOWANCE):
        # The enemy's edge is the far one from the computer's (side A's edge is y = 0).
        y = height - depth if seen.me == "A" else depth
        x = ZONE_STEP / 2
        while x < width:
            out.append((round(x, 2), round(y, 2)))
            x += ZONE_STEP
    return out


def sight_counts(seen: Seen, watchers: list[tuple[float, float]]) -> Any:
    """How many of ``watchers`` could see a unit of the computer's side at each point of the table: the exposure
    map of the engine's sight (50 % rule, cover, A9/A10), every watcher a trooper that may face any way."""
    bf = battlefield_from_view({**seen.view, "units": [], "blips": []})
    pieces = {f"(watch {i})": Piece(id=f"(watch {i})", kind="trooper", x=x, y=y, side=seen.them,
                                    unit_type="assault", arc=False) for i, (x, y) in enumerate(watchers)}
    return exposure_fast(replace(bf, pieces=pieces), seen.me, 1.0)


def _as_held(world: GameState, side: str, square: int, x: float, y: float) -> GameState:
    """The world with a blip at (x, y), it and every blip of ``side`` already down standing for ``square``: the
    spot is weighed as if each blip held units, so where it goes says nothing of which ones do."""
    w = world.copy()
    blips = {k: (BlipState(b.id, b.side, b.x, b.y, square, b.base, b.activation) if b.side == side else b)
             for k, b in w.blips.items()}
    w.blips = {**blips, "(weighed)": BlipState("(weighed)", side, x, y, square)}
    return w


def weighed_blip(seen: Seen, la: LegalAction, seed: int, rng: random.Random) -> tuple[Action, str, str]:
    """The next blip: on the fixed set-up's turns for a spread spot, that spot; on its turns for a covered one, the
    spot weighed best for a blip holding units. The square it stands for is the fixed set-up's, drawn at random
    among those left, so neither the spot nor the order says whether it holds units."""
    action, reason = blip(seen, la, rng)
    square = action.args.get("square")
    holding_area = (seen.view.get("holding") or {}).get(seen.me) or {}
    held = sorted(int(n) for n, c in holding_area.items() if c)
    placed = [(b["x"], b["y"]) for b in seen.my_blips()]
    if square is None or not held or len(placed) % 2 == 1:
        return action, reason, _public(action)
    spots = _spots(seen, la.free["x, y"], SPOT_STEP)
    if not spots:
        return action, reason, _public(action)
    aims = Aims.of(seen.my_mission)
    features = _cover_pieces(seen)
    watchers = _watchers(seen)
    grid = sight_counts(seen, watchers)

    def cover(p: tuple[float, float]) -> int:
        return min(_cover_near(features, *p), COVER_CAP)

    def crowd(p: tuple[float, float]) -> int:
        return sum(1 for x, y in placed if math.hypot(p[0] - x, p[1] - y) < BLAST_ROOM)

    wanted = [(o["x"], o["y"]) for oid, o in seen.objectives.items() if oid in (*aims.hold, *aims.inspect, *aims.destroy)]
    gaps = [min((math.hypot(ox - x, oy - y) for x, y in placed), default=math.inf) for ox, oy in wanted]

    def reach(p: tuple[float, float]) -> float:
        """Inches beyond a Move that this blip takes off the objectives its mission wants."""
        return sum(max(0.0, min(gap, 99.0) - MOVE_ALLOWANCE) - max(0.0, min(gap, math.hypot(ox - p[0], oy - p[1]))
                                                                   - MOVE_ALLOWANCE)
                   for gap, (ox, oy) in zip(gaps, wanted))

    def local(p: tuple[float, float]) -> float:
        return (COVER_VP * cover(p) - SEEN_VP * exposure_at(grid, *p) - BLAST_VP * crowd(p)
                + REACH_VP * reach(p))

    # The evaluation weighs the pull toward the mission's objectives and the enemy; it is the costly part, so only
    # a shortlist is weighed: the best spots by cover, sight and room, and the nearest spot to each objective.
    ranked = sorted(spots, key=lambda p: (-local(p), _depth(seen, p[1]), p[0]))
    short = ranked[:SHORTLIST]
    for o in seen.objectives.values():
        short.append(min(spots, key=lambda p: (math.hypot(p[0] - o["x"], p[1] - o["y"]) - local(p), p)))
    base = action.args.get("x"), action.args.get("y")
    if base in spots:
        short.append(base)          # the fixed set-up's choice, weighed the same way, for the reason's comparison
    short = list(dict.fromkeys(short))
    worlds_rng = random.Random(f"{seed}|{seen.me}|setup|{fingerprint(seen.view)}")
    bel = belief(seen)
    worlds = [sample_state(seen, bel, worlds_rng) for _ in range(WORLDS)]
    sq = held[0]

    def worth(p: tuple[float, float]) -> float:
        v = sum(evaluate(_as_held(w, seen.me, sq, *p), seen.me, seen.my_mission, seen.their_missions, aims, bel)
                for w in worlds) / len(worlds)
        return v + local(p)

    scored = {p: worth(p) for p in short}
    best = max(short, key=lambda p: (scored[p], -p[0], -p[1]))
    x, y = best
    why = _why(seen, aims, best, cover(best), exposure_at(grid, *best), len(watchers))
    if base in scored and (x, y) != base:
        why += f"; {scored[best] - scored[base]:.2f} VP better than the best-covered spot ({base[0]:g}, {base[1]:g})"
    chosen = la.action(x=x, y=y, square=square)
    return chosen, f"places a blip at ({x:g}, {y:g}): {why}", _public(chosen)


def _why(seen: Seen, aims: Aims, p: tuple[float, float], cover: int, watched: int, watchers: int) -> str:
    parts = []
    wanted = [oid for oid in (*aims.hold, *aims.inspect, *aims.destroy) if oid in seen.objectives]
    if wanted:
        oid = min(wanted, key=lambda o: math.hypot(seen.objectives[o]["x"] - p[0], seen.objectives[o]["y"] - p[1]))
        o = seen.objectives[oid]
        d = math.hypot(o["x"] - p[0], o["y"] - p[1])
        verb = "holds" if oid in aims.hold else "Inspects" if oid in aims.inspect else "destroys"
        parts.append(f"{d:.0f}\" from {oid}, which its mission {verb}")
    parts.append(f"cover {cover}")
    what = "enemy blips" if seen.enemy_blips() else "points of the enemy's zone"
    parts.append(f"seen from {watched} of {watchers} {what}")
    return ", ".join(parts)


def _public(action: Action) -> str:
    """What the opponent may read: where the blip went, never whether it holds units."""
    return f"places a blip at ({action.args.get('x', 0):g}, {action.args.get('y', 0):g})"


def weighed_setup(seen: Seen, legal: list[LegalAction], seed: int,
                  rng: random.Random) -> tuple[Action, str, str] | None:
    """The weighed set-up decision, or None where the fixed set-up decides (``setup.setup_decision``)."""
    by_kind = {la.kind: la for la in legal}
    if Kind.PLACE_BLIP in by_kind:
        return weighed_blip(seen, by_kind[Kind.PLACE_BLIP], seed, rng)
    return None
