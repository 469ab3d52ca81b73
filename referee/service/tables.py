"""One action on a table (``query SCENARIO do ...``): a scenario's pieces as they stand, the action resolved with the
dice given, and the new table handed back as a scenario's data; no battle is begun and nothing is recorded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game.play.actions import run, unit_action
from ..game.battle.dice import RollRequest, ScriptedDice, SeededDice, new_seed
from ..game.play.effects import Ctx, UnknownContents
from ..game.battle.dice import DiceMissing, Rolling
from ..game.battle.state import state_from_scenario, state_to_scenario_data
from ..game.play.turns import jammer_test
from ..rules.scenario import MAX_COUNTERS, Scenario
from .battles import check_all_used
from .intents import Action


class _TableDice:
    """The dice given on the command line; choices the referee makes (which scrambled blip is real, its labels, a
    square not given) are drawn by the program from a fresh 128-bit seed."""

    def __init__(self, given: ScriptedDice) -> None:
        self.given = given
        self.draws = SeededDice(new_seed())

    def answer(self, request: RollRequest) -> float:
        return self.draws.answer(request) if request.kind == "draw" else self.given.answer(request)


@dataclass(frozen=True)
class TableDone:
    """The engine's word on one action on a table, and the table after it (the scenario's data, secrets included)."""

    legal: bool
    reason: str
    events: list[str]
    explain: list[str]
    dice_used: int
    table: dict[str, Any]
    missing: str = ""            # a die the engine asked for and nobody gave
    given_used: int = 0          # with ``missing``: how many of the dice given were used before it
    no_contents: str = ""        # a blip the action would reveal whose contents the scenario does not list
    too_many: str = ""           # a piece left with more Target counters than a table file holds, in words


class TableAction:
    """The pieces of one scenario, ready for an action."""

    def __init__(self, scenario: Scenario) -> None:
        self._state = state_from_scenario(scenario)

    def piece_ids(self) -> set[str]:
        """The units, blips and objectives on the table."""
        s = self._state
        return set(s.units) | set(s.blips) | set(s.objectives) | set(s.ground)

    def damaged_trooper(self, unit: str) -> bool:
        """A Damaged trooper rolls its Damaged check before the action's own dice (A25)."""
        u = self._state.units.get(unit)
        return u is not None and not u.is_drone and u.damaged

    def do(self, action: Action, dice: list[int], bearings: list[float], more: bool = False,
           where: str = "--dice") -> TableDone:
        """``action`` with the dice given. It ends the unit's activation unless ``more`` says it still has one: the
        jammer test of a unit ending its activation in a jamming field follows, its die after the action's (p.23,
        A38). Dice or bearings left over are refused (``check_all_used``, naming ``where``)."""
        source = _TableDice(ScriptedDice(dice=dice, bearings=bearings))

        def then_jammer_test(ctx: Ctx) -> Rolling[object]:
            responded = yield from unit_action(ctx, action)
            if not more:
                yield from jammer_test(ctx, action.actor)
            return responded

        try:
            outcome = run(self._state, then_jammer_test, source)
        except DiceMissing as e:
            return TableDone(False, "", [], [], 0, {}, missing=e.request.describe(),
                             given_used=source.given.used_dice)
        except UnknownContents as e:
            return TableDone(False, "", [], [], 0, {}, no_contents=e.blip_id)
        if outcome.legal:
            check_all_used(source.given, where)
        dice_used = sum(1 for r in outcome.rolls if r.kind == "d6") if outcome.legal else 0
        table = state_to_scenario_data(outcome.state, secrets=True)
        return TableDone(outcome.legal, outcome.reason, list(outcome.events), list(outcome.explain), dice_used,
                         table, too_many=_too_many(table))


def _too_many(table: dict[str, Any]) -> str:
    """The first piece of the table after an action holding more Target counters than a table file holds, in words
    (the rules set no cap, p.19; a file does, so that nothing read from one makes the odds slow), else ""."""
    for group in ("units", "objectives", "ground"):
        for piece in table.get(group) or []:
            if int(piece.get("target_counters", 0)) > MAX_COUNTERS:
                return (f"{piece['id']} would hold {piece['target_counters']} Target counters, more than a table "
                        f"file holds ({MAX_COUNTERS}), so the table after the action could not be read again")
    return ""
