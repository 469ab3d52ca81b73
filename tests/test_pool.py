"""Every die is recorded when it is rolled, the Target pool included (issue 32, item 3): a pool rolled, the battle
quit and resumed, gives the same pool, logged; the Target spends exactly its dice; nothing else is done meanwhile;
taking the roll back needs the other side's consent."""

from __future__ import annotations

from referee.game.records.autosave import autosave_path, read_autosave
from referee.game.battle.intents import Action
from referee.game.views.view_words import log_lines
from referee.game.views.view import player_view
from referee.rules.errors import InputError
from referee.service.session import BattleSession

from .test_undo import battle


def rolled(seed: int = 5, dice: int = 2) -> BattleSession:
    session = battle(seed)
    session.autosaving = True
    assert session.attempt(Action("activate", "a-tac")).legal
    out = session.roll_pool("a-tac", dice)
    assert out.legal
    return session


def test_a_pool_rolled_then_the_battle_quit_and_resumed_is_the_same_pool_logged():
    session = rolled()
    pool = session.pool()
    assert pool is not None and pool["actor"] == "a-tac" and len(pool["rolls"]) == 2
    faces = [int(r[2]) for r in pool["rolls"]]
    # The window is closed: the autosave is all that is left.
    resumed = read_autosave(autosave_path())
    again = BattleSession(resumed.game, resumed.dice, hotseat=True, viewer="A", autosaving=False)
    assert again.pool() == pool
    words = f"a-tac rolls its sensor pool: {faces[0]} + {faces[1]} = {sum(faces)}"
    assert any(words in line for line in log_lines(player_view(again.state, "B")))
    # The Target placed after the resume spends exactly those dice: the pool, not a new roll.
    out = again.attempt(Action("target", "a-tac", {"dice": 2, "assign": {}}))
    assert out.legal and again.pool() is None
    assert any(f"pool {sum(faces)}" in e for e in out.outcome.events)
    assert again.game.record[-1].rolls == []


def test_while_a_pool_waits_nothing_else_is_done_and_the_pool_cannot_be_rolled_again():
    session = rolled()
    before = (session.state.to_data(), len(session.game.record))
    for action in (Action("sensor-pool", "a-tac", {"dice": 1}), Action("end-activation", ""),
                   Action("move", "a-tac", {"x": 10, "y": 3}), Action("target", "a-tac", {"dice": 1, "assign": {}})):
        out = session.attempt(action)
        assert not out.legal and "p.19" in out.outcome.reason, action
    assert (session.state.to_data(), len(session.game.record)) == before


def test_the_pool_is_taken_back_only_with_consent():
    session = rolled()
    check = session.undo_check()
    assert check.allowed and check.needs_consent and "rolled 2 dice" in check.why_consent
    try:
        session.undo()
    except InputError as e:
        assert "must agree" in " ".join(e.problems)
    else:
        raise AssertionError("the pool was taken back without consent")
    assert session.pool() is not None
    session.undo(consent=True)
    assert session.pool() is None


def test_the_target_that_spent_a_pool_is_taken_back_only_with_consent():
    session = rolled()
    pool = session.pool()
    assert session.attempt(Action("target", "a-tac", {"dice": 2, "assign": {}})).legal
    check = session.undo_check()
    assert check.needs_consent and "sensor pool" in check.why_consent
    # Agreed: the Target is taken back and its note logged beside the pool, which waits again, rolled as it was (the
    # note was refused as an action other than the Target, and the window closed on the error).
    session.undo(consent=True)
    assert session.pool() == pool and session.game.record[-1].action.kind == "taken-back"
    assert session.attempt(Action("target", "a-tac", {"dice": 2, "assign": {}})).legal and session.pool() is None


def test_while_a_pool_waits_the_legal_actions_are_its_target_alone():
    from referee.game.play.legal import legal_actions, offers

    session = battle(5)
    assert session.attempt(Action("activate", "a-tac")).legal
    # Before the roll the pool is offered wherever the Target is: it is the Target's first half.
    assert offers(session.state, "sensor-pool", "a-tac") == offers(session.state, "target", "a-tac") is True
    assert session.roll_pool("a-tac", 2).legal
    listed = legal_actions(session.state, "A")
    assert [(a.kind, a.actor, a.free["dice"]) for a in listed] == [("target", "a-tac", [2, 2])]
    assert offers(session.state, "target", "a-tac")
    for kind in ("move", "rifle", "end-activation", "sensor-pool"):
        assert not offers(session.state, kind, "a-tac" if kind != "end-activation" else ""), kind
