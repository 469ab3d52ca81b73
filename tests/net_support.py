"""Battles served on 127.0.0.1 for the network tests: a battle set up by the program (cards, missions, blips, seals)
and in its first round, its host, and a raw socket to it."""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any, Iterator

from websockets.sync.client import ClientConnection, connect

from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.battle.state import GameState
from referee.net.host import Host
from referee.service.session import BattleSession

from .test_leaks import set_up


def battle_state(seed: int = 701) -> GameState:
    """A battle past set-up, in round 1: both sides hold secrets (missions, cards, holding areas, blips)."""
    return begin_battle(set_up(seed))


def session_of(state: GameState, autosaving: bool = False) -> BattleSession:
    return BattleSession(Game(state), SeededDice(1), hotseat=False, autosaving=autosaving)


@contextmanager
def hosted(session: BattleSession, **options: Any) -> Iterator[Host]:
    host = Host.start(session, bind="127.0.0.1", **options)
    try:
        yield host
    finally:
        host.stop()


def ws_url(host: Host, view: str = "") -> str:
    return f"ws://127.0.0.1:{host.port}/ws" + (f"?view={view}" if view else "")


def raw(host: Host, token: str | None, origin: str | None = None, view: str = "") -> ClientConnection:
    """A socket to ``host`` with ``token`` as its bearer credential (None: none)."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return connect(ws_url(host, view), additional_headers=headers, origin=origin, open_timeout=10,
                   max_size=2 ** 24).__enter__()            # entered: websockets 17 asks for a context manager


def token(host: Host, seat: str) -> str:
    return host.credentials.tokens[seat]


def read(ws: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=10)))


def next_action(screen: dict[str, Any]) -> dict[str, Any] | None:
    """An action the seat of ``screen`` may take now that needs no choice and is always accepted: finish an
    activation, else activate the first unit or blip, else end the turn; at the end of a round, play on."""
    if not screen["acting"]:
        return None
    if (screen.get("round_words") or {}).get("mine"):
        return None                   # this side has spoken at the end of the round: the other side is to speak
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for legal in screen["legal"]:
        by_kind.setdefault(legal["kind"], []).append(legal)
    for kind in ("end-activation", "activate", "end-turn", "end-of-round"):
        if kind in by_kind:
            legal = by_kind[kind][0]
            return {"kind": kind, "actor": legal["actor"], "args": dict(legal["args"])}
    return None
