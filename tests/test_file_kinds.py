"""A file of another kind is named as what it is: a save is a save, an empty file is empty (play, validate, query)."""

import os
import shutil

import pytest

from referee import paths
from referee.cli.main import main
from referee.rules.errors import InputError
from referee.rules.files import document_kind
from referee.rules.scenario import load_scenario

SAVE = paths.ROOT / "docs" / "example-save.json"


@pytest.fixture
def files(tmp_path):
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    save = tmp_path / "battle.json"
    shutil.copy(SAVE, save)
    faction = next((paths.DATA_DIR / "factions").glob("*.toml"))
    return {"empty": empty, "save": save, "faction": faction}


def test_each_kind_is_told_by_its_keys(files):
    assert document_kind({}) == "empty"
    assert document_kind({"format": "seven-seconds-save", "version": 1}) == "save"
    assert document_kind({"name": "x", "table": {"width": 36, "height": 36}}) == "scenario"
    assert document_kind({"mission": []}) == "card"


def test_validate_names_an_empty_file_and_checks_a_save(files, capsys):
    assert main(["validate", str(files["empty"])]) == 2
    assert "the file is empty" in capsys.readouterr().err
    assert main(["validate", str(files["save"])]) == 0
    assert f"{files['save']}: valid save" in capsys.readouterr().out


@pytest.mark.parametrize("kind, words", [("empty", "this is an empty file, not a scenario"),
                                         ("save", "this is a battle save, not a scenario"),
                                         ("faction", "this is a faction file, not a scenario")])
def test_query_and_the_scenario_loader_say_what_the_file_is(files, capsys, kind, words):
    with pytest.raises(InputError, match=words):
        load_scenario(files[kind])
    assert main(["query", str(files[kind]), "range", "a", "b"]) == 2
    err = capsys.readouterr().err
    assert words in err and "card" not in err and "unknown keys" not in err


def test_play_opens_a_save_as_the_battle_it_is(files):
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from referee.cli.play import is_save
    from referee.ui.app import App
    from referee.ui.scenes.battle import BattleScene

    assert is_save(files["save"]) and not is_save(files["empty"])
    app = App((1280, 800))
    try:
        menu = app.open_menu()
        scene = menu.load_battle(files["save"])
        assert isinstance(scene, BattleScene) and menu.error == ""
        app.stack.pop()
        app.stack.pop()
        menu = app.open_menu(files["empty"])
        assert "empty file" in menu.error
    finally:
        import pygame
        pygame.quit()



def test_a_scenario_loaded_as_a_battle_is_called_a_scenario_not_bad_json(files):
    from referee.game.records.record import load_game

    table = paths.SCENARIO_DIR / "cover-example.toml"
    with pytest.raises(InputError, match=r"this is a scenario \(a table\), not a battle save: open it with Open, "
                                         "or start a battle on it with Referee"):
        load_game(table)
    with pytest.raises(InputError, match="the file is empty"):
        load_game(files["empty"])
    with pytest.raises(InputError, match="this is a faction file, not a battle save"):
        load_game(files["faction"])
