"""Numbers no game holds, typed or saved: a whole number of hundreds of digits in a save's action, infinities and NaN
in ``--args``, JSON nested beyond any document's depth. Each is bad input (exit status 2, the reason on stderr
naming where it is), never a traceback; generated ``--args`` documents of wild numbers are fuzzed the same way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cli.main import main

from .strategies import EXAMPLE_SAVE, fuzz_settings
from .test_fuzz_query import run_cli

HUGE = 10 ** 400


def plain_run(capsys, argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` outside Hypothesis: exit status 2 with the reason on stderr, nothing on stdout, no traceback."""
    capsys.readouterr()
    status = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Error: " not in err
    if status == 2:
        assert out == ""
    return status, out, err


def save_with_move_x(folder: Path, x) -> Path:
    """The example save with its first Move's x replaced (record[4] moves a-blip-1 to (20, 9))."""
    doc = json.loads(EXAMPLE_SAVE.read_text(encoding="utf-8"))
    assert doc["record"][4]["action"]["kind"] == "move"
    doc["record"][4]["action"]["args"]["x"] = x
    path = folder / "huge.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("argv", [["replay", "{save}"], ["report", "{save}"],
                                  ["query", "{save}", "do", "end-turn", "--json"]])
def test_a_four_hundred_digit_number_in_a_saved_action_is_named(tmp_path, capsys, argv):
    save = save_with_move_x(tmp_path, HUGE)
    status, out, err = plain_run(capsys, [a.replace("{save}", str(save)) for a in argv])
    assert status == 2 and "record[4]" in err and ".x: expected a number" in err


@pytest.mark.parametrize("args", ['{"turn": 1e999}', '{"turn": NaN}', '{"x": -Infinity, "y": 3}',
                                  '{"x": 1e999, "y": 3}', '{"x": %d, "y": 3}' % HUGE,
                                  '{"x": ' + "[" * 100000 + "]" * 100000 + "}"])
def test_numbers_no_action_takes_are_refused_in_args(tmp_path, capsys, args):
    status, out, err = plain_run(capsys, ["query", str(EXAMPLE_SAVE), "do", "move", "a-tac", "--args", args, "--json"])
    assert status == 2 and err.startswith("seven-seconds: --args")


wild_numbers = st.one_of(
    st.sampled_from(["1e999", "-1e999", "NaN", "Infinity", "-Infinity", str(HUGE), "-" + str(HUGE), "1e308",
                     "0", "-0.0", "12", "36.5", "true", "null", '"x"']),
    st.integers().map(str), st.floats(allow_nan=False, allow_infinity=False).map(repr))


@st.composite
def wild_json(draw, depth: int = 0) -> str:
    if depth > 2 or draw(st.integers(0, 2)) == 0:
        return draw(wild_numbers)
    if draw(st.booleans()):
        return "[" + ", ".join(draw(st.lists(wild_json(depth + 1), max_size=3))) + "]"
    keys = draw(st.lists(st.sampled_from(["x", "y", "turn", "facing", "dice", "square", "target", "via"]),
                         max_size=3, unique=True))
    return "{" + ", ".join(f'"{k}": {draw(wild_json(depth + 1))}' for k in keys) + "}"


@fuzz_settings(60)
@given(kind=st.sampled_from(["move", "jump", "face", "end-turn", "choose-edge", "target", "scramble"]),
       args=wild_json(), actor=st.sampled_from(["a-tac", "b-blip-1", "A", ""]))
def test_wild_args_on_a_save(tmp_path_factory, capsys, kind, args, actor):
    folder = tmp_path_factory.mktemp("wild")
    argv = ["query", str(EXAMPLE_SAVE), "do", kind, *([actor] if actor else []), "--args", args, "--json"]
    run_cli(capsys, folder, argv)
