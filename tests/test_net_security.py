"""Nobody gets in where they do not belong: a seat's link moves its credential into a cookie; a socket with no
credential, a wrong one or another hosting's gets one refusal and nothing else; a page of another site is refused;
each seat's socket carries only that seat's screen, and the public table's bytes do not change when both sides'
secrets are dealt again."""

from __future__ import annotations

import http.client
import random
import re

import pytest
from websockets.exceptions import ConnectionClosed

from referee.game.play.engine import Game
from referee.net.credentials import Credentials

from .net_support import battle_state, hosted, raw, read, session_of, token
from .test_service_screens import battle_states, redeal

SPY_ATTEMPTS = 200              # 40 of each kind; the soak run (``pytest -m soak``) tries a thousand


def _get(host, path: str, host_header: str | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", host.port, timeout=10)
    conn.request("GET", path, headers={"Host": host_header or f"127.0.0.1:{host.port}"})
    return conn.getresponse()


def test_a_seats_link_moves_its_credential_into_an_httponly_cookie():
    with hosted(session_of(battle_state())) as host:
        response = _get(host, f"/join/{token(host, 'A')}")
        assert response.status == 303
        assert response.getheader("Location") == "/hand"
        cookie = response.getheader("Set-Cookie")
        assert cookie.startswith(f"ss_seat={token(host, 'A')};")
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
        assert response.getheader("Referrer-Policy") == "no-referrer"
        assert _get(host, "/join/not-a-seat").status == 403
        # A page asked for under another name (a site whose name points at this address) is not served as this host.
        assert _get(host, f"/join/{token(host, 'A')}", host_header="evil.example").status == 421


def test_credentials_are_long_random_and_differ_per_seat():
    tokens = Credentials().tokens
    assert len(set(tokens.values())) == 4
    assert all(len(t) >= 32 for t in tokens.values())          # 24 random bytes: 192 bits
    assert Credentials().seat_of(None) is None and Credentials().seat_of("") is None


def _spy_tokens(host, rng: random.Random, attempts: int) -> list[str | None]:
    """No credential, wrong ones (near misses of the real ones, random ones) and another hosting's real tokens."""
    stale = Credentials().tokens
    real = list(host.credentials.tokens.values())
    spies: list[str | None] = []
    for i in range(attempts):
        kind = i % 5
        if kind == 0:
            spies.append(None)
        elif kind == 1:
            t = rng.choice(real)
            k = rng.randrange(len(t))
            spies.append(t[:k] + ("A" if t[k] != "A" else "B") + t[k + 1:])       # one character wrong
        elif kind == 2:
            spies.append(rng.choice(real)[:-1])
        elif kind == 3:
            spies.append(stale[rng.choice(("A", "B", "referee"))])
        else:
            spies.append("".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789-_") for _ in range(32)))
    return spies


def test_spies_get_one_refusal_and_nothing_of_any_seat():
    spies_refused(SPY_ATTEMPTS)


@pytest.mark.soak
def test_a_thousand_spies_get_one_refusal_and_nothing_of_any_seat():
    spies_refused(1000)


def spies_refused(attempts: int) -> None:
    rng = random.Random(5)
    with hosted(session_of(battle_state())) as host:
        secrets_of_b = [host.session.view_for("B")["missions"]["B"], token(host, "B"), token(host, "A")]
        received = 0
        for spy in _spy_tokens(host, rng, attempts):
            ws = raw(host, spy)
            frames = []
            if rng.random() < 0.3:
                try:
                    ws.send('{"type": "ask", "id": "x", "question": "screen"}')
                except ConnectionClosed:
                    pass
            try:
                while True:
                    frames.append(ws.recv(timeout=10))
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 1008
            assert len(frames) == 1, frames
            assert frames[0].startswith('{"type": "refused"') and '"screen"' not in frames[0]
            assert not any(s in frames[0] for s in secrets_of_b)
            received += len(frames[0])
        assert host.connected() == {"A": 0, "B": 0, "referee": 0, "spectator": 0}
        assert received > 0


def test_a_page_of_another_site_is_refused_its_own_origin_served():
    with hosted(session_of(battle_state())) as host:
        ws = raw(host, token(host, "A"), origin="http://evil.example")
        assert read(ws)["type"] == "refused"
        ws = raw(host, token(host, "A"), origin=f"http://127.0.0.1:{host.port}")
        first = read(ws)
        assert first["type"] == "screen" and first["screen"]["seat"] == "A"
        ws.close()


def test_each_seats_socket_carries_its_own_screen_and_the_table_page_the_public_one():
    with hosted(session_of(battle_state())) as host:
        for seat in ("A", "B", "referee", "spectator"):
            ws = raw(host, token(host, seat))
            assert read(ws)["screen"]["seat"] == seat
            ws.close()
        ws = raw(host, token(host, "A"), view="table")
        screen = read(ws)["screen"]
        ws.close()
        assert screen["seat"] == "spectator" and screen["view"]["missions"] == {"A": None, "B": None}


VERSION = re.compile(r',"version":\d+}$')


def _frame(ws) -> str:
    text = ws.recv(timeout=10)
    assert VERSION.search(text), text[-40:]
    return VERSION.sub("}", text)


def test_the_table_screen_is_the_same_bytes_under_two_redeals_of_both_sides_secrets():
    """Over 20 mid-battle states: the public table's frame as sent, with both sides' secrets as dealt and dealt
    again twice, is the same bytes; each side's own frame is the same bytes when the other side's are dealt again."""
    states = [s for battle in range(2) for s in battle_states(battle)[:10]]
    session = session_of(states[0])
    with hosted(session) as host:
        table, side_a = raw(host, token(host, "spectator")), raw(host, token(host, "A"))
        _frame(table), _frame(side_a)
        checked = 0
        for i, state in enumerate(states):
            rng = random.Random(i)
            frames = []
            for deal in (state, redeal(redeal(state, "A", rng), "B", rng), redeal(redeal(state, "A", rng), "B", rng)):
                with host.lock:
                    session.game = Game(deal)
                host.changed()
                frames.append(_frame(table))
                _frame(side_a)
            assert frames[0] == frames[1] == frames[2], f"state {i}: the table's screen tells a secret"
            own = []
            for deal in (state, redeal(state, "B", rng)):
                with host.lock:
                    session.game = Game(deal)
                host.changed()
                _frame(table)
                own.append(_frame(side_a))
            assert own[0] == own[1], f"state {i}: side A's screen tells a secret of side B"
            checked += 1
        assert checked == 20
