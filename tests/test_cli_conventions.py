"""The command line behaves as a good tool does: --version, one ``seven-seconds:`` before an error with the usage
and the nearest word, each question's own --help, shell completion, and JSON Schemas that the bundled files meet."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from referee import paths
from referee.cli.main import main
from referee.cli.schema import KINDS, schema_text


def test_version(capsys):
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"seven-seconds {version('seven-seconds-referee')}\n"


@pytest.mark.parametrize("argv, hint", [
    (["repot", "x.json"], "invalid choice: 'repot': did you mean 'report'?"),
    (["query", "cover-example", "targt", "a", "b"], "invalid choice: 'targt': did you mean 'target'?"),
    (["selfplay", "--sed", "3", "--out", "x.json"], "unrecognized arguments: --sed 3 (did you mean '--seed'?)"),
    (["faction", "sheeet", "new-tokyo"], "invalid choice: 'sheeet': did you mean 'sheet'?"),
])
def test_a_mistyped_word_gets_the_usage_and_the_nearest_word_once_prefixed(argv, hint, capsys, tmp_path,
                                                                            monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: seven-seconds")
    assert hint in err
    assert "seven-seconds: seven-seconds" not in err
    assert err.count("\nseven-seconds") == 1, err
    assert not list(tmp_path.iterdir()), "nothing written"


def test_an_error_naming_the_program_is_not_prefixed_twice(capsys):
    assert main(["faction"]) == 2
    assert capsys.readouterr().err == ("seven-seconds faction: expected a faction command: new, validate, show, "
                                       "list, upgrade, sheet\n")


def test_each_question_lists_its_own_arguments(capsys):
    assert main(["query", "target", "--help"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: seven-seconds query SCENARIO target [--json] [--pool N] A B")
    assert "the price of each Target counter A places on B [p.19]" in text
    assert "--pool N" in text and "the Sensor Pool rolled" in text
    assert main(["query", "pastoral-hills", "exposure", "--help"]) == 0
    text = capsys.readouterr().out
    assert "SIDE" in text and "--step STEP" in text
    # Without a question, the command's own help lists every question.
    with pytest.raises(SystemExit):
        main(["query", "--help"])
    assert "sightlines: every ordered pair" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_scripts_know_every_command_and_a_questions_choices(shell, capsys):
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    words = ["selfplay", "faction", "mat", "report", "sightlines", "version", "pdf"]
    for word in words:
        assert word in script, word


def test_the_shipped_schemas_are_the_models_own(capsys):
    for kind in KINDS:
        shipped = (Path(paths.__file__).parent / "schemas" / f"{kind}.schema.json").read_text()
        assert shipped == schema_text(kind), f"run: seven-seconds schema --out referee/schemas ({kind})"


@pytest.mark.parametrize("kind, folder", [("faction", paths.DATA_DIR / "factions"),
                                          ("cards", paths.DATA_DIR / "cards"), ("scenario", paths.SCENARIO_DIR)])
def test_every_bundled_file_meets_its_schema_and_a_broken_one_does_not(kind, folder):
    checker = jsonschema.Draft202012Validator(json.loads(schema_text(kind)))
    files = sorted(folder.glob("*.toml"))
    assert files
    for f in files:
        data = tomllib.loads(f.read_text())
        assert not [e.message for e in checker.iter_errors(data)], f
    broken = tomllib.loads(files[0].read_text()) | {"colour_of_the_sky": "blue"}
    assert any("colour_of_the_sky" in e.message for e in checker.iter_errors(broken))


def test_schema_writes_the_files(tmp_path, capsys):
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{k}.schema.json" for k in sorted(KINDS)]
    capsys.readouterr()
    assert main(["schema", "faction"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "7 Seconds faction file"


def test_an_empty_argument_left_over_is_refused_with_the_usage(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["query", "cover-example", "range", "", "a-commander", ""]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: seven-seconds") and "unrecognized arguments" in err
