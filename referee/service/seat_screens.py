"""The battle window's questions, answered over a seat's own answers (its view, its table, its legal actions).

``BattleSession`` (the window's own seat), the shared table (``ui/scenes/table_mode.py``: the spectator's seat over a
hosted session) and a joined window (``ui/remote.py``: one side at a remote host) each answer the battle scene's
questions from what their seat may see; this mixin gives each the window's screen after each change
(``service/battle_screen.py``) and the Target tool's offer and hint (``service/target_hint.py``) computed over
those answers, so neither wrapper can fall through to a question answered from the whole session's viewer.
"""

from __future__ import annotations

from typing import Any

from ..game.battle.intents import Action
from .battle_screen import Ask, BattleScreen, battle_screen, refusal
from .target_hint import TargetHint, target_hint, target_offer


class SeatScreens:
    """Mixed into a seat wrapper that has ``attempt``, ``answer``, ``view``, ``table_for``, ``log_for`` and the
    other answers ``battle_screen`` reads."""

    def battle_screen(self, ask: Ask) -> BattleScreen:
        return battle_screen(self, ask)

    def send(self, action: Action, ask: Ask, given: list[float] | None = None) -> Any:
        return self._with_screen(self.attempt(action, given), ask)  # type: ignore[attr-defined]

    def send_die(self, pending: Any, value: float, ask: Ask) -> Any:
        return self._with_screen(self.answer(pending, value), ask)  # type: ignore[attr-defined]

    def _with_screen(self, attempt: Any, ask: Ask) -> Any:
        if attempt.legal:                 # refused: nothing changed, the screen shown stands
            attempt.screen = self.battle_screen(ask)
        return attempt

    def refusal(self, key: str, actor: str | None) -> str:
        return refusal(self, key, actor)  # type: ignore[arg-type]

    def target_offer(self, actor: str) -> dict[str, Any]:
        return target_offer(self, actor)  # type: ignore[arg-type]

    def target_hint(self, actor: str, dice: int) -> TargetHint:
        return target_hint(self, actor, dice)  # type: ignore[arg-type]
