"""A battle played from another computer: one side's seat at a remote host (``referee/net/client.RemoteSeat``).

``RemoteBattle`` answers the battle scene's questions, the ones ``BattleSession`` answers for the window at the
host (the seat interface, ``BattleSeat`` below), from the seat's latest screen alone: the seat's own view, its legal
actions, its undo, the die asked of it. Every action is sent as an intent and the host's reply is its outcome; a
preview is a question to the host, answered from the seat's own view. Nothing here holds the battle's state: the
window of a joined battle knows what its seat's screen says, and nothing more.
"""

from __future__ import annotations

import datetime as _dt
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..game.battle.action_kinds import Kind
from ..game.battle.dice import RollRequest
from ..game.battle.intents import Action, LegalAction, Preview
from ..game.battle.sides import other
from ..game.views.view_types import LogLine, PlayerView
from ..game.views.view_table import battlefield_from_view
from ..rules.battlefield import Battlefield
from ..game.views.view_words import log_lines
from ..paths import saves_dir
from ..rules.errors import InputError
from ..service.look_back import LookBack
from ..service.session import Check
from ..service.seat_log import TAIL, LogTail
from ..service.seats import SIDE_SEATS
from ..service.seat_screens import SeatScreens
from ..storage import atomic_write_text


class BattleSeat(Protocol):
    """What the battle scene asks of the battle it shows, whoever answers: the session itself at the host's window,
    or a seat's screen from a remote host (``RemoteBattle``)."""

    viewer: str
    hotseat: bool

    def view(self, log: bool = True) -> PlayerView: ...
    def to_act(self) -> str | None: ...
    @property
    def over(self) -> bool: ...
    def offers(self, kind: str, actor: str = "") -> bool: ...
    def can(self, kind: str, actor: str) -> Check: ...
    def check(self, action: Action) -> Check: ...
    def preview(self, action: Action) -> Preview: ...
    def legal_for(self, kind: str, actor: str = "") -> list[LegalAction]: ...
    def attempt(self, action: Action, given: list[float] | None = None) -> Any: ...


class Seat(Protocol):
    """The remote seat's connection (``referee/net/client.RemoteSeat``)."""

    screen: dict[str, Any] | None
    version: int

    def send(self, intent: dict[str, Any], ident: str | None = None, timeout: float = ...) -> dict[str, Any]: ...
    def ask(self, question: str, timeout: float = ..., **args: Any) -> dict[str, Any]: ...
    def wait_version(self, version: int, timeout: float = ...) -> dict[str, Any]: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class Outcome:
    """The host's word on an intent, as the battle scene reads an engine's outcome."""

    legal: bool
    reason: str = ""
    events: tuple[str, ...] = ()
    failed: bool = False
    rolls: tuple[Any, ...] = ()


@dataclass
class RemotePending:
    """A die the host asks this seat for (physical dice): the next intent answers it."""

    action: Action
    request: RollRequest
    given: list[float] = field(default_factory=list)


@dataclass
class RemoteAttempt:
    outcome: Outcome | None = None
    pending: RemotePending | None = None
    screen: Any = None                  # the window's new screen, once the action went through (``SeatScreens``)

    @property
    def legal(self) -> bool:
        return self.outcome is not None and self.outcome.legal


@dataclass(frozen=True)
class RemoteUndo:
    """The seat's undo offer, as ``game/undo.UndoCheck`` reads."""

    allowed: bool
    reason: str = ""
    what: str = ""
    needs_consent: bool = False
    why_consent: str = ""
    side: str = ""


@dataclass(frozen=True)
class RemoteSealCheck:
    """One side's seal checked by the host at the end of the battle, as ``game/seal.SealCheck`` reads."""

    side: str
    sealed: bool
    matches: bool
    words: str

    def text(self) -> str:
        return self.words


class RemoteLog:
    """The seat's log as ``service/seat_log.SeatLog`` gives it, from the screen's view: an entry the host wrote again
    (a take-back) is told apart by its token."""

    def __init__(self, entries: list[LogLine], tokens: list[object]) -> None:
        self._entries = entries
        self._tokens = tokens

    def __len__(self) -> int:
        return len(self._entries)

    def token(self, i: int) -> object:
        return self._tokens[i]

    def entries(self, start: int, stop: int | None = None) -> list[LogLine]:
        return self._entries[start:stop]

    def tail(self, count: int = TAIL) -> LogTail:
        """The last ``count`` entries, for the window's screen to carry (as ``SeatLog.tail``)."""
        start = max(0, len(self._entries) - count)
        return LogTail(len(self._entries), start, tuple(self._entries[start:]), tuple(self._tokens[start:]))


class RemoteBattle(SeatScreens):
    """One side's battle at a remote host, as the battle scene reads it (see the module note)."""

    hotseat = False
    computer = None                 # the host plays its computer's turns; its side is named on the screen
    computer_reopened = False
    campaign = None
    refereed = False

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        data = self.data
        side = str(data.get("seat", ""))
        if side not in SIDE_SEATS:
            raise InputError("seat", f"a joined window plays side A or B (this link opens the {side!r} seat)")
        self.viewer = side
        self.messages: list[str] = []
        self.last_send = 0.0            # seconds the last intent waited for the host's reply and screen (benchmarks)
        self.computer_notes: dict[int, str] = {}
        self.computer_reasons: list[str] = []
        self.campaign_recorded: list[str] = []
        self._log: tuple[int, RemoteLog] | None = None        # the log read from the screen of this version
        self._log_entries: list[LogLine] = []
        self._log_tokens: list[object] = []
        self._report: dict[str, Any] | None = None             # the end-of-battle report, asked once it is over
        self.save_path: Path | None = None                      # where this window last saved the finished battle

    # ---- the seat's screen ---------------------------------------------------------------------------------
    @property
    def data(self) -> dict[str, Any]:
        screen = self.seat.screen
        if screen is None:
            raise ConnectionError("no screen from the host yet")
        return screen

    @property
    def version(self) -> int:
        return self.seat.version

    def view(self, log: bool = True) -> PlayerView:
        view: PlayerView = self.data["view"]
        return view

    def pool(self) -> dict[str, Any] | None:
        """The sensor pool waiting for its Target counters, as the seat's view shows it (rolled on the table)."""
        pool = self.view(log=False).get("pool")
        return dict(pool) if pool else None

    def table_for(self, seat: str | None = None) -> Battlefield:
        """The table this side sees, from its own view (``game/views/view_table.py``)."""
        return battlefield_from_view(self.view(log=False))

    def log(self, explain: bool = True, last: int | None = None) -> list[str]:
        return log_lines(self.view(), last, explain)

    def mail_word(self) -> str:
        """A battle by e-mail (``seven-seconds mail``) waiting for the other side: what this player does now; else ""."""
        data = self.data
        by_mail = data.get("by_mail")
        if not isinstance(by_mail, dict) or self.over:
            return ""
        them = other(self.viewer)
        send = f"close this window and send {by_mail.get('file')} to side {them}"
        if (data.get("dice_asked") or {}).get("side") == them:
            return f"The dice wait for side {them}'s part by e-mail: {send}"
        if (data.get("contents_asked") or {}).get("side") == them:
            return f"The reveal waits for side {them} to open its square by e-mail: {send}"
        asked = data.get("take_back")
        if isinstance(asked, dict):
            return f"Your take-back of {asked.get('what')} waits for side {them}'s consent by e-mail: {send}"
        return "" if data.get("acting") else f"Side {them}'s turn by e-mail: {send}"

    def to_act(self) -> str | None:
        to_act = self.data.get("to_act")
        return str(to_act) if to_act is not None else None

    @property
    def over(self) -> bool:
        return bool(self.data.get("over"))

    @property
    def dice(self) -> object | None:
        """Not None when the program rolls (the host's dice); None when the players type their physical dice."""
        return None if self.data.get("dice_mode") == "by-hand" else "program"

    def hand_to(self, side: str) -> None:
        """The screen stays with this seat's side."""

    def needs_handoff(self) -> bool:
        return False

    def computer_to_act(self) -> bool:
        return False

    def computer_act(self) -> None:
        """The host plays its computer's decisions: none is taken in this window."""
        return None

    def objectives_pending(self) -> bool:
        return self.view(log=False)["phase"] == "over" and not self.over

    def log_for(self, reader: str | None) -> RemoteLog:
        """The seat's log from its screen; an entry keeps its token while the host sends it unchanged (a take-back
        writes new entries in place of old ones: new tokens), read once per screen."""
        if self._log is not None and self._log[0] == self.version:
            return self._log[1]
        entries: list[LogLine] = list(self.view()["log"])
        old_entries, old_tokens = self._log_entries, self._log_tokens
        same = 0
        for new, old in zip(entries, old_entries):
            if new != old:
                break
            same += 1
        tokens = old_tokens[:same] + [object() for _ in entries[same:]]
        self._log_entries, self._log_tokens = entries, tokens
        log = RemoteLog(entries, tokens)
        self._log = (self.version, log)
        return log

    def log_length(self) -> int:
        return len(self.view()["log"])

    def moment(self) -> tuple[int, str | None]:
        return self.version, self.turn_player()

    def last_action_kind(self) -> str | None:
        return None

    def turn_player(self) -> str | None:
        turn = self.view(log=False)["turn"]
        return str(turn["player"]) if turn is not None else None

    def would_pass(self) -> bool:
        turn = self.view(log=False)["turn"]
        return turn is not None and not turn["active"] and turn["primary_used"] == 0 and turn["extra_blips_used"] == 0

    def passes_in_row(self) -> int:
        return 0

    def spent_activation(self) -> str | None:
        turn = self.view(log=False)["turn"]
        if turn is None or not turn["active"] or turn["actions_left"]:
            return None
        return str(turn["active"])

    def last_round(self, side: str | None = None) -> bool:
        """The round just over is the last one this side's own mission allows (A43): from its own card."""
        view = self.view(log=False)
        mission = view["missions"].get(self.viewer)
        card = (self.data.get("cards_text") or {}).get(mission or "", {})
        limit = card.get("round_limit")
        return bool(limit) and int(view["round"]) >= int(limit)

    def battle_ends_this_round(self) -> str:
        return ""

    def end_of_round_lines(self, side: str | None = None) -> list[str]:
        view = self.view(log=False)
        lines = [f"Round {view['round']} is over. Say Next round, announce a Withdraw or offer to stop; the battle "
                 "goes on when both sides have spoken [p.16, A43]."]
        if self.last_round():
            lines.append(f"Your mission (side {self.viewer}) ends the battle after this round [A43].")
        return lines

    def scramble_squares(self, actor: str) -> list[int]:
        return [int(n) for n in (self.data.get(Kind.SCRAMBLE) or {}).get(actor, [])]

    def to_place(self) -> dict[str, str]:
        """Units just revealed that their owner may still place, by the unit each must touch (A66): public."""
        return {str(k): str(v) for k, v in (self.view(log=False).get("to_place") or {}).items()}

    def unit_at(self, uid: str) -> tuple[float, float, float, str, str] | None:
        """A unit on the table as this seat's screen shows it: x, y, base, side and type."""
        unit = next((u for u in self.view(log=False)["units"] if u["id"] == uid), None)
        if unit is None:
            return None
        return (float(unit["x"]), float(unit["y"]), float(unit.get("base", 1.0)), str(unit["side"]),
                str(unit["type"]))

    def revealed_spots(self, uid: str) -> list[tuple[float, float]]:
        """The engine's spots for this side's unit just revealed, touching the first unit of its square (A66), as the
        host sends them with the screen."""
        return [(float(x), float(y)) for x, y in (self.data.get("place_spots") or {}).get(uid, [])]

    # ---- what the seat may do --------------------------------------------------------------------------------
    def legal(self) -> list[LegalAction]:
        return [LegalAction(str(a["kind"]), str(a.get("actor", "")), dict(a.get("args", {})), dict(a.get("free", {})))
                for a in self.data.get("legal", [])]

    def legal_actions(self) -> list[LegalAction]:
        """What this seat may do now (the set-up scene's question): its screen's legal actions."""
        return self.legal()

    def legal_for(self, kind: str, actor: str = "") -> list[LegalAction]:
        return [a for a in self.legal() if a.kind == kind and (not actor or a.actor == actor)]

    def offers(self, kind: str, actor: str = "") -> bool:
        return bool(self.legal_for(kind, actor))

    def can(self, kind: str, actor: str) -> Check:
        if self.offers(kind, actor):
            return Check(True)
        if not self.data.get("acting"):
            return Check(False, f"not your decision now (the battle waits for side {self.to_act()})")
        return Check(False, f"{kind} {actor} is not among side {self.viewer}'s legal actions now".replace("  ", " "))

    def preview(self, action: Action) -> Preview:
        """The host's preview, from this seat's own view (it stops at the first die and at the first reveal)."""
        reply = self.seat.ask("preview", action=action.to_data())
        if not reply.get("ok"):
            return Preview(action, False, str(reply.get("reason", "")))
        data = reply.get("result", {}).get("preview", {})
        return Preview(action, bool(data.get("legal")), str(data.get("reason", "")), dict(data.get("figures", {})),
                       reveals=data.get("reveals"))

    def check(self, action: Action) -> Check:
        preview = self.preview(action)
        return Check(preview.legal, preview.reason)

    def figures(self, action: Action) -> dict[str, Any]:
        return self.preview(action).figures

    def _send(self, intent: dict[str, Any]) -> dict[str, Any]:
        """Send ``intent``; once the host took it, wait for the screen it changed (the reply comes first), so what
        is shown next is the battle after it."""
        before, start = self.seat.version, time.perf_counter()
        reply = self.seat.send(intent)
        if reply.get("ok") and not reply.get("again"):
            try:
                self.seat.wait_version(before + 1)
            except TimeoutError:
                self.messages.append("the host's new screen is late: it is shown when it comes")
        self.last_send = time.perf_counter() - start
        return reply

    def _reply(self, reply: dict[str, Any]) -> RemoteAttempt:
        if not reply.get("ok"):
            return RemoteAttempt(Outcome(False, str(reply.get("reason", "refused"))))
        pending = self.data.get("pending")
        result = reply.get("result") or {}
        if "pending" in result and pending is not None:
            request = RollRequest(str(pending.get("request", "a die")), "", kind=pending.get("kind", "d6"))
            return RemoteAttempt(pending=RemotePending(Action.from_data(pending["action"]), request,
                                                       [float(x) for x in pending.get("given", [])]))
        return RemoteAttempt(Outcome(True, events=tuple(str(e) for e in result.get("events", []))))

    def claim_forfeit(self) -> str:
        """Claim the battle from a side whose computer keeps its secrets and has been away too long while the battle
        waits for it to open a square (``docs/network.md``): the host decides; its reason when it refuses."""
        reply = self._send({"kind": Kind.FORFEIT})
        return "" if reply.get("ok") else str(reply.get("reason", "refused"))

    def attempt(self, action: Action, given: list[float] | None = None) -> RemoteAttempt:
        intent: dict[str, Any] = {"kind": "action", "action": action.to_data()}
        if given:
            intent["dice"] = list(given)
        return self._reply(self._send(intent))

    def answer(self, pending: RemotePending, value: float) -> RemoteAttempt:
        return self._reply(self._send({"kind": "answer", "value": value}))

    def roll_pool(self, actor: str, dice: int, given: list[float] | None = None) -> RemoteAttempt:
        # The pool is an action of its own (``game/play/pool.py``): the host rolls it, records it and shows it on the
        # screen (``pool``); the Target then spends its dice.
        return self.attempt(Action(Kind.SENSOR_POOL, actor, {"dice": int(dice)}), given)

    def undo_check(self) -> RemoteUndo:
        undo = self.data.get("undo") or {}
        return RemoteUndo(bool(undo.get("allowed")), str(undo.get("reason", "nothing to take back")),
                          str(undo.get("what", "")), bool(undo.get("needs_consent")), str(undo.get("why_consent", "")),
                          str(undo.get("side", "")))

    def actions_taken(self) -> int:
        return 1 if self.undo_check().allowed else 0

    def undo(self, consent: bool = False) -> str:
        reply = self._send({"kind": "undo"})
        if not reply.get("ok"):
            raise InputError("undo", str(reply.get("reason", "refused")))
        result = reply.get("result") or {}
        return str(result.get("taken_back") or f"asked side {result.get('asked')} to agree")

    def consent(self, allow: bool) -> dict[str, Any]:
        return self._send({"kind": "consent", "allow": allow})

    def redo_action(self) -> tuple[Action, list[float]]:
        raise InputError("redo", "a joined window takes back, but does not play again, an action")

    # ---- the end of the battle: its report and its record ----------------------------------------------------
    def _ask_host(self, question: str) -> dict[str, Any]:
        """The host's answer to ``question``, or ``InputError`` with the host's reason (or why it was not reached)."""
        try:
            reply = self.seat.ask(question)
        except (ConnectionError, TimeoutError, OSError) as e:
            raise InputError(question, f"the host could not be asked ({e})") from None
        if not reply.get("ok"):
            raise InputError(question, str(reply.get("reason") or "refused by the host"))
        result: dict[str, Any] = reply.get("result") or {}
        return result

    def report(self) -> dict[str, Any]:
        """The end-of-battle report the host gives this seat (``service/seat_report.py``), asked once the battle is
        over and kept; before the end, ``InputError`` with the host's reason."""
        if self._report is None:
            report: dict[str, Any] = self._ask_host("report")["report"]
            self._report = report
            self.refereed = bool(report.get("refereed"))
        return self._report

    def revealed(self) -> PlayerView:
        """The whole truth the end of the battle reveals, from the host's report."""
        view: PlayerView = self.report()["view"]
        return view

    def tampered(self) -> list[str]:
        return [str(line) for line in self.report().get("tampered", [])]

    def seal_checks(self) -> dict[str, RemoteSealCheck]:
        return {str(c["side"]): RemoteSealCheck(str(c["side"]), bool(c.get("sealed")), bool(c.get("matches")),
                                                str(c.get("text", ""))) for c in self.report().get("seals", [])}

    def sealed_documents(self) -> list[str]:
        return [str(line) for line in self.report().get("sealed_documents", [])]

    def computer_lines(self) -> list[str]:
        """Against the computer: who it played, then its reason for each decision, as the host's report gives them."""
        report = self.report()
        computer = report.get("computer")
        if not computer:
            return []
        lines = [f"The computer (side {computer.get('side')}, {computer.get('level')}): its reason for each decision"]
        lines.extend(str(reason) for reason in report.get("computer_reasons", []))
        return lines

    def record(self) -> str:
        """The finished battle as a save file's text, handed by the host once the battle is over; before the end,
        ``InputError`` with the host's reason (the record holds the opponent's secrets)."""
        return str(self._ask_host("record")["record"])

    def default_save_path(self) -> Path:
        """A new file in the player's saves folder, named after the battle, the side and the time."""
        name = self.view(log=False)["name"]
        stem = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "battle"
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M")
        folder = saves_dir()
        path = folder / f"{stem}-side-{self.viewer}-{stamp}.json"
        n = 2
        while path.exists():
            path = folder / f"{stem}-side-{self.viewer}-{stamp}-{n}.json"
            n += 1
        return path

    def save(self, path: Path | str | None = None) -> Path:
        """Keep the finished battle: the host's record written atomically (by default in the saves folder), so it
        opens as any save does; a file this window did not write is never overwritten. Before the end of the battle,
        ``InputError`` with the host's reason: the battle is kept by the host until it is over."""
        text = self.record()
        target = Path(path).expanduser() if path is not None else self.default_save_path()
        if target.is_dir():
            raise InputError(str(target), "is a folder, expected a save file name")
        if target.exists() and target != self.save_path:
            raise InputError(str(target), "exists already; not overwritten (choose another name)")
        try:
            atomic_write_text(target, text, private=True)      # a save holds both sides' secrets
        except OSError as e:
            raise InputError(str(target), f"cannot be written ({e.strerror or e})") from None
        self.save_path = target
        return target

    def look_back(self) -> LookBack:
        """The summary, the dice report and the replay of the finished battle, read from this window's save of it
        (saved first if it was not)."""
        path = self.save_path if self.save_path is not None and self.save_path.exists() else self.save()
        return LookBack.of_save(path)

    def save_campaign_battle(self, at_hand_off: bool = False) -> None:
        """The host's battle: nothing to write here."""

    def close(self) -> None:
        self.seat.close()
