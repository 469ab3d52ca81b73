"""Corrections: the physical table is the truth, and the referee follows it when it drifts.

At a real table a knocked trooper ends up half an inch away, a counter is forgotten, a piece is added that the
program never saw. A correction changes what the table holds, outside the Action Table, and says exactly what
changed; it uses no dice and does not touch the turn. It is recorded like any action, so a save replays it.

Terrain drifts too: smoke is laid or cleared, a crater is added, a wood is nudged or lifted off. A correction of a
terrain piece moves it (``move``: [dx, dy] inches), turns it about its centre (``turn``: degrees counter-clockwise),
sets its corners or circle exactly, removes it, or adds a new piece (``add`` with a type and a polygon or circle).

The players keep their mission cards on their mats; either may choose to enter theirs (``mission``), and if they
wish their troop and drone cards, so the program can score the battle. What was entered stays private to its owner
until the end of the battle; the public log says only that a card was entered.

A refereed physical game also learns a blip's contents only when its owner says so: ``contents`` records what the
owner entered for the blip (p.17: the blip stands for one square of the holding area), just before it is revealed.

Every correction leaves a table the scenario loader accepts (no overlapping bases, pieces on the table, polygons whose
edges do not cross), and a corrected terrain piece stays on the table; otherwise it is refused with the reason and
nothing changes.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import ValidationError

from ..battle.action_kinds import CORRECTION_KINDS as CORRECTION_KINDS, Kind
from ...rules.catalogue import is_drone_type
from ...rules.errors import pydantic_problems
from ...rules.pieces import Circle, DealtCards, UnitContents
from ...rules.pieces import Terrain as TerrainEntry
from ...rules.scenario import parse_scenario, terrain_geometry
from ..battle.commit import (SALT_HEX, SQUARES, battle_id, blip_commitment, cards_commitment, is_digest,
                             square_commitment, unit_entries)
from ..battle.kept_cards import hand_of, offer_of
from ...rules.catalogue import unit_type_names
from ...rules.stats import RATINGS
from .setup_steps import setup_deck
from ..battle.intents import Action
from .victory import compute_result, hidden_sides
from ..battle.dice import Rolling, commitment as dice_commitment
from .effects import Ctx, Refused
from ..battle.state import BlipState, GameState, ObjectiveState, UnitState, state_to_scenario_data
from ..battle.state_parts import FORFEITED, Result
from ..battle.cards import bundled_deck, playing_deck
from ...rules.errors import InputError

RULE = "[correction: the table is the truth]"
# What a correction may set, per kind of piece (anything else is refused by name).
UNIT_FIELDS = ("x", "y", "facing", "target_counters", "damaged", "stunned", "activation")
BLIP_FIELDS = ("x", "y", "activation")
OBJECTIVE_FIELDS = ("x", "y", "target_counters")
TERRAIN_CHANGES = ("move", "turn", "polygon", "circle")
NEW_TERRAIN_KEYS = ("type", "polygon", "circle")
NEW_UNIT_KEYS = ("side", "faction", "rating", "type", "x", "y", "facing", "target_counters", "damaged", "stunned")


def correction(ctx: Ctx, action: Action) -> Rolling[None]:
    """Resolve a correction (a generator like every action; it asks for no dice)."""
    if action.kind == Kind.CONTENTS:
        tell_contents(ctx, action)
    elif action.kind == Kind.MISSION:
        enter_mission(ctx, action)
        return
    elif action.kind == Kind.FORFEIT:
        forfeit(ctx, action.actor)
        return
    elif action.kind == Kind.DICE_OPENED:
        dice_opened(ctx, action.actor, action.args)
        return
    elif action.kind == Kind.CARDS_OPENED:
        cards_opened(ctx, action.actor, action.args)
        return
    elif _is_terrain(ctx.state, action):
        if action.args.get("remove"):
            remove_terrain(ctx, action.actor)
        elif "add" in action.args:
            add_terrain(ctx, action.actor, action.args["add"])
        else:
            change_terrain(ctx, action.actor, action.args)
        try:
            check_table(ctx.state)
        except Refused as e:
            raise Refused(f"{action.actor}: {e.reason}") from None
        check_on_table(ctx.state, action.actor)
        return
    elif action.args.get("remove"):
        remove_piece(ctx, action.actor)
    elif action.args.get("add"):
        add_unit(ctx, action.actor, action.args["add"])
    else:
        change_piece(ctx, action.actor, action.args)
    check_table(ctx.state)
    return
    yield                              # a generator without dice


def _is_terrain(s: GameState, action: Action) -> bool:
    """A correction of a terrain piece: one the table holds, or a new piece given with its shape."""
    add = action.args.get("add")
    if isinstance(add, dict):
        return "polygon" in add or "circle" in add
    return any(t.id == action.actor for t in s.terrain)


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


# ---- terrain ----------------------------------------------------------------------------------------------------------


def _terrain(s: GameState, ident: str) -> tuple[int, TerrainEntry]:
    for i, t in enumerate(s.terrain):
        if t.id == ident:
            return i, t
    raise Refused(f"no terrain piece called {ident!r} is on the table {RULE}")


def _where(t: TerrainEntry) -> str:
    """A terrain piece's shape in a few words: a circle's centre and size, a polygon's centre and corners."""
    if t.circle is not None:
        return f"{2 * t.circle.r:g}\" across at ({t.circle.x:g}, {t.circle.y:g})"
    c = terrain_geometry(t).centroid
    return f"{len(t.polygon or [])} corners about ({c.x:.1f}, {c.y:.1f})"


def _number(ident: str, key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or abs(value) > 1e6:
        raise Refused(f"{ident}.{key}: expected a number (got {value!r}) {RULE}")
    return float(value)


def _point(p: float) -> float:
    # Coordinates kept to a thousandth of an inch: a moved or turned piece saves as the numbers the table shows.
    return round(p, 3) + 0.0


def _shape(ident: str, key: str, value: object) -> dict[str, Any]:
    """``polygon`` or ``circle`` as the scenario file gives them, checked as a terrain entry would be."""
    try:
        entry = TerrainEntry.model_validate({"id": ident, "type": "smoke", key: value})
    except ValidationError as e:
        raise Refused(f"{ident}.{key}: {pydantic_problems(e)[0]} {RULE}") from None
    if key == "polygon":
        return {"polygon": entry.polygon, "circle": None}
    return {"circle": entry.circle, "polygon": None}


def change_terrain(ctx: Ctx, ident: str, changes: dict[str, Any]) -> None:
    s = ctx.state
    i, t = _terrain(s, ident)
    unknown = [k for k in changes if k not in TERRAIN_CHANGES]
    if unknown or not changes:
        raise Refused(f"{ident} is a terrain piece ({t.type}): a correction may move it (move), turn it (turn), "
                      f"set its corners (polygon) or circle (circle), or remove it, not "
                      f"{', '.join(repr(k) for k in unknown) or 'nothing'} {RULE}")
    before = _where(t)
    new = t.model_copy()
    said = []
    if "polygon" in changes or "circle" in changes:
        key = "polygon" if "polygon" in changes else "circle"
        new = new.model_copy(update=_shape(ident, key, changes[key]))
        said.append(f"{'corners' if key == 'polygon' else 'circle'} set")
    if "turn" in changes:
        angle = _number(ident, "turn", changes["turn"]) % 360.0
        if new.circle is not None:
            raise Refused(f"{ident} is a circle: turning it changes nothing; move it instead {RULE}")
        if angle:
            centre = terrain_geometry(new).centroid
            a = math.radians(angle)
            cos, sin = math.cos(a), math.sin(a)
            new = new.model_copy(update={"polygon": [
                [_point(centre.x + (x - centre.x) * cos - (y - centre.y) * sin),
                 _point(centre.y + (x - centre.x) * sin + (y - centre.y) * cos)] for x, y in new.polygon or []]})
            said.append(f"turned {angle:g}°")
    if "move" in changes:
        step = changes["move"]
        if not isinstance(step, (list, tuple)) or len(step) != 2:
            raise Refused(f"{ident}.move: expected [dx, dy] in inches (got {step!r}) {RULE}")
        dx, dy = _number(ident, "move", step[0]), _number(ident, "move", step[1])
        if dx or dy:
            if new.circle is not None:
                c = new.circle
                new = new.model_copy(update={"circle": Circle(x=_point(c.x + dx), y=_point(c.y + dy), r=c.r)})
            else:
                new = new.model_copy(update={"polygon": [[_point(x + dx), _point(y + dy)]
                                                         for x, y in new.polygon or []]})
            said.append(f"moved {dx:+g}\" across, {dy:+g}\" up")
    if new == t:
        raise Refused(f"{ident}: the correction changes nothing {RULE}")
    s.terrain[i] = new
    ctx.event(f"correction: {ident} ({t.type}) {', '.join(said)}: {before} -> {_where(new)}", RULE)


def remove_terrain(ctx: Ctx, ident: str) -> None:
    s = ctx.state
    i, t = _terrain(s, ident)
    del s.terrain[i]
    ctx.event(f"correction: {ident} ({t.type}, {_where(t)}) removed from the table", RULE)


def add_terrain(ctx: Ctx, ident: str, data: object) -> None:
    s = ctx.state
    if not isinstance(data, dict):
        raise Refused(f"{ident}: a new terrain piece is given as type and polygon or circle {RULE}")
    taken = set(s.units) | set(s.blips) | set(s.objectives) | {t.id for t in s.terrain}
    if ident in taken:
        raise Refused(f"{ident!r} is already on the table; a new piece needs a new id {RULE}")
    unknown = sorted(set(data) - set(NEW_TERRAIN_KEYS))
    if unknown:
        raise Refused(f"{ident}: unknown keys {', '.join(unknown)} (expected {', '.join(NEW_TERRAIN_KEYS)}) {RULE}")
    try:
        t = TerrainEntry.model_validate({"id": ident, **data})
    except ValidationError as e:
        raise Refused(f"{ident}: {pydantic_problems(e)[0]} {RULE}") from None
    s.terrain.append(t)
    ctx.event(f"correction: {ident} ({t.type}, {_where(t)}) added to the table", RULE)


def check_on_table(s: GameState, ident: str) -> None:
    """A corrected terrain piece stays on the table: a polygon's corners inside its edges, a circle's centre on it
    (a crater by the edge may hang over it, as the engine's own do)."""
    t = next((t for t in s.terrain if t.id == ident), None)
    if t is None:
        return
    points = [(t.circle.x, t.circle.y)] if t.circle is not None else [tuple(p) for p in t.polygon or []]
    for x, y in points:
        if not (-1e-9 <= x <= s.width + 1e-9 and -1e-9 <= y <= s.height + 1e-9):
            what = "its centre" if t.circle is not None else "a corner"
            raise Refused(f"{ident} would leave the {s.width:g}\" x {s.height:g}\" table: {what} at ({x:g}, {y:g}) "
                          f"{RULE}")


def tell_contents(ctx: Ctx, action: Action) -> None:
    """The owner says what a blip holds: a list of units (side, faction, rating, type), or none for a decoy."""
    s = ctx.state
    blip = s.blips.get(action.actor)
    if blip is None:
        raise Refused(f"no blip called {action.actor!r} is on the table {RULE}")
    if s.holding[blip.side].contents(blip.square) is not None:
        raise Refused(f"{blip.id}'s contents are known already; they are fixed at set-up [p.15, p.17]")
    if blip.id in s.blip_commitments.get(blip.side, {}):
        square = opened_square(s, blip, action.args.get("square"), action.args.get("square_salt"))
        if s.holding[blip.side].squares.get(square) is not None:
            counter_on_shown_square(ctx, blip, square)
            return
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
    committed = s.square_commitments.get(blip.side)
    square = blip.square
    if blip.id in s.blip_commitments.get(blip.side, {}):
        square = opened_square(s, blip, action.args.get("square"), action.args.get("square_salt"))
    elif "square" in action.args or "square_salt" in action.args:
        raise Refused(f"{blip.id}: side {blip.side} committed to no square for this counter: its square is known")
    if committed is not None:
        contents = check_opening(s, blip, contents, action.args.get("salt"), committed, square)
    elif "salt" in action.args:
        raise Refused(f"{blip.id}: side {blip.side}'s holding area is not kept on its own computer: no salt opens it")
    if square != blip.square:
        # The counter's own square, opened: a counter that held it as a stand-in takes this one's stand-in instead
        # (both unopened squares, unknown here, so nothing else moves).
        for other in s.blips.values():
            if other.side == blip.side and other.id != blip.id and other.square == square:
                other.square = blip.square
        blip.square = square
    s.blip_commitments.get(blip.side, {}).pop(blip.id, None)
    s.holding[blip.side].squares[blip.square] = contents
    what = ", ".join(f"{c.rating} {c.type} ({c.id})" for c in contents) or "a decoy"
    # Said just before the reveal makes it public; until then only its owner's log shows it.
    ctx.event(f"side {blip.side} tells the referee what {blip.id} holds", "[p.15, p.17]", units=[blip.id],
              private={blip.side: f"{blip.id} holds {what}"})
    if committed is not None and s.phase == "over" and not hidden_sides(s):
        # The last square still hidden at the end is opened: the battle is scored now, the set-up checked (p.~10).
        ctx.event(f"side {blip.side}'s computer has opened every square of its holding area", "[p.~10, p.16]")
        if s.result is None or s.result.pending != "objectives":
            compute_result(ctx)         # (the attacker's choice of objectives, still to come, scores the battle)


def forfeit(ctx: Ctx, side: str) -> None:
    """``side``, kept on its own computer, forfeits the battle: its computer stayed away while the battle waited for it
    to open a square (a reveal, or the end), and the other side claimed the battle (the host decides when a claim is
    allowed, ``net/desk.py``). Nothing of its secret is decided for it: its squares stay unknown, and the other side
    wins (p.~14). Said in the log, the result and the report."""
    s = ctx.state
    if side not in s.square_commitments:
        raise Refused(f"side {side!r} keeps no holding area on its own computer: only such a side forfeits when its "
                      f"computer stays away [p.~14]")
    if s.result is not None and s.result.level == FORFEITED:
        raise Refused(f"the battle is forfeited already: {s.result.headline}")
    winner = "A" if side == "B" else "B"
    headline = (f"FORFEIT: side {side}'s computer stayed away while the battle waited for it to open a square; side "
                f"{winner} claimed the battle: side {winner} wins, side {side}'s squares never opened")
    s.phase = "over"
    s.result = Result(s.control, {"A": 0, "B": 0}, winner, 0, FORFEITED, 0, list(s.breaches) + [f"{headline} [p.~14]"],
                      headline=headline)
    ctx.event(headline, "[p.~14]")


def dice_opened(ctx: Ctx, side: str, args: dict[str, Any]) -> None:
    """``side``, kept on its own computer, opens its dice contribution at the end of the battle (``dice.py``): it must
    give the commitment the side sent before the first public die, else refused, nothing changed. The host checked
    every share the side sent against it: the record entries whose shares do not follow from it (``false_shares``)
    are a breach, said in the log, the result and the report."""
    s = ctx.state
    want = s.dice_commitments.get(side)
    value, salt = str(args.get("value", "")), str(args.get("salt", ""))
    if want is None:
        raise Refused(f"side {side!r} committed no dice contribution of its own computer: nothing to open [p.~14]")
    if s.phase != "over":
        raise Refused(f"side {side}'s dice contribution is opened when the battle is over, not before [p.~14]")
    if not (is_digest(value) and is_digest(salt, 32)) or dice_commitment(side, value, salt) != want:
        raise Refused(f"side {side}'s dice contribution does not open the commitment its computer sent at set-up "
                      f"(another contribution, or another salt): refused, nothing changed [p.~14]")
    false = [n for n in str(args.get("false_shares") or "").split(",") if n.strip()]
    if not false:
        ctx.event(f"side {side}'s computer opened its dice contribution: every share it sent follows from it",
                  "[p.~14]")
        return
    breach = (f"BREACH: side {side}'s computer sent dice shares that do not follow from the contribution it committed "
              f"to, for {len(false)} action{'' if len(false) == 1 else 's'} (record entries {', '.join(false)}): the "
              f"dice of those actions were not the battle's fair dice [p.~14]")
    s.breaches.append(breach)
    if s.result is not None and breach not in s.result.explain:
        s.result.explain.append(breach)
    ctx.event(breach, "[p.~14]")


def opened_square(s: GameState, blip: BlipState, square: object, salt: object) -> int:
    """The square ``blip`` stands for as its owner opens it: it must give the commitment sent for the counter at
    set-up (``commit.blip_commitment``) and be a square no other counter has shown, else refused, nothing changed."""
    want = s.blip_commitments[blip.side][blip.id]
    if isinstance(square, bool) or not isinstance(square, int) or not 1 <= square <= SQUARES:
        raise Refused(f"{blip.id}: side {blip.side}'s answer names no square of its holding area (expected square: 1 "
                      f"to {SQUARES}, got {square!r}): the counter's commitment cannot be checked [A59]")
    if not is_digest(salt, SALT_HEX):
        raise Refused(f"{blip.id}: side {blip.side}'s answer has no square_salt (expected {SALT_HEX} hex digits): the "
                      f"counter's commitment cannot be checked [A59]")
    if blip_commitment(battle_id(s.dice_commitments), blip.side, square, str(salt)) != want:
        raise Refused(f"{blip.id}: side {blip.side}'s answer does not open the commitment it sent for this counter's "
                      f"square at set-up (another square, or another salt): refused, nothing changed [A59]")
    return square


def counter_on_shown_square(ctx: Ctx, blip: BlipState, square: int) -> None:
    """``blip``'s owner opened its commitment and it proves a square another counter has shown already: its set-up
    broke the rule of one counter a square (A59). The battle goes on: the counter stands for what its commitment
    proves, that square, whose units are on the table already (or that was a decoy), so it opens as nothing: a decoy,
    removed at the reveal. The breach is recorded, named in the result and the report (p.~10, A59)."""
    s = ctx.state
    s.blip_commitments.get(blip.side, {}).pop(blip.id, None)
    if any(b.side == blip.side and b.square == square for b in s.blips.values()):
        # The counter that showed it is still on the table (the end of the battle opens counters in place): this one
        # is removed now, as a decoy would be.
        del s.blips[blip.id]
    else:
        # No stand-in is held on a square shown already, so nothing else moves: the reveal going on finds it empty.
        blip.square = square
    breach = (f"BREACH: side {blip.side}'s computer committed {blip.id} to square {square}, which another counter had "
              f"shown already: its set-up broke the rule of one counter a square; {blip.id} is opened as a decoy and "
              f"removed [A59, p.~10]")
    s.breaches.append(breach)
    ctx.event(breach, "[A59, p.~10]", units=[blip.id])
    if s.phase == "over" and not hidden_sides(s) and (s.result is None or s.result.pending != "objectives"):
        compute_result(ctx)


def check_opening(s: GameState, blip: BlipState, contents: list[UnitContents], salt: object,
                  committed: dict[str, str], square: int | None = None) -> list[UnitContents]:
    """The owner's opening of ``blip``'s square (``square``: the one it opened for the counter, else the counter's)
    must give the commitment it sent at set-up (``commit.py``): any other contents, salt or square is refused,
    nothing recorded. Returns the contents as they come back to the table: a unit that Scrambled into the square
    comes back as it left it (``as_left``, public: the table saw it)."""
    square = blip.square if square is None else square
    want = committed.get(str(square))
    if want is None:
        raise Refused(f"{blip.id}: side {blip.side} committed to no square {square} at set-up")
    if not is_digest(salt, SALT_HEX):
        raise Refused(f"{blip.id}: side {blip.side}'s answer has no salt (expected {SALT_HEX} hex digits): the "
                      f"square's commitment cannot be checked")
    units = [c.model_dump(mode="json") for c in contents]
    if square_commitment(battle_id(s.dice_commitments), blip.side, square, units, str(salt)) != want:
        raise Refused(f"{blip.id}: side {blip.side}'s answer does not open the commitment it sent for square "
                      f"{square} at set-up (other contents, or another salt): refused, nothing changed [p.~10]")
    # The commitment holds: each unit must still be one its cards issued and no opening has shown (p.~10).
    unopened = s.issued_kept.setdefault(blip.side, [])
    kept_cards = s.card_commitments.get(blip.side)
    found = []
    for unit in unit_entries(units):
        entry = next((e for e in unopened if {k: e.get(k) for k in unit} == unit), None)
        if entry is None and kept_cards is not None:
            # Its cards are kept on its own computer: the host knows no unit they issued, so it checks what it can now
            # (a unit of this side, named as set-up names them, of a known type and rating, shown by no opening
            # before); the units are checked against the cards when they are opened at the end (``cards_opened``).
            why = new_kept_unit_problem(kept_cards, blip.side, unit)
            if why:
                raise Refused(f"{blip.id}: square {square} as side {blip.side} committed to it holds {unit['id']}, "
                              f"{why}: its set-up broke the holding area's rule; refused [p.~10]")
            kept_cards["opened"].append(dict(unit))
            found.append(dict(unit))
            continue
        if entry is None:
            raise Refused(f"{blip.id}: square {square} as side {blip.side} committed to it holds {unit['id']} "
                          f"({unit['rating']} {unit['type']}), which is not a unit its cards issued, or is in another "
                          f"square too: its set-up broke the holding area's rule; refused [p.~10]")
        unopened.remove(entry)          # at once: the same unit twice in one square is caught too
        found.append(entry)
    as_left = {str(e["id"]): e["as_left"] for e in found if isinstance(e.get("as_left"), dict)}
    return [c.model_copy(update=as_left[c.id]) if c.id in as_left else c for c in contents]


def new_kept_unit_problem(kept_cards: dict[str, Any], side: str, unit: dict[str, Any]) -> str:
    """Why ``unit``, opened from a square of ``side`` whose cards are kept on its own computer, cannot be one of the
    units they issued, as far as the host can tell before the cards are opened, or ""."""
    kind, number = str(unit.get("type")), str(unit.get("id")).rpartition("-")[2]
    if unit.get("side") != side or unit.get("faction") != kept_cards["faction"]:
        return f"a unit of side {unit.get('side')!r} of {unit.get('faction')!r}, not side {side}'s"
    if kind not in unit_type_names() or unit.get("rating") not in RATINGS:
        return f"of no known type and rating ({unit.get('rating')!r} {kind!r})"
    if unit.get("id") != f"{side.lower()}-{kind}-{number}" or not number.isdigit() or int(number) < 1:
        return f"not named as set-up names a unit its cards issue ({side.lower()}-{kind}-N)"
    if any(u.get("id") == unit.get("id") for u in kept_cards["opened"]):
        return "which an earlier opening showed already"
    return ""


def cards_opened(ctx: Ctx, side: str, args: dict[str, Any]) -> None:
    """``side``, whose cards were drawn on its own computer (``kept_cards.py``), opens them at the end of the battle
    with its dice contribution. The contribution must give the commitment it sent before the first die, else refused,
    nothing changed. Then the engine draws the cards again from it and the host's parts, checks the cards opened are
    those the draw gave (a streak's choice among them), that they give the commitment sent with the draw, and issues
    the force again: every unit its squares opened must be one of it, and every one of it opened. Any mismatch is a
    breach, said in the log, the result and the report; cards that are not the draw's or do not give the commitment
    are not scored (0 VP). Then the battle is scored (``compute_result``)."""
    s = ctx.state
    kept = s.card_commitments.get(side)
    if kept is None:
        raise Refused(f"side {side!r} drew no cards on its own computer: nothing to open [p.~14]")
    if s.phase != "over":
        raise Refused(f"side {side}'s cards are opened when the battle is over, not before [p.~14]")
    if kept.get("checked"):
        raise Refused(f"side {side}'s cards are opened already [p.~14]")
    if side in hidden_sides(s):
        raise Refused(f"side {side}'s cards are opened once every square of its holding area is [p.~14]")
    value, dice_salt = str(args.get("value", "")), str(args.get("dice_salt", ""))
    if not (is_digest(value) and is_digest(dice_salt, 32)) or dice_commitment(side, value, dice_salt) != \
            s.dice_commitments.get(side):
        raise Refused(f"side {side}'s dice contribution does not open the commitment its computer sent at set-up "
                      f"(another contribution, or another salt): its cards cannot be drawn again; refused, nothing "
                      f"changed [p.~14]")
    mission, troop, drone = str(args.get("mission", "")), str(args.get("troop", "")), str(args.get("drone", ""))
    purchase, salt = args.get("purchase"), str(args.get("salt", ""))
    breaches = []
    hand = None
    try:
        offer = offer_of(kept["draw"], side, value)
        if drone != offer.drone:
            raise ValueError(f"drone card {drone!r} is not the drone card the draw gave ({offer.drone})")
        hand = hand_of(setup_deck(), side, offer, mission, troop, purchase, chance_encounter=s.mode == "chance-encounter")
    except ValueError as e:
        breaches.append(f"BREACH: side {side}'s computer opened cards its draw did not give: {e}; its mission is not "
                        f"scored [p.~9, A42, A47]")
    if hand is not None and cards_commitment(battle_id(s.dice_commitments), side, hand.mission, hand.troop, hand.drone,
                                             hand.drone_line, hand.purchase, salt) != kept["committed"]:
        breaches.append(f"BREACH: side {side}'s computer opened cards that do not give the commitment it sent when it "
                        f"drew them (other cards, another purchase or another salt); its mission is not scored "
                        f"[p.~9, A42]")
    if hand is not None and not breaches:
        breaches.extend(round_limit_breaches(s, side, kept, _card("mission", hand.mission, side).round_limit))
        s.missions[side] = hand.mission
        s.cards[side] = DealtCards(troop=hand.troop, line=hand.troop_line, drone=hand.drone,
                                   drone_line=hand.drone_line)
        issued = [{"id": u["id"], "side": side, "faction": kept["faction"], "rating": u["rating"], "type": u["type"]}
                  for u in hand.issued]
        opened = [{k: u.get(k) for k in ("id", "side", "faction", "rating", "type")} for u in kept["opened"]]
        missing = [u["id"] for u in issued if u not in opened]
        extra = [f"{u['id']} ({u['rating']} {u['type']})" for u in opened if u not in issued]
        if extra:
            breaches.append(f"BREACH: side {side}'s holding area as its computer committed to it held "
                            f"{', '.join(extra)}, which its cards did not issue: its set-up broke the rule [p.~10]")
        if missing:
            breaches.append(f"BREACH: side {side}'s holding area as its computer committed to it held no square for "
                            f"{', '.join(missing)}, issued by its cards: its set-up broke the rule [p.~10]")
    kept["checked"] = True
    if not breaches:
        ctx.event(f"side {side}'s computer opened its cards: the draw gave them, they give its commitment, and every "
                  f"holding square opened holds the units they issue", "[p.~9, p.~10, p.~14]")
    for breach in breaches:
        s.breaches.append(breach)
        ctx.event(breach, "[p.~14]")
    if s.result is None or s.result.pending != "objectives":
        compute_result(ctx)


def round_limit_breaches(s: GameState, side: str, kept: dict[str, Any], limit: int | None) -> list[str]:
    """Whether ``side``'s computer said its own mission's round limit was reached (A43) when, and only when, it was:
    the host could not read the mission, so it took the computer's word at each end of round."""
    said = kept.get("limit_said")
    if said is not None and (not limit or said < limit):
        has = f"ends the battle after round {limit}" if limit else "has no round limit"
        return [f"BREACH: side {side}'s computer said its mission's round limit was reached after round {said}, but "
                f"its mission {has}: the battle was ended early [A43]"]
    if limit and said is None and s.round > limit:
        return [f"BREACH: side {side}'s computer did not say its mission's round limit of {limit} was reached: the "
                f"battle went on to round {s.round} [A43]"]
    return []


def _card(kind: str, ident: object, side: str) -> Any:
    """A mission, troop or drone card by id, from the player's own deck or the sample deck (as scoring finds it)."""

    if not isinstance(ident, str) or not ident:
        raise Refused(f"side {side}: expected a {kind} card's id (got {ident!r}) [p.~14]")
    decks = (playing_deck(), bundled_deck())
    for deck in decks:
        try:
            return getattr(deck, kind)(ident)
        except InputError:
            continue
    known = sorted({c.id for d in decks for c in getattr(d, f"{kind}_cards")})
    raise Refused(f"side {side}: no {kind} card {ident!r} (expected one of {', '.join(known)}) [p.~14]")


def enter_mission(ctx: Ctx, action: Action) -> None:
    """A player enters their mission card (and, if they wish, troop and drone cards) so the program scores it."""
    s = ctx.state
    side = action.actor
    if side not in ("A", "B"):
        raise Refused(f"a mission is entered by side A or B (got {side!r}) [p.~14]")
    scoring_late = s.phase == "over" and s.result is not None and side in (s.result.missions_unknown or ())
    if s.phase == "over" and not scoring_late:
        raise Refused("the battle is over: missions are revealed now, not entered [p.16]")
    if s.missions.get(side):
        raise Refused(f"side {side}'s mission card is entered already; it was fixed at set-up [p.~14]")
    unknown = sorted(set(action.args) - {"mission", "troop", "drone"})
    if unknown:
        raise Refused(f"side {side}: unknown keys {', '.join(unknown)} (expected mission, troop, drone) [p.~14]")
    mission = _card("mission", action.args.get("mission"), side)
    cards: dict[str, str] = {}
    for kind in ("troop", "drone"):
        if action.args.get(kind) is not None:
            cards[kind] = _card(kind, action.args[kind], side).id
    if "troop" in cards:
        cards["line"] = mission.troop_line
    s.missions[side] = mission.id
    if cards:
        s.cards[side] = DealtCards.model_validate(cards)
    also = " and its " + " and ".join(k for k in ("troop", "drone") if k in cards) + " card" if cards else ""
    if scoring_late:
        # the battle is over and everything is revealed: the mission kept on the mat is scored now
        ctx.event(f"side {side} enters its mission card{also} after the battle: {mission.title}", "[p.~14, p.16]")
        compute_result(ctx)
        return
    # Public: that a card was entered, never which (p.~14: missions are secret until the end of the battle).
    ctx.event(f"side {side} enters its mission card{also} for the program to score; it stays secret until the end "
              "of the battle", "[p.~14, p.16]")


def check_table(s: GameState) -> None:
    """The corrected table must still be one the scenario loader accepts."""

    try:
        parse_scenario(state_to_scenario_data(s), "the corrected table")
    except InputError as e:
        raise Refused(f"{e.problems[0]} {RULE}") from None
