"""A seat at a hosted battle, for Python clients (the window's ``join``, tests, benchmarks): it keeps the seat's
latest screen, sends intents and questions and waits for their replies, and reconnects with the same credential
when the connection drops. An intent is sent again with its id after a reconnect: the host applies it once.

When the host says this seat's side keeps its secrets on its own computer (``keep_secrets``), the seat keeps them
(``keeper.py``): its holding area goes to the host as commitments, and each square a reveal needs is opened at once,
from a thread of its own, with no one typing; so are the commitment to its dice contribution, its shares of each
moment a public die waits for, and the contribution's opening at the end.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Final, Mapping
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from ..rules.errors import InputError
from .keeper import Keeper, keeper_for

TIMEOUT: Final = 10.0
RATE_PAUSE: Final = 0.1          # a message refused for the host's rate is sent again after this pause


class Refused(Exception):
    """The host refused the connection (no seat for this credential, an origin it does not serve)."""


def split_link(link: str) -> tuple[str, str | None]:
    """The host's base URL and the credential of a seat's link (``{url}/join/{token}``); a bare URL: no token."""
    parts = urlsplit(link)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"a battle's link starts with http:// and names its host (got {link!r})")
    base = f"{parts.scheme}://{parts.netloc}"
    segments = [p for p in parts.path.split("/") if p]
    token = segments[1] if len(segments) == 2 and segments[0] == "join" else None
    return base, token


class RemoteSeat:
    """One seat's connection to a host (see the module note)."""

    def __init__(self, link_or_url: str, token: str | None = None, *, view: str | None = None,
                 on_screen: Callable[[int, dict[str, Any]], None] | None = None, answers: bool = True,
                 pins: Mapping[str, str] | None = None, kept_folder: Path | None = None, dice: bool = True,
                 keeper: Keeper | None = None) -> None:
        self.base, linked = split_link(link_or_url)
        self.token = token or linked
        self.view = view
        self.on_screen = on_screen
        self.screen: dict[str, Any] | None = None
        self.version = -1
        self.refusals: list[str] = []                 # the host's "refused" messages, newest last
        self._replies: dict[str, dict[str, Any]] = {}
        self._changed = threading.Condition()
        self._ws: ClientConnection | None = None
        self._reader: threading.Thread | None = None
        self._closing = False
        # A side kept on this computer: its keeper, made once the host says so (``pins``: the players' PINs by side,
        # its own sealing its file, else a key the program keeps; ``answers``: open each square asked for at once).
        # ``keeper``: one already opened for this seat's side (a battle by e-mail's turn opens it to check the file),
        # so its sealed file is not opened, nor its PIN stretched, a second time.
        self.keeper: Keeper | None = keeper
        self.keeping_problem = ""
        # (``dice``: send the side's dice commitment, shares and opening at once, as they are asked for.)
        self._pins, self._kept_folder, self._answers, self._dice = dict(pins or {}), kept_folder, answers, dice
        self._keeper_lock = threading.Lock()
        self._answering: threading.Thread | None = None
        self._answered = -1                           # the screen version whose ask was answered last
        self._connect()

    # ---- the connection ------------------------------------------------------------------------------------------
    @property
    def ws_url(self) -> str:
        scheme = "wss" if self.base.startswith("https") else "ws"
        query = f"?view={self.view}" if self.view else ""
        return f"{scheme}{self.base[self.base.index(':'):]}/ws{query}"

    def _connect(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        try:
            # Entered as a context manager (websockets 17 asks it of a direct connect); the connection lives as long
            # as the seat holds it, and ``drop`` closes it.
            ws = connect(self.ws_url, additional_headers=headers, open_timeout=TIMEOUT, max_size=2 ** 24).__enter__()
        except (InvalidHandshake, InvalidURI) as e:
            raise Refused(str(e)) from None
        try:
            first = json.loads(ws.recv(timeout=TIMEOUT))
        except (ConnectionClosed, TimeoutError) as e:
            ws.close()
            raise ConnectionError(f"the host at {self.base} closed the connection before a screen ({e})") from None
        if first.get("type") == "refused":
            ws.close()
            raise Refused(str(first.get("reason")))
        self._ws = ws
        self._take(first)
        self._reader = threading.Thread(target=self._read, args=(ws,), name="remote-seat", daemon=True)
        self._reader.start()

    def _read(self, ws: ClientConnection) -> None:
        try:
            for frame in ws:
                self._take(json.loads(frame))
        except (ConnectionClosed, OSError, ValueError):
            pass
        with self._changed:
            if self._ws is ws:
                self._ws = None
            self._changed.notify_all()

    def _take(self, message: dict[str, Any]) -> None:
        with self._changed:
            kind = message.get("type")
            if kind == "screen" and int(message.get("version", -1)) >= self.version:
                self.version = int(message["version"])
                self.screen = message["screen"]
                # Made with the first screen that says so: a computer joining again shows its side's own squares,
                # cards and log words from that screen on, not from the next one the host happens to send.
                keeper = self.kept() if message["screen"].get("keep_secrets") else None
                if keeper is not None:
                    keeper.shown(message["screen"])
                if message["screen"].get("keep_secrets") and self._answering is None:
                    self._answering = threading.Thread(target=self._keep, name="kept-side", daemon=True)
                    self._answering.start()
                if self.on_screen is not None:
                    self.on_screen(self.version, message["screen"])
            elif kind == "reply":
                self._replies[str(message.get("id"))] = message
            elif kind == "refused":
                self.refusals.append(str(message.get("reason")))
                if "id" in message:
                    self._replies[str(message["id"])] = {**message, "ok": False}
            self._changed.notify_all()

    def reconnect(self) -> None:
        """Connect again with the same credential (the screen comes again first)."""
        self.drop()
        self._connect()

    def drop(self) -> None:
        """Close the connection without a word (as a phone going to sleep does)."""
        ws = self._ws
        self._ws = None
        if ws is not None:
            ws.close()
        if self._reader is not None:
            self._reader.join(timeout=TIMEOUT)

    def close(self) -> None:
        self._closing = True
        self.drop()
        with self._changed:
            self._changed.notify_all()          # the kept side's answering thread ends too

    @property
    def connected(self) -> bool:
        return self._ws is not None

    # ---- talking to the host -------------------------------------------------------------------------------------
    def send_raw(self, text: str | bytes) -> None:
        """One frame as it is (tests of what the host refuses)."""
        ws = self._ws
        if ws is None:
            raise ConnectionError("not connected")
        ws.send(text)

    def _request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        ident = str(message["id"])
        text = json.dumps(message)
        for _attempt in range(50):
            if self._ws is None:
                if self._closing:
                    raise ConnectionError(f"the seat is closed: {ident} was not sent")
                self._connect()
            try:
                self.send_raw(text)
            except (ConnectionClosed, ConnectionError, OSError):
                self._ws = None
                continue
            with self._changed:
                got = self._changed.wait_for(lambda: ident in self._replies or self._ws is None, timeout)
                reply = self._replies.pop(ident, None)
            if reply is not None:
                if reply.get("type") == "refused" and str(reply.get("reason", "")).startswith("too many messages"):
                    time.sleep(RATE_PAUSE)           # not done: sent again a moment later, with the same id
                    continue
                return reply
            if not got:
                raise TimeoutError(f"no reply from the host to {ident} within {timeout:g} s")
        raise ConnectionError(f"the host could not be reached to send {ident}")

    def send(self, intent: dict[str, Any], ident: str | None = None, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Send ``intent`` (``{"kind": "action", "action": {...}}``, ``{"kind": "answer", "value": 4}``, ...) and
        wait for its reply; sent again with the same id after a reconnect, so it is applied once. A side kept here
        sends its holding area as commitments (``keeper.py``)."""
        keeper = self.kept()
        if keeper is not None and (intent.get("kind") == "undo" or (intent.get("kind") == "consent"
                                                                    and intent.get("allow"))):
            keeper.taken_back()
        if keeper is not None and keeper.fills(intent):
            try:
                # The units to arrange as the host lists them now (the screen pushed last may be older).
                intent = keeper.outgoing(intent, self.ask("screen", timeout)["result"]["screen"])
            except InputError as e:
                return {"type": "reply", "id": ident or "", "ok": False, "reason": e.message(), "result": {}}
        return self._request({"type": "intent", "id": ident or uuid.uuid4().hex, "intent": intent}, timeout)

    def act(self, kind: str, actor: str = "", dice: list[float] | None = None, **args: Any) -> dict[str, Any]:
        """An action (``kind``, ``actor``, ``args``) as an intent."""
        intent: dict[str, Any] = {"kind": "action", "action": {"kind": kind, "actor": actor, "args": args}}
        if dice:
            intent["dice"] = list(dice)
        return self.send(intent)

    # ---- a side kept on this computer -------------------------------------------------------------------------------
    def kept(self) -> Keeper | None:
        """This seat's keeper once the host has said its side keeps its secrets here (made on first need), or None."""
        screen = self.screen
        with self._keeper_lock:
            if self.keeper is None and screen is not None and screen.get("keep_secrets") and not self.keeping_problem:
                try:
                    self.keeper = keeper_for(screen, self._pins.get(str(screen.get("seat"))), self._kept_folder)
                except InputError as e:
                    self.keeping_problem = e.message()
            return self.keeper

    def _keep(self) -> None:
        """Open each square the host asks this side for, once per ask, as soon as it is asked."""
        keeper = self.kept()
        if keeper is None or not (self._answers or self._dice):
            return

        # The openings the host took at the end of the battle: a screen it built before taking one (the other side's
        # opening came first) asks for it again, and it is not sent twice. (Before the end a square may be asked
        # again: a reveal taken back and made again.)
        taken: set[str] = set()

        def answer(screen: dict[str, Any]) -> dict[str, Any] | None:
            assert keeper is not None
            found = ((keeper.opening(screen) if self._answers else None)
                     or (keeper.cards_answer(screen) if self._answers else None)
                     or (keeper.dice_answer(screen) if self._dice else None))
            return None if found is not None and json.dumps(found, sort_keys=True) in taken else found

        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._closing or (
                    self.screen is not None and self.version != self._answered
                    and answer(self.screen) is not None))
                if self._closing or self.screen is None:
                    return
                self._answered = self.version
                opening = answer(self.screen)
                at_end = bool(self.screen.get("open_squares") or self.screen.get("open_cards"))
            if opening is not None:
                try:
                    reply = self.send(opening)
                except (ConnectionError, TimeoutError) as e:
                    reply = {"ok": False, "reason": str(e)}
                if not reply.get("ok"):
                    self.refusals.append(f"{opening.get('blip') or opening['kind']}: {reply.get('reason')}")
                elif at_end and opening.get("kind") != "dice-shares":
                    taken.add(json.dumps(opening, sort_keys=True))

    def ask(self, question: str, timeout: float = TIMEOUT, **args: Any) -> dict[str, Any]:
        """A read-only question (``preview``, ``log``, ``screen``) answered from the seat's own view."""
        return self._request({"type": "ask", "id": uuid.uuid4().hex, "question": question, **args}, timeout)

    def wait_for(self, ready: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT) -> dict[str, Any]:
        """The first screen for which ``ready`` holds (the one now, or one the host sends within ``timeout``)."""
        with self._changed:
            ok = self._changed.wait_for(lambda: self.screen is not None and ready(self.screen), timeout)
            if not ok or self.screen is None:
                raise TimeoutError(f"no such screen within {timeout:g} s")
            return self.screen

    def wait_version(self, version: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        with self._changed:
            if not self._changed.wait_for(lambda: self.version >= version, timeout) or self.screen is None:
                raise TimeoutError(f"no screen of version {version} within {timeout:g} s")
            return self.screen
