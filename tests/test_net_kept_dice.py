"""A side that keeps its secrets on its own computer keeps its dice contribution there too (``game/battle/dice.py``,
``net/keeper.py``): the host holds only its commitment, cannot make a public die before that computer has sent its
shares of the moment, records the shares with the action, and checks them all when the contribution is opened at the
end; a share that does not follow from it is a breach."""

from __future__ import annotations

import json
import time

from typing import Any

import pytest

from referee import paths
from referee.game.battle.action_kinds import Kind
from referee.game.battle.commit import battle_id, square_commitment
from referee.game.battle.intents import Action
from referee.game.battle.state import state_from_scenario
from referee.game.battle.dice import (SHARE_BATCH, Contribution, RollRequest, SeededDice, SharesMissing, dice_share,
                                      seed_commitment)
from referee.game.play.engine import Game, begin_battle
from referee.game.records.autosave import read_autosave
from referee.game.records.record import dice_data
from referee.net import host as host_module
from referee.net import keeper as keeper_module
from referee.net.client import RemoteSeat
from referee.net.host import Host
from referee.rules.scenario import load_scenario
from referee.service.battles import new_session
from referee.service.opening import SavedBattle, read_battle
from referee.service.session import BattleSession

from .net_support import next_action
from .tables import game_state, unit
from .test_net_kept import FACTIONS, PIN, SMALL, fresh, host_files, host_memory, set_up, setup_action, to_the_end
from .test_net_kept import kept as kept  # noqa: F401 (the fixture: a battle served with side B kept)

D6 = RollRequest("a die", "p.1")


def host_dice(kept_by: tuple[str, ...] = ("B",)) -> SeededDice:
    """The host's dice of one battle, the same in every run: side A's contribution here, side B's kept elsewhere."""
    contributions = {side: Contribution(side, side.lower() * 64, side.lower() * 32) for side in ("A", "B")}
    commitments = {side: c.commitment for side, c in contributions.items()}
    commitments["seed"] = seed_commitment(4711, 4712)
    dice = SeededDice(4711, secret_salt=4712, contributions=contributions, commitments=commitments)
    for side in kept_by:
        assert dice.keep(side)
    return dice


def faces(value: str, moments: int = 40) -> list[int]:
    """The first die of each of ``moments`` moments, side B's shares made from ``value``."""
    dice = host_dice()
    dice.commit_kept("B", Contribution("B", value, "0" * 32).commitment)
    out = []
    for m in range(moments):
        moment = f"action {m + 1}|x"
        dice.begin(moment)
        dice.add_shares("B", moment, 0, [dice_share("B", value, moment, n) for n in range(SHARE_BATCH)])
        out.append(int(dice.answer(D6)))
    return out


def test_the_hosts_dice_make_no_public_die_without_the_kept_sides_share():
    dice = host_dice()
    assert "B" not in dice.contributions and "B" not in dice.commitments and dice.awaits_commitment("B")
    dice.commit_kept("B", Contribution("B", "1" * 64, "2" * 32).commitment)
    dice.begin("action 1|roll")
    with pytest.raises(SharesMissing) as missing:
        dice.answer(D6)
    assert (missing.value.side, missing.value.moment, missing.value.start) == ("B", "action 1|roll", 0)
    # Asked again, the same number is missing: nothing was drawn.
    with pytest.raises(SharesMissing):
        dice.answer(D6)
    assert dice.counts.get("public", 0) == 0
    # Secret draws (a side's mission, its cards) are the host's alone, as before.
    assert dice.answer(RollRequest("a card", "p.1", kind="draw", options=("x", "y"), secret="A")) in (0, 1)
    # The shares of one batch: the die is made; the next number past the batch is asked for again, from there.
    dice.add_shares("B", "action 1|roll", 0, [dice_share("B", "1" * 64, "action 1|roll", n) for n in range(2)])
    assert 1 <= dice.answer(D6) <= 6 and 1 <= dice.answer(D6) <= 6
    with pytest.raises(SharesMissing) as missing:
        dice.answer(D6)
    assert missing.value.start == 2
    assert dice.used_shares() == {"B": [dice_share("B", "1" * 64, "action 1|roll", n) for n in range(2)]}


def test_two_contributions_of_the_kept_side_give_other_dice_with_the_same_host():
    one, other = faces("1" * 64), faces("2" * 64)
    assert one == faces("1" * 64)                                   # the same shares: the same dice
    assert sum(a != b for a, b in zip(one, other)) >= 25, (one, other)  # 40 dice, each differs 5 times in 6
    assert set(one) == set(range(1, 7))


def test_a_session_with_a_kept_side_asks_for_its_shares_and_records_them_with_the_action():
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS)
    assert session.keep_dice("B") and session.awaits_dice_commitment("B")
    assert "B" not in session.game.initial.dice_commitments
    value, salt = "3" * 64, "4" * 32
    session.commit_kept_dice("B", Contribution("B", value, salt).commitment)
    assert session.game.initial.dice_commitments["B"] == Contribution("B", value, salt).commitment
    roll = session.screen("A").legal[0]
    assert roll.kind == Kind.ROLL_ROLES
    asked = session.attempt(roll.action())
    assert asked.shares is not None and asked.outcome is None and not session.game.record
    needs = asked.shares
    session.add_shares("B", needs.moment, needs.start,
                       [dice_share("B", value, needs.moment, n) for n in range(SHARE_BATCH)])
    done = session.attempt(needs.action)
    assert done.legal
    entry = session.game.record[-1]
    used = [r for r in entry.rolls if r.kind == "d6"]
    assert used and len(entry.shares["B"]) >= len(used)
    assert session.recorded_shares("B") == [(0, needs.moment, entry.shares["B"])]


# ---- over a real host on 127.0.0.1 -----------------------------------------------------------------------------------


def contribution_of(seat: RemoteSeat) -> tuple[str, str]:
    keeper = seat.kept()
    assert keeper is not None and keeper.dice is not None
    return keeper.dice


def host_holds(session: BattleSession, host: Host) -> str:
    """Everything the host holds of the battle, as text: its memory of the battle and its dice, and every file it
    wrote (the autosave and its journal, the intents ledger, the seats)."""
    with host.lock:
        memory = host_memory(session, host) + json.dumps(dice_data(session.dice), default=str) + repr(session.dice)
        memory += json.dumps([e.to_data(with_why=True) for e in session.game.record])
    disk = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in host_files()
                     if "b-computer" not in p.parts)
    return memory + disk


def test_the_host_holds_no_contribution_of_the_kept_side_until_the_end_then_checks_every_share(kept):
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    value, salt = contribution_of(b)
    with host.lock:
        assert session.state.dice_commitments["B"] == Contribution("B", value, salt).commitment
        assert session.game.initial.dice_commitments["B"] == session.state.dice_commitments["B"]
        assert "B" not in session.dice.contributions and session.dice.kept == ("B",)
    # Played to the end of round 1; the host never held B's contribution nor its salt, here or on disk.
    held = host_holds(session, host)
    assert value not in held and salt not in held
    to_the_end(session, host, seats)
    b.wait_for(lambda s: s["view"]["result"] is not None and s["view"]["result"]["level"] != "no result"
               and "open_dice" not in s)
    with host.lock:
        record = list(session.game.record)
        breaches = list(session.state.breaches)
        asked = session.recorded_shares("B")
    with_shares = [e for e in record if e.shares]
    assert len(with_shares) >= 5, "set-up and round 1 roll public dice"
    # Every share recorded is B's share of the moment its action was resolved at: the host checked them all.
    assert all(share == dice_share("B", value, moment, n) for _i, moment, shares in asked
               for n, share in enumerate(shares))
    opened = [e for e in record if e.action.kind == Kind.DICE_OPENED]
    assert len(opened) == 1 and opened[0].action.args == {"value": value, "salt": salt}, opened
    assert breaches == [] and not b.refusals and not b.keeper.problems
    # The autosave replays without B's computer: the same dice (recorded), the same opening, no breach.
    loaded = read_autosave(next(p for p in host_files() if p.name == "autosave.json"))
    with host.lock:
        assert loaded.game.state.to_data() == session.state.to_data()
    assert [e.shares for e in loaded.game.record] == [e.shares for e in record]


def test_shares_that_do_not_follow_from_the_contribution_are_a_breach_at_the_end(kept, monkeypatch):
    session, host, seats, b_disk = kept
    real = keeper_module.dice_share
    # A client that sends a share of its own choosing for each moment's first number, not the committed one's.
    monkeypatch.setattr(keeper_module, "dice_share",
                        lambda side, value, moment, n: real(side, value, moment, n) if n else "0" * 16)
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    to_the_end(session, host, seats)
    b.wait_for(lambda s: s["view"]["result"] is not None and s["view"]["result"]["level"] != "no result"
               and "open_dice" not in s)
    with host.lock:
        breaches = list(session.state.breaches)
        explain = list(session.state.result.explain)
        false = [i for i, e in enumerate(session.game.record) if e.shares.get("B", [""])[0] == "0" * 16]
    assert false and len(breaches) == 1 and breaches[0].startswith("BREACH: side B's computer sent dice shares")
    assert f"for {len(false)} action" in breaches[0] and breaches[0] in explain
    assert breaches[0] in json.dumps(seats["A"].ask("report")["result"]["report"])
    loaded = read_autosave(next(p for p in host_files() if p.name == "autosave.json"))
    assert loaded.game.state.breaches == breaches


def test_a_die_waits_for_the_kept_sides_computer_and_every_seat_is_told(kept, monkeypatch):
    session, host, seats, b_disk = kept
    monkeypatch.setattr(host_module, "DICE_WAIT", 0.2)
    # B's computer joins but sends nothing about its dice by itself: the test answers for it, step by step.
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk, dice=False)
    a = seats["A"]
    assert fresh(b)["dice_commitment_asked"] is True and "dice_commitment_asked" not in fresh(a)
    roll = a.send({"kind": "action", "action": {"kind": Kind.ROLL_ROLES, "actor": "", "args": {}}})
    assert roll["ok"] and roll["result"] == {"dice_asked": {"side": "B"}}, roll
    screen = fresh(a)
    assert screen["dice_asked"] == {"side": "B"} and screen["waits_for_computer"] == {"side": "B", "away": False}
    with host.lock:
        assert not session.game.record
        # The host's own dice cannot make the die: B's share of it is not here.
        session.dice.begin("action 1|anything")
        with pytest.raises(SharesMissing):
            session.dice.answer(D6)
    keeper = b.kept()
    assert keeper is not None
    # Before B's commitment the shares are not asked for: B commits first, then it is asked for this moment's.
    assert "dice_shares_asked" not in fresh(b)
    assert b.send(keeper.dice_answer(fresh(b)))["ok"]
    asked = fresh(b)["dice_shares_asked"]
    assert asked["from"] == 0 and asked["count"] == SHARE_BATCH and asked["moment"].startswith("action 1|")
    assert "dice_shares_asked" not in fresh(a)
    # Shares of another moment, or unreadable ones, are refused; nothing changed.
    wrong = keeper.dice_answer(fresh(b))
    assert wrong is not None
    for lie in ({**wrong, "moment": "action 1|other"}, {**wrong, "from": 3}):
        refused = b.send(lie)
        assert not refused["ok"] and "not the shares asked for" in refused["reason"], refused
    with host.lock:
        assert not session.game.record
    # The true shares: A's roll goes on, recorded with them.
    went = b.send(wrong)
    assert went["ok"] and went["result"]["went_on"] is True, went
    with host.lock:
        entry = session.game.record[0]
        assert entry.action.kind == Kind.ROLL_ROLES and entry.shares["B"] == wrong["shares"][:len(entry.shares["B"])]
    assert "dice_asked" not in fresh(a)
    # A host that asks the shares of a second action at the same place is refused by B's computer.
    second = {"seat": "B", "dice_shares_asked": {"moment": asked["moment"] + "-another", "from": 0, "count": 4}}
    said = keeper.dice_answer(second)
    assert said is not None and said["kind"] == "dice-refused" and "second action at action 1" in said["reason"]
    assert "second action at action 1" in keeper.problems[0]
    # ... and so are the shares of an earlier place than the last it answered; a take-back B agreed to frees the place.
    keeper.answered = {"action 5": "action 5|x"}
    earlier = {"seat": "B", "dice_shares_asked": {"moment": "action 4|y", "from": 0, "count": 4}}
    assert (keeper.dice_answer(earlier) or {}).get("kind") == "dice-refused" and "before action 5" in keeper.problems[-1]
    keeper.taken_back()
    assert keeper.dice_answer(earlier) is not None and keeper.answered == {"action 4": "action 4|y"}
    # An ask the program never makes (numbers that are not whole, or a billion shares) is answered with nothing.
    for start, count in (("abc", 4), (0, 10**9), (True, 4), (-1, 4), (0, 0), (0, "16")):
        odd = {"seat": "B", "dice_shares_asked": {"moment": "action 4|y", "from": start, "count": count}}
        assert (keeper.dice_answer(odd) or {}).get("kind") == "dice-refused"
        assert f"{count!r} dice shares" in keeper.problems[-1]


def test_a_resumed_host_goes_on_with_the_kept_sides_dice(kept, tmp_path):
    session, host, seats, b_disk = kept
    seats["B"] = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    # Set-up begun: the roles rolled and the table edge chosen (public dice, B's shares recorded with them).
    for _ in range(2):
        with host.lock:
            side = session.to_act()
        assert side is not None
        assert seats[side].send({"kind": "action", "action": setup_action(fresh(seats[side]))})["ok"]
    value, salt = contribution_of(seats["B"])
    with host.lock:
        taken = len(session.game.record)
        committed = dict(session.state.dice_commitments)
    for seat in seats.values():
        seat.close()
    host.stop()
    # The host quits; served again from its autosave, the seats join again; B's computer reads its file.
    saved = read_battle(next(p for p in host_files() if p.name == "autosave.json"))
    assert isinstance(saved, SavedBattle)
    again = saved.open(served=True)
    assert again.dice is not None and again.dice.kept == ("B",) and "B" not in again.dice.contributions
    assert again.state.dice_commitments == committed
    host2 = Host.start(again, bind="127.0.0.1", kept_by=("B",), rate=1000.0, burst=1000.0)
    a = RemoteSeat(host2.link("A"))
    b = RemoteSeat(host2.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    try:
        assert contribution_of(b) == (value, salt)
        set_up(again, host2, {"A": a, "B": b})
        # Round 1 played to its end on the resumed host: B's computer sends the shares of every die asked, and opens
        # its contribution at the end, which opens every share recorded before and after the host quit.
        to_the_end(again, host2, {"A": a, "B": b})
        b.wait_for(lambda s: s["view"]["result"] is not None and s["view"]["result"]["level"] != "no result"
                   and "open_dice" not in s)
        with host2.lock:
            resumed = again.recorded_shares("B")
            breaches = list(again.state.breaches)
            opened = [e for e in again.game.record if e.action.kind == Kind.DICE_OPENED]
        assert [i for i, _m, _s in resumed if i < taken] and [i for i, _m, _s in resumed if i >= taken]
        assert all(share == dice_share("B", value, moment, n) for _i, moment, shares in resumed
                   for n, share in enumerate(shares))
        assert len(opened) == 1 and breaches == []
        assert not b.refusals and not b.keeper.problems
    finally:
        a.close()
        b.close()
        host2.stop()


# ---- a kept side's Scramble, played over the real host ---------------------------------------------------------------


def test_a_kept_sides_scramble_over_the_real_host_is_chosen_on_its_computer_and_opens_at_its_reveal(tmp_path):
    """B's trooper Scrambles (p.22, A23) from B's seat: B's computer chooses the square and which new counter is real
    and sends commitments; the host holds three unknown squares and three counters on stand-ins; B later reveals the
    real counter, its computer opens it by itself, and the trooper comes back. The dice of it all are B's and the
    host's together (round 2's initiative)."""
    state = begin_battle(game_state(units=[unit("a-tac", "A", 6, 6), unit("b-tac", "B", 30, 30)]), "B")
    dice = host_dice(())
    state.dice_commitments = dict(dice.commitments)
    state.square_commitments = {"B": {str(n): "e" * 64 for n in range(1, 17)}}     # every square empty and unused
    state.issued_kept = {"B": []}
    state.blip_commitments = {"B": {}}
    session = BattleSession(Game(state), dice, hotseat=False, autosaving=False)
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",), rate=1000.0, burst=1000.0)
    a = RemoteSeat(host.link("A"))
    b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=tmp_path / "b-computer")
    try:
        # B's computer holds the squares it committed (every one empty here).
        held = b.kept()
        assert held is not None
        held.squares = {n: ([], "e" * 64) for n in range(1, 17)}
        assert b.act(Kind.ACTIVATE, "b-tac")["ok"]
        scrambled = b.act(Kind.SCRAMBLE, "b-tac", square=2)
        assert scrambled["ok"], scrambled
        keeper = b.keeper
        assert keeper is not None
        with host.lock:
            s = session.state
            assert "b-tac" not in s.units
            assert [s.holding["B"].squares[n] for n in (1, 2, 3)] == [None, None, None]
            counters = sorted(x.id for x in s.blips.values() if x.side == "B")
            stand_ins = {x.id: x.square for x in s.blips.values() if x.side == "B"}
            assert len(counters) == 3 and sorted(stand_ins.values()) == [1, 2, 3]
            assert set(s.blip_commitments["B"]) == set(counters)
        assert [n for n, (units, _salt) in keeper.squares.items() if units] == [2]          # B's choice, kept there
        # Seat A sees three counters and nothing of which is real; B's own screen shows its trooper in its square.
        shown_a = {x["id"]: x for x in fresh(a)["view"]["blips"] if x["side"] == "B"}
        assert set(shown_a) == set(counters) and all(x.get("contents") is None for x in shown_a.values())
        own = keeper.shown(fresh(b))
        real = next(x for x in counters if (keeper.square_of(own, x) or (0, ""))[0] == 2)
        assert next(x for x in own["view"]["blips"] if x["id"] == real)["contents"] == [keeper.squares[2][0][0]]
        # Play on until B reveals the real counter: B's computer opens its square by itself, the trooper comes back.
        for _ in range(40):
            with host.lock:
                side = session.to_act()
                phase = session.state.phase
                if real not in session.state.blips:
                    break
            if phase == "end-of-round":          # both sides play on (p.16)
                for word in (a, b):
                    assert word.act(Kind.END_OF_ROUND)["ok"]
                continue
            seat = a if side == "A" else b
            legal = fresh(seat)["legal"]
            pick = (next((x for x in legal if x["kind"] == Kind.REVEAL and x["actor"] == real), None)
                    or next((x for x in legal if x["kind"] == Kind.ACTIVATE and x["actor"] == real), None)
                    or next((x for x in legal if x["kind"] in (Kind.END_ACTIVATION, Kind.END_TURN)), None))
            assert pick is not None, legal
            reply = seat.send({"kind": "action", "action": {"kind": pick["kind"], "actor": pick["actor"],
                                                            "args": dict(pick["args"])}})
            assert reply["ok"], reply
            if pick["kind"] == Kind.REVEAL:
                b.wait_for(lambda sc: all(x["id"] != real for x in sc["view"]["blips"]))
        with host.lock:
            assert real not in session.state.blips and "b-tac" in session.state.units
            assert session.state.holding["B"].squares[2] is not None
            assert session.state.breaches == []
            rolled_with_shares = [e.action.kind for e in session.game.record if e.shares.get("B")]
        assert not b.refusals and not keeper.problems
        value, _salt = contribution_of(b)
        with host.lock:
            assert all(share == dice_share("B", value, moment, n) for _i, moment, shares
                       in session.recorded_shares("B") for n, share in enumerate(shares))
        assert Kind.END_OF_ROUND in rolled_with_shares                # round 2's initiative roll-off: B's shares too
    finally:
        a.close()
        b.close()
        host.stop()


def test_a_die_waiting_for_a_kept_side_whose_computer_is_away_may_be_claimed(kept, monkeypatch):
    session, host, seats, b_disk = kept
    monkeypatch.setattr(host_module, "DICE_WAIT", 0.2)
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    a = seats["A"]
    set_up(session, host, seats)
    # Round 1 played to its end; B says play on, then its computer goes away before A's word starts round 2, whose
    # initiative roll-off needs B's shares.
    for _ in range(400):
        with host.lock:
            side, phase = session.to_act(), session.state.phase
        if phase == "end-of-round":
            break
        assert side is not None
        action = next_action(fresh(seats[side]))
        assert action is not None and seats[side].send({"kind": "action", "action": action})["ok"]
    assert b.act(Kind.END_OF_ROUND)["result"]["waiting_for"] == "A"
    b.close()
    a.wait_for(lambda s: (s.get("waits_for_computer") or {}).get("away") is not False)
    with host.lock:
        taken = len(session.game.record)
    word = a.act(Kind.END_OF_ROUND)
    assert word["ok"] and word["result"] == {"dice_asked": {"side": "B"}}, word
    screen = a.wait_for(lambda s: s.get("waits_for_computer") == {"side": "B", "away": True})
    assert screen["dice_asked"] == {"side": "B"} and "may_claim_forfeit" not in screen
    refused = a.send({"kind": Kind.FORFEIT})
    assert not refused["ok"] and "once it has been away 300 s" in refused["reason"], refused
    with host.lock:
        assert len(session.game.record) == taken            # nothing rolled without B's shares
        host.desk.away_limit = 0.0                          # as though B's computer had been away that long
    claimed = a.send({"kind": Kind.FORFEIT})
    assert claimed["ok"], claimed
    with host.lock:
        result = session.state.result
        assert session.dice_to_open() == []                 # a side that forfeited is asked nothing more
    assert result.level == "forfeited" and result.winner == "A"


def test_a_target_that_reveals_a_kept_square_keeps_the_dice_that_revealed_it():
    """A's Target with the program's dice buys a counter on one of B's blips, whose square B's computer keeps: the
    Target waits while B opens it, then goes on with the very dice that bought the counter (the same moment: B's
    shares of no other moment are asked, and nothing is rolled twice). Were it tried at another moment, its new roll could buy
    nothing: the square would be open and the blip still hidden."""
    state = begin_battle(state_from_scenario(load_scenario(SMALL)))
    state.blips["b-blip-1"].x, state.blips["b-blip-1"].y = 8.0, 18.0      # in the open, in sight of a-tactical-1
    dice = host_dice()
    value, salt = "5" * 64, "6" * 32
    session = BattleSession(Game(state), dice, hotseat=False, autosaving=False)
    session.commit_kept_dice("B", Contribution("B", value, salt).commitment)
    state = session.state
    square = state.blips["b-blip-1"].square
    unit = {"id": "b-tactical-3", "side": "B", "faction": "new-tokyo", "rating": "veteran", "type": "tactical"}
    squares = {n: ([unit] if n == square else [], f"{n:064x}") for n in range(1, 17)}
    state.square_commitments["B"] = {str(n): square_commitment(battle_id(state.dice_commitments), "B", n, units, salt)
                                     for n, (units, salt) in squares.items()}
    state.holding["B"].squares.update({n: None for n in range(1, 17)})
    state.issued_kept["B"] = [dict(unit)]
    asked: list[str] = []

    def attempt(action):
        tried = session.attempt(action)
        while tried.shares is not None:
            needs = tried.shares
            asked.append(needs.moment)
            session.add_shares("B", needs.moment, needs.start,
                               [dice_share("B", value, needs.moment, n) for n in range(needs.start, needs.start + 64)])
            tried = session.attempt(needs.action)
        return tried

    assert attempt(Action(Kind.ACTIVATE, "a-tactical-1", {})).legal
    target = Action(Kind.TARGET, "a-tactical-1", {"dice": 3, "assign": {"b-blip-1": 1}, "up_to": True})
    tried = attempt(target)
    assert tried.needs is not None and tried.needs.blip == "b-blip-1", tried
    moment = asked[-1]
    opened = session.attempt(Action(Kind.CONTENTS, "b-blip-1", {"contents": [unit], "salt": squares[square][1]}))
    assert opened.legal, opened.outcome.reason if opened.outcome else opened
    went_on = attempt(target)
    assert went_on.legal and set(asked) == {moment}, asked          # its shares asked again, of the same moment
    assert "b-blip-1" not in session.state.blips and session.state.units["b-tactical-3"].target_counters >= 1
    targeted = session.game.record[-1]
    assert targeted.action.kind == Kind.TARGET
    assert session.recorded_shares("B")[-1] == (len(session.game.record) - 1, moment, targeted.shares["B"])


def small_kept_battle(tmp_path) -> tuple[BattleSession, Host, RemoteSeat, RemoteSeat]:
    """The small table in round 1, served with B's dice kept on B's computer (joined, its keeper answering): b-tactical-1
    stands in the open, in sight of a-tactical-1. The session, the host, A's seat and B's."""
    state = begin_battle(state_from_scenario(load_scenario(SMALL)))
    state.units["b-tactical-1"].x, state.units["b-tactical-1"].y = 8.0, 18.0
    dice = host_dice()
    state.dice_commitments.update({side: c for side, c in dice.commitments.items() if side != "B"})
    session = BattleSession(Game(state), dice, hotseat=False, autosaving=False)
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",), rate=1000.0, burst=1000.0)
    a = RemoteSeat(host.link("A"))
    b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=tmp_path / "b-computer")
    b.wait_for(lambda s: b.keeper is not None and b.keeper.dice is not None)
    return session, host, a, b


def test_the_same_shares_asked_again_after_a_take_back_are_taken_and_the_action_goes_on(tmp_path):
    """A's Target, whose dice took B's shares, taken back with B's consent and taken again, asks B's computer for
    the same shares of the same place: the host takes them again and the Target goes on with the same dice (it once
    answered "sent twice: taken once" and waited for them for ever)."""
    session, host, a, b = small_kept_battle(tmp_path)
    target = {"kind": "action", "action": {"kind": Kind.TARGET, "actor": "a-tactical-1",
                                           "args": {"dice": 3, "assign": {"b-tactical-1": 1}, "up_to": True}}}

    def targeted() -> list:
        for _ in range(500):
            with host.lock:
                record = session.game.record
                if record and record[-1].action.kind == Kind.TARGET and not host.desk.waiting_action():
                    return list(record[-1].rolls)
            time.sleep(0.01)
        raise AssertionError("the Target waits for B's shares")

    try:
        assert a.act(Kind.ACTIVATE, "a-tactical-1")["ok"]
        assert a.send(target)["ok"]
        first = targeted()
        assert a.send({"kind": "undo"})["ok"]
        assert b.send({"kind": "consent", "allow": True})["ok"]
        with host.lock:
            assert session.game.record[-1].action.kind != Kind.TARGET
        assert a.send(target)["ok"]
        assert targeted() == first                 # the same place's dice, from the same shares
        assert not b.refusals
    finally:
        a.close()
        b.close()
        host.stop()


def test_an_action_whose_shares_the_kept_device_refuses_is_refused_with_its_reason_and_the_battle_goes_on(tmp_path):
    """A's Target names more counters than its roll pays for and is refused after its roll (B's shares of that
    place sent); A's second Target at the same place asks B's computer for another action's dice, which it refuses
    (one action a place). B's computer says so to the host, and A's Target is refused with B's reason at once rather
    than waiting for shares that will not come; nothing changed, and a dice-free action moves the battle on."""
    session, host, a, b = small_kept_battle(tmp_path)
    try:
        assert a.act(Kind.ACTIVATE, "a-tactical-1")["ok"]
        def target(**args: Any) -> dict[str, Any]:
            return a.send({"kind": "action", "action": {"kind": Kind.TARGET, "actor": "a-tactical-1", "args": args}})

        greedy = target(dice=1, assign={"b-tactical-1": 40})
        assert not greedy["ok"] and "sensor pool" in greedy["reason"], greedy
        with host.lock:
            recorded = len(session.game.record)
        second = target(dice=2, assign={"b-tactical-1": 1}, up_to=True)
        assert not second["ok"] and "side B's device refused its share of the dice" in second["reason"], second
        assert "second action at action" in second["reason"]
        with host.lock:
            assert len(session.game.record) == recorded and host.desk.waiting_action() is None
        ended = a.act(Kind.END_ACTIVATION)
        assert ended["ok"], ended                                      # no dice: the battle moves on
    finally:
        a.close()
        b.close()
        host.stop()


def test_no_claim_is_offered_while_set_up_waits_for_an_absent_kept_side(kept):
    """B's computer leaves in set-up (its dice commitment sent) and A's roll for roles waits for B's share: A's screen
    says so, and offers no claim however long B stays away, since a battle still in set-up cannot be forfeited
    (the claim it offered was refused)."""
    session, host, seats, b_disk = kept
    b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    for _ in range(500):
        with host.lock:
            if session.dice_commitment("B") is not None:
                break
        time.sleep(0.01)
    b.close()
    a = seats["A"]
    host.desk.away_limit = 0.0                          # as though B's computer had been away that long
    rolled = a.send({"kind": "action", "action": {"kind": Kind.ROLL_ROLES, "actor": "", "args": {}}})
    assert rolled["ok"] and rolled["result"] == {"dice_asked": {"side": "B"}}, rolled
    screen = fresh(a)
    assert screen["waits_for_computer"] == {"side": "B", "away": True} and "may_claim_forfeit" not in screen
    refused = a.send({"kind": "forfeit"})
    assert not refused["ok"] and "set-up is not finished" in refused["reason"]
