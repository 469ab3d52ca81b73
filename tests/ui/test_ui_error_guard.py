"""A fault of the program in one step of the window does not close it: the player is told, the log keeps the
traceback, and the window goes on; only an error that comes again at once stops it."""

import logging

import pygame
import pytest

from referee.logs import LOGGER
from referee.ui.app import App
from referee.ui.scene import Scene
from referee.ui.scenes.dialogs import Dialog


class Faulty(Scene):
    """A scene whose update fails on its first frames (``times``), then asks the window to close."""

    def __init__(self, times: int) -> None:
        super().__init__()
        self.times = times
        self.frames = 0

    def update(self, dt: float) -> None:
        self.frames += 1
        if self.frames <= self.times:
            raise RuntimeError(f"a fault in frame {self.frames}")
        pygame.event.post(pygame.event.Event(pygame.QUIT))


def run_until_told(times: int, caplog) -> tuple[App, list[Scene]]:
    app = App((800, 600))
    faulty = app.push(Faulty(times))
    told: list[Scene] = []

    def update(dt: float) -> None:          # the dialog over it closes as a player's "Go on" would
        top = app.stack.top
        if isinstance(top, Dialog):
            told.append(top)
            top.choose("ok")
        Faulty.update(faulty, dt)

    faulty.update = update                   # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger=LOGGER.name):
        app.run(fps=1000)
    return app, told


def test_an_error_in_a_step_is_told_and_logged_and_the_window_goes_on(caplog):
    _app, told = run_until_told(1, caplog)
    assert [d.heading for d in told] == ["Something went wrong"]
    assert "Nothing of the battle is lost" in told[0].lines[0]
    assert "an error in the scene Faulty; the window goes on" in caplog.text
    assert "RuntimeError: a fault in frame 1" in caplog.text


def test_an_error_again_and_again_stops_the_window(caplog):
    with pytest.raises(RuntimeError, match="a fault in frame 3"):
        run_until_told(10, caplog)
    assert "the window stopped on an error in the scene" in caplog.text
