"""The app around the scenes: opening tables from the menu, surviving broken files, the scene stack."""

from pathlib import Path

import pygame
import pytest

from referee.ui.app import App
from referee.ui.scene import Scene, SceneStack
from referee.ui.scenes.menu import MenuScene
from referee.ui.scenes import table as table_scene
from referee.ui.scenes.table import TableScene

TABLE = Path(__file__).with_name("table.toml")

BROKEN = """
name = "Broken"
[[units]]
id = "x-1"
side = "A"
faction = "nobody-we-know"
rating = "veteran"
type = "battleship"
x = 4
y = 4
"""


@pytest.fixture(scope="module")
def app():
    a = App((1024, 700))
    yield a
    pygame.quit()


def test_a_good_scenario_opens_on_the_table(fresh):
    fresh.open_menu(TABLE)
    assert isinstance(fresh.scene, TableScene)
    assert isinstance(fresh.stack.scenes[0], MenuScene)
    assert fresh.scene.table.name == "Test table: river crossing"
    fresh.step(0.016, events=[])


def test_a_broken_scenario_shows_the_error_and_keeps_running(fresh, tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text(BROKEN)
    menu = fresh.open_menu(bad)
    assert fresh.scene is menu
    assert "units[0].type" in menu.error and "battleship" in menu.error
    assert "units[0].faction" not in menu.error or "nobody-we-know" in menu.error
    assert str(bad) in menu.error_title
    fresh.step(0.016, events=[])
    assert fresh.running
    # the same menu can open a good table afterwards
    assert menu.open_scenario(TABLE) is not None
    assert isinstance(fresh.scene, TableScene) and menu.error == ""


@pytest.mark.parametrize("content", ["this is = = not toml", "{}", ""])
def test_unreadable_files_are_reported_not_raised(fresh, tmp_path, content):
    bad = tmp_path / "bad.toml"
    bad.write_text(content)
    menu = fresh.open_menu(bad)
    if content in ("{}", ""):
        # an empty table is a valid scenario with defaults
        assert isinstance(fresh.scene, (TableScene, MenuScene))
    else:
        assert fresh.scene is menu and menu.error
    fresh.step(0.016, events=[])
    assert fresh.running


def test_a_missing_file_is_reported(fresh, tmp_path):
    menu = fresh.open_menu(tmp_path / "nowhere.toml")
    assert fresh.scene is menu and menu.error
    fresh.step(0.016, events=[])


def test_escape_on_the_table_returns_to_the_menu(fresh):
    fresh.open_menu(TABLE)
    table = fresh.scene
    fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    assert isinstance(fresh.scene, MenuScene) and table not in fresh.stack.scenes
    fresh.step(0.016, events=[])


def test_quit_event_stops_the_loop(fresh):
    fresh.open_menu(None)
    fresh.dispatch(pygame.event.Event(pygame.QUIT))
    assert not fresh.running


def test_scene_stack_push_pop_replace():
    calls = []

    class Probe(Scene):
        def __init__(self, name, overlay=False):
            super().__init__()
            self.name, self.overlay = name, overlay

        def on_enter(self):
            calls.append(("enter", self.name))

        def on_exit(self):
            calls.append(("exit", self.name))

        def on_resume(self):
            calls.append(("resume", self.name))

    stack = SceneStack()
    a, b, c = Probe("a"), Probe("b"), Probe("c", overlay=True)
    stack.push(a)
    stack.push(b)
    stack.push(c)
    assert stack.top is c and stack.visible() == [b, c]
    assert stack.pop() is c
    stack.replace(Probe("d"))
    assert [s.name for s in stack] == ["a", "d"]
    assert calls == [("enter", "a"), ("enter", "b"), ("enter", "c"), ("exit", "c"), ("resume", "b"),
                     ("exit", "b"), ("enter", "d")]


def test_menu_opens_tables_by_button_path_box_and_file_dialog(fresh):
    import pygame_gui

    from referee import paths

    menu = fresh.open_menu(None)
    menu.open_dialog()
    fresh.step(0.016, events=[])
    assert menu.dialog is not None
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(TABLE)))
    assert isinstance(fresh.scene, TableScene)
    fresh.pop()
    assert fresh.scene is menu
    menu.widgets["path"].set_text(str(TABLE))
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=menu.widgets["open"]))
    assert isinstance(fresh.scene, TableScene)
    fresh.pop()
    if paths.DEFAULT_SCENARIO.is_file():
        fresh.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=menu.widgets["default"]))
        assert isinstance(fresh.scene, TableScene)
        fresh.step(0.016, events=[])
        fresh.pop()
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=menu.widgets["quit"]))
    assert not fresh.running


def test_the_engine_arrays_are_prepared_once_the_first_frame_is_shown(fresh, monkeypatch):
    # The terrain arrays are built on a thread that holds the interpreter while it works: started beside the first
    # frame, it slowed it; they are asked for once the frame is on the screen, and a screenshot never asks.
    prepared = []
    monkeypatch.setattr(table_scene, "prepare_terrain", prepared.append)
    monkeypatch.setattr(fresh, "shown", False)
    monkeypatch.setattr(fresh, "_after_shown", [])
    fresh.open_menu(TABLE)
    fresh.step(0.016, events=[])
    assert prepared == []
    fresh._first_frame_shown()
    assert prepared == [fresh.scene.table.bf]
    fresh.when_shown(lambda: prepared.append("at once"))
    assert prepared[-1] == "at once"
    fresh.scene.on_resume()
    fresh.scene.on_enter()
    assert len(prepared) == 2, "a table's arrays are asked for once"
