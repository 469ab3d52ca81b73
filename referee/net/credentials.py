"""The seats' credentials: one random token per seat, at least 128 bits, compared in constant time.

A token is the seat: whoever holds A's token plays side A. It travels once in the link the QR code carries
(``/join/TOKEN``), and is then kept in an HttpOnly cookie, out of the address bar and the browser's history. The
spectator's link is public: the table screen shows nothing any seat keeps secret.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Final

from ..service.seats import SEATS

TOKEN_BYTES: Final = 24          # 192 bits (secrets.token_urlsafe: 32 characters)
COOKIE: Final = "ss_seat"


class Credentials:
    """The token of every seat of one hosting (new ones each time the host starts: an old link no longer works)."""

    def __init__(self, tokens: dict[str, str] | None = None) -> None:
        self.tokens = dict(tokens) if tokens is not None else {seat: secrets.token_urlsafe(TOKEN_BYTES)
                                                               for seat in SEATS}

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
