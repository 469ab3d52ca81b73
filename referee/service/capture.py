"""A photo of the physical table read against a battle: the service's side of ``referee/capture``.

The window and the command line hand the service a photo; the service reads it against the battle it holds (the
table as first laid out gives the markers, the table now gives the differences) and, for a save, plays the
differences the players accepted. The clients see the reading and the differences, never the battle's state.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..capture.differences import Difference
from ..capture.tables import Comparison, compare, from_game
from ..game.battle.dice import RollRequest
from ..game.records.record import read_save, save_game
from ..game.play.session import preview
from ..rules.errors import InputError

if TYPE_CHECKING:
    import numpy as np

    from .session import BattleSession


def compare_photo(session: BattleSession, image: np.ndarray) -> Comparison:
    """The photo read with the battle's markers, and what changed since the battle's last known table."""
    return compare(from_game(session.game), image)


class _NoDice:
    """A Move or a correction that rolls nothing needs no dice; one that does is not played here."""

    def answer(self, request: RollRequest) -> float:
        raise InputError("dice", f"{request.describe()}: the command line plays no dice here")


def play_into_save(save_path: Path | str, out: Path | str, chosen: list[Difference]) -> list[str]:
    """Play the differences the players accepted into the battle of ``save_path`` and write it to ``out``; a Move
    that rolls dice (passive sensors) is left for the window, where the dice are typed. Returns what was done."""
    save = read_save(save_path)
    game = save.game
    lines, played = [], 0
    for d in chosen:
        check = preview(game.state, d.action)
        if not check.legal:
            lines.append(f"  not played: {d.piece}: {check.reason}")
            continue
        if check.first_roll is not None:
            lines.append(f"  not played: {d.piece}: its Move rolls dice ({check.first_roll.describe()}): accept it "
                         "in the window, where the dice are typed")
            continue
        outcome = game.play(d.action, _NoDice())
        if not outcome.legal:
            lines.append(f"  not played: {d.piece}: {outcome.reason}")
            continue
        played += 1
        lines.append(f"  played: {d.action.text()}")
    same = Path(out).resolve() == Path(save_path).resolve()
    written = save_game(game, out, save.dice, overwrite=same)
    lines.append(f"{written}: {played} of the photo's differences played")
    return lines
