"""Hard may withdraw at the end of a round (p.16, A43): in the window the human is asked to allow it or pursue, and
the battle ends or goes on by that answer, as a Withdraw between two people does."""

from referee.game.battle.action_kinds import Kind
from referee.game.players.computer.levels import level
from tests.ui.test_ui_computer import start_against_computer
from tests.ui.test_ui_last_round import _to_the_end_of_the_round


def _withdrawing_computer(app):
    scene, session = start_against_computer(app, seed=11, opponent="The computer plays side B, hard")
    s = session.state
    # A Chance Encounter: Break Contact pays the computer for each of its troopers still alive (A42 sample cards).
    s.attacker = None
    s.missions["A"], s.missions["B"] = "attrition", "break-contact"
    # Its word at the end of the round is hard's own; the round's moves before it are not what is tested, and are
    # decided at the easy level, a tenth of hard's search.
    computer, hard, easy = session.computer, session.computer.level, level("easy")
    decide = computer.decide

    def decide_in_round_at_easy(view, legal, avoid=frozenset()):
        computer.level = hard if {la.kind for la in legal} == {Kind.END_OF_ROUND} else easy
        return decide(view, legal, avoid)

    computer.decide = decide_in_round_at_easy
    dialog = _to_the_end_of_the_round(app, scene, session)
    return scene, session, dialog


def test_the_human_allows_or_pursues_the_computers_withdraw(fresh):
    scene, session, dialog = _withdrawing_computer(fresh)
    assert session.state.round == 1
    assert [k for k, _ in dialog.choices] == ["allow", "pursue", "both"], dialog.text_lines()
    text = " ".join(dialog.text_lines())
    assert "The computer (side B) withdraws." in text
    assert "break-contact" not in text and "Break Contact" not in text, "its mission stays its own"
    dialog.choose("pursue")
    s = session.state
    assert s.pursuit == "B" and s.round == 2 and not session.over
    assert any("side B withdraws; side A pursues" in e.text for e in s.log)


def test_an_allowed_withdraw_ends_the_battle_with_the_human_in_control(fresh):
    scene, session, dialog = _withdrawing_computer(fresh)
    dialog.choose("allow")
    s = session.state
    assert session.over or (s.result is not None and s.result.pending)
    assert s.control == "A"
    assert any("side B withdraws and side A allows it" in e.text for e in s.log)


def test_an_offer_to_stop_the_computer_does_not_agree_to_is_in_the_log(fresh, monkeypatch):
    scene, session = start_against_computer(fresh, seed=11)
    # The computer's own choices are not what is tested here: it plays on and makes no offer of its own.
    monkeypatch.setattr(type(session), "computer_agrees_to_stop", lambda self: False)
    monkeypatch.setattr(type(session), "computer_end_of_round", lambda self: None)
    dialog = _to_the_end_of_the_round(fresh, scene, session)
    assert "stop" in [k for k, _ in dialog.choices], dialog.text_lines()
    before = len(session.state.log)
    dialog.choose("stop")
    s = session.state
    assert s.round == 2 and not session.over
    assert any(e.text.startswith("side A offers to stop; side B does not agree: the battle goes on")
               for e in s.log[before:])
    assert session.game.record[-1].action.args == {"offered": "A"}
