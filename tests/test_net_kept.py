"""A side that keeps its secrets on its own computer (``game/battle/commit.py``, ``net/keeper.py``): side B joins a battle
hosted with ``kept_by=("B",)``; its client fills its holding area and sends the host one commitment a square. Until
a reveal the host's state, record, ledger and every file it wrote hold none of B's squares; at B's reveal the host
asks B's client, which opens the square with its salt; every forged opening is refused with the reason and nothing
changed, and the true one lets the reveal go on."""

from __future__ import annotations

import json
import secrets
import signal
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

import pytest

from referee import paths
from referee.game.battle.action_kinds import Kind
from referee.game.battle.commit import battle_id, blip_commitment, drawn_groups, square_commitment
from referee.game.battle.dice import FRESH_BYTES, Contribution, SeededDice, seed_commitment
from referee.game.play.engine import Game, begin_battle
from referee.game.play import setup as game_setup
from referee.game.play.setup import new_game
from referee.game.battle.state import state_from_scenario
from referee.game.records.autosave import read_autosave
from referee.net import keeper as keeper_module
from referee.net.client import RemoteSeat
from referee.net.host import Host
from referee.rules.scenario import load_scenario
from referee.rules.errors import InputError
from referee.service.battles import new_session
from referee.service.opening import SavedBattle, read_battle
from referee.service.session import BattleSession

from .net_support import next_action
from .test_net_cli import host_process, host_refused

FACTIONS = {"A": "council-of-zane", "B": "new-tokyo"}
SMALL = Path(__file__).parent / "ui" / "small_table.toml"
PIN = "b-pin-4711"


def setup_action(screen: dict[str, Any]) -> dict[str, Any]:
    """The seat's set-up decision left to the program ("place for me"): every blip at once when it may."""
    legal = screen["legal"]
    chosen = next((a for a in legal if a["kind"] == Kind.PLACE_BLIPS), legal[0])
    return {"kind": chosen["kind"], "actor": chosen["actor"], "args": dict(chosen["args"])}


def fresh(seat: RemoteSeat) -> dict[str, Any]:
    return dict(seat.ask("screen")["result"]["screen"])


def set_up(session: BattleSession, host: Host, seats: dict[str, RemoteSeat]) -> None:
    """Both sides set up from their own seats; B's holding area goes through its keeper."""
    for _ in range(200):
        with host.lock:
            if session.state.phase != "setup":
                return
            side = session.to_act()
        assert side is not None
        reply = seats[side].send({"kind": "action", "action": setup_action(fresh(seats[side]))})
        assert reply["ok"], reply
    raise AssertionError("set-up did not end")


def to_b_reveal(session: BattleSession, host: Host, seats: dict[str, RemoteSeat],
                watch: Callable[[], None] = lambda: None) -> tuple[str, dict[str, Any]]:
    """Play on (A with actions that reveal nothing of B) until B may reveal one of its blips: B activates it and
    reveals it; the reply says the host asks B's client for the square. ``watch`` is called before each action."""
    for _ in range(400):
        watch()
        with host.lock:
            side = session.to_act()
        assert side is not None, "the battle waits for nobody"
        screen = fresh(seats[side])
        if side == "B":
            reveal = next((a for a in screen["legal"] if a["kind"] == Kind.REVEAL), None)
            if reveal is not None:
                reply = seats["B"].send({"kind": "action", "action": {"kind": Kind.REVEAL, "actor": reveal["actor"],
                                                                      "args": dict(reveal["args"])}})
                assert reply["ok"], reply
                return str(reveal["actor"]), reply
            activate = next((a for a in screen["legal"] if a["kind"] == Kind.ACTIVATE
                             and a["actor"].startswith("b-")), None)
            action = ({"kind": activate["kind"], "actor": activate["actor"], "args": dict(activate["args"])}
                      if activate is not None else next_action(screen))
        else:
            action = next_action(screen)
        assert action is not None, screen["legal"]
        reply = seats[side].send({"kind": "action", "action": action})
        assert reply["ok"], reply
    raise AssertionError("side B never came to reveal a blip")


def host_files() -> list[Path]:
    """Every file the host wrote: the autosave and its journal, its intents ledger, the seats' credentials (the
    test's home)."""
    return sorted({p for folder in (paths.user_data_dir(), paths.saves_dir()) for p in folder.rglob("*")
                   if p.is_file()})


def host_memory(session: BattleSession, host: Host) -> str:
    """What the host holds of the battle, as text: its first state, its state now, the record, the desk."""
    game = session.game
    return json.dumps({"initial": game.initial.to_data(), "state": session.state.to_data(),
                       "record": [e.action.to_data() for e in game.record],
                       "desk": repr(vars(host.desk))}, sort_keys=True, default=str)


def typed_target(a: RemoteSeat, actor: str, target: str) -> dict:
    """``actor`` (one of A's troopers, activated here) puts 3 Target counters on ``target``, its three sensor dice
    typed as 6s; the reply to the last die."""
    assert a.act(Kind.ACTIVATE, actor)["ok"]
    reply = a.send({"kind": "action", "action": {"kind": Kind.TARGET, "actor": actor,
                                                 "args": {"dice": 3, "assign": {target: 3}}}})
    for _ in range(3):
        assert reply["ok"] and "pending" in reply["result"], reply
        reply = a.send({"kind": "answer", "value": 6})
    return reply


@pytest.fixture
def kept(tmp_path):
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS)
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",), rate=1000.0, burst=1000.0)
    seats: dict[str, RemoteSeat] = {}
    try:
        seats["A"] = RemoteSeat(host.link("A"))
        yield session, host, seats, tmp_path / "b-computer"
    finally:
        for seat in seats.values():
            seat.close()
        host.stop()


def test_the_host_holds_only_commitments_and_refuses_every_forged_opening(kept):
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), answers=False, pins={"B": PIN}, kept_folder=b_disk)
    # B's hand, as it is, may not fill its holding area on the host: its client sends commitments.
    set_up(session, host, seats)
    keeper = b.keeper
    assert keeper is not None and len(keeper.squares) == 16
    held = {n: units for n, (units, _salt) in keeper.squares.items() if units}
    assert held, "B's cards issued units: some squares hold them"
    with host.lock:
        assert session.state.square_commitments["B"] == {
            str(n): square_commitment(keeper.battle, "B", n, units, salt)
            for n, (units, salt) in keeper.squares.items()}
        assert all(c is None for c in session.state.holding["B"].squares.values())
        assert all(c is not None for c in session.state.holding["A"].squares.values())
        # Which square each of B's counters stands for: B chose it and sent commitments; the square the host holds
        # for the k-th counter placed is k, whatever B chose (a stand-in).
        counters = {b_id: blip_state.square for b_id, blip_state in session.state.blips.items()
                    if blip_state.side == "B"}
        assert len(counters) == 16 and sorted(counters.values()) == list(range(1, 17))
        assert session.state.blip_commitments["B"] == {
            b_id: blip_commitment(keeper.battle, "B", *keeper.blips[stand_in]) for b_id, stand_in in counters.items()}
    assert sorted(n for n, _salt in keeper.blips.values()) == list(range(1, 17))
    assert [n for n, _salt in keeper.blips.values()] != list(range(1, 17)), "B's order, drawn on B's computer"

    blip, reply = to_b_reveal(session, host, seats)
    assert reply["result"] == {"contents_asked": {"side": "B", "blip": blip}}
    asked = b.wait_for(lambda s: "open_square" in s)["open_square"]
    assert set(asked) == {"blip", "committed"}, asked          # the host knows no square of B's counter to ask
    square, _counter_salt = keeper.opened_by(asked["committed"])
    assert fresh(seats["A"])["contents_asked"] == {"side": "B", "blip": blip}
    assert "open_square" not in fresh(seats["A"])

    # Nothing of B's squares in the host's memory or on its disk: every square unknown, no salt, no square's units
    # (the host drew B's cards, so it knows which units they issued, never which square holds which).
    secrets_of_b = [salt for _units, salt in keeper.squares.values()]
    secrets_of_b += [salt for _square, salt in keeper.blips.values()]
    secrets_of_b += [json.dumps(units, sort_keys=True) for units in held.values()]
    with host.lock:
        memory = host_memory(session, host)
        saved = json.loads(json.dumps(session.state.to_data()))
        taken_then = session.actions_taken()
    assert set(saved["holding"]["B"].values()) == {None}
    assert not any(str(n) in note for e in saved["log"] for note in e.get("private", {}).values()
                   for n in ("square 1:", "1: b-"))
    files = host_files()
    assert {".json", ".journal", ".intents"} <= {p.suffix for p in files}
    # The autosave replays to a state with B's squares unknown: it holds no more than the host's memory.
    loaded = read_autosave(next(p for p in files if p.name == "autosave.json"))
    assert len(loaded.game.record) == taken_then
    replayed = loaded.game.state
    assert all(c is None for c in replayed.holding["B"].squares.values()), replayed.holding["B"].squares
    disk = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files
                     if b_disk not in p.parents)
    for secret in secrets_of_b:
        assert secret not in memory and secret not in disk, secret
    # B's own disk keeps them sealed with its PIN: no unit or salt in clear.
    kept_text = "\n".join(p.read_text(encoding="utf-8") for p in b_disk.rglob("*") if p.is_file())
    assert kept_text and not any(secret in kept_text for secret in secrets_of_b)

    # 160 forged openings: other contents, another salt, another square's opening, none at all; the counter said to
    # stand for another square (with its salt, or with that square's own opening too), another counter's opening,
    # no square or no salt for it. Each refused.
    truth = keeper.opening(b.wait_for(lambda s: "open_square" in s))
    assert truth is not None and truth["square"] == square
    others = [n for n in keeper.squares if n != square]
    other_counters = [(n, salt) for n, salt in keeper.blips.values() if n != square]
    with host.lock:
        before, taken = session.state.to_data(), session.actions_taken()
    for i in range(160):
        lie = json.loads(json.dumps(truth))
        kind = i % 8
        if kind == 0:
            lie["salt"] = secrets.token_hex(32)
        elif kind == 1:
            other_units, other_salt = keeper.squares[others[i % len(others)]]
            lie["contents"], lie["salt"] = [dict(u) for u in other_units], other_salt
        elif kind == 2:
            lie["contents"] = [dict(u) for u in keeper.squares[others[i % len(others)]][0]]
        elif kind == 3:
            lie["contents"] = [] if truth["contents"] else [dict(held[next(iter(held))][0])]
            lie["contents"] = lie["contents"] if lie["contents"] != truth["contents"] else [
                {**truth["contents"][0], "rating": "rookie" if truth["contents"][0]["rating"] != "rookie" else "elite"}]
        elif kind == 4:
            lie.pop("salt")
        elif kind == 5:
            lie["square"], lie["square_salt"] = other_counters[i % len(other_counters)]
        elif kind == 6:
            # Another square, opened whole: that square's units and salt, and the counter said to stand for it.
            lie["square"] = others[i % len(others)]
            other_units, other_salt = keeper.squares[lie["square"]]
            lie["contents"], lie["salt"] = [dict(u) for u in other_units], other_salt
        else:
            lie.pop("square_salt" if i % 16 == 7 else "square")
        if lie == truth:
            lie["salt"] = secrets.token_hex(32)
        refused = b.send(lie)
        assert not refused["ok"], (i, lie)
        assert ("commitment" in refused["reason"] or "salt" in refused["reason"]
                or "names no square" in refused["reason"]), refused["reason"]
    with host.lock:
        assert session.state.to_data() == before and session.actions_taken() == taken

    # The true opening: the reveal goes on, B's units (or a decoy's removal) on the table.
    told = b.send(truth)
    assert told["ok"] and told["result"] == {"opened": blip, "went_on": True}, told
    with host.lock:
        assert blip not in session.state.blips
        assert all(u["id"] in session.state.units for u in truth["contents"])


def test_the_kept_sides_client_answers_the_reveal_itself_and_resumes_from_its_own_disk(kept):
    session, host, seats, b_disk = kept
    seats["B"] = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    squares = dict(seats["B"].keeper.squares)
    # B quits and joins again: with another PIN its file does not open (said, nothing answered); with its PIN its
    # keeper reads its squares back from its own disk.
    seats["B"].close()
    wrong = RemoteSeat(host.link("B"), pins={"B": "not-" + PIN}, kept_folder=b_disk, answers=False)
    assert wrong.kept() is None and "side B's PIN" in wrong.keeping_problem, wrong.keeping_problem
    wrong.close()
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    assert b.kept() is not None and b.kept().squares == squares
    blip, reply = to_b_reveal(session, host, seats)
    assert reply["result"] == {"contents_asked": {"side": "B", "blip": blip}}
    b.wait_for(lambda s: all(x["id"] != blip for x in s["view"]["blips"]))
    with host.lock:
        assert blip not in session.state.blips
        assert session.actions_taken() > 0
    assert not b.refusals


def test_a_kept_sides_plain_holding_area_is_refused(kept):
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    for _ in range(100):
        with host.lock:
            step = session.state.setup.queue[0] if session.state.setup and session.state.setup.queue else None
            side = session.to_act()
        assert step is not None
        if step["step"] == "holding" and side == "B":
            break
        assert seats[side].send({"kind": "action", "action": setup_action(fresh(seats[side]))})["ok"]
    # Sent raw (not through its keeper): the host refuses it, nothing changed.
    b.keeper = None
    b.keeping_problem = "left out by the test"
    refused = b.send({"kind": "action", "action": {"kind": Kind.FILL_HOLDING, "actor": "B", "args": {}}})
    assert not refused["ok"] and "keeps its secrets on its own computer" in refused["reason"]


def test_seven_seconds_host_kept_by_serves_a_side_that_keeps_its_secrets(tmp_path, capsys, monkeypatch):
    proc, links, lines = host_process(["pastoral-hills", "--factions", "council-of-zane,new-tokyo", "--kept-by", "B",
                                       "--no-qr"], tmp_path)
    assert any("Side B keeps its secrets on its own device" in line for line in lines), lines
    try:
        b = RemoteSeat(links["B"], pins={"B": PIN}, kept_folder=tmp_path / "b-computer")
        a = RemoteSeat(links["A"])
        assert b.screen["keep_secrets"] is True and b.screen["kept_by"] == ["B"]
        assert "keep_secrets" not in a.screen and a.screen["kept_by"] == ["B"]
        b.close()
        a.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0, out
    for args, why in ((["--physical-dice"], "leave out --physical-dice"), (["--referee"], "refereed physical game"),
                      (["--computer", "B:normal"], "the computer's")):
        assert why in host_refused(["pastoral-hills", "--kept-by", "B", *args], capsys, monkeypatch)


def to_the_end(session: BattleSession, host: Host, seats: dict[str, RemoteSeat]) -> None:
    """Both sides play round 1 revealing nothing of B's, then agree to stop at its end (p.16, A43)."""
    for _ in range(400):
        with host.lock:
            if session.over:
                return
            side = session.to_act()
            phase = session.state.phase
        if phase == "end-of-round":
            for seat in ("A", "B"):
                seats[seat].send({"kind": "action", "action": {"kind": Kind.END_OF_ROUND, "actor": "",
                                                               "args": {"stop": True}}})
            continue
        assert side is not None
        action = next_action(fresh(seats[side]))
        assert action is not None
        assert seats[side].send({"kind": "action", "action": action})["ok"]
    raise AssertionError("the battle did not end")


def test_at_the_end_the_kept_side_opens_every_square_and_the_battle_is_scored(kept):
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    to_the_end(session, host, seats)
    # Over: B's computer opens each square still hidden by itself; then the battle is scored, the set-up checked.
    b.wait_for(lambda s: not (s.get("squares_hidden") or {}).get("B") and s["view"]["result"] is not None
               and s["view"]["result"]["level"] != "no result")
    with host.lock:
        state = session.state
        assert not session.scored_when_opened()
        assert sum(1 for e in session.game.record if e.action.kind == Kind.CONTENTS) >= 8    # B's blips, opened
        assert all(c is not None for c in state.holding["B"].squares.values())
        assert state.issued_kept["B"] == []
        assert not any("BREACH" in line for line in state.result.explain)
        opened = {n: [u.model_dump(mode="json", include={"id", "side", "faction", "rating", "type"}) for u in c]
                  for n, c in state.holding["B"].squares.items() if c}
        counters = {blip.id: blip.square for blip in state.blips.values() if blip.side == "B"}
        assert state.blip_commitments["B"] == {}
    kept_squares = {n: units for n, (units, _salt) in b.keeper.squares.items() if units}
    assert {n: kept_squares[n] for n in opened} == opened
    # Each counter opened stands, on the host now, for the square B's computer chose for it (with its salt).
    with host.lock:
        openings = {e.action.actor: (e.action.args["square"], e.action.args["square_salt"])
                    for e in session.game.record if e.action.kind == Kind.CONTENTS}
    assert openings and set(openings.values()) <= set(b.keeper.blips.values())
    assert all(counters[b_id] == square for b_id, (square, _salt) in openings.items() if b_id in counters)
    assert not b.refusals
    # The record replays (each opening checked again) to the state the host holds.
    loaded = read_autosave(next(p for p in host_files() if p.name == "autosave.json"))
    with host.lock:
        assert loaded.game.state.to_data()["holding"] == session.state.to_data()["holding"]
        assert {b_id: blip.square for b_id, blip in loaded.game.state.blips.items()} == {
            b_id: blip.square for b_id, blip in session.state.blips.items()}


def test_a_set_up_that_left_out_an_issued_unit_is_flagged_at_the_end(kept, monkeypatch):
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    real = keeper_module.drawn_groups
    # A client that breaks the rule: one issued unit goes into no square. The host cannot see it until the end: it
    # knows B's units only once B's computer opens its cards.
    monkeypatch.setattr(keeper_module, "drawn_groups", lambda units: real(units[:-1]))
    set_up(session, host, seats)
    to_the_end(session, host, seats)
    b.wait_for(lambda s: s["view"]["result"] is not None and s["view"]["result"]["level"] != "no result")
    left_out = b.keeper.cards["issued"][-1]["id"]
    with host.lock:
        assert session.state.issued_kept["B"] == []
        breach = [line for line in session.state.result.explain if line.startswith("BREACH")]
    assert len(breach) == 1 and f"held no square for {left_out}," in breach[0], (left_out, breach)
    report = seats["A"].ask("report")["result"]["report"]
    assert breach[0] in json.dumps(report)


def test_two_counters_committed_to_one_square_are_a_breach_and_the_battle_goes_on(kept, monkeypatch):
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    cheat: dict[str, int] = {}

    def commit(self, screen, arrangement=None, order=None):
        # A client that breaks A59: its second counter is committed to the first counter's square, so one square
        # has no counter. The host cannot see it until the second of the two is opened.
        squares, _blips = KEEPER_COMMIT(self, screen, arrangement, order)
        cheat.update(shown=self.blips[1][0], lost=self.blips[2][0])
        self.blips[2] = (self.blips[1][0], keeper_module.new_square_salt())
        self._write()
        return squares, {str(k): blip_commitment(self.battle, self.side, n, salt) for k, (n, salt) in self.blips.items()}

    monkeypatch.setattr(keeper_module.Keeper, "commit", commit)
    set_up(session, host, seats)
    to_the_end(session, host, seats)
    # Both counters are opened at the end: the second is refused nothing, it is the breach, and the battle is scored.
    b.wait_for(lambda s: s["view"]["result"] is not None and s["view"]["result"]["level"] != "no result")
    with host.lock:
        state = session.state
        breaches = list(state.breaches)
        explain = list(state.result.explain)
        lost = state.holding["B"].squares[cheat["lost"]]
        shown = state.holding["B"].squares[cheat["shown"]]
    # The counter committed to a square shown already; then, its cards opened, the units of the square no counter
    # stood for (none if it was a decoy), issued by its cards and in no square opened.
    held_lost = bool(b.keeper.squares[cheat["lost"]][0])
    assert len(breaches) == 1 + held_lost and f"square {cheat['shown']}," in breaches[0], breaches
    assert breaches[0].startswith("BREACH") and all(line in explain for line in breaches)
    assert not held_lost or "held no square for" in breaches[1]
    # The square no counter stood for is never opened: its units count for nothing, named as left out at the end.
    assert lost is None and shown is not None
    kept_lost = [u["id"] for u in b.keeper.squares[cheat["lost"]][0]]
    assert all(any(unit in line for line in explain if line.startswith("BREACH")) for unit in kept_lost)
    assert not b.refusals
    report = json.dumps(seats["A"].ask("report")["result"]["report"])
    assert breaches[0] in report
    assert json.dumps(seats["A"].screen["view"]["breaches"]) == json.dumps(breaches)
    # The record replays: the breach is found again from the openings it holds.
    loaded = read_autosave(next(p for p in host_files() if p.name == "autosave.json"))
    assert loaded.game.state.breaches == breaches


def test_a_kept_side_whose_computer_stays_away_at_the_end_may_be_claimed_by_the_other_side(kept):
    session, host, seats, b_disk = kept
    # B's client opens nothing by itself: its computer goes away when the battle ends and waits for its squares.
    seats["B"] = b = RemoteSeat(host.link("B"), answers=False, pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    to_the_end(session, host, seats)
    a = seats["A"]
    a.wait_for(lambda s: s.get("waits_for_computer") == {"side": "B", "away": False})
    claim = {"kind": Kind.FORFEIT}
    early = a.send(claim)
    assert not early["ok"] and "side B's computer is here" in early["reason"], early
    b.close()
    screen = a.wait_for(lambda s: (s.get("waits_for_computer") or {}).get("away") is True)
    assert "may_claim_forfeit" not in screen                 # away, but not yet for long enough (300 s)
    refused = a.send(claim)
    assert not refused["ok"] and "once it has been away 300 s" in refused["reason"], refused
    assert not seats["A"].send({"kind": Kind.FORFEIT}).get("ok")
    with host.lock:
        host.desk.away_limit = 0.0           # as though B had been away that long
        assert session.state.result.level == "no result"
    done = a.send(claim)
    assert done["ok"], done
    with host.lock:
        result = session.state.result
        hidden = [c for c in session.state.holding["B"].squares.values() if c is None]
        assert not session.scored_when_opened() and session.hidden_blips("B") == []
    assert result.level == "forfeited" and result.winner == "A" and result.headline.startswith("FORFEIT: side B")
    assert hidden                                             # nothing of B's secret was decided for it
    report = json.dumps(a.ask("report")["result"]["report"])
    assert "FORFEIT: side B" in report
    assert "waits_for_computer" not in a.wait_for(lambda s: s["view"]["result"]["level"] == "forfeited")
    # The record replays to the same forfeit.
    loaded = read_autosave(next(p for p in host_files() if p.name == "autosave.json"))
    assert loaded.game.state.result.level == "forfeited" and loaded.game.state.result.winner == "A"


def test_a_kept_battles_save_is_served_again_never_opened_at_a_window(kept):
    session, host, seats, b_disk = kept
    seats["B"] = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    saved = read_battle(next(p for p in host_files() if p.name == "autosave.json"))
    assert isinstance(saved, SavedBattle) and saved.kept_elsewhere() == ["B"]
    with pytest.raises(InputError) as refused:
        saved.open()
    assert "--kept-by B" in refused.value.message()
    again = saved.open(served=True)
    assert all(c is None for c in again.state.holding["B"].squares.values())
    assert again.state.square_commitments == session.state.square_commitments


def test_a_reveal_by_the_other_sides_target_waits_for_the_kept_sides_computer_then_goes_on(tmp_path):
    """The small table, side B kept: A's Target (its sensor dice typed on A's seat) reveals b-blip-1; the host asks
    B's computer, which opens the square by itself, and A's Target goes on: the unit revealed takes its counters."""
    state = begin_battle(state_from_scenario(load_scenario(SMALL)))
    state.blips["b-blip-1"].x, state.blips["b-blip-1"].y = 8.0, 18.0      # in the open, in sight of a-tactical-1
    state.dice_commitments = {"seed": secrets.token_hex(32)}
    square = state.blips["b-blip-1"].square
    unit = {"id": "b-tactical-3", "side": "B", "faction": "new-tokyo", "rating": "veteran", "type": "tactical"}
    squares = {n: ([unit] if n == square else [], secrets.token_hex(32)) for n in range(1, 17)}
    state.square_commitments["B"] = {str(n): square_commitment(battle_id(state.dice_commitments), "B", n, units, salt)
                                     for n, (units, salt) in squares.items()}
    state.holding["B"].squares.update({n: None for n in range(1, 17)})
    state.issued_kept["B"] = [dict(unit)]
    session = BattleSession(Game(state), None, hotseat=False, autosaving=False)
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",))
    a = RemoteSeat(host.link("A"))
    b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=tmp_path / "b-computer")
    try:
        keeper = b.kept()
        assert keeper is not None
        keeper.squares = squares
        reply = typed_target(a, "a-tactical-1", "b-blip-1")
        assert reply["result"] == {"contents_asked": {"side": "B", "blip": "b-blip-1"}}, reply
        shown = a.wait_for(lambda s: all(x["id"] != "b-blip-1" for x in s["view"]["blips"]))
        assert {u["id"]: u["target_counters"] for u in shown["view"]["units"]}["b-tactical-3"] == 3
        with host.lock:
            assert session.state.issued_kept["B"] == []
        assert not b.refusals and "contents_asked" not in shown
    finally:
        a.close()
        b.close()
        host.stop()


def readable_memory(pid: int) -> list[bytes]:
    """Every readable region of process ``pid``'s memory, as a dump would hold it (``/proc/PID/mem``)."""
    regions = []
    with open(f"/proc/{pid}/maps", encoding="utf-8") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
        for line in maps:
            span, perms = line.split()[:2]
            if not perms.startswith("r"):
                continue
            low, high = (int(x, 16) for x in span.split("-"))
            try:
                mem.seek(low)
                regions.append(mem.read(high - low))
            except (OSError, ValueError, OverflowError):
                continue                      # a region the kernel will not hand over ([vvar] and the like)
    return regions


def assert_dump_holds_none(proc, home: Path, seat: RemoteSeat, committed: list[bytes], hidden: list[bytes]) -> None:
    """The host process's memory, dumped, holds an id ``seat`` sends it now (so the dump reads what the host holds)
    and each of ``committed``, and neither it nor any file under ``home`` holds any of ``hidden``."""
    marker = secrets.token_hex(32)              # a text like a salt, which the host was sent (an intent's id)
    seat.send({"kind": "undo"}, ident=marker)
    dump = readable_memory(proc.pid)
    assert sum(len(r) for r in dump) > 10_000_000
    assert any(marker.encode() in region for region in dump)
    assert all(any(c in region for region in dump) for c in committed)
    assert not [s for s in hidden if any(s in region for region in dump)]
    disk = [p for p in home.rglob("*") if p.is_file()]
    assert disk and not [p for p in disk for s in hidden if s in p.read_bytes()]


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="no /proc to read a process's memory from")
def test_a_host_process_dumped_after_set_up_holds_none_of_the_kept_sides_salts_nor_its_dice(tmp_path):
    proc, links, _ = host_process(["pastoral-hills", "--factions", "council-of-zane,new-tokyo", "--kept-by", "B",
                                   "--no-qr"], tmp_path / "host")
    a = RemoteSeat(links["A"])
    b = RemoteSeat(links["B"], pins={"B": PIN}, kept_folder=tmp_path / "b-computer", answers=False)
    try:
        for _ in range(200):
            screens = {"A": fresh(a), "B": fresh(b)}
            if screens["A"]["view"]["phase"] != "setup":
                break
            side = next(s for s, screen in screens.items() if screen["acting"])
            reply = (a if side == "A" else b).send({"kind": "action", "action": setup_action(screens[side])})
            assert reply["ok"], reply
        assert fresh(a)["view"]["phase"] != "setup"
        keeper = b.keeper
        assert keeper is not None
        salts = [salt.encode() for _units, salt in keeper.squares.values()]
        salts += [salt.encode() for _square, salt in keeper.blips.values()]     # which square each counter is
        assert keeper.dice is not None
        salts += [c.encode() for c in keeper.dice]            # B's dice contribution and its commitment's salt
        # B's cards, drawn on B's computer: the salt of their commitment, and the units they issue as B keeps them.
        assert keeper.cards is not None
        salts += [keeper.cards["salt"].encode(), json.dumps(keeper.cards["issued"]).encode()]
        committed = [c.encode() for c in fresh(a)["view"]["square_commitments"]["B"].values()]
        committed.append(fresh(a)["view"]["card_commitments"]["B"]["committed"].encode())
        committed += [c.encode() for c in fresh(b)["view"]["blip_commitments"]["B"].values()]
        # The dump reads what the host holds (B's commitments to its squares and to its counters' squares, the id it
        # was sent), and none of B's salts is.
        assert_dump_holds_none(proc, tmp_path / "host", a, committed, salts)
    finally:
        a.close()
        b.close()
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)


# ---- which square each of B's counters stands for: B's choice, unseen by the host and the other seat ----------------


KEEPER_COMMIT = keeper_module.Keeper.commit


def fixed_dice() -> SeededDice:
    """Keyed dice that roll the same in every run (contributions, seed and fresh entropy given), so two battles differ
    only in what side B chose on its own computer."""
    contributions = {side: Contribution(side, side.lower() * 64, side.lower() * 32) for side in ("A", "B")}
    commitments = {side: c.commitment for side, c in contributions.items()}
    commitments["seed"] = seed_commitment(4711, 4712)
    return SeededDice(4711, secret_salt=4712, contributions=contributions, commitments=commitments,
                      fresh=b"f" * FRESH_BYTES)


def played_with_order(order: list[int], tmp_path: Path, monkeypatch) -> tuple[list[str], list[str], dict[str, int]]:
    """A battle served with B kept, set up from both seats and played to B's first reveal, B's counters standing for
    ``order`` (the squares in the order placed) and its units in the same squares each run: what seat A and the
    table were shown all along (as bytes), and which square B's computer opened for the counter revealed."""
    salts = iter(f"{n:064x}" for n in range(1, 1000))
    monkeypatch.setattr(keeper_module, "new_square_salt", lambda: next(salts))
    # The seals' salts are drawn afresh for every battle, whatever B chose: the same in both runs here.
    seal_salts = iter(f"{n:032x}" for n in range(1, 100))
    monkeypatch.setattr(game_setup, "new_salt", lambda: next(seal_salts))
    def commit(self, screen, arrangement=None, _order=None):
        issued = [str(u["id"]) for u in self.cards["issued"]]         # drawn on B's computer: the host has none
        same = {str(n): group for n, group in enumerate(drawn_groups(issued), start=1)}
        return KEEPER_COMMIT(self, screen, same, order)

    monkeypatch.setattr(keeper_module.Keeper, "commit", commit)
    # B's dice contribution, drawn on B's computer: the same in both runs, so the dice are too.
    monkeypatch.setattr(keeper_module, "draw_contribution", lambda side: Contribution(side, "b" * 64, "b" * 32))
    game = new_game(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS, {}, labels_apart=True)
    session = BattleSession(game, fixed_dice(), hotseat=False, autosaving=False)
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",), rate=1000.0, burst=1000.0)
    seats = {"A": RemoteSeat(host.link("A")),
             "B": RemoteSeat(host.link("B"), answers=False, pins={"B": PIN}, kept_folder=tmp_path / f"b-{order[0]}")}
    table = RemoteSeat(host.link("spectator"))
    shown: dict[str, list[str]] = {"A": [], "spectator": []}
    # B's computer commits to its dice contribution as it joins: the screens are compared from then on.
    seats["B"].wait_for(lambda s: "B" in s["view"]["dice_commitments"])

    def look() -> None:
        for name, seat in (("A", seats["A"]), ("spectator", table)):
            screen = fresh(seat)
            shown[name].append(json.dumps(screen, sort_keys=True))

    try:
        for _ in range(200):
            look()
            with host.lock:
                if session.state.phase != "setup":
                    break
                side = session.to_act()
            assert side is not None
            assert seats[side].send({"kind": "action", "action": setup_action(fresh(seats[side]))})["ok"]
        blip, _reply = to_b_reveal(session, host, seats, look)
        look()
        asked = seats["B"].wait_for(lambda s: "open_square" in s)["open_square"]
        keeper = seats["B"].keeper
        assert keeper is not None
        opened = keeper.opened_by(asked["committed"])
        assert opened is not None
        with host.lock:
            stand_ins = {b_id: blip_state.square for b_id, blip_state in session.state.blips.items()
                         if blip_state.side == "B"}
        return shown["A"], shown["spectator"], {"revealed": opened[0], "stand_in": stand_ins[blip]}
    finally:
        for seat in (*seats.values(), table):
            seat.close()
        host.stop()


def test_the_other_seat_and_the_table_are_shown_the_same_bytes_whichever_squares_b_chose(tmp_path, monkeypatch):
    one = list(range(1, 17))
    other = list(reversed(one))
    a_one, table_one, revealed_one = played_with_order(one, tmp_path, monkeypatch)
    a_other, table_other, revealed_other = played_with_order(other, tmp_path, monkeypatch)
    # B chose differently: the counter revealed stands for another square, though the host held the same stand-in.
    assert revealed_one["revealed"] != revealed_other["revealed"], (revealed_one, revealed_other)
    assert revealed_one["stand_in"] == revealed_other["stand_in"]
    assert len(a_one) >= 15 and len(set(a_one)) >= 12          # set-up step by step, then play to the reveal
    assert a_one == a_other
    assert table_one == table_other


def test_a_counter_placed_for_a_square_chosen_on_bs_computer_stands_for_it_unseen_by_the_host(kept):
    """B places its counters one by one, each for a square it picks from its own screen's list (as the set-up
    table's clicks do): its client names the commitment to that square (its slot), the host never the square."""
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), answers=False, pins={"B": PIN}, kept_folder=b_disk)
    chosen: dict[str, int] = {}
    for _ in range(200):
        with host.lock:
            if session.state.phase != "setup":
                break
            side = session.to_act()
            step = session.state.setup.queue[0]["step"] if session.state.setup and session.state.setup.queue else ""
        assert side is not None
        if side != "B" or step != "blip":
            assert seats[side].send({"kind": "action", "action": setup_action(fresh(seats[side]))})["ok"]
            continue
        keeper = b.keeper
        assert keeper is not None
        screen = keeper.shown(fresh(b))
        left = next(a for a in screen["legal"] if a["kind"] == Kind.PLACE_BLIP)["free"]["square"]
        # B's own list: the squares its counters not placed yet stand for, not the host's stand-ins.
        assert sorted(left) == sorted(keeper.blips[k][0] for k in keeper._unplaced(fresh(b)))
        square = left[-1]                                      # not the next in B's order: a choice
        if not chosen:
            # Named to the host (not through B's keeper), a square for B's counter is refused with the reason.
            b.keeper, b.keeping_problem = None, "left out by the test"
            refused = b.act(Kind.PLACE_BLIP, "B", square=square)
            b.keeper, b.keeping_problem = keeper, ""
            assert not refused["ok"] and "committed to its counters' squares" in refused["reason"], refused
        before = {c["id"] for c in screen["view"]["blips"]}
        assert b.act(Kind.PLACE_BLIP, "B", square=square)["ok"]
        (placed,) = {c["id"] for c in fresh(b)["view"]["blips"]} - before
        chosen[placed] = square
    assert len(chosen) == 16 and sorted(chosen.values()) == list(range(1, 17))
    shown = keeper.shown(fresh(b))
    assert {c["id"]: c["square"] for c in shown["view"]["blips"] if c["side"] == "B"} == chosen
    with host.lock:
        # The host's squares for B's counters: the stand-ins 1 to 16 in the order placed, never B's choices.
        assert sorted(blip.square for blip in session.state.blips.values() if blip.side == "B") == list(range(1, 17))
        assert set(session.state.blip_commitments["B"]) == set(chosen)


def test_both_sides_kept_play_to_the_end_each_opening_its_own_once_and_the_attacker_before_its_objectives(tmp_path):
    """Both sides keep their secrets on their own computers. At the end of round 1 the defender Withdraws and the
    attacker allows it (p.16): in Control, the attacker's computer opens its squares and cards before it sets the
    objectives (its mission says from how many counters one is Inspected, A41), the defender's only after. Each
    computer opens each of its squares once, though the other's openings change the screen meanwhile."""
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS)
    host = Host.start(session, bind="127.0.0.1", kept_by=("A", "B"), rate=1000.0, burst=1000.0)
    seats = {side: RemoteSeat(host.link(side), kept_folder=tmp_path / side) for side in ("A", "B")}
    try:
        set_up(session, host, seats)
        for _ in range(600):
            with host.lock:
                if session.over:
                    break
                side, phase, attacker = session.to_act(), session.state.phase, session.state.attacker
            if phase == "end-of-round":
                for seat in ("A", "B"):
                    screen = fresh(seats[seat])
                    words = screen.get("round_words") or {}
                    if screen["view"]["phase"] != "end-of-round" or (words.get("mine") and not
                                                                    words.get("withdraw_asked")):
                        continue
                    args = ({"answer": "allow"} if words.get("withdraw_asked") else
                            {} if seat == attacker else {"withdraw": seat})
                    assert seats[seat].send({"kind": "action", "action": {"kind": Kind.END_OF_ROUND, "actor": "",
                                                                          "args": args}})["ok"]
                continue
            if side is None:            # the end: a computer opens its squares and cards by itself
                time.sleep(0.005)
                continue
            screen = fresh(seats[side])
            objectives = next((a for a in screen["legal"] if a["kind"] == Kind.OBJECTIVES), None)
            action = ({"kind": Kind.OBJECTIVES, "actor": "", "args": {o: "inspected" for o in objectives["free"]}}
                      if objectives is not None else next_action(screen))
            assert action is not None
            reply = seats[side].send({"kind": "action", "action": action})
            assert reply["ok"] or "opens its cards first" in reply["reason"], reply
            if not reply["ok"]:
                time.sleep(0.005)          # its computer is opening them
        for seat in seats.values():
            seat.wait_for(lambda s: not any((s.get("squares_hidden") or {}).values()) and not s.get("cards_unopened")
                          and (s["view"]["result"] or {}).get("level") not in (None, "no result"))
            assert not seat.refusals and seat.keeper is not None and not seat.keeper.problems, seat.refusals
        with host.lock:
            state = session.state
            kinds = [(e.action.kind, e.action.actor) for e in session.game.record]
        assert session.over and state.breaches == [] and state.result is not None and state.result.pending is None
        opened = [actor for kind, actor in kinds if kind == Kind.CONTENTS]
        assert len(opened) == len(set(opened))
        if state.attacker is not None:
            chosen_at = kinds.index((Kind.OBJECTIVES, ""))
            assert kinds.index((Kind.CARDS_OPENED, state.attacker)) < chosen_at
            assert kinds.index((Kind.CARDS_OPENED, "B" if state.attacker == "A" else "A")) > chosen_at
        else:
            # A tie of the attacker/defender roll (1 in 6) is a Chance Encounter: no attacker, no objective to set.
            assert (Kind.OBJECTIVES, "") not in kinds
    finally:
        for seat in seats.values():
            seat.close()
        host.stop()


def test_a_second_computer_without_the_sides_secrets_commits_nothing_in_its_name(kept):
    """B's link joined from a second computer after B's own set it up: that computer holds none of B's secrets, so
    it commits nothing for B (a holding area, a Scramble) and says why, and B's own computer goes on."""
    session, host, seats, b_disk = kept
    seats["B"] = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    seats["other"] = other = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk.parent / "elsewhere")
    stranger = other.kept()
    assert stranger is not None and stranger.stranger(fresh(other)) == "its cards"
    assert seats["B"].keeper is not None and seats["B"].keeper.stranger(fresh(seats["B"])) == ""
    with host.lock:
        version = host.version
    refused = other.send({"kind": "action", "action": {"kind": Kind.FILL_HOLDING, "actor": "B", "args": {}}})
    assert not refused["ok"] and "does not hold side B's secrets for this battle (its cards)" in refused["reason"]
    assert host.version == version
