"""An action as a heading a player reads ("Move a-tactical-2 to (23.93, 8.37)"), where ``Action.text`` is the
command line's form ("move a-tactical-2 23.9275 8.37462"), kept for scripts and the record."""

from __future__ import annotations

from ..game.battle.action_kinds import FIRED, KINDS, TO_A_POINT, Kind
from ..game.battle.intents import Action

VERBS: dict[str, str] = {kind: entry.verb for kind, entry in KINDS.items() if entry.verb}


def _at(x: float, y: float) -> str:
    return f"({float(x):.2f}, {float(y):.2f})"


def action_words(action: Action) -> str:
    """The heading of ``action``'s result or of its dice: its verb, actor and target, points to a hundredth."""
    kind, a = action.kind, action.args
    verb = VERBS.get(kind)
    if verb is None:
        return action.text()
    words = f"{verb} {action.actor}".rstrip()
    if kind in TO_A_POINT and "x" in a and "y" in a:
        words += f" to {_at(a['x'], a['y'])}"
        if a.get("target"):
            words += f" against {a['target']}"
    elif kind in FIRED and a.get("target"):
        words += f" at {a['target']}"
    elif kind in (Kind.COMMAND, Kind.REPAIR) and a.get("target"):
        words += f" on {a['target']}"
    elif kind == Kind.TARGET and a.get("dice"):
        words += f": {a['dice']} dice"
    elif kind == Kind.ACTIVATE and a.get("extra"):
        words += " (extra blip activation)"
    return words
