"""The faction editor in the window: live points and problems, refusals with the rule, saving for play at once,
campaign upgrades, and a faction made here used in a battle in the same run (headless, SDL dummy)."""

from tests.ui.setup_helpers import answer_pins


import pygame
import pygame_gui
import pytest

from referee import paths
from referee.authoring.faction_io import check_faction_file
from referee.cli.main import main
from referee.rules.factions import available_factions, get_faction
from referee.ui.scenes.faction_editor import UPGRADE, FactionEditorScene
from referee.ui.scenes.menu import MenuScene

# Iron League: Reserve 2,2,3,2,2,1 / Veteran 3,3,4,3,3,2 / Spec Ops 4,4,5,4,4,3 (sums 12, 18, 24)
IRON_POINTS = {
    "reserve": {"sensors": 1, "stealth": 1, "armour": 2, "countermeasures": 1, "nuclear": 1},
    "veteran": {"sensors": 1, "stealth": 1, "armour": 1, "countermeasures": 1, "nuclear": 1, "robotics": 1},
    "spec-ops": {"sensors": 1, "stealth": 1, "armour": 1, "countermeasures": 1, "nuclear": 1, "robotics": 1},
}


@pytest.fixture
def editor(fresh):
    fresh.push(MenuScene())
    scene = fresh.push(FactionEditorScene())
    fresh.step(1 / 30, events=[])
    return scene


def press(app, element):
    app.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=element))


def plus(app, scene, rating, stat, times=1):
    for _ in range(times):
        press(app, scene.stat_buttons[(rating, stat, 1)])


def minus(app, scene, rating, stat, times=1):
    for _ in range(times):
        press(app, scene.stat_buttons[(rating, stat, -1)])


def type_into(app, scene, key, text):
    """As if typed: the box changes, the next frame copies it into the draft."""
    scene.widgets[key].set_text(text)
    app.step(1 / 30, events=[])


def make_iron(app, scene, faction_id="iron-league", name="Iron League"):
    type_into(app, scene, "id", faction_id)
    type_into(app, scene, "name", name)
    for rating, points in IRON_POINTS.items():
        for stat, n in points.items():
            plus(app, scene, rating, stat, n)


# ---------------------------------------------------------------------------------------------------------------
# Live points and problems


def test_raising_a_stat_changes_the_points_left_and_is_carried_up(fresh, editor):
    assert editor.draft.points_left("reserve") == 6
    plus(fresh, editor, "reserve", "armour")
    assert editor.draft.value("reserve", "armour") == 2
    assert editor.draft.points_left("reserve") == 5
    # Veteran starts from Reserve and Spec Ops from Veteran (p.30): the point shows in every line, spent once
    assert editor.draft.value("veteran", "armour") == 2 and editor.draft.value("spec-ops", "armour") == 2
    assert editor.draft.points_left("veteran") == 6
    assert editor.message[1] == "Reserve Arm 2; Reserve has 5 points left"
    minus(fresh, editor, "reserve", "armour")
    assert editor.draft.points_left("reserve") == 6 and editor.draft.value("spec-ops", "armour") == 1
    fresh.step(1 / 30, events=[])


def test_a_new_faction_lists_every_problem_live(fresh, editor):
    problems = editor.problems
    assert "id: expected lower-case words joined by '-', like 'new-tokyo' (got '')" in problems
    assert "name: expected a name (not empty or only spaces) (got '')" in problems
    assert ("created.reserve: expected exactly 6 points added to all 1s, this line adds 0 (sum 6, expected 12) "
            "[p.30, A46]") in problems
    plus(fresh, editor, "reserve", "sensors", 3)
    plus(fresh, editor, "reserve", "stealth", 3)
    assert not any(p.startswith("created.reserve:") for p in editor.problems)
    assert any(p.startswith("created.veteran: expected exactly 6 points added to Reserve, this line adds 0")
               for p in editor.problems)


def test_the_seventh_point_is_refused_with_the_rule(fresh, editor):
    plus(fresh, editor, "reserve", "sensors", 3)
    plus(fresh, editor, "reserve", "stealth", 3)
    plus(fresh, editor, "reserve", "armour")
    assert editor.draft.value("reserve", "armour") == 1 and editor.draft.points_left("reserve") == 0
    assert editor.message == ("error", "Reserve Arm +1 refused: Reserve has no points left: each rating adds "
                                       "exactly 6 [p.30, A46]")


def test_a_stat_above_five_is_refused_even_when_carried_up(fresh, editor):
    plus(fresh, editor, "reserve", "sensors", 3)        # Reserve Sen 4
    plus(fresh, editor, "veteran", "sensors")           # Veteran Sen 5
    plus(fresh, editor, "reserve", "sensors")           # would make Veteran (and Spec Ops) Sen 6
    assert editor.draft.value("reserve", "sensors") == 4
    assert editor.message[1] == ("Reserve Sen +1 refused: Veteran Sen would be 6; no stat may be above 5 (a point "
                                 "added to Reserve is carried up to Veteran) [p.30]")
    plus(fresh, editor, "spec-ops", "sensors")
    assert editor.message[1] == "Spec Ops Sen +1 refused: Spec Ops Sen would be 6; no stat may be above 5 [p.30]"


def test_a_stat_below_the_line_before_is_refused(fresh, editor):
    minus(fresh, editor, "reserve", "robotics")
    assert editor.message[1] == "Reserve Rob -1 refused: Reserve Rob is 1: every stat starts at 1 [p.30]"
    plus(fresh, editor, "reserve", "robotics")
    minus(fresh, editor, "veteran", "robotics")
    assert editor.message[1] == ("Veteran Rob -1 refused: Veteran Rob is already the Reserve value 2: a rating "
                                 "starts from the one before [p.30]")
    assert editor.draft.value("veteran", "robotics") == 2


def test_bad_header_fields_show_their_messages_and_never_crash(fresh, editor):
    type_into(fresh, editor, "id", "Iron League!")
    type_into(fresh, editor, "name", "   ")
    type_into(fresh, editor, "primary", "#12345")
    type_into(fresh, editor, "secondary", "white")
    type_into(fresh, editor, "lore", "<b>bold</b> & \u00e9t\u00e9 \u2014 " + "long " * 200)
    problems = editor.problems
    assert "id: expected lower-case words joined by '-', like 'new-tokyo' (got 'Iron League!')" in problems
    assert "name: expected a name (not empty or only spaces) (got '   ')" in problems
    assert "colours.primary: expected # and six hex digits, like #3c6e9f (got '#12345')" in problems
    assert "colours.secondary: expected # and six hex digits, like #3c6e9f (got 'white')" in problems
    # the lines are still checked, and the preview and unit table still draw
    assert any(p.startswith("created.reserve:") for p in problems)
    assert editor.rows
    fresh.step(1 / 30, events=[])


def test_unit_stats_beside_the_lines_follow_ruling_a5(fresh, editor):
    make_iron(fresh, editor)
    rows = dict(editor.rows)
    # Spec Ops line 4,4,5,4,4,3: Assault Arm +1 = 6 (A5 option A), Scout Sen/Stl +1, Engineer CM +1
    assert rows["Assault"]["spec-ops"] == ["4", "4", "6", "4", "4"]
    assert rows["Scout"]["reserve"] == ["3", "3", "3", "2", "2"]
    assert rows["Engineer"]["veteran"] == ["3", "3", "4", "4", "3"]
    assert rows["Commander"]["veteran"][4] == "-"           # no missile
    assert rows["Drones (Rob)"]["spec-ops"] == ["3"]


def test_swatches_and_emblem_buttons(fresh, editor):
    rect, key, colour = next(s for s in editor.swatch_rects if s[1] == "primary" and s[2] == "#b23a3a")
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))
    assert editor.draft.primary == "#b23a3a" and editor.widgets["primary"].get_text() == "#b23a3a"
    bolt = next(b for b, name in editor.emblem_buttons.items() if name == "bolt")
    press(fresh, bolt)
    assert editor.draft.emblem == "bolt"
    fresh.step(1 / 30, events=[])


# ---------------------------------------------------------------------------------------------------------------
# Saving: refused with the problems, or saved where `faction new` saves, usable at once


def test_an_invalid_faction_cannot_be_saved(fresh, editor):
    type_into(fresh, editor, "id", "half-done")
    type_into(fresh, editor, "name", "Half Done")
    plus(fresh, editor, "reserve", "sensors", 4)
    press(fresh, editor.widgets["save"])
    assert editor.message == ("error", "Not saved: 3 problems to fix first (listed below).")
    assert not (paths.user_factions_dir() / "half-done.toml").exists()
    assert editor.dirty


def test_a_valid_faction_saves_validates_and_is_found_at_once(fresh, editor, capsys):
    make_iron(fresh, editor)
    assert editor.problems == []
    press(fresh, editor.widgets["save"])
    path = paths.user_factions_dir() / "iron-league.toml"
    assert editor.message[0] == "ok" and str(path) in editor.message[1]
    assert "can be chosen for a battle now as 'iron-league'" in editor.message[1]
    assert not editor.dirty and editor.source == path
    # the same checker as the command line, and the command itself, accept it
    assert check_faction_file(path)[1] == []
    assert main(["faction", "validate", str(path)]) == 0
    assert "valid faction 'iron-league'" in capsys.readouterr().out
    # found immediately, by id, and listed for set-up
    faction = get_faction("iron-league")
    assert faction.created.reserve.short() == "2/2/3/2/2/1"
    assert faction.created.spec_ops.short() == "4/4/5/4/4/3"
    assert "iron-league" in [f.id for f in available_factions()]
    # and offered by the editor's own Load list after the save
    assert "Iron League (iron-league)" in editor.choices


def test_saving_again_after_an_edit_replaces_its_own_file_without_asking(fresh, editor):
    make_iron(fresh, editor)
    editor.save()
    type_into(fresh, editor, "name", "Iron League Reborn")
    assert editor.dirty
    assert editor.save() is not None and editor.confirm is None
    assert get_faction("iron-league").name == "Iron League Reborn"


def test_replacing_another_file_or_a_bundled_id_asks_first(fresh, editor):
    make_iron(fresh, editor)
    editor.save()
    # a second, different faction with the same id: asks before replacing the file
    fresh.push(FactionEditorScene())
    other = fresh.scene
    make_iron(fresh, other, name="Another League")
    assert other.save() is None and other.confirm is not None
    assert get_faction("iron-league").name == "Iron League"
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, ui_element=other.confirm))
    assert get_faction("iron-league").name == "Another League"
    # a bundled id: asks too (a custom faction with that id would replace the bundled one in every game)
    type_into(fresh, other, "id", "new-tokyo")
    assert other.save() is None and other.confirm is not None
    assert other.question.startswith("'new-tokyo' is a bundled faction. A custom faction with that id replaces it")
    assert not (paths.user_factions_dir() / "new-tokyo.toml").exists()


def test_save_as_file_and_the_faction_sheet(fresh, editor, tmp_path):
    make_iron(fresh, editor)
    press(fresh, editor.widgets["save_as"])
    assert editor.dialog is not None
    target = tmp_path / "share" / "iron.toml"
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(target),
                                      ui_element=editor.dialog))
    assert target.is_file() and check_faction_file(target)[1] == []
    assert "Share this one file" in editor.message[1]
    press(fresh, editor.widgets["sheet"])
    sheet = tmp_path / "iron-sheet.png"
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(sheet),
                                      ui_element=editor.dialog))
    assert pygame.image.load(str(sheet)).get_size() == (1240, 1754)
    # a wrong file name is a message, not a crash
    assert editor.save(tmp_path / "iron.txt") is None and "expected a file name ending in .toml" in editor.message[1]


# ---------------------------------------------------------------------------------------------------------------
# Campaign upgrades (p.31, A45)


def test_load_and_buy_upgrades_with_costs_halving_caps_and_banking(fresh, editor):
    assert editor.load("new-tokyo")
    assert editor.draft.value("veteran", "armour") == 2
    assert "bundled faction" in editor.message[1]
    type_into(fresh, editor, "id", "my-tokyo")
    press(fresh, editor.widgets["mode_upgrade"])
    assert editor.mode == UPGRADE
    editor.set_opponent(get_faction("peoples-utopian-collective"))
    type_into(fresh, editor, "tech", "5")
    # New Tokyo Veteran Arm 2 against PUC's 4: halved to 2 [p.31, A45]; 3 tech points are banked
    check = editor.purchases[("veteran", "armour")]
    assert check.allowed and check.cost == 2 and check.halved
    plus(fresh, editor, "veteran", "armour")
    assert editor.message[0] == "ok" and "for 2 tech points (halved" in editor.message[1]
    assert editor.tech_text == "3" and editor.widgets["tech"].get_text() == "3"
    assert editor.draft.current("veteran", "armour") == 3
    # Veteran Arm 3 = Spec Ops Arm 3: no higher
    plus(fresh, editor, "veteran", "armour")
    assert editor.message[0] == "error" and "would be above Spec Ops Arm 3" in editor.message[1]
    assert editor.message[1].endswith("[p.31, A45]")
    # Spec Ops Sen is already 5
    plus(fresh, editor, "spec-ops", "sensors")
    assert "already 5; the maximum is 5" in editor.message[1]
    # not enough points: Spec Ops Arm costs 6 (PUC's 5 is higher: halved to 3), 3 available: bought, 0 left
    plus(fresh, editor, "spec-ops", "armour")
    assert editor.tech_text == "0"
    plus(fresh, editor, "reserve", "sensors")
    assert "it costs 2 tech points and only 0 tech points available" in editor.message[1]
    assert [u.cost for u in editor.draft.upgrades] == [2, 3]
    # the created lines are now fixed; changes go through upgrades
    press(fresh, editor.widgets["mode_create"])
    plus(fresh, editor, "reserve", "sensors")
    assert "created lines are fixed once campaign upgrades are bought" in editor.message[1]
    assert editor.save() is not None
    saved = get_faction("my-tokyo")
    assert saved.stats("veteran").armour == 3 and saved.created.veteran.armour == 2
    assert check_faction_file(paths.user_factions_dir() / "my-tokyo.toml")[1] == []


def test_undo_returns_the_points_and_a_bad_tech_entry_is_a_message(fresh, editor):
    editor.load("council-of-zane")
    editor.set_mode(UPGRADE)
    type_into(fresh, editor, "tech", "4")
    plus(fresh, editor, "reserve", "armour")
    assert editor.tech_text == "2" and len(editor.draft.upgrades) == 1
    press(fresh, editor.widgets["undo"])
    assert editor.tech_text == "4" and editor.draft.upgrades == []
    type_into(fresh, editor, "tech", "lots")
    plus(fresh, editor, "reserve", "armour")
    assert editor.message[1] == ("Reserve Arm not bought: tech points: expected a whole number, 0 or more "
                                 "(got 'lots')")
    assert editor.draft.upgrades == []
    fresh.step(1 / 30, events=[])


def test_no_upgrades_for_unfinished_lines(fresh, editor):
    editor.set_mode(UPGRADE)
    plus(fresh, editor, "reserve", "armour")
    assert "finish the created lines first" in editor.message[1]
    assert editor.draft.upgrades == []


def test_the_load_list_opens_a_file_named_otherwise(fresh, editor):
    import tomli_w

    folder = paths.user_factions_dir()
    folder.mkdir(parents=True, exist_ok=True)
    data = get_faction("council-of-zane").model_dump(by_alias=True)
    data.update(id="zane-again", name="Zane Again")
    (folder / "Zane Again.toml").write_text(tomli_w.dumps(data), encoding="utf-8")
    editor.on_resume()                                   # the list is read again whenever the editor is shown
    assert "Zane Again (zane-again)" in editor.choices
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="Zane Again (zane-again)",
                                      ui_element=editor.widgets["load"]))
    assert editor.draft.name == "Zane Again" and editor.source == folder / "Zane Again.toml"


def test_a_file_with_problems_is_not_opened(fresh, editor):
    bad = paths.user_factions_dir() / "broken.toml"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text('id = "broken"\nname = "Broken"\n', encoding="utf-8")
    assert not editor.load("broken")
    assert editor.message[0] == "error" and "created: required key is missing" in editor.message[1]
    assert editor.draft.id == ""


def test_a_file_with_an_unknown_key_opens_to_be_fixed_and_saves_without_it(fresh, editor):
    import tomli_w

    from referee.authoring.faction_io import check_faction_file

    folder = paths.user_factions_dir()
    folder.mkdir(parents=True, exist_ok=True)
    data = get_faction("council-of-zane").model_dump(by_alias=True)
    data.update(id="zane-red", name="Zane Red", colour="red")        # a key the format does not know
    path = folder / "zane-red.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    assert check_faction_file(path)[1] == ["colour: unknown key (not part of the format)"]
    assert editor.load(str(path))
    assert editor.draft.name == "Zane Red"
    assert editor.message[0] == "note" and "without its unknown key colour" in editor.message[1]
    assert editor.save(path, confirmed=True) == path
    assert check_faction_file(path)[1] == []                            # fixed: saved without it


# ---------------------------------------------------------------------------------------------------------------
# Leaving, the menu, narrow windows


def test_escape_asks_once_about_unsaved_changes(fresh, editor):
    escape = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b")
    plus(fresh, editor, "reserve", "armour")
    fresh.dispatch(escape)
    assert fresh.scene is editor and "Unsaved changes" in editor.message[1]
    fresh.dispatch(escape)
    assert isinstance(fresh.scene, MenuScene)


def test_escape_leaves_at_once_when_nothing_changed(fresh, editor):
    fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"))
    assert isinstance(fresh.scene, MenuScene)


def test_the_menu_opens_the_editor(fresh):
    menu = fresh.push(MenuScene())
    press(fresh, menu.widgets["factions"])
    assert isinstance(fresh.scene, FactionEditorScene)
    fresh.step(1 / 30, events=[])


def test_a_narrow_window_shows_one_page_at_a_time(fresh):
    fresh.dispatch(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=560, size=(800, 560)))
    try:
        scene = fresh.push(FactionEditorScene())
        assert scene.layout["narrow"] and "id" in scene.widgets and not scene.stat_buttons
        press(fresh, scene.widgets["page_lines"])
        assert scene.stat_buttons and "id" not in scene.widgets
        plus(fresh, scene, "reserve", "nuclear")
        assert scene.draft.value("reserve", "nuclear") == 2
        scene.set_field("name", "Typed elsewhere")        # a field not on screen is still kept
        press(fresh, scene.widgets["page_fields"])
        assert scene.widgets["name"].get_text() == "Typed elsewhere"
        fresh.step(1 / 30, events=[])
    finally:
        fresh.dispatch(pygame.event.Event(pygame.VIDEORESIZE, w=1280, h=800, size=(1280, 800)))


# ---------------------------------------------------------------------------------------------------------------
# Done means: a faction made in the editor is used in a battle in the same run


def test_a_faction_made_in_the_editor_plays_a_battle_in_the_same_run(fresh, editor):
    from referee.ui.scenes.setup import SetupScene

    make_iron(fresh, editor)
    editor.save()
    fresh.pop()                                     # back to the menu
    setup = fresh.push(SetupScene())
    assert "Iron League (iron-league)" in setup.factions
    setup.choice["A"] = "iron-league"
    setup.choice["B"] = "new-tokyo"
    session = setup.start()
    answer_pins(fresh)
    assert session is not None, setup.error
    from tests.ui.setup_helpers import finish_setup

    finish_setup(fresh)
    state = session.state
    ours = [c for c in state.units.values() if c.side == "A"]
    ours += [c for square in state.holding["A"].squares.values() for c in (square or []) if c.side == "A"]
    assert ours and {c.faction for c in ours} == {"iron-league"}
    # the battle's unit stats are the new faction's lines (ruling A5 on top)
    from referee.rules.units import unit_stats

    one = ours[0]
    line = get_faction("iron-league").stats(one.rating)
    assert unit_stats(get_faction("iron-league"), one.rating, "tactical").stats == line


def test_long_loaded_values_show_and_odd_values_set_in_code_stay(fresh, editor):
    long_name = "The Most Serene and Utterly Indomitable Republic of the Northern Ridge"
    editor.set_field("name", long_name)
    editor.set_field("primary", "#12345678")
    fresh.step(1 / 30, events=[])
    assert editor.draft.name == long_name and editor.draft.primary == "#12345678"
    assert "colours.primary: expected # and six hex digits, like #3c6e9f (got '#12345678')" in editor.problems
    editor._build(editor.size)
    fresh.step(1 / 30, events=[])
    assert editor.widgets["name"].get_text() == long_name and editor.draft.name == long_name
