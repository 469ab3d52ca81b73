"""Fair Undo (issue 11, finding 6): only the side to act's own last action, within its own turn; dice and reveals
only with the other player's consent, logged for both; the same dice when the action is taken again."""

from __future__ import annotations

import pytest

import random

from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice, SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.players.random_play import play_random
from referee.game.records.record import read_save, save_game
from referee.game.views.view import player_view
from referee.game.views.view_words import log_lines
from referee.rules.errors import InputError
from referee.service.session import BattleSession

from .tables import game_state, unit
from .test_random_play import data_of, skirmish


def c(ident, side, type="tactical"):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type}


def battle(seed: int = 5) -> BattleSession:
    """Side A's tactical facing side B's tactical 10" away, with a B blip that holds a scout between them."""
    s = game_state(units=[unit("a-tac", "A", 10, 2, facing=90), unit("a-two", "A", 20, 2, facing=90),
                          unit("b-tac", "B", 10, 12, facing=270, target_counters=3), unit("b-two", "B", 20, 12, facing=270)],
                   blips=[{"id": "b-blip-KX", "side": "B", "x": 17, "y": 9, "square": 5,
                           "contents": [c("b-scout", "B", "scout")]},
                          {"id": "b-blip-MA", "side": "B", "x": 30, "y": 30, "square": 9, "contents": []}],
                   attacker="A")
    return BattleSession(Game(begin_battle(s)), SeededDice(seed), hotseat=True, viewer="A", autosaving=False)


def refused(session: BattleSession, words: str) -> None:
    before = (session.state.to_data(), len(session.game.record))
    try:
        session.undo()
    except InputError as e:
        assert words in " ".join(e.problems), e.problems
    else:
        raise AssertionError("the take-back was allowed")
    assert (session.state.to_data(), len(session.game.record)) == before


def test_a_move_is_taken_back_by_its_player_and_named_exactly():
    session = battle()
    assert session.attempt(Action("activate", "a-tac")).legal
    assert session.attempt(Action("move", "a-tac", {"x": 10, "y": 3})).legal
    before_move = session.game.rebuild(1).to_data()
    assert session.undo() == "move a-tac 10 3"
    assert session.state.to_data() == before_move and len(session.game.record) == 1


def test_the_undo_peek_a_reveal_is_not_taken_back_without_consent():
    """A Target on a blip reveals it; taking it back would leave a blip whose contents A now knows."""
    session = battle()
    assert session.attempt(Action("activate", "a-tac")).legal
    out = session.attempt(Action("target", "a-tac", {"dice": 2, "assign": {"b-blip-KX": 2}}), [4, 3])
    assert out.legal and "b-blip-KX" not in session.state.blips
    check = session.undo_check()
    assert check.allowed and check.needs_consent and "revealed 1 blip" in check.why_consent
    refused(session, "side B must agree")
    # With B's consent it is taken back, and both players read that it was.
    assert session.undo(consent=True) == "target a-tac --dice-count 2 --assign b-blip-KX=2"
    assert "b-blip-KX" in session.state.blips
    for side in "AB":
        lines = log_lines(player_view(session.state, side))
        assert any("side A took back 'target a-tac --dice-count 2 --assign b-blip-KX=2'" in x
                   and "with side B's consent" in x for x in lines), side


def test_the_undo_reroll_the_same_action_gets_the_same_dice():
    session = battle(seed=21)
    assert session.attempt(Action("activate", "a-tac")).legal
    shot = Action("rifle", "a-tac", {"target": "b-tac"})
    first = session.attempt(shot)
    assert first.legal
    faces = [r.value for r in first.outcome.rolls]
    assert faces
    session.undo(consent=True)
    again = session.attempt(shot)
    assert [r.value for r in again.outcome.rolls] == faces
    assert again.outcome.state.units.get("b-tac") == first.outcome.state.units.get("b-tac")


def test_against_the_computer_it_answers_for_its_side_and_agrees_to_no_take_back_of_a_seen_outcome():
    """Side B is the computer's: the player at the screen, side A, is never asked to agree for it. A shot that rolled
    is not taken back (the player would choose another action knowing its dice); a Move that rolled nothing still is."""
    from referee.game.players.computer import Computer

    session = battle(seed=21)
    session.hotseat = False
    session.computer = Computer("B", "normal", seed=1)
    assert session.attempt(Action("activate", "a-tac")).legal
    assert session.attempt(Action("move", "a-tac", {"x": 10, "y": 3})).legal
    assert session.undo_check().allowed and session.undo() == "move a-tac 10 3"
    assert session.attempt(Action("rifle", "a-tac", {"target": "b-tac"})).legal
    check = session.undo_check()
    assert not check.allowed and check.needs_consent
    assert "the computer (side B) does not agree to take back an action whose outcome is seen" in check.reason
    before = (session.state.to_data(), len(session.game.record))
    with pytest.raises(InputError, match="the computer \\(side B\\) does not agree"):
        session.undo(consent=True)
    assert (session.state.to_data(), len(session.game.record)) == before


def _a_ends_its_turn(session: BattleSession) -> None:
    assert session.attempt(Action("activate", "a-tac")).legal
    assert session.attempt(Action("move", "a-tac", {"x": 10, "y": 3})).legal
    assert session.attempt(Action("end-activation")).legal
    if session.state.turn.player == "A":
        assert session.attempt(Action("end-turn")).legal
    assert session.state.turn.player == "B"


def test_the_next_player_cannot_take_back_the_opponents_action_after_the_hand_off():
    session = battle()
    _a_ends_its_turn(session)
    session.hand_to("B")
    # B at the screen may only give A back the turn A ended, and only as B's own consent: never silently.
    check = session.undo_check()
    assert check.allowed and check.side == "A" and check.needs_consent
    assert "across a hand-off" in check.why_consent
    refused(session, "side B must agree")
    # Once B has acted, nothing of A's is taken back at all.
    assert session.attempt(Action("activate", "b-tac")).legal
    session.hand_to("A")
    refused(session, "side to act")


def test_the_turn_a_side_ended_is_given_back_only_with_the_other_sides_consent():
    session = battle()
    _a_ends_its_turn(session)
    before_end = session.game.rebuild(len(session.game.record) - 1).to_data()
    session.hand_to("B")
    taken = session.undo(consent=True)
    assert taken in ("end-turn", "end-activation")
    assert session.state.turn.player == "A"
    assert [e.action.kind for e in session.game.record][-1] == "taken-back"
    # The take-back is public and names both sides; otherwise the battle is as it was before the end of the turn.
    assert session.game.rebuild(len(session.game.record) - 1).to_data() == before_end
    for side in "AB":
        lines = log_lines(player_view(session.state, side))
        assert any(f"side A took back {taken!r}" in x and "with side B's consent" in x for x in lines), side


def test_nothing_is_taken_back_across_the_end_of_a_round():
    session = battle()
    _a_ends_its_turn(session)
    for _ in range(40):
        if session.state.phase != "action":
            break
        side = session.state.turn.player
        session.hand_to(side)
        if not session.attempt(Action("end-turn")).legal:
            ready = [u.id for u in session.state.units.values() if u.side == side and u.activation]
            assert session.attempt(Action("activate", ready[0])).legal
            assert session.attempt(Action("end-activation")).legal
    assert session.state.phase == "end-of-round"
    for side in "AB":
        session.hand_to(side)
        refused(session, "turn in progress")


def test_nothing_is_taken_back_once_the_battle_is_over():
    session = battle()
    assert session.attempt(Action("activate", "a-tac")).legal
    assert session.attempt(Action("move", "a-tac", {"x": 10, "y": 3})).legal
    session.game.state.phase = "over"              # however it ended: the report has been shown
    refused(session, "the battle is over")


def test_a_take_back_with_consent_is_kept_in_the_save(tmp_path):
    session = battle()
    assert session.attempt(Action("activate", "a-tac")).legal
    assert session.attempt(Action("target", "a-tac", {"dice": 2, "assign": {"b-blip-KX": 2}}), [4, 3]).legal
    session.undo(consent=True)
    path = save_game(session.game, tmp_path / "b.json", session.dice)
    loaded = read_save(path)
    assert loaded.warnings == []
    assert [e.action.kind for e in loaded.game.record] == ["activate", "taken-back"]
    assert any("took back" in e.text for e in loaded.game.state.log)


def test_a_forged_take_back_is_refused_by_the_engine():
    game = Game(begin_battle(game_state(units=[unit("a-tac", "A", 10, 2)], attacker="A")))
    out = game.play(Action("taken-back", "", {"side": "A", "what": "x", "consent": "A"}), ScriptedDice())
    assert not out.legal and "consent" in out.reason


def test_the_state_an_undo_looks_back_to_is_the_record_replayed_to_its_last_action(tmp_path):
    # The undo offer reads the state before the last action from what the game played it on; it must be the state
    # the record replays to, after plays, after a take-back and in a battle read back from its save.
    game = Game(begin_battle(skirmish()))
    dice = SeededDice(4)
    for steps in (1, 7, 30):
        play_random(game, random.Random(steps), steps, dice)
        assert game.played_last is not None and game.played_last[0] is game.record[-1]
        assert data_of(game.before_last()) == data_of(game.rebuild(len(game.record) - 1))
    game.undo(2)
    assert game.played_last[0] is not game.record[-1]
    assert data_of(game.before_last()) == data_of(game.rebuild(len(game.record) - 1))
    save_game(game, tmp_path / "battle.json", SeededDice(4))
    again = read_save(tmp_path / "battle.json").game
    assert again.played_last is None
    assert data_of(again.before_last()) == data_of(game.rebuild(len(game.record) - 1))
