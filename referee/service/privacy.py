"""Which of a seat's decisions are private: made on the player's own device (the phone's hand), never at the shared
table screen.

A decision is private when making it in view of the table would tell the opponent a secret: what the side draws and
keeps (its cards and mission), which unit goes in which holding square, which square a blip counter stands for (A59),
the square a trooper Scrambles into (A23), how the side answers at the end of a round (a Withdraw announced or
answered, p.16 and A43), and the facing of its troopers just revealed (A13: chosen by their owner, in whichever
side's turn). Everything else (a Move, a Target, a shot, an activation, the edges and objectives of set-up) is played
at the table, where both players see it done.
"""

from __future__ import annotations

from typing import Any, Final

from ..game.battle.action_kinds import PRIVATE
from .screen import Screen

# The kinds of legal action (``game/play/legal.py``) a side decides in private: the registry names them, each with its
# reason (``game/action_kinds.PRIVATE``).
PRIVATE_KINDS: Final = frozenset(PRIVATE)


def is_private(kind: str) -> bool:
    """Whether a legal action of ``kind`` is decided on the player's own device (see the module note)."""
    return kind in PRIVATE_KINDS


def screen_data(screen: Screen) -> dict[str, Any]:
    """The screen as plain data (``Screen.to_data``) with each legal action marked ``"private"`` (see the module
    note): the form that travels to a phone or another computer."""
    data = screen.to_data()
    for legal in data["legal"]:
        legal["private"] = is_private(str(legal["kind"]))
    return data
