"""``seven-seconds query SCENARIO do ...`` (spec: the ``do`` section): JSON keys, dice order, state round trips, and
the exit status for bad input. Scenario files are written to a temporary folder; expected results are worked out by
hand (Council of Zane Veteran: every stat 3)."""

import json

import pytest

from referee.cli.main import main
from referee.game.battle.state import state_from_scenario, state_to_scenario_data
from referee.rules.scenario import load_scenario


def trooper(ident, side, x, y, type="tactical", **kw):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type,
            "x": x, "y": y, **kw}


def member(ident, side, type="tactical", **kw):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type, **kw}


def table(units=(), blips=(), terrain=(), objectives=(), **top):
    return {"name": "do test", "table": {"width": 36, "height": 36}, "terrain": list(terrain), "units": list(units),
            "blips": list(blips), "objectives": list(objectives), **top}


@pytest.fixture
def scenario(tmp_path):
    def write(data, name="table.json"):
        path = tmp_path / name
        if name.endswith(".json"):
            path.write_text(json.dumps(data))
        else:
            import tomli_w

            path.write_text(tomli_w.dumps(data))
        return path
    return write


def run(capsys, path, *args):
    """Run ``query PATH do ARGS --json``; returns (exit status, parsed stdout or None, stderr)."""
    code = main(["query", str(path), "do", *map(str, args), "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def unit_of(state, ident):
    return next(u for u in state["units"] if u["id"] == ident)


def base_table():
    return table(units=[trooper("t", "A", 10, 2, facing=90), trooper("e", "B", 10, 7, target_counters=2),
                        trooper("far", "B", 30, 30)])


def test_a_legal_action_answers_every_key(scenario, capsys):
    path = scenario(base_table())
    code, out, err = run(capsys, path, "move", "t", 10, 4)
    assert code == 0 and err == ""
    assert {"legal", "events", "dice_used", "state", "explain"} <= set(out)
    assert out["legal"] is True and "reason" not in out
    assert out["dice_used"] == 0
    assert isinstance(out["events"], list) and out["events"]
    assert isinstance(out["explain"], list) and out["explain"]
    # Passive sensors: e is 3 - 1 = 2" away, so t and e gain one counter each.
    assert unit_of(out["state"], "t")["target_counters"] == 1
    assert unit_of(out["state"], "e")["target_counters"] == 3
    assert unit_of(out["state"], "t")["y"] == 4


def test_the_state_feeds_back_in_as_a_scenario(scenario, capsys):
    path = scenario(base_table())
    _, first, _ = run(capsys, path, "move", "t", 10, 4)
    again = scenario(first["state"], "again.json")
    assert load_scenario(again)
    code, second, _ = run(capsys, again, "rifle", "t", "e", "--dice", "3,6,4")
    # e now has 3 counters at range 2" (band 1): 3 dice, 3, 6, 4: nothing. t gains 1 for firing.
    assert code == 0 and second["legal"] and second["dice_used"] == 3
    assert unit_of(second["state"], "t")["target_counters"] == 2
    assert unit_of(second["state"], "e")["target_counters"] == 3


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_out_writes_a_loadable_scenario(scenario, capsys, tmp_path, suffix):
    path = scenario(base_table(), "table" + suffix)
    target = tmp_path / ("after" + suffix)
    # Smoke at (10, 5.5): e (at 10, 7) is 1.5 - 0.5 = 1.0" from its centre and is grazed: Red 4 stuns, normal 4
    # damages. t is 3.5 - 0.5 = 3.0" away, outside the 2.5" template.
    code, out, _ = run(capsys, path, "flamer", "t", 10, 5.5, "--dice", "4,4", "--out", target)
    assert code == 0 and out["legal"] and out["dice_used"] == 2
    loaded = load_scenario(target)
    again = state_to_scenario_data(state_from_scenario(loaded))
    assert again == out["state"]
    e = unit_of(out["state"], "e")
    assert e["stunned"] and e["damaged"]
    assert [t["type"] for t in out["state"]["terrain"]] == ["smoke"]


def test_the_flamer_needs_every_graze_die(scenario, capsys):
    path = scenario(base_table())
    # Smoke at (10, 4.5): e and t are both 2.0" from its centre (edge); ties go by id, e first, then t.
    code, out, err = run(capsys, path, "flamer", "t", 10, 4.5, "--dice", "4,4")
    assert code == 2 and out is None
    assert "too few dice" in err and "Red Die for t's graze" in err


def test_too_few_dice_names_the_missing_roll(scenario, capsys):
    path = scenario(base_table())
    code, out, err = run(capsys, path, "rifle", "t", "e", "--dice", "5")
    assert code == 2 and out is None
    assert "die 2 of 2" in err and "missing" in err


def test_a_missing_bearing_is_named(scenario, capsys):
    data = table(units=[trooper("f", "A", 2, 10, facing=0), trooper("t", "B", 20, 10, target_counters=2)])
    path = scenario(data)
    code, out, err = run(capsys, path, "missile", "f", "t", "--dice", "6,6,2,1")
    assert code == 2 and "bearing" in err


def test_extra_dice_are_refused_with_the_count_the_action_rolled(scenario, capsys, tmp_path):
    path = scenario(base_table())
    out_path = tmp_path / "after.json"
    code, out, err = run(capsys, path, "rifle", "t", "e", "--dice", "1,5,3", "--out", out_path)
    assert code == 2 and out is None
    assert "too many dice: 3 given, but the action rolled 2" in err
    assert not out_path.exists()                  # nothing applied from dice the players did not mean


def test_an_extra_bearing_is_refused(scenario, capsys):
    path = scenario(base_table())
    code, out, err = run(capsys, path, "rifle", "t", "e", "--dice", "1,5", "--bearing", 90)
    assert code == 2 and "too many bearings: 1 given, but the action measured 0" in err


def test_missile_with_a_bearing(scenario, capsys):
    # CM 6 fails; hit 6 > 2; Red 2 + normal 1 = 3" at 90°: MPI (20, 13). t is 2.5" from it: 3 blast dice.
    data = table(units=[trooper("f", "A", 2, 10, facing=0), trooper("t", "B", 20, 10, target_counters=2)])
    path = scenario(data)
    code, out, _ = run(capsys, path, "missile", "f", "t", "--dice", "6,6,2,1,1,1,4,1,1,1", "--bearing", 90)
    assert code == 0 and out["legal"] and out["dice_used"] == 10
    t = unit_of(out["state"], "t")
    assert t["damaged"] and not t.get("stunned", False)
    crater = out["state"]["terrain"][0]
    assert crater["type"] == "crater"
    assert crater["circle"]["x"] == pytest.approx(20) and crater["circle"]["y"] == pytest.approx(13)
    assert crater["circle"]["r"] == 1.5
    assert unit_of(out["state"], "f")["target_counters"] == 1


def test_kamikaze_through_the_cli(scenario, capsys):
    data = table(units=[trooper("k", "A", 10, 10, type="kamikaze-drone"), trooper("t", "B", 15, 10, target_counters=3)])
    path = scenario(data)
    # Passive sensors: t 3 + 1 = 4. Contact 3 < 4: t destroyed, then the blast finds nobody.
    code, out, _ = run(capsys, path, "kamikaze", "k", 14, 10, "--target", "t", "--dice", "3")
    assert code == 0 and out["legal"] and out["dice_used"] == 1
    assert out["state"]["units"] == []
    assert [x["type"] for x in out["state"]["terrain"]] == ["crater"]


def test_an_illegal_action_is_answered_and_changes_nothing(scenario, capsys):
    data = table(units=[trooper("t", "A", 10, 2, facing=270), trooper("e", "B", 10, 7, target_counters=2)])
    path = scenario(data)
    code, out, err = run(capsys, path, "rifle", "t", "e", "--dice", "1,1")
    assert code == 3 and err == ""           # refused: its own exit status, so that a script stops (docs/query.md)
    assert out["legal"] is False and "arc" in out["reason"]
    assert out["dice_used"] == 0 and out["events"] == []
    assert out["state"] == state_to_scenario_data(state_from_scenario(load_scenario(path)))


def test_an_assignment_over_the_pool_is_illegal(scenario, capsys):
    path = scenario(base_table())
    code, out, _ = run(capsys, path, "target", "t", "--assign", "e=8", "--dice", "3,4")
    assert code == 3 and out["legal"] is False and "pool is 7" in out["reason"]
    assert unit_of(out["state"], "e")["target_counters"] == 2


def test_target_places_counters_and_adds_one_per_die(scenario, capsys):
    path = scenario(base_table())
    # e is 4" away in the open: price 1. Pool 3 + 4 = 7; 3 + 4 counters, t gains 2.
    code, out, _ = run(capsys, path, "target", "t", "--assign", "e=3", "--assign", "e=4", "--dice", "3,4")
    assert code == 0 and out["legal"] and out["dice_used"] == 2
    assert unit_of(out["state"], "e")["target_counters"] == 9
    assert unit_of(out["state"], "t")["target_counters"] == 2


def test_a_table_left_with_more_counters_than_a_file_holds_is_refused_and_nothing_is_written(scenario, capsys,
                                                                                             tmp_path):
    """The rules set no cap on Target counters (p.19); a table file holds at most 99 on a piece. A Target that would
    leave more is bad input: the state it would print could not be fed back in, so nothing is printed or written."""
    path = scenario(table(units=[trooper("t", "A", 10, 2, facing=90, target_counters=99),
                                 trooper("e", "B", 10, 7, target_counters=97)]))
    out_path = tmp_path / "after.json"
    code, out, err = run(capsys, path, "target", "t", "--assign", "e=3", "--dice", "1,2", "--out", out_path)
    assert code == 2 and out is None and not out_path.exists()
    assert "t would hold 101 Target counters, more than a table file holds (99)" in err
    # One counter fewer on the Targeter fits: answered, and the table feeds back in.
    path = scenario(table(units=[trooper("t", "A", 10, 2, facing=90, target_counters=97),
                                 trooper("e", "B", 10, 7, target_counters=96)]), "fits.json")
    code, out, err = run(capsys, path, "target", "t", "--assign", "e=3", "--dice", "1,2", "--out", out_path)
    assert code == 0 and unit_of(out["state"], "t")["target_counters"] == 99
    assert unit_of(out["state"], "e")["target_counters"] == 99
    assert main(["query", str(out_path), "range", "t", "e"]) == 0


def test_a_damaged_targeter_rolls_its_check_first(scenario, capsys):
    data = table(units=[trooper("t", "A", 10, 2, facing=90, damaged=True), trooper("e", "B", 10, 7)])
    path = scenario(data)
    # 5: the suit fails; the action is spent with no counters (A25). One die used.
    code, out, _ = run(capsys, path, "target", "t", "--assign", "e=1", "--dice", "5")
    assert code == 0 and out["legal"] is True and out["dice_used"] == 1
    assert unit_of(out["state"], "t").get("target_counters", 0) == 0
    assert unit_of(out["state"], "e").get("target_counters", 0) == 0
    # 3: the suit responds, but no sensor die follows.
    code, out, err = run(capsys, path, "target", "t", "--assign", "e=1", "--dice", "3")
    assert code == 2 and "sensor die 1" in err
    # 3, then sensor dice 2 and 2: pool 4, 1 counter on e, t gains 2.
    code, out, _ = run(capsys, path, "target", "t", "--assign", "e=1", "--dice", "3,2,2")
    assert code == 0 and out["dice_used"] == 3
    assert unit_of(out["state"], "t")["target_counters"] == 2 and unit_of(out["state"], "e")["target_counters"] == 1


def test_target_without_dice_is_a_missing_roll(scenario, capsys):
    code, out, err = run(capsys, scenario(base_table()), "target", "t", "--assign", "e=1")
    assert code == 2 and "sensor die 1" in err


def test_a_blip_without_contents_cannot_be_revealed(scenario, capsys):
    data = table(units=[trooper("t", "A", 10, 2, facing=90)], blips=[{"id": "bl", "side": "B", "x": 10, "y": 7}])
    path = scenario(data)
    code, out, err = run(capsys, path, "target", "t", "--assign", "bl=1", "--dice", "6")
    assert code == 2 and out is None and "bl" in err and "contents" in err
    code, out, err = run(capsys, path, "reveal", "bl")
    assert code == 2 and out is None and "contents" in err
    # A move that ends more than 6" from every enemy does not need the contents (t is 10 - 1 = 9" away).
    code, out, _ = run(capsys, path, "move", "bl", 10, 12)
    assert code == 0 and out["legal"]


def test_a_revealed_blip_becomes_units_in_the_state(scenario, capsys):
    data = table(units=[trooper("t", "A", 10, 2, facing=90)],
                 blips=[{"id": "bl", "side": "B", "x": 10, "y": 20, "activation": False,
                         "contents": [member("b1", "B"), member("b2", "B", type="basic-drone")]}])
    path = scenario(data)
    code, out, _ = run(capsys, path, "reveal", "bl")
    assert code == 0 and out["legal"]
    st = out["state"]
    assert st["blips"] == []
    assert {u["id"] for u in st["units"]} == {"t", "b1", "b2"}
    assert unit_of(st, "b1")["activation"] is False and unit_of(st, "b2")["activation"] is False
    assert (unit_of(st, "b1")["x"], unit_of(st, "b1")["y"]) == (10, 20)


def test_scramble_state_round_trips_with_the_secret_contents(scenario, capsys, tmp_path):
    path = scenario(table(units=[trooper("t", "A", 10, 2, facing=90), trooper("far", "B", 30, 30)]))
    target = tmp_path / "scrambled.toml"
    code, out, _ = run(capsys, path, "scramble", "t", "--out", target)
    assert code == 0 and out["legal"]
    blips = out["state"]["blips"]
    assert len(blips) == 3 and all(b["activation"] is False for b in blips)
    assert sorted(len(b["contents"]) for b in blips) == [0, 0, 1]
    loaded = load_scenario(target)
    assert len(loaded.blips) == 3
    # Revealing the scrambled blip brings the trooper back.
    own = next(b for b in blips if b["contents"])
    code, out, _ = run(capsys, target, "reveal", own["id"])
    assert code == 0 and [u["id"] for u in out["state"]["units"] if u["side"] == "A"] == ["t"]


@pytest.mark.parametrize("args", [
    ("move", "nobody", 5, 5),
    ("rifle", "t", "nobody"),
    ("target", "t", "--assign", "nobody=1", "--dice", "6"),
])
def test_an_unknown_unit_id_is_bad_input(scenario, capsys, args):
    code, out, err = run(capsys, scenario(base_table()), *args)
    assert code == 2 and out is None and "nobody" in err


def test_bad_dice_are_bad_input(scenario, capsys):
    code, out, err = run(capsys, scenario(base_table()), "rifle", "t", "e", "--dice", "1,7")
    assert code == 2 and out is None and "1 to 6" in err


def test_the_human_answer(scenario, capsys):
    code = main(["query", str(scenario(base_table())), "do", "rifle", "t", "e", "--dice", "1,6"])
    out = capsys.readouterr().out
    assert code == 0
    assert "e is destroyed" in out and out.rstrip().endswith("= legal, 2 dice used")


def test_the_jammer_field_is_heavy_cover_for_query_cover(scenario, capsys, tmp_path):
    data = table(units=[trooper("h", "A", 10, 10, type="haywire-drone"), trooper("t", "A", 12, 10),
                        trooper("e", "B", 12, 17, facing=270)])
    path = scenario(data)
    after = tmp_path / "jammed.json"
    code, out, _ = run(capsys, path, "jammer", "h", "--out", after)
    assert code == 0 and out["legal"] and unit_of(out["state"], "h")["jammer_on"] is True
    assert unit_of(out["state"], "h")["target_counters"] == 1
    assert main(["query", str(path), "cover", "e", "t", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["target_cover"] == "none"
    assert main(["query", str(after), "cover", "e", "t", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["target_cover"] == "heavy"


def test_command_repair_and_jump_through_the_cli(scenario, capsys):
    data = table(units=[trooper("eng", "A", 10, 10, type="engineer", damaged=True),
                        trooper("d", "A", 14, 10, type="basic-drone", activation=False),
                        trooper("s", "A", 20, 10, type="scout", facing=0, target_counters=3),
                        trooper("far", "B", 30, 30)])
    path = scenario(data)
    code, out, _ = run(capsys, path, "command", "eng", "d", "--dice", "2")
    assert code == 0 and out["dice_used"] == 1 and unit_of(out["state"], "d")["activation"] is True
    code, out, _ = run(capsys, path, "repair", "eng", "eng", "--dice", "5")
    assert code == 0 and out["legal"] and out["dice_used"] == 1
    assert unit_of(out["state"], "eng")["damaged"] is True
    code, out, _ = run(capsys, path, "repair", "eng", "eng", "--dice", "1")
    assert "damaged" not in unit_of(out["state"], "eng")
    # 6" jump: min(Stl 4, 6) = 4, capped by the 3 held, then +1.
    code, out, _ = run(capsys, path, "jump", "s", 26, 10)
    assert code == 0 and unit_of(out["state"], "s")["target_counters"] == 1
    code, out, _ = run(capsys, path, "jump", "eng", 12, 14, "--dice", "1")
    assert code == 3 and out["legal"] is False and "Scouts and drones" in out["reason"]


def test_move_with_waypoints(scenario, capsys):
    path = scenario(table(units=[trooper("t", "A", 10, 10, facing=90, target_counters=5), trooper("far", "B", 30, 30)]))
    code, out, _ = run(capsys, path, "move", "t", 12, 10, "--via", 10, 11.5, "--via", 12, 11.5)
    t = unit_of(out["state"], "t")
    assert code == 0 and t["target_counters"] == 3 and t["facing"] == pytest.approx(270.0)


def test_a_move_off_the_table_works_out_no_counters_removed(scenario, capsys):
    """A refused Move or Jump changes nothing, and its working says of no counter that it is removed or added."""
    path = scenario(table(units=[trooper("sc", "A", 3, 3, type="scout", facing=0, target_counters=2),
                                 trooper("e", "B", 30, 30)]))
    code, out, _ = run(capsys, path, "move", "sc", 3, -0.2)
    assert code == 3 and out["legal"] is False and "off the table" in out["reason"]
    assert not any("removed" in line for line in out["explain"]), out["explain"]
    code, out, _ = run(capsys, path, "jump", "sc", 3, -0.2)
    assert code == 3 and out["legal"] is False
    assert not any("removed" in line or "+1 Target counter" in line for line in out["explain"]), out["explain"]
    assert main(["query", str(path), "move", "sc", "3", "-0.2"]) == 0
    said = capsys.readouterr().out
    assert "removes min(" not in said and "removes: 0" in said
