"""The computer at a physical table: what it tells the human to do with its miniatures, in plain words.

In the referee mode the computer may run one side of a game fought with real miniatures and dice. It decides as
always, from its own player view and the legal actions (``player.py``); these words turn its action into what a
person does at the table: which counter or miniature, from where to where in table inches (x across, y up from the
bottom-left corner, as the program measures), which piece to Target and with how many dice. They are made from the
computer's player view and the action only, so they name nothing the opponent may not see: a blip is "the blip at
(x, y)", never what it holds (A59); a revealed blip's units are named by the log of the reveal, which is public.

The units behind its blips are dealt when it takes its seat (``deal.py``).
"""

from __future__ import annotations

import math

from ...battle.action_kinds import Kind
from ....rules.catalogue import is_drone_type
from ...battle.intents import Action
from ...views.view_types import Data, PlayerView, TerrainView, as_data
from .seen import Seen

ROLLS = {Kind.TARGET, Kind.RIFLE, Kind.MISSILE, Kind.FLAMER, Kind.KAMIKAZE, Kind.COMMAND, Kind.REPAIR, Kind.JAMMER}


def at(x: float, y: float) -> str:
    """Table coordinates as a person measures them: to a tenth of an inch."""
    return f"({round(float(x), 1):g}, {round(float(y), 1):g})"


EDGES = {0: "the right edge", 90: "side B's edge", 180: "the left edge", 270: "side A's edge"}   # x across, y up


def degrees(facing: float) -> str:
    """A facing as a person turns a miniature: degrees counter-clockwise from +x, and the edge it looks at when it
    looks straight at one."""
    d = round(float(facing), 1) % 360
    edge = EDGES.get(int(d)) if d == int(d) else None
    return f"{d:g} degrees" + (f" (towards {edge})" if edge else "")


EDGE_OF = {"x+": "the right edge", "x-": "the left edge", "y+": "side B's edge", "y-": "side A's edge"}
NAMED_WITHIN = 8.0          # degrees: a facing this close to the bearing of a piece is told as "toward" that piece


def _size(seen: Seen) -> tuple[float, float]:
    table = seen.view.get("table") or {}
    return float(table.get("width", 0.0) or 0.0), float(table.get("height", 0.0) or 0.0)


def step_words(x0: float, y0: float, x1: float, y1: float) -> str:
    """A leg of a Move as a person measures it from where the miniature stands: how far, and how far of it across
    the table and up or down it, each toward a named edge (``5.6" (2.5" toward the right edge and 5" toward side
    B's edge)``)."""
    dx, dy = x1 - x0, y1 - y0
    parts = []
    if abs(dx) >= 0.05:
        parts.append(f"{round(abs(dx), 1):g}\" toward {EDGE_OF['x+' if dx > 0 else 'x-']}")
    if abs(dy) >= 0.05:
        parts.append(f"{round(abs(dy), 1):g}\" toward {EDGE_OF['y+' if dy > 0 else 'y-']}")
    return f"{round(math.hypot(dx, dy), 1):g}\"" + (f" ({' and '.join(parts)})" if len(parts) == 2 else "" if not parts
                                                   else f" {parts[0].split(' ', 1)[1]}")


def _bearing_gap(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def toward(seen: Seen, x: float, y: float, facing: float, me: str = "") -> str:
    """What a miniature at (x, y) facing ``facing`` looks at, for a person turning it: the nearest piece on the
    table within ``NAMED_WITHIN`` degrees of the facing, else the point of the table's edge it looks at. Never a
    spot off the table."""
    best: tuple[float, str] | None = None
    pieces = [*seen.units.values(), *seen.blips.values(), *seen.objectives.values()]
    for p in pieces:
        if p.get("id") == me or p.get("x") is None:
            continue
        px, py = float(p["x"]), float(p["y"])
        d = math.hypot(px - x, py - y)
        if d < 0.5:
            continue
        if _bearing_gap(math.degrees(math.atan2(py - y, px - x)) % 360.0, facing) <= NAMED_WITHIN:
            if best is None or d < best[0]:
                best = (d, _piece(seen, str(p["id"])))
    if best is not None:
        return f"toward {best[1]}"
    width, height = _size(seen)
    if width <= 0 or height <= 0:
        return ""
    ux, uy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    hits = []
    if ux > 1e-9:
        hits.append(((width - x) / ux, "x+"))
    if ux < -1e-9:
        hits.append((-x / ux, "x-"))
    if uy > 1e-9:
        hits.append(((height - y) / uy, "y+"))
    if uy < -1e-9:
        hits.append((-y / uy, "y-"))
    t, edge = min(hits)
    ex, ey = min(max(x + t * ux, 0.0), width), min(max(y + t * uy, 0.0), height)
    return f"toward {EDGE_OF[edge]} at {at(ex, ey)}"


def spot(seen: Seen, x: float, y: float) -> str:
    """A point as a person finds it on the table; one off the table (a missile's crater may land beyond an edge)
    as how far beyond which edge, level with the point of the edge nearest it: never a spot off the table."""
    width, height = _size(seen)
    if width <= 0 or height <= 0 or (0.0 <= x <= width and 0.0 <= y <= height):
        return at(x, y)
    ex, ey = min(max(x, 0.0), width), min(max(y, 0.0), height)
    beyond = []
    for gap, edge in ((-x, "x-"), (x - width, "x+"), (-y, "y-"), (y - height, "y+")):
        if gap > 0:
            beyond.append(f"{round(gap, 1):g}\" beyond {EDGE_OF[edge]}")
    return f"{' and '.join(beyond)}, off the table by {at(ex, ey)}"


def blip_label(ident: str) -> str:
    """What the opponent reads on a blip counter: the end of its id (``b-blip-KX``: KX), never its square (A59)."""
    return ident.rsplit("-", 1)[-1]


def _trooper(seen: Seen, ident: str) -> bool:
    """A unit that has a facing: a trooper (drones and blips have none [p.18, A12])."""
    u = seen.units.get(ident)
    return u is not None and not is_drone_type(str(u.get("type", "")))


def _facing_after(seen: Seen, ident: str, a: Data) -> str:
    """A trooper ends a Move facing along its last leg (A13), a Jump facing the way it jumped [p.18]: the bearing,
    degrees counter-clockwise from +x (along side A's edge, to the right), and what it looks at (a piece or the
    point of an edge), so a person can turn the miniature."""
    if not _trooper(seen, ident):
        return ""
    end = (float(a["x"]), float(a["y"]))
    if a.get("facing") is not None:
        return f", facing {degrees(a['facing'])}, {toward(seen, *end, float(a['facing']), ident)}"
    u = seen.units[ident]
    legs = [(float(u["x"]), float(u["y"]))] + [(float(v[0]), float(v[1])) for v in a.get("via", [])]
    (x0, y0), (x1, y1) = legs[-1], end
    if math.hypot(x1 - x0, y1 - y0) < 1e-9:
        return ""
    bearing = round(math.degrees(math.atan2(y1 - y0, x1 - x0))) % 360.0
    return f", facing the way it went: {degrees(bearing)}, {toward(seen, x1, y1, bearing, ident)} [p.18, A13]"


def _legs(seen: Seen, ident: str, a: Data) -> str:
    """A Move's or Jump's path leg by leg, each as distance and direction from where the miniature stands, then
    its end point."""
    p = seen.piece(ident)
    points = [(float(v[0]), float(v[1])) for v in a.get("via", [])] + [(float(a["x"]), float(a["y"]))]
    if p is None:
        return " to " + ", then to ".join(at(*q) for q in points)
    here = (float(p["x"]), float(p["y"]))
    words = []
    for q in points:
        words.append(f"{step_words(*here, *q)} to {at(*q)}")
        here = q
    return " " + ", then ".join(words)


def _piece(seen: Seen, ident: str) -> str:
    """A piece as the human finds it on the table: a blip by where it stands, a unit by its name and place."""
    p = seen.piece(ident)
    if p is None:
        return ident
    if ident in seen.blips:
        whose = "its" if p.get("side") == seen.me else "your"
        return f"{whose} blip {blip_label(ident)} at {at(p['x'], p['y'])}"
    o = seen.objectives.get(ident)
    if o is not None:
        return f"objective {ident} at {at(o['x'], o['y'])}"
    return f"{ident} at {at(p['x'], p['y'])}"


def instruction(view: Data, action: Action) -> str:
    """What the human does at the table for the computer's ``action``, decided from ``view`` (its own)."""
    seen = Seen(view, str(view.get("viewer", "")))
    a, k = action.args, action.kind
    who = _piece(seen, action.actor) if action.actor else ""
    dice = ": roll the dice the program asks for and type them."
    if k == Kind.ACTIVATE:
        extra = " (an extra blip activation)" if a.get("extra") else ""
        return f"Activate {who}{extra}: take its activation counter off."
    if k in (Kind.MOVE, Kind.JUMP):
        verb = "Move" if k == Kind.MOVE else "Jump"
        return f"{verb} {who}{_legs(seen, action.actor, a)}{_facing_after(seen, action.actor, a)}."
    if k == Kind.TARGET:
        assign = a.get("assign") or {}
        on = ("; the program places the counters the roll pays for, on " + " then ".join(_piece(seen, t) for t in assign)
              if a.get("up_to") and assign else "; place the counters as the program asks")
        if len(assign) == 1:
            (tid, n), = assign.items()
            if a.get("up_to"):
                on = (f", for as many Target counters on {_piece(seen, tid)} as the roll pays for, up to {n}: the "
                      "program places them")
            else:
                on = f", for {n} Target counter{'s' if n != 1 else ''} on {_piece(seen, tid)}"
        return f"Target with {who}: roll {a['dice']} dice and type them{on}."
    if k == Kind.RIFLE:
        return f"Fire the rifle of {who} at {_piece(seen, a['target'])}{dice}"
    if k == Kind.MISSILE:
        return f"Fire a missile from {who} at {_piece(seen, a['target'])}{dice}"
    if k == Kind.FLAMER:
        return f"Fire the flamer of {who} at {spot(seen, a['x'], a['y'])}{dice}"
    if k == Kind.KAMIKAZE:
        target = f" against {_piece(seen, a['target'])}" if a.get("target") else ""
        return f"{'Jump' if a.get('jump') else 'Move'} {who}{_legs(seen, action.actor, a)} and explode it{target}{dice}"
    if k == Kind.REVEAL:
        p = seen.piece(action.actor)
        facing = (f", facing {degrees(a['facing'])}" + (f", {toward(seen, float(p['x']), float(p['y']), float(a['facing']))}"
                                                         if p is not None else "")
                  if a.get("facing") is not None else "")
        return (f"Reveal {who}: take the counter off and put the miniatures the log names in its place{facing}; a "
                "decoy is only taken off.")
    if k == Kind.FACE:
        p = seen.piece(action.actor)
        look = f", {toward(seen, float(p['x']), float(p['y']), float(a['facing']), action.actor)}" if p else ""
        return f"Turn {who} to face {degrees(a['facing'])}{look}."
    if k == Kind.END_ACTIVATION:
        active = (view.get("turn") or {}).get("active")
        return f"End the activation of {_piece(seen, active)}." if active else "End its activation."
    if k == Kind.SCRAMBLE:
        return (f"Scramble {who}: take it off the table (it goes to a square of its holding area, which the program "
                "keeps secret); then put its three new blips where it stood, as the program tells you next [p.22, "
                "A23].")
    if k == Kind.END_TURN:
        return "The computer ends its turn."
    if k == Kind.END_OF_ROUND:
        if a.get("withdraw"):
            return "The computer withdraws."
        return "The computer offers to stop the battle here." if a.get("stop") else "The computer plays on."
    if k == Kind.OBJECTIVES:
        return "The computer sets the objectives: " + ", ".join(f"{o} {c}" for o, c in sorted(a.items())) + "."
    tail = dice if k in ROLLS else "."
    return f"{k.capitalize()} with {who}{tail}" if who else f"The computer: {action.text()}{tail}"


def instruction_spots(view: Data, action: Action) -> list[tuple[float, float]]:
    """The table points ``instruction`` names (the piece that acts, the pieces it acts on, each leg's end and a
    flamer's aim), so the window can keep its box off them; only what ``view`` shows."""
    seen = Seen(view, str(view.get("viewer", "")))
    a = action.args
    spots: list[tuple[float, float]] = []
    ids = [action.actor, str(a.get("target") or "")] + [str(t) for t in (a.get("assign") or {})]
    if action.kind == Kind.END_ACTIVATION:
        ids.append(str((view.get("turn") or {}).get("active") or ""))
    for ident in ids:
        p = seen.piece(ident) if ident else None
        if p is not None:
            spots.append((float(p["x"]), float(p["y"])))
    if action.kind in (Kind.MOVE, Kind.JUMP, Kind.KAMIKAZE, Kind.FLAMER) and "x" in a and "y" in a:
        spots += [(float(v[0]), float(v[1])) for v in a.get("via", [])] + [(float(a["x"]), float(a["y"]))]
    return spots


def _counters(n: int) -> str:
    return f"{n} Target counter{'s' if n != 1 else ''}"


def _counter_change(piece: str, was: int, now: int) -> str:
    if now > was:
        return f"Put {_counters(now - was)} on {piece} ({now} now)."
    return f"Take {_counters(was - now)} off {piece} ({now} left)."


def _terrain_at(t: TerrainView, seen: Seen) -> str:
    circle = t.get("circle")
    if circle:
        return f"{float(circle['r']) * 2:g}\" across, centred {_centred(seen, circle['x'], circle['y'])}"
    points = t.get("polygon") or []
    if not points:
        return ""
    return f"centred {_centred(seen, sum(q[0] for q in points) / len(points), sum(q[1] for q in points) / len(points))}"


def _centred(seen: Seen, x: float, y: float) -> str:
    where = spot(seen, float(x), float(y))
    return f"at {where}" if where.startswith("(") else f"{where} (lay the part that falls on the table)"


def table_changes(before: PlayerView, after: PlayerView, side: str | None = None) -> list[str]:
    """What changed on the table between two views of the same player (the human's, before and after an action),
    as things to do with the miniatures and counters: the units a reveal put down, the blips a Scramble put down,
    pieces taken off, Target counters, Damaged and Stunned, objectives, smoke and craters; with ``side``, only that
    side's units and blips. Made from that player's views only, so it says nothing the player may not see (A59)."""
    lines: list[str] = []
    units0 = {u["id"]: u for u in before["units"] if side in (None, u["side"])}
    units1 = {u["id"]: u for u in after["units"] if side in (None, u["side"])}
    blips0 = {b["id"]: b for b in before["blips"] if side in (None, b["side"])}
    blips1 = {b["id"]: b for b in after["blips"] if side in (None, b["side"])}
    # What comes off first: a revealed blip's counter, a scrambling unit; then what goes down in its place.
    for ident, b in blips0.items():
        if ident not in blips1:
            lines.append(f"Take the blip {blip_label(ident)} at {at(b['x'], b['y'])} off the table.")
    for ident, u in units0.items():
        if ident not in units1:
            lines.append(f"Take {ident} at {at(u['x'], u['y'])} off the table.")
    for ident, u in units1.items():
        if ident not in units0:
            facing = f", facing {degrees(u['facing'])}" if u.get("facing") is not None else ""
            lines.append(f"Put {ident} ({u['type']}) at {at(u['x'], u['y'])}{facing}.")
    for ident, b in blips1.items():
        if ident not in blips0:
            lines.append(f"Put a blip counter marked {blip_label(ident)} at {at(b['x'], b['y'])}.")
    for ident, u in units1.items():
        was = units0.get(ident)
        if was is None:
            if u["target_counters"]:
                lines.append(f"Put {_counters(u['target_counters'])} on {ident}.")
            continue
        if u["target_counters"] != was["target_counters"]:
            lines.append(_counter_change(ident, was["target_counters"], u["target_counters"]))
        for now, then, word in ((u["damaged"], was["damaged"], "Damaged"), (u["stunned"], was["stunned"], "Stunned")):
            if now != then:
                lines.append(f"{ident} is {'now' if now else 'no longer'} {word}.")
    if side is not None:
        return lines
    objectives0 = {o["id"]: o for o in before["objectives"]}
    for o in after["objectives"]:
        held = objectives0.get(o["id"])
        if held is None:
            continue
        if o.get("destroyed") and not held.get("destroyed"):
            lines.append(f"Objective {o['id']} is destroyed.")
            continue
        if o["target_counters"] != held["target_counters"]:
            lines.append(_counter_change(f"objective {o['id']}", held["target_counters"], o["target_counters"]))
        if o["control"] != held["control"]:
            lines.append(f"Objective {o['id']} is now " + ("Contested." if o["control"] == "contested"
                                                            else f"Secured by side {o['control']}."))
    terrain0 = {t["id"] for t in before["terrain"]}
    for t in after["terrain"]:
        if t["id"] not in terrain0:
            lines.append(f"Lay {t['type']} {_terrain_at(t, Seen(as_data(after), str(after.get('viewer', ''))))}."
                         .replace("  ", " ").replace(" .", "."))
    return lines
