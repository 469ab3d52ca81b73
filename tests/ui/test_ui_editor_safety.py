"""The table editor never loses work: no crash on Delete, a safety copy to recover, no silent overwrite of another
table, and keys typed into a text field are letters, not shortcuts."""


import pygame
import pygame_gui
import pytest

from referee.rules.errors import InputError
from referee.rules.scenario import load_scenario
from referee.ui.editing import TableEditor
from referee.ui.editor_autosave import autosave_path, read_autosave
from referee.ui.scenes.dialogs import Dialog, TextDialog
from referee.ui.scenes.editor import EditorScene, EditorStartScene
from referee.ui.scenes.menu import MenuScene


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
    send(app, pygame.KEYUP, key=k, mod=mod, scancode=0)


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


def another_tables_file(tmp_path):
    other = TableEditor.empty(48, 48, "Redoubt")
    other.place_blip("A", 5, 5)
    target = tmp_path / "redoubt.toml"
    assert other.save(target).ok
    return target, target.read_text()


def test_a_file_holding_another_table_asks_overwrite_save_as_or_cancel(fresh, editor, tmp_path):
    target, before = another_tables_file(tmp_path)
    editor.editor.place_blip("B", 30, 30)
    editor.entries["path"].set_text(str(target))
    key(fresh, pygame.K_s, pygame.KMOD_CTRL)
    ask = fresh.scene
    assert isinstance(ask, Dialog) and ask.heading == "Replace redoubt.toml?"
    assert [k for k, _ in ask.choices] == ["overwrite", "save-as", "cancel"]
    assert f"{target} already holds the table 'Redoubt'." in ask.lines
    # Cancel: nothing is written, and a second Ctrl+S asks again (no "press Save again")
    ask.choose("cancel")
    assert fresh.scene is editor and target.read_text() == before and editor.editor.dirty
    assert not editor.message_ok and "left as it was" in editor.message
    key(fresh, pygame.K_s, pygame.KMOD_CTRL)
    assert isinstance(fresh.scene, Dialog) and fresh.scene.heading == "Replace redoubt.toml?"
    # Overwrite: the file now holds this table
    fresh.scene.choose("overwrite")
    assert fresh.scene is editor and editor.message_ok and load_scenario(target).name == "Test table"
    assert not editor.editor.dirty
    # its own file is saved again without a question
    editor.editor.place_blip("B", 20, 30)
    key(fresh, pygame.K_s, pygame.KMOD_CTRL)
    assert fresh.scene is editor and editor.message_ok and len(load_scenario(target).blips) == 2


def test_save_as_keeps_the_other_table_and_saves_under_a_new_name(fresh, editor, tmp_path):
    target, before = another_tables_file(tmp_path)
    editor.editor.place_blip("B", 30, 30)
    editor.entries["path"].set_text(str(target))
    key(fresh, pygame.K_s, pygame.KMOD_CTRL)
    fresh.scene.choose("save-as")
    name = fresh.scene
    assert isinstance(name, TextDialog) and name.entry.get_text() == str(tmp_path / "redoubt-2.toml")
    name.choose("ok")
    assert fresh.scene is editor and editor.message_ok and editor.save_path == tmp_path / "redoubt-2.toml"
    assert target.read_text() == before and load_scenario(tmp_path / "redoubt-2.toml").name == "Test table"
    assert editor.entries["path"].get_text() == str(tmp_path / "redoubt-2.toml")


def test_refereeing_from_the_editor_goes_on_after_overwrite(fresh, editor, tmp_path):
    from referee.ui.scenes.referee import RefereeScene

    target, _ = another_tables_file(tmp_path)
    editor.editor.place_unit("A", "new-tokyo", "veteran", "tactical", 10, 10)
    editor.entries["path"].set_text(str(target))
    assert editor.referee_battle() is None and isinstance(fresh.scene, Dialog)
    fresh.scene.choose("overwrite")
    assert isinstance(fresh.scene, RefereeScene)
    assert "a-tactical-1" in fresh.scene.session.state.units


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


def test_exact_entry_of_position_facing_id_type_and_contents(fresh, editor):
    from referee.ui.scenes.dialogs import TextDialog

    ed = editor.editor
    ed.place_unit("A", "new-tokyo", "veteran", "tactical", 10, 10)
    ed.place_blip("B", 30, 30)
    ed.add_circle("smoke", 20, 20, 2.5)
    click(fresh, at(editor, 10, 10))
    key(fresh, pygame.K_RETURN)
    assert isinstance(fresh.scene, TextDialog) and fresh.scene.initial == "x=10 y=10 facing=90 id=a-tactical-1 type=tactical"
    fresh.scene.entry.set_text("x=12.5 y=6 facing=95 id=a-sarge type=commander")
    fresh.scene.choose("ok")
    u = ed.entry("a-sarge")
    assert (u.x, u.y, u.facing, u.type) == (12.5, 6, 95, "commander") and editor.selected == "a-sarge"
    assert ed.kind_of("a-tactical-1") is None
    key(fresh, pygame.K_z, pygame.KMOD_CTRL)                      # one line, one undo
    assert ed.entry("a-tactical-1").facing == 90 and ed.kind_of("a-sarge") is None
    # a blip's contents
    assert editor.set_exact("b-blip-1", "contents=spec-ops scout, basic-drone").ok
    held = ed.entry("b-blip-1").contents
    assert [(c.rating, c.type, c.side) for c in held] == [("spec-ops", "scout", "B"), ("veteran", "basic-drone", "B")]
    assert editor.set_exact("b-blip-1", "contents=decoy").ok and ed.entry("b-blip-1").contents == []
    assert editor.set_exact("b-blip-1", "contents=unknown").ok and ed.entry("b-blip-1").contents is None
    # a smoke circle renamed and changed into a crater, its centre typed
    assert editor.set_exact("smoke-1", "x=22 y=21 id=crater-north type=crater").ok
    t = ed.entry("crater-north")
    assert (t.type, t.circle.x, t.circle.y) == ("crater", 22, 21)
    # refused: an id already used, a facing for a drone, a base onto another; nothing changes
    before = ed.scenario
    for text, why in (("id=b-blip-1", "already on the table"), ("type=basic-drone facing=30", "no facing"),
                      ("x=30 y=30.5", "overlap")):
        edit = editor.set_exact("a-tactical-1", text)
        assert not edit.ok and why in edit.message, edit.message
    assert ed.scenario == before


def test_a_file_with_problems_opens_to_be_fixed_with_each_problem_at_its_piece(fresh, tmp_path):
    bad = tmp_path / "crowded.toml"
    bad.write_text('name = "Crowded"\ntable = { width = 36, height = 36 }\n'
                   '[[units]]\nid = "a-1"\nside = "A"\nfaction = "new-tokyo"\nrating = "veteran"\ntype = "tactical"\n'
                   'x = 10\ny = 10\n'
                   '[[units]]\nid = "b-1"\nside = "B"\nfaction = "new-tokyo"\nrating = "veteran"\ntype = "tactical"\n'
                   'x = 10.5\ny = 10\n'
                   '[[units]]\nid = "b-2"\nside = "B"\nfaction = "new-tokyo"\nrating = "veteran"\ntype = "tactical"\n'
                   'x = 30\ny = 30\n')
    with pytest.raises(InputError):
        load_scenario(bad)
    start = fresh.push(EditorStartScene())
    scene = start.start_from_file(bad)
    assert isinstance(scene, EditorScene) and start.error == ""
    ed = scene.editor
    assert len(ed.problems) == 1 and "overlap" in ed.problems[0]
    assert set(ed.problem_items()) == {"a-1", "b-1"}
    assert not scene.message_ok and "ringed in red" in scene.message
    assert "to fix" in scene.describe("b-1") and "to fix" not in scene.describe("b-2")
    fresh.render()
    # other edits go on; a new problem is still refused; saving waits for the fix
    assert ed.move("b-2", 31, 30).ok
    assert not ed.move("b-2", 10, 10.5).ok
    assert not ed.save(tmp_path / "crowded-fixed.toml").ok
    edit = ed.move("b-1", 14, 10)
    assert edit.ok and "1 problem fixed, 0 left" in edit.message and ed.problems == ()
    assert ed.save(tmp_path / "crowded-fixed.toml").ok
    assert [u.x for u in load_scenario(tmp_path / "crowded-fixed.toml").units] == [10, 14, 31]


def test_polygon_corners_are_dragged_added_and_removed(fresh, editor):
    ed = editor.editor
    ed.add_polygon("woods", [(10, 10), (14, 10), (14, 14), (10, 14)])
    click(fresh, at(editor, 12, 12))
    assert editor.selected == "woods-1"
    fresh.render()
    # drag the corner at (14, 14) out to (16, 16)
    start, end = at(editor, 14, 14), at(editor, 16, 16)
    hover(fresh, start)
    send(fresh, pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    send(fresh, pygame.MOUSEMOTION, pos=end, rel=(end[0] - start[0], end[1] - start[1]), buttons=(1, 0, 0))
    fresh.render()
    send(fresh, pygame.MOUSEBUTTONUP, pos=end, button=1)
    assert ed.corners("woods-1") == [(10, 10), (14, 10), (16, 16), (10, 14)]
    # Shift+click on the edge from (10, 10) to (14, 10) adds a corner there
    pygame.key.set_mods(pygame.KMOD_SHIFT)
    try:
        click(fresh, at(editor, 12, 10))
    finally:
        pygame.key.set_mods(0)
    assert ed.corners("woods-1") == [(10, 10), (12, 10), (14, 10), (16, 16), (10, 14)]
    # a right click removes one; a piece keeps at least 3
    pos = at(editor, 12, 10)
    hover(fresh, pos)
    send(fresh, pygame.MOUSEBUTTONDOWN, pos=pos, button=3)
    send(fresh, pygame.MOUSEBUTTONUP, pos=pos, button=3)
    assert ed.corners("woods-1") == [(10, 10), (14, 10), (16, 16), (10, 14)]
    assert ed.remove_corner("woods-1", 3).ok
    edit = ed.remove_corner("woods-1", 0)
    assert not edit.ok and "at least 3" in edit.message and len(ed.corners("woods-1")) == 3
    key(fresh, pygame.K_z, pygame.KMOD_CTRL)
    assert len(ed.corners("woods-1")) == 4


def test_terrain_corners_typed_turned_and_a_refused_line_stays_in_its_dialog(fresh, editor):
    """Exact entry of a terrain piece: its corners typed, a turn about its centre (typed, or Q / E), redo after
    undo; a line the table refuses keeps its dialog open with the reason and the line as typed."""
    ed = editor.editor
    assert ed.add_polygon("woods", [(8.1, 8.0), (14, 8), (14, 12), (8, 12)]).ok
    tid = next(iter(ed.ids()))
    editor.selected = tid
    editor.open_exact(tid)
    box = fresh.scene
    assert isinstance(box, TextDialog) and box.initial.endswith("corners=8.1,8 14,8 14,12 8,12")
    box.entry.set_text("corners=8,8 14,8 14")                               # a corner cut short
    box.choose("ok")
    assert fresh.scene is box and "is not a corner x,y" in box.error
    box.entry.set_text("corners=8,8 14,8")                                  # two corners
    box.choose("ok")
    assert fresh.scene is box and "at least 3 corners" in box.error
    box.entry.set_text("corners=8,8 14,8 14,12 8,12")
    box.choose("ok")
    assert fresh.scene is not box
    assert ed.entry(tid).polygon == [[8, 8], [14, 8], [14, 12], [8, 12]]
    # Turned 90° about its centre (11, 10): the 6 x 4 rectangle becomes 4 x 6.
    assert editor.set_exact(tid, "rotate=90").ok
    xs = sorted({round(p[0], 3) for p in ed.entry(tid).polygon})
    ys = sorted({round(p[1], 3) for p in ed.entry(tid).polygon})
    assert (xs, ys) == ([9.0, 13.0], [7.0, 13.0])
    # Q turns it 15° counter-clockwise with the keys; Ctrl+Z undoes, Ctrl+Y redoes.
    turned = ed.entry(tid).polygon
    key(fresh, pygame.K_q)
    assert ed.entry(tid).polygon != turned
    after_q = ed.entry(tid).polygon
    key(fresh, pygame.K_z, pygame.KMOD_CTRL)
    assert ed.entry(tid).polygon == turned
    key(fresh, pygame.K_y, pygame.KMOD_CTRL)
    assert ed.entry(tid).polygon == after_q
    assert not ed.redo().ok                                                 # nothing more to redo
    key(fresh, pygame.K_z, pygame.KMOD_CTRL)
    assert ed.add_circle("smoke", 25, 25, 2).ok                             # a new edit: the redo is gone
    assert not ed.redo().ok


def test_a_clicked_corner_near_a_half_inch_lands_on_it(fresh, editor):
    """A corner clicked at 8.1" (the mouse a pixel off) lands at 8.0; 8.3" stays 8.3 (issue 36)."""
    from referee.ui.scenes.editor import snap_inch

    assert [snap_inch(v) for v in (8.1, 7.9, 8.3, 8.45, 8.62, 0.04)] == [8.0, 8.0, 8.3, 8.5, 8.5, 0.0]
    assert snap_inch(8.1, free=True) == 8.1
    x, y = editor.table_point(editor.view.px(8.1, 12.07))
    assert (x, y) == (8.0, 12.0)


def test_enter_with_the_unit_tool_places_a_unit_where_it_is_typed(fresh, editor):
    from referee.ui.scenes.editor_common import UNIT

    ed = editor.editor
    assert ed.place_unit("A", "new-tokyo", "veteran", "tactical", 10, 10).ok
    editor.tool = UNIT
    key(fresh, pygame.K_RETURN)
    box = fresh.scene
    assert isinstance(box, TextDialog)
    box.entry.set_text("10.5 10")                                   # on the first base
    box.choose("ok")
    assert fresh.scene is box and "overlap" in box.error and len(ed.scenario.units) == 1
    box.entry.set_text("14.25, 6")
    box.choose("ok")
    assert fresh.scene is not box
    placed = [u for u in ed.scenario.units if u.id != "a-tactical-1"]
    assert [(u.x, u.y) for u in placed] == [(14.25, 6.0)]


def test_a_piece_off_the_screen_is_reached_with_tab_and_fixed_by_typing(fresh, tmp_path):
    """A unit at x=500 is ringed in red where nobody can click it: Tab selects it, Enter types where it goes."""
    bad = tmp_path / "far.toml"
    bad.write_text('name = "Far"\ntable = { width = 36, height = 36 }\n'
                   '[[units]]\nid = "a-1"\nside = "A"\nfaction = "new-tokyo"\nrating = "veteran"\ntype = "tactical"\n'
                   'x = 500\ny = 10\n', encoding="utf-8")
    scene = fresh.push(EditorStartScene()).start_from_file(bad)
    assert isinstance(scene, EditorScene) and set(scene.editor.problem_items()) == {"a-1"}
    key(fresh, pygame.K_TAB)
    assert scene.selected == "a-1" and "Enter: type its place" in scene.message
    key(fresh, pygame.K_RETURN)
    box = fresh.scene
    assert isinstance(box, TextDialog)
    box.entry.set_text("x=20 y=10")
    box.choose("ok")
    assert scene.editor.problems == () and scene.editor.entry("a-1").x == 20
