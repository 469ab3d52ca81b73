"""Hard's look-ahead: the rest of a unit's activation played out in every imagined world before it commits.

Normal weighs each action by the state it leaves. Hard looks further, always on the imagined worlds of
``determinize.py`` (its own view with the hidden parts sampled), never on the battle's state: its best few first
actions (always with its best Target and its best shot among them) are weighed again with what the rest of the
activation played out after each adds, over the outcomes of the first action's dice: a rifle shot's kill, graze and
miss [p.20] and a missile's hit, shot down and deviation [p.21] at the preview's odds, any other roll sampled. A
Target is thus worth the shot it makes possible in the same activation.

The rest of an activation is played greedily: at each step the action with the best value over one roll of its
dice (a rifle shot and a missile by their outcomes), then one roll of it to go on from. One decision weighs at most
``Level.search_budget`` candidates in its played-out activations, a count, never a time, so that the same view always
gets the same decision. A step's choice is made from the legal actions of the imagined world, so the computer reasons
from its own belief only.

Which unit to activate is chosen as at normal, by a few first actions of each (``player._potential``): the whole
activation played out there too won no more battles (docs/computer-measurements.md, "Hard's parts, each taken out").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...battle.action_kinds import Kind
from ...battle.intents import Action
from ...play.actions import ActionOutcome
from ...play.engine import play
from ...play.legal import legal_actions
from ...play.session import preview
from ...battle.state import Data, GameState
from .candidates import Candidate, expand
from .seen import Seen
from .weighing import MissileDice, _Scored

if TYPE_CHECKING:
    from .player import _Think


@dataclass(frozen=True)
class InWorld(Seen):
    """The view, with the computer's own pieces read from an imagined state: where its unit stands after its first
    action, and the units a reveal put on the table. The enemy is still only what the view shows."""

    world: GameState | None = field(default=None, compare=False)

    def piece(self, ident: str) -> Data | None:
        w = self.world
        if w is not None:
            u = w.units.get(ident)
            if u is not None and u.side == self.me:
                return {"id": u.id, "side": u.side, "type": u.type, "x": u.x, "y": u.y, "base": u.base,
                        "facing": u.facing, "target_counters": u.target_counters}
            b = w.blips.get(ident)
            if b is not None and b.side == self.me:
                return {"id": b.id, "side": b.side, "x": b.x, "y": b.y, "base": b.base}
        return super().piece(ident)


def acting(state: GameState, me: str) -> str | None:
    """The computer's unit still acting in the activation under way in ``state``, if any."""
    t = state.turn
    if state.phase != "action" or t is None or t.player != me:
        return None
    return t.active


def candidates(think: _Think, state: GameState, actor: str) -> list[Candidate]:
    """The unit's concrete actions in an imagined state, as ``expand`` makes them for the battle's."""
    legal = [la for la in legal_actions(state, think.seen.me) if la.actor == actor or la.kind == Kind.END_ACTIVATION]
    seen = InWorld(think.seen.view, think.seen.me, state)
    # The objectives its mission Inspects, and the counters each still needs in this state (a counter beyond pays
    # nothing): its Moves head for them and its Targets name no more, as the first action's did.
    inspect = think.aims.wanted_counters({oid: o.target_counters for oid, o in state.objectives.items()})
    cands = expand(legal, seen, think.aims.hold, think.aims.destroy, think.grid, max(4, think.level.move_points // 3),
                   think.rng.uniform(0, math.pi), think.belief.p_real, inspect)
    # A Target is tried on every piece in sight; within a played-out activation only the few where the pool buys the
    # most counters matter (the nearest and most exposed), and they are most of the cost.
    targets = sorted((c for c in cands if c.action.kind == Kind.TARGET), key=lambda c: -_counters(c.action))
    # A missile is weighed by its three outcomes, four times a Move's cost: only at the targets carrying the most
    # counters, which it hits most often [p.21].
    missiles = sorted((c for c in cands if c.action.kind == Kind.MISSILE),
                      key=lambda c: -_carried(state, str(c.action.args.get("target", ""))))
    lv = think.level
    # A Target on an objective its mission still Inspects names only the counters it needs, fewer than a Target on
    # an enemy may: it is weighed besides those, as the first action's is.
    inspecting = [c for c in targets if c.action.args.get("assign", {}).keys() <= inspect.keys()]
    keep = set(map(id, targets[:lv.step_targets] + missiles[:lv.step_missiles] + inspecting))
    return [c for c in cands if c.action.kind not in (Kind.TARGET, Kind.MISSILE) or id(c) in keep]


def _carried(state: GameState, ident: str) -> int:
    piece = state.units.get(ident) or state.objectives.get(ident)
    return piece.target_counters if piece is not None else 0


def _counters(action: Action) -> int:
    return sum(int(n) for n in action.args.get("assign", {}).values())


def play_out(think: _Think, state: GameState, steps: int | None = None) -> tuple[float, Candidate | None]:
    """The value of the activation under way in ``state`` played out greedily (the state's own value once it has
    ended), and the first action chosen."""
    me = think.seen.me
    first: Candidate | None = None
    for _ in range(think.level.play_out_steps if steps is None else steps):
        actor = acting(state, me)
        if actor is None or think.searched >= think.level.search_budget:
            break
        best: tuple[float, Candidate] | None = None
        cands = candidates(think, state, actor)
        think.searched += len(cands)
        for c in cands:
            v, _ = think.simulate(state, c.action, think.level.step_rolls)
            if v is not None and (best is None or v > best[0]):
                best = (v, c)
        if best is None:
            break
        first = first or best[1]
        out = play(state, best[1].action, think.dice())
        if not out.legal or acting(out.state, me) is None:
            return best[0], first          # the activation is over: the chosen action's value stands
        state = out.state
    return think.value(state), first


def branches(think: _Think, world: GameState, action: Action, rolls: int) -> list[tuple[float, ActionOutcome]]:
    """The outcomes of ``action`` in ``world`` with their weights: a rifle shot's kill, graze and miss [p.20] and a
    missile's direct hit, shot down and deviation [p.21] at the preview's odds, other dice rolled ``rolls`` times, an
    action without dice once."""

    if action.kind in (Kind.RIFLE, Kind.MISSILE):
        p = preview(world, action)
        f = p.figures
        if p.legal and action.kind == Kind.RIFLE and "p_kill" in f:
            kill, graze = float(f["p_kill"]), float(f.get("p_graze", 0.0))
            faces = ((think.fixed_dice(1), kill), (think.fixed_dice(2), graze),
                     (think.fixed_dice(6), max(0.0, 1.0 - kill - graze)))
            return [(w, play(world, action, d)) for d, w in faces if w > 0]
        if p.legal and action.kind == Kind.MISSILE and "p_direct_hit" in f:
            hit, down = float(f["p_direct_hit"]), float(f.get("p_shot_down") or 0.0)
            ways = (("hit", hit), ("down", down), ("miss", max(0.0, 1.0 - hit - down)))
            return [(w, play(world, action, MissileDice(o, think.rng))) for o, w in ways if w > 1e-9]
    outs = []
    for _ in range(max(1, rolls)):
        o = play(world, action, think.dice())
        outs.append(o)
        if not o.rolls:
            break
    return [(1.0 / len(outs), o) for o in outs]


def deepen(think: _Think, scored: list[_Scored]) -> list[_Scored]:
    """The best few first actions (and the best Target and best shot) weighed again with the rest of the activation
    played out after each, in every imagined world."""

    lv = think.level
    ranked = sorted(scored, key=lambda s: -s.value)
    chosen = ranked[: lv.look_ahead_width]
    for kind in (Kind.TARGET, Kind.RIFLE, Kind.MISSILE):
        best = next((s for s in ranked if s.cand.action.kind == kind), None)
        if best is not None and best not in chosen:
            chosen.append(best)
    me = think.seen.me
    out = []
    for s in chosen:
        a = s.cand.action
        if a.kind == Kind.END_ACTIVATION:
            out.append(s)
            continue
        # What the rest of the activation adds to the state the first action leaves, added to the first action's
        # own value (already weighed over every world and several rolls): the gain varies far less from roll to
        # roll than the state's value, so a few rolls tell the first actions apart.
        gain, weight = 0.0, 0.0
        for w in think.worlds:
            for p, o in branches(think, w, a, lv.look_ahead_rolls):
                if not o.legal:
                    continue
                if acting(o.state, me) is not None:
                    gain += p * max(0.0, play_out(think, o.state)[0] - think.value(o.state))
                weight += p
        out.append(_Scored(s.cand, s.value + gain / weight, s.outcome) if weight > 0 else s)
    return out + [s for s in scored if s not in chosen]


def short(c: Candidate) -> str:
    """A candidate in a few words, for the reason of an activation."""
    a = c.action
    if a.kind in (Kind.MOVE, Kind.JUMP):
        aim = f" toward {c.aim}" if c.aim and c.aim != "cover" else (" into cover" if c.aim == "cover" else "")
        return f"{a.kind} to ({a.args['x']:g}, {a.args['y']:g}){aim}"
    if a.kind == Kind.RIFLE:
        return f"a shot at {a.args['target']}"
    if a.kind == Kind.MISSILE:
        return f"a missile at {a.args['target']}"
    if a.kind == Kind.TARGET:
        if a.args.get("up_to"):
            # What it names may be what its mission needs: the roll says the rest.
            return f"a Target on {' and '.join(a.args['assign'])}"
        (tid, n), = a.args["assign"].items()
        return f"a Target of {n} counter{'s' if n != 1 else ''} on {tid}"
    if a.kind == Kind.REVEAL:
        return "its units could act"
    if a.kind == Kind.KAMIKAZE:
        return f"an explosion against {a.args.get('target', c.aim)}"
    return a.kind
