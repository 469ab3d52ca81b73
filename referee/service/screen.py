"""A seat's screen: everything the battle service tells one seat, and nothing else.

This is what a client receives (the window, the command line, the computer, later a phone): the seat's player view
(table, log, its own secrets), who the battle waits for, whether this seat may act and what it may do, whether it may
take the last action back, and the service's messages. A client never holds the battle's state; it reads its
screen and sends intents. ``to_data`` is the screen as plain JSON, the form that travels.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..game.battle.intents import LegalAction
from ..game.play.undo import UndoCheck
from ..game.views.view_types import PlayerView, as_data

Data = dict[str, Any]


@dataclass(frozen=True)
class UndoOffer:
    """May this seat take the last action back now, and whose consent it needs (``game/play/undo.py``)."""

    allowed: bool
    reason: str = ""
    what: str = ""
    needs_consent: bool = False
    why_consent: str = ""
    side: str = ""

    @staticmethod
    def of(check: UndoCheck) -> "UndoOffer":
        return UndoOffer(check.allowed, check.reason, check.what, check.needs_consent, check.why_consent, check.side)


@dataclass(frozen=True)
class Screen:
    """One seat's screen (``seats.py``): built by ``BattleSession.screen``; read, never changed."""

    seat: str
    view: PlayerView
    to_act: str | None                 # the side the battle waits for (None: either may speak, or nobody)
    acting: bool                       # this seat may decide now
    over: bool
    legal: tuple[LegalAction, ...] = ()
    undo: UndoOffer | None = None      # None for a seat that takes nothing back (a spectator)
    computer: str | None = None        # the side the computer plays, if any (public: both know whom they face)
    messages: tuple[str, ...] = field(default=())

    def to_data(self) -> Data:
        data: Data = {"seat": self.seat, "to_act": self.to_act, "acting": self.acting, "over": self.over,
                      "computer": self.computer, "view": as_data(self.view),
                      "legal": [a.to_data() for a in self.legal], "messages": list(self.messages)}
        if self.undo is not None:
            data["undo"] = {"allowed": self.undo.allowed, "reason": self.undo.reason, "what": self.undo.what,
                            "needs_consent": self.undo.needs_consent, "why_consent": self.undo.why_consent,
                            "side": self.undo.side}
        return data

    def to_json(self) -> str:
        """The screen as canonical JSON text: two screens that show the same are the same bytes."""
        return json.dumps(self.to_data(), sort_keys=True, separators=(",", ":"), allow_nan=False)
