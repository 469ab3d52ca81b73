"""Hostile and malformed messages: bad JSON, binary and huge frames, wrong types, replayed ids, intents for the other
seat, floods, and hostile HTTP requests. Each gets a refusal with its reason on that socket (or an HTTP error), the
host serves on, and the battle does not change at all."""

from __future__ import annotations

import http.client
import json
import random

from websockets.exceptions import ConnectionClosed

from referee.net.messages import MAX_MESSAGE

from .net_support import battle_state, hosted, raw, read, session_of, token

HOSTILE = 2000


def _state_of(host) -> str:
    """Everything that could change: the record's length, the version and every seat's screen."""
    with host.lock:
        screens = {seat: host.desk.screen_data(seat) for seat in ("A", "B", "referee", "spectator")}
        return json.dumps([host.session.actions_taken(), host.version, screens], sort_keys=True)


def _intent(ident, kind="action", **body):
    return json.dumps({"type": "intent", "id": ident, "intent": {"kind": kind, **body}})


def _hostile_frames(rng: random.Random, theirs: list[dict], own_kinds: set[str]) -> list[str | bytes]:
    """``HOSTILE`` frames of every kind of trouble (the replays are added as they are sent)."""
    makers = [
        lambda i: rng.choice(["{", "nul", "[1,2", '{"type": "intent"', "", " ", "\x00", "{'a': 1}", "{}{}"]),
        lambda i: bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))),
        lambda i: json.dumps(rng.choice([1, "x", [], None, True, 2.5, [{"type": "intent"}]])),
        lambda i: json.dumps({"type": "intent", "id": rng.choice([None, 7, "", "x" * 81, [], {}]),
                              "intent": {"kind": "undo"}}),
        lambda i: json.dumps({"type": rng.choice(["act", "INTENT", None, 3, "screen"]), "id": f"t{i}"}),
        lambda i: json.dumps({"type": "intent", "id": f"n{i}", "intent": rng.choice([None, [], "undo", 5])}),
        lambda i: _intent(f"k{i}", kind=rng.choice(["move", "", "Action", None, 4, "do"])),
        lambda i: _intent(f"a{i}", action=rng.choice([None, [], "move", {"kind": 5}, {"kind": "move", "actor": []},
                                                       {"kind": "move", "args": [1, 2]}])),
        lambda i: _intent(f"d{i}", action={"kind": "end-turn"}, dice=rng.choice(["6", ["6"], [True], [1] * 65, {}])),
        lambda i: '{"type": "intent", "id": "nan%d", "intent": {"kind": "answer", "value": NaN}}' % i,
        lambda i: _intent(f"v{i}", kind="answer", value=rng.choice(["4", None, True, [4]])),
        lambda i: _intent(f"c{i}", kind="consent", allow=rng.choice(["yes", 1, None])),
        lambda i: json.dumps({"type": "ask", "id": f"q{i}", "question": rng.choice(["state", "truth", None, 1])}),
        lambda i: "[" * 5000 + "]" * 5000,
        lambda i: "x" * rng.randint(MAX_MESSAGE + 1, 4 * MAX_MESSAGE),
        lambda i: _intent(f"o{i}", action={k: v for k, v in rng.choice(theirs).items() if k != "free"}),
        lambda i: _intent(f"u{i}", action={"kind": rng.choice(sorted({"move", "rifle", "roll-roles", "objectives",
                                                                       "end-of-round", "place-blip"} - own_kinds)),
                                           "actor": rng.choice(["", "a-tactical-1", "b-blip-XX", "nobody"]),
                                           "args": {"x": 1e9, "y": -1e9, "target": "nobody"}}),
        lambda i: _intent(f"p{i}", kind=rng.choice(["undo", "consent", "answer"]), allow=False, value=3),
        lambda i: json.dumps({"type": "ask", "id": f"r{i}", "question": "preview",
                              "action": rng.choice([None, {"kind": "move", "actor": "x"}, {"kind": "activate"}])}),
        lambda i: json.dumps({"type": "ask", "id": f"oq{i}", "question": "preview", "action": rng.choice(theirs)}),
        lambda i: json.dumps({"type": "ask", "id": f"l{i}", "question": "log", "from": rng.choice([-1, "0", None, 1.5])}),
    ]
    return [makers[i % len(makers)](i) for i in range(HOSTILE)]


def test_two_thousand_hostile_messages_are_each_refused_and_change_nothing():
    rng = random.Random(31)
    session = session_of(battle_state())
    with hosted(session, rate=1e9, burst=1e9) as host:
        acting = session.to_act()
        idle = "B" if acting == "A" else "A"
        theirs = [a.to_data() for a in session.screen(acting).legal]
        before = _state_of(host)
        sockets = {seat: raw(host, token(host, seat)) for seat in ("A", "B", "spectator")}
        for ws in sockets.values():
            assert read(ws)["type"] == "screen"
        answered, refusals, sent_ids = 0, 0, []
        frames = _hostile_frames(rng, theirs, {a.kind for a in session.screen(acting).legal})
        for i, frame in enumerate(frames):
            # The idle side sends the acting side's actions; the acting side everything else; the spectator anything.
            seat = idle if isinstance(frame, str) and '"id": "o' in frame else rng.choice([acting, "spectator"])
            if i % 10 == 9 and sent_ids:
                seat, ident = rng.choice(sent_ids)
                frame = _intent(ident, action={"kind": "end-turn"})          # replayed: its first reply again
            ws = sockets[seat]
            ws.send(frame)
            message = read(ws)
            answered += 1
            assert message["type"] in ("refused", "reply"), message
            if message["type"] == "reply":
                assert message["ok"] is False and message["reason"], message
                if '"intent"' in str(frame):
                    sent_ids.append((seat, message["id"]))
            else:
                assert message["reason"]
            refusals += 1
        assert answered == refusals == HOSTILE
        assert _state_of(host) == before
        # Still serving: a new socket gets its screen.
        fresh = raw(host, token(host, acting))
        assert read(fresh)["screen"]["acting"] is True
        for ws in [*sockets.values(), fresh]:
            ws.close()


def test_a_flood_is_refused_past_the_rate_and_the_socket_stays_open():
    session = session_of(battle_state())
    with hosted(session) as host:
        before = _state_of(host)
        ws = raw(host, token(host, "A"))
        read(ws)
        for i in range(300):
            ws.send(json.dumps({"type": "ask", "id": f"f{i}", "question": "log", "from": -1}))
        messages = [read(ws) for _ in range(300)]
        too_many = [m for m in messages if m["type"] == "refused" and m["reason"].startswith("too many messages")]
        assert len(too_many) >= 200 and all(m["type"] in ("refused", "reply") for m in messages)
        assert all(m["ok"] is False for m in messages if m["type"] == "reply")
        assert _state_of(host) == before
        ws.close()


def test_a_frame_past_the_hosts_limit_closes_that_socket_only():
    session = session_of(battle_state())
    with hosted(session) as host:
        before = _state_of(host)
        other = raw(host, token(host, "B"))
        read(other)
        for _ in range(5):
            ws = raw(host, token(host, "A"))
            read(ws)
            ws.send("x" * (300 * 1024))
            try:
                ws.recv(timeout=10)
                raise AssertionError("the socket stayed open")
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 1009            # message too big
        other.send(json.dumps({"type": "ask", "id": "still", "question": "log"}))
        assert read(other)["ok"] is True
        assert _state_of(host) == before
        other.close()


def test_hostile_http_requests_get_an_error_and_nothing_else():
    session = session_of(battle_state())
    with hosted(session) as host:
        before = _state_of(host)
        rng = random.Random(2)
        paths = ["/static/../host.py", "/static/hand.html", "/static/%2e%2e%2fhost.py", "/join/", "/join/x/y",
                 "/ws", "/hand/../../etc/passwd", "/nothing", "/join/" + "A" * 5000]
        tokens = list(host.credentials.tokens.values())
        statuses = set()
        for i in range(200):
            conn = http.client.HTTPConnection("127.0.0.1", host.port, timeout=10)
            path = paths[i % len(paths)]
            method = rng.choice(["GET", "POST", "PUT", "DELETE"])
            conn.request(method, path, body=b"x" * rng.randint(0, 2000),
                         headers={"Host": f"127.0.0.1:{host.port}"})
            response = conn.getresponse()
            body = response.read().decode("utf-8", "replace")
            statuses.add(response.status)
            assert response.status >= 400, (path, method, response.status)
            assert not any(t in body for t in tokens)
            conn.close()
        assert statuses <= {400, 403, 404, 405, 421}
        assert _state_of(host) == before
