"""A seat's battle log, as the window reads it: a piece at a time, from where it stopped.

The log only grows, and a take-back replaces its last entries; a reader keeps how far it read and the token of the
last entry it read, and reads again from there (``ui/battle_log.py``). Each entry comes as the seat's view gives it
(``view.log_view``): public text, and the private note of the reader's own side only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game.battle.state import GameState
from ..game.views.view import log_view
from ..game.views.view_types import LogLine


TAIL = 40          # entries a screen carries: more than a screenful of the log panel, and more than one action writes


@dataclass(frozen=True)
class LogTail:
    """The last entries of a seat's log as plain values, carried by the window's screen: what an action added
    and the screenful shown after it, read without asking the service again. ``tokens`` tell each entry from one
    written in its place after a take-back (compared by identity, as ``SeatLog.token``)."""

    length: int                                  # entries in the whole log
    start: int                                   # the index of the first entry carried
    entries: tuple[LogLine, ...]
    tokens: tuple[object, ...]


class SeatLog:
    """The log of one state of the battle, as ``reader`` may read it (None: the whole truth, once it is over)."""

    def __init__(self, state: GameState, reader: str | None) -> None:
        if reader is None and state.phase != "over":
            raise ValueError("the whole log, private notes included, is read only once the battle is over")
        self._state = state
        self.reader = reader

    def __len__(self) -> int:
        return len(self._state.log)

    def token(self, i: int) -> object:
        """What tells entry ``i`` from another entry written in its place after a take-back (compared by identity)."""
        return self._state.log[i]

    def entries(self, start: int, stop: int | None = None) -> list[LogLine]:
        return log_view(self._state, self.reader, start, stop)

    def tail(self, count: int = TAIL) -> LogTail:
        """The last ``count`` entries, for a screen to carry."""
        length = len(self._state.log)
        start = max(0, length - count)
        return LogTail(length, start, tuple(self.entries(start)), tuple(self._state.log[start:]))
