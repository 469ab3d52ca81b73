"""Factions: the creation rules (p.30, A46), campaign upgrades (p.31, A45) and faction files (R21)."""

import tomllib

import pytest
import tomli_w

from referee import paths
from referee.authoring.faction_io import (check_faction_file, faction_problems, faction_to_toml, save_faction)
from referee.rules.campaign_upgrades import (UpgradeRefused, apply_upgrade, check_upgrade, tech_points_after_battle,
                                             upgrade_cost)
from referee.rules.errors import InputError
from referee.rules.factions import (Upgrade, creation_problems, faction_files, get_faction, load_faction)

SAMPLES = ("new-tokyo", "peoples-utopian-collective", "council-of-zane")
ZANE = {
    "id": "test-zane",
    "name": "Test Zane",
    "created": {
        "reserve": {"sensors": 2, "stealth": 2, "armour": 2, "countermeasures": 2, "nuclear": 2, "robotics": 2},
        "veteran": {"sensors": 3, "stealth": 3, "armour": 3, "countermeasures": 3, "nuclear": 3, "robotics": 3},
        "spec-ops": {"sensors": 4, "stealth": 4, "armour": 4, "countermeasures": 4, "nuclear": 4, "robotics": 4},
    },
}


def sample(name):
    return load_faction(paths.DATA_DIR / "factions" / f"{name}.toml")


def faction_data(**changes):
    """A copy of the valid test faction with top-level keys replaced (None removes a key)."""
    data = {k: (dict(v) if isinstance(v, dict) else v) for k, v in ZANE.items()}
    data["created"] = {r: dict(line) for r, line in ZANE["created"].items()}
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def with_stat(rating, stat, value, **changes):
    data = faction_data(**changes)
    data["created"][rating][stat] = value
    return data


def write(tmp_path, data, name="faction.toml"):
    path = tmp_path / name
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


def problems_of(tmp_path, data):
    path = write(tmp_path, data)
    with pytest.raises(InputError) as err:
        load_faction(path)
    assert err.value.source == str(path)
    return err.value.problems


# ---------------------------------------------------------------------------------------------------------------
# R21: the sample factions


@pytest.mark.parametrize("name", SAMPLES)
def test_r21_sample_factions_are_valid_with_sums_12_18_24(name):
    faction = sample(name)
    assert creation_problems(faction) == []
    assert [faction.created.line(r).total() for r in ("reserve", "veteran", "spec-ops")] == [12, 18, 24]
    for stat in ("sensors", "stealth", "armour", "countermeasures", "nuclear", "robotics"):
        values = [faction.created.line(r).get(stat) for r in ("reserve", "veteran", "spec-ops")]
        assert values == sorted(values) and all(1 <= v <= 5 for v in values)
    _, problems = check_faction_file(paths.DATA_DIR / "factions" / f"{name}.toml")
    assert problems == []


def test_r21_digest_values_new_tokyo():
    nt = sample("new-tokyo")
    assert nt.created.reserve.short() == "2/3/1/2/1/3"
    assert nt.created.veteran.short() == "3/4/2/4/1/4"
    assert nt.created.spec_ops.short() == "5/5/3/5/1/5"


# ---------------------------------------------------------------------------------------------------------------
# Each kind of invalid faction has its own message naming the file and the item


def test_stat_zero(tmp_path):
    problems = problems_of(tmp_path, with_stat("reserve", "sensors", 0))
    assert "created.reserve.sensors: expected 1 to 5 (got 0) [p.30]" in problems


def test_stat_six(tmp_path):
    data = with_stat("spec-ops", "armour", 6)
    data["created"]["spec-ops"]["sensors"] = 3       # keep the line at 6 points added, so only the range is wrong
    data["created"]["spec-ops"]["stealth"] = 3
    problems = problems_of(tmp_path, data)
    assert problems == ["created.spec-ops.armour: expected 1 to 5 (got 6) [p.30]"]


def test_line_adding_five_points(tmp_path):
    problems = problems_of(tmp_path, with_stat("reserve", "robotics", 1))
    assert any(p.startswith("created.reserve: expected exactly 6 points added to all 1s, this line adds 5 "
                            "(sum 11, expected 12)") for p in problems)


def test_line_adding_seven_points(tmp_path):
    problems = problems_of(tmp_path, with_stat("veteran", "robotics", 4))
    assert any(p.startswith("created.veteran: expected exactly 6 points added to Reserve, this line adds 7")
               for p in problems)
    # and Spec Ops then adds only 5 on top of that
    assert any(p.startswith("created.spec-ops: expected exactly 6 points added to Veteran, this line adds 5")
               for p in problems)


def test_veteran_below_reserve(tmp_path):
    data = with_stat("veteran", "armour", 1)
    data["created"]["veteran"]["sensors"] = 5          # still 6 points added, so only the order is wrong
    problems = problems_of(tmp_path, data)
    assert ("created.veteran.armour: Veteran Arm 1 is below Reserve 2; each rating builds on the one before [p.30]"
            in problems)
    assert not any(p.startswith("created.veteran:") for p in problems)


def test_unknown_key(tmp_path):
    problems = problems_of(tmp_path, faction_data(colour="#ff0000"))
    assert problems == ["colour: unknown key (not part of the format)"]


def test_unknown_key_inside_a_line(tmp_path):
    problems = problems_of(tmp_path, with_stat("reserve", "luck", 3))
    assert "created.reserve.luck: unknown key (not part of the format)" in problems


def test_wrong_type(tmp_path):
    problems = problems_of(tmp_path, with_stat("reserve", "sensors", "two"))
    assert len(problems) == 1
    assert problems[0].startswith("created.reserve.sensors: Input should be a valid integer")
    assert "(got 'two')" in problems[0]


def test_wrong_type_is_never_coerced_by_the_checker(tmp_path):
    """A quoted number is a mistake in the file: the faction checker says so (the strict reading)."""
    _, problems = check_faction_file(write(tmp_path, with_stat("reserve", "sensors", "2")))
    assert problems == ["created.reserve.sensors: Input should be a valid integer (got '2')"]


def test_missing_key(tmp_path):
    problems = problems_of(tmp_path, faction_data(name=None))
    assert problems == ["name: required key is missing"]


def test_bad_colour(tmp_path):
    problems = problems_of(tmp_path, faction_data(colours={"primary": "red"}))
    assert len(problems) == 1
    assert problems[0] == "colours.primary: expected # and six hex digits, like #3c6e9f (got 'red')"
    assert "(got 'red')" in problems[0]


def test_bad_id(tmp_path):
    problems = problems_of(tmp_path, faction_data(id="Test Zane"))
    assert problems == ["id: expected lower-case words joined by '-', like 'new-tokyo' (got 'Test Zane')"]


def test_bad_emblem(tmp_path):
    problems = problems_of(tmp_path, faction_data(emblem="moon"))
    assert problems == ["emblem: expected one of chevron, star, circle, diamond, cross, bolt (got 'moon')"]


def test_checker_reports_header_and_rule_problems_together(tmp_path):
    data = with_stat("reserve", "sensors", 0, colours={"primary": "red"}, emblem="moon", extra=1)
    _, problems = check_faction_file(write(tmp_path, data))
    assert any(p.startswith("colours.primary:") for p in problems)
    assert "extra: unknown key (not part of the format)" in problems
    assert "created.reserve.sensors: expected 1 to 5 (got 0) [p.30]" in problems
    assert any(p.startswith("emblem:") for p in problems)


def test_unreadable_files_are_one_problem_each(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text("id = \n", encoding="utf-8")
    assert check_faction_file(bad)[1][0].startswith("not valid TOML")
    assert check_faction_file(tmp_path / "missing.toml")[1] == ["file not found"]


def upgraded(*ups):
    data = faction_data()
    data["upgrades"] = [dict(u) for u in ups]
    return data


def test_upgrade_history_above_five(tmp_path):
    data = upgraded(*[{"rating": "spec-ops", "stat": "nuclear", "cost": 6}] * 2)
    problems = problems_of(tmp_path, data)
    assert problems == ["upgrades[1]: Spec Ops Nuc would be 6, the maximum is 5 [p.31, A45]"]


def test_upgrade_history_above_the_higher_rating(tmp_path):
    problems = problems_of(tmp_path, upgraded({"rating": "veteran", "stat": "armour", "cost": 4},
                                              {"rating": "veteran", "stat": "armour", "cost": 4}))
    assert problems == ["upgrades[1]: Veteran Arm would be 5, above Spec Ops 4 [p.31, A45]"]


def test_upgrade_history_wrong_cost(tmp_path):
    problems = problems_of(tmp_path, upgraded({"rating": "veteran", "stat": "armour", "cost": 3}))
    assert problems == ["upgrades[0].cost: expected 4 (or 2 when halved) for a Veteran stat (got 3) [p.31]"]


def test_upgrade_history_valid_gives_current_stats(tmp_path):
    data = upgraded({"rating": "veteran", "stat": "armour", "cost": 4},
                    {"rating": "reserve", "stat": "armour", "cost": 1, "battle": 2})
    faction = load_faction(write(tmp_path, data))
    assert faction.stats("veteran").armour == 4 and faction.stats("reserve").armour == 3
    assert faction.created.veteran.armour == 3


# ---------------------------------------------------------------------------------------------------------------
# Campaign upgrades (p.31, A45)


@pytest.mark.parametrize("rating, cost", [("reserve", 2), ("veteran", 4), ("spec-ops", 6)])
def test_upgrade_costs(rating, cost):
    price = upgrade_cost(sample("council-of-zane"), rating, "sensors", None)
    assert (price.cost, price.full, price.halved) == (cost, cost, False)
    assert str(price.explain[0]) == f"raising a {'Spec Ops' if rating == 'spec-ops' else rating.title()} stat " \
                                    f"costs {cost} tech points [p.31]"


def test_halved_when_the_opponent_is_higher():
    price = upgrade_cost(sample("new-tokyo"), "veteran", "armour", sample("peoples-utopian-collective"))
    assert price.cost == 2 and price.full == 4 and price.halved
    assert str(price.explain[-1]) == ("People's Utopian Collective Veteran Arm 4 is higher than New Tokyo Veteran "
                                      "Arm 2: cost halved to 2 [p.31, A45]")


def test_not_halved_when_equal_or_lower():
    zane, pu = sample("council-of-zane"), sample("peoples-utopian-collective")
    assert upgrade_cost(zane, "veteran", "sensors", pu).cost == 4          # 3 vs 3: equal, full price
    assert upgrade_cost(pu, "veteran", "sensors", sample("new-tokyo")).cost == 4   # 3 vs 3
    assert upgrade_cost(pu, "veteran", "armour", zane).cost == 4           # PUC 4 vs Zane 3: lower
    assert upgrade_cost(zane, "veteran", "armour", pu).cost == 2           # Zane 3 vs PUC 4: halved


def test_halving_is_checked_before_each_purchase():
    nt, pu = sample("new-tokyo"), sample("peoples-utopian-collective")
    costs = []
    for _ in range(4):
        costs.append(check_upgrade(nt, "spec-ops", "nuclear", pu).cost)
        nt = apply_upgrade(nt, "spec-ops", "nuclear", pu)
    assert costs == [3, 3, 3, 6]          # New Tokyo Nuc 1, 2, 3 < PUC 4, then 4 = 4
    assert nt.stats("spec-ops").nuclear == 5
    assert [u.cost for u in nt.upgrades] == [3, 3, 3, 6]
    assert creation_problems(nt) == []


def test_cap_at_five():
    check = check_upgrade(sample("new-tokyo"), "spec-ops", "sensors", None, 10)
    assert not check.allowed
    assert "already 5; the maximum is 5" in check.reason and check.reason.endswith("[p.31, A45]")
    assert check.remaining is None


def test_reserve_never_above_veteran():
    nt = sample("new-tokyo")            # Reserve Sen 2, Veteran Sen 3
    first = check_upgrade(nt, "reserve", "sensors")
    assert first.allowed and (first.current, first.raised_to) == (2, 3)
    nt = apply_upgrade(nt, "reserve", "sensors")
    second = check_upgrade(nt, "reserve", "sensors")
    assert not second.allowed
    assert "would be above Veteran Sen 3" in second.reason


def test_veteran_never_above_spec_ops():
    nt = apply_upgrade(sample("new-tokyo"), "veteran", "armour")    # Veteran Arm 2 -> 3 = Spec Ops 3
    check = check_upgrade(nt, "veteran", "armour")
    assert not check.allowed and "above Spec Ops Arm 3" in check.reason
    # raising Spec Ops first makes room
    nt = apply_upgrade(nt, "spec-ops", "armour")
    assert check_upgrade(nt, "veteran", "armour").allowed


def test_tech_points_and_banking():
    nt, pu = sample("new-tokyo"), sample("peoples-utopian-collective")
    first = check_upgrade(nt, "veteran", "armour", pu, tech_points=5)
    assert first.allowed and first.cost == 2 and first.remaining == 3
    assert str(first.explain[-1]) == "5 - 2 = 3 tech points left, banked for later purchases [A45]"
    nt = apply_upgrade(nt, "veteran", "armour", pu, tech_points=5)
    second = check_upgrade(nt, "reserve", "armour", pu, tech_points=first.remaining)   # Reserve Arm 1 vs 3: 1 point
    assert second.allowed and second.cost == 1 and second.remaining == 2     # the odd remainder is not lost
    short = check_upgrade(nt, "reserve", "sensors", None, tech_points=1)
    assert not short.allowed and short.remaining is None
    assert "it costs 2 tech points and only 1 tech point available" in short.reason


def test_every_explanation_line_cites_p31_or_a45():
    check = check_upgrade(sample("new-tokyo"), "veteran", "armour", sample("peoples-utopian-collective"), 4)
    assert check.explain
    for line in check.lines():
        assert line.endswith("]") and ("p.31" in line or "A45" in line)


def test_apply_upgrade_never_mutates_and_records_the_cost():
    nt, pu = sample("new-tokyo"), sample("peoples-utopian-collective")
    new = apply_upgrade(nt, "veteran", "armour", pu, tech_points=2, battle=3)
    assert nt.upgrades == [] and nt.stats("veteran").armour == 2
    assert new.upgrades == [Upgrade(rating="veteran", stat="armour", cost=2, battle=3)]
    assert new.stats("veteran").armour == 3 and new.created == nt.created


def test_apply_upgrade_refuses_with_the_rule():
    with pytest.raises(UpgradeRefused) as err:
        apply_upgrade(sample("new-tokyo"), "spec-ops", "sensors")
    assert not err.value.check.allowed
    assert "the maximum is 5" in err.value.message()


def test_unknown_rating_or_stat_is_an_input_error():
    with pytest.raises(InputError) as err:
        upgrade_cost(sample("new-tokyo"), "elite", "luck")
    assert len(err.value.problems) == 2


def test_tech_points_after_battle():
    assert tech_points_after_battle(False)[0] == 1
    points, why = tech_points_after_battle(True)
    assert points == 2 and all(step.source for step in why)


# ---------------------------------------------------------------------------------------------------------------
# Faction files: TOML round trip and safe saving


@pytest.mark.parametrize("name", SAMPLES)
def test_toml_round_trip_of_the_samples(tmp_path, name):
    faction = sample(name)
    text = faction_to_toml(faction)
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    assert load_faction(path) == faction


def test_toml_round_trip_with_upgrades_and_awkward_text(tmp_path):
    faction = sample("new-tokyo").model_copy(update={"lore": 'Says "hi"\nand \\ leaves. Ünïcode ✓', "id": "nt-2"})
    faction = apply_upgrade(faction, "veteran", "armour", sample("peoples-utopian-collective"), battle=1)
    faction = apply_upgrade(faction, "reserve", "sensors")
    path = tmp_path / "nt-2.toml"
    path.write_text(faction_to_toml(faction), encoding="utf-8")
    back = load_faction(path)
    assert back == faction and back.upgrades[0].battle == 1 and back.upgrades[1].battle is None
    assert tomllib.loads(faction_to_toml(faction))["upgrades"][1] == {"rating": "reserve", "stat": "sensors",
                                                                      "cost": 2}


def test_save_faction_to_the_user_folder_is_listed_at_once():
    faction = load_faction(paths.DATA_DIR / "factions" / "council-of-zane.toml").model_copy(
        update={"id": "zane-copy", "name": "Zane Copy"})
    assert "zane-copy" not in faction_files()
    path = save_faction(faction)
    assert path == paths.user_factions_dir() / "zane-copy.toml"
    assert faction_files()["zane-copy"] == path
    assert get_faction("zane-copy") == faction
    assert [p.name for p in path.parent.iterdir()] == ["zane-copy.toml"]     # no temporary file left behind


def test_save_faction_never_replaces_a_different_faction(tmp_path):
    nt = sample("new-tokyo")
    path = tmp_path / "mine.toml"
    save_faction(nt, path)
    before = path.read_bytes()
    assert save_faction(nt, path) == path                  # the same faction again: fine
    changed = apply_upgrade(nt, "veteran", "armour")
    with pytest.raises(InputError) as err:
        save_faction(changed, path)
    assert "already exists and holds faction 'new-tokyo'" in err.value.message()
    assert path.read_bytes() == before
    save_faction(changed, path, overwrite=True)
    assert load_faction(path) == changed


def test_save_faction_never_replaces_another_file(tmp_path):
    path = tmp_path / "notes.toml"
    path.write_text("title = 'my notes'\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        save_faction(sample("new-tokyo"), path)
    assert "not this faction" in err.value.message()
    assert path.read_text(encoding="utf-8") == "title = 'my notes'\n"


def test_save_faction_refuses_an_invalid_faction(tmp_path):
    bad = sample("council-of-zane").model_copy(update={"id": "Bad Id"})
    with pytest.raises(InputError) as err:
        save_faction(bad, tmp_path / "bad.toml")
    assert "id: expected lower-case" in err.value.message()
    assert list(tmp_path.iterdir()) == []


def test_faction_problems_accepts_a_good_dict():
    faction, problems = faction_problems(faction_data(), "test")
    assert problems == [] and faction.id == "test-zane"


# ---------------------------------------------------------------------------------------------------------------
# More kinds of invalid faction, each with its message


def test_empty_name(tmp_path):
    assert problems_of(tmp_path, faction_data(name="")) == ["name: expected a name (not empty or only spaces) (got '')"]
    assert problems_of(tmp_path, faction_data(name="  ")) == [
        "name: expected a name (not empty or only spaces) (got '  ')"]


@pytest.mark.parametrize("bad", ["-zane", "zane-", "za--ne", "Zane", "za_ne", "za ne", ""])
def test_ids_that_are_not_lower_case_words_joined_by_dashes(tmp_path, bad):
    assert problems_of(tmp_path, faction_data(id=bad)) == [
        f"id: expected lower-case words joined by '-', like 'new-tokyo' (got {bad!r})"]


@pytest.mark.parametrize("colour", ["#12345", "#1234567", "123456", "#gg0000", "blue"])
def test_colours_must_be_hash_and_six_hex_digits(tmp_path, colour):
    assert problems_of(tmp_path, faction_data(colours={"secondary": colour})) == [
        f"colours.secondary: expected # and six hex digits, like #3c6e9f (got {colour!r})"]


def test_spec_ops_below_veteran(tmp_path):
    data = with_stat("spec-ops", "nuclear", 2)
    data["created"]["spec-ops"]["robotics"] = 5       # still 6 points added, so only the order is wrong
    data["created"]["spec-ops"]["sensors"] = 5
    problems = problems_of(tmp_path, data)
    assert problems == ["created.spec-ops.nuclear: Spec Ops Nuc 2 is below Veteran 3; each rating builds on the "
                        "one before [p.30]"]


def test_spec_ops_adding_five_points(tmp_path):
    problems = problems_of(tmp_path, with_stat("spec-ops", "robotics", 3))
    assert problems == ["created.spec-ops: expected exactly 6 points added to Veteran, this line adds 5 (sum 23, "
                        "expected 24) [p.30, A46]"]


def test_upgrade_history_reserve_above_veteran(tmp_path):
    problems = problems_of(tmp_path, upgraded({"rating": "reserve", "stat": "sensors", "cost": 2},
                                              {"rating": "reserve", "stat": "sensors", "cost": 2}))
    assert problems == ["upgrades[1]: Reserve Sen would be 4, above Veteran 3 [p.31, A45]"]


@pytest.mark.parametrize("rating, cost", [("reserve", 1), ("veteran", 2), ("spec-ops", 3)])
def test_upgrade_history_accepts_the_halved_cost(tmp_path, rating, cost):
    data = upgraded({"rating": rating, "stat": "sensors", "cost": cost})     # the cheaper price is in the record
    assert check_faction_file(write(tmp_path, data))[1] == []


@pytest.mark.parametrize("up, expected", [
    ({"rating": "elite", "stat": "armour", "cost": 4}, "upgrades[0].rating: Input should be 'reserve', 'veteran' or "
                                                        "'spec-ops' (got 'elite')"),
    ({"rating": "veteran", "stat": "luck", "cost": 4}, "upgrades[0].stat: Input should be"),
    ({"rating": "veteran", "stat": "armour", "cost": 0}, "upgrades[0].cost: Input should be greater than or equal "
                                                          "to 1 (got 0)"),
    ({"rating": "veteran", "stat": "armour"}, "upgrades[0].cost: required key is missing"),
])
def test_upgrade_history_entries_that_are_not_purchases(tmp_path, up, expected):
    _, problems = check_faction_file(write(tmp_path, upgraded(up)))
    assert len(problems) == 1 and problems[0].startswith(expected)


# ---------------------------------------------------------------------------------------------------------------
# The fresh faction list used by set-up and the editor


def test_available_factions_sees_files_written_by_another_program():
    from referee.rules.factions import available_factions, unusable_faction_files

    ids = [f.id for f in available_factions()]
    assert set(SAMPLES) <= set(ids)
    folder = paths.user_factions_dir()
    folder.mkdir(parents=True, exist_ok=True)
    # written behind the program's back: no forget_factions() call
    (folder / "test-zane.toml").write_text(tomli_w.dumps(faction_data()), encoding="utf-8")
    (folder / "broken.toml").write_text('id = "broken"\n', encoding="utf-8")
    assert "test-zane" in [f.id for f in available_factions()]
    assert "broken" not in [f.id for f in available_factions()]
    assert unusable_faction_files()[folder / "broken.toml"] == ["name: required key is missing",
                                                               "created: required key is missing"]
    # rewritten in place: the new content, not a cached copy
    (folder / "test-zane.toml").write_text(tomli_w.dumps(faction_data(name="Renamed Zane")), encoding="utf-8")
    assert next(f for f in available_factions() if f.id == "test-zane").name == "Renamed Zane"
    assert get_faction("test-zane").name == "Renamed Zane"


def test_a_file_named_otherwise_is_found_by_its_own_id():
    from referee.rules.factions import available_factions, unusable_faction_files

    folder = paths.user_factions_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "My Zane (copy).toml").write_text(tomli_w.dumps(faction_data()), encoding="utf-8")
    assert get_faction("test-zane").name == "Test Zane"
    assert [f.id for f in available_factions()].count("test-zane") == 1
    # a file claiming a bundled id under another name is left out, and says why
    (folder / "impostor.toml").write_text(tomli_w.dumps(faction_data(id="new-tokyo", name="Impostor")),
                                          encoding="utf-8")
    assert get_faction("new-tokyo").name == "New Tokyo"
    assert "Impostor" not in [f.name for f in available_factions()]
    assert unusable_faction_files()[folder / "impostor.toml"][0].startswith("id: 'new-tokyo' is already the name of")
