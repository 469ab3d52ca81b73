"""Connections fail and come back: a host killed mid-round (at every point of an intent: after its reply, after the
autosave but before the reply was kept, before the autosave) and started again on the autosave, and connections
dropped before the reply came: the clients send again with the same ids and no intent is lost or applied twice."""

from __future__ import annotations

import json
import random
import socket
import uuid

import pytest
from websockets.exceptions import ConnectionClosed

from referee.game.records.autosave import journal_path
from referee.net import host as host_module
from referee.net.client import RemoteSeat
from referee.net.host import Host, kept_port, ledger_file
from referee.service.opening import autosave_file, read_battle

from .net_support import battle_state, hosted, next_action, raw, read, session_of, token

# The default suite's runs; the soak run (``pytest -m soak``) kills the host twenty times and drops a hundred
# connections.
KILLS = 6                       # from seed 1: each of the three points of a kill comes up
DROPS = 30


def _acting(seats: dict[str, RemoteSeat]) -> tuple[str, dict] | None:
    for seat in ("A", "B"):
        action = next_action(seats[seat].ask("screen")["result"]["screen"])
        if action is not None:
            return seat, action
    return None


def _cut_last_line(path) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))


def _ends_with_an_action(journal) -> bool:
    """The journal's last line is an action's (its first names the snapshot it extends; a new snapshot may hold the
    last action itself, and then no line of the journal is the action's to lose)."""
    lines = journal.read_bytes().splitlines()
    return len(lines) >= 2 and b'"extends"' not in lines[-1] and b'"back_to"' not in lines[-1]


def test_a_host_killed_mid_round_loses_no_intent_and_applies_none_twice():
    killed_mid_round(KILLS, seed=1)


@pytest.mark.soak
def test_a_host_killed_twenty_times_mid_round_loses_no_intent_and_applies_none_twice():
    killed_mid_round(20, seed=7)


def killed_mid_round(kills: int, seed: int) -> None:
    rng = random.Random(seed)
    session = session_of(battle_state(), autosaving=True)
    host = Host.start(session, bind="127.0.0.1")
    port, credentials = host.port, host.credentials
    seats = {seat: RemoteSeat(host.link(seat)) for seat in ("A", "B")}
    applied: list[dict] = []           # the actions the intents applied, in order
    kinds = {"after-reply": 0, "before-reply-kept": 0, "before-autosave": 0}
    try:
        for kill in range(kills):
            last = None
            for _ in range(rng.randint(1, 4)):
                turn = _acting(seats)
                if turn is None:
                    break
                seat, action = turn
                ident = uuid.uuid4().hex
                reply = seats[seat].send({"kind": "action", "action": action}, ident=ident)
                assert reply["ok"], reply
                if "events" in reply["result"]:
                    applied.append(action)
                    last = (seat, ident, action)
            host.stop()                                   # the kill: nothing is flushed or closed in order
            journal = journal_path(autosave_file())
            how = "after-reply"
            if last is not None and journal.exists() and _ends_with_an_action(journal):
                how = rng.choice(["after-reply", "before-reply-kept", "before-autosave"])
            if how != "after-reply":
                _cut_last_line(ledger_file())             # the reply was never kept
            if how == "before-autosave":
                _cut_last_line(journal)                   # nor the action's line of the autosave: it is lost
                applied.pop()
            kinds[how] += 1
            session = read_battle(autosave_file()).open()
            session.hotseat = False
            host = Host.start(session, bind="127.0.0.1", port=port, credentials=credentials)
            for s in seats.values():
                s.reconnect()
            if last is not None and how != "after-reply":
                seat, ident, action = last
                again = seats[seat].send({"kind": "action", "action": action}, ident=ident)
                assert again["ok"], again
                if how == "before-autosave":
                    assert "events" in again["result"], again          # lost with the kill: applied now, once
                    applied.append(action)
                else:
                    assert again["result"].get("applied") is True, again   # applied before the kill: not again
            record = [e.action.to_data() for e in session.game.record]
            assert record[-len(applied):] == applied if applied else True
            assert len(record) == len(applied), f"kill {kill} ({how}): {len(record)} actions, {len(applied)} intents"
        assert all(kinds.values()), kinds
    finally:
        for s in seats.values():
            s.close()
        host.stop()


def test_connections_dropped_lose_no_intent_and_apply_none_twice():
    dropped(DROPS)


@pytest.mark.soak
def test_connections_dropped_a_hundred_times_lose_no_intent_and_apply_none_twice():
    dropped(100)


def dropped(drops: int) -> None:
    rng = random.Random(8)
    session = session_of(battle_state())
    with hosted(session) as host:
        seats = {seat: RemoteSeat(host.link(seat)) for seat in ("A", "B")}
        applied = 0
        start = session.actions_taken()
        for drop in range(drops):
            turn = _acting(seats)
            assert turn is not None
            seat, action = turn
            ident = uuid.uuid4().hex
            intent = {"kind": "action", "action": action}
            client = seats[seat]
            if rng.random() < 0.5:
                # Dropped right after sending, before the reply could come.
                client.send_raw(f'{{"type": "intent", "id": "{ident}", "intent": {json.dumps(intent)}}}')
                client.drop()
                client.reconnect()
                reply = client.send(intent, ident=ident)
            else:
                first = client.send(intent, ident=ident)
                client.drop()                 # the reply came, the connection went: sent again all the same
                client.reconnect()
                reply = client.send(intent, ident=ident)
                assert reply.get("again") is True and reply["result"] == first["result"]
            assert reply["ok"], reply
            if "events" in reply["result"]:
                applied += 1
            assert session.actions_taken() - start == applied, f"drop {drop}"
        for s in seats.values():
            s.close()


def test_a_host_told_to_stop_stops_without_waiting_for_its_servers_next_look(monkeypatch):
    """uvicorn's loop looks whether to stop once a tick; ``Host.stop`` wakes it instead. With a tick of a minute the
    host still ends within ``stop`` (which waits 10 s for its thread at most), and the seat's socket is closed."""
    monkeypatch.setattr(host_module, "TICK", 60.0)
    host = Host.start(session_of(battle_state()), bind="127.0.0.1")
    ws = raw(host, token(host, "A"))
    try:
        assert read(ws)["type"] == "screen"
        host.stop()
        assert host._thread is not None and not host._thread.is_alive()
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
    finally:
        ws.close()
        host.stop()


def test_a_host_started_again_listens_on_its_kept_port_and_keeps_it_when_that_port_was_taken():
    """The autosaved battle served again listens on the port it was served on (its links the same, and the address a
    phone keeps its side's secrets under). That port taken, it says so and listens elsewhere, and keeps the first
    port: once freed, the next start is there again, as its words say."""
    session = session_of(battle_state())
    first, moved = Host.start_again(session, bind="127.0.0.1")
    port = first.port
    first.stop()
    assert moved == "" and kept_port() == port
    again, moved = Host.start_again(session, bind="127.0.0.1")
    assert (again.port, moved) == (port, "")
    again.stop()
    holder = socket.socket()
    holder.bind(("127.0.0.1", port))
    holder.listen()
    try:
        elsewhere, moved = Host.start_again(session, bind="127.0.0.1")
        elsewhere.stop()
    finally:
        holder.close()
    assert elsewhere.port != port and f"earlier port {port} is taken" in moved and kept_port() == port
    back, moved = Host.start_again(session, bind="127.0.0.1")
    back.stop()
    assert (back.port, moved) == (port, "")
