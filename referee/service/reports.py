"""What a client may show of a battle on file, as the rules reveal it: the table as one side sees it (or the whole
truth, the referee's), the seals made at set-up, the actions a side may take, the end-of-battle summary and the dice
report. Each is data or text made from a session; none hands the battle's state to the client."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..game.reports.dice_report import dice_report
from ..game.battle.intents import LegalAction
from ..game.play.legal import legal_actions
from ..game.records.record import state_digest
from ..game.play.seal import seal_report, seal_report_lines
from ..game.reports.summary import Summary, battle_summary
from ..game.views.view_words import describe as describe
from ..game.views.view import player_view, referee_view
from ..game.views.view_types import PlayerView
from .session import BattleSession

__all__ = ["BattleSummary", "describe", "dice_lines", "digest", "legal_of", "seal_lines", "seals", "seals_shown",
           "summary", "view_of"]


def view_of(session: BattleSession, side: str | None = None) -> PlayerView:
    """What ``side`` may see (its player view, at any phase), or without a side the whole truth (the referee's)."""
    return player_view(session.state, side) if side else referee_view(session.state)


def digest(session: BattleSession) -> str:
    """The digest of the whole truth: for the referee only (without the seals' salts, a player could try every
    possible content of the opponent's blips against it)."""
    return state_digest(session.state)


def seals_shown(session: BattleSession, side: str | None = None) -> bool:
    """The sealed documents reveal both holding areas and missions: shown when the battle is over, or to the
    referee (no ``side``); never before they were made."""
    s = session.state
    return (s.phase == "over" or not side) and bool(s.sealed)


def seals(session: BattleSession) -> dict[str, dict[str, Any]]:
    """Each side's seal from set-up, the one recomputed now, whether they match, and the sealed document."""
    return seal_report(session.game)


def seal_lines(session: BattleSession) -> list[str]:
    return seal_report_lines(session.game)


def legal_of(session: BattleSession, side: str | None = None) -> list[LegalAction]:
    """What ``side`` may do now (none when it is not its call); without a side, the side to act's."""
    return legal_actions(session.state, side)


@dataclass(frozen=True)
class BattleSummary:
    """The one-page summary of a finished battle and the end-of-battle view it is made from (the whole truth, which
    the rules reveal once the battle is over)."""

    summary: Summary
    view: PlayerView


def summary(session: BattleSession) -> BattleSummary:
    """The summary of the battle, once it is over (``InputError`` before: it is made from the end-of-battle report)."""
    view = referee_view(session.state)
    return BattleSummary(battle_summary(view), view)


def battle_report_pdf(session: BattleSession, path: Path | str) -> Path:
    """The end-of-battle report on paper (``printing/battle_report.py``): the final table, the result, both seals,
    every secret the end reveals and the dice report. Written atomically; the file's path."""
    # Lazy: the PDF library loads when a report is printed, not with every command.
    from ..printing.battle_report import save_battle_report

    return save_battle_report(session.game, path)


def dice_lines(session: BattleSession, side: str | None = None) -> list[str]:
    """The dice report: every scored roll's chance beside what happened, and each side's luck (``side``: its rolls
    only). Every roll it lists was rolled openly on the table, so it holds for a battle in progress too."""
    return dice_report(session.game).lines(side)
