"""Documents checked before are read back from the cache folder, and never hide a broken file (checked.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import paths
from referee.rules import checked
from referee.rules.errors import InputError
from referee.rules.scenario import Scenario, load_scenario

TABLE = """name = "Two hills"
table = { width = 24, height = 24 }
[[terrain]]
id = "hill-a"
type = "hills"
circle = { x = 12, y = 12, r = 3 }
[[units]]
id = "green"
side = "A"
faction = "new-tokyo"
rating = "veteran"
type = "tactical"
x = 2
y = 2
"""


@pytest.fixture(autouse=True)
def cache_in_the_tests_home(monkeypatch):
    """These tests count and break what is kept: the cache in the test's own home, not the suite's shared one."""
    monkeypatch.delenv("SEVEN_SECONDS_CACHE", raising=False)


def kept_files() -> list[Path]:
    folder = paths.user_cache_dir() / checked.FOLDER
    return sorted(folder.glob("*.pickle")) if folder.is_dir() else []


def test_a_table_checked_again_is_read_from_the_cache_and_equal(tmp_path):
    table = tmp_path / "two-hills.toml"
    table.write_text(TABLE)
    first = load_scenario(table)
    key = checked.file_key(f"{Scenario.__module__}.Scenario", table.name, table.read_bytes())
    kept = paths.user_cache_dir() / checked.FOLDER / f"{key}.pickle"
    assert kept.is_file()
    again = load_scenario(table)
    assert again == first and again is not first
    assert again.table.width == 24.0 and isinstance(again.table.width, float)


def test_a_broken_file_after_a_sound_one_still_gets_its_error(tmp_path):
    table = tmp_path / "two-hills.toml"
    table.write_text(TABLE)
    load_scenario(table)
    table.write_text(TABLE.replace('rating = "veteran"', 'rating = "elite"'))
    with pytest.raises(InputError) as e:
        load_scenario(table)
    assert e.value.source == str(table)
    assert any(p.startswith("units[0].rating:") and "'elite'" in p for p in e.value.problems)


def test_a_semantic_problem_is_found_whatever_was_kept(tmp_path):
    """The faction a table names is looked up on every load: a kept table cannot hide a faction gone missing."""
    table = tmp_path / "two-hills.toml"
    table.write_text(TABLE.replace('"new-tokyo"', '"mine.toml"'))
    faction = (paths.DATA_DIR / "factions" / "new-tokyo.toml").read_text()
    (tmp_path / "mine.toml").write_text(faction.replace('id = "new-tokyo"', 'id = "mine"'))
    load_scenario(table)
    (tmp_path / "mine.toml").unlink()
    with pytest.raises(InputError) as e:
        load_scenario(table)
    assert any(p.startswith("units[0].faction: unknown faction 'mine.toml'") for p in e.value.problems)


def test_a_kept_value_cut_short_is_checked_again_and_written_anew(tmp_path):
    table = tmp_path / "two-hills.toml"
    table.write_text(TABLE.replace("Two hills", "Cut short"))
    first = load_scenario(table)
    key = checked.file_key(f"{Scenario.__module__}.Scenario", table.name, table.read_bytes())
    kept = paths.user_cache_dir() / checked.FOLDER / f"{key}.pickle"
    whole = kept.read_bytes()
    kept.write_bytes(whole[: len(whole) // 2])
    assert load_scenario(table) == first
    assert kept.read_bytes() == whole


def test_the_key_is_the_files_bytes_read_as_its_suffix_says():
    keys = {checked.file_key("k", "a.toml", b"x = 1"), checked.file_key("k", "a.toml", b"x = 1.0"),
            checked.file_key("k", "a.json", b"x = 1"), checked.file_key("other", "a.toml", b"x = 1")}
    assert len(keys) == 4
    assert checked.file_key("k", "a.toml", b"x = 1") == checked.file_key("k", "b.TOML", b"x = 1")


def test_no_folder_to_keep_values_in_costs_nothing_but_speed(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(blocker))
    table = tmp_path / "two-hills.toml"
    table.write_text(TABLE.replace("Two hills", "Nowhere to keep"))
    assert load_scenario(table).name == "Nowhere to keep"


def test_the_oldest_kept_values_are_dropped(tmp_path, monkeypatch):
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(checked, "KEEP", 3)
    for i in range(5):
        number = write(tmp_path / f"{i}.toml", f"n = {i}")
        assert checked.remembered_file(number, "numbers", lambda i=i: i * 10) == i * 10
    assert len(kept_files()) == 3


def test_a_file_of_the_same_bytes_as_a_broken_one_is_broken_whatever_its_name(tmp_path):
    broken = TABLE.replace("x = 2", "x = true")
    for name in ("one.toml", "two.toml"):
        with pytest.raises(InputError) as e:
            load_scenario(write(tmp_path / name, broken))
        assert e.value.source.endswith(name) and any(p.startswith("units[0].x:") for p in e.value.problems)


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path
