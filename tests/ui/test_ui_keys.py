"""Each kind of scene has one key table: every key it binds is in its help overlay, every help line is bound to a
handler the scene has (or is a mouse gesture), and the help the scene opens is that table."""

from pathlib import Path

import pygame
import pytest

from referee.game.play.engine import Game, begin_battle
from referee.service.replay import BattleReplay
from referee.game.battle.state import state_from_scenario
from referee.rules.scenario import load_scenario
from referee.ui import keys, panels, registry
from referee.service.session import BattleSession
from referee.ui.editing import TableEditor
from referee.service.referee import RefereeSession
from referee.ui.scenes.help import HelpScene
from referee.ui.table_data import load_table

TABLE = Path(__file__).with_name("table.toml")
SMALL = Path(__file__).with_name("small_table.toml")
WITH_KEYS = ("table", "setup-table", "battle", "referee", "replay", "editor")


def press(app, k: int, mod: int = 0, unicode: str = "") -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0))
    app.dispatch(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, scancode=0))


@pytest.mark.parametrize("name", WITH_KEYS)
def test_every_bound_key_has_its_help_line_and_every_line_its_handler(name):
    cls = registry.scene_class(name)
    table = cls.key_table
    shown = [row for _, rows in keys.help_groups(table) for row in rows]
    rows = [row for _, group in table for row in group]
    assert len(shown) == len(rows) > 0
    for row in rows:
        assert row.label.strip() and row.does.strip(), row
        assert (row.label, row.does) in shown
        if isinstance(row, keys.Key):
            owner = row.handler.split(".")[0]
            assert callable(getattr(cls, owner, None)) or "." in row.handler, f"{name}: {row.handler} is not a method"
        else:
            assert isinstance(row, keys.Gesture)
    assert len(set((r.label, r.does) for r in rows)) == len(rows), f"{name}: a help line is there twice"


@pytest.mark.parametrize("name", WITH_KEYS)
def test_no_binding_is_hidden_behind_an_earlier_one_that_always_takes_it(name):
    """A later row with the same key is reachable only when the earlier one can decline (returns False when its
    key does not apply): an earlier catch-all binding of a plain method would make the later help line a lie."""
    table = registry.scene_class(name).key_table
    seen: dict[tuple[int, str], str] = {}
    for key in keys.bindings(table):
        for code in key.keys:
            earlier = seen.get((code, key.mods))
            if earlier is not None:
                assert earlier not in ("fit", "set_tool", "open_help", "undo", "ask_save", "save", "act", "press"), \
                    f"{name}: {key.label} ({key.handler}) is hidden behind {earlier}"
            seen.setdefault((code, key.mods), key.handler)


def test_the_legend_is_not_a_key_table():
    title, rows = panels.LEGEND
    assert title == "Marks on the table" and all(len(r) == 2 for r in rows)


def open_help(app, scene):
    press(app, pygame.K_h)
    assert isinstance(app.scene, HelpScene)
    help_scene = app.scene
    app.pop()
    assert app.scene is scene
    return help_scene


def test_the_table_help_is_its_key_table_and_the_legend(fresh):
    scene = fresh.push_scene("table", load_table(TABLE))
    shown = open_help(fresh, scene)
    assert shown.shortcuts == keys.help_groups(scene.key_table)
    assert shown.legend == panels.LEGEND
    assert shown.groups()[-1][0] == "Marks on the table"


def test_the_battle_help_is_the_battle_table(fresh):
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    scene = fresh.push_scene("battle", BattleSession(Game(state), None, hotseat=True, viewer="A"))
    shown = open_help(fresh, scene)
    titles = [t for t, _ in shown.shortcuts]
    assert titles == ["Battle", "Target counters (after T)", "Looking", "Tools"]
    assert ("Ctrl+Z", "undo the last action") in dict(shown.shortcuts)["Battle"]


def test_the_referee_help_has_no_turn_of_the_table_and_no_holding_area(fresh):
    scene = fresh.push_scene("referee", RefereeSession.from_scenario(load_scenario(SMALL)))
    shown = open_help(fresh, scene)
    battle = dict(shown.shortcuts)["Battle"]
    assert "O" not in [k for k, _ in battle] and "U" not in [k for k, _ in battle] and "A / X" in dict(battle)
    assert dict(shown.shortcuts)["Referee mode"][0] == ("U", "correct the selected piece (nothing selected: add a unit)")


def test_the_replay_help_offers_no_move(fresh):
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    scene = fresh.push_scene("replay", BattleReplay(Game(state)), "A")
    shown = open_help(fresh, scene)
    labels = [k for _, rows in shown.shortcuts for k, _ in rows]
    assert "Page Down / ." in labels and "M" not in labels and "Enter" not in labels


def test_the_editor_help_is_its_key_table(fresh):
    scene = fresh.push_scene("editor", TableEditor.empty(48, 48))
    shown = open_help(fresh, scene)
    assert shown.shortcuts == keys.help_groups(scene.key_table)
    labels = [k for _, rows in shown.shortcuts for k, _ in rows]
    assert "Ctrl+Enter" in labels and "Q / E" in labels


def test_a_key_outside_the_table_does_nothing_and_each_table_key_does_what_its_line_says(fresh):
    scene = fresh.push_scene("table", load_table(TABLE))
    zoom = scene.view.scale
    press(fresh, pygame.K_z)                     # bound nowhere in the table view
    assert scene.view.scale == zoom and scene.tool == "select" and fresh.scene is scene
    press(fresh, pygame.K_r)
    assert scene.tool == "ruler"
    press(fresh, pygame.K_ESCAPE)
    assert scene.tool == "select"
    press(fresh, pygame.K_EQUALS)
    assert scene.view.scale > zoom


def test_digits_choose_the_target_dice_only_while_targeting(fresh):
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    scene = fresh.push_scene("battle", BattleSession(Game(state), None, hotseat=True, viewer="A"))
    before = scene.target.dice
    press(fresh, pygame.K_3, unicode="3")
    assert scene.target.dice == before and scene.tool == "select"      # not targeting: the key is nobody's
