"""Opening a saved battle for the window: a save, the autosave (its snapshot and the journal of every action since),
the battle a crash interrupted, and why a damaged autosave cannot be resumed.

The window is handed a ``SavedBattle``: a line safe to show any player, the file's warnings and, when it opens it,
a session. It never holds the save's battle itself.
"""

from __future__ import annotations

from pathlib import Path

from ..game import autosave
from ..game.record import AUTOSAVE_NAME, Save, read_save
from .referee import RefereeSession
from .session import BattleSession


class SavedBattle:
    """A battle read from a file, ready to be opened at the window."""

    def __init__(self, save: Save) -> None:
        self._save = save

    @property
    def path(self) -> Path | None:
        return self._save.path

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(self._save.warnings)

    @property
    def refereed(self) -> bool:
        """A physical game the program followed: it opens in the referee's mode."""
        return self._save.game.refereed

    def summary(self) -> str:
        """A line safe to show any player (no secrets): name, round, phase, when it was last saved."""
        return self._save.summary()

    def open(self) -> BattleSession:
        """The battle as a session of the window: a refereed game for the referee's seat, else hot-seat (or against
        the computer the save names). An autosave is never the battle's own file: Save then asks for a name."""
        save = self._save
        autosaved = save.path is not None and (save.path.name == AUTOSAVE_NAME
                                               or autosave.journal_path(save.path).exists())
        save_path = save.path if save.path and not autosaved else None
        if save.game.refereed:
            return RefereeSession(save.game, None, save_path=save_path)
        return BattleSession(save.game, save.dice, hotseat=True, save_path=save_path)


def read_battle(path: Path | str) -> SavedBattle:
    """The battle the file at ``path`` holds. An autosave is its snapshot and its journal: read alone, the snapshot
    would open the battle where it stood long ago. A damaged file raises ``InputError`` naming it."""
    path = Path(path)
    save = autosave.read_autosave(path) if autosave.journal_path(path).exists() else read_save(path)
    return SavedBattle(save)


def interrupted_battle() -> SavedBattle | None:
    """The autosaved battle that is not over, for the window to offer resuming (None: there is none)."""
    save = autosave.find_interrupted()
    return SavedBattle(save) if save is not None else None


def damaged_autosave() -> str | None:
    """Why the autosave cannot be resumed (None: there is none, or it opens); the file is left as it is."""
    return autosave.damaged_autosave()


def autosave_file() -> Path:
    return autosave.autosave_path()
