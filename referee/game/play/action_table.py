"""The engine's side of every kind of action (``action_kinds.KINDS``): how it is checked and how it is resolved.

``RULES[kind].check`` is the check a kind passes before any die is rolled, run without changing the state (what
``legal_actions`` asks, on the state as it stands); a kind whose every check depends on where the battle stands is
checked by its resolution as it goes, and ``checked_by`` says where. ``RULES[kind].resolve`` is the generator that
resolves it, yielding each die it needs: ``engine.resolution`` drives it. ``tests/test_action_kinds.py`` holds this
table to the closed set of kinds: a kind without its check or its resolution fails there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..battle.action_kinds import KINDS, UNIT_KINDS, Kind
from .actions import CHECK, check_unit_action
from .corrections import correction
from ..battle.dice import Rolling
from .effects import Ctx
from ..battle.intents import Action
from .setup_steps import check_setup_step, setup_action
from .pool import roll_pool
from .turns import (activate, check_activate, closing, end_activation_action, end_of_round, end_turn_action,
                    face_action, objectives_action, take_back_action, unit_turn_action)

Resolution = Callable[[Ctx, Action], Rolling[Any]]
Check = Callable[[Ctx, Action], object]


@dataclass(frozen=True, slots=True)
class Rules:
    resolve: Resolution
    check: Check | None = None
    checked_by: str = ""            # where the check is made, when it is made only as the kind resolves


def _unit_check(ctx: Ctx, action: Action) -> object:
    """Who may take the action (the Action Table, A18), then the action's own check (range, sight, price)."""
    check_unit_action(ctx, action)
    return CHECK[action.kind](ctx, action)


_TURN = "its resolution, against the turn as it stands (p.16)"
_CORRECTED = "its resolution: the table it leaves must load as a scenario"

RULES: Final[dict[str, Rules]] = {
    **{kind: Rules(closing(unit_turn_action), _unit_check) for kind in UNIT_KINDS},
    Kind.ACTIVATE: Rules(closing(activate), check_activate),
    Kind.REVEAL: Rules(closing(unit_turn_action), checked_by="its resolution: only in the blip's own primary "
                                                            "activation (p.17, A19)"),
    Kind.FACE: Rules(face_action, checked_by="its resolution: a trooper just revealed, by its owner (A13, A66)"),
    Kind.END_ACTIVATION: Rules(closing(end_activation_action), checked_by=_TURN),
    Kind.END_TURN: Rules(closing(end_turn_action), checked_by=_TURN),
    Kind.END_OF_ROUND: Rules(closing(end_of_round), checked_by="its resolution: every counter used or both "
                                                               "players passed (p.16)"),
    Kind.OBJECTIVES: Rules(closing(objectives_action), checked_by="its resolution: the attacker Controls the "
                                                                  "Table at the end (p.16, A41)"),
    Kind.SENSOR_POOL: Rules(roll_pool, checked_by="its resolution: the Target's own check, on a trial copy (p.19)"),
    Kind.TAKEN_BACK: Rules(closing(take_back_action), checked_by="the service's fair Undo, with the other "
                                                                 "player's consent"),
    **{kind: Rules(correction, checked_by=_CORRECTED) for kind, e in KINDS.items() if e.part == "correction"},
    **{kind: Rules(setup_action, check_setup_step) for kind, e in KINDS.items() if e.part == "set-up"},
}
