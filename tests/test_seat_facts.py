"""The window's screen from one question to the engine (``game/play/seat_facts.py``) is the screen built from the
seat's answers one question at a time (``service/battle_screen.battle_screen``, as the shared table and a joined
window build theirs), after every action of seeded battles and for several pieces selected.

Two sessions play the same actions with the same dice on the test table (``tests/ui/table.toml``): one sends each
action with the window's ``Ask`` (the action and its screen are one visit to the engine) and asks its screen in one
question; the other plays each action alone and builds its screen from its answers.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from referee.game.battle.action_kinds import UNIT_KINDS, Kind
from referee.game.battle.dice import SeededDice
from referee.game.battle.state import state_from_scenario
from referee.game.play.engine import Game, begin_battle
from referee.game.play.seat_facts import seat_facts, SeatAsk
from referee.game.players.random_play import random_action
from referee.rules.scenario import load_scenario
from referee.service.battle_screen import Ask, BattleScreen, battle_screen
from referee.service.session import BattleSession

TABLE = Path(__file__).with_name("ui") / "table.toml"
KEYS = (Kind.ACTIVATE, "extra", *UNIT_KINDS, Kind.REVEAL, Kind.END_ACTIVATION, Kind.END_TURN, "undo", "log")


def session(seed: int) -> BattleSession:
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    return BattleSession(Game(state), SeededDice(seed), hotseat=True, viewer="A", autosaving=False,
                         draws=SeededDice(seed + 100))


def words(value: object) -> str:
    """``value`` as text, without any object's address (the tables' rulings are compared by what they hold)."""
    return re.sub(r" at 0x[0-9a-f]+", "", repr(value))


def plain(screen: BattleScreen | None) -> str:
    """The screen as text, its log read whole."""
    if screen is None:
        return "None"
    fields = {name: getattr(screen, name) for name in screen.__dataclass_fields__}
    fields["log"] = (len(screen.log), screen.log.entries(0))
    return words(fields)


def test_the_screen_asked_once_is_the_screen_asked_piece_by_piece():
    compare_screens((1,))


@pytest.mark.soak
def test_the_screen_asked_once_is_the_screen_asked_piece_by_piece_in_more_battles():
    compare_screens((1, 2, 3, 4))


def compare_screens(seeds: tuple[int, ...]) -> None:
    """After every action of each seeded battle (fifty steps), and for two pieces selected before it."""
    shown = 0
    seen_phases: set[str] = set()
    for seed in seeds:
        once, by_piece = session(seed), session(seed)
        rng = random.Random(seed)
        for step in range(50):
            if once.over:
                break
            if once.needs_handoff():
                once.hand_to(once.to_act() or "A")
                by_piece.hand_to(by_piece.to_act() or "A")
            pieces = sorted(once.state.units)[::4] + [None]
            for selected in (rng.choice(pieces), rng.choice(pieces)):
                ask = Ask(selected, KEYS, step % 2 == 0)
                screen = once.battle_screen(ask)
                assert plain(screen) == plain(battle_screen(by_piece, ask))
                seen_phases.add(screen.phase)
            # Thirty actions at random, then every turn ended at once, to reach the end of a round.
            ends = [a.action() for a in once.legal_actions() if a.kind in (Kind.END_TURN, Kind.END_ACTIVATION)]
            action = random_action(once.state, rng) if step < 30 or not ends else ends[-1]
            ask = Ask(rng.choice(pieces), KEYS)
            sent = once.send(action, ask)
            played = by_piece.attempt(action)
            assert sent.legal == played.legal
            if sent.legal:
                assert sent.screen is not None
                assert plain(sent.screen) == plain(battle_screen(by_piece, ask))
                shown += 1
            for seat in ("A", "B", "spectator"):
                assert once.screen(seat).to_json() == by_piece.screen(seat).to_json()
    assert shown > 20 * len(seeds) and seen_phases == {"action", "end-of-round"}, seen_phases


def test_the_facts_kept_for_the_same_state_answer_another_selection_as_a_new_question_would():
    s = session(7)
    s.attempt(next(a for a in s.legal_actions() if a.kind == Kind.ACTIVATE and a.actor == "a-asl").action())
    first = seat_facts(s.state, SeatAsk("A", (Kind.RIFLE, Kind.MOVE), "a-asl", 40))
    again = seat_facts(s.state, SeatAsk("A", (Kind.RIFLE, Kind.MOVE), "b-asl", 40), first)
    fresh = seat_facts(s.state, SeatAsk("A", (Kind.RIFLE, Kind.MOVE), "b-asl", 40))
    assert again.view is first.view and again.seen.table is first.seen.table      # the view is not built again
    assert words(again) == words(fresh)
    assert again.buttons[Kind.RIFLE] == ("a-asl", True)       # the unit being activated fires, whoever is selected
    assert again.seen.selected == "b-asl" and again.seen.panel is not None and again.seen.panel.piece == "b-asl"
