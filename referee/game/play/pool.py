"""A Target's sensor pool, rolled before its counters are placed (p.19), as players do at the table, and recorded the
moment it is rolled.

``sensor-pool`` is an action of its own: it resolves the Target the Targeter would make (with no counter assigned)
on a trial copy of the state, so every die the Target rolls (a Damaged suit's test first, A25, then the sensor dice)
is asked of the dice source, recorded with this action, logged, and kept in the state (``GameState.pool``). Nothing
else changes. While a pool waits, the Targeter's ``target`` with the same number of dice is the only action the
battle takes: it spends exactly the pool's dice, never new ones. A battle saved, quit or resumed in between goes on
with the same pool; taking the roll back needs the other side's consent, as for every die (``undo.py``).
"""

from __future__ import annotations

from ..battle.dice import Rolling
from .effects import Ctx, Refused
from ..battle.intents import Action
from ..battle.action_kinds import Kind
from .turns import closing, unit_turn_action

SENSOR_POOL = Kind.SENSOR_POOL
RULE = "p.19"
# The Target as the Action Table resolves it (``action_table.RULES[Kind.TARGET]``): the pool rolls its dice on a trial
# copy, and the Target that spends it answers the same requests from the pool.
_target = closing(unit_turn_action)


def roll_pool(ctx: Ctx, action: Action) -> Rolling[object]:
    """Roll ``action.actor``'s sensor pool of ``action.args["dice"]`` dice: the Target's own dice, asked in its own
    order, on a trial copy of the state; the state keeps only the pool."""
    s = ctx.state
    if s.pool is not None:
        raise Refused(f"{s.pool['actor']}'s sensor pool is rolled already: its counters are placed next [{RULE}]")
    k = action.args.get("dice", 0)
    target = Action(Kind.TARGET, action.actor, {"dice": k, "assign": {}})
    trial = Ctx(s.copy())
    inner = _target(trial, target)
    rolls: list[list[object]] = []
    try:
        request = next(inner)
        while True:
            value = yield request
            rolls.append([request.label, request.kind, value])
            request = inner.send(value)
    except StopIteration as stop:
        ended = stop.value
    faces = [int(float(str(r[2]))) for r in rolls[-int(k):]] if rolls else []
    s.pool = {"actor": action.actor, "dice": int(k), "rolls": rolls}
    if ended is False:
        ctx.event(f"{action.actor}'s Damaged suit fails to respond: its Target is spent with the die rolled [A25]",
                  units=[action.actor])
    else:
        ctx.event(f"{action.actor} rolls its sensor pool: {' + '.join(map(str, faces))} = {sum(faces)}; its Target "
                  f"counters are placed next", f"[{RULE}]", units=[action.actor])
    return ended


def spend_pool(ctx: Ctx, action: Action) -> Rolling[object]:
    """The Target that spends the pool waiting in the state: its dice are the pool's, in order; any other action is
    refused until it is made."""
    yield from ()            # a resolution like every other; it asks the source for no die
    pool = ctx.state.pool
    assert pool is not None
    actor, k = str(pool["actor"]), int(pool["dice"])
    if action.kind != Kind.TARGET or action.actor != actor:
        raise Refused(f"{actor}'s sensor pool is rolled: its Target counters are placed first (the roll is taken "
                      f"back only with the other side's consent) [{RULE}]")
    if action.args.get("dice") != k:
        raise Refused(f"{actor}'s sensor pool was rolled with {k} {'die' if k == 1 else 'dice'}, not "
                      f"{action.args.get('dice')} [{RULE}]")
    ctx.state.pool = None
    faces = [(str(r[1]), float(r[2])) for r in pool["rolls"]]
    inner = _target(ctx, action)
    try:
        request = next(inner)
        while True:
            if not faces or faces[0][0] != request.kind:
                raise Refused(f"the Target asks for a roll its pool does not hold ({request.describe()})")
            kind, value = faces.pop(0)
            request = inner.send(int(value) if kind in ("d6", "draw") else value)
    except StopIteration as stop:
        return stop.value
