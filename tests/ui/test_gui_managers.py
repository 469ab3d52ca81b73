"""A battle's dialogs share their pygame_gui managers, a window's managers share their theme, the translations folder
is searched once however many managers were made, and the battle's buttons stay in place behind a dialog: nothing the
window makes per dialog grows with the battle."""

from pathlib import Path

import i18n
import pygame

from referee.game.battle.intents import Action
from referee.game.play.engine import Game, begin_battle
from referee.game.battle.state import state_from_scenario
from referee.rules.scenario import load_scenario
from referee.service.session import BattleSession
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog, HandoffScreen

TABLE = Path(__file__).with_name("table.toml")


def table_battle(app) -> tuple[BattleScene, BattleSession]:
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), None, hotseat=True, viewer="A", autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    return scene, session


def test_a_dialog_takes_the_manager_the_last_one_gave_back(fresh):
    first = fresh.push(Dialog("One", ["a question"], [("ok", "OK")], lambda answer: None))
    manager = first.manager
    first.choose("ok")
    assert first.manager is None
    second = fresh.push(Dialog("Two", ["another question"], [("yes", "Yes"), ("no", "No")], lambda answer: None))
    assert second.manager is manager
    assert sorted(second.buttons.values()) == ["no", "yes"]          # its own buttons only
    assert len(manager.get_root_container().elements) == 2


def test_the_translations_folder_is_searched_once_however_many_managers_are_made(fresh):
    for n in range(6):
        fresh.push(Dialog(f"Dialog {n}", [], [("ok", "End activ.")], lambda answer: None))     # none given back
    assert len(i18n.load_path) == len(set(i18n.load_path)) >= 1
    while len(fresh.stack):
        fresh.stack.pop()


def test_the_battle_buttons_stay_behind_a_hand_off_and_follow_the_engine(fresh):
    scene, session = table_battle(fresh)
    buttons = dict(scene.bar.buttons)
    assert buttons["end-turn"].is_enabled
    scene.do(Action("end-turn"))                              # side B is to act: the screen is handed over
    assert isinstance(fresh.scene, HandoffScreen)
    fresh.scene.choose("ready")
    assert fresh.scene is scene and session.viewer == "B"
    assert scene.bar.buttons == buttons and all(scene.bar.buttons[k] is b for k, b in buttons.items())
    assert scene.bar.buttons["end-turn"].is_enabled == scene.offered("end-turn")
    assert scene.bar.buttons["undo"].is_enabled                # the pass can be taken back


def test_the_battle_buttons_are_made_again_when_the_window_changed_behind_a_dialog(fresh):
    scene, _ = table_battle(fresh)
    buttons = dict(scene.bar.buttons)
    dialog = fresh.push(Dialog("A question", [], [("ok", "OK")], lambda answer: None))
    fresh.screen = pygame.display.set_mode((1100, 760), pygame.RESIZABLE)
    dialog.choose("ok")
    assert all(scene.bar.buttons[k] is not b for k, b in buttons.items())
    assert scene.bar.rect.right <= 1100


def drawn(manager, labels: list[tuple[str, bool]]) -> bytes:
    """The pixels of a column of buttons (label, enabled) drawn by ``manager``."""
    # lazy: pygame_gui loads with the first scene, as in the window
    import pygame_gui

    for i, (label, enabled) in enumerate(labels):
        button = pygame_gui.elements.UIButton(pygame.Rect(10, 10 + 40 * i, 120, 32), label, manager)
        if not enabled:
            button.disable()
    manager.update(0.01)
    picture = pygame.Surface((200, 10 + 40 * len(labels)))
    manager.draw_ui(picture)
    return pygame.image.tobytes(picture, "RGB")


def test_the_managers_of_a_window_share_one_theme_and_draw_the_same_buttons(fresh):
    from referee.ui import theme
    from referee.ui.gui_managers import new_manager

    labels = [("End activ.", True), ("Target", False)]
    first, second = new_manager((1280, 800)), new_manager((1280, 800))
    assert second.get_theme() is first.get_theme()              # read once, its fonts loaded once
    first_picture = drawn(first, labels)
    assert drawn(second, labels) == first_picture               # the second drawn from the shapes the first kept
    theme.apply("high-contrast")
    try:
        contrast = new_manager((1280, 800))
        assert contrast.get_theme() is not first.get_theme()    # other colours: a theme of their own
        assert drawn(contrast, labels) != first_picture
    finally:
        theme.apply("standard")
    assert new_manager((1280, 800)).get_theme() is first.get_theme()
