"""The battle service on the network: a session served to its seats by Starlette and uvicorn, in a thread of its
own, each seat's WebSocket carrying that seat's screen and nothing else.

Every change goes through ``host.lock`` (a ``threading.RLock``): the sockets' intents here, the window's own actions
there (it takes the lock and calls ``host.changed()`` after). After each change every socket is sent its seat's
fresh screen. The protocol, the credentials and what is refused are described in ``docs/network.md``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Final
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..i18n import _
from ..service.opening import autosave_file
from ..service.seats import SEATS, SIDE_SEATS, SPECTATOR
from ..service.session import BattleSession
from ..storage import atomic_write_text
from .credentials import COOKIE, Credentials
from .deck_facts import deck_facts
from .desk import Desk, Reply
from .ledger import Ledger
from .messages import Message, Unreadable, read
from .words import asked_languages, hand_words, table_words

log = logging.getLogger(__name__)
Screens = tuple[int, dict[str, str]]            # the version and each seat's screen message

TICK: Final = 0.1                       # seconds between the server's looks at whether to stop, as uvicorn's own
MAX_FRAME: Final = 256 * 1024          # uvicorn closes a socket sending a bigger frame (1009: message too big)
RATE: Final = 20.0                     # messages a second a socket may send, on average ...
BURST: Final = 40.0                    # ... and at once
DICE_WAIT: Final = 5.0                # seconds a seat's action waits for a kept side's dice shares before its reply
DICE_POLL: Final = 0.002              # ... looked at this often
DICE_TELL: Final = 0.5                # only the kept side is asked; after this long every seat is told it waits
COMPUTER_MOVES: Final = 500            # the computer's actions in a row before the host lets the players speak
PAGES: Final = {"hand": "hand.html", "table": "table.html"}
# The files served under /static/, each with its type: only these (a path asked for is looked up here, never joined
# to the folder), so nothing outside the folder, nor any other file in it, is served.
STATIC: Final = {"hand.js": "text/javascript", "hand.css": "text/css", "map.js": "text/javascript",
                 "table.js": "text/javascript", "table.css": "text/css", "kept.js": "text/javascript",
                 "kept_crypto.js": "text/javascript", "vendor/sha256.min.js": "text/javascript"}
# The pages connect with the seat's cookie; the table page asks for the public view (``?view=table``).
HEADERS: Final = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def ledger_file() -> Path:
    """Where the intents applied are kept: beside the autosave, which they go with."""
    return autosave_file().with_suffix(".intents")


def seats_file() -> Path:
    """Where the seats' credentials of the autosaved battle are kept, for a host started again on it."""
    return autosave_file().with_suffix(".seats")


def port_file() -> Path:
    """Where the port the autosaved battle was served on is kept: a host started again on it listens there again, so
    its links stay the same, and with them the address a phone keeps its side's secrets under (a browser keeps a
    page's storage by its host and port)."""
    return autosave_file().with_suffix(".port")


def kept_port() -> int:
    """The port the autosaved battle was served on, or 0 (any free one)."""
    try:
        port = int(port_file().read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return 0
    return port if 0 < port <= 65535 else 0


def local_address() -> str:
    """The machine's address on the local network (the one a route to the outside would leave from), or
    127.0.0.1 when there is none. No packet is sent: a UDP socket only picks its route."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))                 # TEST-NET-1: never routed anywhere
        address = str(probe.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


class Bucket:
    """A socket's allowance of messages: ``RATE`` a second on average, ``BURST`` at once."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class _Server(uvicorn.Server):
    """uvicorn's server, woken the moment it is told to stop. Its own main loop looks whether to stop once a tick
    (0.1 s), so a stop waited up to that long before the shutdown began: ``Host.stop`` took 0.2 s, now 0.1 (the
    shutdown's own pause), which the window's quitting and the suite's hundred hosts wait for. The loop's pause
    ends early when ``wake`` is set; otherwise each tick is uvicorn's."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.wake: asyncio.Event | None = None

    async def main_loop(self) -> None:
        self.wake = asyncio.Event()
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            try:
                await asyncio.wait_for(self.wake.wait(), TICK)
            except TimeoutError:
                pass

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's shutdown, whose pause (0.1 s, for open connections to take their close) is skipped when no
        connection or task is open: a battle by e-mail stops its host at every turn of the file."""
        if self.server_state.connections or self.server_state.tasks:
            await super().shutdown(sockets)
            return
        # Nothing open to wait for: the listening sockets are closed, as uvicorn's own shutdown closes them.
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for server in self.servers:
            await server.wait_closed()


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    seat: str
    sent: int = -1                                  # the version of the last screen sent
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Host:
    """One session served on the network (see the module note). Made by ``Host.start``."""

    def __init__(self, session: BattleSession, *, port: int = 0, bind: str | None = None,
                 ledger: Path | None = None, credentials: Credentials | None = None, rate: float = RATE,
                 burst: float = BURST, kept_by: tuple[str, ...] = ()) -> None:
        self.session = session
        self.lock = threading.RLock()
        self._waiting: set[asyncio.Task[None]] = set()        # replies waiting for a kept side's dice shares
        self.desk = Desk(session, kept_by)
        # When each seat's last socket closed (absent: one is open, or none has been yet: since the host started).
        self._started = time.monotonic()
        self._left_at: dict[str, float] = {}
        self.desk.away = self.away
        # Called under ``lock`` after every message that changed the battle: a battle played by e-mail writes its
        # file there (``mail.py``), so a window closed or killed at any moment leaves the file as far as it got.
        self.after_change: Callable[[], None] | None = None
        # The sides whose computer is not coming while this host serves (a battle by e-mail): an action waiting for
        # their dice shares is answered at once, not after ``DICE_WAIT``.
        self.absent: frozenset[str] = frozenset()
        self.credentials = credentials or Credentials()
        self.bind = bind or local_address()
        self.port = port
        self.rate, self.burst = rate, burst
        self.version = 0
        self.ledger = Ledger(ledger, session.actions_taken()) if session.autosaving or ledger is not None \
            else Ledger(None)
        self._connections: set[Connection] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._hosts: set[str] = set()
        self.app = Starlette(routes=[
            Route("/", self._root), Route("/join/{token}", self._join), Route("/hand", self._hand),
            Route("/hand/words", self._words), Route("/hand/deck", self._deck),
            Route("/table/words", self._table_words), Route("/table", self._table),
            Route("/static/{name:path}", self._static),
            Route("/favicon.ico", self._nothing), WebSocketRoute("/ws", self._ws)])

    # ---- starting and stopping -------------------------------------------------------------------------------------
    @classmethod
    def start_again(cls, session: BattleSession, *, port: int = 0, resumed: bool = True,
                    **options: Any) -> tuple["Host", str]:
        """``start``, on the port the autosaved battle was served on when it is that battle started again and no port
        is asked (``port_file``): its links stay the same, and so does the address under which a phone keeps its
        side's secrets. The host, and what to tell the players when that port was taken (else "")."""
        earlier = kept_port() if resumed and port == 0 else 0
        moved = ""
        if earlier:
            try:
                host = cls.start(session, port=earlier, **options)
            except OSError as e:
                moved = _("The battle's earlier port {port} is taken ({why}): its links change. A phone that keeps "
                          "its side's secrets keeps them in its browser under the earlier address: free port {port} "
                          "and start again, or that side's secrets are out of its reach.").format(port=earlier, why=e)
            else:
                host._keep_port()
                return host, ""
        host = cls.start(session, port=port, **options)
        if not moved:
            host._keep_port()           # moved, the battle's own port stays kept: the phones' secrets are there
        return host, moved

    def _keep_port(self) -> None:
        try:
            atomic_write_text(port_file(), f"{self.port}\n")
        except OSError:
            pass                    # the battle is served; a host started again then listens on another port

    @classmethod
    def start(cls, session: BattleSession, *, port: int = 0, bind: str | None = None,
              ledger: Path | None = None, credentials: Credentials | None = None, rate: float = RATE,
              burst: float = BURST, computer_first: bool = False, kept_by: tuple[str, ...] = ()) -> "Host":
        """Serve ``session`` in a background thread; back once the host listens. ``bind``: the address to listen on
        (default: this machine's local-network address; "0.0.0.0" every address, only when asked). ``ledger``: the
        file of intents applied (default: beside the autosave when the session autosaves). ``rate`` and ``burst``:
        the messages a second each socket may send, and at once. ``computer_first``: the computer takes the decisions
        due to it before any player speaks (a battle served with no window, whose computer may be first to act).
        ``kept_by``: the sides whose secrets stay on their own computer (``game/battle/commit.py``), joined with
        ``seven-seconds join``."""
        if ledger is None and session.autosaving:
            ledger = ledger_file()
        host = cls(session, port=port, bind=bind, ledger=ledger, credentials=credentials, rate=rate, burst=burst,
                   kept_by=kept_by)
        if computer_first:
            with host.lock:
                host._computer_plays()
        host._serve()
        return host

    def _serve(self) -> None:
        config = uvicorn.Config(self.app, host=self.bind, port=self.port, log_level="warning", lifespan="off",
                                ws="websockets-sansio", ws_max_size=MAX_FRAME, ws_ping_interval=20.0,
                                ws_ping_timeout=20.0, timeout_graceful_shutdown=1, access_log=False)
        server = _Server(config)
        self._server = server
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop
            ready.set()
            try:
                loop.run_until_complete(server.serve())
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name="battle-host", daemon=True)
        self._thread.start()
        ready.wait()
        while not server.started:
            if not self._thread.is_alive():
                raise OSError(f"the battle could not be served on {self.bind}:{self.port} (in use, or not an "
                              "address of this machine?)")
            time.sleep(0.01)
        sockets = [s for srv in server.servers for s in (srv.sockets or ())]
        self.port = int(sockets[0].getsockname()[1])
        self._hosts = {f"{self.bind}:{self.port}", f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        if self.bind == "0.0.0.0":
            self._hosts.add(f"{local_address()}:{self.port}")

    def stop(self) -> None:
        """Stop serving: every socket is closed, the thread ends."""
        server, loop = self._server, self._loop
        if server is not None:
            server.should_exit = True
            if server.wake is not None and loop is not None and loop.is_running():
                loop.call_soon_threadsafe(server.wake.set)
        if self._thread is not None:
            self._thread.join(timeout=10)

    # ---- what the host says of itself ------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        address = local_address() if self.bind == "0.0.0.0" else self.bind
        return f"http://{address}:{self.port}"

    def link(self, seat: str) -> str:
        """The link that opens ``seat`` (for its QR code): it carries the seat's credential once, then a cookie."""
        if seat not in SEATS:
            raise ValueError(f"a seat is one of {', '.join(SEATS)} (got {seat!r})")
        return f"{self.url}/join/{self.credentials.tokens[seat]}"

    def away(self, seat: str) -> float | None:
        """How long (seconds) ``seat`` has had no socket open here, or None while it has one."""
        if any(c.seat == seat for c in list(self._connections)):
            return None
        return time.monotonic() - self._left_at.get(seat, self._started)

    def connected(self) -> dict[str, int]:
        """How many sockets each seat has open now."""
        counts = {seat: 0 for seat in SEATS}
        for c in list(self._connections):
            counts[c.seat] += 1
        return counts

    def changed(self) -> None:
        """The session was changed here (the window, under ``lock``): every socket gets its fresh screen."""
        with self.lock:
            self.version += 1
        loop = self._loop
        if loop is not None and loop.is_running():
            asyncio.run_coroutine_threadsafe(self._push(), loop)

    # ---- HTTP -------------------------------------------------------------------------------------------------------
    def _known_host(self, request: Request | WebSocket) -> bool:
        """The request names this host as the browser reached it (no other name: a page of another site whose name
        is pointed at this address must not be served as this host)."""
        return request.headers.get("host", "") in self._hosts

    async def _root(self, request: Request) -> Response:
        return RedirectResponse("/table", status_code=303, headers=HEADERS)

    async def _join(self, request: Request) -> Response:
        if not self._known_host(request):
            return PlainTextResponse("unknown host name", status_code=421, headers=HEADERS)
        token = str(request.path_params["token"])
        seat = self.credentials.seat_of(token)
        if seat is None:
            return PlainTextResponse("This link opens no seat at this battle (a link of an earlier hosting? Ask for "
                                     "the new one).", status_code=403, headers=HEADERS)
        page = "/table" if seat == SPECTATOR else "/hand"
        response = RedirectResponse(page, status_code=303, headers=HEADERS)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        return response

    async def _nothing(self, request: Request) -> Response:
        return Response(status_code=204, headers=HEADERS)

    async def _hand(self, request: Request) -> Response:
        return self._page("hand")

    async def _table(self, request: Request) -> Response:
        return self._page("table")

    async def _words(self, request: Request) -> Response:
        """The hand page's words in the language the phone asks for (``?lang=``, else its Accept-Language)."""
        languages = asked_languages(request.query_params.get("lang"), request.headers.get("accept-language"))
        return self._json(hand_words(languages))

    async def _deck(self, request: Request) -> Response:
        """The public deck as a phone keeping its side's secrets draws with it (``deck_facts.py``): ``?side=A|B``."""
        side = request.query_params.get("side", "")
        if side not in ("A", "B"):
            return PlainTextResponse("side: expected A or B", status_code=400, headers=HEADERS)
        return self._json(deck_facts(side))

    async def _table_words(self, request: Request) -> Response:
        """The table screen's words, chosen as the hand's are."""
        languages = asked_languages(request.query_params.get("lang"), request.headers.get("accept-language"))
        return self._json(table_words(languages))

    @staticmethod
    def _json(words: dict[str, Any]) -> Response:
        return Response(json.dumps(words, ensure_ascii=False, sort_keys=True), headers=HEADERS,
                        media_type="application/json; charset=utf-8")

    def _page(self, name: str) -> Response:
        text = resources.files("referee.net").joinpath("static", PAGES[name]).read_text(encoding="utf-8")
        return Response(text, media_type="text/html; charset=utf-8", headers=HEADERS)

    async def _static(self, request: Request) -> Response:
        name = str(request.path_params["name"])
        if name not in STATIC:
            return PlainTextResponse("not found", status_code=404, headers=HEADERS)
        # Each part on its own: only a folder on disk is sure to read "vendor/x.js" as a path.
        text = resources.files("referee.net").joinpath("static", *name.split("/")).read_text(encoding="utf-8")
        return Response(text, media_type=f"{STATIC[name]}; charset=utf-8", headers=HEADERS)

    # ---- the sockets ---------------------------------------------------------------------------------------------
    def _seat_of(self, ws: WebSocket) -> tuple[str | None, str]:
        """The seat a socket opens (None: refused) and the reason of a refusal."""
        origin = ws.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc not in self._hosts:
            return None, f"origin {origin} is not this host's page"
        if not self._known_host(ws):
            return None, "unknown host name"
        auth = ws.headers.get("authorization", "")
        token = auth[7:].strip() if auth.lower().startswith("bearer ") else ws.cookies.get(COOKIE)
        seat = self.credentials.seat_of(token)
        if seat is None:
            return None, "no seat: a missing or wrong credential (open the seat's link again)"
        if ws.query_params.get("view") == "table":
            seat = SPECTATOR               # the table page shows the public view, whoever opens it
        return seat, ""

    async def _ws(self, ws: WebSocket) -> None:
        seat, reason = self._seat_of(ws)
        await ws.accept()
        if seat is None:
            await ws.send_text(json.dumps({"type": "refused", "reason": reason}))
            await ws.close(code=1008, reason="refused")
            return
        conn = Connection(ws, seat)
        self._connections.add(conn)
        self._left_at.pop(seat, None)
        bucket = Bucket(self.rate, self.burst)
        try:
            await self._send_screen(conn, await self._screens({seat}))
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                data = text if text is not None else frame.get("bytes") or b""
                if not bucket.take():
                    await self._send(conn, {"type": "refused", **_id_of(data), "reason": (
                        f"too many messages: at most {self.rate:g} a second (this one was not done; send it again)")})
                    continue
                try:
                    message = read(data)
                except Unreadable as e:
                    refused: dict[str, Any] = {"type": "refused", "reason": e.reason}
                    if e.id is not None:
                        refused["id"] = e.id
                    await self._send(conn, refused)
                    continue
                reply, changed = await asyncio.to_thread(self._handle, seat, message)
                asked_of = ((reply.get("result") or {}).get("dice_asked") or {}).get("side")
                if reply.get("ok") and asked_of is not None and asked_of not in self.absent:
                    # A public die waits for the kept side's shares: that computer is told now, and this seat's
                    # reply waits for them (the action's own outcome), so its next message follows the action. The
                    # socket reads on meanwhile: the kept side's own action waits for shares its computer sends here.
                    await self._push(only={str(reply["result"]["dice_asked"]["side"])})
                    waiting = asyncio.create_task(self._reply_when_gone_on(conn, seat, reply))
                    self._waiting.add(waiting)
                    waiting.add_done_callback(self._waiting.discard)
                    continue
                await self._send(conn, reply)
                if changed:
                    await self._push()
        except WebSocketDisconnect:
            pass
        finally:
            self._connections.discard(conn)
            if not any(c.seat == seat for c in self._connections):
                self._left_at[seat] = time.monotonic()
                if seat in self.desk.kept_sides():
                    with self.lock:
                        self.version += 1
                    await self._push()          # every seat is told the kept side's computer is away

    def _handle(self, seat: str, message: Message) -> tuple[dict[str, Any], bool]:
        """One readable message from ``seat``, under the lock: its reply, and whether the battle changed."""
        with self.lock:
            try:
                if message.type == "ask":
                    return self.desk.ask(seat, message.body).to_data(message.id), False
                first = self.ledger.reply(seat, message.id)
                if first is not None:
                    return {"type": "reply", "id": message.id, **first, "again": True}, False
                before = self.session.actions_taken()
                self.ledger.begin(seat, message.id, before)
                reply = self.desk.apply(seat, message.body)
                self._computer_plays()
                if reply.changed:
                    self.version += 1
                    if self.after_change is not None:
                        self.after_change()
            except Exception as e:  # noqa: BLE001 (a message that trips the host is refused; the host serves on)
                log.exception("message from seat %s refused on an error", seat)
                reply = Reply(False, f"the host could not do this ({type(e).__name__}); nothing changed")
            data = reply.to_data(message.id)
            if message.type == "intent":
                self.ledger.done(seat, message.id, {k: data[k] for k in ("ok", "reason", "result")},
                                 self.session.actions_taken(), reply.changed)
            return data, reply.changed

    async def _reply_when_gone_on(self, conn: Connection, seat: str, asked: dict[str, Any]) -> None:
        try:
            await self._send(conn, await self._went_on(seat, asked))
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass                                # the seat left: it is sent its screen when it joins again

    async def _went_on(self, seat: str, asked: dict[str, Any]) -> dict[str, Any]:
        """The reply to ``seat``'s action once the dice shares it waited for came and it went on; ``asked`` (the
        battle waits for that side's computer) if they have not come within ``DICE_WAIT`` s, or the ask was dropped."""
        def look() -> tuple[bool, dict[str, Any] | None]:
            with self.lock:
                got = self.desk.went_on.get(seat)
                asked_of = (got.result.get("dice_asked") or {}).get("side") if got is not None else None
                if got is not None and (asked_of is None or asked_of in self.absent):
                    # Gone on, or on to a die that waits for a side whose computer is not coming (by e-mail).
                    del self.desk.went_on[seat]
                    return True, got.to_data(str(asked["id"]))
                return self.desk.shares_asked is None and got is None, None

        start = time.monotonic()
        side = str(asked["result"]["dice_asked"]["side"])
        told = False
        while time.monotonic() < start + DICE_WAIT:
            done, reply = await asyncio.to_thread(look)
            if done:
                return reply if reply is not None else asked
            if not told and (time.monotonic() >= start + DICE_TELL or self.away(side) is not None):
                # Not at once (unless that computer is away): every seat is told whose computer the die waits for.
                told = True
                await self._push()
            await asyncio.sleep(DICE_POLL)
        if not told:
            await self._push()
        return asked

    def _computer_plays(self) -> None:
        """Against the computer, its turns follow the player's action here (the window plays them where it hosts)."""
        session = self.session
        for _move in range(COMPUTER_MOVES):
            if not session.computer_to_act():
                return
            decided = session.computer_act()
            if decided is None:
                return
            action, reason = decided
            attempt = session.attempt(action)
            if attempt.outcome is None or not attempt.outcome.legal:
                session.computer_refused(action)
            else:
                session.note_computer(action, reason)

    async def _screens(self, seats: set[str]) -> Screens:
        """Each seat's screen message, built under the lock in a worker thread (the engine's work stays off the
        sockets' loop)."""
        def build() -> Screens:
            with self.lock:
                return self.version, {seat: json.dumps({"type": "screen", "version": self.version,
                                                        "screen": self.desk.screen_data(seat)},
                                                       sort_keys=True, separators=(",", ":"), allow_nan=False)
                                      for seat in sorted(seats)}
        return await asyncio.to_thread(build)

    async def _push(self, only: set[str] | None = None) -> None:
        """Every socket (or those of the seats ``only``) is sent its seat's fresh screen."""
        connections = [c for c in self._connections if only is None or c.seat in only]
        if not connections:
            return
        screens = await self._screens({c.seat for c in connections})
        await asyncio.gather(*(self._send_screen(c, screens) for c in connections))

    async def _send_screen(self, conn: Connection, screens: Screens) -> None:
        version, texts = screens
        text = texts.get(conn.seat)
        if text is None:
            return
        async with conn.lock:
            if conn.sent >= version:
                return          # a newer screen went out already
            conn.sent = version
            await self._send_text(conn, text)

    async def _send(self, conn: Connection, data: dict[str, Any]) -> None:
        async with conn.lock:
            await self._send_text(conn, json.dumps(data, sort_keys=True, separators=(",", ":")))

    async def _send_text(self, conn: Connection, text: str) -> None:
        if conn.socket.client_state != WebSocketState.CONNECTED:
            return
        try:
            await conn.socket.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self._connections.discard(conn)


def _id_of(frame: str | bytes) -> dict[str, str]:
    """The id of a message refused for the rate, when it has one, so that its sender knows which was refused."""
    try:
        ident = read(frame).id
    except Unreadable as e:
        return {"id": e.id} if e.id is not None else {}
    return {"id": ident}


def serve_seats() -> tuple[str, ...]:
    """The seats a host offers links for: the two sides and the public table."""
    return (*SIDE_SEATS, SPECTATOR)
