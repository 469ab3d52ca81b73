"""The computer's reason for each of its decisions is kept in the battle's record where the record is sealed (its
key is its own): a battle reopened after a crash still shows every reason once it is over, and no file in clear
holds one (they hint at what its blips hold)."""

from __future__ import annotations

import json
import random

from referee.game.players.computer import Computer
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.players.legal_play import choose
from referee.game.play.session import Session
from referee.service.opening import read_battle
from referee.service.replay import TRUTH, BattleReplay
from referee.service.session import BattleSession

from .battles import ThroughSession, finish
from .file_spy import table_set


def _played(session: BattleSession, actions: int, seed: int = 4) -> None:
    """Both sides through the service: the computer's decisions as the window plays them, the human's at random."""
    rng = random.Random(seed)
    engine = Session(session.game)
    for _ in range(actions):
        if session.computer_to_act():
            decided = session.computer_act()
            assert decided is not None
            assert session.attempt(decided[0]).legal
        else:
            action = choose(engine, rng)
            assert action is not None
            session.attempt(action)


def _battle(sealed: bool) -> BattleSession:
    start = table_set()
    game = Game(start.initial, list(start.record), start.state.copy())
    session = BattleSession(game, SeededDice(21), hotseat=True, computer=Computer("B", "easy", 5), autosaving=False)
    if sealed:
        session.seal_with({"A": "human-pin"})
    _played(session, 30)
    return session


def test_a_sealed_battle_reopened_keeps_every_reason_of_the_computer(tmp_path):
    session = _battle(sealed=True)
    reasons = list(session.computer_reasons)
    assert len(reasons) >= 10                              # its set-up decisions at least
    path = session.save(tmp_path / "battle.json")
    text = path.read_text()
    for line in reasons:                                   # none readable in the file
        assert line.split(": ", 1)[1] not in text
    again = read_battle(path).unlock({"A": "human-pin"}).open()
    assert again.computer_reasons == reasons and not again.computer_reopened
    # Played on after reopening: the new reasons follow the kept ones.
    _played(again, 10, seed=5)
    assert again.computer_reasons[:len(reasons)] == reasons


def test_a_battle_in_clear_holds_no_reason_of_the_computer(tmp_path):
    session = _battle(sealed=False)
    assert session.computer_reasons
    path = session.save(tmp_path / "battle.json")
    doc = json.loads(path.read_text())
    assert all("why" not in entry for entry in doc["record"])
    for line in session.computer_reasons:
        assert line.split(": ", 1)[1] not in path.read_text()


def test_the_replay_of_a_finished_battle_gives_each_of_its_actions_its_reason():
    session = _battle(sealed=True)
    rng, engine = random.Random(9), Session(session.game)
    for _ in range(600):                              # on to the end of round 1, the computer deciding for B
        if session.state.phase not in ("setup", "action"):
            break
        if session.computer_to_act():
            decided = session.computer_act()
            assert decided is not None
            session.attempt(decided[0])
        elif (action := choose(engine, rng)) is not None and action.kind != "end-of-round":
            session.attempt(action)
    assert session.state.phase == "end-of-round"
    finish(ThroughSession(session), None, "A")                # the human's side withdraws: the battle is over
    replay = BattleReplay(session.game)
    told = [line for n in range(1, replay.steps + 1) for line in replay.news(n, TRUTH)
            if line.startswith("the computer's reason: ")]
    assert len(told) == len(session.computer_reasons) >= 10
    assert [line.removeprefix("the computer's reason: ") for line in told] == \
        [r.split(": ", 1)[1] for r in session.computer_reasons]
    assert not any("the computer's reason" in line for n in range(1, 20) for line in replay.news(n, "A"))
