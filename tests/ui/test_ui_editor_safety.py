"""The table editor never loses work: no crash on Delete, a safety copy to recover, no silent overwrite of another
table, and keys typed into a text field are letters, not shortcuts."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from referee.rules.scenario import load_scenario  # noqa: E402
from referee.ui.app import App  # noqa: E402
from referee.ui.editing import TableEditor  # noqa: E402
from referee.ui.editor_autosave import autosave_path, read_autosave  # noqa: E402
from referee.ui.scenes.editor import EditorScene, EditorStartScene  # noqa: E402
from referee.ui.scenes.menu import MenuScene  # noqa: E402


@pytest.fixture(scope="module")
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


@pytest.fixture
def editor(fresh):
    scene = fresh.push(EditorScene(TableEditor.empty(36, 36, "Test table")))
    yield scene
    assert scene.failures == []


def send(app, kind, **attrs):
    app.dispatch(pygame.event.Event(kind, **attrs))


def hover(app, pos):
    send(app, pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def click(app, pos):
    hover(app, pos)
    send(app, pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
    send(app, pygame.MOUSEBUTTONUP, pos=pos, button=1)


def key(app, k, mod=0, text=""):
    send(app, pygame.KEYDOWN, key=k, mod=mod, unicode=text, scancode=0)


def press(app, element):
    app.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=element))


def at(scene, x, y):
    return scene.view.px(x, y)


def test_delete_with_the_mouse_over_the_selected_piece_does_not_crash(fresh, editor):
    ed = editor.editor
    ed.place_unit("A", "new-tokyo", "veteran", "tactical", 10, 10)
    ed.place_objective(None, 20, 20)
    for ident, (x, y) in (("a-tactical-1", (10, 10)), ("alpha", (20, 20))):
        click(fresh, at(editor, x, y))
        assert editor.selected == ident and editor.hover == ident
        key(fresh, pygame.K_DELETE)
        assert ed.kind_of(ident) is None
        fresh.render()                   # the tooltip of the piece under the mouse used to raise AttributeError
        assert editor.hover is None and editor.selected is None
    assert "no longer on the table" in editor.describe("a-tactical-1")


def test_keys_typed_into_the_name_field_are_letters_not_shortcuts(fresh, editor):
    ed = editor.editor
    ed.place_unit("A", "new-tokyo", "veteran", "tactical", 10, 10)
    click(fresh, at(editor, 10, 10))
    assert editor.selected == "a-tactical-1"
    name = editor.entries["name"]
    click(fresh, name.rect.center)
    assert name.is_focused
    for letter in " Redoubt":
        code = pygame.K_SPACE if letter == " " else getattr(pygame, f"K_{letter.lower()}")
        key(fresh, code, pygame.KMOD_SHIFT if letter.isupper() else 0, letter)
        send(fresh, pygame.TEXTINPUT, text=letter)
    key(fresh, pygame.K_h, 0, "h")
    key(fresh, pygame.K_DELETE)
    u = ed.entry("a-tactical-1")
    assert (u.facing, u.damaged, u.stunned) == (90.0, False, False)
    assert fresh.scene is editor and editor.tool == "select"     # neither Help nor a tool took the keys
    key(fresh, pygame.K_ESCAPE)
    assert not name.is_focused and fresh.scene is editor
    key(fresh, pygame.K_d)
    assert ed.entry("a-tactical-1").damaged


def test_the_wheel_zooms_over_a_trooper_too(fresh, editor):
    ed = editor.editor
    ed.place_unit("A", "new-tokyo", "veteran", "tactical", 10, 10)
    scale = editor.view.scale
    hover(fresh, at(editor, 10, 10))
    send(fresh, pygame.MOUSEWHEEL, x=0, y=1, flipped=False)
    assert ed.entry("a-tactical-1").facing == 90.0
    assert editor.view.scale == pytest.approx(scale * 1.15)


def test_a_file_holding_another_table_is_replaced_only_when_asked_twice(fresh, editor, tmp_path):
    other = TableEditor.empty(48, 48, "Redoubt")
    other.place_blip("A", 5, 5)
    target = tmp_path / "redoubt.toml"
    assert other.save(target).ok
    before = target.read_text()
    editor.editor.place_blip("B", 30, 30)
    editor.entries["path"].set_text(str(target))
    key(fresh, pygame.K_s, pygame.KMOD_CTRL)
    assert not editor.message_ok and "Redoubt" in editor.message and "again" in editor.message
    assert target.read_text() == before and editor.editor.dirty
    key(fresh, pygame.K_s, pygame.KMOD_CTRL)
    assert editor.message_ok and load_scenario(target).name == "Test table"
    # its own file is saved again without a question
    editor.editor.place_blip("B", 20, 30)
    key(fresh, pygame.K_s, pygame.KMOD_CTRL)
    assert editor.message_ok and len(load_scenario(target).blips) == 2


def test_a_new_table_of_the_same_name_does_not_overwrite_the_old_one(fresh, tmp_path):
    first = TableEditor.empty(36, 36, "Redoubt")
    first.place_blip("A", 5, 5)
    target = tmp_path / "redoubt.toml"
    assert first.save(target).ok
    second = TableEditor.empty(36, 36, "Redoubt")
    second.place_blip("B", 30, 30)
    edit = second.save(target)
    assert not edit.ok and edit.confirm
    assert [b.id for b in load_scenario(target).blips] == ["a-blip-1"]
    assert second.save(target, overwrite=True).ok


def test_work_is_kept_after_every_edit_and_offered_back(fresh, editor, tmp_path):
    assert read_autosave() is None
    click(fresh, at(editor, 1, 1))                 # a click that changes nothing writes nothing
    assert not autosave_path().exists()
    key(fresh, pygame.K_u)
    click(fresh, at(editor, 12, 4))
    key(fresh, pygame.K_b)
    click(fresh, at(editor, 20, 30))
    kept = read_autosave()
    assert [u.id for u in kept.editor.scenario.units] == ["a-tactical-1"]
    assert [b.id for b in kept.editor.scenario.blips] == ["a-blip-1"]
    # the program stops without saving; next time the start screen offers the table back
    fresh.pop()
    fresh.push(MenuScene())
    start = fresh.push(EditorStartScene())
    assert "recover" in start.widgets and "Test table" in start.recovered.summary
    press(fresh, start.widgets["recover"])
    scene = fresh.scene
    assert isinstance(scene, EditorScene) and scene.editor.dirty
    assert scene.editor.scenario == kept.editor.scenario
    # once saved, there is nothing to recover
    scene.entries["path"].set_text(str(tmp_path / "kept.toml"))
    key(fresh, pygame.K_s, pygame.KMOD_CTRL)
    assert scene.message_ok and read_autosave() is None
    assert load_scenario(tmp_path / "kept.toml").units[0].id == "a-tactical-1"
