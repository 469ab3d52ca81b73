"""A refereed physical game served to phones: each side's private entries are made on its own hand. The owner of a
blip says on its hand what the blip holds when a reveal needs it, and the action that revealed it goes on; its
mission card is entered there too; the dice rolled at the table are typed on the hand of the side whose action
rolls them. The other side's hand and the table are told only whose word the battle waits for, never the word,
and an entry for the other side's blip or mission is refused with the reason, nothing changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli import host as host_command
from referee.net.client import RemoteSeat
from referee.net.desk import Desk
from referee.rules.errors import InputError
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession

from .net_support import hosted

SMALL = Path(__file__).parent / "ui" / "small_table.toml"
TARGET = {"kind": "action", "action": {"kind": "target", "actor": "a-tactical-1",
                                       "args": {"dice": 3, "assign": {"b-blip-1": 3}}}}


def refereed() -> RefereeSession:
    """The small table refereed, side A to act; b-blip-1 moved in the open, in sight of a-tactical-1."""
    s = RefereeSession.from_scenario(load_scenario(SMALL))
    s.autosaving = False
    assert s.correct("b-blip-1", x=8.0, y=18.0).legal
    return s


def text(screen: dict[str, Any]) -> str:
    return json.dumps(screen, sort_keys=True, separators=(",", ":"))


def reveal_asked(desk: Desk) -> None:
    """A's Target reveals b-blip-1 (its three sensor dice typed on A's hand); the reveal waits for B's word."""
    assert desk.apply("A", {"kind": "action", "action": {"kind": "activate", "actor": "a-tactical-1",
                                                         "args": {}}}).ok
    reply = desk.apply("A", TARGET)
    for _ in range(3):
        assert reply.ok and "pending" in reply.result, reply
        assert desk.screen_data("A")["pending"]["kind"] == "d6"
        reply = desk.apply("A", {"kind": "answer", "value": 6})
    assert reply.ok and reply.result == {"contents_asked": {"side": "B", "blip": "b-blip-1"}}, reply


def test_a_refereed_battle_is_served_and_the_blips_owner_tells_its_contents_on_its_hand():
    session = refereed()
    with hosted(session) as host:
        a, b = RemoteSeat(host.link("A")), RemoteSeat(host.link("B"))
        table = RemoteSeat(host.link("spectator"), view="table")
        try:
            assert a.act("activate", "a-tactical-1")["ok"]
            # The sensor dice come from side A's physical dice, typed on its hand one by one.
            reply = a.send(TARGET)
            for _ in range(3):
                assert reply["ok"] and "pending" in reply["result"], reply
                reply = a.send({"kind": "answer", "value": 6})
            assert reply["result"] == {"contents_asked": {"side": "B", "blip": "b-blip-1"}}
            asked = b.wait_for(lambda s: "tell_contents" in s)
            assert asked["tell_contents"]["blip"] == "b-blip-1" and asked["tell_contents"]["most"] == 2
            assert "tactical" in asked["tell_contents"]["types"] and "veteran" in asked["tell_contents"]["ratings"]
            for seat in (a, table):
                screen = seat.wait_for(lambda s: "contents_asked" in s)
                assert screen["contents_asked"] == {"side": "B", "blip": "b-blip-1"}
                assert "tell_contents" not in screen
            # A's hand may not answer for B's blip: refused with the reason, nothing changed.
            before, record = session.state.to_data(), session.actions_taken()
            refused = a.send({"kind": "contents", "blip": "b-blip-1", "contents": []})
            assert not refused["ok"] and "side B's blip" in refused["reason"]
            assert session.state.to_data() == before and session.actions_taken() == record
            told = b.send({"kind": "contents", "blip": "b-blip-1",
                           "contents": [{"rating": "veteran", "type": "tactical"}]})
            assert told["ok"] and told["result"] == {"told": "b-blip-1", "went_on": True}, told
            shown = table.wait_for(lambda s: "contents_asked" not in s)
            units = {u["id"]: u for u in shown["view"]["units"]}
            assert "b-blip-1" not in {x["id"] for x in shown["view"]["blips"]}
            assert units["b-tactical-3"]["type"] == "tactical" and units["b-tactical-3"]["rating"] == "veteran"
            assert session.state.units["b-tactical-3"].target_counters == 3
        finally:
            for seat in (a, b, table):
                seat.close()


def test_the_other_hand_and_the_table_carry_no_trace_of_the_answer_before_the_reveal():
    """Two battles alike but for B's word: up to the reveal, A's and the table's screens are the same bytes."""
    screens: dict[str, list[str]] = {"decoy": [], "two": []}
    told = {"decoy": [], "two": [{"faction": "new-tokyo", "rating": "spec-ops", "type": "assault"},
                                 {"faction": "new-tokyo", "rating": "reserve", "type": "scout"}]}
    for word, contents in told.items():
        session = refereed()
        desk = Desk(session)
        reveal_asked(desk)
        screens[word] += [text(desk.screen_data(seat)) for seat in ("A", "spectator")]
        b_asked = text(desk.screen_data("B"))
        # B's word is recorded (its owner's log holds it) while the reveal is not yet applied: as the window's own
        # contents dialog tells it, before the action that revealed the blip goes on.
        assert session.tell("b-blip-1", contents).legal
        screens[word] += [text(desk.screen_data(seat)) for seat in ("A", "spectator")]
        assert text(desk.screen_data("B")) != b_asked
        assert "b-blip-1 holds" in json.dumps(desk.screen_data("B")["view"]["log"][-1])     # B's own log note
    assert screens["decoy"] == screens["two"]
    for line in screens["two"]:
        assert "spec-ops" not in line and "b-scout" not in line


def test_a_hands_word_for_the_other_sides_blip_or_when_no_reveal_waits_is_refused():
    session = refereed()
    desk = Desk(session)
    before = session.state.to_data()
    refused = desk.apply("B", {"kind": "contents", "blip": "b-blip-1", "contents": []})
    assert not refused.ok and "not being revealed now" in refused.reason
    refused = desk.apply("A", {"kind": "contents", "blip": "b-blip-1", "contents": []})
    assert not refused.ok and "only side B's hand" in refused.reason
    assert not desk.apply("spectator", {"kind": "contents", "blip": "b-blip-1", "contents": []}).ok
    assert session.state.to_data() == before
    reveal_asked(desk)
    wrong = desk.apply("B", {"kind": "contents", "blip": "b-blip-1", "contents": [{"type": "dragon"}]})
    assert not wrong.ok and "b-blip-1" in wrong.reason
    assert desk.contents_asked is not None and "b-blip-1" in session.state.blips


def test_a_mission_entered_on_a_hand_is_on_no_other_screen():
    session = refereed()
    with hosted(session) as host:
        a, b = RemoteSeat(host.link("A")), RemoteSeat(host.link("B"))
        table = RemoteSeat(host.link("spectator"), view="table")
        try:
            offered = b.screen["mission_entry"]
            ids = [m[0] for m in offered["missions"]]
            assert "hold-the-line" in ids and "seize-the-crossing" not in ids      # B defends: the defence's cards
            assert "seize-the-crossing" in [m[0] for m in a.screen["mission_entry"]["missions"]]
            assert "mission_entry" not in table.screen
            # Each hand enters its own card only.
            before, record = session.state.to_data(), session.actions_taken()
            refused = a.send({"kind": "mission", "side": "B", "mission": "hold-the-line"})
            assert not refused["ok"] and "never side B's" in refused["reason"]
            assert not table.send({"kind": "mission", "mission": "hold-the-line"})["ok"]
            assert session.state.to_data() == before and session.actions_taken() == record
            entered = b.send({"kind": "mission", "mission": "hold-the-line", "troop": "line-section"})
            assert entered["ok"], entered
            mine = b.wait_for(lambda s: s["missions_entered"]["B"])
            assert mine["view"]["missions"]["B"] == "hold-the-line" and "mission_entry" not in mine
            assert mine["cards_text"]["hold-the-line"]["title"] == "Hold the Line"
            for seat in (a, table):
                screen = seat.wait_for(lambda s: s["missions_entered"]["B"])
                assert "hold-the-line" not in text(screen) and "Hold the Line" not in text(screen)
                assert screen["view"]["cards"]["B"] is None and screen["view"]["missions"]["B"] is None
            assert "line-section" not in text(table.screen)
            assert "mission_entry" in a.screen                       # A's own card is still to enter
        finally:
            for seat in (a, b, table):
                seat.close()


def test_seven_seconds_host_referee_serves_a_new_refereed_battle_on_a_table():
    from referee.cli.main import build_parser

    args = build_parser().parse_args(["host", str(SMALL), "--referee", "--initiative", "B"])
    session, new = host_command._session(args)
    assert new and isinstance(session, RefereeSession) and session.refereed and session.to_act() == "B"
    assert session.dice_mode == "by-hand"
    args.factions = "new-tokyo,new-tokyo"
    with pytest.raises(InputError, match="--factions"):
        host_command._session(args)
    args = build_parser().parse_args(["host", str(SMALL), "--initiative", "B"])
    with pytest.raises(InputError, match="--referee"):
        host_command._session(args)


def test_a_reveal_left_for_another_action_is_dropped_and_its_owner_asked_nothing():
    session = refereed()
    desk = Desk(session)
    reveal_asked(desk)
    assert session.correct("a-assault-1", x=27.0).legal          # the table moved on (here: a correction)
    assert "contents_asked" not in desk.screen_data("A") and "tell_contents" not in desk.screen_data("B")
    before = session.state.to_data()
    refused = desk.apply("B", {"kind": "contents", "blip": "b-blip-1", "contents": []})
    assert not refused.ok and "not being revealed now" in refused.reason and session.state.to_data() == before
