"""The new-battle screen: its introduction ends above the first choice at any window width it opens at."""

from tests.ui.setup_helpers import answer_pins


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


def test_the_set_up_heading_wraps_in_a_small_window():
    """At 800 x 560 "Side A: Roll for attacker and defender" ran past the panel's edge: it wraps now."""
    from referee.ui.scenes.setup_table import SetupTableScene
    from referee.ui.widgets import Text, text_width

    app = App((800, 560))
    try:
        setup = app.push(SetupScene())
        app.step(1 / 30, events=[])
        assert setup.start() is not None, setup.error
        answer_pins(app)
        scene = app.stack.find(SetupTableScene)
        width = scene.layout.panel.w
        texts = [i for b in scene.decision_blocks(width) for i in b.items if isinstance(i, Text)]
        assert len([t for t in texts if t.size == 16]) >= 2          # the heading, on two lines
        for t in texts:
            assert t.x + text_width(t.text, t.size, t.bold) <= width, t.text
    finally:
        pygame.quit()
