"""The computer running one side of a physical game in the referee mode: it decides from its own player view, tells
the human what to do with its miniatures (``game/players/computer/table_words.py``), and once the human has done it the
action goes through the referee mode as any player's (dice typed in, a blip's owner asked what it holds)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action
from ..action_words import action_words
from ...game.players.computer.table_words import table_changes
from ...game.views.view_types import PlayerView
from ...service.session import Attempt
from .battle_computer import ComputerTurns
from .dialogs import Dialog

if TYPE_CHECKING:
    from .referee import RefereeScene


class TableComputerTurns(ComputerTurns):
    """Held by the referee scene as ``scene.computer``."""

    scene: RefereeScene

    def __init__(self, scene: RefereeScene) -> None:
        super().__init__(scene)
        self.said: tuple[Action, str, str] | None = None      # its last instruction: the action, the words, why
        self.doing: tuple[Action, str] | None = None          # its action under way (dice, contents)
        self.logged_from = 0                                   # the log's length when its action began
        self.before: PlayerView | None = None                  # the human's view when its action began
        self.changes: list[str] = []                           # what its last action changed on the table

    def step(self) -> None:
        scene, session = self.scene, self.scene.session
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
        if scene.app is None:
            self.done(action, reason)
            return
        # Its reason only where the window would show it: never for its blips, nor which unit it activates.
        lines = [words] + ([f"Why: {reason}"] if session.reason_may_show(action) else [])
        # Nothing to do at the table when it only ends its turn: the button says so.
        done = "OK" if action.kind in (Kind.END_TURN, Kind.END_OF_ROUND) else "I've done it"
        spots = session.computer_spots(action)
        # The box stays off the pieces and points it names, wherever the table is drawn now.
        scene.app.push(Dialog(f"The computer (side {computer.side})", lines, [("done", done)],
                              lambda answer: self.done(action, reason) if answer == "done" else None,
                              avoid=lambda: [scene.view.px(x, y) for x, y in spots]))

    def done(self, action: Action, reason: str) -> None:
        """The human did at the table what the computer asked: the program follows, as for any player's action."""
        self.doing = (action, reason)
        self.logged_from = self.scene.session.log_length()
        self.scene.do(action, f"The computer: {action_words(action)}")

    def watch(self) -> None:
        """An action is about to be sent (its or the human's): the human's view now, to tell what it changed."""
        self.before = self.scene.session.view(log=False)

    def followed(self, attempt: Attempt) -> None:
        """After any action: the computer's, once legal, has its reason kept for the log; what it changed on the
        table is kept to be told. After the human's own action, only what changed of the computer's pieces: a blip
        of its revealed puts down units whose place and facing the program chose."""
        doing, self.doing = self.doing, None
        computer = self.scene.session.computer
        if attempt.outcome is None or computer is None:
            return
        before, self.before = self.before, None
        legal = attempt.outcome.legal
        if legal and before is not None:
            after = self.scene.session.view(log=False)
            self.changes = table_changes(before, after) if doing is not None else \
                table_changes(before, after, side=computer.side)
        if doing is None:
            return
        if legal:
            # The end of its turn writes the next turn's heading: its reason goes before it (``note_computer``).
            self.scene.session.note_computer(*doing, logged_from=self.logged_from)
        else:
            self.scene.session.computer_refused(doing[0])

    def tell_changes(self) -> None:
        """What the last action changed on the table beyond what the human was told to do or did (the units a
        reveal puts down, the blips of a Scramble, counters, pieces taken off, smoke and craters), so the physical
        table follows the program's. Shown on top of whatever comes next, which it happened before."""
        changes, self.changes = self.changes, []
        computer = self.scene.session.computer
        if not changes or self.scene.app is None or computer is None:
            return
        self.scene.app.push(Dialog(f"The computer (side {computer.side}): on the table now", changes,
                                   [("done", "Done")], lambda answer: None))
