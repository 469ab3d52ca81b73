"""An error on the menu is read whole: under the buttons where there is room, else in a box to close (a large-text
window left one line of it at the bottom edge, cut off)."""

import pygame

from referee.ui.app import App
from referee.ui.scenes.dialogs import Dialog
from referee.ui.scenes.menu import MenuScene

WORDS = "The battle could not be served: " + "this long reason goes on and on. " * 8


def test_an_error_with_no_room_under_the_buttons_is_shown_in_a_box_to_close():
    short = App((900, 520))
    try:
        menu = short.push(MenuScene())
        short.step(1 / 30, events=[])
        menu.error_title, menu.error = "Phones and remote play", WORDS
        short.step(1 / 30, events=[])
        box = short.scene
        assert isinstance(box, Dialog) and box.heading == "Phones and remote play" and box.lines == [WORDS]
        assert menu.error == ""
        box.choose("ok")
        assert short.scene is menu
    finally:
        pygame.quit()


def test_an_error_with_room_stays_under_the_buttons():
    tall = App((1400, 1400))
    try:
        menu = tall.push(MenuScene())
        tall.step(1 / 30, events=[])
        menu.error_title, menu.error = "Could not open x.toml", "x.toml: table.width: expected a number"
        tall.step(1 / 30, events=[])
        assert tall.scene is menu and menu.error
    finally:
        pygame.quit()
