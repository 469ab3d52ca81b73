"""The seats' credentials: one random token per seat, at least 128 bits, compared in constant time.

A token is the seat: whoever holds A's token plays side A. It travels once in the link the QR code carries
(``/join/TOKEN``), and is then kept in an HttpOnly cookie, out of the address bar and the browser's history. The
spectator's link is public: the table screen shows nothing any seat keeps secret.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Final

from ..service.seats import SEATS

TOKEN_BYTES: Final = 24          # 192 bits (secrets.token_urlsafe: 32 characters)
COOKIE: Final = "ss_seat"


class Credentials:
    """The token of every seat of one battle's hosting: new ones for a new battle (an old link no longer opens
    anything), the same ones for the autosaved battle started again (``kept``)."""

    def __init__(self, tokens: dict[str, str] | None = None) -> None:
        self.tokens = dict(tokens) if tokens is not None else {seat: secrets.token_urlsafe(TOKEN_BYTES)
                                                               for seat in SEATS}

    @staticmethod
    def kept(path: Path) -> "Credentials":
        """The credentials kept at ``path`` (a battle resumed after a host was stopped or killed: the phones
        reconnect with the cookies they hold), or new ones, written there (readable by this user only)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and set(data) == set(SEATS) and all(
                    isinstance(v, str) and len(v) >= 22 for v in data.values()):
                return Credentials({str(k): str(v) for k, v in data.items()})
        except (OSError, ValueError):
            pass
        made = Credentials()
        made.keep(path)
        return made

    def keep(self, path: Path) -> None:
        """Write the tokens at ``path`` (mode 600): beside the autosave, which holds every secret of the battle
        anyway."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.tokens, f)
        except OSError:
            pass             # the battle is served; a restarted host then gives new links

    def seat_of(self, token: str | None) -> str | None:
        """The seat ``token`` opens, or None. Every seat's token is compared, in constant time, whatever matches: the
        time taken says nothing of how much of a token was right, nor of which seat it was near."""
        if not token or len(token) > 256:
            return None
        given = token.encode("utf-8", "replace")
        found: str | None = None
        for seat, expected in self.tokens.items():
            if hmac.compare_digest(given, expected.encode("ascii")):
                found = seat
        return found
