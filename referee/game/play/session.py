"""A battle session: what the window and the command line drive (no pygame).

``preview(action)`` runs the engine's own resolution of the action on a copy of the state and stops at the first
die or the first reveal (what a blip holds is never in a preview): the figures it shows (path cost, Target prices,
rifle dice and odds, countermeasures, the flamer template, the kamikaze's contact and blast) are the numbers the
checks of that resolution found, so a preview cannot disagree with what the engine then does. ``apply(action, dice)`` resolves it for real. ``legal_actions()`` lists, for the side to
act, every action it may take now with the ranges of its free parameters (see ``legal.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..battle.intents import Action, LegalAction, Preview
from .actions import ActionOutcome, run, unit_action
from ..battle.dice import DiceMissing, DiceSource, RollRequest
from .effects import UnknownContents
from .engine import Game, resolution
from .legal import legal_actions
from ..battle.state import GameState


class FirstDieStops:
    """A dice source for previews: the engine's checks run, and the first die ends the run."""

    def answer(self, request: RollRequest) -> float:
        raise DiceMissing(request)


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
