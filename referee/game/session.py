"""A battle session: what the window and the command line drive (no pygame).

``preview(action)`` runs the engine's own resolution of the action on a copy of the state and stops at the first
die or the first reveal (what a blip holds is never in a preview): the figures it shows (path cost, Target prices,
rifle dice and odds, countermeasures, the flamer template, the kamikaze's contact and blast) are the numbers the
checks of that resolution found, so a preview cannot disagree with what the engine then does. ``apply(action, dice)`` resolves it for real. ``legal_actions()`` lists, for the side to
act, every action it may take now with the ranges of its free parameters (see ``legal.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import Action, ActionOutcome, run, unit_action
from .dice import DiceMissing, DiceSource, RollRequest
from .effects import UnknownContents
from .engine import Game, resolution
from .legal import LegalAction, legal_actions
from .state import GameState


class FirstDieStops:
    """A dice source for previews: the engine's checks run, and the first die ends the run."""

    def answer(self, request: RollRequest) -> float:
        raise DiceMissing(request)


@dataclass(frozen=True)
class Preview:
    """The engine's word on ``action`` before any die: legal or the rule that forbids it, and its figures."""

    action: Action
    legal: bool
    reason: str = ""
    figures: dict[str, Any] = field(default_factory=dict)
    first_roll: RollRequest | None = None
    explain: tuple[str, ...] = ()
    # The blip whose reveal the preview stopped at (a Move into passive sensor range, counters on a blip): only its
    # id, which the table shows; what it holds is known once the action is taken.
    reveals: str | None = None
    needs_contents: str | None = None                # a blip to reveal whose contents were never told

    def to_data(self) -> dict[str, Any]:
        data = {"action": self.action.to_data(), "legal": self.legal, "figures": self.figures}
        if not self.legal:
            data["reason"] = self.reason
        if self.first_roll is not None:
            data["first_roll"] = self.first_roll.describe()
        if self.reveals is not None:
            data["reveals"] = self.reveals
        return data


def preview(state: GameState, action: Action) -> Preview:
    try:
        outcome = run(state, lambda ctx: resolution(ctx, action), FirstDieStops(), until_first_die=True)
    except UnknownContents as e:
        # Refereeing a physical game, a blip's contents are told only when it must be revealed: the action is
        # legal, and its owner says what the blip holds first.
        side = state.blips[e.blip_id].side
        return Preview(action, True, f"side {side} says what {e.blip_id} holds first", needs_contents=e.blip_id)
    return Preview(action, outcome.legal, outcome.reason, outcome.figures, outcome.first_roll,
                   tuple(outcome.explain), outcome.first_reveal)


def preview_on_table(state: GameState, action: Action) -> Preview:
    """A unit action's figures as the table stands, whoever's turn it is (``query``'s view): the engine's checks
    for the action alone, stopped at the first die."""
    outcome = run(state, lambda ctx: unit_action(ctx, action), FirstDieStops(), until_first_die=True)
    return Preview(action, outcome.legal, outcome.reason, outcome.figures, outcome.first_roll,
                   tuple(outcome.explain), outcome.first_reveal)


@dataclass
class Session:
    """One battle driven one action at a time; ``game`` holds the initial state, the record and the state now."""

    game: Game

    @property
    def state(self) -> GameState:
        return self.game.state

    def preview(self, action: Action) -> Preview:
        return preview(self.state, action)

    def apply(self, action: Action, dice: DiceSource) -> ActionOutcome:
        """Resolve ``action`` with a dice source; legal: recorded, refused: nothing changes."""
        return self.game.play(action, dice)

    def legal_actions(self, side: str | None = None) -> list[LegalAction]:
        return legal_actions(self.state, side)
