"""The same save gives the same battle in a new process, whatever order Python iterates its sets and dicts in.

Each check writes a save in this process, then opens it in fresh ``python`` processes with different
``PYTHONHASHSEED`` values (string hashing, so set iteration order, differs between them) and compares:

* ``seven-seconds replay SAVE --json``: the whole replayed battle, as the command prints it, and its state digest;
* ``replay --as A``: what one player is shown;
* a battle resumed from the save with the program's dice and played on: it ends exactly where this process ends
  when it plays on from the moment of saving, so a resumed battle rolls on as if it had never stopped.

The example save in the docs was written on another machine and its ``state_digest`` says where it leads:
``test_record.py`` checks that it still replays to exactly that state.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.players.random_play import play_random
from referee.game.records.record import read_save, save_game, state_digest
from referee.game.play.seal import seal_report
from referee.game.views.view import player_view, referee_view
from referee.paths import ROOT

from .test_random_play import close_quarters, set_up_battle

# Two hash seeds give two orders of iterating sets and dicts of strings: a process that depends on the order prints
# differently under one of them.
HASH_SEEDS = ("0", "4242")

RESUME = """
import json, random, sys
from referee.game.players.random_play import play_random
from referee.game.records.record import read_save, state_digest
save = read_save(sys.argv[1])
play_random(save.game, random.Random(int(sys.argv[2])), int(sys.argv[3]), save.dice)
print(json.dumps({"digest": state_digest(save.game.state), "actions": len(save.game.record)}))
"""


def run(args: list[str], hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    return out.stdout


def played(state, seed: int, steps: int) -> tuple[Game, SeededDice]:
    game = Game(begin_battle(state))
    dice = SeededDice(seed)
    play_random(game, random.Random(seed), steps, dice)
    return game, dice


def plain(data):
    return json.loads(json.dumps(data))


@pytest.fixture(scope="module")
def saves(tmp_path_factory) -> list[tuple[str, Path, Game, SeededDice]]:
    folder = tmp_path_factory.mktemp("determinism")
    out = []
    for name, state, seed, steps in (("close-quarters", close_quarters(), 3, 220), ("full-set-up", set_up_battle(), 5, 220)):
        game, dice = played(state, seed, steps)
        assert len(game.record) > 50
        path = save_game(game, folder / f"{name}.json", dice)
        out.append((name, path, game, dice))
    return out


def test_the_replay_command_gives_the_same_battle_in_new_processes(saves):
    for name, path, game, _ in saves:
        truth = plain(referee_view(game.state))
        digest = state_digest(game.state)
        assert json.loads(path.read_text())["state_digest"] == digest
        outputs = set()
        for hash_seed in HASH_SEEDS:
            text = run(["-m", "referee", "replay", str(path), "--json"], hash_seed)
            outputs.add(text)
            shown = json.loads(text)
            assert shown.pop("save")["state_digest"] == digest, (name, hash_seed)
            assert shown.pop("seals", None) == (plain(seal_report(game)) if game.state.sealed else None)
            assert shown == truth, (name, hash_seed)
        assert len(outputs) == 1, f"{name}: the replay prints differently in different processes"


def test_a_player_is_shown_the_same_in_new_processes(saves):
    name, path, game, _ = saves[1]
    seen = plain(player_view(game.state, "A"))
    for hash_seed in HASH_SEEDS:
        shown = json.loads(run(["-m", "referee", "replay", str(path), "--as", "A", "--json"], hash_seed))
        head = shown.pop("save")
        assert "state_digest" not in head           # the whole truth's digest is not shown to one player
        # The seals' documents are shown once the battle is over (the report), and only then.
        assert shown.pop("seals", None) == (plain(seal_report(game)) if game.state.phase == "over" else None)
        assert shown == seen


def test_a_resumed_battle_plays_on_as_if_it_had_never_stopped(saves):
    for name, path, game, dice in saves:
        # This process plays on from the moment of saving ...
        on = Game(game.initial, list(game.record), game.state)
        play_random(on, random.Random(77), 150, dice)
        assert len(on.record) > len(game.record)
        expected = {"digest": state_digest(on.state), "actions": len(on.record)}
        # ... and so do new processes, from the file.
        for hash_seed in HASH_SEEDS:
            got = json.loads(run(["-c", RESUME, str(path), "77", "150"], hash_seed))
            assert got == expected, (name, hash_seed)
        # The same in this process, from the file.
        again = read_save(path)
        play_random(again.game, random.Random(77), 150, again.dice)
        assert state_digest(again.game.state) == expected["digest"]


def test_the_computer_plays_the_same_battle_in_new_processes(tmp_path):
    """The computer's choices follow its seed and its view only: its set-up and round 1, played in new processes
    that iterate sets in different orders, give the same record, so a benchmark's battle can be played again."""
    records = []
    for hash_seed in HASH_SEEDS:
        out = tmp_path / f"battle-{hash_seed}.json"
        run(["-m", "referee", "selfplay", "--seed", "5", "--rounds", "1", "--players", "computer:normal,computer:easy",
             "--out", str(out)], hash_seed)
        records.append(json.loads(out.read_text(encoding="utf-8"))["record"])
    assert len(records[0]) > 50, "the battle never got going"
    assert records[0] == records[1]
