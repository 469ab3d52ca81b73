"""What a seat at a hosted battle is handed once the battle is over: its end-of-battle report, and for a side's seat
the finished battle's record to keep.

Until the end each side's holding area, mission, cards and blips are its own; when the battle is over the rules
reveal them all (p.16), so the host hands every seat the report the window at the host shows (who Controls the Table,
the score with its explanation, both missions and holding areas, the seals checked). A spectator's seat gets the
public report: what the end reveals on the table, the seals' verdicts, not the sealed documents nor the computer's
reasons. The record (every action with its dice) goes to the sides' seats only, and only once the battle is over:
before, it holds the opponent's secrets, and the battle is kept by the host.
"""

from __future__ import annotations

from typing import Any

from ..game.records.record import dumps_save, save_document
from ..rules.errors import InputError
from .seats import SIDE_SEATS
from .session import BattleSession

NOT_OVER_REPORT = ("the end-of-battle report is made once the battle is over (p.16): until then each side's "
                   "mission and holding area are its own")
NOT_OVER_RECORD = ("the battle is kept by the host until it is over: its record holds the opponent's secrets (its "
                   "holding area, mission, cards and blips); it can be saved once the battle has ended")
NOT_A_SIDE = "the battle's record is handed to its players' seats; a spectator's seat keeps no copy"


def end_report(session: BattleSession, seat: str) -> dict[str, Any]:
    """``seat``'s end-of-battle report as data (``InputError`` before the end): the view the end reveals to it, what
    the seals caught and their checks, and for a side's seat the sealed documents and the computer's reasons."""
    if not session.over:
        raise InputError("report", NOT_OVER_REPORT)
    side = seat in SIDE_SEATS
    checks = session.seal_checks()
    computer = session.computer
    return {
        "seat": seat,
        "view": session.view_for(seat, log=False),
        "tampered": session.tampered(),
        "seals": [{"side": c.side, "sealed": bool(c.sealed), "matches": c.matches, "text": c.text()}
                  for c in checks.values()],
        "sealed_documents": session.sealed_documents() if side else [],
        "refereed": session.refereed,
        "campaign_recorded": list(session.campaign_recorded),
        "computer": None if computer is None else {"side": computer.side, "level": computer.level.name,
                                                   "reopened": session.computer_reopened},
        "computer_reasons": list(session.computer_reasons) if side else [],
    }


def finished_record(session: BattleSession, seat: str) -> str:
    """The finished battle as a save file's text, for a side's seat to keep (``InputError`` with the reason before
    the end, or for a seat that is not a side). In clear: the end revealed every secret it holds, and the player
    opens it alone (a sealed save needs both players' PINs); without the dice's seed, which the record needs not."""
    if seat not in SIDE_SEATS:
        raise InputError("record", NOT_A_SIDE)
    if not session.over:
        raise InputError("record", NOT_OVER_RECORD)
    return dumps_save(save_document(session.game))
