"""Each side's secrets sealed at rest (issue 32): a spy playing side A, with A's PIN and read access to every file
the program wrote, reads none of side B's secrets; a sealed save opens with both PINs to the same battle, shows
the public battle and one side's secrets with that side's PIN, and refuses a wrong PIN or an edited part."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from referee import paths
from referee.cli.main import main
from referee.game.records.autosave import autosave_path, read_autosave
from referee.game.records.record import read_save, state_digest
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.records.record import save_game
from referee.game.play.setup import SetupChoices
from referee.game.records.sealing import KDF_N, Keyring, Locked, WrongKey, join_state, public_battle, split_state
from referee.service.session import BattleSession

from referee.game.players.computer import Computer
from referee.service.opening import SealedBattle, interrupted_battle, read_battle

from .battles import finished_battle
from .file_spy import killed_while_writing, play_battle, spy_on, table_set


def spy_on_battles(battles: int) -> None:
    pins = {}
    for seed in range(battles):
        session = play_battle(seed, 25)
        assert session.game.keys is not None
        pins[session.game.keys.battle] = session.game.keys.pins["A"]
        session.save(paths.saves_dir() / f"battle-{seed}.json")
    if hasattr(os, "fork"):
        killed_while_writing(session, paths.saves_dir() / "killed.json")     # a temporary file left by a kill
        assert any(p.name.startswith(".killed.json.") for p in paths.saves_dir().iterdir())
    files = sorted(p.name for p in paths.saves_dir().iterdir())
    assert len([f for f in files if f.startswith("autosave-") and f.endswith(".json")]) == battles - 1  # kept copies
    found = spy_on([paths.saves_dir()], pins)
    assert found.files >= 3 * battles
    assert found.secrets == {}


def test_a_spy_with_every_file_reads_none_of_the_other_sides_secrets():
    spy_on_battles(16)


@pytest.mark.soak
def test_a_spy_with_every_file_of_fifty_battles_reads_none_of_the_other_sides_secrets():
    spy_on_battles(50)


def test_the_same_spy_reads_the_secrets_of_battles_written_in_clear():
    """The spy is not blind: without PINs (as every battle was written before) it reads B's secrets."""
    for seed in range(3):
        play_battle(seed, 25, sealed=False).save(paths.saves_dir() / f"battle-{seed}.json")
    found = spy_on([paths.saves_dir()], {})
    assert found.secrets["holding"] >= 3 and found.secrets["salts"] >= 3 and found.secrets["dice"] >= 3
    assert found.secrets["place-blip"] >= 3


def test_a_sealed_save_opens_with_both_pins_to_the_same_battle():
    session = play_battle(7, 70)
    path = session.save(paths.saves_dir() / "battle.json")
    again = read_save(path, Keyring({"A": "pin-a-7", "B": "pin-b-7"}))
    assert state_digest(again.game.state) == state_digest(session.state)
    assert len(again.game.record) == len(session.game.record)
    auto = read_autosave(autosave_path(), Keyring({"A": "pin-a-7", "B": "pin-b-7"}))
    assert state_digest(auto.game.state) == state_digest(session.state)


def test_the_sealed_autosave_offered_for_resuming_is_named_as_its_journal_left_it():
    """The menu names the interrupted battle from what anyone may read of its autosave: after the snapshot taken as
    the battle began, the journal's actions (a sealed line carries where the battle stood, in clear), never the
    snapshot's own count (it said "set-up, 1 action" of a battle well into round 1)."""
    session = play_battle(7, 70)
    offered = interrupted_battle()
    assert isinstance(offered, SealedBattle)
    state, count = session.state, len(session.game.record)
    where = f"round {state.round}, action, side {state.turn.player} to play" if state.phase == "action" else ""
    assert f": {where}, {count} actions (saved " in offered.summary(), (offered.summary(), where, count)
    assert not offered.over


def test_one_pin_shows_the_public_battle_and_that_sides_secrets_only():
    session = play_battle(8, 70)
    path = session.save(paths.saves_dir() / "battle.json")
    doc = json.loads(path.read_text())
    with pytest.raises(Locked, match="side B"):
        read_save(path, Keyring({"A": "pin-a-8"}))
    seen = public_battle(doc, Keyring({"A": "pin-a-8"}), str(path))
    truth = session.state
    assert seen.opened == ("A",)
    assert seen.state["holding"] == {"A": json.loads(json.dumps(truth.to_data()["holding"]["A"]))}
    assert "B" not in seen.state["salts"] and "B" not in seen.state["missions"]
    assert {b["square"] for b in seen.state["blips"] if b["side"] == "B"} == {0}
    assert [e["text"] for e in seen.state["log"]] == [e.text for e in truth.log]      # the public record
    nobody = public_battle(doc, None, str(path))
    assert nobody.opened == () and nobody.state["holding"] == {}


def test_a_wrong_pin_or_an_edited_part_is_refused_by_name():
    session = play_battle(9, 60)
    path = session.save(paths.saves_dir() / "battle.json")
    with pytest.raises(WrongKey, match="sides.B"):
        read_save(path, Keyring({"A": "pin-a-9", "B": "pin-b-0"}))
    doc = json.loads(path.read_text())
    doc["public"]["actions"] -= 1                 # the part of another point of the record
    path.write_text(json.dumps(doc))
    with pytest.raises(WrongKey):
        read_save(path, Keyring({"A": "pin-a-9", "B": "pin-b-9"}))


def test_the_programs_keys_cost_scrypt_at_2_to_the_15_and_a_file_opens_at_the_cost_it_states():
    """The suite's keyrings cost 2^10 (tests/conftest.py); the program's own cost 2^15, and a battle sealed at that
    cost opens with its PINs and refuses a wrong one."""
    made = subprocess.run([sys.executable, "-c", "from referee.game.records.sealing import Keyring; "
                           "print(Keyring().cost)"], capture_output=True, text=True, check=True)
    assert KDF_N == 2 ** 15 and made.stdout.strip() == str(KDF_N)
    assert Keyring().cost == 2 ** 10                                # the suite's own keys (tests/conftest.py)
    session = play_battle(11, 30)
    assert session.game.keys is not None
    session.game.keys = Keyring(session.game.keys.pins, cost=KDF_N)
    path = session.save(paths.saves_dir() / "battle.json")
    doc = json.loads(path.read_text())
    assert {doc["kdf"][side]["n"] for side in "AB"} == {KDF_N}
    again = read_save(path, Keyring({"A": "pin-a-11", "B": "pin-b-11"}))
    assert state_digest(again.game.state) == state_digest(session.state)
    with pytest.raises(WrongKey):
        read_save(path, Keyring({"A": "pin-a-11", "B": "pin-b-12"}))


def test_split_and_join_give_the_state_back_exactly():
    session = play_battle(10, 90)
    for state in (session.game.initial, session.state):
        data = json.loads(json.dumps(state.to_data()))
        public, sides = split_state(data)
        assert join_state(public, sides) == data
        assert "B" not in json.dumps(public["holding"]) and not public["salts"]


def test_replay_shows_a_sealed_save_by_the_pins_given(tmp_path, capsys, monkeypatch):
    session = play_battle(11, 70)
    path = session.save(tmp_path / "battle.json")
    missions = session.state.missions
    pins = tmp_path / "pins"
    pins.write_text("A: pin-a-11\n")
    assert main(["replay", str(path), "--no-log", "--pin-file", str(pins)]) == 0
    out = capsys.readouterr().out
    assert "side A's view" in out and f"mission card: {missions['A']}" in out and missions["B"] not in out
    assert main(["replay", str(path), "--no-log"]) == 0
    out = capsys.readouterr().out
    assert "public view" in out and missions["A"] not in out and missions["B"] not in out
    monkeypatch.setenv("SEVEN_SECONDS_PIN_A", "pin-a-11")
    monkeypatch.setenv("SEVEN_SECONDS_PIN_B", "pin-b-11")
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["missions"] == missions
    monkeypatch.setenv("SEVEN_SECONDS_PIN_B", "pin-b-12")
    assert main(["replay", str(path)]) == 2
    assert "sides.B: does not open with side B's PIN" in capsys.readouterr().err


def test_a_turn_file_holds_the_public_battle_and_its_sides_part_only(tmp_path, capsys, monkeypatch):
    session = play_battle(12, 70)
    path = session.save(tmp_path / "battle.json")
    missions = session.state.missions
    mail = tmp_path / "mail"
    assert main(["turn", "write", str(path), "--side", "B", "--out", str(mail / "turn-B.json")]) == 0
    capsys.readouterr()
    # Side A receives B's turn file: with A's PIN, and every file in the folder, none of B's secrets.
    assert spy_on([mail], {session.game.keys.battle: "pin-a-12"}).secrets == {}
    monkeypatch.setenv("SEVEN_SECONDS_PIN_A", "pin-a-12")
    assert main(["turn", "show", str(mail / "turn-B.json"), "--no-log"]) == 0
    out = capsys.readouterr().out
    assert "public view" in out and missions["B"] not in out and missions["A"] not in out
    # Side B opens its own part with its PIN.
    monkeypatch.setenv("SEVEN_SECONDS_PIN_B", "pin-b-12")
    assert main(["turn", "show", str(mail / "turn-B.json"), "--no-log"]) == 0
    out = capsys.readouterr().out
    assert "side B's view" in out and f"mission card: {missions['B']}" in out and missions["A"] not in out


def test_against_the_computer_its_side_is_sealed_under_a_key_kept_outside_the_saves(tmp_path):
    start = table_set()
    game = Game(start.initial, list(start.record), start.state.copy())
    session = BattleSession(game, SeededDice(13), hotseat=True, computer=Computer("B", "easy", 987654321))
    session.seal_with({"A": "human-pin"})
    path = session.save(tmp_path / "battle.json")
    text = path.read_text()
    assert "987654321" not in text and json.loads(text)["public"]["players"] == {"B": {"kind": "computer",
                                                                                       "level": "easy"}}
    keys = sorted((paths.user_data_dir() / "keys").iterdir())
    assert [k.name for k in keys] == [f"{session.game.keys.battle}.key"] and keys[0].stat().st_mode & 0o077 == 0
    assert not any(p.suffix == ".key" for p in paths.saves_dir().glob("*"))
    # The human's PIN alone opens the battle again: the computer's key is the program's.
    sealed = read_battle(path)
    assert sealed.sides() == ("A",)
    again = sealed.unlock({"A": "human-pin"}).open()
    assert again.computer is not None and again.computer.seed == 987654321


def test_against_the_computer_a_player_who_sets_no_pin_still_leaves_its_secrets_sealed(tmp_path):
    start = table_set()
    game = Game(start.initial, list(start.record), start.state.copy())
    session = BattleSession(game, SeededDice(13), hotseat=True, computer=Computer("B", "easy", 987654321))
    session.seal_with({})                                  # the window: the player skipped the PIN
    path = session.save(tmp_path / "battle.json")
    doc = json.loads(path.read_text())
    assert doc["version"] == 5 and "987654321" not in path.read_text()
    assert not any(doc["public"]["state"]["holding"].values())          # neither holding area in clear
    battle = session.game.keys.battle
    keys = sorted(k.name for k in (paths.user_data_dir() / "keys").iterdir())
    assert keys == sorted([f"{battle}.key", f"{battle}-A.key"])
    # Nobody is asked for a PIN to go on: both keys are the program's.
    sealed = read_battle(path)
    assert sealed.sides() == ()
    again = sealed.unlock({}).open()
    assert again.computer is not None and again.state.holding["B"] == session.state.holding["B"]


def test_a_finished_battle_shows_both_sides_without_a_pin_and_keeps_its_record_sealed(tmp_path, capsys):
    """The rules reveal both sides at the end (the end-of-battle report): a player who forgot their PIN still sees
    the other side's holding area and mission; the record and the dice stay under both PINs."""
    game, dice = finished_battle(SetupChoices({"A": "council-of-zane", "B": "new-tokyo"}))
    game.keys = Keyring({"A": "aaaa", "B": "bbbb"}, cost=2 ** 10)
    path = save_game(game, tmp_path / "over.json", dice)
    assert main(["replay", str(path), "--no-log", "--pin-file", str(_pins(tmp_path, "A: aaaa"))]) == 0
    out = capsys.readouterr().out
    assert "both sides revealed" in out and f"mission card: {game.state.missions['B']}" in out
    with pytest.raises(Locked):
        read_save(path, Keyring({"A": "aaaa"}))
    doc = json.loads(path.read_text())
    assert "record" not in json.dumps(doc["public"]) and "seed" not in json.dumps(doc["public"])


def _pins(folder, text):
    path = folder / "pins"
    path.write_text(text + "\n")
    return path


def test_replay_opens_the_side_whose_key_the_program_keeps_and_never_the_computers(tmp_path, capsys):
    start = table_set()
    game = Game(start.initial, list(start.record), start.state.copy())
    session = BattleSession(game, SeededDice(13), hotseat=True, computer=Computer("B", "easy", 987654321))
    session.seal_with({})                                  # the player let the program keep the key
    path = session.save(tmp_path / "battle.json")
    assert main(["replay", str(path), "--no-log"]) == 0
    out = capsys.readouterr().out
    assert "side A's view" in out and "side B's view" not in out
