"""``seven-seconds play --screenshot``: renders without a display and saves a PNG."""

from pathlib import Path

import pygame

from referee.cli.main import main

TABLE = Path(__file__).with_name("table.toml")
SMALL = Path(__file__).with_name("small_table.toml")


def test_screenshot_of_a_table_with_a_selection_and_a_ruler(tmp_path, capsys):
    out = tmp_path / "shot.png"
    status = main(["play", str(TABLE), "--size", "900x640", "--screenshot", str(out), "--select", "a-tac-1",
                   "--hover", "b-tac-2", "--ruler", "a-tac-1", "b-asl"])
    assert status == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (900, 640)


def test_screenshot_of_a_broken_scenario_shows_the_menu(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nbogus = 1\n')
    out = tmp_path / "menu.png"
    assert main(["play", str(bad), "--screenshot", str(out), "--select", "a-tac-1"]) == 0
    assert out.is_file()


def test_unknown_unit_for_screenshot_is_bad_input(tmp_path, capsys):
    status = main(["play", str(TABLE), "--screenshot", str(tmp_path / "x.png"), "--select", "nobody"])
    assert status == 2
    assert "nobody" in capsys.readouterr().err


def test_bad_size_is_bad_input(capsys):
    assert main(["play", str(TABLE), "--size", "big"]) == 2


def test_play_referee_screenshot_and_bad_files(tmp_path, capsys):
    out = tmp_path / "referee.png"
    assert main(["play", str(SMALL), "--referee", "--initiative", "B", "--size", "900x640", "--screenshot", str(out),
                 "--select", "b-tactical-1", "--hover", "a-tactical-1"]) == 0
    assert pygame.image.load(str(out)).get_size() == (900, 640)
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    assert main(["play", str(empty), "--referee", "--screenshot", str(out)]) == 2
    assert "this is an empty file, not a scenario" in capsys.readouterr().err
    assert main(["play", str(SMALL), "--initiative", "C"]) == 2

