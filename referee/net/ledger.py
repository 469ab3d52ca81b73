"""The intents already applied, by seat and id, kept beside the autosave: an intent sent again (a phone that lost
its connection before the reply, a host restarted after a kill) is answered with its first reply, never applied
twice.

The ledger is a journal of JSON lines, each flushed to the disk: ``{"seat", "id", "before"}`` when an intent is
about to change the battle (``before``: the actions the record held), then ``{"seat", "id", "reply", "after"}``
once it did. A host killed between the two finds the first line alone when it starts again: the autosave (written
before the reply) says whether the action was kept. If the record holds more actions than ``before``, the intent
was applied and is answered as such; if not, it was lost with the kill and the client's resend applies it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Final

MAX_LEDGER_BYTES: Final = 16 * 1024 * 1024
RESTARTED: Final = {"ok": True, "reason": "", "result": {"applied": True,
                                                       "note": "applied before the host was restarted"}}

Key = tuple[str, str]


class Ledger:
    """The replies of every intent applied (by seat and id) and the journal that keeps them across restarts."""

    def __init__(self, path: Path | None, actions_now: int = 0) -> None:
        self.path = path
        self.replies: dict[Key, dict[str, Any]] = {}
        if path is not None:
            self._read(path, actions_now)

    def _read(self, path: Path, actions_now: int) -> None:
        try:
            if not path.is_file() or path.stat().st_size > MAX_LEDGER_BYTES:
                return
            raw = path.read_bytes()
        except OSError:
            return
        begun: dict[Key, int] = {}
        for line in raw.split(b"\n"):
            try:
                item = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                continue                      # a last line cut short by a kill; an empty line
            if not isinstance(item, dict) or not isinstance(item.get("seat"), str) or not isinstance(
                    item.get("id"), str):
                continue
            key = (item["seat"], item["id"])
            if isinstance(item.get("reply"), dict) and isinstance(item.get("after"), int):
                if item["after"] <= actions_now or not item["reply"].get("ok"):
                    self.replies[key] = item["reply"]
                begun.pop(key, None)
            elif isinstance(item.get("before"), int):
                begun[key] = item["before"]
        for key, before in begun.items():
            if actions_now > before:
                self.replies[key] = dict(RESTARTED)

    def reply(self, seat: str, ident: str) -> dict[str, Any] | None:
        """The first reply to this seat's intent ``ident``, if it was applied (or refused) already."""
        return self.replies.get((seat, ident))

    def begin(self, seat: str, ident: str, actions_before: int) -> None:
        """The intent is about to be applied. Written, not flushed to the disk: a killed process leaves what it
        wrote with the system; a crash of the whole machine loses the autosave's unflushed line with it."""
        self._write({"seat": seat, "id": ident, "before": actions_before}, flush=False)

    def done(self, seat: str, ident: str, reply: dict[str, Any], actions_after: int, changed: bool) -> None:
        """The intent's reply, flushed to the disk when the intent changed the battle (a refusal changed nothing)."""
        self.replies[(seat, ident)] = reply
        self._write({"seat": seat, "id": ident, "reply": reply, "after": actions_after}, flush=changed)

    def clear(self) -> None:
        """A new battle: no intent of the last one is kept."""
        self.replies.clear()
        if self.path is not None:
            try:
                self.path.unlink(missing_ok=True)
            except OSError:
                pass

    def _write(self, item: dict[str, Any], flush: bool) -> None:
        if self.path is None:
            return
        data = (json.dumps(item, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, data)
                if flush:
                    os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            pass          # the battle goes on; only a resend after a host restart could be applied twice
