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
from ...rules.stats import RATING_TITLES, RATINGS, STAT_NAMES
from ...service.battles import open_save
from ...service.reports import battle_report_pdf
from ...service.session import BattleSession
from ..remote import RemoteBattle
from .dialogs import Dialog
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

    def __init__(self, battle: RemoteBattle, on_save: Callable[[], None] | None = None,
                 ask_upgrade: Callable[[str, str], str] | None = None) -> None:
        self.battle = battle
        # A campaign's battle by e-mail: this side asks for its upgrades in the battle's file (``net/mail.py``).
        self.ask_upgrade = ask_upgrade
        super().__init__(cast(BattleSession, battle), on_save)
        self.lines = remote_report_lines(battle)

    def button_labels(self) -> list[tuple[str, str]]:
        labels = super().button_labels()
        if self.ask_upgrade is not None:
            labels.insert(-1, ("upgrade", _("Ask for upgrades…")))
        return labels

    def pressed(self, key: str) -> None:
        if key == "upgrade":
            self.ask_for_upgrade()

    def ask_for_upgrade(self) -> None:
        """One purchase for this side, asked in the battle's file: its rating, then its stat; what came of it said."""
        if self.app is None or self.ask_upgrade is None:
            return
        app, ask = self.app, self.ask_upgrade

        def said(lines: list[str]) -> None:
            app.push(Dialog(_("Ask for upgrades"), lines, [("ok", _("OK"))]))

        def stat_chosen(rating: str, stat: str | None) -> None:
            if stat not in STAT_NAMES:
                return
            try:
                said([ask(rating, stat)])
            except InputError as e:
                said([e.message()])

        def rating_chosen(rating: str | None) -> None:
            if rating not in RATINGS:
                return
            app.push(Dialog(_("Ask for upgrades: {rating}").format(rating=RATING_TITLES[rating]),
                            [_("Which stat gets +1?")], [(s, s.capitalize()) for s in STAT_NAMES],
                            lambda stat: stat_chosen(rating, stat), columns=3))

        app.push(Dialog(_("Ask for upgrades"),
                        [_("+1 to one stat of one rating of your side's faction, asked in the battle's file. The "
                           "computer that began the battle buys it in the campaign with your banked tech points when "
                           "it has the file, and writes in the file what came of it.")],
                        [(r, RATING_TITLES[r]) for r in RATINGS], rating_chosen, columns=3))

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
