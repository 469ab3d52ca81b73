"""Every loader, fed broken documents and broken bytes: a valid object, or an InputError naming the file. Nothing else.

A loader that raises anything but ``InputError`` fails the test; so does an ``InputError`` whose message does not
name the file (or folder) it was given. What loads must also be usable: a loaded scenario round-trips through the
file format and builds a battlefield and a game state.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import math
import random
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import event, example, given
from hypothesis import strategies as st

from referee.authoring.faction_io import check_faction_file, faction_problems
from referee.game.campaigns.campaign import load_campaign
from referee.game.battle.cards import load_card_file, load_deck
from referee.paths import ROOT
from referee.rules.battlefield import battlefield_from_scenario
from referee.rules.errors import InputError
from referee.rules.factions import Faction, load_faction
from referee.rules.rulings import Rulings
from referee.rules.scenario import Scenario, load_scenario, parse_scenario, scenario_to_data

from .strategies import (CARD_FILES, EXAMPLE_SAVE, FACTION_FILES, SCENARIO_FILES, broken_scenarios, bundled_documents,
                         campaign_documents, document_bytes, faction_documents, fuzz_settings, mutated,
                         mutated_bytes, mutated_or_whole, parsed, renderings, rulings_overrides, suffixes)

SCENARIO_DOCS = bundled_documents(SCENARIO_FILES)
FACTION_DOCS = bundled_documents(FACTION_FILES)
CARD_DOCS = bundled_documents(CARD_FILES)

_names = itertools.count()
PYTHON_ERROR = re.compile(r"\b[A-Z]\w*(Error|Exception): ")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-loaders")


def write(folder: Path, stem: str, suffix: str, data: bytes) -> Path:
    """A fresh file for each example (a cached faction is keyed by path and time, so names are never reused)."""
    path = folder / f"{stem}-{next(_names)}{suffix}"
    path.write_bytes(data)
    return path


def loaded(call, name: str):
    """What ``call()`` loads, or None when it refused with an InputError that names ``name``."""
    try:
        result = call()
    except InputError as e:
        message = e.message()
        assert name in message, f"the message does not name {name!r}: {message}"
        assert e.problems and all(isinstance(p, str) and p.strip() for p in e.problems), e.problems
        # A clear message, not a Python exception caught on the way out ("(KeyError: 'x')").
        assert not PYTHON_ERROR.search(message), f"a Python error in the message: {message}"
        event("refused with InputError")
        return None
    event("loaded")
    return result


def check_usable_scenario(scenario: Scenario, name: str, base_dir: Path | None = None) -> None:
    """A scenario that loaded is one the program can use: it writes back out equal, and becomes a table and a game."""
    from referee.game.battle.state import state_from_scenario

    assert parse_scenario(scenario_to_data(scenario), name, base_dir) == scenario
    battlefield_from_scenario(scenario, base_dir)
    state_from_scenario(scenario)


# ---- scenarios --------------------------------------------------------------------------------------------------

bundled_scenarios = st.sampled_from(SCENARIO_DOCS).flatmap(lambda nd: mutated_or_whole(nd[1]))


@fuzz_settings(250)
@given(data=st.one_of(bundled_scenarios, broken_scenarios()))
@example(data={"units": [{"id": "u", "side": "A", "faction": "new-tokyo", "rating": "veteran", "type": "tactical",
                          "x": 1.0, "y": 1.0, "facing": math.nan}]})
@example(data={"table": {"width": math.inf, "height": 36}})
@example(data={"terrain": [{"id": "s", "type": "smoke", "circle": {"x": math.nan, "y": 1.0, "r": 1.0}}]})
@example(data={"units": [{"id": "u", "side": "A", "faction": "x" * 300 + ".toml", "rating": "veteran",
                          "type": "tactical", "x": 1.0, "y": 1.0}]})
@example(data={"rulings": {"crater_diameter": math.nan, "inspected_counters": math.inf}})
@example(data={"rulings": {"crater_diameter": 1e300}})
@example(data={"scale": 1e308})
@example(data={"scale": 5e-324})
@example(data={"table": {"width": 1e308, "height": 1e308}})
@example(data={"terrain": [{"id": "h", "type": "hills", "polygon": [[0, 0], [1e308, 0], [1e308, 1e308]]}]})
def test_parse_scenario_documents(data):
    scenario = loaded(lambda: parse_scenario(data, "fuzz-scenario.toml"), "fuzz-scenario.toml")
    if scenario is not None:
        check_usable_scenario(scenario, "fuzz-scenario.toml")


@fuzz_settings(100)
@given(data=broken_scenarios(), suffix=suffixes)
def test_load_scenario_files(workdir, data, suffix):
    path = write(workdir, "scenario", suffix, document_bytes(data, suffix))
    scenario = loaded(lambda: load_scenario(path), path.name)
    if scenario is not None:
        check_usable_scenario(scenario, path.name, path.parent)


SCENARIO_SEEDS = [(name, suffix, text) for name, doc in SCENARIO_DOCS for suffix, text in renderings(doc)]


@fuzz_settings(150)
@given(seed=st.sampled_from(SCENARIO_SEEDS).flatmap(
    lambda s: st.tuples(st.just(s[1]), mutated_bytes(s[2]), st.sampled_from([s[1], ".toml", ".json"]))))
@example(seed=(".json", b"[" * 100000, ".json"))
@example(seed=(".toml", b"a = " + b"[" * 100000, ".toml"))
def test_load_scenario_bytes(workdir, seed):
    _, data, suffix = seed
    path = write(workdir, "scenario", suffix, data)
    scenario = loaded(lambda: load_scenario(path), path.name)
    if scenario is not None:
        check_usable_scenario(scenario, path.name, path.parent)


# ---- factions ---------------------------------------------------------------------------------------------------

faction_inputs = st.one_of(
    st.sampled_from(FACTION_DOCS).flatmap(lambda nd: mutated_or_whole(nd[1])),
    faction_documents(),
    faction_documents().flatmap(mutated),
)


@fuzz_settings(200)
@given(data=faction_inputs, suffix=suffixes)
def test_faction_loaders(workdir, data, suffix):
    """``load_faction`` and ``check_faction_file`` agree; ``faction_problems`` takes the parsed document."""
    path = write(workdir, "faction", suffix, document_bytes(data, suffix))
    faction = loaded(lambda: load_faction(path), path.name)
    checked, problems = check_faction_file(path)
    assert (faction is None) == (checked is None), (faction, problems)
    assert (checked is None) == bool(problems)
    if faction is not None:
        assert checked == faction and isinstance(faction, Faction)
    in_memory, memory_problems = faction_problems(data, "fuzz-faction")
    assert (in_memory is None) == bool(memory_problems)
    assert all(isinstance(p, str) and p for p in memory_problems)


@fuzz_settings(60)
@given(faction=faction_inputs, suffix=suffixes)
def test_scenario_naming_a_faction_file(workdir, faction, suffix):
    """A unit's faction given as a file next to the scenario: that file's problems are the scenario's problems."""
    own = write(workdir, "own-faction", suffix, document_bytes(faction, suffix))
    doc = {"units": [{"id": "u", "side": "A", "faction": own.name, "rating": "veteran", "type": "tactical",
                      "x": 1.0, "y": 1.0}]}
    path = write(workdir, "scenario", ".json", document_bytes(doc, ".json"))
    scenario = loaded(lambda: load_scenario(path), path.name)
    if scenario is not None:
        check_usable_scenario(scenario, path.name, path.parent)


FACTION_SEEDS = [(suffix, text) for _, doc in FACTION_DOCS for suffix, text in renderings(doc)]


@fuzz_settings(120)
@given(seed=st.sampled_from(FACTION_SEEDS).flatmap(lambda s: st.tuples(st.just(s[0]), mutated_bytes(s[1]))))
def test_faction_bytes(workdir, seed):
    suffix, data = seed
    path = write(workdir, "faction", suffix, data)
    faction = loaded(lambda: load_faction(path), path.name)
    checked, problems = check_faction_file(path)
    assert (faction is None) == (checked is None) == bool(problems)


# ---- cards ------------------------------------------------------------------------------------------------------

card_inputs = st.sampled_from(CARD_DOCS).flatmap(lambda nd: mutated_or_whole(nd[1]))


@fuzz_settings(200)
@given(data=card_inputs, suffix=suffixes)
def test_load_card_file_documents(workdir, data, suffix):
    path = write(workdir, "cards", suffix, document_bytes(data, suffix))
    cards = loaded(lambda: load_card_file(path), path.name)
    assert cards is None or isinstance(cards, list)


CARD_SEEDS = [(suffix, text) for _, doc in CARD_DOCS for suffix, text in renderings(doc)]


@fuzz_settings(120)
@given(seed=st.sampled_from(CARD_SEEDS).flatmap(lambda s: st.tuples(st.just(s[0]), mutated_bytes(s[1]))))
def test_load_card_file_bytes(workdir, seed):
    suffix, data = seed
    path = write(workdir, "cards", suffix, data)
    loaded(lambda: load_card_file(path), path.name)


@st.composite
def broken_decks(draw):
    """The bundled deck with one file broken (as a document or as bytes), one left out, or one doubled."""
    files = {p.name: p.read_bytes() for p in CARD_FILES}
    name = draw(st.sampled_from(sorted(files)))
    how = draw(st.sampled_from(["document", "bytes", "leave-out", "double", "sub-folder"]))
    if how == "document":
        doc = draw(mutated_or_whole(dict(CARD_DOCS)[name]))
        files[name] = document_bytes(doc, ".toml")
    elif how == "bytes":
        files[name] = draw(mutated_bytes(files[name]))
    elif how == "leave-out":
        del files[name]
    elif how == "double":
        files["copy-" + name] = files[name]
    else:
        files["more/" + name] = draw(mutated_bytes(files[name]))
    return files


@fuzz_settings(40)
@given(files=broken_decks())
def test_load_deck(workdir, files):
    folder = workdir / f"deck-{next(_names)}"
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    loaded(lambda: load_deck(folder), folder.name)
    shutil.rmtree(folder)


# ---- rulings ----------------------------------------------------------------------------------------------------


@fuzz_settings(200)
@given(overrides=rulings_overrides)
@example(overrides={"A1": ["A"]})
@example(overrides={"inspected_counters": math.inf})
@example(overrides={"crater_diameter": math.nan})
@example(overrides={"inspected_counters": 2.5})
def test_rulings_overrides(overrides):
    rulings = loaded(lambda: Rulings(overrides, source="fuzz-rulings"), "fuzz-rulings")
    if rulings is not None:
        assert math.isfinite(rulings.crater_diameter) and rulings.crater_diameter > 0
        assert rulings.inspected_counters >= 1
        for rid in rulings.choices:
            assert rulings.label(rid)


RULINGS_FILE = ROOT / "data" / "rulings.toml"
RULINGS_DOC = parsed(RULINGS_FILE)
COVER = ROOT / "scenarios" / "cover-example.toml"


@contextlib.contextmanager
def rulings_file(path: Path):
    """The program reading its rulings from ``path`` instead of ``data/rulings.toml`` (every cache that holds
    rulings is emptied before and after)."""
    from referee.rules import rulings as rulings_module

    def forget():
        rulings_module.catalogue.cache_clear()
        rulings_module.DEFAULT = None
        rulings_module._SHARED.clear()

    real = rulings_module.paths
    forget()
    rulings_module.paths = SimpleNamespace(DATA_DIR=path.parent)
    try:
        yield
    finally:
        rulings_module.paths = real
        forget()


def check_rulings_file(capsys, folder: Path, data: bytes) -> None:
    """The rulings file loads, or is refused with an InputError naming it; what loads gives a program that answers
    questions (exit status 0) or refuses them (2), never a traceback."""
    from referee.cli.main import main
    from referee.rules.rulings import catalogue

    folder.mkdir()
    path = folder / "rulings.toml"
    path.write_bytes(data)
    with rulings_file(path):
        cat = loaded(catalogue, str(path))
        if cat is not None:
            rulings = loaded(lambda: Rulings({}, source="fuzz-rulings"), str(path))
            if rulings is not None:
                for rid in cat:
                    assert rulings.label(rid)
        capsys.readouterr()
        for argv in (["query", str(COVER), "target", "green", "target-d", "--pool", "12"],
                     ["query", str(COVER), "do", "missile", "green", "target-e", "--dice", "6,6,6,6,6,6,6,6,6,6"],
                     ["query", str(COVER), "los", "green", "target-a", "--json"]):
            status = main(argv)
            out, err = capsys.readouterr()
            assert status in (0, 2, 3), (argv, status, err)
            if cat is None:
                assert status == 2 and "rulings.toml" in err, (argv, err)
    shutil.rmtree(folder)


def test_every_ruling_the_code_reads_is_required_of_the_rulings_file():
    """A rulings file without a ruling the code reads is refused when it is loaded, not in the middle of a battle."""
    from referee.rules.rulings import PARAMETERS, REQUIRED

    used = set()
    for path in (ROOT / "referee").rglob("*.py"):
        used |= set(re.findall(r"""(?:reads|label)\(\s*["'](A\d+)["']|\[["'](A\d+)["']\]""", path.read_text()))
    used = {a or b for a, b in used} | set(PARAMETERS.values())
    assert used and used <= set(REQUIRED), f"add {sorted(used - set(REQUIRED))} to rulings.REQUIRED"
    assert set(REQUIRED) <= set(RULINGS_DOC)


@fuzz_settings(150)
@given(data=st.one_of(mutated_or_whole(RULINGS_DOC), mutated(RULINGS_DOC, (1, 2))))
@example(data={k: v for k, v in RULINGS_DOC.items() if k != "A6"})
@example(data={k: v for k, v in RULINGS_DOC.items() if k != "A33"})
@example(data={**RULINGS_DOC, "A33": {k: v for k, v in RULINGS_DOC["A33"].items() if k != "crater_diameter"}})
@example(data={**RULINGS_DOC, "A2": {**RULINGS_DOC["A2"], "default": "Z"}})
@example(data={**RULINGS_DOC, "A2": {**RULINGS_DOC["A2"], "options": {}}})
def test_rulings_file_documents(capsys, workdir, data):
    check_rulings_file(capsys, workdir / f"rulings-{next(_names)}", document_bytes(data, ".toml"))


@fuzz_settings(100)
@given(data=mutated_bytes(RULINGS_FILE.read_bytes()))
def test_rulings_file_bytes(capsys, workdir, data):
    check_rulings_file(capsys, workdir / f"rulings-{next(_names)}", data)


# ---- saves ------------------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def save_documents() -> list[dict]:
    """The example save in the docs and one written by the engine after a few random actions on a bundled table."""
    from referee.game.battle.dice import SeededDice
    from referee.game.play.engine import Game, begin_battle
    from referee.game.players.random_play import play_random
    from referee.game.records.record import save_document
    from referee.game.battle.state import state_from_scenario

    from referee.game.play.setup import SetupChoices, new_battle

    docs = [json.loads(EXAMPLE_SAVE.read_text(encoding="utf-8"))]
    state = state_from_scenario(load_scenario(SCENARIO_FILES[0]))
    game = Game(begin_battle(state))
    play_random(game, random.Random(7), 12, SeededDice(7))
    docs.append(save_document(game, SeededDice(7)))
    # A battle set up by the program (cards, missions, seals, 16 blips a side) and played for a while: its record
    # holds most kinds of action and roll, so a mutation reaches deep into the replay.
    table = parse_scenario({"name": "open field", "table": {"width": 36, "height": 36}}, "open field")
    state, _ = new_battle(table, SetupChoices(factions={"A": "council-of-zane", "B": "new-tokyo"}), SeededDice(3))
    game = Game(state)
    play_random(game, random.Random(3), 150, SeededDice(3))
    docs.append(save_document(game, SeededDice(3)))
    # Everyone within a few inches: shots, missiles, blasts, flamers, reveals and scrambles in the record.
    from ..test_random_play import close_quarters

    game = Game(begin_battle(close_quarters()))
    play_random(game, random.Random(1), 200, SeededDice(1))
    docs.append(save_document(game, SeededDice(1)))
    return docs


save_inputs = st.deferred(lambda: st.sampled_from(save_documents()).flatmap(mutated_or_whole))


def read_save_checked(path: Path):
    from referee.game.records.record import load_game, read_save

    save = loaded(lambda: read_save(path), path.name)
    if save is not None:
        assert save.game.state is not None
        assert loaded(lambda: load_game(path), path.name) is not None
    return save


@fuzz_settings(100)
@given(data=save_inputs)
def test_read_save_documents(workdir, data):
    path = write(workdir, "save", ".json", document_bytes(data, ".json"))
    read_save_checked(path)


@fuzz_settings(100)
@given(seed=st.deferred(lambda: st.sampled_from(save_documents()).flatmap(
    lambda d: mutated_bytes(json.dumps(d, indent=1).encode("utf-8")))))
@example(seed=b"[" * 100000)
def test_read_save_bytes(workdir, seed):
    path = write(workdir, "save", ".json", seed)
    read_save_checked(path)


# ---- campaigns --------------------------------------------------------------------------------------------------


@fuzz_settings(150)
@given(data=st.one_of(campaign_documents(), campaign_documents().flatmap(mutated)), suffix=suffixes)
@example(data={"players": {"A": {"faction": "new-tokyo"}}}, suffix=".toml")
@example(data={"players": {"A": {"faction": "new-tokyo"}, "B": {"faction": "nobody"}}}, suffix=".toml")
def test_load_campaign(workdir, data, suffix):
    path = write(workdir, "campaign", suffix, document_bytes(data, suffix))
    result = loaded(lambda: load_campaign(path), path.name)
    if result is not None:
        campaign, status = result
        assert set(status.sides) == {"A", "B"}
