"""Concrete actions to try, from the legal actions' free parameters: where to Move, whom to Target, where to aim.

A legal action with free parameters (``legal.py``) is a range: a Move's disc, a Target's dice and prices, a
flamer's reach. The computer cannot try every point, so it tries a few of each kind: points spread round the disc,
and points aimed at what its mission and the table make interesting -- the best-covered ground in reach (fewest
enemies could see it, from the exposure map), the nearest objective it wants, the nearest enemy.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ...battle.action_kinds import Kind
from ....rules.table_sight import ExposureMap
from ...battle.intents import Action
from ...battle.intents import LegalAction
from ...battle.state import Data
from .seen import Seen


@dataclass(frozen=True)
class Candidate:
    action: Action
    aim: str = ""            # what the point was aimed at, for the reason ("the wood", "objective beta")


def exposure_at(grid: ExposureMap | None, x: float, y: float) -> int:
    if grid is None:
        return 0
    i = min(max(int(x / grid.step), 0), grid.columns - 1)
    j = min(max(int(y / grid.step), 0), grid.rows - 1)
    return int(grid.count(i, j))


MIN_MOVE = 0.5          # inches: a shorter Move or Jump is not tried, it spends an action to stay put


def _clip(cx: float, cy: float, r: float, x: float, y: float, stop: float = 0.0) -> tuple[float, float]:
    """(x, y) pulled back to the disc, and ``stop`` short of it along the way from the centre."""
    d = math.hypot(x - cx, y - cy)
    if d < 1e-9:
        return cx, cy
    reach = min(r * 0.98, max(0.0, d - stop))
    return round(cx + (x - cx) * reach / d, 3), round(cy + (y - cy) * reach / d, 3)


def _ring(cx: float, cy: float, r: float, n: int, phase: float) -> list[tuple[float, float]]:
    pts = []
    for k in range(n):
        a = phase + 2 * math.pi * k / n
        f = 0.95 if k % 2 == 0 else 0.55
        pts.append((round(cx + r * f * math.cos(a), 3), round(cy + r * f * math.sin(a), 3)))
    return pts


def reach(grid: ExposureMap, cx: float, cy: float, r: float) -> tuple[int, int, int, int]:
    """The columns ``first .. last - 1`` and rows ``top .. bottom - 1`` of the grid's points within ``r`` of (cx, cy),
    one either side to spare (the point where it stands among them): what ``_covered`` reads."""
    first = max(0, int(math.floor((cx - r) / grid.step - 0.5)) - 1)
    last = min(grid.columns, int(math.ceil((cx + r) / grid.step - 0.5)) + 2)
    top = max(0, int(math.floor((cy - r) / grid.step - 0.5)) - 1)
    bottom = min(grid.rows, int(math.ceil((cy + r) / grid.step - 0.5)) + 2)
    return first, last, top, bottom


def _covered(grid: ExposureMap | None, cx: float, cy: float, r: float) -> tuple[float, float] | None:
    """The grid point in reach that the fewest enemies can see, nearest first among equals; None when none is seen
    by fewer enemies than where the unit stands."""
    if grid is None:
        return None
    best = None
    first, last, top, bottom = reach(grid, cx, cy, r)
    grid.fetch(first, last, top, bottom)
    for j in range(grid.rows):
        y = (j + 0.5) * grid.step
        if abs(y - cy) > r:
            continue
        for i in range(first, last):
            x = (i + 0.5) * grid.step
            d = math.hypot(x - cx, y - cy)
            if d > r * 0.95:
                continue
            key = (grid.count(i, j), d)
            if best is None or key < best[0]:
                best = (key, (x, y))
    if best is None or best[0][0] >= exposure_at(grid, cx, cy):
        return None         # no better-covered ground in reach than where it stands
    return best[1]


def point_candidates(legal: LegalAction, seen: Seen, me: Data, n: int, goals: list[tuple[str, float, float, float]],
                     grid: ExposureMap | None, phase: float) -> list[Candidate]:
    disc = legal.free["x, y"]["within"]
    (cx, cy), r = disc["centre"], disc["radius"]
    out = [Candidate(legal.action(x=x, y=y)) for x, y in _ring(cx, cy, r, n, phase)]
    cover = _covered(grid, cx, cy, r)
    if cover is not None:
        out.append(Candidate(legal.action(x=round(cover[0], 3), y=round(cover[1], 3)), "cover"))
    for name, gx, gy, stop in goals:
        x, y = _clip(cx, cy, r, gx, gy, stop)
        out.append(Candidate(legal.action(x=x, y=y), name))
    # A Move that ends where it began spends an action on nothing: ending the activation keeps the unit there too.
    return [c for c in out if math.hypot(float(c.action.args["x"]) - cx, float(c.action.args["y"]) - cy) >= MIN_MOVE]


def goals_for(seen: Seen, me: Data, hold: tuple[str, ...], destroy: tuple[str, ...],
              p_real: dict[str, float] | None = None,
              inspect: dict[str, int] | None = None) -> list[tuple[str, float, float, float]]:
    """Points worth heading for: objectives to hold (onto them), to hit (missile range) or to Inspect (the nearest
    still short of counters: within 6", where the passive sensors add one and a Target counter costs 1 point), and
    the enemy to hunt: the nearest, an enemy blip counting as farther the likelier it is a decoy (``belief.py``)."""
    out = []
    for oid in hold:
        o = seen.objectives.get(oid)
        if o is not None:
            out.append((f"objective {oid}", o["x"], o["y"], 1.2))
    short = [seen.objectives[oid] for oid in sorted(inspect or {}) if oid in seen.objectives and oid not in hold]
    if short:
        o = min(short, key=lambda o: math.hypot(o["x"] - me["x"], o["y"] - me["y"]))
        out.append((f"objective {o['id']}", o["x"], o["y"], 4.0))
    for oid in destroy:
        o = seen.objectives.get(oid)
        if o is not None:
            out.append((f"objective {oid}", o["x"], o["y"], 8.0))
    odds = p_real or {}
    marks = [(u["id"], u["x"], u["y"], 1.0) for u in seen.enemies()]
    marks += [(b["id"], b["x"], b["y"], odds.get(b["id"], 0.5)) for b in seen.enemy_blips()]
    if marks:
        mid, mx, my, _ = min(marks, key=lambda m: math.hypot(m[1] - me["x"], m[2] - me["y"]) / (0.25 + m[3]))
        out.append((mid, mx, my, 7.0))
    return out


SURE_POOL = 0.9         # the fewest dice for an Inspection are those that pay for it this often


@functools.lru_cache(maxsize=16)
def sure_pool(dice: int, odds: float = SURE_POOL) -> int:
    """The largest points ``dice`` sensor dice roll at least with chance ``odds``."""
    ways = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    whole = 6 ** dice
    best, above = dice, 0
    for total in sorted(ways, reverse=True):
        above += ways[total]
        if above / whole >= odds:
            return total
    return best


def target_candidates(legal: LegalAction, seen: Seen, wanted: dict[str, int] | None = None) -> list[Candidate]:
    """Target with every die the sensors allow, and with two, all counters on one piece, for each piece it may
    Target. The pool is spent once it is rolled (p.19): the computer names as many counters as the best roll could
    buy, and the roll places as many as it pays for (``up_to``). An objective its mission Inspects (``wanted``: the
    counters it still needs) is named no more than it needs, and is also tried with the fewest dice that pay for
    them nine times in ten: every die rolled puts a counter on the unit that rolls it (p.19)."""
    lo, hi = legal.free["dice"]
    prices = legal.free["assign"]
    wanted = wanted or {}
    out = []
    for dice in sorted({hi, max(lo, min(hi, 2))}):
        for tid, price in sorted(prices.items()):
            piece = seen.piece(tid)
            if piece is None or piece.get("side") == seen.me:
                continue
            n = int(6 * dice // max(1, price["price"])) - price["eaten"]
            if tid in wanted:
                n = min(n, wanted[tid])
            if n >= 1:
                out.append(Candidate(legal.action(dice=dice, assign={tid: n}, up_to=True), tid))
    for tid, need in sorted(wanted.items()):
        price = prices.get(tid)
        if price is None or need < 1:
            continue
        cost = (need + price["eaten"]) * max(1, price["price"])
        fewest = next((k for k in range(lo, hi + 1) if sure_pool(k) >= cost), None)
        if fewest is not None and fewest not in (hi, max(lo, min(hi, 2))):
            out.append(Candidate(legal.action(dice=fewest, assign={tid: need}, up_to=True), tid))
    # One pool may Inspect several objectives (p.19: any number of targets share it): each named up to what it
    # needs, the cheapest counters first, so that what one roll has left over goes to the next.
    several = sorted((prices[tid]["price"], tid) for tid, need in wanted.items() if need >= 1 and tid in prices)
    if len(several) > 1:
        assign = {tid: wanted[tid] for _, tid in several}
        out.append(Candidate(legal.action(dice=hi, assign=assign, up_to=True), several[0][1]))
    return out


def flamer_candidates(legal: LegalAction, seen: Seen, me: Data) -> list[Candidate]:
    disc = legal.free["x, y"]["within"]
    (cx, cy), r = disc["centre"], disc["radius"]
    out = []
    for u in seen.enemies():
        if math.hypot(u["x"] - cx, u["y"] - cy) <= r:
            out.append(Candidate(legal.action(x=round(u["x"], 3), y=round(u["y"], 3)), u["id"]))
    return out


def kamikaze_candidates(legal: LegalAction, seen: Seen, me: Data) -> list[Candidate]:
    """The drone's explosion against each enemy piece or objective it can reach: by a Move, or else by a Jump, which
    goes further over any terrain (p.22, A35)."""
    move = legal.free["x, y"]["within"]
    jump = ((legal.free.get("jump") or {}).get("x, y") or {}).get("within")
    out = []
    for tid in legal.free.get("target") or []:
        p = seen.piece(tid)
        if p is None or p.get("side") == seen.me:
            continue
        gap = (p.get("base", 1.0) + me.get("base", 1.0)) / 2 + 0.05
        for disc, leap in ((move, False), (jump, True)):
            if disc is None:
                continue
            (cx, cy), r = disc["centre"], disc["radius"]
            if math.hypot(p["x"] - cx, p["y"] - cy) - gap > r:
                continue
            x, y = _clip(cx, cy, r, p["x"], p["y"], gap)
            out.append(Candidate(legal.action(x=x, y=y, target=tid, **({"jump": True} if leap else {})), tid))
            break
    return out


def own_decoy(seen: Seen, ident: str) -> bool:
    """One of its own blips that the view shows empty (a decoy); contents not recorded (a physical table) count as
    units, since the computer cannot tell."""
    b = seen.blips.get(ident)
    return b is not None and b.get("side") == seen.me and b.get("contents") == []


def reveal_facing(seen: Seen, me: Data) -> float:
    marks = [(u["x"], u["y"]) for u in seen.enemies()] + [(b["x"], b["y"]) for b in seen.enemy_blips()]
    if not marks:
        return 90.0 if me["y"] < seen.view["table"]["height"] / 2 else 270.0
    x, y = min(marks, key=lambda m: math.hypot(m[0] - me["x"], m[1] - me["y"]))
    return round(math.degrees(math.atan2(y - me["y"], x - me["x"])) % 360.0, 1)


def expand(legal: list[LegalAction], seen: Seen, hold: tuple[str, ...], destroy: tuple[str, ...],
           grid: ExposureMap | None, move_points: int, phase: float,
           p_real: dict[str, float] | None = None, inspect: dict[str, int] | None = None) -> list[Candidate]:
    """Concrete actions for the unit being activated (or the turn-level choices), a few per legal action.
    ``inspect``: the objectives its mission Inspects and the Target counters each still needs."""
    out: list[Candidate] = []
    for la in legal:
        me = seen.piece(la.actor) if la.actor else None
        if la.kind in (Kind.MOVE, Kind.JUMP) and me is not None:
            out.extend(point_candidates(la, seen, me, move_points if la.kind == Kind.MOVE else max(4, move_points // 2),
                                        goals_for(seen, me, hold, destroy, p_real, inspect), grid, phase))
        elif la.kind == Kind.TARGET:
            out.extend(target_candidates(la, seen, inspect))
        elif la.kind == Kind.FLAMER and me is not None:
            out.extend(flamer_candidates(la, seen, me))
        elif la.kind == Kind.KAMIKAZE and me is not None:
            out.extend(kamikaze_candidates(la, seen, me))
        elif la.kind == Kind.REVEAL and me is not None:
            if own_decoy(seen, la.actor):
                # A revealed decoy leaves the table and tells the opponent which counter was empty: it gains nothing,
                # and the blips left count for fewer units toward Multiple Activations (A21).
                continue
            out.append(Candidate(la.action(facing=reveal_facing(seen, me))))
        elif la.kind in (Kind.END_OF_ROUND, Kind.OBJECTIVES):
            continue
        elif not la.free:
            out.append(Candidate(la.action(), str(la.args.get("target", ""))))
    return out
