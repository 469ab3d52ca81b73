"""After a crash the program offers the interrupted battle at start, even when its first screen is a table."""

from pathlib import Path

import pygame
import pytest

from referee import paths
from referee.game.battle.intents import Action
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.battle.state import state_from_scenario
from referee.rules.scenario import load_scenario
from referee.ui.app import App
from referee.service.session import BattleSession
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog
from referee.ui.scenes.menu import MenuScene
from referee.ui.scenes.table import TableScene
from tests.ui.setup_helpers import reopened

TABLE = Path(__file__).with_name("table.toml")


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def interrupted_battle() -> BattleSession:
    """A battle autosaved after one action, then left (as after a crash)."""
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), SeededDice(3), hotseat=True, viewer="A")
    assert session.attempt(Action("activate", "a-eng")).legal
    return session


def test_starting_on_a_table_offers_the_interrupted_battle_at_once(app):
    session = interrupted_battle()
    app.open_menu(paths.DEFAULT_SCENARIO)
    assert isinstance(app.scene, TableScene)
    app.offer_resume()
    offer = app.scene
    assert isinstance(offer, Dialog) and offer.heading == "Resume the interrupted battle?"
    offer.choose("resume")
    battle = app.stack.find(BattleScene)
    assert battle is not None and battle.session.state.to_data() == session.state.to_data()
    # Under the battle is the menu, not the table: Esc goes back to the menu.
    assert [type(s) for s in app.stack.scenes[:2]] == [MenuScene, BattleScene]


def test_not_now_keeps_the_table_and_the_menu_still_offers_it(app):
    interrupted_battle()
    app.open_menu(paths.DEFAULT_SCENARIO)
    app.offer_resume()
    app.scene.choose("later")
    assert isinstance(app.scene, TableScene)
    app.pop()
    menu = app.scene
    assert isinstance(menu, MenuScene) and menu.interrupted is not None and "resume" in menu.widgets


def test_no_interrupted_battle_no_question(app):
    app.open_menu(paths.DEFAULT_SCENARIO)
    app.offer_resume()
    assert isinstance(app.scene, TableScene)


def test_loading_the_autosave_from_the_file_dialog_replays_its_journal(app):
    """Load a saved battle… lists autosave.json with the saves: opened, it is the battle as it stood after its last
    action (snapshot and journal), not the snapshot alone, and Save asks for a name instead of writing over it."""
    from referee.game.records.autosave import autosave_path

    session = interrupted_battle()
    assert session.attempt(Action("end-activation")).legal
    menu = app.open_menu()
    battle = reopened(app, menu.load_battle(autosave_path()))
    found = app.stack.find(BattleScene)
    assert found is not None, menu.error
    assert len(found.session.game.record) == len(session.game.record) == 2
    assert found.session.state.to_data() == session.state.to_data()
    assert found.session.save_path is None
    assert battle is not None
