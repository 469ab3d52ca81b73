"""Readable and reachable: the UI scale and its first guess, the large-text layout, full screen, the settings file's
look and keys, Tab focus through menus and dialogs, and redo in battles and the table editor."""

import math
from pathlib import Path

import pygame
import pytest

from referee.game.play.engine import Game, begin_battle
from referee.game.battle.state import state_from_scenario
from referee.rules.scenario import load_scenario
from referee.ui import focus, keys, preferences, scale, theme
from referee.ui.app import App
from referee.service.session import BattleSession
from referee.ui.editing import TableEditor
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog, HandoffScreen
from referee.ui.scenes.settings import SettingsScene
from referee.ui.scenes.table import TableScene
from referee.ui.scenes.table_common import RULER, SELECT
from referee.ui.table_data import load_table

TABLE = Path(__file__).with_name("table.toml")


@pytest.fixture(autouse=True)
def own_settings(tmp_path, monkeypatch):
    """Each test reads and writes its own settings file, and leaves the theme, keys and scale as it found them."""
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path))
    yield tmp_path
    keys.REMAPPED.clear()
    theme.apply("standard")
    scale.set_current(1.0)


def key(app, k, mod=0, unicode=""):
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0))
    app.dispatch(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, scancode=0))


def tab(app, times=1, shift=False):
    for _ in range(times):
        key(app, pygame.K_TAB, pygame.KMOD_SHIFT if shift else 0)


# ---- the scale ------------------------------------------------------------------------------------------------------


def test_the_scene_paints_a_logical_window_and_the_mouse_arrives_in_its_coordinates():
    app = App((1280, 800), ui_scale=2.0)
    try:
        assert app.size == (640, 400) and app.window.get_size() == (1280, 800)
        scene = app.push(TableScene(load_table(TABLE)))
        assert scene.size == (640, 400)
        p = scene.table.bf.pieces["a-tac-1"]
        x, y = scene.view.to_screen(p.x, p.y)
        # The player clicks where the unit shows on the window: twice as far from the corner.
        pos = (round(x * 2), round(y * 2))
        app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        assert scene.selected == "a-tac-1"
        shot = app.render()
        assert shot.get_size() == (640, 400)
        # The window holds the logical picture enlarged: a pixel of the status bar's background at both sizes.
        assert app.window.get_at((4, 4))[:3] == app.screen.get_at((2, 2))[:3]
    finally:
        pygame.quit()


def test_a_scale_the_window_has_no_room_for_is_lowered_to_keep_the_smallest_layout():
    assert scale.fitted(2.5, (1280, 800)) == 2.0
    assert scale.fitted(2.5, (1920, 1080)) == 2.5
    assert scale.fitted(1.5, (800, 560)) == pytest.approx(1.25)     # 800 / 640: the width is what limits it
    assert scale.fitted(0.5, (1920, 1080)) == 1.0


def test_scale_is_read_as_a_percentage_or_a_factor_and_refused_outside_100_to_250():
    assert scale.parse("150%") == 1.5 and scale.parse("1.75") == 1.75 and scale.parse("200") == 2.0
    for bad in ("300", "0.5", "big"):
        with pytest.raises(ValueError, match="100% to 250%"):
            scale.parse(bad)


def test_the_first_guess_on_a_156_inch_1080p_laptop_reads_at_12_arcminutes_from_a_metre():
    pygame.font.init()
    guess = scale.first_guess((1920, 1080), None)      # no density known: taken for 15.6" across
    assert guess == 2.5
    # Worked out here from the screen's geometry: 2203 pixels along a 15.6" diagonal.
    pitch_mm = 15.6 * 25.4 / math.hypot(1920, 1080)
    x_height_mm = scale.x_height_px(theme.BODY_SIZE) * guess * pitch_mm
    arcmin = math.degrees(2 * math.atan(x_height_mm / 2000)) * 60
    assert arcmin >= 12.0
    assert scale.body_arcminutes(guess, (1920, 1080), None) == pytest.approx(arcmin)
    # One step less would not reach the goal: the guess is the smallest that does.
    assert scale.body_arcminutes(guess - scale.STEP, (1920, 1080), None) < 12.0
    # A screen whose density is known: a 24" 1080p monitor (92 dpi) needs less.
    assert scale.first_guess((1920, 1080), 92.0) == 1.75


def test_the_density_comes_from_xrandr_millimetres():
    out = ("Screen 0: minimum 8 x 8, current 1920 x 1080\n"
           "eDP-1 connected primary 1920x1080+0+0 (normal left inverted right x axis y axis) 344mm x 194mm\n"
           "HDMI-1 disconnected (normal left inverted right x axis y axis)\n")
    dpi = scale.dpi_from_xrandr(out, (1920, 1080))
    assert dpi == pytest.approx(math.hypot(1920, 1080) / (math.hypot(344, 194) / 25.4))
    assert scale.dpi_from_xrandr(out, (2560, 1440)) is None


def test_large_text_at_1280_by_800_and_200_percent_keeps_the_menu_and_the_table_in_the_window():
    app = App((1280, 800), ui_scale=2.0)
    try:
        menu = app.open_menu()
        app.step(1 / 30, events=[])
        for element in menu.manager.get_sprite_group().sprites():
            if getattr(element, "visible", False) and element.rect.w > 0:
                assert element.rect.bottom <= 400 and element.rect.right <= 640, element
        scene = app.push(TableScene(load_table(TABLE)))
        layout = scene.layout
        table_w, table_h = layout.table.size
        assert min(table_w, table_h) >= 300            # on the window: 600 pixels or more
        assert layout.panel.h >= 100
    finally:
        pygame.quit()


def test_f11_switches_full_screen_and_back_and_ctrl_q_quits(fresh):
    resized = []
    scene = fresh.push(TableScene(load_table(TABLE)))
    scene.on_resize = lambda size: resized.append(size)
    key(fresh, pygame.K_F11)
    assert fresh.fullscreen and resized
    key(fresh, pygame.K_F11)
    assert not fresh.fullscreen and fresh.window.get_size() == (1280, 800)
    assert fresh.running
    key(fresh, pygame.K_q, pygame.KMOD_CTRL)
    assert not fresh.running


# ---- settings: the look and the keys ------------------------------------------------------------------------------


def test_settings_keep_the_scale_and_theme_beside_the_rulings(fresh, own_settings):
    scene = fresh.push(SettingsScene())
    scene.change_scale(+2)
    assert fresh.ui_scale == 1.5 and fresh.size == (853, 533)
    scene.next_theme()
    assert theme.current_theme[0] == "high-contrast" and theme.TEXT == (255, 255, 255)
    scene.next_option(next(iter(scene.rulings)))
    scene.save()
    data = preferences.read_settings()
    assert data["display"] == {"scale": 1.5, "theme": "high-contrast"} and data["rulings"]
    prefs = preferences.load()
    assert prefs.scale == 1.5 and prefs.theme == "high-contrast" and not prefs.problems
    fresh.set_scale(1.0)


def test_a_broken_display_value_is_named_and_the_rest_still_read(own_settings):
    (own_settings / "settings.toml").write_text('[display]\nscale = 4\ntheme = "neon"\n[keys]\nredo = 5\n')
    prefs = preferences.load()
    assert prefs.scale is None and prefs.theme == "standard" and prefs.keys == {}
    text = " | ".join(prefs.problems)
    assert "display.scale" in text and "100% to 250%" in text and "display.theme" in text and "neon" in text
    assert "keys.redo" in text


def test_a_key_moved_in_the_settings_file_works_and_the_help_shows_it(fresh, own_settings):
    (own_settings / "settings.toml").write_text('[keys]\n"set_tool:ruler" = "Q"\nno_such = "X"\n')
    from referee.ui.startup import window_preferences

    _scale, problems = window_preferences(None, None, screenshot=True)
    assert problems == ["keys.no_such: no binding of that name (the help lists them)"]
    scene = fresh.push(TableScene(load_table(TABLE)))
    key(fresh, pygame.K_r, unicode="r")
    assert scene.tool == SELECT                     # R no longer takes the ruler
    key(fresh, pygame.K_q, unicode="q")
    assert scene.tool == RULER
    shown = dict(row for _title, rows in keys.help_groups(scene.key_table) for row in rows)
    assert shown["Q (your keys)"].startswith("ruler")
    scene.escape()
    scene.open_help()
    groups = dict(fresh.scene.groups())
    assert "set_tool:ruler" in dict(groups["Keys of your own"])["names here"]
    assert dict(groups["Keys of your own"])["yours"] == "set_tool:ruler = Q"
    assert [label for label, _ in groups["Window"]] == ["F11", "Ctrl+Tab / Ctrl+Shift+Tab", "Ctrl+Q"]


# ---- the keyboard reaches everything ------------------------------------------------------------------------------


def test_the_file_dialog_holds_the_keys_and_enter_on_a_typed_file_opens_it(fresh):
    """Ctrl+O's file dialog: Tab reaches only its own buttons and boxes (it reached the menu's behind it, and Enter
    on one of those opened another table), and Enter on a table's path typed in its box opens that table."""
    import pygame_gui

    menu = fresh.open_menu()
    fresh.step(1 / 30, events=[])
    menu.open_dialog()
    dialog = menu.dialog
    assert dialog is not None
    for _ in range(12):
        tab(fresh)
        element = focus.focused(menu)
        assert element is not None and focus._inside(element, dialog.get_container()), element
    dialog.file_path_text_line.set_text(str(TABLE))
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_FINISHED, ui_element=dialog.file_path_text_line,
                                      text=str(TABLE)))
    assert isinstance(fresh.scene, TableScene) and fresh.scene.table.name == "Test table: river crossing"


def test_the_menu_and_a_dialog_driven_by_the_keyboard_only(fresh):
    menu = fresh.open_menu()
    fresh.step(1 / 30, events=[])
    # Tab walks the buttons in reading order: the default table, New battle, Load, Settings...
    tab(fresh)
    assert menu.widgets["default"].is_selected
    tab(fresh, 3)
    assert menu.widgets["settings"].is_selected
    tab(fresh, shift=True)
    assert menu.widgets["load_battle"].is_selected and not menu.widgets["settings"].is_selected
    tab(fresh)
    key(fresh, pygame.K_RETURN, unicode="\r")
    settings = fresh.scene
    assert isinstance(settings, SettingsScene)
    # In Settings: the text size, by keyboard.
    while not any(b.is_selected and k == "larger" for b, k in settings.buttons.items()):
        tab(fresh)
    key(fresh, pygame.K_SPACE, unicode=" ")
    assert fresh.ui_scale == 1.25
    key(fresh, pygame.K_ESCAPE)
    assert fresh.scene is menu
    fresh.set_scale(1.0)
    # A dialog: its second button, by Tab and Enter.
    answers = []
    fresh.push(Dialog("Which?", ["choose one"], [("one", "One"), ("two", "Two")], answers.append))
    tab(fresh, 2)
    key(fresh, pygame.K_RETURN, unicode="\r")
    assert answers == ["two"] and fresh.scene is menu
    # Ctrl+O on the menu opens the file dialog to load a saved battle.
    key(fresh, pygame.K_o, pygame.KMOD_CTRL)
    assert menu.dialog is not None and menu.dialog_kind == "battle"


def test_the_hand_off_screen_answers_tab_and_enter(fresh):
    answers = []
    fresh.push(HandoffScreen("B", ["side A ended its turn"], answers.append))
    tab(fresh)
    key(fresh, pygame.K_RETURN, unicode="\r")
    assert answers == ["ready"]


def test_a_scene_that_binds_tab_keeps_it():
    """The table's Tab selects the next unit: the focus does not take it."""
    from referee.ui import focus

    class Stub:
        manager = object()
        key_table = TableScene.key_table

    assert not focus.handle(Stub(), pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=0))


def test_redo_in_the_table_editor_makes_the_undone_edit_again():
    editor = TableEditor()
    first = editor.scenario.name
    assert editor.rename("Redoubt").ok and editor.scenario.name == "Redoubt"
    assert editor.undo().ok and editor.scenario.name == first
    done = editor.redo()
    assert done.ok and done.message == "Redone: Renamed the table 'Redoubt'" and editor.scenario.name == "Redoubt"
    assert not editor.redo().ok
    editor.undo()
    editor.rename("Another")                        # a new edit: nothing undone is left to redo
    assert not editor.redo().ok and editor.scenario.name == "Another"


def test_redo_in_a_battle_plays_the_action_taken_back_again(fresh):
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), None, hotseat=True, viewer="A")
    scene = fresh.push(BattleScene(session))
    fresh.step(1 / 30, events=[])
    scene.select("a-eng")
    scene.press("activate")
    after = session.state.to_data()
    key(fresh, pygame.K_z, pygame.KMOD_CTRL, "z")
    assert session.state.turn.active != "a-eng"
    key(fresh, pygame.K_y, pygame.KMOD_CTRL, "y")
    assert session.state.turn.active == "a-eng" and session.state.to_data() == after
    key(fresh, pygame.K_z, pygame.KMOD_CTRL, "z")
    key(fresh, pygame.K_z, pygame.KMOD_CTRL | pygame.KMOD_SHIFT, "Z")
    assert session.state.to_data() == after
    # Nothing is left to redo: the window says so and nothing changes.
    key(fresh, pygame.K_y, pygame.KMOD_CTRL, "y")
    assert session.state.to_data() == after


def test_redo_in_the_faction_editor_buys_the_upgrade_taken_back_again(fresh):
    import pygame_gui

    from referee.ui.scenes.faction_editor import UPGRADE, FactionEditorScene

    editor = fresh.push(FactionEditorScene())
    fresh.step(1 / 30, events=[])
    editor.load("council-of-zane")
    editor.set_mode(UPGRADE)
    editor.widgets["tech"].set_text("4")
    fresh.step(1 / 30, events=[])
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED,
                                      ui_element=editor.stat_buttons[("reserve", "armour", 1)]))
    assert editor.tech_text == "2" and len(editor.draft.upgrades) == 1
    key(fresh, pygame.K_z, pygame.KMOD_CTRL, "z")
    assert editor.tech_text == "4" and editor.draft.upgrades == []
    key(fresh, pygame.K_y, pygame.KMOD_CTRL, "y")
    assert editor.tech_text == "2" and [(u.rating, u.stat) for u in editor.draft.upgrades] == [("reserve", "armour")]
    key(fresh, pygame.K_y, pygame.KMOD_CTRL, "y")
    assert editor.message[1] == "No upgrade to redo." and len(editor.draft.upgrades) == 1
