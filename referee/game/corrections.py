"""Corrections: the physical table is the truth, and the referee follows it when it drifts.

At a real table a knocked trooper ends up half an inch away, a counter is forgotten, a piece is added that the
program never saw. A correction changes what the table holds, outside the Action Table, and says exactly what
changed; it uses no dice and does not touch the turn. It is recorded like any action, so a save replays it.

A refereed physical game also learns a blip's contents only when its owner says so: ``contents`` records what the
owner entered for the blip (p.17: the blip stands for one square of the holding area), just before it is revealed.

Every correction leaves a table the scenario loader accepts (no overlapping bases, pieces on the table); otherwise
it is refused with the loader's reason and nothing changes.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..rules.catalogue import is_drone_type
from ..rules.errors import pydantic_problems
from ..rules.scenario import UnitContents, parse_scenario
from .actions import Action
from .dice import Rolling
from .effects import Ctx, Refused
from .state import BlipState, GameState, ObjectiveState, UnitState, state_to_scenario_data

CORRECTION_KINDS = ("correct", "contents")
RULE = "[correction: the table is the truth]"
# What a correction may set, per kind of piece (anything else is refused by name).
UNIT_FIELDS = ("x", "y", "facing", "target_counters", "damaged", "stunned", "activation")
BLIP_FIELDS = ("x", "y", "activation")
OBJECTIVE_FIELDS = ("x", "y", "target_counters")
NEW_UNIT_KEYS = ("side", "faction", "rating", "type", "x", "y", "facing", "target_counters", "damaged", "stunned")


def correction(ctx: Ctx, action: Action) -> Rolling[None]:
    """Resolve a correction (a generator like every action; it asks for no dice)."""
    if action.kind == "contents":
        tell_contents(ctx, action)
    elif action.args.get("remove"):
        remove_piece(ctx, action.actor)
    elif action.args.get("add"):
        add_unit(ctx, action.actor, action.args["add"])
    else:
        change_piece(ctx, action.actor, action.args)
    check_table(ctx.state)
    return
    yield                              # a generator without dice


def _piece(s: GameState, ident: str) -> tuple[str, UnitState | BlipState | ObjectiveState]:
    if ident in s.units:
        return "unit", s.units[ident]
    if ident in s.blips:
        return "blip", s.blips[ident]
    if ident in s.objectives and not s.objectives[ident].destroyed:
        return "objective", s.objectives[ident]
    known = sorted(set(s.units) | set(s.blips) | {o.id for o in s.objectives.values() if not o.destroyed})
    raise Refused(f"nothing called {ident!r} is on the table (expected one of {', '.join(known)}) {RULE}")


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def change_piece(ctx: Ctx, ident: str, changes: dict[str, Any]) -> None:
    s = ctx.state
    kind, piece = _piece(s, ident)
    allowed = {"unit": UNIT_FIELDS, "blip": BLIP_FIELDS, "objective": OBJECTIVE_FIELDS}[kind]
    drone = isinstance(piece, UnitState) and piece.is_drone
    if drone:
        allowed = tuple(f for f in allowed if f not in ("facing", "damaged", "stunned"))
    said: list[str] = []
    for key, value in changes.items():
        if key not in allowed:
            raise Refused(f"{ident} is a{'' if kind != 'objective' else 'n'} {kind}"
                          f"{' (a drone)' if drone else ''}: a correction may set "
                          f"{', '.join(allowed)}, not {key!r} {RULE}")
        value = _checked(ident, key, value)
        before = getattr(piece, key)
        if key == "facing":
            value = value % 360.0
        if before == value:
            continue
        setattr(piece, key, value)
        said.append(f"{key.replace('_', ' ')} {_shown(before)} -> {_shown(value)}")
    if not said:
        raise Refused(f"{ident}: the correction changes nothing {RULE}")
    ctx.event(f"correction: {ident} " + ", ".join(said), RULE, units=[ident])


def _checked(ident: str, key: str, value: object) -> bool | int | float:
    if key in ("damaged", "stunned", "activation"):
        if not isinstance(value, bool):
            raise Refused(f"{ident}.{key}: expected yes or no (got {value!r}) {RULE}")
        return value
    if key == "target_counters":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise Refused(f"{ident}.target_counters: expected a whole number from 0 (got {value!r}) {RULE}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or abs(value) > 1e6:
        raise Refused(f"{ident}.{key}: expected a number (got {value!r}) {RULE}")
    return float(value)


def remove_piece(ctx: Ctx, ident: str) -> None:
    s = ctx.state
    kind, piece = _piece(s, ident)
    if kind == "unit":
        del s.units[ident]
    elif isinstance(piece, BlipState):
        del s.blips[ident]
        s.holding[piece.side].squares[piece.square] = []
    else:
        del s.objectives[ident]
    if s.turn is not None:
        if s.turn.active == ident:
            s.turn.active, s.turn.actions_left = None, 0
        s.turn.queue = [q for q in s.turn.queue if q != ident]
    ctx.event(f"correction: {ident} ({kind}) removed from the table", RULE, units=[ident])


def add_unit(ctx: Ctx, ident: str, data: object) -> None:
    s = ctx.state
    if not isinstance(data, dict):
        raise Refused(f"{ident}: a new unit is given as side, faction, rating, type, x, y {RULE}")
    if ident in s.units or ident in s.blips or ident in s.objectives:
        raise Refused(f"{ident!r} is already on the table; a new piece needs a new id {RULE}")
    unknown = sorted(set(data) - set(NEW_UNIT_KEYS))
    if unknown:
        raise Refused(f"{ident}: unknown keys {', '.join(unknown)} (expected {', '.join(NEW_UNIT_KEYS)}) {RULE}")
    try:
        c = UnitContents(id=ident, **{k: v for k, v in data.items() if k not in ("x", "y", "facing")})
    except ValidationError as e:
        raise Refused(f"{ident}: {pydantic_problems(e)[0]} {RULE}") from None
    x, y = _checked(ident, "x", data.get("x")), _checked(ident, "y", data.get("y"))
    facing = 0.0 if is_drone_type(c.type) else _checked(ident, "facing", data.get("facing", 0.0)) % 360.0
    s.units[ident] = UnitState(id=ident, side=c.side, faction=c.faction, rating=c.rating, type=c.type, x=x, y=y,
                               facing=facing, base=c.base, target_counters=c.target_counters, damaged=c.damaged,
                               stunned=c.stunned, activation=False)
    ctx.event(f"correction: {ident} ({c.rating} {c.type} of side {c.side}) added at ({x:g}, {y:g})", RULE,
              units=[ident])


def tell_contents(ctx: Ctx, action: Action) -> None:
    """The owner says what a blip holds: a list of units (side, faction, rating, type), or none for a decoy."""
    s = ctx.state
    blip = s.blips.get(action.actor)
    if blip is None:
        raise Refused(f"no blip called {action.actor!r} is on the table {RULE}")
    if s.holding[blip.side].contents(blip.square) is not None:
        raise Refused(f"{blip.id}'s contents are known already; they are fixed at set-up [p.15, p.17]")
    given = action.args.get("contents")
    if not isinstance(given, list) or len(given) > 2:
        raise Refused(f"{blip.id}: a blip holds at most 2 units, or is a decoy (none) [p.15]")
    used = set(s.units) | set(s.blips) | set(s.objectives)
    contents = []
    for i, d in enumerate(given):
        if not isinstance(d, dict):
            raise Refused(f"{blip.id}: unit {i + 1} is given as faction, rating, type [p.15]")
        data = {"side": blip.side, **d}
        if not data.get("id"):
            n = 1
            while f"{blip.side.lower()}-{data.get('type', 'unit')}-{n}" in used:
                n += 1
            data["id"] = f"{blip.side.lower()}-{data.get('type', 'unit')}-{n}"
        if data["id"] in used:
            raise Refused(f"{blip.id}: the id {data['id']!r} is already on the table [p.15]")
        if data["side"] != blip.side:
            raise Refused(f"{blip.id} is side {blip.side}'s blip: it holds only side {blip.side}'s units [p.15]")
        try:
            contents.append(UnitContents(**data))
        except ValidationError as e:
            raise Refused(f"{blip.id}: unit {i + 1}: {pydantic_problems(e)[0]} [p.15]") from None
        used.add(data["id"])
    s.holding[blip.side].squares[blip.square] = contents
    what = ", ".join(f"{c.rating} {c.type} ({c.id})" for c in contents) or "a decoy"
    # Said just before the reveal makes it public; until then only its owner's log shows it.
    ctx.event(f"side {blip.side} tells the referee what {blip.id} holds", "[p.15, p.17]", units=[blip.id],
              private={blip.side: f"{blip.id} holds {what}"})


def check_table(s: GameState) -> None:
    """The corrected table must still be one the scenario loader accepts."""
    from ..rules.errors import InputError

    try:
        parse_scenario(state_to_scenario_data(s), "the corrected table")
    except InputError as e:
        raise Refused(f"{e.problems[0]} {RULE}") from None
