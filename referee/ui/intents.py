"""Input turned into intents: what a player asked for, in the game's words, before anything checks or applies it.

The table view never changes the battle. When a player confirms a previewed action the scene hands an ``Intent``
to a callback; the engine (which checks, applies and records) decides what happens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Intent:
    """One action a player wants: ``kind`` from the Action Table, the acting unit, and where or at whom.

    ``path`` lists the waypoints after the start for a Move (the last one is where the base ends); a Jump has one
    point. ``target`` names the other piece for actions aimed at one (rifle, missile, command, repair...).
    """

    kind: str
    actor: str
    path: tuple[tuple[float, float], ...] = ()
    target: str | None = None
    options: dict = field(default_factory=dict)

    def action_data(self) -> dict:
        """The same request in the engine's action format: ``{"kind", "actor", "args"}``."""
        args: dict = dict(self.options)
        if self.path:
            *via, (x, y) = self.path
            args["x"], args["y"] = x, y
            if via:
                args["via"] = [list(p) for p in via]
        if self.target is not None:
            args["target"] = self.target
        return {"kind": self.kind, "actor": self.actor, "args": args}


IntentHandler = Callable[[Intent], None]
