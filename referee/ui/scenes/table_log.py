"""The log panel's wrapping, kept so that an action late in a long battle costs what an early one does."""

from __future__ import annotations

from .. import panels

LONG_LOG = 40           # lines: a log this long is a battle's, kept wrapped apart from short messages
LONG_LOGS = 3           # long logs kept wrapped: each player's view of the battle, and one more
WRAP_MEMO = 40000       # lines whose wrapping is remembered (a 200-round battle's log seen by both players)

Wrapped = list[tuple[str, bool]]


class LogWrapping:
    """Held by the table scene as ``scene.log_wrapping``.

    A battle's log only grows: when the new lines begin with the last ones (or with a long log of the same title, a
    battle's as one player sees it, wrapped before a message or a hand-off replaced it) only the new ones are
    wrapped. Otherwise (the other player's view after a hand-off, one unit's entries) each line's wrapping is looked
    up: every line wrapped at this width is remembered, up to ``WRAP_MEMO`` lines."""

    def __init__(self) -> None:
        self.width = 0                                 # the log panel's width the wrapping below is for
        self.memo: dict[str, Wrapped] = {}             # each line wrapped at that width: its parts
        self.done: tuple[list[str], Wrapped] = ([], [])    # the last log wrapped: its lines, its wrapped lines
        self.long: dict[str, tuple[list[str], Wrapped]] = {}   # the last long logs (a battle's, per viewer), by title

    def wrap(self, title: str, lines: list[str], width: int) -> Wrapped:
        """``lines`` (the log called ``title``) wrapped to ``width`` pixels, each wrapped line with its heading flag."""
        if width != self.width:
            self.width, self.memo = width, {}
            self.done, self.long = ([], []), {}
        grown = None
        for before, wrapped_before in (self.done, *self.long.values()):
            n = len(before)
            if n and len(lines) >= n and lines[n - 1] == before[-1] and lines[:n] == before:
                grown = wrapped_before + self.wrapped(lines[n:])
                break
        wrapped = grown if grown is not None else self.wrapped(lines)
        self.done = (lines, wrapped)
        if len(lines) >= LONG_LOG:
            self.long.pop(title, None)
            self.long[title] = (lines, wrapped)
            while len(self.long) > LONG_LOGS:
                del self.long[next(iter(self.long))]
        if len(self.memo) > WRAP_MEMO:
            keep = set(lines).union(*(kept for kept, _ in self.long.values()))
            self.memo = {line: parts for line, parts in self.memo.items() if line in keep}
        return wrapped

    def wrapped(self, lines: list[str]) -> Wrapped:
        memo, width, out = self.memo, self.width, []
        for line in lines:
            parts = memo.get(line)
            if parts is None:
                parts = memo[line] = panels.log_lines((line,), width)
            out.extend(parts)
        return out
