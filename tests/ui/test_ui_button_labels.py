"""Buttons show their whole label, at the usual window and at the smallest one: set-up's "Arrange the squares" was
cut to "Arrange the squar" in a third of the side panel; the menu's new battle names both ways to play it."""

import pygame
import pygame_gui
import pytest

from referee.ui.app import App
from referee.ui.scenes.dialogs import Dialog, HandoffScreen
from referee.ui.scenes.menu import MenuScene
from referee.ui.scenes.setup import SetupScene
from referee.ui.scenes.setup_table import BUTTON_FONT, BUTTON_MARGIN, SetupTableScene
from referee.ui.widgets import BUTTON_BORDER, text_width

from tests.ui.setup_helpers import answer_pins


@pytest.mark.parametrize("size", [(1280, 800), (800, 560)])
def test_every_set_up_button_label_fits_its_button(size):
    app = App(size)
    try:
        setup = app.push(SetupScene())
        app.step(1 / 30, events=[])
        setup.widgets["seed"].set_text("21")
        assert setup.start() is not None, setup.error
        answer_pins(app)
        steps = set()
        for _ in range(200):
            top = app.scene
            if isinstance(top, HandoffScreen):
                top.choose("ready")
                continue
            if isinstance(top, Dialog):
                top.choose(top.choices[0][0])
                continue
            if not isinstance(top, SetupTableScene):
                break
            step = top.decision().get("step")
            steps.add(step)
            for button in top.bar_buttons:
                assert text_width(button.text, BUTTON_FONT, True) + BUTTON_MARGIN <= button.rect.w, \
                    (step, button.text, button.rect.w)
                assert top.bar.contains(button.rect), (step, button.text)
            if step == "blip":
                top.press("rest")
            else:
                assert top.for_me(), top.message
        assert {"roles", "edge", "objective", "cards", "holding", "blip"} <= steps
    finally:
        pygame.quit()


@pytest.mark.parametrize("size", [(1280, 800), (800, 560)])
def test_the_menu_offers_a_battle_against_the_computer_and_its_labels_fit(size):
    app = App(size)
    try:
        menu = app.push(MenuScene())
        app.step(1 / 30, events=[])
        assert "computer" in menu.widgets["new_battle"].text
        for name, widget in menu.widgets.items():
            if isinstance(widget, pygame_gui.elements.UIButton):
                assert text_width(widget.text, BUTTON_FONT, True) + BUTTON_MARGIN <= widget.rect.w, (name, widget.text)
    finally:
        pygame.quit()


@pytest.mark.parametrize("size", [(1280, 800), (800, 560)])
@pytest.mark.parametrize("referee", [False, True])
def test_every_action_bar_label_fits_its_button(size, referee):
    # At 800 x 560 five buttons a row cut "Kamikaze" to "Kamika" and "End activ." to "End act": fewer a row.
    from tests.ui.test_ui_battle import table_battle

    from referee.service.referee import RefereeSession
    from referee.ui.scenes.referee import RefereeScene

    app = App(size)
    try:
        if referee:
            from tests.ui.test_ui_battle import TABLE
            from referee.rules.scenario import load_scenario

            scene = app.push(RefereeScene(RefereeSession.from_scenario(load_scenario(TABLE), first="A")))
            app.step(1 / 30, events=[])
        else:
            scene, _ = table_battle(app)
        buttons = list(scene.bar.buttons.values())
        assert len(buttons) == len(scene.bar.actions)
        for button in buttons + [scene.bar.buttons["log"]]:
            scene.log_unit_only = not scene.log_unit_only      # "Log: all" and "Log: unit" both
            scene.bar.sync()
            # The bar packs its buttons tighter than set-up: a label needs its border and a pixel either side.
            assert text_width(button.text, BUTTON_FONT, True) + BUTTON_BORDER <= button.rect.w, (button.text,
                                                                                                  button.rect.w)
            assert scene.bar.rect.contains(button.rect), button.text
        assert scene.layout.panel.top >= scene.bar.rect.bottom
        if size == (1280, 800):
            assert scene.bar.columns == 5
    finally:
        pygame.quit()
