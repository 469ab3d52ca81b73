"""Stepping through a recorded battle: the table after any action, as one player knew it or as the whole truth.

``BattleReplay`` rebuilds the state after the first ``n`` actions by replaying the record with its recorded dice
(moving forward from the nearest state already rebuilt, so stepping one action at a time costs one action).
What a player knew at that moment is ``player_view`` of that state: the same filter as during play, so a replay from
side A's view never shows what side A could not see then. The whole truth (``referee_view``) is offered only once
the battle is over, as the end-of-battle report reveals everything.
"""

from __future__ import annotations

from ..game.battle.dice import replay_source
from ..game.play.engine import Game, play
from ..game.battle.state import SIDES, GameState
from ..game.views.view import player_view, referee_view
from ..game.views.view_types import PlayerView

TRUTH = "truth"


class BattleReplay:
    def __init__(self, game: Game) -> None:
        self.game = game
        self._states: dict[int, GameState] = {0: game.initial}

    @property
    def steps(self) -> int:
        return len(self.game.record)

    @property
    def over(self) -> bool:
        s = self.game.state
        return s.phase == "over" and not (s.result is not None and s.result.pending)

    def viewers(self) -> list[str]:
        """Whose view may be replayed: either side, and the whole truth once the battle is over."""
        return [*SIDES, TRUTH] if self.over else list(SIDES)

    def state_at(self, n: int) -> GameState:
        """The state after the first ``n`` actions (0: the record's start, before set-up in a new battle)."""
        if not 0 <= n <= self.steps:
            raise ValueError(f"the battle has {self.steps} actions; there is no step {n}")
        if n not in self._states:
            start = max(k for k in self._states if k <= n)
            state = self._states[start]
            for i in range(start, n):
                entry = self.game.record[i]
                outcome = play(state, entry.action, replay_source(entry.rolls))
                if not outcome.legal:
                    raise ValueError(f"action {i + 1} ({entry.action.text()}) no longer replays: {outcome.reason}")
                state = outcome.state
                self._states[i + 1] = state
        return self._states[n]

    def view_at(self, n: int, viewer: str) -> PlayerView:
        """What ``viewer`` ("A", "B" or "truth") saw after the first ``n`` actions."""
        if viewer == TRUTH:
            if not self.over:
                raise ValueError("the whole truth is shown once the battle is over; replay it from a side's view")
            return referee_view(self.state_at(n))
        return player_view(self.state_at(n), viewer)

    def news(self, n: int, viewer: str) -> list[str]:
        """What ``viewer`` was told by action ``n``: the log lines it added, from that viewer's own log (so a
        player's replay quotes only what the player read at the time, private notes of the other side never)."""
        if n == 0:
            if self.game.initial.phase == "setup":
                return ["the table before set-up"]
            return ["after set-up, before the first action"]
        before = len(self.state_at(n - 1).log)
        lines = []
        for e in self.view_at(n, viewer)["log"][before:]:
            lines.append(e["text"] + (f" (only you: {e['note']})" if e.get("note") else ""))
        why = self.game.record[n - 1].why
        if viewer == TRUTH and why:
            # The whole truth (the battle is over): the computer's reason, kept in its sealed record.
            lines.append(f"the computer's reason: {why.split(': ', 1)[-1]}")
        return lines or ["(nothing this player could see)"]
