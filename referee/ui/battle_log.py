"""The battle log in the log panel, written out and wrapped only where it grew.

A battle's log grows with every action, so the panel must neither write out and wrap the whole of it after each
action nor keep it twice. The text is kept once, in the engine's log, and read through the player view of the side
at the screen (``game.view.log_view``, the one filter every player-facing text goes through). For each entry the
panel shows, a ``BattleLog`` keeps three numbers: where the entry is in the engine's log, and how many lines it
takes written out and wrapped to the panel. After an action only the new entries are read, written out and counted.
The lines themselves are written out again from the view when they are asked for: the panel asks for a screenful,
so a 200-round battle's log costs the window a few bytes an entry, and each action what the action itself wrote.

A take-back (the log's last entry is no longer the one read) or another width writes the log out afresh.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Generic, Protocol, TypeVar, overload

from ..service.seat_log import LogTail, SeatLog
from ..game.views.view_types import LogLine
from . import panels

Wrapped = tuple[str, bool]          # a wrapped line and whether it starts an entry
T = TypeVar("T")


class LogReader(Protocol):
    """A seat's log as a ``BattleLog`` reads it: ``SeatLog`` (the service's), or ``ScreenLog`` (a screen's)."""

    def __len__(self) -> int: ...
    def token(self, i: int) -> object: ...
    def entries(self, start: int, stop: int | None = None) -> list[LogLine]: ...


class ScreenLog:
    """The seat's log as the window's screen brought it: its last entries are read from the screen, older ones
    (scrolled back to, or the whole log written out afresh) from the service."""

    def __init__(self, tail: LogTail, log: SeatLog) -> None:
        self.tail, self.log = tail, log

    def __len__(self) -> int:
        return self.tail.length

    def token(self, i: int) -> object:
        tail = self.tail
        return tail.tokens[i - tail.start] if i >= tail.start else self.log.token(i)

    def entries(self, start: int, stop: int | None = None) -> list[LogLine]:
        tail = self.tail
        if start < tail.start:
            return self.log.entries(start, stop)
        stop = tail.length if stop is None else stop
        return list(tail.entries[start - tail.start:stop - tail.start])


def entry_lines(entry: LogLine, computer_note: str | None = None) -> list[str]:
    """One log entry as its reader reads it: ``[round] text`` with the reader's private note, its working indented,
    and the computer's reason for it when the reader may see one."""
    line = f"[round {entry['round']}] {entry['text']}"
    if entry.get("note"):
        line += f"  (only you: {entry['note']})"
    lines = [line]
    lines.extend(f"    {x}" for x in entry["explain"][1:] if x)
    if computer_note:
        lines.append(f"    the computer: {computer_note}")
    return lines


class BattleLog:
    """The battle log as one reader sees it: ``viewer`` (None: the whole truth, once the battle is over), only the
    entries naming ``unit`` if one is given, then ``tail`` (lines the panel adds after the entries).

    ``lines`` and ``wrapped`` are read-only sequences over the written-out and the wrapped lines; both are written
    out on demand, from the log last given to ``sync``."""

    def __init__(self, viewer: str | None, unit: str | None = None) -> None:
        self.viewer = viewer
        self.unit = unit
        self.width = 0
        self.log: LogReader | None = None
        self.notes: dict[int, str] = {}        # the computer's reasons the reader may see, by the entry they follow
        self.read = 0                          # entries of the engine's log read so far
        self.last_read: object = None          # the last of them: a take-back replaces it
        self.notes_read = 0                    # how many computer reasons there were when they were read
        self.entries = array("I")              # each entry shown: its index in the engine's log
        self.line_ends = array("I")            # lines written out up to and including each entry shown
        self.wrap_ends = array("I")            # wrapped lines up to and including each entry shown
        self.tail: list[str] = []
        self.tail_wrapped: list[Wrapped] = []
        self.changes = 0                       # counts every change, so a screenful asked again is not redone
        self.lines: LogSequence[str] = LogSequence(self, self.line_ends, self._entry_text, self.tail)
        self.wrapped: LogSequence[Wrapped] = LogSequence(self, self.wrap_ends, self._entry_wrapped,
                                                         self.tail_wrapped)

    # ---- keeping up with the battle -------------------------------------------------------------------------
    def sync(self, log: LogReader, notes: dict[int, str], width: int, tail: list[str] | None = None) -> None:
        """Read what the log gained since the last call (all of it after a take-back or at another width)."""
        if width != self.width or self.read > len(log) or (self.read and log.token(self.read - 1) is not self.last_read) \
                or len(notes) < self.notes_read:
            self._restart(width)
        elif len(notes) != self.notes_read:
            # A reason is kept by the entry it follows (key: that entry's index + 1), given just after the action:
            # the entries from the first one the new reasons follow are read again.
            added = islice(reversed(notes), len(notes) - self.notes_read)
            self._read_again_from(min(added) - 1)
        self.log, self.notes = log, notes
        changed = self.read < len(log)
        for i, entry in enumerate(log.entries(self.read), start=self.read):
            if self.unit is not None and self.unit not in entry["units"]:
                continue
            lines = entry_lines(entry, notes.get(i + 1))
            self.entries.append(i)
            self.line_ends.append(self._end(self.line_ends) + len(lines))
            self.wrap_ends.append(self._end(self.wrap_ends) + len(panels.log_lines(lines, width)))
        self.read, self.last_read, self.notes_read = len(log), (log.token(len(log) - 1) if len(log) else None), len(notes)
        tail = tail or []
        if tail != self.tail:
            self.tail[:] = tail
            self.tail_wrapped[:] = panels.log_lines(tail, width)
            changed = True
        if changed:
            self.changes += 1

    def _restart(self, width: int) -> None:
        self.width, self.read, self.last_read = width, 0, None
        for kept in (self.entries, self.line_ends, self.wrap_ends):
            del kept[:]
        self.changes += 1

    def _read_again_from(self, i: int) -> None:
        self.read = max(0, min(i, self.read))
        k = bisect_left(self.entries, self.read)
        for kept in (self.entries, self.line_ends, self.wrap_ends):
            del kept[k:]
        self.changes += 1

    @staticmethod
    def _end(ends: array) -> int:
        return ends[-1] if ends else 0

    # ---- the lines, written out again when asked for ---------------------------------------------------------
    def _entry(self, k: int) -> LogLine:
        i = self.entries[k]
        assert self.log is not None
        return self.log.entries(i, i + 1)[0]

    def _entry_text(self, k: int) -> list[str]:
        return entry_lines(self._entry(k), self.notes.get(self.entries[k] + 1))

    def _entry_wrapped(self, k: int) -> list[Wrapped]:
        return panels.log_lines(self._entry_text(k), self.width)


class LogSequence(Sequence[T], Generic[T]):
    """The lines of a ``BattleLog`` (written out, or wrapped) as a read-only list: the entries' lines, then the
    tail's. A slice writes out only the entries it covers; the last slice is kept for the next frame."""

    def __init__(self, log: BattleLog, ends: array, lines_of: Callable[[int], list[T]], tail: list[T]) -> None:
        self._log, self._ends, self._lines_of, self._tail = log, ends, lines_of, tail
        self._kept: tuple[tuple[int, int, int], list[T]] | None = None

    def __len__(self) -> int:
        return (self._ends[-1] if self._ends else 0) + len(self._tail)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        n = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step != 1:
                return self[start:stop][::step] if start < stop else []
            return self._between(start, stop)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("log line out of range")
        return self._between(i, i + 1)[0]

    def _between(self, start: int, stop: int) -> list[T]:
        if start >= stop:
            return []
        key = (start, stop, self._log.changes)
        if self._kept is not None and self._kept[0] == key:
            return list(self._kept[1])
        ends = self._ends
        entries_end = ends[-1] if ends else 0
        k = bisect_right(ends, start)                # the entry holding line ``start``, or the tail
        first = ends[k - 1] if k else 0              # that entry's first line
        out: list[T] = []
        line = first
        while k < len(ends) and line < stop:
            out.extend(self._lines_of(k))
            line = ends[k]
            k += 1
        out = out[start - first:]
        if stop > entries_end:
            out.extend(self._tail[max(0, start - entries_end):stop - entries_end])
        out = out[:stop - start]
        self._kept = (key, out)
        return list(out)

    def __iter__(self) -> Iterator[T]:
        for k in range(len(self._ends)):
            yield from self._lines_of(k)
        yield from self._tail
