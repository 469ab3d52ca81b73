"""The new-battle screen: its introduction ends above the first choice at any window width it opens at."""


import pygame
import pytest

from referee.ui.app import App
from referee.ui.scenes.setup import COLUMN_W, INTRO, INTRO_TOP, SetupScene
from referee.ui.widgets import line_height, wrap


@pytest.mark.parametrize("size", [(1280, 800), (800, 600)])
def test_the_introduction_ends_above_the_first_choice(size):
    app = App(size)
    try:
        scene = app.push(SetupScene())
        app.step(1 / 30, events=[])
        intro_bottom = INTRO_TOP + len(wrap(INTRO, COLUMN_W, 14)) * line_height(14)
        first = min(w.rect.top for w in scene.widgets.values())
        assert intro_bottom <= first, (intro_bottom, first)
    finally:
        pygame.quit()
