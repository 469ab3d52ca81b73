"""Physical-table mode driven by synthetic events: draw, place, save, then ask the referee in the table view."""

import random
from pathlib import Path

import pygame
import pygame_gui
import pytest

from referee import paths
from referee.rules.scenario import load_scenario
from referee.ui import keys
from referee.ui.editing import TableEditor
from referee.ui.scenes.editor import (CIRCLE, EDITOR_KEYS, POLYGON, SELECT, UNIT, EditorScene,
                                      EditorStartScene)
from referee.ui.scenes.help import HelpScene
from referee.ui.scenes.menu import MenuScene
from referee.ui.scenes.table import TableScene


@pytest.fixture
def editor(fresh):
    scene = fresh.push(EditorScene(TableEditor.empty(36, 36, "Test table")))
    yield scene
    assert scene.failures == []


def send(app, kind, **attrs):
    app.dispatch(pygame.event.Event(kind, **attrs))


def hover(app, pos):
    send(app, pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def click(app, pos, button=1):
    hover(app, pos)
    send(app, pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
    send(app, pygame.MOUSEBUTTONUP, pos=pos, button=button)


def drag(app, start, end):
    hover(app, start)
    send(app, pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    send(app, pygame.MOUSEMOTION, pos=mid, rel=(mid[0] - start[0], mid[1] - start[1]), buttons=(1, 0, 0))
    send(app, pygame.MOUSEMOTION, pos=end, rel=(end[0] - mid[0], end[1] - mid[1]), buttons=(1, 0, 0))
    send(app, pygame.MOUSEBUTTONUP, pos=end, button=1)


def key(app, k, mod=0):
    send(app, pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)
    send(app, pygame.KEYUP, key=k, mod=mod, scancode=0)


def press(app, element):
    app.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=element))


def chip(scene, key_):
    found = [c for c in scene.chips()[1] if c.key == key_]
    assert found, f"no chip {key_}"
    return found[0].rect.center


def at(scene, x, y):
    return scene.view.px(x, y)


def test_full_flow_from_the_menu_to_the_referee(fresh, tmp_path):
    menu = fresh.push(MenuScene())
    press(fresh, menu.widgets["mirror"])
    start = fresh.scene
    assert isinstance(start, EditorStartScene)
    size36 = next(b for b, size in start.sizes.items() if size == (36, 36))
    press(fresh, size36)
    scene = fresh.scene
    assert isinstance(scene, EditorScene) and start not in fresh.stack.scenes
    assert (scene.editor.width, scene.editor.height) == (36, 36)

    # a wood, corner by corner, closed with Enter
    key(fresh, pygame.K_p)
    assert scene.tool == POLYGON
    click(fresh, chip(scene, "terrain:woods"))
    for x, y in [(4, 10), (10, 10), (10, 16), (4, 16)]:
        click(fresh, at(scene, x, y))
    assert len(scene.draft) == 4
    key(fresh, pygame.K_RETURN)
    assert [(t.id, t.type) for t in scene.editor.scenario.terrain] == [("woods-1", "woods")]
    assert len(scene.draft) == 0 and scene.message_ok

    # two units facing each other across open ground, side A then side B
    key(fresh, pygame.K_u)
    assert scene.tool == UNIT
    click(fresh, at(scene, 18, 4))
    click(fresh, chip(scene, "side:B"))
    click(fresh, chip(scene, "type:assault"))
    click(fresh, at(scene, 18, 30))
    units = {u.id: u for u in scene.editor.scenario.units}
    assert set(units) == {"a-tactical-1", "b-assault-1"}
    assert units["b-assault-1"].side == "B" and units["b-assault-1"].facing == 270
    assert (units["a-tactical-1"].x, units["a-tactical-1"].y) == pytest.approx((18, 4), abs=0.1)

    # a third base on top of the first is refused with the rule, and nothing is added
    click(fresh, at(scene, 18.8, 4))                 # 0.2" short of touching: not drawn to the 19" mark
    assert not scene.message_ok and "overlaps" in scene.message and "A51" in scene.message
    assert len(scene.editor.scenario.units) == 2

    # save under a chosen name and ask the referee
    path = tmp_path / "flow.toml"
    scene.entries["path"].set_text(str(path))
    press(fresh, scene.buttons["ask"])
    table = fresh.scene
    assert isinstance(table, TableScene) and path.is_file()
    assert [f.id for f in table.table.bf.terrain] == ["woods-1"]
    a = table.table.bf.pieces["a-tactical-1"]
    click(fresh, tuple(round(v) for v in table.view.to_screen(a.x, a.y)))
    assert table.selected == "a-tactical-1"
    pair = table.report.pair("b-assault-1")
    assert pair is not None and pair.los.visible and pair.sight == "clear"

    # back to the editor, which still holds the table
    key(fresh, pygame.K_ESCAPE)
    key(fresh, pygame.K_ESCAPE)
    assert fresh.scene is scene and not scene.editor.dirty
    assert load_scenario(path) == scene.editor.scenario
    fresh.screenshot(tmp_path / "after.png")
    assert scene.failures == []


def test_a_bad_polygon_is_refused_with_a_message_and_can_be_fixed(fresh, editor):
    key(fresh, pygame.K_p)
    for x, y in [(10, 10), (16, 18), (16, 10), (10, 18)]:          # a bow tie
        click(fresh, at(editor, x, y))
    key(fresh, pygame.K_RETURN)
    assert not editor.message_ok and "edges do not cross" in editor.message and "woods-1" in editor.message
    assert editor.editor.scenario.terrain == [] and len(editor.draft) == 4       # the corners are kept
    key(fresh, pygame.K_BACKSPACE)
    key(fresh, pygame.K_BACKSPACE)
    assert editor.draft.corners == [(10, 10), (16, 18)]
    click(fresh, at(editor, 10, 18))
    click(fresh, at(editor, 10, 18))                # a double click closes it
    (t,) = editor.editor.scenario.terrain
    assert t.id == "woods-1" and [tuple(p) for p in t.polygon] == [(10, 10), (16, 18), (10, 18)]
    # Esc cancels a polygon being drawn, a second Esc leaves the tool
    click(fresh, at(editor, 2, 2))
    key(fresh, pygame.K_ESCAPE)
    assert len(editor.draft) == 0 and editor.tool == POLYGON
    key(fresh, pygame.K_ESCAPE)
    assert editor.tool == SELECT


def test_too_few_corners_are_refused(fresh, editor):
    key(fresh, pygame.K_p)
    click(fresh, at(editor, 10, 10))
    click(fresh, at(editor, 12, 10))
    key(fresh, pygame.K_RETURN)
    assert not editor.message_ok and "at least 3 points" in editor.message


def test_click_on_the_first_corner_closes_the_polygon(fresh, editor):
    key(fresh, pygame.K_p)
    click(fresh, chip(editor, "terrain:hills"))
    for x, y in [(20, 20), (26, 20), (23, 25), (20, 20)]:
        click(fresh, at(editor, x, y))
    assert [(t.id, t.type, len(t.polygon)) for t in editor.editor.scenario.terrain] == [("hills-1", "hills", 3)]


def test_a_circle_by_drag(fresh, editor):
    key(fresh, pygame.K_c)
    assert editor.tool == CIRCLE
    click(fresh, chip(editor, "terrain:crater"))
    drag(fresh, at(editor, 20, 20), at(editor, 23, 20))
    (t,) = editor.editor.scenario.terrain
    assert t.type == "crater" and t.circle.r == pytest.approx(3, abs=0.1)
    click(fresh, at(editor, 5, 5))                          # no drag: no circle, a hint instead
    assert not editor.message_ok and len(editor.editor.scenario.terrain) == 1


def test_select_turn_counters_marks_delete_undo(fresh, editor):
    ed = editor.editor
    ed.place_unit("A", "new-tokyo", "veteran", "tactical", 10, 10)
    ed.place_unit("B", "new-tokyo", "veteran", "basic-drone", 20, 20)
    pos = at(editor, 10, 10)
    click(fresh, pos)
    assert editor.selected == "a-tactical-1"
    key(fresh, pygame.K_q)
    assert ed.entry("a-tactical-1").facing == 105
    key(fresh, pygame.K_e)
    key(fresh, pygame.K_e)
    assert ed.entry("a-tactical-1").facing == 75
    key(fresh, pygame.K_PLUS)
    key(fresh, pygame.K_PLUS)
    key(fresh, pygame.K_MINUS)
    key(fresh, pygame.K_d)
    key(fresh, pygame.K_s)
    u = ed.entry("a-tactical-1")
    assert (u.target_counters, u.damaged, u.stunned) == (1, True, True)
    click(fresh, chip(editor, "act:stunned"))
    assert not ed.entry("a-tactical-1").stunned

    click(fresh, at(editor, 20, 20))
    assert editor.selected == "b-basic-drone-1"
    key(fresh, pygame.K_d)
    assert not editor.message_ok and "drones are never Damaged" in editor.message
    key(fresh, pygame.K_q)
    assert not editor.message_ok and "drone" in editor.message

    key(fresh, pygame.K_DELETE)
    assert ed.kind_of("b-basic-drone-1") is None and editor.selected is None
    key(fresh, pygame.K_z, pygame.KMOD_CTRL)
    assert ed.kind_of("b-basic-drone-1") == "unit"


def test_drag_moves_a_piece_and_an_overlap_is_refused(fresh, editor):
    ed = editor.editor
    ed.place_unit("A", "new-tokyo", "veteran", "tactical", 10, 10)
    ed.place_objective(None, 20, 20)
    drag(fresh, at(editor, 20, 20), at(editor, 25, 22))
    o = ed.entry("alpha")
    assert (o.x, o.y) == pytest.approx((25, 22), abs=0.1)
    drag(fresh, at(editor, 25, 22), at(editor, 10.4, 10))
    assert not editor.message_ok and "overlaps" in editor.message and "stays" in editor.message
    assert (ed.entry("alpha").x, ed.entry("alpha").y) == (o.x, o.y)


def test_drag_moves_terrain_and_a_type_chip_changes_it(fresh, editor):
    ed = editor.editor
    ed.add_polygon("woods", [(10, 10), (14, 10), (14, 14), (10, 14)])
    drag(fresh, at(editor, 12, 12), at(editor, 20, 12))
    assert ed.terrain_centre("woods-1") == pytest.approx((20, 12), abs=0.1)
    assert editor.selected == "woods-1"
    click(fresh, chip(editor, "terrain:large-building"))
    assert ed.entry("woods-1").type == "large-building"


def test_objectives_and_blips(fresh, editor):
    key(fresh, pygame.K_o)
    click(fresh, chip(editor, "objective:gamma"))
    click(fresh, at(editor, 18, 18))
    click(fresh, at(editor, 24, 18))
    assert [o.id for o in editor.editor.scenario.objectives] == ["gamma", "alpha"]
    key(fresh, pygame.K_b)
    click(fresh, chip(editor, "side:B"))
    click(fresh, at(editor, 5, 30))
    assert [(b.id, b.side) for b in editor.editor.scenario.blips] == [("b-blip-1", "B")]


def test_start_scene_sizes_files_and_errors(fresh):
    start = fresh.push(EditorStartScene())
    start.widgets["width"].set_text("wide")
    press(fresh, start.widgets["custom"])
    assert fresh.scene is start and "Not a table size" in start.error
    start.widgets["width"].set_text("-5")
    press(fresh, start.widgets["custom"])
    assert fresh.scene is start and "table" in start.error
    assert start.start_from_file(Path("/nowhere/table.toml")) is None and "Could not open" in start.error
    scene = start.start_from_file(paths.SCENARIO_DIR / "cover-example.toml")
    assert fresh.scene is scene and scene.editor.kind_of("woods-c") == "terrain"
    # the bundled file is never overwritten by default
    assert scene.save_path != paths.SCENARIO_DIR / "cover-example.toml"
    fresh.pop()
    start = fresh.push(EditorStartScene())
    start.widgets["width"].set_text("60")
    start.widgets["height"].set_text("44")
    press(fresh, start.widgets["custom"])
    assert (fresh.scene.editor.width, fresh.scene.editor.height) == (60, 44)


def test_leaving_with_unsaved_changes_asks_first(fresh):
    menu = fresh.push(MenuScene())
    scene = fresh.push(EditorScene(TableEditor.empty()))
    scene.editor.place_blip("A", 3, 3)
    press(fresh, scene.buttons["menu"])
    assert fresh.scene is scene and not scene.message_ok and "not saved" in scene.message
    press(fresh, scene.buttons["menu"])
    assert fresh.scene is menu


def test_save_errors_are_shown_and_nothing_is_lost(fresh, editor, tmp_path):
    editor.editor.add_polygon("woods", [(1, 1), (5, 1), (3, 4)])
    editor.entries["path"].set_text(str(tmp_path / "table.txt"))
    press(fresh, editor.buttons["ask"])
    assert fresh.scene is editor and not editor.message_ok and ".toml or .json" in editor.message
    assert editor.editor.dirty and len(editor.editor.scenario.terrain) == 1
    editor.entries["path"].set_text(str(tmp_path / "ok.toml"))
    key(fresh, pygame.K_s, pygame.KMOD_CTRL)
    assert editor.message_ok and (tmp_path / "ok.toml").is_file()


def test_help_lists_the_editors_keys(fresh, editor):
    key(fresh, pygame.K_h)
    assert isinstance(fresh.scene, HelpScene) and fresh.scene.shortcuts == keys.help_groups(EDITOR_KEYS)
    fresh.render()
    key(fresh, pygame.K_SPACE)
    assert fresh.scene is editor


def test_random_input_never_crashes_the_window(fresh, editor, tmp_path):
    rng = random.Random(7)
    editor.entries["path"].set_text(str(tmp_path / "fuzz.toml"))
    w, h = fresh.size
    keys = [pygame.K_p, pygame.K_c, pygame.K_u, pygame.K_b, pygame.K_o, pygame.K_v, pygame.K_RETURN,
            pygame.K_BACKSPACE, pygame.K_ESCAPE, pygame.K_q, pygame.K_e, pygame.K_PLUS, pygame.K_MINUS, pygame.K_d,
            pygame.K_s, pygame.K_DELETE, pygame.K_f]
    for i in range(400):
        pos = (rng.randrange(0, w - 460), rng.randrange(40, h))
        r = rng.random()
        if r < 0.4:
            click(fresh, pos)
        elif r < 0.55:
            drag(fresh, pos, (pos[0] + rng.randrange(-80, 80), pos[1] + rng.randrange(-80, 80)))
        elif r < 0.65:
            click(fresh, (rng.randrange(w - 440, w), rng.randrange(120, h - 280)))       # the chips
        elif r < 0.7:
            hover(fresh, pos)
            send(fresh, pygame.MOUSEWHEEL, x=0, y=rng.choice((-1, 1)), flipped=False)
        else:
            key(fresh, rng.choice(keys))
        if fresh.scene is not editor:
            while fresh.scene is not editor and len(fresh.stack):
                fresh.pop()
        if i % 50 == 0:
            fresh.render()
    assert editor.failures == []
    assert not editor.editor.scenario.terrain or editor.editor.save(tmp_path / "fuzz.toml").ok
