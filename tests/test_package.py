"""The bundled data ships inside the package, and a table named on the command line is found from any directory."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from referee import paths
from referee.cli.main import main

PACKAGE = Path(paths.__file__).resolve().parent
PROJECT = PACKAGE.parent


def test_bundled_folders_are_inside_the_package():
    assert paths.DATA_DIR.resolve() == PACKAGE / "data"
    assert paths.SCENARIO_DIR.resolve() == PACKAGE / "scenarios"
    assert paths.DEFAULT_SCENARIO.is_file()
    assert (PACKAGE / "py.typed").is_file()


def test_every_bundled_file_is_listed_for_the_wheel():
    # A data file in a folder the package-data globs miss would be in the source tree and absent from the wheel.
    globs = tomllib.loads((PROJECT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["referee"]
    bundled = [p.relative_to(PACKAGE).as_posix() for folder in ("data", "scenarios", "schemas", "locale")
               for p in (PACKAGE / folder).rglob("*") if p.is_file()]
    assert len(bundled) >= 17
    missed = [f for f in bundled if not any(fnmatch.fnmatchcase(f, g) and f.count("/") == g.count("/") for g in globs)]
    assert missed == []


def test_top_level_folders_show_the_bundled_files():
    assert (PROJECT / "scenarios" / "pastoral-hills.toml").read_bytes() == paths.DEFAULT_SCENARIO.read_bytes()
    assert (PROJECT / "data" / "rulings.toml").read_bytes() == (paths.DATA_DIR / "rulings.toml").read_bytes()


def test_a_bundled_table_is_found_by_name_from_another_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    expected = paths.SCENARIO_DIR / "cover-example.toml"
    assert paths.table_file("scenarios/cover-example.toml") == expected
    assert paths.table_file("cover-example.toml") == expected
    assert paths.table_file("cover-example") == expected


def test_a_file_that_exists_wins_over_the_bundled_table(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scenarios").mkdir()
    mine = tmp_path / "scenarios" / "cover-example.toml"
    mine.write_bytes((paths.SCENARIO_DIR / "cover-example.toml").read_bytes())
    assert paths.table_file("scenarios/cover-example.toml") == Path("scenarios/cover-example.toml")


def test_an_unknown_name_is_left_as_typed_so_the_error_names_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert paths.table_file("no-such-table") == Path("no-such-table")
    assert paths.table_file("elsewhere/cover-example.toml") == Path("elsewhere/cover-example.toml")
    assert main(["validate", "no-such-table.toml"]) == 2
    assert "no-such-table.toml" in capsys.readouterr().err


def test_query_answers_on_a_bundled_table_from_another_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["query", "scenarios/cover-example.toml", "target", "green", "target-d", "--pool", "12"]) == 0
    assert "placed: 4" in capsys.readouterr().out


def test_the_package_says_its_licence_and_the_pythons_it_is_tested_on():
    from importlib.metadata import metadata

    meta = metadata("seven-seconds-referee")
    assert meta["License-Expression"] == "MIT"
    assert (PROJECT / "LICENSE").read_text().startswith("MIT License")
    classifiers = meta.get_all("Classifier") or []
    for version in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {version}" in classifiers


def test_ci_runs_the_readmes_test_command_first_and_exactly():
    readme = (PROJECT / "README.md").read_text()
    command = next(line for line in readme.splitlines() if "pytest -n auto" in line)
    ci = [line for line in (PROJECT / ".ci" / "run").read_text().splitlines()
          if line and not line.startswith(("#", " ", "\t"))]
    runs = [line for line in ci if "pytest" in line]
    assert runs[0] == command
    # The checkers CI runs are pinned, and the pins meet pyproject's floors.
    pins = dict(line.split("==") for line in (PROJECT / ".ci" / "constraints.txt").read_text().splitlines()
                if line and not line.startswith("#"))
    assert set(pins) >= {"ruff", "mypy"}
    extra = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    floors = dict(item.split(">=") for item in extra if ">=" in item)
    for tool in ("ruff", "mypy"):
        assert tuple(map(int, pins[tool].split("."))) >= tuple(map(int, floors[tool].split(".")))
