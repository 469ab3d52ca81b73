"""A window that fails leaves a report: the traceback goes to the log file under the user's log folder, which a
window started from an icon has instead of a terminal; the user's settings live in their settings folder."""

from __future__ import annotations

import logging

import pygame
import pytest

from referee import paths
from referee.logs import LOGGER, log_file, start_log_file, stop_log_file
from referee.ui.app import App
from referee.ui.scene import Scene


class BrokenScene(Scene):
    """A scene whose drawing fails: what a bug in any screen looks like to the window."""

    title = "broken on purpose"

    def draw(self, surface: pygame.Surface) -> None:
        raise ZeroDivisionError("a scene broken on purpose for this test")


@pytest.fixture
def log(tmp_path, monkeypatch):
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path))
    path = start_log_file()
    yield path
    stop_log_file()


def test_the_log_file_is_in_the_users_log_folder(tmp_path, log):
    assert log == tmp_path / "logs" / "seven-seconds.log" == log_file()


def test_a_broken_scene_leaves_its_traceback_in_the_log_file(log):
    app = App((800, 600))
    app.push(BrokenScene())
    with pytest.raises(ZeroDivisionError):
        app.run(fps=1000)
    for handler in LOGGER.handlers:
        handler.flush()
    text = log.read_text(encoding="utf-8")
    assert "ERROR referee: the window stopped on an error in the scene BrokenScene" in text
    assert "Traceback (most recent call last):" in text
    assert "in draw" in text and "ZeroDivisionError: a scene broken on purpose for this test" in text


def test_a_file_that_breaks_the_menu_is_reported_in_the_log_and_the_window_stays(log, tmp_path, monkeypatch):
    import referee.ui.scenes.menu as menu_module

    def broken(path):
        raise KeyError("a loader broken on purpose")

    monkeypatch.setattr(menu_module, "load_table", broken)
    app = App((1280, 800))
    app.open_menu(None)
    menu = app.stack.top
    assert menu.open_scenario(tmp_path / "table.toml") is None
    assert app.stack.top is menu, "the window stays on the menu"
    text = log.read_text(encoding="utf-8")
    assert f"opening the table {tmp_path / 'table.toml'} failed" in text
    assert "KeyError: 'a loader broken on purpose'" in text
    pygame.quit()


def test_a_log_folder_that_cannot_be_written_is_no_reason_not_to_start(tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "home"
    blocker.mkdir()
    (blocker / "logs").write_text("a file where the folder should be")
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(blocker))
    caplog.set_level(logging.WARNING, logger="referee")
    try:
        assert start_log_file() is None
    finally:
        stop_log_file()
    assert "cannot be written" in caplog.text


def test_settings_are_read_from_an_earlier_versions_place_until_written_in_the_settings_folder(tmp_path,
                                                                                               monkeypatch):
    import platformdirs

    monkeypatch.delenv("SEVEN_SECONDS_HOME", raising=False)
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "data"))
    monkeypatch.setattr(platformdirs, "user_config_dir", lambda *a, **k: str(tmp_path / "config"))
    assert paths.settings_file() == tmp_path / "config" / "settings.toml"
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "settings.toml").write_text("[rulings]\n")
    assert paths.settings_file() == tmp_path / "data" / "settings.toml"
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text("[rulings]\n")
    assert paths.settings_file() == tmp_path / "config" / "settings.toml"
