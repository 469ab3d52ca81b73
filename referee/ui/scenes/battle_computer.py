"""The computer's turns in the battle scene: one action at a time, decided from its own player view, shown on the
table, then the next after a pause so the human can follow each one."""

from __future__ import annotations

from typing import Callable, Iterable, Protocol

from ..action_words import action_words
from ...service.battle_screen import BattleScreen
from ...service.session import Attempt, BattleSession, Pending

COMPUTER_PACE = 0.9         # seconds between the computer's actions, so a human can follow each on the table


class ComputerHost(Protocol):
    """What the computer's turns use of the battle scene: whether it is in sight, the screen (is the computer to act),
    the session that decides and takes its actions, and how the scene asks for a die and shows an outcome."""

    @property
    def session(self) -> BattleSession: ...

    @property
    def shown(self) -> BattleScreen: ...

    def on_top(self) -> bool: ...

    def ask_die(self, pending: Pending, then: Callable[..., object], context: str = "") -> None: ...

    def after_action(self, attempt: Attempt, title: str) -> None: ...

    def say(self, title: str, lines: Iterable[object]) -> None: ...


class ComputerTurns:
    """Held by the battle scene as ``scene.computer``."""

    def __init__(self, host: ComputerHost) -> None:
        self.host = host
        self.wait = 0.0                 # seconds since the computer's last action (it acts at a human's pace)

    def update(self, dt: float) -> None:
        if not self.host.on_top() or not self.host.shown.computer_to_act:
            return
        self.wait += dt
        if self.wait >= COMPUTER_PACE:
            self.step()

    def step(self) -> None:
        """The computer's next action: decided, then sent to the engine as a player's would be."""
        host, session = self.host, self.host.session
        self.wait = 0.0
        decided = session.computer_act()
        if decided is None:
            return
        action, reason = decided
        title = f"The computer (side {session.computer.side if session.computer else ''})"
        logged_from = session.log_length()
        attempt = session.attempt(action)
        if attempt.pending is not None:
            # The players roll physical dice: the human rolls the computer's too and types them in.
            host.ask_die(attempt.pending, lambda value, p=attempt.pending: self.answered(p, value, reason),
                          f"{title}: {action_words(action)}")
            return
        if attempt.legal:
            session.note_computer(action, reason, logged_from)
        elif attempt.outcome is not None:
            session.computer_refused(action)
        host.after_action(attempt, title)

    def answered(self, pending: Pending, value: float | None, reason: str) -> None:
        host, session = self.host, self.host.session
        if value is None:
            host.say("The computer's action: waiting", ["the computer's action needs the dice rolled for it"])
            return
        attempt = session.answer(pending, value)
        if attempt.pending is not None:
            host.ask_die(attempt.pending, lambda v, p=attempt.pending: self.answered(p, v, reason),
                          f"The computer: {action_words(pending.action)}")
            return
        if attempt.legal:
            session.note_computer(pending.action, reason)
        elif attempt.outcome is not None:
            session.computer_refused(pending.action)
        host.after_action(attempt, "The computer")
