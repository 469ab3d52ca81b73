"""What the host does with a seat's intents (``net/desk.py``), through the session's own methods: a take-back that
needs the opponent's consent waits for it from the opponent's own seat; the end of a round is spoken from two hands
(a Withdraw answered by the other side); and the undo offer each screen carries, asked once per change from the state
kept before the last action, is the offer the replayed record gives."""

from __future__ import annotations

import random

from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.players.random_play import random_action
from referee.game.play.undo import check_undo
from referee.net.client import RemoteSeat
from referee.net.desk import Desk
from referee.service.battles import computer
from referee.service.screen import UndoOffer
from referee.service.session import BattleSession

from .net_support import battle_state, hosted, next_action, session_of
from .test_undo import battle


def _act(desk: Desk, seat: str, kind: str, actor: str = "", faces=None, **args):
    intent = {"kind": "action", "action": {"kind": kind, "actor": actor, "args": args}}
    if faces:
        intent["dice"] = faces
    return desk.apply(seat, intent)


def test_a_take_back_that_needs_consent_waits_for_the_other_sides_word():
    session = battle()
    desk = Desk(session)
    assert _act(desk, "A", "activate", "a-tac").ok
    assert _act(desk, "A", "target", "a-tac", [4, 3], dice=2, assign={"b-blip-KX": 2}).ok
    assert "b-blip-KX" not in session.state.blips
    # B may not agree to what was not asked, nor A agree for B.
    assert not desk.apply("B", {"kind": "consent", "allow": True}).ok
    asked = desk.apply("A", {"kind": "undo"})
    assert asked.ok and asked.result["asked"] == "B"
    assert desk.screen_data("A")["take_back"]["asked_of"] == "B"
    assert desk.screen_data("B")["consent"]["from"] == "A"
    assert "consent" not in desk.screen_data("spectator")
    assert not desk.apply("A", {"kind": "consent", "allow": True}).ok
    records = len(session.game.record)
    assert desk.apply("B", {"kind": "consent", "allow": True}).ok
    assert "b-blip-KX" in session.state.blips and len(session.game.record) == records      # taken back, logged
    assert "consent" not in desk.screen_data("B")


def test_a_refused_take_back_changes_nothing_and_tells_the_asker():
    session = battle()
    desk = Desk(session)
    assert _act(desk, "A", "activate", "a-tac").ok
    assert _act(desk, "A", "target", "a-tac", [4, 3], dice=2, assign={"b-blip-KX": 2}).ok
    before = session.state.to_data()
    assert desk.apply("A", {"kind": "undo"}).ok
    assert desk.apply("B", {"kind": "consent", "allow": False}).ok
    assert session.state.to_data() == before
    assert "did not agree" in desk.screen_data("A")["said"]


def _to_the_end_of_round(desk: Desk) -> None:
    session = desk.session
    for _ in range(500):
        if session.state.phase == "end-of-round":
            return
        side = session.to_act()
        assert desk.apply(side, {"kind": "action", "action": next_action(desk.screen_data(side))}).ok
    raise AssertionError("the round did not end")


def test_a_withdraw_waits_for_the_other_sides_answer_and_is_played_as_one_action():
    session = session_of(battle_state())
    desk = Desk(session)
    _to_the_end_of_round(desk)
    records = len(session.game.record)
    said = _act(desk, "A", "end-of-round", withdraw="A")
    assert said.ok and said.result["waiting_for"] == "B" and len(session.game.record) == records
    assert desk.screen_data("B")["round_words"]["withdraw_asked"] == "A"
    assert desk.screen_data("A")["round_words"]["mine"] == "withdraw"
    # A side announces only its own Withdraw; B cannot take A's word back for it.
    assert not _act(desk, "B", "end-of-round", withdraw="A").ok
    assert not _act(desk, "A", "end-of-round").ok                      # a Withdraw announced stands (p.16)
    assert _act(desk, "B", "end-of-round", answer="pursue").ok
    entry = session.game.record[-1].action
    assert (entry.kind, entry.args) == ("end-of-round", {"withdraw": "A", "answer": "pursue"})
    assert session.state.pursuit == "A"


def test_both_sides_playing_on_begin_the_next_round():
    session = session_of(battle_state())
    desk = Desk(session)
    _to_the_end_of_round(desk)
    assert _act(desk, "B", "end-of-round").result["waiting_for"] == "A"
    assert desk.screen_data("A")["round_words"]["theirs_spoken"] is True
    assert _act(desk, "A", "end-of-round").ok
    assert session.state.round == 2 and session.game.record[-1].action.args == {}


def test_the_undo_offer_kept_from_the_last_action_is_the_replayed_records():
    session = session_of(battle_state(703))
    rng = random.Random(4)
    compared = 0
    for _ in range(60):
        if session.state.phase == "over":
            break
        if rng.random() < 0.1 and session.game.record:
            side = session.to_act() or "A"
            session.viewer = side
            try:
                session.undo(consent=True)
            except Exception:  # noqa: BLE001 (a refused take-back: the battle goes on)
                pass
        else:
            action = random_action(session.state, rng)
            session.attempt(action)
        for side in ("A", "B"):
            assert session.screen(side).undo == UndoOffer.of(check_undo(session.game, side))
            compared += 1
    assert compared >= 100


def test_dice_typed_in_are_asked_of_the_seat_whose_action_rolls_them():
    session = battle()
    session.dice = None                        # the players roll their own dice and type the faces in
    desk = Desk(session)
    assert _act(desk, "A", "activate", "a-tac").ok
    asked = _act(desk, "A", "target", "a-tac", dice=2, assign={"b-blip-KX": 2})
    assert asked.ok and "pending" in asked.result and "b-blip-KX" in session.state.blips
    assert desk.screen_data("A")["pending"]["kind"] == "d6"
    assert "pending" not in desk.screen_data("B") and "pending" not in desk.screen_data("spectator")
    assert not desk.apply("B", {"kind": "answer", "value": 4}).ok          # not B's die to give
    assert not desk.apply("A", {"kind": "answer", "value": 7}).ok          # not a face of a d6
    assert desk.apply("A", {"kind": "answer", "value": 4}).ok
    done = desk.apply("A", {"kind": "answer", "value": 3})
    assert done.ok and "events" in done.result
    assert "b-blip-KX" not in session.state.blips and "pending" not in desk.screen_data("A")


def test_against_the_computer_its_turns_follow_the_players_intent_on_the_host():
    session = BattleSession(Game(battle_state()), SeededDice(1), hotseat=False, autosaving=False,
                            computer=computer("B", "easy", 3))
    with hosted(session) as host:
        a = RemoteSeat(host.link("A"))
        for _ in range(12):
            if session.state.phase != "action":
                break
            screen = a.ask("screen")["result"]["screen"]
            assert screen["to_act"] in ("A", None) or session.over, screen["to_act"]
            action = next_action(screen)
            if action is None:
                break
            assert a.send({"kind": "action", "action": action})["ok"]
        assert any(e.action.actor.startswith("b-") for e in session.game.record)     # the computer played B
        a.close()


def test_an_offer_to_stop_the_other_side_does_not_agree_to_is_logged():
    session = session_of(battle_state())
    desk = Desk(session)
    _to_the_end_of_round(desk)
    before = len(session.state.log)
    assert _act(desk, "A", "end-of-round", stop=True).result["waiting_for"] == "B"
    assert _act(desk, "B", "end-of-round").ok
    assert session.state.round == 2 and session.game.record[-1].action.args == {"offered": "A"}
    assert any(e.text.startswith("side A offers to stop; side B does not agree") for e in session.state.log[before:])
