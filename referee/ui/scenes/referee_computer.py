"""The computer running one side of a physical game in the referee mode: it decides from its own player view, tells
the human what to do with its miniatures (``game/players/computer/table_words.py``), and once the human has done it the
action goes through the referee mode as any player's (dice typed in, a blip's owner asked what it holds)."""

from __future__ import annotations

from typing import Protocol

from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action
from ..action_words import action_words
from ...game.players.computer.table_words import table_changes
from ...game.views.view_types import PlayerView
from ...service.referee import RefereeSession
from ...service.session import Attempt
from ..scene import Window
from ..view import ViewTransform
from .battle_computer import ComputerHost, ComputerTurns
from .dialogs import Dialog


class TableComputerHost(ComputerHost, Protocol):
    """What the computer's turns at a physical table use of the referee scene besides a battle's: the window its
    instructions are shown in, the table as drawn (the instructions stay off the pieces they name), and the action
    sent once the human has done it."""

    @property
    def session(self) -> RefereeSession: ...

    @property
    def app(self) -> Window | None: ...

    @property
    def view(self) -> ViewTransform: ...

    def do(self, action: Action, title: str | None = None, given: list[float] | None = None) -> None: ...


class TableComputerTurns(ComputerTurns):
    """Held by the referee scene as ``scene.computer``."""

    host: TableComputerHost

    def __init__(self, host: TableComputerHost) -> None:
        super().__init__(host)
        self.said: tuple[Action, str, str] | None = None      # its last instruction: the action, the words, why
        self.doing: tuple[Action, str] | None = None          # its action under way (dice, contents)
        self.logged_from = 0                                   # the log's length when its action began
        self.before: PlayerView | None = None                  # the human's view when its action began
        self.changes: list[str] = []                           # what its last action changed on the table

    def step(self) -> None:
        host, session = self.host, self.host.session
        self.wait = 0.0
        computer = session.computer
        if computer is None:
            return
        decided = session.computer_act()
        if decided is None:
            return
        action, reason = decided
        words = session.computer_words(action)
        self.said = (action, words, reason)
        if host.app is None:
            self.done(action, reason)
            return
        # Its reason only where the window would show it: never for its blips, nor which unit it activates.
        lines = [words] + ([f"Why: {reason}"] if session.reason_may_show(action) else [])
        # Nothing to do at the table when it only ends its turn: the button says so.
        done = "OK" if action.kind in (Kind.END_TURN, Kind.END_OF_ROUND) else "I've done it"
        spots = session.computer_spots(action)
        # The box stays off the pieces and points it names, wherever the table is drawn now.
        host.app.push(Dialog(f"The computer (side {computer.side})", lines, [("done", done)],
                              lambda answer: self.done(action, reason) if answer == "done" else None,
                              avoid=lambda: [host.view.px(x, y) for x, y in spots]))

    def done(self, action: Action, reason: str) -> None:
        """The human did at the table what the computer asked: the program follows, as for any player's action."""
        self.doing = (action, reason)
        self.logged_from = self.host.session.log_length()
        self.host.do(action, f"The computer: {action_words(action)}")

    def watch(self) -> None:
        """An action is about to be sent (its or the human's): the human's view now, to tell what it changed."""
        self.before = self.host.session.view(log=False)

    def followed(self, attempt: Attempt) -> None:
        """After any action: the computer's, once legal, has its reason kept for the log; what it changed on the
        table is kept to be told. After the human's own action, only what changed of the computer's pieces: a blip
        of its revealed puts down units whose place and facing the program chose."""
        doing, self.doing = self.doing, None
        computer = self.host.session.computer
        if attempt.outcome is None or computer is None:
            return
        before, self.before = self.before, None
        legal = attempt.outcome.legal
        if legal and before is not None:
            after = self.host.session.view(log=False)
            self.changes = table_changes(before, after) if doing is not None else \
                table_changes(before, after, side=computer.side)
        if doing is None:
            return
        if legal:
            # The end of its turn writes the next turn's heading: its reason goes before it (``note_computer``).
            self.host.session.note_computer(*doing, logged_from=self.logged_from)
        else:
            self.host.session.computer_refused(doing[0])

    def tell_changes(self) -> None:
        """What the last action changed on the table beyond what the human was told to do or did (the units a
        reveal puts down, the blips of a Scramble, counters, pieces taken off, smoke and craters), so the physical
        table follows the program's. Shown on top of whatever comes next, which it happened before."""
        changes, self.changes = self.changes, []
        computer = self.host.session.computer
        if not changes or self.host.app is None or computer is None:
            return
        self.host.app.push(Dialog(f"The computer (side {computer.side}): on the table now", changes,
                                   [("done", "Done")], lambda answer: None))
