"""``seven-seconds faction ...`` through ``main([...])``: exit statuses, messages, files written (and not written)."""

import shutil

import pytest

from referee import paths
from referee.cli.main import main
from referee.rules.factions import faction_files, get_faction, load_faction

BUNDLED = paths.DATA_DIR / "factions"
IRON = ["faction", "new", "--id", "iron-league", "--name", "Iron League", "--lore", "Steel and stubbornness.",
        "--primary", "#445566", "--emblem", "cross",
        "--reserve", "2,2,3,2,2,1", "--veteran", "3,3,4,3,3,2", "--spec-ops", "4,4,5,4,4,3"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh user data folder for this test (custom factions go to home / 'factions')."""
    folder = tmp_path / "home"
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(folder))
    from referee.rules.factions import forget_factions

    forget_factions()
    return folder


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


# ---------------------------------------------------------------------------------------------------------------
# faction new, without questions


def test_new_from_options_is_saved_listed_and_loads(home, capsys):
    status, out, err = run(capsys, *IRON)
    assert status == 0, err
    path = home / "factions" / "iron-league.toml"
    assert f"Saved Iron League to {path}" in out
    assert faction_files()["iron-league"] == path
    faction = get_faction("iron-league")
    assert faction.name == "Iron League" and faction.emblem == "cross" and faction.colours.primary == "#445566"
    assert faction.lore == "Steel and stubbornness."
    assert faction.created.veteran.short() == "3/3/4/3/3/2"
    assert load_faction(path) == faction
    status, out, _ = run(capsys, "faction", "list")
    assert status == 0 and "iron-league" in out and "Iron League" in out


def test_new_to_a_chosen_file(home, tmp_path, capsys):
    out_file = tmp_path / "elsewhere" / "iron.toml"
    status, out, _ = run(capsys, *IRON, "--out", str(out_file))
    assert status == 0
    assert load_faction(out_file).id == "iron-league"
    assert not (home / "factions" / "iron-league.toml").exists()


def test_new_lists_every_problem_and_writes_nothing(home, capsys):
    status, out, err = run(capsys, "faction", "new", "--id", "Iron League", "--name", "Iron", "--primary", "blue",
                           "--emblem", "moon", "--reserve", "2,2,3,2,2,2", "--veteran", "3,3,4,3,3,1",
                           "--spec-ops", "4,4,5,4,4,6")
    assert status == 2
    assert err.startswith("seven-seconds: faction new: ")
    for expected in (
        "--id: expected lower-case words joined by '-'",
        "--primary: expected a colour as # and six hex digits, like #3c6e9f (got 'blue')",
        "--emblem: expected one of chevron, star, circle, diamond, cross, bolt (got 'moon')",
        "created.reserve: expected exactly 6 points added to all 1s, this line adds 7",
        "created.veteran.robotics: Veteran Rob 1 is below Reserve 2",
        "created.spec-ops.robotics: expected 1 to 5 (got 6) [p.30]",
    ):
        assert expected in err
    assert not (home / "factions").exists()


def test_new_with_a_malformed_line(home, capsys):
    status, _, err = run(capsys, "faction", "new", "--id", "x", "--name", "X", "--reserve", "2,2,2",
                         "--veteran", "3,3,3,3,3,3", "--spec-ops", "4,4,4,4,4,four")
    assert status == 2
    assert "--reserve: expected six whole numbers in the order Sen,Stl,Arm,CM,Nuc,Rob" in err
    assert "--spec-ops: expected six whole numbers" in err


def test_new_never_replaces_a_different_faction_without_force(home, capsys):
    assert run(capsys, *IRON)[0] == 0
    path = home / "factions" / "iron-league.toml"
    before = path.read_bytes()
    other = [a if a != "Iron League" else "Iron League Two" for a in IRON]
    status, _, err = run(capsys, *other)
    assert status == 2 and "already exists and holds faction 'iron-league'" in err
    assert path.read_bytes() == before
    assert run(capsys, *IRON)[0] == 0                      # the same faction again is fine
    assert run(capsys, *other, "--force")[0] == 0
    assert load_faction(path).name == "Iron League Two"


def test_new_refuses_a_bundled_id(home, capsys):
    argv = [a if a != "iron-league" else "new-tokyo" for a in IRON]
    status, _, err = run(capsys, *argv)
    assert status == 2 and "'new-tokyo' is a bundled faction" in err
    assert not (home / "factions" / "new-tokyo.toml").exists()


# ---------------------------------------------------------------------------------------------------------------
# faction new, guided


def scripted(monkeypatch, answers):
    prompts = []
    queue = list(answers)

    def fake_input(prompt=""):
        prompts.append(prompt)
        if not queue:
            raise EOFError
        return queue.pop(0)

    monkeypatch.setattr("builtins.input", fake_input)
    return prompts, queue


def test_guided_new_reasks_bad_answers_and_saves(home, monkeypatch, capsys):
    answers = [
        "Bad Id", "new-tokyo", "iron-league",      # id: bad pattern, bundled, then fine
        "",                                       # name: default from the id
        "Steel and stubbornness.",
        "zzz", "#445566",                         # primary: bad, then fine
        "",                                       # secondary: default
        "4",                                      # emblem by number: diamond
        # Reserve: Sen 7 (above 5), x (not a number), 3; Stl 3; Arm 2; CM, Nuc, Rob by default (1, 1, 2)
        "7", "x", "3", "3", "2", "", "", "",
        # Veteran from 3/3/2/1/1/2: Sen 2 (below Reserve), then default; Nuc 2 (too few), then defaults
        "2", "", "", "", "", "2", "", "",
        # Spec Ops: all defaults
        "", "", "", "", "", "",
        "",                                       # save? yes
    ]
    prompts, left = scripted(monkeypatch, answers)
    status, out, err = run(capsys, "faction", "new")
    assert status == 0, err
    assert left == []
    faction = load_faction(home / "factions" / "iron-league.toml")
    assert faction.name == "Iron League" and faction.emblem == "diamond" and faction.colours.primary == "#445566"
    assert faction.created.reserve.short() == "3/3/2/1/1/2"
    assert faction.created.veteran.short() == "3/3/2/1/4/5"
    assert faction.created.spec_ops.short() == "3/3/3/5/5/5"
    # points left shown in the prompts, problems shown live
    assert any("6 points left" in p for p in prompts)
    assert "expected lower-case words joined by '-'" in out
    assert "'new-tokyo' is a bundled faction; choose another id" in out
    assert "expected a colour as # and six hex digits" in out
    assert "no stat may be above 5 [p.30]" in out
    assert "expected a whole number from 1 to 5 (got 'x')" in out
    assert "Veteran Sen may not be below 3: the line before has 3 [p.30]" in out
    assert "the stats after this one can take only 3 more points; add at least 3 here" in out
    assert "Saved Iron League to" in out


def test_guided_new_asks_only_what_is_missing_and_can_be_declined(home, monkeypatch, capsys):
    prompts, _ = scripted(monkeypatch, ["Iron", "n"])
    status, out, _ = run(capsys, "faction", "new", "--id", "iron-league", "--lore", "", "--primary", "#445566",
                         "--secondary", "#ffffff", "--emblem", "star", "--reserve", "2,2,3,2,2,1",
                         "--veteran", "3,3,4,3,3,2", "--spec-ops", "4,4,5,4,4,3")
    assert status == 1 and "Not saved." in out
    assert len(prompts) == 2 and prompts[0].startswith("Name") and prompts[1].startswith("Save to ")
    assert "Reserve line 2/2/3/2/2/1 (from --reserve)" in out
    assert not (home / "factions").exists()


def test_guided_new_when_input_ends(home, monkeypatch, capsys):
    scripted(monkeypatch, ["iron-league"])
    status, _, err = run(capsys, "faction", "new")
    assert status == 2
    assert "input ended before the faction was complete; nothing was saved" in err
    assert not (home / "factions").exists()


# ---------------------------------------------------------------------------------------------------------------
# faction validate


def test_validate_the_samples(home, capsys):
    status, out, err = run(capsys, "faction", "validate", str(BUNDLED))
    assert status == 0 and err == ""
    assert out.count("valid faction") == 3 and "3 valid, 0 with problems" in out
    assert "Reserve 12, Veteran 18, Spec Ops 24" in out


def test_validate_reports_every_problem_of_every_file(home, tmp_path, capsys):
    one = tmp_path / "one.toml"
    one.write_text((BUNDLED / "new-tokyo.toml").read_text().replace("sensors = 2,", "sensors = 0,", 1)
                   .replace('emblem = "star"', 'emblem = "moon"'), encoding="utf-8")
    two = tmp_path / "two.toml"
    two.write_text((BUNDLED / "council-of-zane.toml").read_text().replace("#2f8f4e", "green")
                   + "\n[[upgrades]]\nrating = \"veteran\"\nstat = \"armour\"\ncost = 3\n", encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text("id = [", encoding="utf-8")
    status, out, err = run(capsys, "faction", "validate", str(BUNDLED / "new-tokyo.toml"), str(one), str(two),
                           str(broken), str(tmp_path / "missing.toml"))
    assert status == 2
    assert "1 valid, 4 with problems" in out
    assert f"{one}: 4 problems" in err
    assert "created.reserve.sensors: expected 1 to 5 (got 0) [p.30]" in err
    assert "emblem: expected one of chevron" in err
    assert "created.reserve: expected exactly 6 points added to all 1s, this line adds 4" in err
    assert "created.veteran: expected exactly 6 points added to Reserve, this line adds 8" in err
    assert f"{two}: 2 problems" in err
    assert "colours.primary: expected # and six hex digits, like #3c6e9f (got 'green')" in err
    assert "upgrades[0].cost: expected 4 (or 2 when halved) for a Veteran stat (got 3) [p.31]" in err
    assert f"{broken}: 1 problem" in err and "not valid TOML" in err
    assert f"{tmp_path / 'missing.toml'}: 1 problem" in err and "file not found" in err


# ---------------------------------------------------------------------------------------------------------------
# faction show / list


def test_show_a_bundled_faction(home, capsys):
    status, out, _ = run(capsys, "faction", "show", "new-tokyo")
    assert status == 0
    assert out.startswith("New Tokyo  (id new-tokyo, emblem star")
    assert "Reserve      2     3     1     2     1     3     12" in out
    assert "Spec Ops     5     5     3     5     1     5     24" in out
    assert "No campaign upgrades" in out
    for unit in ("Commander", "Tactical", "Assault", "Scout", "Engineer", "Drones (Rob)"):
        assert unit in out
    # Scout +1 Sen +1 Stl at Spec Ops goes to 6 (ruling A5 option A); Commander carries no missile
    assert "Scout            3   4   1   2   1     4   5   2   4   1     6   6   3   5   1" in out
    assert "Commander        2   3   1   2   -" in out
    assert "Drones (Rob)     Rob 3                 Rob 4                 Rob 5" in out


def test_show_by_path_and_unknown(home, capsys):
    assert run(capsys, "faction", "show", str(BUNDLED / "council-of-zane.toml"))[0] == 0
    status, _, err = run(capsys, "faction", "show", "atlantis")
    assert status == 2 and "unknown faction 'atlantis'" in err
    status, _, err = run(capsys, "faction", "show", "nowhere/atlantis.toml")
    assert status == 2 and "file not found" in err


def test_show_a_bad_file_is_a_clean_error(home, tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text((BUNDLED / "new-tokyo.toml").read_text().replace("armour = 1", "armour = 9"), encoding="utf-8")
    status, out, err = run(capsys, "faction", "show", str(bad))
    assert status == 2 and out == ""
    assert err.startswith(f"seven-seconds: {bad}: ") and "created.reserve.armour: expected 1 to 5 (got 9)" in err


def test_list_shows_bundled_custom_and_invalid(home, capsys):
    assert run(capsys, *IRON)[0] == 0
    (home / "factions" / "broken.toml").write_text("id = 'broken'\n", encoding="utf-8")
    status, out, _ = run(capsys, "faction", "list")
    assert status == 2
    bundled, custom = out.split("Custom factions")
    assert "new-tokyo" in bundled and "People's Utopian Collective" in bundled and "council-of-zane" in bundled
    assert "iron-league" in custom and "Iron League" in custom
    assert "broken" in custom and "INVALID" in custom and "faction validate" in custom


# ---------------------------------------------------------------------------------------------------------------
# faction upgrade


def copy_of_new_tokyo(tmp_path):
    path = tmp_path / "my-tokyo.toml"
    shutil.copy(BUNDLED / "new-tokyo.toml", path)
    return path


def test_upgrade_halved_saved_and_explained(home, tmp_path, capsys):
    path = copy_of_new_tokyo(tmp_path)
    status, out, err = run(capsys, "faction", "upgrade", str(path), "--rating", "veteran", "--stat", "Arm",
                           "--opponent", "peoples-utopian-collective", "--tech", "5", "--battle", "1")
    assert status == 0, err
    assert "raising a Veteran stat costs 4 tech points [p.31]" in out
    assert ("People's Utopian Collective Veteran Arm 4 is higher than New Tokyo Veteran Arm 2: cost halved to 2 "
            "[p.31, A45]") in out
    assert "5 - 2 = 3 tech points left, banked for later purchases [A45]" in out
    assert "= New Tokyo Veteran Arm 2 -> 3 for 2 tech points, 3 left (banked)" in out
    faction = load_faction(path)
    assert faction.stats("veteran").armour == 3 and faction.created.veteran.armour == 2
    assert [(u.rating, u.stat, u.cost, u.battle) for u in faction.upgrades] == [("veteran", "armour", 2, 1)]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []     # no temporary file left
    status, out, _ = run(capsys, "faction", "show", str(path))
    assert "1. Veteran Arm +1 for 2 tech points after battle 1" in out
    assert "Veteran      3     4     3*    4     1     4     19" in out


def test_upgrade_refused_leaves_the_file_unchanged(home, tmp_path, capsys):
    path = copy_of_new_tokyo(tmp_path)
    before = path.read_bytes()
    status, out, err = run(capsys, "faction", "upgrade", str(path), "--rating", "spec-ops", "--stat", "sensors")
    assert status == 2
    assert "refused, nothing changed: New Tokyo Spec Ops Sen is already 5; the maximum is 5 [p.31, A45]" in err
    assert path.read_bytes() == before
    status, _, err = run(capsys, "faction", "upgrade", str(path), "--rating", "veteran", "--stat", "armour",
                         "--tech", "3")
    assert status == 2 and "it costs 4 tech points and only 3 tech points available" in err
    assert path.read_bytes() == before


def test_upgrade_caps_in_a_row(home, tmp_path, capsys):
    path = copy_of_new_tokyo(tmp_path)
    argv = ["faction", "upgrade", str(path), "--rating", "reserve", "--stat", "sen"]
    assert run(capsys, *argv)[0] == 0                       # Reserve Sen 2 -> 3 = Veteran 3
    status, _, err = run(capsys, *argv)
    assert status == 2 and "would be above Veteran Sen 3" in err
    assert load_faction(path).stats("reserve").sensors == 3


def test_upgrade_of_a_bundled_faction_needs_out(home, tmp_path, capsys):
    before = (BUNDLED / "new-tokyo.toml").read_bytes()
    status, _, err = run(capsys, "faction", "upgrade", "new-tokyo", "--rating", "veteran", "--stat", "armour")
    assert status == 2 and "is a bundled faction; its file is not changed. Give --out PATH" in err
    out_file = tmp_path / "campaign-tokyo.toml"
    status, out, _ = run(capsys, "faction", "upgrade", "new-tokyo", "--rating", "veteran", "--stat", "armour",
                         "--out", str(out_file))
    assert status == 0 and f"Saved {out_file}" in out
    assert (BUNDLED / "new-tokyo.toml").read_bytes() == before
    assert load_faction(out_file).upgrades[0].cost == 4


def test_upgrade_dry_run_writes_nothing(home, tmp_path, capsys):
    path = copy_of_new_tokyo(tmp_path)
    before = path.read_bytes()
    status, out, _ = run(capsys, "faction", "upgrade", str(path), "--rating", "spec-ops", "--stat", "nuclear",
                         "--opponent", "council-of-zane", "--dry-run")
    assert status == 0 and "cost halved to 3" in out and "Dry run: nothing written." in out
    assert path.read_bytes() == before


@pytest.mark.parametrize("argv, expected", [
    (["--rating", "elite", "--stat", "arm"], "--rating: expected reserve, veteran or spec-ops (got 'elite')"),
    (["--rating", "veteran", "--stat", "luck"], "--stat: expected one of sensors"),
    (["--rating", "veteran", "--stat", "arm", "--tech", "-1"], "--tech: expected 0 or more tech points"),
    (["--rating", "veteran", "--stat", "arm", "--opponent", "atlantis"], "unknown faction 'atlantis'"),
    (["--stat", "arm"], "the following arguments are required: --rating"),
])
def test_upgrade_bad_arguments(home, tmp_path, capsys, argv, expected):
    path = copy_of_new_tokyo(tmp_path)
    status, _, err = run(capsys, "faction", "upgrade", str(path), *argv)
    assert status == 2 and expected in err


def test_faction_without_a_command(home, capsys):
    status, _, err = run(capsys, "faction")
    assert status == 2 and "expected a faction command: new, validate, show, list, upgrade, sheet" in err
