"""A battle against the computer reopened while the computer is to act: no hand-off screen comes up, above all none
offering the computer's side to the human ("I am side B: show my view" showed its blips' squares and decoys), and
the computer plays on."""

import pygame
import pytest

from referee.game.battle.intents import Action
from referee.ui.app import App
from referee.ui.scenes.battle_computer import COMPUTER_PACE
from referee.ui.scenes.dialogs import HandoffScreen
from referee.ui.scenes.menu import MenuScene
from tests.ui.test_ui_computer import start_against_computer
from tests.ui.setup_helpers import reopened


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def test_a_battle_reopened_on_the_computers_turn_stays_with_the_human_and_the_computer_plays_on(app, tmp_path):
    scene, session = start_against_computer(app, seed=11, opponent="The computer plays side B, normal")
    for _ in range(50):
        if session.computer_to_act():
            break
        scene.do(Action("end-turn"))
    assert session.computer_to_act()
    path = session.save(tmp_path / "battle.json")
    menu = app.push(MenuScene())
    interrupted = menu.interrupted
    for open_it in (lambda: reopened(app, menu.open_battle(interrupted)), lambda: reopened(app, menu.load_battle(path))):
        opened = open_it()
        again = opened.session
        assert not any(isinstance(s, HandoffScreen) for s in app.stack), "a hand-off against the computer"
        assert again.viewer == "A" and again.computer is not None and again.computer_to_act()
        before = len(again.game.record)
        app.step(COMPUTER_PACE * 1.1, events=[])
        assert len(again.game.record) > before, "the computer did not play on"
        assert again.viewer == "A"


def test_the_screen_is_never_handed_to_the_computers_side(app):
    _scene, session = start_against_computer(app, seed=11)
    session.hand_to("B")
    assert session.viewer == "A"
    assert all(b["side"] == "A" for b in session.view()["blips"] if "contents" in b), "the computer's blips' contents"
