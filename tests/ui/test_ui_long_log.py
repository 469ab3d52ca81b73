"""A long battle's log is written out and wrapped only where it grew: after every action, hand-off and take-back
the window's log is exactly the one written out in full from the player view."""

import random


from benchmarks.window_battle import _answer_dialogs, _battle, _proposal
from referee.game.engine import Game
from referee.game.undo import moment_index
from referee.ui import panels
from referee.ui.battle import BattleSession
from referee.ui.scenes.battle import BattleScene


def written_in_full(session: BattleSession) -> list[str]:
    lines = []
    for e in session.view()["log"]:
        line = f"[round {e['round']}] {e['text']}"
        if e.get("note"):
            line += f"  (only you: {e['note']})"
        lines.append(line)
        lines.extend(f"    {x}" for x in e["explain"][1:] if x)
    return lines


def same_as_in_full(scene: BattleScene, session: BattleSession) -> None:
    scene.show_log()
    assert scene.log_lines == written_in_full(session)
    width = scene.layout.log.w - 2 * panels.PAD
    assert scene.log_wrapped == panels.log_lines(scene.log_lines, width)


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
                same_as_in_full(scene, session)
                assert moment_index(session.game) == 1 + sum(
                    1 for e in session.game.record if e.action.kind != "taken-back")
    assert viewers == {"A", "B"}                   # the hand-offs were crossed both ways
    app.pop()
