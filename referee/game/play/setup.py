"""Pre-game set-up (p.~14-15, A42, A47, A55, A60): a new battle, and set-up driven from a ``SetupChoices``.

Set-up is the players' decisions, each an action of the engine recorded like any other (``setup_steps.py``). A new
battle's ``Game`` starts from the blank set-up state (``new_game``): table, factions, campaign streaks and the seals'
salts, nothing decided yet. ``setup_game`` and ``new_battle`` drive every set-up action from a ``SetupChoices`` (what
a test, ``selfplay`` or a campaign already knows); anything left out is placed for the player, by draws from the
dice source, seeded and recorded.
"""

from __future__ import annotations

from typing import Any

from ..battle.action_kinds import Kind
from ...rules.scenario import Scenario
from ..battle.intents import Action
from ..battle.cards import Deck
from ..battle.dice import DiceSource, Roll
from .engine import Game
from .seal import new_salt
from .setup_steps import (  # noqa: F401 (the zones and checks are set-up's public names)
    BLIPS, DEPLOY_DEPTH, EDGE_MARGIN, OBJECTIVE_GAP, _deck_override, decision, deployment_zone, objective_problems,
    objective_zone)
from ..battle.state import SIDES, SQUARES, GameState, Holding
from .setup_steps import blank_setup
from .effects import Refused
from .setup_choices import SetupChoices as SetupChoices

def blank_state(table: Scenario, factions: dict[str, str] | None = None,
                streak: dict[str, int] | None = None, labels_apart: bool = False) -> GameState:
    """The table before any set-up decision: factions, streaks and each side's seal salt (secret, ``seal.py``);
    ``labels_apart``: no blip label will name a counter of both sides (``state.free_labels``)."""

    return GameState(
        name=table.name, width=table.table.width, height=table.table.height, terrain=list(table.terrain),
        units={}, blips={}, objectives={}, holding={side: Holding({n: [] for n in range(1, SQUARES + 1)}) for side in SIDES},
        rulings=dict(table.rulings), scale=table.scale, attacker=None, mode="table", phase="setup",
        salts={side: new_salt() for side in SIDES},
        setup=blank_setup(factions or {}, streak),
        labels_apart=labels_apart,
    )



def new_game(table: Scenario, factions: dict[str, str], streak: dict[str, int] | None = None,
             refereed: bool = False, labels_apart: bool = False) -> Game:
    """A battle about to be set up: its record will hold every set-up decision (p.~14-15, A60). The battles the
    service starts for players draw their blips' labels apart (``labels_apart``); scripts and the seeded battles
    of the tests and benchmarks draw them as battles always did, so their records stay as they were."""
    missing = [side for side in SIDES if not factions.get(side)]
    if missing:
        raise ValueError(f"choose a faction for side {', '.join(missing)}")
    return Game(blank_state(table, factions, streak, labels_apart), refereed=refereed)


def choice_actions(state: GameState, choices: SetupChoices) -> Action:
    """The set-up action that makes the decision ``state`` waits for as ``choices`` says (left out: for me)."""
    d = decision(state)
    if d is None:
        raise ValueError("set-up has no decision left")
    side, step = d["side"], d["step"]
    if step == "roles":
        return Action(Kind.ROLL_ROLES)
    if step == "edge":
        return Action(Kind.CHOOSE_EDGE, side, {"turn": False})
    if step == "objective":
        oid = d["objective"]
        if oid in choices.objectives:
            x, y = choices.objectives[oid]
            return Action(Kind.PLACE_OBJECTIVE, side, {"objective": oid, "x": x, "y": y})
        return Action(Kind.PLACE_OBJECTIVE, side, {"objective": oid})
    if step == "cards":
        purchase = choices.purchase.get(side) if state.mode == "chance-encounter" else None
        return Action(Kind.DRAW_CARDS, side, {"purchase": dict(purchase)} if purchase else {})
    if step == "choose-cards":
        offered = state.setup.offered[side] if state.setup is not None else {}
        # The cards drawn first are played unless told otherwise: a streak's extra cards are a choice, not a change.
        args: dict[str, Any] = {"mission": offered["mission"][0], "troop": offered["troop"][0]}
        purchase = choices.purchase.get(side) if state.mode == "chance-encounter" else None
        if purchase:
            args["purchase"] = dict(purchase)
        return Action(Kind.CHOOSE_CARDS, side, args)
    if step == "holding":
        arranged = choices.holding.get(side)
        if arranged:
            return Action(Kind.FILL_HOLDING, side, {"squares": {str(n): list(ids) for n, ids in arranged.items()}})
        return Action(Kind.FILL_HOLDING, side)
    # A blip: the n-th of the side stands for square n, as it always has; positions as given, else for me.
    n = sum(1 for b in state.blips.values() if b.side == side)
    given = choices.blips.get(side, [])
    blip: dict[str, Any] = {"square": n + 1}
    if n < len(given):
        blip["x"], blip["y"] = given[n]
    return Action(Kind.PLACE_BLIP, side, blip)


def setup_game(table: Scenario, choices: SetupChoices, source: DiceSource, deck: Deck | None = None,
               refereed: bool = False) -> Game:
    """A new battle set up by actions from ``choices``: the game's record holds set-up, and the state is round 1.
    A refused choice raises ``Refused`` with the rule; a die the source lacks raises ``DiceMissing``."""

    game = new_game(table, choices.factions, choices.streak, refereed)
    if deck is not None:
        _deck_override.append(deck)
    try:
        while game.state.phase == "setup":
            action = choice_actions(game.state, choices)
            outcome = game.play(action, source)
            if not outcome.legal:
                raise Refused(outcome.reason)
    finally:
        if deck is not None:
            _deck_override.pop()
    return game


def new_battle(table: Scenario, choices: SetupChoices, source: DiceSource,
               deck: Deck | None = None) -> tuple[GameState, list[Roll]]:
    """Runs the whole set-up; returns the state ready for round 1 and the rolls it used (a table to start a
    ``Game`` from, set-up not in its record: tests and tools; a player's battle keeps set-up with ``setup_game``)."""
    game = setup_game(table, choices, source, deck)
    return game.state, [r for e in game.record for r in e.rolls]
