"""The computer's set-up decisions (p.~14-15, A55, A60), from its player view and the legal set-up actions.

* its table edge: the one whose half holds more cover (the terrain turned if the far half has more);
* its objectives: the defender's deep in its half beside cover, the attacker's delta and epsilon as near its own
  side as the zone allows, in the open, toward the table's sides (the middle left free for the defender's three);
* its cards: the mission that pays most for destroying enemy troopers and holding the table, which is how it plays;
* its holding area: one unit a square, the rest decoys;
* its blips one at a time: in turn on the best-covered free spot of its zone and on one spread across the zone's
  width, each standing for a square drawn among those left, so that neither where a blip stands nor when it went
  down tells the opponent whether it holds units.

Every point is checked against what the legal action gives (the zone, the discs to keep apart from, impassable
terrain) and the bases in the view; the engine judges it again when the action is taken.
"""

from __future__ import annotations

import math
import random
from typing import Any, NamedTuple

from ...battle.action_kinds import Kind
from ...battle.intents import Action
from ...views.battlefield import battlefield_from_view
from ...battle.intents import LegalAction
from ...battle.state import Data
from ....rules.numbers import EPS
from .evaluate import Aims
from .seen import Seen, mission_card

OBJECTIVE_ORDER = ("delta", "epsilon", "alpha", "beta", "gamma")
COVER_REACH = 2.0          # a spot counts the cover pieces within this many inches


class Cover(NamedTuple):
    """A piece of cover, its centroid and its box, worked out once: a decision weighs every spot of a zone against
    every piece, and asking the geometry for them each time cost most of the computer's set-up."""

    feature: Any
    x: float                 # the centroid
    y: float
    box: tuple[float, float, float, float]      # the piece's box, its top and right sides out by EPS (``holds``)


def _cover_pieces(seen: Seen) -> list[Cover]:
    bf = battlefield_from_view(seen.view)
    out = []
    for f in bf.terrain:
        if not f.column(False).impassable and (f.column(False).cover != "none" or f.blocking):
            c = f.geometry.centroid
            x0, y0, x1, y1 = f.box
            out.append(Cover(f, c.x, c.y, (x0, y0, x1 + EPS, y1 + EPS)))
    return out


# The cover counted round each spot for the last table's cover (the list asked about, its pieces, the counts): the
# table's terrain stands the same through the set-up, and a view's pieces are made once for the same terrain
# (``determinize``), so each blip's decision finds the counts of the zone's spots that the one before it worked out.
_counted: tuple[list[Cover], tuple[Cover, ...], dict[tuple[float, float], int]] = ([], (), {})


def _cover_near(cover: list[Cover], x: float, y: float) -> int:
    global _counted
    counted = _counted                 # read once: another thread's decision may put its own table's in its place
    if counted[0] is not cover:
        key = tuple(cover)
        counted = _counted = (cover, key, counted[2] if counted[1] == key else {})
    counts = counted[2]
    n = counts.get((x, y))
    if n is None:
        n = counts[(x, y)] = _count_cover(cover, x, y)
    return n


def _count_cover(cover: list[Cover], x: float, y: float) -> int:
    n = 0
    for f, cx, cy, (x0, y0, x1, y1) in cover:
        # The box test is the one ``Feature.holds`` starts with: a spot outside it is not in the piece.
        if x <= x1 and x0 <= x + EPS and y <= y1 and y0 <= y + EPS and f.holds(x, y):
            n += 2
        elif math.hypot(cx - x, cy - y) <= COVER_REACH + 2.0:
            n += 1
    return n


def _apart(box: Data) -> list[tuple[float, float, float]]:
    """The discs a spot must keep out of (centre x, centre y, radius)."""
    return [(d["centre"][0], d["centre"][1], d["radius"]) for d in (box.get("apart") or {}).values()]


def _bases(seen: Seen) -> list[tuple[float, float, float]]:
    """Every piece on the table, as (x, y, the distance a new base's centre keeps from it)."""
    pieces = list(seen.view["units"]) + list(seen.view["blips"]) + [o for o in seen.view["objectives"]]
    return [(p["x"], p["y"], (p.get("base", 1.0) + 1.0) / 2 + 0.05) for p in pieces]


def _free(box: Data, x: float, y: float, impassable: list[Any], apart: list[tuple[float, float, float]],
          bases: list[tuple[float, float, float]]) -> bool:
    if not (box["x"][0] <= x <= box["x"][1] and box["y"][0] <= y <= box["y"][1]):
        return False
    for cx, cy, r in apart:
        if math.hypot(x - cx, y - cy) < r:
            return False
    if any(f.holds(x, y) for f in impassable or ()):
        return False
    return all(math.hypot(px - x, py - y) >= keep for px, py, keep in bases)


def _spots(seen: Seen, box: Data, step: float = 1.0) -> list[tuple[float, float]]:
    bf = battlefield_from_view(seen.view)
    impassable = [f for f in bf.terrain if f.column(False).impassable]
    apart, bases = _apart(box), _bases(seen)
    out = []
    y = box["y"][0]
    while y <= box["y"][1] + 1e-9:
        x = box["x"][0]
        while x <= box["x"][1] + 1e-9:
            if _free(box, round(x, 2), round(y, 2), impassable, apart, bases):
                out.append((round(x, 2), round(y, 2)))
            x += step
        y += step
    return out


def _depth(seen: Seen, y: float) -> float:
    """How far (x, y) is from the computer's own edge: side A's edge is y = 0, side B's the far one."""
    return y if seen.me == "A" else seen.view["table"]["height"] - y


def edge(seen: Seen, la: LegalAction) -> tuple[Action, str]:
    features = _cover_pieces(seen)
    half = seen.view["table"]["height"] / 2
    near = sum(1 for f in features if (f.y < half) == (seen.me == "A"))
    far = len(features) - near
    if far > near:
        return la.action(turn=True), f"turns the table: {far} pieces of cover would be in its half, {near} as it stands"
    return la.action(turn=False), f"keeps its edge: {near} pieces of cover in its half, {far} in the other"


def objective(seen: Seen, la: LegalAction) -> tuple[Action, str]:
    box = la.free["x, y"]
    oid = la.args.get("objective", "")
    spots = _spots(seen, box)
    if not spots:
        return la.action(), f"lets the program place {oid}: no free spot found in its zone"
    features = _cover_pieces(seen)
    attacker = seen.view.get("attacker") == seen.me
    width = seen.view["table"]["width"]

    def score(p: tuple[float, float]) -> float:
        x, y = p
        central = -abs(x - width / 2) * 0.05
        if attacker:
            # Delta and epsilon as near the attacker as the defender's 25 % allows, in the open, toward the sides:
            # placed in the middle they left so little of the defender's half 8" from every objective that a
            # defender's alpha and beta could leave no room for gamma, and the set-up could not go on (A55).
            return float(-_depth(seen, y) - 0.5 * _cover_near(features, x, y) - 2 * central)
        return float(-_depth(seen, y) * 0.5 + min(_cover_near(features, x, y), 3) + central)

    ranked = sorted(spots, key=lambda p: (-score(p), p[0], p[1]))
    left = [o for o in OBJECTIVE_ORDER[OBJECTIVE_ORDER.index(oid) + 1:]] if oid in OBJECTIVE_ORDER else []
    # The objectives still to place (by either side) must keep room: never a spot that leaves none (A55).
    apart = [(d["centre"][0], d["centre"][1]) for d in (box.get("apart") or {}).values()]
    gap = max((d["radius"] for d in (box.get("apart") or {}).values()), default=9.0)
    impassable = [f for f in battlefield_from_view(seen.view).terrain if f.column(False).impassable]
    # The best spot that leaves room (each spot's check searches the zones: the first that passes is enough).
    x, y = next((p for p in ranked if _leaves_room(seen, p, apart, gap, left, impassable)), ranked[0])
    why = "as near its side as the zone allows, in the open" if attacker else "deep in its half beside cover"
    return la.action(x=x, y=y), f"places {oid} at ({x:g}, {y:g}): {why}"


def _leaves_room(seen: Seen, p: tuple[float, float], placed: list[tuple[float, float]], gap: float,
                 left: list[str], impassable: list[Any] | None = None) -> bool:
    """Can the objectives still to place stand somewhere after ``p`` (greedily, in the zones of A55, off impassable
    terrain: on a table of buildings the last free spots for gamma were inside them, and the set-up stopped)?"""
    width, height = seen.view["table"]["width"], seen.view["table"]["height"]
    attacker = seen.view.get("attacker")
    defender_low = (attacker == "B")             # the defender's edge is y = 0 when side A defends
    margin = 6.5 * float(seen.view.get("scale", 1.0))
    taken = [*placed, p]
    for oid in left:
        deep = height / 4 if oid in ("delta", "epsilon") else height / 2
        lo, hi = (0.0, deep) if defender_low else (height - deep, height)
        found = None
        y = max(lo, margin)
        while y <= min(hi, height - margin) + 1e-9 and found is None:
            x = margin
            while x <= width - margin + 1e-9:
                if all(math.hypot(x - a, y - b) >= gap for a, b in taken) and not any(
                        f.holds(x, y) for f in impassable or ()):
                    found = (x, y)
                    break
                x += 1.0
            y += 1.0
        if found is None:
            return False
        taken.append(found)
    return True


def cards(seen: Seen, la: LegalAction) -> tuple[Action, str]:
    missions = la.free.get("mission") or []
    troops = la.free.get("troop") or []

    def worth(mid: str) -> float:
        a = Aims.of(mission_card(mid))
        return a.kill + a.commander / 3

    args: dict[str, Any] = {}
    if missions:
        args["mission"] = max(missions, key=lambda m: (worth(m), m))
    if troops:
        args["troop"] = troops[0]
    return la.action(**args), f"plays mission {args.get('mission', 'as drawn')}: it pays most for fighting"


def holding(seen: Seen, la: LegalAction) -> tuple[Action, str]:
    free = la.free["squares"]
    units = list(free["units"])
    lo, hi = free["squares"]
    squares: dict[str, list[str]] = {}
    n = lo
    for uid in units:
        squares.setdefault(str(n), []).append(uid)
        n = n + 1 if n < hi else lo
    decoys = (hi - lo + 1) - len(squares)
    return la.action(squares=squares), f"one unit a square: {len(squares)} squares hold units, {decoys} are decoys"


def blip(seen: Seen, la: LegalAction, rng: random.Random) -> tuple[Action, str]:
    """One blip down: in turn a spot where cover is and one spread across the zone, by how many are down; which
    square goes there is drawn among those left, units or decoy alike. The opponent watches every blip go down:
    had the blips of units gone on the covered spots and the decoys between them, the cover about a blip and its
    place in the order would have told them apart."""
    box = la.free["x, y"]
    unused = sorted(la.free.get("square") or [])
    spots = _spots(seen, box, 1.5)
    if not spots or not unused:
        return la.action(), "lets the program place this blip: no free spot found in its zone"
    placed = [(b["x"], b["y"]) for b in seen.my_blips()]
    square = rng.choice(unused)
    if len(placed) % 2 == 0:
        features = _cover_pieces(seen)

        def covered(p: tuple[float, float]) -> tuple[float, ...]:
            spread = min((math.hypot(p[0] - x, p[1] - y) for x, y in placed), default=10.0)
            return (_cover_near(features, *p) + min(spread, 3.0) / 3.0, -_depth(seen, p[1]) * 0.05)

        x, y = max(spots, key=lambda p: (covered(p), -p[0], -p[1]))
        return la.action(x=x, y=y, square=square), f"places a blip at ({x:g}, {y:g}), where cover is"
    x, y = max(spots, key=lambda p: (min((math.hypot(p[0] - a, p[1] - b) for a, b in placed), default=99.0),
                                     -p[0], -p[1]))
    return la.action(x=x, y=y, square=square), f"places a blip at ({x:g}, {y:g}), spread across its zone"


def setup_decision(seen: Seen, legal: list[LegalAction], rng: random.Random) -> tuple[Action, str]:
    """``rng`` draws which of its squares a blip stands for: seeded from the computer's seed, never from a secret
    of the opponent's."""
    by_kind = {la.kind: la for la in legal}
    if Kind.PLACE_BLIP in by_kind:
        return blip(seen, by_kind[Kind.PLACE_BLIP], rng)
    if Kind.CHOOSE_EDGE in by_kind:
        return edge(seen, by_kind[Kind.CHOOSE_EDGE])
    if Kind.PLACE_OBJECTIVE in by_kind:
        return objective(seen, by_kind[Kind.PLACE_OBJECTIVE])
    if Kind.CHOOSE_CARDS in by_kind:
        return cards(seen, by_kind[Kind.CHOOSE_CARDS])
    if Kind.FILL_HOLDING in by_kind:
        return holding(seen, by_kind[Kind.FILL_HOLDING])
    la = legal[0]
    if la.kind == Kind.DRAW_CARDS:
        bought = "; in a Chance Encounter it buys no drones with its points [A42]" if la.free.get("purchase") else ""
        return la.action(), f"draws a mission, a troop card and a drone card, which only it sees [p.~9, A42]{bought}"
    return la.action(), {Kind.ROLL_ROLES: "rolls for attacker and defender"}.get(la.kind,
                                                                           f"{la.kind}: placed by the program")
