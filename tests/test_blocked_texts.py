"""Blocked is shown as blocked everywhere, with the same numbers in the window, the text and the JSON: a target
behind more than 3" of Heavy cover is blocked (nothing is eaten: nothing can be bought), and a rifle shot with more
intervening terrain than dice says 0 dice in its working and in its JSON."""

import json

import pytest

from referee.cli.main import main
from referee.rules.battlefield import battlefield_from_scenario
from referee.rules.scenario import load_scenario
from referee.ui.panels import pair_lines, sight_text
from referee.rules.questions import pair_report


def trooper(ident, side, x, y, **kw):
    return {"id": ident, "side": side, "faction": "new-tokyo", "rating": "veteran", "type": "tactical", "x": x,
            "y": y, **kw}


def woods(ident, y0, y1):
    return {"id": ident, "type": "woods", "polygon": [[7, y0], [13, y0], [13, y1], [7, y1]]}


@pytest.fixture
def write(tmp_path):
    def table(terrain, units):
        path = tmp_path / "table.json"
        path.write_text(json.dumps({"name": "blocked", "table": {"width": 36, "height": 36}, "terrain": terrain,
                                    "units": units}))
        return path
    return table


def query(capsys, path, *args, as_json=True):
    code = main(["query", str(path), *args] + (["--json"] if as_json else []))
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out) if as_json else out


def test_a_target_behind_heavy_cover_is_blocked_with_nothing_eaten(write, capsys):
    path = write([woods("woods-1", 5, 10)], [trooper("a", "A", 10, 2, facing=90), trooper("b", "B", 10, 14)])
    out = query(capsys, path, "target", "a", "b")
    assert out["allowed"] is False and "blocked" in out["reason"] and out["eaten"] == 0
    assert not any("eaten" in line for line in out["explain"])
    text = query(capsys, path, "target", "a", "b", as_json=False)
    assert "blocked" in text and "eaten by" not in text and 'eaten: 0' in text
    # the window: red, and says blocked (not "in sight")
    scenario = load_scenario(path)
    bf = battlefield_from_scenario(scenario, path.parent)
    pair = pair_report(bf, bf.pieces["a"], bf.pieces["b"])
    assert pair.sight == "blocked" and sight_text(pair).startswith("blocked: in sight, but more than 3\"")
    assert any("not allowed" in line and "blocked" in line for line in pair_lines(pair))


def test_rifle_working_and_json_agree_on_zero_dice(write, capsys):
    path = write([woods("woods-1", 4, 6.5)], [trooper("a", "A", 10, 2, facing=90),
                                              trooper("b", "B", 10, 8, target_counters=1)])
    out = query(capsys, path, "rifle", "a", "b")
    assert out["allowed"] is False and out["dice"] == 0
    assert any(line.startswith("-2 dice for intervening terrain: 0 dice") for line in out["explain"])
    assert "would roll 0 dice" in out["reason"]
    assert not any("-1 dice" in line for line in out["explain"])
