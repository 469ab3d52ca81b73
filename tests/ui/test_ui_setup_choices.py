"""What a battle may be chosen from: broken faction files are listed with their reason wherever factions are chosen
(the battle set-up and the faction editor; the table editor shows them as chips that say why when chosen), and a
table mirrored in the table editor is offered for a hot-seat battle next to the bundled ones."""

from tests.ui.setup_helpers import answer_pins


import pygame
import pygame_gui
import pytest

from referee import paths
from referee.ui.faction_choices import left_out_lines
from referee.ui.scenes.faction_editor import FactionEditorScene
from referee.ui.scenes.setup import SetupScene


@pytest.fixture
def broken():
    folder = paths.user_factions_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "iron-league.toml"
    path.write_text('id = "iron-league"\nname = "Iron League"\n', encoding="utf-8")
    yield path
    path.unlink()


def test_the_battle_set_up_says_which_faction_files_are_left_out_and_why(fresh, broken):
    scene = fresh.push(SetupScene())
    fresh.render()
    assert not any("iron" in name.lower() for name in scene.factions)
    assert scene.left_out == left_out_lines()
    assert len(scene.left_out) == 1 and scene.left_out[0].startswith("iron-league.toml: ")
    assert "created" in scene.left_out[0]


def test_the_faction_editor_lists_a_broken_file_and_shows_its_problems(fresh, broken):
    editor = fresh.push(FactionEditorScene())
    label = next(k for k in editor.broken if k.startswith("iron-league.toml (cannot be used: "))
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text=label,
                                      ui_element=editor.widgets["load"]))
    assert editor.message[0] == "error" and "created: required key is missing" in editor.message[1]
    assert str(broken) in editor.message[1]


def test_nothing_is_listed_when_every_file_is_sound(fresh):
    assert left_out_lines() == []
    scene = fresh.push(SetupScene())
    assert scene.left_out == []


def test_a_mirrored_table_is_offered_for_a_hot_seat_battle(fresh):
    from referee.ui.editing import TableEditor
    from referee.ui.scenes.setup import own_tables_dir

    ed = TableEditor.empty(36, 36, "The ford")
    ed.add_polygon("woods", [(10, 10), (14, 10), (14, 14), (10, 14)])
    path = own_tables_dir() / "the-ford.toml"
    assert ed.save(path).ok
    scene = fresh.push(SetupScene())
    label = "The ford (the-ford.toml, your table)"
    assert scene.table_paths[label] == path
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text=label,
                                      ui_element=scene.widgets["table"]))
    assert scene.table == path
    scene.widgets["seed"].set_text("5")
    session = scene.start()
    answer_pins(fresh)
    assert session is not None, scene.error
    assert session.state.name == "The ford" and [t.id for t in session.state.terrain] == ["woods-1"]
