"""The computer at a physical table: what it tells the human to do with its miniatures, in plain words.

In the referee mode the computer may run one side of a game fought with real miniatures and dice. It decides as
always, from its own player view and the legal actions (``player.py``); these words turn its action into what a
person does at the table: which counter or miniature, from where to where in table inches (x across, y up from the
bottom-left corner, as the program measures), which piece to Target and with how many dice. They are made from the
computer's player view and the action only, so they name nothing the opponent may not see: a blip is "the blip at
(x, y)", never what it holds (A59); a revealed blip's units are named by the log of the reveal, which is public.

``deal_holding`` gives the computer its secret: the units behind its blips on the table, dealt from a force its
faction's deck can issue, recorded as its owner's word (the ``contents`` correction), which only its own log shows.
"""

from __future__ import annotations

import random
from collections import Counter

from ..actions import Action
from ..state import Data, GameState
from .belief import possible_forces
from .seen import Seen

ROLLS = {"target", "rifle", "missile", "flamer", "kamikaze", "command", "repair", "jammer"}


def at(x: float, y: float) -> str:
    """Table coordinates as a person measures them: to a tenth of an inch."""
    return f"({round(float(x), 1):g}, {round(float(y), 1):g})"


def _piece(seen: Seen, ident: str) -> str:
    """A piece as the human finds it on the table: a blip by where it stands, a unit by its name and place."""
    p = seen.piece(ident)
    if p is None:
        return ident
    if ident in seen.blips:
        whose = "its" if p.get("side") == seen.me else "your"
        return f"{whose} blip at {at(p['x'], p['y'])}"
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
    if k == "activate":
        extra = " (an extra blip activation)" if a.get("extra") else ""
        return f"Activate {who}{extra}."
    if k in ("move", "jump"):
        verb = "Move" if k == "move" else "Jump"
        facing = f", facing {a['facing']:g} degrees" if a.get("facing") is not None else ""
        via = "".join(f" by way of {at(*v)}" for v in a.get("via", []))
        return f"{verb} {who} to {at(a['x'], a['y'])}{via}{facing}."
    if k == "target":
        assign = a.get("assign") or {}
        on = "; place the counters as the program asks"
        if len(assign) == 1:
            (tid, n), = assign.items()
            on = f", for {n} Target counter{'s' if n != 1 else ''} on {_piece(seen, tid)}"
        return f"Target with {who}: roll {a['dice']} dice and type them{on}."
    if k == "rifle":
        return f"Fire the rifle of {who} at {_piece(seen, a['target'])}{dice}"
    if k == "missile":
        return f"Fire a missile from {who} at {_piece(seen, a['target'])}{dice}"
    if k == "flamer":
        return f"Fire the flamer of {who} at {at(a['x'], a['y'])}{dice}"
    if k == "kamikaze":
        target = f" against {_piece(seen, a['target'])}" if a.get("target") else ""
        return f"Move {who} to {at(a['x'], a['y'])} and explode it{target}{dice}"
    if k == "reveal":
        facing = f", facing {a['facing']:g} degrees" if a.get("facing") is not None else ""
        return (f"Reveal {who}: take the counter off and put the miniatures the log names in its place{facing}; a "
                "decoy is only taken off.")
    if k == "face":
        return f"Turn {who} to face {a['facing']:g} degrees."
    if k == "end-activation":
        return f"End the activation of {who}."
    if k == "end-turn":
        return "The computer ends its turn."
    if k == "end-of-round":
        if a.get("withdraw"):
            return "The computer withdraws."
        return "The computer offers to stop the battle here." if a.get("stop") else "The computer plays on."
    if k == "objectives":
        return "The computer sets the objectives: " + ", ".join(f"{o} {c}" for o, c in sorted(a.items())) + "."
    tail = dice if k in ROLLS else "."
    return f"{k.capitalize()} with {who}{tail}" if who else f"The computer: {action.text()}{tail}"


def unknown_blips(state: GameState, side: str) -> list[str]:
    """``side``'s blips on the table whose contents the program was never told."""
    return sorted(b.id for b in state.blips.values() if b.side == side and state.blip_contents(b) is None)


def deal_holding(state: GameState, side: str, faction: str, rng: random.Random) -> list[Action]:
    """The computer's secret, for a physical table: each of its blips whose contents were never told gets units
    (at most 2 a blip [p.15]) from a force its deck can issue, the rest are decoys. One ``contents`` action a blip,
    as its owner's word: only its own log shows what a blip holds."""
    blips = unknown_blips(state, side)
    if not blips:
        return []
    force = rng.choice(possible_forces())
    # The units already on the table (or known in blips) are part of the force; the rest are what the blips hold.
    shown = Counter(u.type for u in state.units.values() if u.side == side)
    for b in state.blips.values():
        if b.side == side:
            shown.update(c.type for c in state.blip_contents(b) or [])
    left = Counter(u.type for u in list(force.troopers) + list(force.drones)) - shown
    units = [(kind, force.rating) for kind in sorted(left.elements())]
    rng.shuffle(units)
    order = list(blips)
    rng.shuffle(order)
    # Fill blips two units at most, leaving decoys where the units run out; which blips stay empty follows the
    # shuffled order, not the counters' names or places.
    filled: dict[str, list[Data]] = {b: [] for b in blips}
    real = order[: max(1, min(len(order), -(-len(units) // 2)))]
    for i, (kind, rating) in enumerate(units[: 2 * len(real)]):
        filled[real[i % len(real)]].append({"faction": faction, "rating": rating, "type": kind})
    return [Action("contents", b, {"contents": filled[b]}) for b in blips]
