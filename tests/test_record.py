"""Saves as the record of the game: write, load by replaying, refuse what is damaged, never clobber a file."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee import storage
from referee.cli.main import main
from referee.game.battle.commit import canonical_text
from referee.game.records import record
from referee.game.battle.intents import Action
from referee.game.battle.dice import RollRequest, ScriptedDice, SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.records.autosave import autosave, autosave_path, damaged_autosave, find_interrupted
from referee.game.records.record import WouldOverwrite, load_game, new_seeded_dice, read_save, save_game
from referee.game.play.seal import seal
from referee.paths import ROOT
from referee.rules.errors import InputError

from .tables import game_state, unit

EXAMPLE = ROOT / "docs" / "example-save.json"


def contents(ident, side, type="tactical"):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type}


def example_table():
    s = game_state(
        units=[unit("a-tac", "A", 10, 4, facing=90), unit("b-tac", "B", 10, 16, facing=270)],
        blips=[{"id": "a-blip-1", "side": "A", "x": 20, "y": 4, "square": 1, "contents": [contents("a-scout", "A", "scout")]},
               {"id": "b-blip-1", "side": "B", "x": 24, "y": 30, "square": 1, "contents": []},
               {"id": "b-blip-2", "side": "B", "x": 4, "y": 30, "square": 2, "contents": [contents("b-eng", "B", "engineer")]}],
        objectives=[{"id": "alpha", "x": 18, "y": 26}], attacker="A", name="Example skirmish")
    s.missions = {"A": "deep-strike", "B": "hold-the-line"}
    seal(s, {"A": "5f1c0a9e7d3b4c21", "B": "c2d94e7a18f03b65"})
    return s


# (kind, actor, dice, args): round 1 of a small battle, with the dice a table might have rolled.
EXAMPLE_SCRIPT = [
    ("activate", "a-tac", [], {}),
    ("target", "a-tac", [4, 3], {"dice": 2, "assign": {"b-tac": 3}}),    # pool 7; 3 counters at 2 each
    ("rifle", "a-tac", [5, 2, 4, 4, 2], {"target": "b-tac"}),            # 3 gauss dice, lowest 2: graze; Red 4 stuns
    ("activate", "a-blip-1", [], {"extra": True}),
    ("move", "a-blip-1", [], {"x": 20, "y": 9}),
    ("activate", "b-tac", [5], {}),                                      # stays down: the activation is spent
    ("activate", "b-blip-2", [], {"extra": True}),
    ("move", "b-blip-2", [], {"x": 6, "y": 26}),
    ("end-turn", "", [], {}),                                            # side A has no counters left: it passes
    ("activate", "b-blip-1", [], {}),
    ("move", "b-blip-1", [], {"x": 26, "y": 26}),
    ("end-activation", "", [], {}),
    ("end-of-round", "", [3, 5], {}),                                    # Initiative: A 3, B 5
]


def example_game() -> Game:
    game = Game(begin_battle(example_table()))
    for kind, actor, dice, args in EXAMPLE_SCRIPT:
        out = game.play(Action(kind, actor, args), ScriptedDice(list(dice)))
        assert out.legal, f"{kind} {actor}: {out.reason}"
    return game


def write_example(path: Path = EXAMPLE) -> None:
    """Regenerates docs/example-save.json from the script above."""
    save_game(example_game(), path, overwrite=True)


def plain(data):
    return json.loads(json.dumps(data))


def blip_on(state, side: str, square: int):
    """The blip of ``side`` on holding square ``square``, whatever its label (a format-1 save is relabelled)."""
    (blip,) = [b for b in state.blips.values() if b.side == side and b.square == square]
    return blip


def square_names(game: Game, data):
    """``data`` with each blip label of ``game`` written as the example script names it, by its square."""
    text = json.dumps(data)
    for b in game.initial.blips.values():
        text = text.replace(f'"{b.id}"', f'"{b.side.lower()}-blip-{b.square}"')
    return json.loads(text)


def assert_example_outcome(game: Game) -> None:
    s = game.state
    assert (s.round, s.phase, s.initiative, s.turn.player) == (2, "action", "B", "B")
    assert s.units["a-tac"].target_counters == 3          # +2 for the Target dice, +1 for the rifle
    tac = s.units["b-tac"]
    assert (tac.target_counters, tac.stunned, tac.damaged) == (3, True, False)
    assert (blip_on(s, "A", 1).x, blip_on(s, "A", 1).y) == (20, 9)
    assert (blip_on(s, "B", 1).x, blip_on(s, "B", 1).y) == (26, 26)
    assert all(u.activation for u in s.units.values()) and all(b.activation for b in s.blips.values())
    assert len(game.record) == len(EXAMPLE_SCRIPT)


# ---- saving and loading ---------------------------------------------------------------------------------


def test_the_scripted_game_has_the_expected_outcome():
    assert_example_outcome(example_game())


def test_a_save_loads_back_to_exactly_the_same_game(tmp_path):
    game = example_game()
    path = save_game(game, tmp_path / "battle.json")
    doc = json.loads(path.read_text())
    assert doc["format"] == "seven-seconds-save" and doc["version"] == record.VERSION
    assert {"program", "saved_at", "initial", "record"} <= set(doc) and "dice" not in doc
    assert doc["initial"]["holding"]["B"]["2"][0]["id"] == "b-eng"
    rolls = doc["record"][2]["rolls"]
    assert [r[1:] for r in rolls] == [["d6", 5], ["d6", 2], ["d6", 4], ["d6", 4], ["d6", 2]]
    assert "rifle die 1 of 3 at b-tac" in rolls[0][0] and "Red Die" in rolls[3][0]
    loaded = read_save(path)
    assert loaded.warnings == [] and loaded.dice is None
    assert plain(loaded.game.state.to_data()) == plain(game.state.to_data())
    assert plain(loaded.game.initial.to_data()) == plain(game.initial.to_data())
    assert [e.to_data() for e in loaded.game.record] == plain([e.to_data() for e in game.record])
    assert_example_outcome(loaded.game)
    # The loaded game plays on and undoes like the original.
    loaded.game.undo()
    assert loaded.game.state.phase == "end-of-round"


def test_the_program_dice_roll_on_after_a_load_as_if_never_stopped(tmp_path):
    dice = SeededDice(2024)
    game = Game(begin_battle(example_table()))
    game.play(Action("activate", "a-tac"), dice)
    game.play(Action("target", "a-tac", {"dice": 2, "assign": {}}), dice)
    save_game(game, tmp_path / "seeded.json", dice)
    doc = json.loads((tmp_path / "seeded.json").read_text())
    assert doc["dice"]["seed"] == 2024
    loaded = read_save(tmp_path / "seeded.json")
    request = RollRequest("test", "p.0")
    assert [loaded.dice.answer(request) for _ in range(20)] == [dice.answer(request) for _ in range(20)]


def test_a_typed_seed_at_the_window_foretells_neither_the_tables_dice_nor_the_secret_draws_and_keeps_its_salt(tmp_path):
    plain, salted = SeededDice(2024), new_seeded_dice(2024, private=True)
    assert salted.seed == 2024 and salted.secret_salt != 0 and salted.keyed
    die, card = RollRequest("test", "p.0"), RollRequest("card", "p.0", "draw", options=tuple("abcdefghij"), secret="B")
    for d in (plain, salted):
        d.begin("set-up")
    # Whoever knows the seed rolls the table's dice at home with the seed alone: they are not the battle's.
    assert [salted.answer(die) for _ in range(20)] != [plain.answer(die) for _ in range(20)]
    # Nor are B's cards drawn at home the ones B drew.
    assert [salted.answer(card) for _ in range(20)] != [plain.answer(card) for _ in range(20)]
    game = Game(begin_battle(example_table()))
    save_game(game, tmp_path / "salted.json", salted)
    loaded = read_save(tmp_path / "salted.json")
    assert loaded.dice is not None and loaded.dice.secret_salt == salted.secret_salt
    assert loaded.dice.commitments == salted.commitments and loaded.dice.unopened() == []
    assert [loaded.dice.answer(card) for _ in range(5)] == [salted.answer(card) for _ in range(5)]
    # The fresh entropy is in no file: the save rolls other table dice than the battle that wrote it.
    for d in (loaded.dice, salted):
        d.begin("round 1")
    assert [loaded.dice.answer(die) for _ in range(20)] != [salted.answer(die) for _ in range(20)]


def test_saving_again_over_the_same_game_is_allowed(tmp_path):
    path = tmp_path / "battle.json"
    game = Game(begin_battle(example_table()))
    save_game(game, path)
    game.play(Action("activate", "a-tac"), ScriptedDice())
    save_game(game, path)
    assert len(load_game(path).record) == 1


def test_a_file_that_is_not_a_save_of_this_game_is_never_overwritten(tmp_path):
    notes = tmp_path / "notes.json"
    notes.write_text("my campaign notes")
    with pytest.raises(WouldOverwrite) as e:
        save_game(example_game(), notes)
    assert "not overwritten" in e.value.message()
    assert notes.read_text() == "my campaign notes"

    other = Game(begin_battle(game_state(units=[unit("x", "A", 5, 5), unit("y", "B", 30, 30)])))
    theirs = tmp_path / "other.json"
    save_game(other, theirs)
    before = theirs.read_bytes()
    with pytest.raises(WouldOverwrite, match="another game"):
        save_game(example_game(), theirs)
    assert theirs.read_bytes() == before

    save_game(example_game(), theirs, overwrite=True)
    assert_example_outcome(load_game(theirs))


# ---- damaged saves are reported, never a traceback, never touched ----------------------------------------------


def _mutate(doc, what):
    if what == "missing record":
        del doc["record"]
    elif what == "wrong type":
        doc["initial"]["units"][0]["x"] = "ten"
    elif what == "newer version":
        doc["version"] = record.VERSION + 1
    elif what == "unknown old version":
        doc["version"] = 0
    elif what == "not a save":
        doc["format"] = "seven-seconds-scenario"
    elif what == "no longer replays":
        doc["record"][1]["rolls"] = [["sensor die 1 of 2 for a-tac", "d6", 1], ["sensor die 2 of 2 for a-tac", "d6", 1]]
    elif what == "unknown unit id":
        doc["record"][2]["action"]["args"]["target"] = "b-ghost"
    elif what == "missing roll":
        doc["record"][2]["rolls"].pop()
    elif what == "extra roll":
        doc["record"][0]["rolls"].append(["stray", "d6", 3])
    elif what == "bad die":
        doc["record"][1]["rolls"][0][2] = 7
    elif what == "unknown action":
        doc["record"][0]["action"]["kind"] = "teleport"
    elif what == "unknown faction":
        doc["initial"]["units"][1]["faction"] = "martians"
    elif what == "unknown unit type":
        doc["initial"]["holding"]["B"]["2"][0]["type"] = "mech"
    elif what == "square overfull":
        doc["initial"]["holding"]["A"]["1"] *= 3
    elif what == "blip without square":
        del doc["initial"]["holding"]["B"]["2"]
    elif what == "duplicate id":
        doc["initial"]["blips"][0]["id"] = "a-tac"
    elif what == "infinite coordinate":
        doc["initial"]["units"][0]["x"] = "@1e999@"        # written as the number 1e999, which JSON reads as infinity
    elif what == "crossing polygon":
        doc["initial"]["terrain"] = [{"id": "bow", "type": "woods", "polygon": [[0, 0], [4, 4], [4, 0], [0, 4]]}]
    elif what == "off the table":
        doc["initial"]["objectives"][0]["y"] = 99
    elif what == "move without a point":
        doc["record"][4]["action"]["args"] = {"x": [20], "y": 9}
    elif what == "dice as text":
        doc["record"][1]["action"]["args"]["dice"] = ""
    return doc


DAMAGE = {
    "missing record": "record: required key is missing",
    "wrong type": "initial.units[0].x: Input should be a valid number (got 'ten')",
    "newer version": f"version: this save is in format {record.VERSION + 1}, written by a newer program",
    "unknown old version": "version: save format 0 is not one this program knows",
    "not a save": "format: expected 'seven-seconds-save'",
    "no longer replays": "record[1] (action 2, 'target a-tac --dice-count 2 --assign b-tac=3'): no longer replays: "
                         "the assignment costs 6 points but the sensor pool is 2",
    "unknown unit id": "record[2].action.args.target: no unit, blip or objective 'b-ghost'",
    "missing roll": "record[2] (action 3, 'rifle a-tac b-tac').rolls: the action needs more rolls than the 4 recorded",
    "extra roll": "record[0].rolls: 1 rolls recorded (d6) but the action used 0 (none)",
    "bad die": "record[1].rolls[0]: a die shows 1 to 6 (got 7)",
    "unknown action": "record[0].action.kind: expected one of",
    "unknown faction": "initial.units[1].faction: unknown faction 'martians'",
    "unknown unit type": "initial.holding.B.2[0].type: expected one of",
    "square overfull": "initial.holding.A.1: a square holds at most 2 units (got 3)",
    "blip without square": "initial.holding.B.2: missing, but blip 'b-blip-2' stands for that square",
    "duplicate id": "initial.blips[0].id: 'a-tac' is already used by initial.units[0]",
    "infinite coordinate": "initial.units[0].x: Input should be a finite number",
    "crossing polygon": "initial.terrain[0].polygon: expected a simple polygon whose edges do not cross",
    "off the table": "initial.objectives[0]: centre (18, 99) is off the 36\" x 36\" table",
    "move without a point": "record[4].action.args.x: expected a number of inches from -10000 to 10000 as the x of a "
                            "move action (got [20])",
    "dice as text": "record[1].action.args.dice: expected a whole number from 1 to 100 as the dice of a target action "
                    "(got '')",
}


@pytest.mark.parametrize("what", sorted(DAMAGE))
def test_a_damaged_save_is_reported_by_item_and_kept_as_it_is(tmp_path, what):
    good = tmp_path / "good.json"
    save_game(example_game(), good)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_mutate(json.loads(good.read_text()), what)).replace('"@1e999@"', "1e999"))
    before = bad.read_bytes()
    with pytest.raises(InputError) as e:
        load_game(bad)
    assert e.value.source == str(bad)
    assert any(DAMAGE[what] in p for p in e.value.problems), e.value.problems
    assert bad.read_bytes() == before


@pytest.mark.parametrize("text, expected", [
    ('{"format": "seven-seconds-save", "version": 1, "rec', "line 1, column 48: not valid JSON"),
    ("[1, 2, 3]", "(top level): expected a JSON object"),
    ('{"format": "seven-seconds-save", "version": "1"}', "version: expected a whole number (got '1')"),
    ('{"format": "seven-seconds-save", "version": NaN}', "not valid JSON (NaN is not a number a save may hold)"),
])
def test_a_file_that_is_not_json_or_not_a_save_is_reported(tmp_path, text, expected):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    with pytest.raises(InputError) as e:
        load_game(bad)
    assert expected in e.value.message()
    assert bad.read_text() == text


def test_a_missing_file_is_reported(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        load_game(tmp_path / "nowhere.json")


def test_an_older_known_format_is_migrated(tmp_path, monkeypatch):
    path = save_game(example_game(), tmp_path / "battle.json")
    doc = json.loads(path.read_text())
    # A pretend format 0 that called the record "moves"; its migration step renames it.
    doc["version"] = 0
    doc["moves"] = doc.pop("record")
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))

    def zero_to_one(d):
        d["record"] = d.pop("moves")
        return d

    monkeypatch.setitem(record.MIGRATIONS, 0, zero_to_one)
    loaded = read_save(old)
    assert loaded.version == 0
    assert_example_outcome(loaded.game)


@pytest.mark.parametrize("junk", [1e308, "moves", {"0": {}}, None])
def test_a_format_one_save_whose_record_is_not_a_list_names_the_record(tmp_path, junk):
    """A format-1 save goes through every migration step before it is checked: a step meets whatever the file
    holds, and a record that is not a list is named by the check, not a traceback."""
    doc = json.loads(save_game(example_game(), tmp_path / "battle.json").read_text())
    doc["version"], doc["record"] = 1, junk
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    with pytest.raises(InputError) as e:
        read_save(old)
    assert "record" in e.value.message()


def test_a_replay_that_differs_from_the_saved_battle_is_flagged(tmp_path):
    path = save_game(example_game(), tmp_path / "battle.json")
    doc = json.loads(path.read_text())
    doc["state_digest"] = "0" * 64
    path.write_text(json.dumps(doc))
    loaded = read_save(path)
    assert loaded.warnings and "differs" in loaded.warnings[0]
    assert_example_outcome(loaded.game)


# ---- autosave -----------------------------------------------------------------------------------------------


def test_autosave_and_finding_the_interrupted_battle():
    assert find_interrupted() is None
    game = example_game()
    path = autosave(game, SeededDice(5))
    assert path == autosave_path() and path.parent.name == "saves"
    found = find_interrupted()
    assert found is not None and found.dice.seed == 5
    assert_example_outcome(found.game)
    assert "round 2" in found.summary() and "b-eng" not in found.summary()


def test_autosave_keeps_an_autosave_of_another_game_and_a_damaged_one():
    other = Game(begin_battle(game_state(units=[unit("x", "A", 5, 5), unit("y", "B", 30, 30)])))
    autosave(other)
    old = autosave_path().read_bytes()
    autosave(example_game())
    kept = [p for p in autosave_path().parent.glob("autosave-*.json")]
    assert len(kept) == 1 and kept[0].read_bytes() == old
    assert_example_outcome(find_interrupted().game)

    autosave_path().write_text("{ damaged")
    assert find_interrupted() is None
    problem = damaged_autosave()
    assert problem and str(autosave_path()) in problem and "not valid JSON" in problem and "kept" in problem
    assert autosave_path().read_text() == "{ damaged"
    autosave(example_game())
    assert any(p.read_text() == "{ damaged" for p in autosave_path().parent.glob("autosave-*.json"))
    assert damaged_autosave() is None and find_interrupted() is not None


def test_an_autosave_interrupted_half_way_leaves_the_previous_one_whole(monkeypatch):
    """The write goes to a temporary file that replaces the autosave in one step: a crash while writing (here, the
    disk filling up) leaves the previous autosave as it was, and no temporary file behind."""
    game = example_game()
    autosave(game)
    before = autosave_path().read_bytes()
    game.play(Action("end-turn"), ScriptedDice())

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(storage.os, "fsync", disk_full)
    with pytest.raises(InputError, match="cannot be written"):
        autosave(game)
    assert autosave_path().read_bytes() == before
    # The snapshot and the journal naming it, and no temporary file.
    assert sorted(p.name for p in autosave_path().parent.iterdir()) == ["autosave.journal", autosave_path().name]


def test_a_finished_battle_is_not_offered_for_resuming():
    game = Game(begin_battle(game_state(units=[unit("x", "A", 5, 5), unit("y", "B", 30, 30)], attacker="A")))
    for action in (Action("activate", "x"), Action("end-activation"), Action("activate", "y"),
                   Action("end-activation"), Action("end-of-round", "", {"stop": True})):
        assert game.play(action, ScriptedDice()).legal, action
    assert game.state.phase == "over"
    autosave(game)
    assert read_save(autosave_path()).game.state.phase == "over"
    assert find_interrupted() is None


# ---- the example in the docs, and the replay command in a fresh process ------------------------------------------


class _Tag(str):
    """A text of a subclass of ``str``, as an enumeration's member or a name the program wraps may be."""


def test_the_digests_text_writes_each_number_one_way_whatever_the_type_that_holds_it():
    data = {"b": [1.0, -0.0, 2.5, True, None, "x", False], 3: {"k": (1, 2.0)}, "a": _Tag("move"), _Tag("jump"): 1e20,
            "é": [[]], True: 0.1}
    assert canonical_text(data) == ('{"3":{"k":[1,2]},"True":0.1,"a":"move","b":[1,0,2.5,true,null,"x",false],'
                                    '"jump":100000000000000000000,"é":[[]]}')
    # A save read back holds 1.0 where the battle held 1: the two give one text, so one digest.
    del data[True]
    assert canonical_text(json.loads(json.dumps(data))) == canonical_text(data)


def test_the_example_save_in_the_docs_loads_and_replays():
    loaded = read_save(EXAMPLE)
    assert loaded.warnings == []
    assert_example_outcome(loaded.game)
    ours = example_game()
    # Format 1 named the blips by their squares; read, they carry labels, and the record is the same battle.
    assert not any(re.fullmatch(r"[ab]-blip-\d+", b) for b in loaded.game.state.blips)
    assert square_names(loaded.game, [e.to_data() for e in loaded.game.record]) == \
        plain([e.to_data() for e in ours.record])


@dataclass
class _Ran:
    returncode: int
    stdout: str
    stderr: str


def _replay(*args) -> _Ran:
    """``seven-seconds replay ARGS`` run as the command line runs it (``main``), in this process: its status and what
    it printed. What a save replays to in a new process is held by test_determinism.py."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", *map(str, args)])
    return _Ran(code, out.getvalue(), err.getvalue())


def test_replay_command_shows_a_player_only_what_they_may_see(tmp_path):
    path = save_game(example_game(), tmp_path / "battle.json")
    as_a = _replay(path, "--as", "A", "--json")
    assert as_a.returncode == 0, as_a.stderr
    view = json.loads(as_a.stdout)
    assert view["viewer"] == "A" and view["round"] == 2 and view["initiative"] == "B"
    assert {u["id"]: u["stunned"] for u in view["units"]} == {"a-tac": False, "b-tac": True}
    for secret in ("b-eng", "hold-the-line", "c2d94e7a18f03b65"):
        assert secret not in as_a.stdout
    assert "a-scout" in as_a.stdout and "deep-strike" in as_a.stdout

    whole = _replay(path, "--json")
    assert whole.returncode == 0
    truth = json.loads(whole.stdout)
    assert truth["viewer"] == "referee" and truth["missions"] == {"A": "deep-strike", "B": "hold-the-line"}

    text = _replay(path, "--as", "B")
    assert text.returncode == 0
    assert "round 2, phase action, side B holds the Initiative" in text.stdout
    assert "b-tac (B, tactical, council-of-zane veteran) at (10, 16), facing 270°, 3 Target counters, Stunned" in text.stdout
    assert "a-blip-1 (A, blip) at (20, 9), contents unknown" in text.stdout
    assert "a-scout" not in text.stdout and "b-eng" in text.stdout


def test_replay_command_reveals_the_sealed_documents_only_when_the_battle_is_over(tmp_path):
    game = Game(begin_battle(example_table()))
    for action in (Action("end-turn"), Action("end-turn"), Action("end-of-round", "", {"stop": True})):
        assert game.play(action, ScriptedDice()).legal, action
    assert game.state.phase == "over"
    path = save_game(game, tmp_path / "over.json")
    shown = json.loads(_replay(path, "--as", "B", "--json").stdout)
    for side in ("A", "B"):
        seal = shown["seals"][side]
        assert seal["matches"] and seal["sealed"] == shown["sealed"][side]
        assert hashlib.sha256(seal["document"].encode("utf-8")).hexdigest() == seal["sealed"]
    assert "b-eng" in shown["seals"]["B"]["document"] and "hold-the-line" in shown["seals"]["B"]["document"]
    text = _replay(path, "--as", "A").stdout
    assert "seals made at set-up:" in text and "side B's seal" in text and "matches" in text

    during = save_game(example_game(), tmp_path / "during.json")
    assert "seals" not in json.loads(_replay(during, "--as", "A", "--json").stdout)
    assert "seals made at set-up" not in _replay(during, "--as", "A").stdout


def test_replay_command_refuses_a_damaged_save_with_status_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "seven-seconds-save", "version": 9}')
    out = _replay(bad)
    assert out.returncode == 2 and out.stdout == ""
    assert "version: this save is in format 9, written by a newer program" in out.stderr
    assert "Traceback" not in out.stderr


if __name__ == "__main__":
    write_example()


def test_a_window_battle_saved_by_an_earlier_version_rolls_on_from_fresh_entropy(tmp_path):
    """Its typed seed was salted, and it had no contributions: it rolls on keyed by fresh entropy too."""
    game = Game(begin_battle(example_table()))
    path = save_game(game, tmp_path / "earlier.json")
    doc = json.loads(path.read_text())
    doc["dice"] = {"seed": 2024, "moment": "", "counts": {}, "secret_salt": 77}
    path.write_text(json.dumps(doc))
    one, two = read_save(path).dice, read_save(path).dice
    assert one is not None and two is not None and one.keyed and one.unopened() == []
    die = RollRequest("test", "p.0")
    for d in (one, two):
        d.begin("round 1")
    assert [one.answer(die) for _ in range(20)] != [two.answer(die) for _ in range(20)]
