"""The end-of-battle report in a joined window: the report scene of the host's window, fed by the report the host
hands this seat once the battle is over (``service/seat_report.py``), never by the battle itself.

Its buttons do what they do at the host: Save keeps the finished battle in this player's saves folder (the host
hands the seat its record once the battle is over), Look back and Print read that save, as they would any save.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, cast

from ...i18n import _
from ...rules.errors import InputError
from ...service.battles import open_save
from ...service.reports import battle_report_pdf
from ...service.session import BattleSession
from ..remote import RemoteBattle
from .report import ReportScene, report_lines


def remote_report_lines(battle: RemoteBattle) -> list[tuple[str, str]]:
    """The report's lines as the host's window shows them, then the computer's reasons when it played a side."""
    lines = report_lines(cast(BattleSession, battle))
    computer = battle.computer_lines()
    if computer:
        lines.append(("h", computer[0]))
        lines.extend(("b", line) for line in computer[1:])
    return lines


class RemoteReportScene(ReportScene):
    """The report of a battle joined from this window (see the module note)."""

    def __init__(self, battle: RemoteBattle, on_save: Callable[[], None] | None = None) -> None:
        self.battle = battle
        super().__init__(cast(BattleSession, battle), on_save)
        self.lines = remote_report_lines(battle)

    def print_report(self) -> Path | None:
        """The PDF report, printed from this window's save of the battle (saved first if it was not)."""
        try:
            path = self.battle.save_path if self.battle.save_path is not None else self.battle.save()
            written = battle_report_pdf(open_save(path).session, self.report_path())
        except InputError as e:
            self.printed = _("Not printed: {reason}").format(reason=e.message())
            return None
        self.printed = _("The report is printed to {file}").format(file=written)
        return written

    def look_back(self):
        try:
            battle = self.battle.look_back()
        except InputError as e:
            self.printed = e.message()
            return None
        return self.push_scene("look-back", battle, self.battle.save_path)
