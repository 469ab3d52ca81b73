"""A battle against the computer in the window, driven headless: no hand-off screen, the human keeps the screen,
the computer acts one action at a time after a pause, and its reasons for what the human may see are in the log."""

import random

import pygame
import pytest

from referee.game.players.legal_play import choose
from referee.game.play.session import Session
from referee.ui.app import App
from referee.ui.scenes.battle_computer import COMPUTER_PACE
from referee.ui.scenes.dialogs import Dialog, HandoffScreen
from referee.ui.scenes.setup import SetupScene

from tests.ui.setup_helpers import answer_pins
from tests.ui.setup_helpers import reopened


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def start_against_computer(app, seed: int, opponent: str = "The computer plays side B, easy"):
    setup = app.push(SetupScene())
    app.step(1 / 30, events=[])
    setup.widgets["seed"].set_text(str(seed))
    setup.opponent_label = opponent
    session = setup.start()
    answer_pins(app)
    assert session is not None, setup.error
    from tests.ui.setup_helpers import finish_setup

    # Set-up: the human's decisions left to the program, the computer's made by the computer, no hand-off.
    scene = finish_setup(app, handoffs=False)
    assert any(r.startswith("[set-up]") for r in session.computer_reasons), "the computer made its set-up decisions"
    return scene, session


def test_a_battle_against_the_computer_has_no_hand_off_and_logs_the_computers_reasons(app):
    scene, session = start_against_computer(app, seed=11)
    assert session.computer is not None and session.computer.side == "B"
    assert session.viewer == "A"
    rng = random.Random(11)
    computer_actions = 0
    for _ in range(400):
        assert not any(isinstance(s, HandoffScreen) for s in app.stack), "a hand-off screen against the computer"
        assert session.viewer == "A"
        if session.over or session.state.round > 1:
            break
        if isinstance(app.scene, Dialog):
            # The next round, or a revealed trooper's facing kept as it is (A13).
            keys = [k for k, _ in app.scene.choices]
            app.scene.choose("next" if "next" in keys else "keep" if "keep" in keys else keys[0])
            continue
        if session.computer_to_act():
            before = len(session.game.record)
            app.step(COMPUTER_PACE / 3, events=[])
            assert len(session.game.record) == before, "the computer acted before its pause"
            app.step(COMPUTER_PACE, events=[])
            computer_actions += len(session.game.record) - before
            continue
        if session.state.phase == "end-of-round":
            scene.next_step()
            continue
        action = choose(Session(session.game), rng, "A")
        assert action is not None
        scene.do(action)
    assert computer_actions > 5
    scene.show_log()
    notes = [line for line in scene.log_lines if line.strip().startswith("the computer:")]
    assert notes, "none of the computer's reasons reached the log"
    # Which objectives it heads for comes from its secret mission: the human never reads that during the battle.
    assert not any("toward objective" in n for n in session.computer_notes.values())
    assert len(session.computer_reasons) >= computer_actions


def test_a_typed_seed_replays_the_tables_dice_but_neither_the_computers_draws_nor_its_cards(app):
    """The human typed the seed, so he may run it at home: the roles rolled follow it, the computer's own seed
    and the sides' secret draws (its mission, cards and holding squares) do not."""
    from referee.game.battle.dice import RollRequest
    from referee.game.records.record import new_seeded_dice

    _, first = start_against_computer(app, seed=31)
    while len(app.stack):
        app.stack.pop()
    _, second = start_against_computer(app, seed=31)
    assert first.state.attacker == second.state.attacker, "the table's roll-off follows the typed seed"
    assert first.computer is not None and second.computer is not None
    assert 31 not in (first.computer.seed, second.computer.seed) and first.computer.seed != second.computer.seed
    at_home = new_seeded_dice(31)
    card = RollRequest("card", "p.~9", "draw", options=tuple(str(n) for n in range(12)), secret="B")
    for d in (first.dice, second.dice, at_home):
        assert d is not None
        d.begin("a moment")
    drawn = {name: [d.answer(card) for _ in range(12)] for name, d in
             (("first", first.dice), ("second", second.dice), ("at home", at_home))}
    assert drawn["first"] != drawn["at home"] and drawn["second"] != drawn["at home"]
    assert drawn["first"] != drawn["second"]


def test_a_battle_against_the_computer_resumed_from_the_autosave_or_a_save_goes_on_against_it(app, tmp_path):
    from referee.game.records.autosave import autosave_path
    from referee.ui.scenes.menu import MenuScene

    scene, session = start_against_computer(app, seed=12, opponent="The computer plays side A, hard")
    assert session.computer is not None and (session.computer.side, session.computer.level.name) == ("A", "hard")
    assert autosave_path().is_file()
    menu = app.push(MenuScene())
    assert menu.interrupted is not None
    for resumed in (reopened(app, menu.open_battle(menu.interrupted)),
                    reopened(app, menu.load_battle(session.save(tmp_path / "battle.json")))):
        again = resumed.session
        assert again.computer is not None, "the battle reopened as hot-seat"
        assert (again.computer.side, again.computer.level.name, again.computer.seed) == \
            ("A", "hard", session.computer.seed)
        assert again.viewer == "B" and not again.needs_handoff()
        assert again.state.to_data() == session.state.to_data()
