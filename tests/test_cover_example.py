"""R19: the rulebook's Cover Example (p.~25), from the bundled scenario, through the query command."""

import json

import pytest

from referee.cli.main import main
from referee.paths import SCENARIO_DIR

COVER = str(SCENARIO_DIR / "cover-example.toml")


def query(capsys, *args):
    assert main(["query", COVER, *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("target, allowed, price, placed", [
    ("target-a", False, None, 0),
    ("target-b", True, 2, 6),
    ("target-c", False, None, 0),
    ("target-d", True, 3, 4),
    ("target-e", True, 1, 12),
])
def test_r19_targeting_each_target_with_a_pool_of_12(capsys, target, allowed, price, placed):
    out = query(capsys, "target", "green", target, "--pool", "12")
    assert out["allowed"] is allowed
    assert out["placed"] == placed
    if allowed:
        assert out["price"] == price
    else:
        assert out["reason"]


def test_r19_a_is_behind_the_hill(capsys):
    los = query(capsys, "los", "green", "target-a")
    assert los["visible"] is False and los["hidden_fraction"] == pytest.approx(1.0)
    assert los["blocked_by"] == ["hill-a"]


def test_r19_c_is_blocked_by_more_than_3_inches_of_its_own_wood(capsys):
    cov = query(capsys, "cover", "green", "target-c")
    assert cov["blocked"] is True and cov["target_cover"] == "heavy"
    assert cov["intervening"] == [{"terrain": "woods-c", "cover": "heavy", "length": pytest.approx(3.5)}]


def test_r19_d_at_the_tree_line_and_firing_out(capsys):
    cov = query(capsys, "cover", "green", "target-d")
    assert cov["target_cover"] == "heavy" and cov["intervening"] == [] and cov["blocked"] is False
    back = query(capsys, "cover", "target-d", "green")
    assert back["intervening"] == [] and back["target_cover"] == "none"


def test_r19_b_marsh_is_light_and_a_plain_swamp_is_not(capsys, tmp_path):
    cov = query(capsys, "cover", "green", "target-b")
    assert cov["target_cover"] == "light"
    swamp = tmp_path / "swamp.toml"
    swamp.write_text(open(COVER).read().replace('type = "marsh"', 'type = "swamp"'))
    assert main(["query", str(swamp), "target", "green", "target-b", "--pool", "12", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["price"] == 1 and out["placed"] == 12


def test_r19_a_missile_needs_no_line_of_sight(capsys, tmp_path):
    import tomllib

    data = tomllib.loads(open(COVER).read())
    next(u for u in data["units"] if u["id"] == "target-a")["target_counters"] = 2
    with_counters = tmp_path / "a.json"
    with_counters.write_text(json.dumps(data))
    assert main(["query", str(with_counters), "missile", "green", "target-a", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["allowed"] is True
    assert main(["query", str(with_counters), "rifle", "green", "target-a", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["allowed"] is False
