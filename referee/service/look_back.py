"""Looking back on a battle (from the end-of-battle report, a save or a campaign): what a seat may read of it.

The summary, the whole truth and the replay's whole-truth view wait for the end of the battle, when the rules reveal
everything; before it, a replay shows only the view of the side at the screen. The dice report shows every die rolled
on the table, which both players saw. The battle itself stays here: a client gets texts and views.
"""

from __future__ import annotations

from pathlib import Path

from ..game.reports.dice_report import DiceReport, dice_report
from ..game.play.engine import Game
from ..game.records.record import read_save
from ..game.reports.summary import Summary, battle_summary
from ..game.views.view import referee_view
from ..game.views.view_types import PlayerView
from ..rules.errors import InputError
from .replay import BattleReplay


class LookBack:
    """One battle to look back on; ``viewer`` is the side at the screen (None: any, once it is over)."""

    def __init__(self, game: Game, viewer: str | None = None) -> None:
        self._game = game
        self.viewer = viewer
        self._report: DiceReport | None = None
        self._summary: Summary | None = None

    @staticmethod
    def of_save(path: Path) -> "LookBack":
        """The battle a save file holds (an unreadable file is refused with the file and the reason)."""
        return LookBack(read_save(path).game)

    @property
    def name(self) -> str:
        return self._game.state.name

    @property
    def actions(self) -> int:
        return len(self._game.record)

    @property
    def over(self) -> bool:
        s = self._game.state
        return s.phase == "over" and not (s.result is not None and s.result.pending)

    def dice_report(self) -> DiceReport:
        if self._report is None:
            self._report = dice_report(self._game)
        return self._report

    def summary(self) -> Summary | None:
        """The one-page summary, once the battle is over (None before)."""
        if self._summary is None and self.over:
            self._summary = battle_summary(referee_view(self._game.state))
        return self._summary

    def truth(self) -> PlayerView:
        """The whole truth, as the end of the battle reveals it; refused before the end."""
        if not self.over:
            raise InputError("look back", "the whole truth is shown once the battle is over")
        return referee_view(self._game.state)

    def replay(self) -> BattleReplay:
        """The battle step by step: either side's view, and the whole truth once it is over."""
        return BattleReplay(self._game)
