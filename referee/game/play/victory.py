"""The end of the battle (p.16, A41): objectives settled by who Controls the Table, missions scored, the margin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.catalogue import is_drone_type
from ..battle.intents import Action
from .effects import Ctx, Refused
from ..battle.missions import mission_of as _mission
from ..battle.state_parts import FORFEITED, Result
from ..battle.state import SIDES, GameState, as_side, other
from ..battle.scoring import BattleOutcome, ObjectiveOutcome
from ..battle.scoring import score_mission, victory

if TYPE_CHECKING:
    from ..battle.scoring import BattleOutcome

OBJECTIVE_CHOICES = ("secured", "destroyed", "inspected")


def inspected_threshold(state: GameState) -> int:
    mission = _mission(state, state.attacker) if state.attacker else None
    if mission is not None and mission.inspected_counters:
        return mission.inspected_counters
    return state.rulings_in_force().inspected_counters


def round_limit(state: GameState) -> int | None:
    limits = [m.round_limit for m in (_mission(state, side) for side in SIDES) if m is not None and m.round_limit]
    return min(limits) if limits else None


def ends_whatever_is_announced(state: GameState) -> str:
    """Why this end of round ends the battle whatever the players announce (``turns.end_of_round`` ends it then),
    or "" when the players choose: only one side has troopers left (it Controls the Table), neither has (A43), or the
    pursuit round is over (p.16). What a Withdraw or a stop would change is nothing, so nothing else is offered."""
    if state.phase != "end-of-round":
        return ""
    survivors = [side for side in SIDES if state.may_have_troopers(side)]
    if state.pursuit:
        return "the pursuit round is over [p.16, A43]"
    if len(survivors) == 1:
        return f"only side {survivors[0]} has troopers left: it Controls the Table [p.16]"
    if not survivors:
        return "both sides have lost all their troopers: the table is Contested [p.16, A43]"
    return ""


def end_of_round_lines(state: GameState, viewer: str) -> list[str]:
    """What the end-of-round dialog tells ``viewer``: the choices, and only the viewer's own mission's round limit."""
    forced = ends_whatever_is_announced(state)
    if forced:
        return [f"Round {state.round} is over and the battle ends: {forced}."]
    lines = [f"Round {state.round} is over. Either player may announce a Withdraw; the opponent allows it or "
             f"pursues for one more round [p.16, A43]."]
    limit = own_round_limit(state, viewer)
    if limit and last_round(state, viewer):
        lines.append(f"Your mission (side {viewer}) ends the battle after round {limit}: this was the last round "
                     f"[A43].")
    elif limit:
        lines.append(f"Your mission (side {viewer}) ends the battle after round {limit}.")
    return lines


def last_round(state: GameState, side: str) -> bool:
    """The round just over is the last one ``side``'s own mission allows: the battle ends at this end of round,
    whatever the players announce (A43)."""
    limit = own_round_limit(state, side)
    return bool(limit) and state.round >= int(limit or 0)


def own_round_limit(state: GameState, side: str) -> int | None:
    """The round after which ``side``'s own mission ends the battle (None: no limit). The opponent's mission is
    secret (A59): a player learns its limit only when it ends the battle, from the log."""
    m = _mission(state, side)
    return m.round_limit if m is not None and m.round_limit else None


def settle_objectives_on_control(ctx: Ctx) -> None:
    """Contested: objectives keep their states; the defender controlling secures them all for himself; the
    attacker controlling chooses Secured, Destroyed or Inspected for each (R22)."""
    s = ctx.state
    surviving = [o for o in s.objectives.values() if not o.destroyed]
    if not surviving or s.attacker is None or s.control is None:
        if surviving and s.control is None:
            ctx.note("the table is Contested: every objective keeps the state it had [p.16, A41]")
        compute_result(ctx)
        return
    defender = other(s.attacker)
    if s.control == defender:
        for o in surviving:
            o.control = as_side(defender)
        ctx.event(f"the defender Controls the Table: every surviving objective is Secured for side {defender}", "[p.16, A41]")
        compute_result(ctx)
        return
    s.result = Result.waiting_for_objectives(list(OBJECTIVE_CHOICES), [o.id for o in surviving])
    ctx.event(f"the attacker Controls the Table: side {s.attacker} now sets each surviving objective to Secured, "
              f"Destroyed or Inspected", "[p.16, A41]")


def attacker_sets_objectives(ctx: Ctx, action: Action) -> None:
    s = ctx.state
    if s.phase != "over" or s.result is None or s.result.pending != "objectives":
        raise Refused("objectives are set only by an attacker who Controls the Table at the end [p.16]")
    choices = {k: str(v).lower() for k, v in action.args.items()}
    surviving = [o for o in s.objectives.values() if not o.destroyed]
    missing = [o.id for o in surviving if o.id not in choices]
    if missing:
        raise Refused(f"choose Secured, Destroyed or Inspected for {', '.join(missing)} [p.16]")
    for oid, choice in choices.items():
        if oid not in s.objectives or s.objectives[oid].destroyed:
            raise Refused(f"{oid} is not a surviving objective")
        if choice not in OBJECTIVE_CHOICES:
            raise Refused(f"{oid}: expected one of {', '.join(OBJECTIVE_CHOICES)} (got {choice!r})")
    if s.attacker in cards_unopened(s):
        raise Refused(f"side {s.attacker}'s computer opens its cards first: its mission says from how many Target "
                      f"counters an objective is Inspected [p.16, A41]")
    threshold = inspected_threshold(s)
    for o in surviving:
        choice = choices[o.id]
        if choice == "secured":
            if s.attacker is not None:        # a pending choice is only ever the attacker's (settle_objectives...)
                o.control = as_side(s.attacker)
        elif choice == "destroyed":
            o.destroyed = True
        else:
            o.target_counters = max(o.target_counters, threshold)
        ctx.event(f"objective {o.id}: {choice}" + (f" ({threshold} Target counters)" if choice == "inspected" else ""),
                  "[p.16, A41]", units=[o.id])
    s.result = None
    compute_result(ctx)


def destroyed_and_surviving(state: GameState) -> tuple[dict[str, list[tuple[str, bool]]], dict[str, list[str]]]:
    """By side: the enemy units it destroyed (type, and whether a drone), and its own troopers still in the battle
    (on the table or in its holding area): what the missions count."""
    destroyed: dict[str, list[tuple[str, bool]]] = {side: [] for side in SIDES}
    for d in state.destroyed:
        destroyed[other(d["side"])].append((str(d["type"]), is_drone_type(d["type"])))
    surviving: dict[str, list[str]] = {side: [] for side in SIDES}
    for u in state.units.values():
        if not u.is_drone:
            surviving[u.side].append(u.type)
    for side in SIDES:
        for contents in state.holding[side].squares.values():
            for c in contents or []:
                if not is_drone_type(c.type):
                    surviving[side].append(c.type)
    return destroyed, surviving


def battle_outcome(state: GameState) -> BattleOutcome:

    destroyed, surviving = destroyed_and_surviving(state)
    objectives = {o.id: ObjectiveOutcome(o.control, o.destroyed, o.target_counters) for o in state.objectives.values()}
    control = None if state.control is None else as_side(state.control)
    attacker = None if state.attacker is None else as_side(state.attacker)
    return BattleOutcome(objectives, control, attacker, destroyed, surviving)


def hidden_sides(s: GameState) -> list[str]:
    """The sides kept on their own computer with a counter on the table whose square is still unopened
    (``commit.py``). A square no counter stands for (its computer committed two counters to another: a breach, A59)
    is never asked for: it stays unknown and its units count for nothing."""
    return [side for side in sorted(s.square_commitments)
            if any(b.side == side and s.holding[side].contents(b.square) is None for b in s.blips.values())]


def cards_unopened(s: GameState) -> list[str]:
    """The sides whose cards were drawn on their own computer (``kept_cards.py``) and are not opened yet."""
    return [side for side in sorted(s.card_commitments) if not s.card_commitments[side].get("checked")]


def _no_result_yet(ctx: Ctx, vp: dict[str, int], explain: list[str], headline: str, pages: str) -> None:
    """The result waits for a side kept on its own computer: the VP so far, no winner, and why, in the log."""
    s = ctx.state
    s.result = Result(s.control, vp, None, 0, "no result", 0, explain + [f"{headline} [p.~14]"], headline=headline)
    ctx.event(headline, pages)


def compute_result(ctx: Ctx) -> None:

    s = ctx.state
    if s.result is not None and s.result.level == FORFEITED:
        return                          # a kept side forfeited (``corrections.forfeit``): its squares are not scored
    outcome = battle_outcome(s)
    vp, explain = {}, []
    for side in SIDES:
        mission = _mission(s, side)
        if mission is None:
            vp[side] = 0
            kept = s.card_commitments.get(side)
            explain.append(f"side {side}'s mission card was kept on the mat, not entered: the program cannot "
                           f"score it [p.~14]" if s.mode == "table" else
                           f"side {side}'s cards are not opened yet: its mission is scored once they are"
                           if kept is not None and not kept.get("checked") else
                           f"side {side}'s mission is not scored: the cards its computer opened breached its "
                           f"commitment: 0 VP" if kept is not None else
                           f"side {side} has no mission card: 0 VP")
            continue
        score = score_mission(mission, side, outcome)
        vp[side] = score.vp
        explain.extend(str(step) for step in score.explain)
    hidden = hidden_sides(s)
    if hidden:
        # A side kept on its own computer has squares still unopened: its troopers there count for its mission, so no
        # score is named until its computer opens them (the host asks it, ``net/desk.py``).
        whose = " and ".join(f"side {side}'s" for side in hidden)
        _no_result_yet(ctx, vp, explain, f"{whose} holding area still kept on its own computer: no result until "
                                         f"every square is opened", "[p.~14, p.~10]")
        return
    unopened = cards_unopened(s)
    if unopened:
        # A side whose cards were drawn on its own computer: its mission is scored once its computer opens them and
        # the host has checked them (``corrections.cards_opened``; the host asks it, ``net/desk.py``).
        whose = " and ".join(f"side {side}'s" for side in unopened)
        _no_result_yet(ctx, vp, explain, f"{whose} cards still kept on its own computer: no result until its "
                                         f"computer opens them", "[p.~14, p.~9]")
        return
    # Breaches caught at an opening during the battle (a counter committed to a square already shown): in the result.
    explain.extend(b for b in s.breaches if b not in explain)
    for side in sorted(s.square_commitments):
        left = s.issued_kept.get(side) or []
        if left:
            # Every square is open and some issued unit was in none: the set-up its computer committed to broke the
            # holding area's rule (p.~10). Said in the report; the score is what the table held.
            explain.append(f"BREACH: side {side}'s holding area as its computer committed to it held no square for "
                           f"{', '.join(u['id'] for u in left)}, issued by its cards: its set-up broke the rule "
                           f"[p.~10]")
            ctx.event(explain[-1], "[p.~10]")
    unknown = [side for side in SIDES if _mission(s, side) is None and s.mode == "table"]
    if unknown:
        # A mission kept on the mat was never scored: its VP are unknown, so no margin and no winner can be named.
        # Entering it now (a ``mission`` correction) scores the battle.
        scored = ", ".join(f"side {side} {vp[side]} VP" for side in SIDES if side not in unknown)
        missing = " and ".join(f"side {side}'s" for side in unknown)
        headline = (f"{scored + ', ' if scored else ''}{missing} mission not entered: no result "
                    f"(enter it to score the battle)")
        explain.append(f"{headline} [p.~14]")
        s.result = Result(s.control, vp, None, 0, "no result", 0, explain, missions_unknown=unknown, headline=headline)
        ctx.event(headline, "[p.~14]")
        return
    v = victory(vp["A"], vp["B"])
    explain.extend(str(step) for step in v.explain)
    s.result = Result(s.control, vp, v.winner, v.margin, v.level, v.campaign_points, explain)
    if v.winner:
        ctx.event(f"side {v.winner} wins, {vp['A']} VP to {vp['B']}: a {v.level} victory (margin {v.margin})", "[p.~14]")
    else:
        ctx.event(f"a draw, {vp['A']} VP each", "[p.~14, A44]")
