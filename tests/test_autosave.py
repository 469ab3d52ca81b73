"""The autosave (issue 11, finding 9): a snapshot, then one journal line per action; never re-read after an action;
a kill loses nothing written; leftover temporary files are removed at start."""

from __future__ import annotations

import json
import random

from referee.game.records import record
from referee.game.battle.intents import Action
from referee.game.records.autosave import journal_path, read_autosave
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.players.random_play import random_action
from referee.game.records.autosave import autosave_path, find_interrupted
from referee.game.records.record import state_digest
from referee.game.play.setup import SetupChoices, new_battle
from referee.rules.scenario import parse_scenario
from referee.service.session import BattleSession

from .tables import rect

TABLE = parse_scenario({"name": "open field", "table": {"width": 36, "height": 36},
                        "terrain": [rect("w1", "woods", 14, 14, 20, 20)]}, "open field")


def session(seed: int = 4) -> BattleSession:
    state, _ = new_battle(TABLE, SetupChoices({"A": "council-of-zane", "B": "new-tokyo"}), SeededDice(seed))
    return BattleSession(Game(state), SeededDice(seed), hotseat=False)


def play(s: BattleSession, rng: random.Random, legal: int) -> None:
    done = 0
    while done < legal and s.state.phase != "over":
        action = random_action(s.state, rng)
        if action.kind in ("end-of-round", "objectives") and s.state.phase == "action":
            continue
        done += s.attempt(action).legal


def test_each_action_appends_one_line_and_nothing_is_read_back(monkeypatch):
    s = session()
    rng = random.Random(1)
    play(s, rng, 1)
    snapshot = autosave_path().read_bytes()
    before = len(s.game.record)
    with monkeypatch.context() as m:
        # From now on the autosave must not read any save file.
        m.setattr(record, "_read", lambda path: (_ for _ in ()).throw(AssertionError(f"read {path}")))
        play(s, rng, 30)
    assert autosave_path().read_bytes() == snapshot                       # the snapshot is not rewritten
    header, *lines = journal_path(autosave_path()).read_text().splitlines()
    assert json.loads(header) == {"extends": json.loads(snapshot)["snapshot"]}      # the journal names its snapshot
    assert len(lines) == len(s.game.record) - before
    assert all("entry" in json.loads(line) for line in lines)
    again = read_autosave(autosave_path())
    assert state_digest(again.game.state) == state_digest(s.state)


def test_a_kill_in_the_middle_of_a_line_loses_only_that_action():
    s = session(5)
    play(s, random.Random(2), 20)
    journal = journal_path(autosave_path())
    whole = journal.read_bytes()
    journal.write_bytes(whole + b'{"entry": {"action": {"kind": "mo')
    resumed = find_interrupted()
    assert resumed is not None and state_digest(resumed.game.state) == state_digest(s.state)


def test_a_take_back_is_journalled_too():
    from .test_undo import battle

    s = battle()
    s.autosaving = True
    assert s.attempt(Action("activate", "a-tac")).legal
    assert s.attempt(Action("move", "a-tac", {"x": 10, "y": 3})).legal
    assert s.undo() == "move a-tac 10 3"
    assert json.loads(journal_path(autosave_path()).read_text().splitlines()[-1]) == {"back_to": 1}
    assert s.attempt(Action("move", "a-tac", {"x": 11, "y": 3})).legal
    assert state_digest(read_autosave(autosave_path()).game.state) == state_digest(s.state)


def test_leftover_temporary_files_are_removed_at_start():
    folder = autosave_path().parent
    folder.mkdir(parents=True, exist_ok=True)
    leftover = folder / ".autosave.json.k3j9x.tmp"
    leftover.write_text('{"initial": "every secret"}')
    kept = folder / "battle.json"
    kept.write_text("{}")
    find_interrupted()
    assert not leftover.exists() and kept.exists()


def test_an_autosave_says_it_was_saved_at_its_last_action_not_at_its_snapshot():
    """The resume offer names when the battle was last saved: the journal's last action, not the snapshot that
    started it (issue 36)."""
    import os

    s = session()
    play(s, random.Random(1), 3)
    journal = journal_path(autosave_path())
    assert journal.exists()
    snapshot_saved = json.loads(autosave_path().read_text())["saved_at"]
    last_action = 2_000_000_000                       # 2033-05-18T03:33:20+00:00
    os.utime(journal, (last_action, last_action))
    save = read_autosave(autosave_path())
    assert save.saved_at == "2033-05-18T03:33:20+00:00" != snapshot_saved
    assert save.summary().endswith("(saved 2033-05-18T03:33:20+00:00)")
