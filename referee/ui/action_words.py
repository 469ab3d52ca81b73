"""An action as a heading a player reads ("Move a-tactical-2 to (23.93, 8.37)"), where ``Action.text`` is the
command line's form ("move a-tactical-2 23.9275 8.37462"), kept for scripts and the record."""

from __future__ import annotations

from ..game.intents import Action

VERBS = {"move": "Move", "jump": "Jump", "target": "Target with", "rifle": "Rifle", "missile": "Missile",
         "flamer": "Flamer", "kamikaze": "Kamikaze", "command": "Command", "repair": "Repair",
         "scramble": "Scramble", "jammer": "Jammer", "activate": "Activate", "reveal": "Reveal", "face": "Face"}


def _at(x: float, y: float) -> str:
    return f"({float(x):.2f}, {float(y):.2f})"


def action_words(action: Action) -> str:
    """The heading of ``action``'s result or of its dice: its verb, actor and target, points to a hundredth."""
    kind, a = action.kind, action.args
    verb = VERBS.get(kind)
    if verb is None:
        return action.text()
    words = f"{verb} {action.actor}".rstrip()
    if kind in ("move", "jump", "flamer", "kamikaze") and "x" in a and "y" in a:
        words += f" to {_at(a['x'], a['y'])}"
        if a.get("target"):
            words += f" against {a['target']}"
    elif kind in ("rifle", "missile") and a.get("target"):
        words += f" at {a['target']}"
    elif kind in ("command", "repair") and a.get("target"):
        words += f" on {a['target']}"
    elif kind == "target" and a.get("dice"):
        words += f": {a['dice']} dice"
    elif kind == "activate" and a.get("extra"):
        words += " (extra blip activation)"
    return words
