"""The battle window's screen: one answer from the service per change carries what the window draws.

The test table (``tests/ui/table.toml``) with the program's dice seeded 7: side A's assault trooper ``a-asl`` stands
at (30, 6), Damaged, with enemies in sight.
"""

from __future__ import annotations

from pathlib import Path

from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.battle.intents import Action
from referee.game.battle.state import state_from_scenario
from referee.rules.scenario import load_scenario
from referee.service.battle_screen import Ask
from referee.service.session import BattleSession

TABLE = Path(__file__).with_name("ui") / "table.toml"
KEYS = ("activate", "extra", "reveal", "target", "rifle", "end-activation", "end-turn", "undo")


def session() -> BattleSession:
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    return BattleSession(Game(state), SeededDice(7), hotseat=True, viewer="A", autosaving=False)


def test_the_screen_before_an_activation_offers_the_selected_unit_its_activation():
    s = session()
    screen = s.battle_screen(Ask("a-asl", KEYS))
    assert screen.viewer == "A" and screen.to_act == "A" and screen.phase == "action"
    assert screen.buttons["activate"].enabled and screen.buttons["activate"].actor == "a-asl"
    assert not screen.buttons["rifle"].enabled and not screen.buttons["undo"].enabled
    assert screen.panel is not None and screen.panel.piece == "a-asl"
    assert screen.selected == "a-asl" and "a-asl" in screen.table.pieces
    assert screen.titles["a-asl"] == "Assault" and screen.faction_names["new-tokyo"] == "New Tokyo"
    nobody = s.battle_screen(Ask(None, KEYS))
    assert nobody.panel is None and nobody.buttons["activate"].reason == "select the unit first (or activate one)"


def test_an_action_is_answered_with_the_new_screen():
    s = session()
    attempt = s.send(Action("activate", "a-asl"), Ask("a-asl", KEYS))
    assert attempt.legal and attempt.screen is not None
    screen = attempt.screen
    assert screen.turn is not None and screen.turn["active"] == "a-asl"
    assert screen.buttons["rifle"].enabled and screen.buttons["rifle"].actor == "a-asl"
    assert screen.buttons["end-activation"].enabled and screen.buttons["undo"].enabled
    assert not screen.buttons["activate"].enabled
    assert screen.actions_taken == 1 and screen.moment == (1, "A")
    # The log's newest entries come with it, as the seat reads them.
    assert screen.log_tail.length == len(screen.log)
    assert screen.log_tail.entries[-1]["text"] == "a-asl activates (activation 1)"


def test_a_refused_action_brings_no_screen_and_a_refused_button_says_why_when_pressed():
    s = session()
    attempt = s.send(Action("rifle", "a-asl", {"target": "b-bas"}), Ask("a-asl", KEYS))
    assert not attempt.legal and attempt.screen is None
    assert s.battle_screen(Ask("a-asl", KEYS)).buttons["rifle"].reason == "select the unit first (or activate one)"
    screen = s.send(Action("activate", "a-asl"), Ask("a-asl", KEYS)).screen
    assert screen is not None
    # Refused buttons are enabled from the legal actions alone; the engine's reason is asked when one is pressed.
    assert not screen.buttons["reveal"].enabled and screen.buttons["reveal"].reason == ""
    assert s.refusal("reveal", "a-asl") == "a blip may be revealed voluntarily only during its own activation [p.17, A19]"
    assert s.refusal("end-turn", None) == "a-asl is still being activated; end its activation first [p.16]"
