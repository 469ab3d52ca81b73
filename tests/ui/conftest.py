"""What the window's tests share: a headless display (set before pygame opens one) and one window per test module."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from referee.ui.app import App  # noqa: E402


@pytest.fixture(scope="module")
def app():
    """The test module's window (1280 x 800); a module that needs another size or an intent handler has its own."""
    a = App((1280, 800))
    yield a
    pygame.quit()


@pytest.fixture
def fresh(app):
    """The test module's window with an empty scene stack, emptied again afterwards (``app`` is the module's own)."""
    while len(app.stack):
        app.stack.pop()
    app.running = True
    yield app
    while len(app.stack):
        app.stack.pop()
