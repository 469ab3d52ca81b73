"""Against the computer, set-up shows its decisions one at a time: its three objectives and sixteen blips appeared all
at once before. While it decides, the human's buttons and clicks wait, and nothing of its own shows."""

import pygame
import pytest

from referee.ui.app import App
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog, HandoffScreen
from referee.ui.scenes.setup import SetupScene
from referee.ui.scenes.setup_table import COMPUTER_SETUP_PACE, SetupTableScene

from tests.ui.setup_helpers import answer_pins


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def test_the_computers_set_up_decisions_come_one_at_a_time_after_a_pause(app):
    setup = app.push(SetupScene())
    app.step(1 / 30, events=[])
    setup.widgets["seed"].set_text("15")
    setup.opponent_label = "The computer plays side B, normal"
    session = setup.start()
    answer_pins(app)
    assert session is not None, setup.error
    paced = 0
    for _ in range(400):
        top = app.scene
        assert not isinstance(top, HandoffScreen), "a hand-off screen against the computer"
        if not isinstance(top, (SetupTableScene, Dialog)):
            break
        if isinstance(top, Dialog):
            top.choose(top.choices[0][0])
            continue
        if top.computer_deciding():
            before = len(session.game.record)
            assert top.bar_buttons == {} and not top.for_me()
            top.press("for-me")
            assert not top.place_at(18.0, 30.0)
            assert len(session.game.record) == before, "the human decided for the computer"
            blocks = top.decision_blocks(400)
            text = " ".join(getattr(item, "text", "") for block in blocks for item in block.items)
            assert "The computer (side B)" in text and "square" not in text and "your" not in text
            app.step(COMPUTER_SETUP_PACE / 3, events=[])
            assert len(session.game.record) == before, "the computer decided before its pause"
            app.step(COMPUTER_SETUP_PACE, events=[])
            assert len(session.game.record) == before + 1, "one decision a pause"
            paced += 1
            continue
        if top.decision().get("step") == "blip":
            top.press("rest")
        else:
            assert top.for_me(), top.message
    assert session.state.phase != "setup"
    assert paced >= 1 + 3 + 1 + 1 + 16, paced          # its edge, 3 objectives, cards, holding area, 16 blips
    assert sum(r.startswith("[set-up] place-blip") for r in session.computer_reasons) == 16


def test_the_bar_offers_the_decision_due_and_the_toolbar_is_kept_between_decisions(app):
    """After each decision the set-up scene builds only its bar again, for the choices now due; its toolbar's
    buttons stay the ones it built while the screen is laid out the same."""
    setup = app.push(SetupScene())
    app.step(1 / 30, events=[])
    setup.widgets["seed"].set_text("16")
    setup.opponent_label = "The computer plays side A, easy"
    assert setup.start() is not None, setup.error
    answer_pins(app)
    scene = app.stack.find(SetupTableScene)
    toolbar, layout = dict(scene.buttons), scene.layout
    looked, kept = 0, 0
    for _ in range(2000):
        if app.stack.find(BattleScene) is not None:
            break
        top = app.scene
        if isinstance(top, Dialog):
            top.choose(top.choices[0][0])
            layout = None                  # the scene comes back from under the dialog laid out afresh
            continue
        assert top is scene, type(top).__name__
        shown = sorted((b.text, b.alive()) for b in scene.bar_buttons)
        assert shown == sorted((label, True) for _, label in scene.choices()), "the bar is not the decision's"
        if scene.layout == layout:
            looked += 1
            kept += scene.buttons == toolbar
        toolbar, layout = dict(scene.buttons), scene.layout
        if scene.computer_deciding():
            app.step(COMPUTER_SETUP_PACE * 1.1, events=[])
        elif scene.decision().get("step") == "blip":
            scene.press("rest")
        else:
            assert scene.for_me(), scene.message
    else:
        raise AssertionError("set-up did not finish")
    assert looked > 10 and kept == looked, (kept, looked)
