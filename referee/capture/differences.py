"""What the photo says changed on the table: each difference offered as the active unit's Move or as a correction.

The last known table is the battle's state. A unit that stands where the program has it (within what a photo can
tell: 0.2" and 5 degrees) is no difference; any other unit, blip, objective or terrain piece that the photo read is
one, with the action the players may accept: the active unit's **Move** (the engine's own Move, its facing given by
the path's last leg as p.18 and A13 have it, so the photo's facing is reached by a last half inch that way), or a
referee's **correction** (``game/play/corrections.py``) for everything else. Each proposal is checked by the engine before
it is offered; a Move the engine refuses is shown with the rule. Blips are counters on the real table: a photo only
ever moves them, it never says what they hold. Nothing here changes the battle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..game.battle.action_kinds import Kind
from ..game.battle.intents import Action
from ..game.play.session import preview
from ..game.battle.state import GameState
from .photo import PieceReading, Problem, TableReading
from .plan import MarkerPlan

MOVED = 0.2          # inches: closer than this, a piece has not moved (the photo's p95 error is half of it)
TURNED = 5.0         # degrees: a smaller change of facing is not a turn
DRIFTED = 0.3        # inches: a terrain corner moved less than this has not drifted
LAST_LEG = 0.5       # inches: the last leg of a photo-read Move that gives its facing


@dataclass
class Difference:
    piece: str
    kind: str                       # unit, blip, objective, terrain
    text: str                       # "b-tactical-1 moved 4.2" to (24.5, 27.5), facing 250°"
    action: Action
    as_move: bool                   # the active unit's Move (else a correction)
    legal: bool
    reason: str = ""                # the engine's rule, when it refuses
    confidence: float = 1.0
    distance: float = 0.0
    was: tuple[float, float] | None = None     # where the battle had it (a terrain piece: its centre)

    def line(self) -> str:
        how = "as its Move" if self.as_move else "as a correction"
        verdict = f"accept {how}" if self.legal else f"refused: {self.reason}"
        return f"{self.text} (confidence {self.confidence:.2f}) - {verdict}"


def _angle(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def _r(v: float, step: float = 0.1) -> float:
    return round(round(v / step) * step, 3)


def differences(state: GameState, reading: TableReading, plan: MarkerPlan) -> list[Difference]:
    """Every piece the photo reads somewhere other than the last known table, as an action to accept."""
    out: list[Difference] = []
    active = state.turn.active if state.turn is not None and state.turn.actions_left > 0 else None
    for piece in sorted(reading.pieces.values(), key=lambda p: p.piece):
        d = _difference(state, piece, plan, active)
        if d is not None:
            out.append(d)
    return out


def still_missing(state: GameState, reading: TableReading) -> list[Problem]:
    """The reading's problems that still concern this table (a piece destroyed since set-up is not missed); a
    piece not found is given where the photo should show it, to ring it there."""
    spots = {u.id: (u.x, u.y) for u in state.units.values()} | {b.id: (b.x, b.y) for b in state.blips.values()} \
        | {o.id: (o.x, o.y) for o in state.objectives.values() if not o.destroyed}
    for t in state.terrain:
        if t.polygon is not None:
            spots[t.id] = (sum(p[0] for p in t.polygon) / len(t.polygon), sum(p[1] for p in t.polygon) / len(t.polygon))
    out = []
    for p in reading.problems:
        if p.piece and p.piece not in spots:
            continue
        if p.kind == "not-found" and p.at is None:
            p.at = reading.in_photo(*spots[p.piece])
        out.append(p)
    return out


def _difference(state: GameState, p: PieceReading, plan: MarkerPlan, active: str | None) -> Difference | None:
    if p.kind == "terrain":
        return _terrain(state, p, plan)
    x, y = _r(p.x), _r(p.y)
    if p.piece in state.units:
        u = state.units[p.piece]
        dist = math.hypot(p.x - u.x, p.y - u.y)
        facing = None if u.is_drone or p.facing is None else round(p.facing) % 360
        turned = facing is not None and _angle(facing, u.facing) > TURNED
        if dist < MOVED and not turned:
            return None
        where = f"moved {dist:.1f}\" to ({x:g}, {y:g})" if dist >= MOVED else f"stands at ({u.x:g}, {u.y:g})"
        face = f", facing {facing}°" if facing is not None and (turned or dist >= MOVED) else ""
        text = f"{p.piece} {where}{face}"
        if p.piece == active and dist >= MOVED:
            return _move(state, p.piece, u.x, u.y, x, y, facing, text, p.confidence, dist)
        changes: dict[str, object] = {}
        if dist >= MOVED:
            changes.update(x=x, y=y)
        if turned:
            changes["facing"] = float(facing or 0)
        return _checked(state, Difference(p.piece, "unit", text, Action(Kind.CORRECT, p.piece, changes), False, True,
                                          confidence=p.confidence, distance=dist))
    if p.piece in state.blips:
        b = state.blips[p.piece]
        dist = math.hypot(p.x - b.x, p.y - b.y)
        if dist < MOVED:
            return None
        text = f"{p.piece} moved {dist:.1f}\" to ({x:g}, {y:g})"
        if p.piece == active:
            return _move(state, p.piece, b.x, b.y, x, y, None, text, p.confidence, dist)
        return _checked(state, Difference(p.piece, "blip", text, Action(Kind.CORRECT, p.piece, {"x": x, "y": y}), False,
                                          True, confidence=p.confidence, distance=dist))
    o = state.objectives.get(p.piece)
    if o is not None and not o.destroyed:
        dist = math.hypot(p.x - o.x, p.y - o.y)
        if dist < MOVED:
            return None
        text = f"{p.piece} drifted {dist:.1f}\" to ({x:g}, {y:g})"
        return _checked(state, Difference(p.piece, "objective", text, Action(Kind.CORRECT, p.piece, {"x": x, "y": y}),
                                          False, True, confidence=p.confidence, distance=dist))
    return None


def _move(state: GameState, ident: str, x0: float, y0: float, x: float, y: float, facing: int | None, text: str,
          confidence: float, dist: float) -> Difference:
    """The active unit's Move to where the photo has it; a trooper's facing comes from the path's last leg (p.18,
    A13), so a facing other than the way it went adds a last half inch in that direction."""
    args: dict[str, object] = {"x": x, "y": y}
    if facing is not None:
        along = math.degrees(math.atan2(y - y0, x - x0)) % 360.0
        if _angle(along, facing) > TURNED:
            f = math.radians(facing)
            args["via"] = [[_r(x - LAST_LEG * math.cos(f), 0.01), _r(y - LAST_LEG * math.sin(f), 0.01)]]
    d = Difference(ident, "unit" if ident in state.units else "blip", text, Action(Kind.MOVE, ident, args), True, True,
                   confidence=confidence, distance=dist)
    return _checked(state, d)


def _checked(state: GameState, d: Difference) -> Difference:
    piece = state.units.get(d.piece) or state.blips.get(d.piece) or state.objectives.get(d.piece)
    if piece is not None:
        d.was = (piece.x, piece.y)
    p = preview(state, d.action)
    d.legal, d.reason = p.legal, "" if p.legal else p.reason
    return d


def _turn_between(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> float:
    """Degrees that carry outline ``a`` onto ``b`` (same corners in the same order), about their centres."""
    ax, ay = sum(p[0] for p in a) / len(a), sum(p[1] for p in a) / len(a)
    bx, by = sum(p[0] for p in b) / len(b), sum(p[1] for p in b) / len(b)
    cross = sum((p[0] - ax) * (q[1] - by) - (p[1] - ay) * (q[0] - bx) for p, q in zip(a, b))
    dot = sum((p[0] - ax) * (q[0] - bx) + (p[1] - ay) * (q[1] - by) for p, q in zip(a, b))
    return math.degrees(math.atan2(cross, dot))


def _terrain(state: GameState, p: PieceReading, plan: MarkerPlan) -> Difference | None:
    t = next((t for t in state.terrain if t.id == p.piece), None)
    if t is None or t.polygon is None or p.outline is None or len(t.polygon) != len(p.outline):
        return None
    now = [(float(q[0]), float(q[1])) for q in t.polygon]
    worst = max(math.dist(a, b) for a, b in zip(now, p.outline))
    if worst < DRIFTED:
        return None
    cx, cy = sum(q[0] for q in now) / len(now), sum(q[1] for q in now) / len(now)
    dist = math.hypot(p.x - cx, p.y - cy)
    turn = _turn_between(now, p.outline)
    turned = f", turned {turn:+.0f}°" if abs(turn) >= 1.0 else ""
    text = f"{p.piece} drifted {dist:.1f}\"{turned}"
    polygon = [[_r(q[0]), _r(q[1])] for q in p.outline]
    return _checked(state, Difference(p.piece, "terrain", text, Action(Kind.CORRECT, p.piece, {"polygon": polygon}), False,
                                      True, confidence=p.confidence, distance=dist))
