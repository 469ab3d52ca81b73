"""The report's "Back to the menu" goes back to the menu, even when the battle was opened from the table editor."""

from pathlib import Path

import pygame
import pygame_gui

from referee.game.battle.intents import Action
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.battle.state import state_from_scenario
from referee.rules.scenario import load_scenario
from referee.service.session import BattleSession
from referee.ui.scene import Scene
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.menu import MenuScene
from referee.ui.scenes.report import ReportScene

TABLE = Path(__file__).with_name("table.toml")


def test_back_to_the_menu_from_a_battle_opened_in_the_editor(fresh):
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), SeededDice(3), hotseat=False, viewer="A", autosaving=False)
    for action in (Action("end-turn"), Action("end-turn"), Action("end-of-round", "", {"stop": True})):
        assert session.attempt(action).legal
    assert session.over
    menu = fresh.push(MenuScene())
    editor = fresh.push(Scene())                 # what opened the battle: the table editor
    fresh.push(BattleScene(session))
    report = fresh.push(ReportScene(session))
    fresh.step(1 / 30, events=[])
    back = next(b for b, k in report.buttons.items() if k == "menu")
    assert back.text == "Back to the menu"
    report.handle_event(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=back))    # its click
    assert fresh.scene is menu and editor not in fresh.stack.scenes


def test_the_reports_buttons_fit_a_small_window():
    from referee.ui.app import App
    from referee.ui.widgets import BUTTON_BORDER, fits_button

    app = App((800, 560))
    try:
        state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
        session = BattleSession(Game(state), SeededDice(3), hotseat=False, viewer="A", autosaving=False)
        for action in (Action("end-turn"), Action("end-turn"), Action("end-of-round", "", {"stop": True})):
            assert session.attempt(action).legal
        report = app.push(ReportScene(session))
        app.step(1 / 30, events=[])
        for button in report.buttons:
            assert button.rect.right <= 800 and button.rect.left >= 0
            assert fits_button([button.text], button.rect.w, BUTTON_BORDER), button.text
    finally:
        pygame.quit()
