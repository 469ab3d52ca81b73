"""Legal actions, as OpenSpiel's ``legal_actions()``: for the side to act, every action it may take now.

Each ``LegalAction`` is an action in the save's format (``kind``, ``actor``, ``args``) plus ``free``: the parameters
the player still chooses, with their ranges -- a Move's reachable region, a Target's dice and the price of a counter
on each piece it may Target, the points a flamer's smoke may be centred on. An action whose target is a choice (fire,
Command, Repair) is listed once per target the engine accepts. The window enables its buttons from this list and
random play proposes from it.

Whether an action is allowed is always the engine's own check (its kind's ``action_table.RULES[kind].check``), run on
the state without copying it: listing every legal action copies nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..battle.action_kinds import AT_A_TARGET, Kind
from ...rules.battlefield import Battlefield, Piece
from ...rules.movement import JUMP_DISTANCE, MOVE_ALLOWANCE, can_jump
from ...rules.targeting import can_target, sensor_dice_limit, target_price
from ..battle.intents import Action, LegalAction
from .action_table import RULES, Check
from .actions import FLAMER_REACH, SMOKE_DIAMETER, UNIT_ACTIONS, check_unit_action
from .effects import Ctx, Refused
from ..battle.state import SIDES, GameState
from .turns import activation_in_progress, can_activate_more
from .setup_steps import deciding_side, setup_legal

# "offered": the side whose offer to stop the other did not agree to (only with no stop and no Withdraw).
END_OF_ROUND_FREE = {"withdraw": [None, "A", "B", "both"], "answer": ["allow", "pursue"], "stop": [False, True],
                     "offered": [None, "A", "B"]}
PER_TARGET = AT_A_TARGET


class _Reading(Ctx):
    """A context for checks only: the battlefield is built once, and nothing is written."""

    _bf: Battlefield | None = None

    def bf(self) -> Battlefield:
        if self._bf is None:
            self._bf = self.state.battlefield()
        return self._bf


def to_act(state: GameState) -> str | None:
    """The side whose decision the battle waits for (None at the end of a round, when either may speak)."""
    if state.phase == "action" and state.turn is not None:
        return state.turn.player
    if state.phase == "setup":

        return deciding_side(state)
    if state.phase == "over" and state.result is not None and state.result.pending == "objectives":
        return state.attacker
    return None


def battle_over(state: GameState) -> bool:
    """The battle is over, with no choice of the attacker's still pending (its objectives to set, p.~12)."""
    return state.phase == "over" and not (state.result is not None and state.result.pending)


def legal_actions(state: GameState, side: str | None = None) -> list[LegalAction]:
    """Every action ``side`` (default: the side to act) may take now; empty when it is not that side's call.

    The owner of troopers just revealed may first face each of them (A13), in whichever side's turn: those ``face``
    actions come first (any other action leaves them at their default facing)."""
    side = side or to_act(state)
    if side not in SIDES:
        return []
    if state.phase == "setup":

        return [LegalAction(kind, actor, args, free) for kind, actor, args, free in setup_legal(state, side)]
    faces = [LegalAction(Kind.FACE, uid, {}, {"facing": [0.0, 360.0]}) for uid in state.to_face
             if uid in state.units and state.units[uid].side == side]
    # A unit just revealed that is not faced (a drone) may still be placed by its owner (A66).
    faces += [LegalAction(Kind.FACE, uid, {}, {}) for uid in state.to_place
              if uid in state.units and state.units[uid].side == side and uid not in state.to_face]
    return faces + _legal(state, side)


def _legal(state: GameState, side: str) -> list[LegalAction]:
    if state.phase == "end-of-round":
        return [LegalAction(Kind.END_OF_ROUND, "", {}, dict(END_OF_ROUND_FREE))]
    if state.phase == "over":
        if to_act(state) != side:
            return []
        result = state.result
        return [LegalAction(Kind.OBJECTIVES, "", {}, {o: list(result.choices) for o in result.objectives}
                            if result is not None else {})]
    t = state.turn
    if state.phase != "action" or t is None or t.player != side:
        return []
    if state.pool is not None:
        return _spending_the_pool(state)
    if not activation_in_progress(state):
        out = []
        if can_activate_more(state):
            for ident in state.with_counter(side):
                for extra in (False, True):
                    if extra and ident not in state.blips:
                        continue
                    a = Action(Kind.ACTIVATE, ident, {"extra": True} if extra else {})
                    if _accepted(state, a):
                        out.append(LegalAction(a.kind, a.actor, a.args))
        out.append(LegalAction(Kind.END_TURN))
        return out
    out = list(_unit_actions(state, t.active)) if t.active is not None and t.actions_left > 0 else []
    out.append(LegalAction(Kind.END_ACTIVATION))
    return out


def _accepted(state: GameState, action: Action) -> bool:
    """The activation's own check (``RULES[Kind.ACTIVATE].check``), on the state as it stands: no copy."""
    try:
        _check(Kind.ACTIVATE)(_Reading(state), action)
    except Refused:
        return False
    return True


def _ok(ctx: Ctx, action: Action) -> bool:
    try:
        _check(action.kind)(ctx, action)          # who may, then the action's own check
    except Refused:
        return False
    return True


def _check(kind: str) -> Check:
    check = RULES[kind].check
    if check is None:
        raise ValueError(f"{kind} is checked only as it resolves")
    return check


def _may(ctx: Ctx, kind: str, actor: str) -> bool:
    try:
        check_unit_action(ctx, Action(kind, actor))
    except Refused:
        return False
    return True


def _disc(p: Piece, radius: float) -> dict[str, Any]:
    return {"centre": [p.x, p.y], "radius": radius}


def reading(state: GameState) -> Ctx:
    """A context for ``offers`` on ``state``: its battlefield built once for every question asked of that state."""
    return _Reading(state)


def offers(state: GameState, kind: str, actor: str = "", ctx: Ctx | None = None) -> bool:
    """Whether ``legal_actions(state)`` lists an action of ``kind`` by ``actor`` (``"extra"``: an extra blip
    activation), found by the same checks but stopping at the first one accepted and pricing no Target: what enables
    a button, asked several times after every action (``ctx``: ``reading(state)``, shared by those questions)."""
    t = state.turn
    side = to_act(state)
    if state.pool is not None and kind != Kind.FACE:
        # A sensor pool rolled waits for the Target that spends it: nothing else is offered (p.19, ``pool.py``).
        return kind == Kind.TARGET and actor == state.pool["actor"]
    if kind == Kind.SENSOR_POOL:
        # The pool is the first half of a Target: offered wherever the Target is (not listed on its own, as a
        # Target already says its dice).
        kind = Kind.TARGET
    if side in SIDES and state.phase == "action" and t is not None and t.player == side \
            and activation_in_progress(state):
        # What ``_legal`` lists while a unit is being activated: faces, the unit's actions, the end of activation.
        if kind == Kind.END_ACTIVATION:
            return actor == ""
        if kind == Kind.FACE:
            return actor in state.to_face and actor in state.units and state.units[actor].side == side
        if kind not in (*UNIT_ACTIONS, Kind.REVEAL) or t.active is None or actor != t.active or t.actions_left <= 0:
            return False
        return next(_unit_actions(state, actor, kind, priced=False, ctx=ctx), None) is not None
    extra = kind == "extra"
    kind = Kind.ACTIVATE if extra else kind
    return any(a.kind == kind and a.actor == actor and (kind != Kind.ACTIVATE or bool(a.args.get("extra")) == extra)
               for a in legal_actions(state))


def _spending_the_pool(state: GameState) -> list[LegalAction]:
    """While a sensor pool waits for its counters, the one action left: the Target of its actor, with its dice."""
    assert state.pool is not None
    actor, dice = str(state.pool["actor"]), int(state.pool["dice"])
    return [LegalAction(a.kind, a.actor, a.args, {**a.free, "dice": [dice, dice]})
            for a in _unit_actions(state, actor, Kind.TARGET)]


def _unit_actions(state: GameState, actor: str, only: str | None = None, priced: bool = True,
                  ctx: Ctx | None = None) -> Iterator[LegalAction]:
    """The actions ``actor`` may take in its activation, one by one (``only``: of that kind; ``priced``: with each
    piece's price in a Target's free parameters, else none)."""
    ctx = ctx if ctx is not None and ctx.state is state else _Reading(state)
    bf = ctx.bf()
    me = bf.piece(actor)
    t = state.turn
    if only in (None, "reveal") and actor in state.blips and t is not None and t.activation_kind == "primary":
        yield LegalAction(Kind.REVEAL, actor, {}, {"facing": [0.0, 360.0]})
    for kind in UNIT_ACTIONS:
        if only not in (None, kind) or not _may(ctx, kind, actor):
            continue
        if kind == Kind.MOVE:
            yield LegalAction(kind, actor, {}, {
                "x, y": {"within": _disc(me, bf.distance(MOVE_ALLOWANCE)), "not_in": _impassable(bf, me),
                         "path": "a path's cost counts hindering terrain double [p.18]; the preview gives it"},
                "via": "optional waypoints [[x, y], ...] before the end point"})
        elif kind == Kind.JUMP and not can_jump(bf, me):
            yield LegalAction(kind, actor, {}, {"x, y": {"within": _disc(me, bf.distance(JUMP_DISTANCE))}})
        elif kind == Kind.TARGET and can_target(me)[0]:
            prices = {}
            for p in bf.pieces.values() if priced else ():
                # Itself and a friendly unit are never allowed (``target_price``): not priced at all, since a price
                # measures the cover between, which is most of what listing a Target costs.
                if p.id == actor or (not p.is_objective and p.side == me.side):
                    continue
                price = target_price(bf, me, p)
                if price.allowed:
                    prices[p.id] = {"price": price.price, "eaten": price.eaten, "eaten_price": price.eaten_price}
            yield LegalAction(kind, actor, {}, {"dice": [1, sensor_dice_limit(me)], "assign": prices})
        elif kind in PER_TARGET:
            # a missile may also be aimed at a patch of ground holding Target counters (A28, A54)
            for p in [*bf.pieces.values(), *(bf.ground.values() if kind == Kind.MISSILE else ())]:
                a = Action(kind, actor, {"target": p.id})
                if p.id != actor or kind == Kind.REPAIR:
                    if _ok(ctx, a):
                        yield LegalAction(kind, actor, dict(a.args))
        elif kind == Kind.FLAMER:
            yield LegalAction(kind, actor, {}, {"x, y": {"within": _disc(me, bf.distance(FLAMER_REACH)),
                                                         "arc": {"facing": me.facing, "width": 180.0}},
                                                "radius": SMOKE_DIAMETER / 2 * bf.scale})
        elif kind == Kind.KAMIKAZE:
            targets = [p.id for p in bf.pieces.values()
                       if p.id != actor and not p.is_blip and (p.is_objective or p.side != me.side)]
            yield LegalAction(kind, actor, {}, {
                "x, y": {"within": _disc(me, bf.distance(MOVE_ALLOWANCE)), "not_in": _impassable(bf, me)},
                "jump": {"x, y": {"within": _disc(me, bf.distance(JUMP_DISTANCE))}} if not can_jump(bf, me) else None,
                "target": targets})
        elif kind in (Kind.SCRAMBLE, Kind.JAMMER):
            if _ok(ctx, Action(kind, actor)):
                yield LegalAction(kind, actor)


def _impassable(bf: Battlefield, me: Piece) -> list[str]:
    return [f.id for f in bf.terrain if f.column(me.is_drone).impassable]
