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

from ..action_kinds import Kind
from ...rules.catalogue import is_drone_type
from ..intents import Action
from ..view_types import Data, PlayerView, TerrainView
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


def blip_label(ident: str) -> str:
    """What the opponent reads on a blip counter: the end of its id (``b-blip-KX``: KX), never its square (A59)."""
    return ident.rsplit("-", 1)[-1]


def _trooper(seen: Seen, ident: str) -> bool:
    """A unit that has a facing: a trooper (drones and blips have none [p.18, A12])."""
    u = seen.units.get(ident)
    return u is not None and not is_drone_type(str(u.get("type", "")))


def _facing_after(seen: Seen, ident: str, a: Data) -> str:
    """A trooper ends a Move facing along its last leg (A13), a Jump facing the way it jumped [p.18]: the bearing,
    degrees counter-clockwise from +x (along side A's edge, to the right), so a person can turn the miniature."""
    if not _trooper(seen, ident):
        return ""
    if a.get("facing") is not None:
        return f", facing {degrees(a['facing'])}"
    u = seen.units[ident]
    legs = [(float(u["x"]), float(u["y"]))] + [(float(v[0]), float(v[1])) for v in a.get("via", [])]
    (x0, y0), (x1, y1) = legs[-1], (float(a["x"]), float(a["y"]))
    if math.hypot(x1 - x0, y1 - y0) < 1e-9:
        return ""
    bearing = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360.0
    return f", facing the way it went: {degrees(round(bearing))} [p.18, A13]"


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
        via = "".join(f" by way of {at(*v)}" for v in a.get("via", []))
        return f"{verb} {who}{via} to {at(a['x'], a['y'])}{_facing_after(seen, action.actor, a)}."
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
        return f"Fire the flamer of {who} at {at(a['x'], a['y'])}{dice}"
    if k == Kind.KAMIKAZE:
        target = f" against {_piece(seen, a['target'])}" if a.get("target") else ""
        return f"Move {who} to {at(a['x'], a['y'])} and explode it{target}{dice}"
    if k == Kind.REVEAL:
        facing = f", facing {degrees(a['facing'])}" if a.get("facing") is not None else ""
        return (f"Reveal {who}: take the counter off and put the miniatures the log names in its place{facing}; a "
                "decoy is only taken off.")
    if k == Kind.FACE:
        return f"Turn {who} to face {degrees(a['facing'])}."
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


def _counters(n: int) -> str:
    return f"{n} Target counter{'s' if n != 1 else ''}"


def _counter_change(piece: str, was: int, now: int) -> str:
    if now > was:
        return f"Put {_counters(now - was)} on {piece} ({now} now)."
    return f"Take {_counters(was - now)} off {piece} ({now} left)."


def _terrain_at(t: TerrainView) -> str:
    circle = t.get("circle")
    if circle:
        return f"{float(circle['r']) * 2:g}\" across, centred at {at(circle['x'], circle['y'])}"
    points = t.get("polygon") or []
    if not points:
        return ""
    return f"centred at {at(sum(q[0] for q in points) / len(points), sum(q[1] for q in points) / len(points))}"


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
            lines.append(f"Lay {t['type']} {_terrain_at(t)}.".replace("  ", " ").replace(" .", "."))
    return lines
