"""What the window's tests share: a headless display (set before pygame opens one) and one window per test module."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from referee.ui.app import App  # noqa: E402

from tests.fixed_draws import DICE_DRAWS, seeded_os_draws  # noqa: E402


@pytest.fixture(autouse=True)
def os_draws_fixed(monkeypatch):
    """The window takes the computer's seed and the salt of the sides' secret draws from the operating system, so
    nobody at the table can draw them again at home. A test fixes them instead: it then plays the same battle on
    every run, whatever the tests before it drew (a computer that used every extra blip activation ended its turns
    without a reason in one deal in a dozen). The sides' dice contributions and the fresh entropy of the table's dice
    come from there too. Each draw still differs from the one before."""
    monkeypatch.setattr(DICE_DRAWS, seeded_os_draws(20261125))


@pytest.fixture(scope="module")
def app():
    """The test module's window (1280 x 800); a module that needs another size or an intent handler has its own."""
    a = App((1280, 800))
    yield a
    pygame.quit()


def close_all(app) -> None:
    """Every scene on the stack closed, the top one first. A scene that is closed next is not shown again on the way
    (``SceneStack.pop`` would resume it): a menu under what the test left would find the autosave and build its
    buttons again only to be closed."""
    while len(app.stack):
        app.stack.scenes.pop().on_exit()


@pytest.fixture
def fresh(app):
    """The test module's window with an empty scene stack, emptied again afterwards (``app`` is the module's own)."""
    close_all(app)
    app.running = True
    yield app
    close_all(app)
