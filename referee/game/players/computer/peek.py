"""The peek test: does the computer's decision change when what its side cannot see is dealt again?

For a decision point, everything the deciding side cannot see is re-dealt in a way consistent with its view: the
opponent's units still hidden are shuffled among the opponent's blips on the table (so which blips are decoys
changes, and what each real one holds), the opponent's mission becomes another of the same kind, and its troop and
drone cards other cards. The deciding side's player view must come out identical (checked), and so must its legal
actions; a player that decides only from those cannot change its decision. A player that peeks -- reads the state,
or is handed one hidden fact -- changes some decisions, and the count of changed decisions shows it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ...play.legal import legal_actions
from ...battle.state import GameState, other
from ...views.view import player_view
from .player import Decision
from .seen import deck, mission_kind

Decide = Callable[[GameState, str], Decision]


def redeal(state: GameState, side: str, rng: random.Random) -> GameState:
    """``state`` with the opponent's hidden facts dealt again, consistently with ``side``'s view."""
    s = state.copy()
    them = other(side)
    if s.phase == "over":
        return s                        # everything is revealed at the end: nothing is left to re-deal
    squares = sorted(b.square for b in s.blips.values() if b.side == them)
    contents = [s.holding[them].squares.get(n, []) for n in squares]
    rng.shuffle(contents)
    for n, c in zip(squares, contents):
        s.holding[them].squares[n] = c
    d = deck()
    if them in s.missions:
        kind = mission_kind(s.mode, s.attacker, them)
        options = [m.id for m in d.missions(kind) if m.id != s.missions[them]]
        if options:
            s.missions[them] = rng.choice(options)
    if them in s.cards:
        cards = s.cards[them]
        troops = [c.id for c in d.troop_cards if c.id != cards.troop]
        drones = [c.id for c in d.drone_cards if c.id != cards.drone]
        if troops:
            cards = cards.model_copy(update={"troop": rng.choice(troops)})
        if drones:
            cards = cards.model_copy(update={"drone": rng.choice(drones)})
        s.cards[them] = cards
    return s


def honest(computer_decide: Callable[..., Decision]) -> Decide:
    """Decide from the player view and the legal actions, as every player does."""
    return lambda state, side: computer_decide(player_view(state, side), legal_actions(state, side))


def given_decoys(computer_decide: Callable[..., Decision]) -> Decide:
    """A cheating player for the audit: its view also says what every enemy blip holds (one hidden fact: which
    blips are decoys). The peek test must catch it."""
    def decide(state: GameState, side: str) -> Decision:
        view = player_view(state, side)
        for b in view["blips"]:
            if b["side"] != side:
                blip = state.blips[b["id"]]
                held = state.holding[blip.side].contents(blip.square)
                b["contents"] = [c.model_dump(mode="json") for c in held or []]
        return computer_decide(view, legal_actions(state, side))
    return decide


@dataclass
class PeekResult:
    checked: int = 0
    changed: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, other_result: "PeekResult") -> None:
        self.checked += other_result.checked
        self.changed += other_result.changed
        self.examples.extend(other_result.examples[: max(0, 5 - len(self.examples))])


def check(state: GameState, side: str, decide: Decide, rng: random.Random, redeals: int = 2) -> PeekResult:
    """One decision point: the decision on ``state`` against the decisions on ``redeals`` re-dealt states."""
    result = PeekResult()
    first = decide(state, side).action
    view = player_view(state, side)
    legal = [la.to_data() for la in legal_actions(state, side)]
    for _ in range(redeals):
        other_state = redeal(state, side, rng)
        if player_view(other_state, side) != view:
            raise AssertionError("a re-deal changed the deciding side's view: it is not consistent with it")
        if [la.to_data() for la in legal_actions(other_state, side)] != legal:
            raise AssertionError("a re-deal changed the deciding side's legal actions")
        again = decide(other_state, side).action
        result.checked += 1
        if again.to_data() != first.to_data():
            result.changed += 1
            result.examples.append(f"{first.text()} became {again.text()}")
    return result
