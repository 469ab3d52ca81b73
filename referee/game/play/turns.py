"""Rounds, turns and activations (p.16, A20-A22, A38, A43): who may act now, and what ends a round or the game.

Turn-level actions:
  activate U [--extra]   start a primary activation (or an extra blip activation) of a unit or blip
  <unit action>          an action of the unit being activated (see actions.py)
  reveal BLIP            voluntary reveal, only in the blip's own primary activation (A19)
  end-activation         give up the rest of the activation
  end-turn               end the turn; a turn with no activation is a pass (A22)
  end-of-round           announce Withdraw (and the answer: allow or pursue) or agree to stop, then continue
  objectives             the attacker, controlling the table, sets each surviving objective (R22)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..battle.action_kinds import Kind
from ..battle.intents import Action
from .actions import unit_action
from ..battle.dice import Rolling
from .effects import (Ctx, Refused, d6, destroy, face_revealed, jammer_fields_over, new_damage, place_revealed,
                      reveal_blip)
from ..battle.state import SIDES, GameState, TurnState, other
from .victory import attacker_sets_objectives, settle_objectives_on_control
from .victory import round_limit as mission_round_limit

TAKE_BACK_RULE = "fair Undo"

EXTRA_BLIPS = 3


def actions_per_activation(s: GameState, ident: str) -> int:
    """Troopers get 2 actions, drones and blips 1 (p.16)."""
    u = s.units.get(ident)
    return 2 if u is not None and not u.is_drone else 1


def counted(s: GameState, side: str) -> int:
    """Units with activation counters for Multiple Activations: every unit, each blip counting once (A21)."""
    rules = s.rulings_in_force()
    if rules.reads("A21", "B"):
        return sum(1 for u in s.units.values() if u.side == side and u.activation)
    return len(s.with_counter(side))


def primary_allowance(s: GameState, side: str) -> tuple[int, str]:
    mine, theirs = counted(s, side), counted(s, other(side))
    rules = s.rulings_in_force()
    if theirs == 0 and mine > 0:
        n = 3
    elif mine >= 3 * theirs:
        n = 3
    elif mine >= 2 * theirs:
        n = 2
    else:
        n = 1
    return n, f"side {side} has {mine} units with counters against {theirs}: {n} activation{'s' if n > 1 else ''} [p.16, {rules.label('A21')}]"


def start_turn(ctx: Ctx, side: str) -> None:
    s = ctx.state
    n, why = primary_allowance(s, side)
    s.turn = TurnState(player=side, primary_allowed=n)
    ctx.event(f"side {side}'s turn: {n} activation{'s' if n > 1 else ''} and up to {EXTRA_BLIPS} extra blip activations",
              why)


def activation_in_progress(s: GameState) -> bool:
    return s.turn is not None and (s.turn.active is not None or bool(s.turn.queue))


def can_activate_more(s: GameState) -> bool:
    t = s.turn
    if t is None:
        return False
    mine = s.with_counter(t.player)
    if t.primary_used < t.primary_allowed and t.extra_blips_used == 0 and mine:
        return True
    if t.primary_used >= 1 and t.extra_blips_used < EXTRA_BLIPS:
        return any(b.side == t.player and b.activation for b in s.blips.values())
    return False


# ---- activation ---------------------------------------------------------------------------------


def check_activate(ctx: Ctx, action: Action) -> None:
    """Whether ``action`` may start an activation now (p.16, A21): reads the state and changes nothing."""
    s = ctx.state
    t = s.turn
    if s.phase != "action" or t is None:
        raise Refused(f"units activate only in the action phase (now: {s.phase}) [p.16]")
    if activation_in_progress(s):
        raise Refused(f"{t.active or t.queue[0]} is still being activated; finish it first [p.16]")
    ident = action.actor
    thing = s.unit_or_blip(ident)
    if thing is None:
        raise Refused(f"there is no unit {ident!r} on the table")
    if thing.side != t.player:
        raise Refused(f"it is side {t.player}'s turn [p.16]")
    if not thing.activation:
        raise Refused(f"{ident} has no activation counter [p.16]")
    if action.args.get("extra"):
        if ident not in s.blips:
            raise Refused("only blips take the extra activations [p.16]")
        if t.primary_used < 1:
            raise Refused("extra blip activations come after the turn's activation [p.16, A21]")
        if t.extra_blips_used >= EXTRA_BLIPS:
            raise Refused(f"at most {EXTRA_BLIPS} extra blip activations a turn [p.16, A21]")
    else:
        if t.extra_blips_used:
            raise Refused("the turn's extra blip activations have begun: no further primary activation [p.16]")
        if t.primary_used >= t.primary_allowed:
            raise Refused(f"side {t.player} has used its {t.primary_allowed} activation{'s' if t.primary_allowed > 1 else ''} "
                          f"this turn; only extra blip activations remain [p.16, A21]")


def activate(ctx: Ctx, action: Action) -> Rolling[None]:
    check_activate(ctx, action)
    s = ctx.state
    t = s.turn_now()
    ident = action.actor
    thing = s.unit_or_blip(ident)
    assert thing is not None            # check_activate refuses an activation of nothing on the table
    extra = bool(action.args.get("extra"))
    if extra:
        t.extra_blips_used += 1
        t.activation_kind = "extra"
    else:
        t.primary_used += 1
        t.activation_kind = "primary"
    thing.activation = False
    t.acted = True
    t.active = ident
    t.actions_left = actions_per_activation(s, ident)
    s.passes_in_row = 0
    ctx.event(f"{ident} activates ({'extra blip activation' if extra else 'activation'} {t.extra_blips_used if extra else t.primary_used})",
              "[p.16]", units=[ident])
    u = s.units.get(ident)
    if u is not None and not u.is_drone and u.stunned:
        roll = yield d6(f"stun recovery for {ident}", "p.25", "1-2 stands up")
        if roll <= 2:
            u.stunned = False
            ctx.event(f"{ident} recovers from the stun ({roll}) and acts normally", "[p.25]", units=[ident])
        else:
            ctx.event(f"{ident} stays down ({roll}): the activation is spent", "[p.25]", units=[ident])
            t.actions_left = 0
            yield from end_activation(ctx)


def end_activation(ctx: Ctx, skip_queue: bool = False) -> Rolling[None]:
    """The jammer test runs once, when a unit's own activation ends (A38); then the next revealed unit acts.

    With ``skip_queue`` the revealed units still waiting give up their actions: their activation ends too.
    """
    s = ctx.state
    t = s.turn_now()
    ident = t.active
    t.active = None
    t.actions_left = 0
    if ident is not None:
        yield from jammer_test(ctx, ident)
    if skip_queue:
        skipped, t.queue = t.queue, []
        for uid in skipped:
            yield from jammer_test(ctx, uid)
    while t.queue:
        nxt = t.queue.pop(0)
        if nxt in s.units:
            t.active = nxt
            t.actions_left = actions_per_activation(s, nxt)
            ctx.note(f"{nxt} now takes its {t.actions_left} action{'s' if t.actions_left > 1 else ''} [p.17]")
            return
    yield from maybe_end_turn(ctx)


def jammer_test(ctx: Ctx, ident: str) -> Rolling[None]:
    s = ctx.state
    if ident not in s.units and ident not in s.blips:
        # A blip revealed during its own activation: its units end that activation where they stand (A38).
        for uid in ctx.revealed.get(ident, []):
            yield from jammer_test(ctx, uid)
        return
    fields = jammer_fields_over(s, ident)
    if not fields:
        return
    rules = s.rulings_in_force()
    where = ", ".join(fields)
    if ident in s.blips:
        ctx.note(f"{ident} ends its activation in the jamming field of {where}: revealed [p.23, {rules.label('A38')}]")
        for uid in reveal_blip(ctx, ident, cause=f"ended its activation in {where}'s jamming field"):
            yield from jammer_test(ctx, uid)
        return
    u = s.units[ident]
    if u.is_drone:
        destroy(ctx, ident, f"ended its activation in the jamming field of {where} [p.23, A38]")
        return
    arm = s.battlefield().piece(ident).stat("armour")
    roll = yield d6(f"jammer test for {ident}", "p.23, A38", f"{arm} or less passes")
    if roll > arm:
        new_damage(ctx, ident, f"jamming field of {where} ({roll} against Armour {arm})", "p.23, A38")
    else:
        ctx.event(f"{ident} passes the jammer test ({roll} against Armour {arm})", "[p.23, A38]", units=[ident])


def unit_turn_action(ctx: Ctx, action: Action) -> Rolling[bool]:
    s = ctx.state
    t = s.turn
    if s.phase != "action" or t is None:
        raise Refused(f"actions are taken in the action phase (now: {s.phase}) [p.16]")
    if action.kind == Kind.REVEAL:
        if t.active != action.actor or action.actor not in s.blips:
            raise Refused("a blip may be revealed voluntarily only during its own activation [p.17, A19]")
        if t.activation_kind != "primary":
            raise Refused("no voluntary reveal in the extra blip activations [p.16, A19]")
        before = t.actions_left
        responded = yield from unit_action(ctx, action)
        made = ctx.revealed.get(action.actor, [])
        if before > 0:
            # Revealed before acting: each unit gets its full actions, one unit after the other (p.17).
            t.active = None
            t.queue = list(made)
        else:
            # The blip's activation ends with its units on the table (the jammer test sees them, A38).
            ctx.note("revealed after the blip's action: the units have no actions left [p.17]")
            t.queue = []
        yield from end_activation(ctx)
        return responded
    if t.active != action.actor:
        who = t.active or "no unit"
        raise Refused(f"{action.actor} is not being activated (now: {who}); activate it first [p.16]")
    if t.actions_left <= 0:
        raise Refused(f"{action.actor} has no actions left [p.16]")
    responded = yield from unit_action(ctx, action)
    t.actions_left -= 1
    if action.kind == Kind.SCRAMBLE:
        t.actions_left = 0
        ctx.note("a Scramble ends the unit's activation: any remaining action is lost [A23]")
    gone = action.actor not in s.units and action.actor not in s.blips
    revealed_mover = ctx.revealed.get(action.actor)
    if revealed_mover is not None:
        # A blip revealed by its own move: its units have no actions left (p.17).
        t.actions_left = 0
    if gone or t.actions_left <= 0:
        if action.actor in s.blips and t.activation_kind == "primary" and not gone:
            return responded    # the owner may still reveal it (p.17 Example 3); end-activation closes it
        if gone and revealed_mover is None:
            t.active = None
        yield from end_activation(ctx)
    return responded


def end_activation_action(ctx: Ctx, action: Action) -> Rolling[None]:
    s = ctx.state
    if s.turn is None or not activation_in_progress(s):
        raise Refused("no activation is in progress")
    yield from end_activation(ctx, skip_queue=bool(action.args.get("all")))


def maybe_end_turn(ctx: Ctx) -> Rolling[None]:
    """When the player has nothing left to activate, the turn passes on by itself."""
    s = ctx.state
    if s.phase == "action" and not activation_in_progress(s) and not can_activate_more(s):
        yield from end_turn(ctx, automatic=True)


def end_turn(ctx: Ctx, automatic: bool = False) -> Rolling[None]:
    s = ctx.state
    t = s.turn_now()
    if activation_in_progress(s):
        raise Refused(f"{t.active or t.queue[0]} is still being activated; end its activation first [p.16]")
    side = t.player
    if not t.acted:
        s.passes_in_row += 1
        ctx.event(f"side {side} passes" + (" (no activation counters left)" if automatic else ""), "[p.16, A22]")
    else:
        s.passes_in_row = 0
    a_left, b_left = s.with_counter("A"), s.with_counter("B")
    if (not a_left and not b_left) or s.passes_in_row >= 2:
        yield from end_action_phase(ctx)
        return
    nxt = other(side)
    start_turn(ctx, nxt)
    if not s.with_counter(nxt):
        yield from end_turn(ctx, automatic=True)


def end_action_phase(ctx: Ctx) -> Rolling[None]:
    s = ctx.state
    s.turn = None
    s.phase = "end-of-round"
    ctx.event(f"end of round {s.round}: every activation counter is used or both players passed", "[p.16, A22]")
    return
    yield


# ---- end of round, game end ----------------------------------------------------------------------


def end_of_round(ctx: Ctx, action: Action) -> Rolling[None]:
    """Withdraw, pursuit, agreeing to stop, or one side without troopers ends the game (p.16, A43)."""
    s = ctx.state
    if s.phase != "end-of-round":
        raise Refused(f"the end-of-round checks come when the round is over (now: {s.phase}) [p.16]")
    a = action.args
    withdraw = a.get("withdraw")        # "A", "B", "both" or None
    answer = a.get("answer", "allow")   # the opponent's answer to a Withdraw: allow or pursue
    stop = bool(a.get("stop"))
    offered = a.get("offered")          # the side whose offer to stop the other declined
    if offered is not None and (stop or withdraw is not None):
        raise Refused("an offer to stop is declined only when the battle goes on: not with a stop or a Withdraw "
                      "[p.16, A43]")
    pursuit = s.pursuit
    alive = {side: s.may_have_troopers(side) for side in SIDES}
    if pursuit:
        # The pursuit round is over: control goes to the only side with troopers, else Contested (p.16).
        survivors = [side for side in SIDES if alive[side]]
        finish(ctx, survivors[0] if len(survivors) == 1 else None, "after the pursuit round")
        return
    survivors = [side for side in SIDES if alive[side]]
    if len(survivors) <= 1:
        finish(ctx, survivors[0] if survivors else None,
               "only one side has troopers left" if survivors else "both sides have lost all their troopers (A43)")
        return
    if withdraw == "both":
        finish(ctx, None, "both players withdraw (A43)")
        return

    round_limit = mission_round_limit(s)
    last = bool(round_limit) and s.round >= int(round_limit or 0)
    said = a.get("limit")
    if said is not None:
        # A side whose cards are kept on its own computer says its own mission's round limit is reached (A43): the
        # host cannot read it; the claim is checked when the cards are opened at the end (``corrections``).
        kept = s.card_commitments.get(str(said))
        if kept is None or kept.get("checked"):
            raise Refused(f"limit: only a side whose cards are kept on its own computer says its own round limit "
                          f"is reached (got {said!r}) [A43]")
        kept["limit_said"] = s.round
        if not last:
            round_limit, last = s.round, True
    if withdraw in SIDES:
        if answer == "pursue" and last:
            # The mission card ends the battle after this round (A43: a card's round limit stands), so the pursuit
            # has no round to be played in; as after a pursuit round, both sides still have troopers (p.16).
            ctx.event(f"side {withdraw} withdraws; side {other(withdraw)} pursues, but the mission's round limit of "
                      f"{round_limit} is reached: no round is left to pursue in [p.16, A43]")
            finish(ctx, None, "a pursuit cut short by the mission's round limit: both sides have troopers (p.16, A43)")
            return
        if answer == "pursue":
            s.pursuit = withdraw
            ctx.event(f"side {withdraw} withdraws; side {other(withdraw)} pursues: one more round [p.16, A43]")
        else:
            finish(ctx, other(withdraw), f"side {withdraw} withdraws and side {other(withdraw)} allows it")
            return
    elif stop:
        finish(ctx, None, "both players agree to stop")
        return
    if offered in SIDES:
        ctx.event(f"side {offered} offers to stop; side {other(offered)} does not agree: the battle goes on "
                  "[p.16, A43]")
    if last:
        finish(ctx, None, f"the mission's round limit of {round_limit} is reached (A43)")
        return
    yield from next_round(ctx)


def next_round(ctx: Ctx) -> Rolling[None]:
    """Refresh every counter, then roll for the Initiative (tie: the holder passes it, p.16)."""
    s = ctx.state
    s.round += 1
    s.phase = "action"
    for u in s.units.values():
        u.activation = True
    for b in s.blips.values():
        b.activation = True
    ctx.event(f"round {s.round}: Refresh, every unit and blip takes an activation counter", "[p.16]")
    a = yield d6("Initiative roll for side A", "p.16", "high takes the Initiative")
    b_roll = yield d6("Initiative roll for side B", "p.16", "high takes the Initiative")
    if a > b_roll:
        s.initiative = "A"
    elif b_roll > a:
        s.initiative = "B"
    else:
        s.initiative = other(s.initiative)
    why = "a tie: the holder passes it on" if a == b_roll else "the higher roll takes it"
    ctx.event(f"Initiative: A rolls {a}, B rolls {b_roll}; side {s.initiative} holds the Initiative ({why})", "[p.16]")
    s.passes_in_row = 0
    start_turn(ctx, s.initiative)
    if not s.with_counter(s.initiative):
        yield from end_turn(ctx, automatic=True)


def finish(ctx: Ctx, controller: str | None, why: str) -> None:
    s = ctx.state
    s.control = controller
    s.phase = "over"
    s.turn = None
    if controller is None:
        ctx.event(f"the battle ends: the table is Contested ({why})", "[p.16]")
    else:
        ctx.event(f"the battle ends: side {controller} Controls the Table ({why})", "[p.16]")

    settle_objectives_on_control(ctx)


# ---- the dispatcher ------------------------------------------------------------------------------


def face_action(ctx: Ctx, action: Action) -> Rolling[None]:
    """The owner faces a trooper just revealed (A13), or places the second unit of its square (A66); the only
    action that leaves the other troopers still to face as they are."""
    a = action.args
    facing, placed = a.get("facing"), "x" in a or "y" in a
    if placed:
        x, y = a.get("x"), a.get("y")
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) for v in (x, y)):
            raise Refused(f"face {action.actor}: say where it stands as x and y in inches (got {x!r}, {y!r}) "
                          f"[A66]")
        place_revealed(ctx, action.actor, float(x), float(y))   # type: ignore[arg-type]
        if facing is None:
            return None
    if isinstance(facing, bool) or not isinstance(facing, (int, float)) or not math.isfinite(facing):
        raise Refused(f"face {action.actor}: say the facing in degrees (got {facing!r}) [A13]")
    face_revealed(ctx, action.actor, float(facing))
    return None
    yield  # a generator like every resolution: a refusal comes when it is driven


TurnStep = Callable[[Ctx, Action], Rolling[Any]]


def closing(step: TurnStep) -> TurnStep:
    """A turn-level action other than ``face``: it first closes the owner's chance to face or place the units just
    revealed (the default facing and the spot the program offered first stand, A13, A66), and only the attacker's
    ``objectives`` come after the battle's end."""

    def resolution(ctx: Ctx, action: Action) -> Rolling[Any]:
        s = ctx.state
        s.to_face.clear()
        s.to_place.clear()
        if s.phase == "over" and action.kind != Kind.OBJECTIVES:
            raise Refused("the battle is over [p.16]")
        return (yield from step(ctx, action))

    return resolution


def end_turn_action(ctx: Ctx, action: Action) -> Rolling[None]:
    s = ctx.state
    if s.phase != "action" or s.turn is None:
        raise Refused(f"no turn is in progress (now: {s.phase})")
    yield from end_turn(ctx)


def objectives_action(ctx: Ctx, action: Action) -> Rolling[None]:
    attacker_sets_objectives(ctx, action)
    return None
    yield  # a generator like every resolution


def take_back_action(ctx: Ctx, action: Action) -> Rolling[None]:
    log_take_back(ctx, action)
    return None
    yield  # a generator like every resolution


def start_round_one(ctx: Ctx, first: str) -> None:
    """Round 1 begins: every unit and blip holds its counter, the Initiative holder takes the first turn with no
    roll (p.~15, p.16)."""
    s = ctx.state
    s.phase = "action"
    s.round = 1
    s.initiative = first
    for u in s.units.values():
        u.activation = True
    for b in s.blips.values():
        b.activation = True
    ctx.event(f"round 1: side {s.initiative} holds the Initiative", "[p.15, p.16]")
    start_turn(ctx, s.initiative)


def log_take_back(ctx: Ctx, action: Action) -> None:
    """The engine's side of a take-back: the record keeps it and both players read it in the log."""
    a = action.args
    side, what, consent = a.get("side"), a.get("what"), a.get("consent")
    if side not in ("A", "B") or consent != other(side) or not isinstance(what, str):
        raise Refused(f"a take-back names the side that took its action back, the action, and the other side's "
                      f"consent [{TAKE_BACK_RULE}]")
    why = a.get("why") if isinstance(a.get("why"), str) else ""
    ctx.event(f"side {side} took back {what!r}{' (' + why + ')' if why else ''} with side {consent}'s consent",
              f"[{TAKE_BACK_RULE}]")
