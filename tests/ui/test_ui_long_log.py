"""A long battle's log is written out and wrapped only where it grew: after every action, hand-off and take-back
the window's log is exactly the one written out in full from the player view."""

import random
from collections import Counter

import pytest

from benchmarks.window_battle import _answer_dialogs, _battle, _proposal
from referee.game.play.engine import Game
from referee.game.battle.state import SIDES
from referee.game.views.view import player_view
from referee.game.play.undo import moment_index
from referee.ui import panels
from referee.service.session import BattleSession
from referee.ui.battle_log import BattleLog, entry_lines
from referee.ui.scenes.battle import BattleScene


def written_in_full(session: BattleSession, side: str | None = None) -> list[str]:
    lines = []
    for e in (player_view(session.state, side) if side else session.view())["log"]:
        line = f"[round {e['round']}] {e['text']}"
        if e.get("note"):
            line += f"  (only you: {e['note']})"
        lines.append(line)
        lines.extend(f"    {x}" for x in e["explain"][1:] if x)
    return lines


def same_as_in_full(scene: BattleScene, session: BattleSession) -> None:
    scene.show_log()
    assert list(scene.log_lines) == written_in_full(session)
    width = scene.layout.log.w - 2 * panels.PAD
    assert list(scene.log_wrapped) == panels.log_lines(written_in_full(session), width)


def test_the_log_written_as_it_grows_is_the_log_written_in_full(app, tmp_path, monkeypatch):
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path))
    state, dice = _battle(5)
    session = BattleSession(Game(state), dice, hotseat=True, autosaving=False)
    scene = app.push(BattleScene(session))
    _answer_dialogs(app, scene)
    rng = random.Random(5)
    viewers = set()
    for n in range(80):
        scene.do(_proposal(session.state, rng))
        scene.say("a message between two actions", ["it replaces the log for a moment"])
        _answer_dialogs(app, scene)
        viewers.add(session.viewer)
        same_as_in_full(scene, session)
        if n == 40:
            # A take-back rebuilds the battle: the log is written out afresh, and the count of actions with it.
            check = session.undo_check()
            if check.allowed:
                session.undo(consent=True)
                scene.refresh()                    # the window draws the screen it is given: the new one
                same_as_in_full(scene, session)
                assert moment_index(session.game) == 1 + sum(
                    1 for e in session.game.record if e.action.kind != "taken-back")
    assert viewers == {"A", "B"}                   # the hand-offs were crossed both ways
    app.pop()


def test_each_players_log_read_as_it_grows_is_their_player_views_log(app, tmp_path, monkeypatch):
    """Both players' logs, kept up to date entry by entry through the hand-offs, blip reveals and private notes of a
    seeded battle, read exactly as each player's view of the whole log does: every line, and any screenful of the
    wrapped lines. Proposals drawn with seed 8 reach a Scramble by action 66: 120 actions."""
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path))
    each_players_log_as_it_grows(app, seed=8, actions=120)


@pytest.mark.soak
def test_each_players_log_read_as_it_grows_over_six_rounds(app, tmp_path, monkeypatch):
    """The same over 420 actions (six rounds), the Scramble at action 314."""
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path))
    each_players_log_as_it_grows(app, seed=5, actions=420)


def each_players_log_as_it_grows(app, seed: int, actions: int) -> None:
    state, dice = _battle(5)
    session = BattleSession(Game(state), dice, hotseat=True, autosaving=False)
    scene = app.push(BattleScene(session))
    _answer_dialogs(app, scene)
    logs = {side: BattleLog(side) for side in SIDES}
    width = scene.log_width()
    rng = random.Random(seed)
    viewers, private = set(), Counter()
    for n in range(actions):
        scene.do(_proposal(session.state, rng))
        _answer_dialogs(app, scene)
        viewers.add(session.viewer)
        for side, log in logs.items():
            log.sync(session.log_for(log.viewer), {}, width)
            if n % 9 and n != actions - 1:
                continue                           # read every action, compared in full every few
            full = written_in_full(session, side)
            assert list(log.lines) == full
            wrapped = panels.log_lines(full, width)
            assert len(log.wrapped) == len(wrapped)
            for start in (0, len(wrapped) // 3, len(wrapped) - 25):
                start = max(0, start)
                assert log.wrapped[start:start + 25] == wrapped[start:start + 25]
            assert log.wrapped[-1] == wrapped[-1] and log.lines[-1] == full[-1]
            private[side] = sum("(only you:" in line for line in full)
    done = Counter(e.action.kind for e in session.game.record)
    assert viewers == {"A", "B"} and done["reveal"] and done["scramble"], (viewers, done)
    assert private["A"] != private["B"], private        # a Scramble's square reached its owner's log only
    app.pop()


def test_a_computer_reason_given_after_its_entries_were_read_is_written_where_it_belongs(app, tmp_path, monkeypatch):
    """A reason follows the entry before its key; an end of turn's goes before the next turn's heading, which the log
    may already hold: the entries from there are read again, and the lines are those written out in full."""
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path))
    state, dice = _battle(5)
    session = BattleSession(Game(state), dice, hotseat=True, autosaving=False)
    scene = app.push(BattleScene(session))
    _answer_dialogs(app, scene)
    rng = random.Random(7)
    for _ in range(30):
        scene.do(_proposal(session.state, rng))
        _answer_dialogs(app, scene)
    log, notes = BattleLog("A"), {}
    width = scene.log_width()
    log.sync(session.log_for(log.viewer), notes, width)
    n = len(session.state.log)
    notes[n - 3] = "ends its turn: nothing in reach"      # follows the entry three before the last
    notes[n] = "moves up"                                # follows the last
    log.sync(session.log_for(log.viewer), notes, width)

    def with_notes() -> list[str]:
        lines = []
        for i, e in enumerate(player_view(session.state, "A")["log"]):
            lines.extend(entry_lines(e, notes.get(i + 1)))
        return lines

    assert list(log.lines) == with_notes()
    assert "    the computer: ends its turn: nothing in reach" in log.lines
    assert list(log.wrapped) == panels.log_lines(with_notes(), width)
    app.pop()
