"""Sealing each side's secrets at set-up, so that nobody can change them unnoticed before the end of the battle.

At the end of set-up each side's holding area and mission card are sealed: the seal is the SHA-256 of a canonical
JSON document holding the side, its holding area (every square, in order, with its units), its mission card id and a
random salt. The seal is shown to both players (``state.sealed``, visible in every player view); the salt stays
secret in the state (``state.salts``) until the battle is over, so the seal tells the opponent nothing -- not even
which of a few likely holding areas it is. The end-of-battle report recomputes each seal from the state as it was
sealed (``Game.initial``, the state after set-up) and compares it with the one shown all game (``verify_seals``).

The salt comes from the operating system's secure generator, not from the dice: it is not a chance event of the
game, and the state after set-up (salts included) is stored whole in a save, so replays stay exact.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .state import SIDES, SQUARES, Data, GameState

if TYPE_CHECKING:
    from .effects import Ctx
    from .engine import Game

SEAL_FORMAT = "seven-seconds-seal/1"


def canonical_json(data: object) -> str:
    """Sorted keys, no spaces, UTF-8: the same data always gives the same text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def holding_data(state: GameState, side: str) -> dict[str, list[Data] | None]:
    """The side's holding area as data: squares 1-16 (and any others held), each a list of units or ``None``."""
    squares = state.holding[side].squares
    numbers = sorted(set(range(1, SQUARES + 1)) | set(squares))
    out: dict[str, list[Data] | None] = {}
    for n in numbers:
        contents = squares.get(n, [])
        out[str(n)] = None if contents is None else [c.model_dump(mode="json") for c in contents]
    return out


def seal_document(state: GameState, side: str, salt: str) -> Data:
    return {
        "format": SEAL_FORMAT,
        "side": side,
        "holding": holding_data(state, side),
        "mission": state.missions.get(side),
        "salt": salt,
    }


def seal_hash(state: GameState, side: str, salt: str) -> str:
    text = canonical_json(seal_document(state, side, salt))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_salt() -> str:
    return secrets.token_hex(16)


def seal_side(state: GameState, side: str, salt: str | None = None) -> str:
    """Seal one side's holding area and mission in ``state`` (changed in place); returns the seal."""
    salt = new_salt() if salt is None else salt
    state.salts[side] = salt
    state.sealed[side] = seal_hash(state, side, salt)
    return state.sealed[side]


def seal(state: GameState, salts: dict[str, str] | None = None) -> GameState:
    """Seal both sides (set-up calls this last, before the state becomes ``Game.initial``). Changes ``state``."""
    for side in SIDES:
        seal_side(state, side, (salts or {}).get(side))
    return state


def short_seal(value: str | None) -> str:
    """The first 16 hex digits in groups of four, easy to read aloud and compare across the table."""
    if not value:
        return "(not sealed)"
    return " ".join(value[i:i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True)
class SealCheck:
    side: str
    sealed: str | None          # the seal shown to both players
    recomputed: str | None      # recomputed from the holding area, mission and salt
    reason: str = ""

    @property
    def matches(self) -> bool:
        return bool(self.sealed) and self.sealed == self.recomputed

    def __bool__(self) -> bool:
        return self.matches

    def text(self) -> str:
        if self.matches:
            return f"side {self.side}'s seal {short_seal(self.sealed)} matches its holding area and mission"
        return f"side {self.side}'s seal does NOT match: {self.reason}"


def verify_seal(state: GameState, side: str, sealed: str | None = None) -> SealCheck:
    """Recompute ``side``'s seal from ``state`` (the state as it was sealed) and compare it with ``sealed``.

    ``sealed`` defaults to the seal stored in ``state``; the end-of-battle report passes the seal the players were
    shown all battle (``verify_seals`` does this for a whole game).
    """
    shown = state.sealed.get(side) if sealed is None else sealed
    if not shown:
        return SealCheck(side, None, None, "the side was never sealed")
    salt = state.salts.get(side)
    if not salt:
        return SealCheck(side, shown, None, "the salt is missing, so the seal cannot be recomputed")
    again = seal_hash(state, side, salt)
    if again != shown:
        return SealCheck(side, shown, again, "the holding area or the mission card differs from the sealed one")
    return SealCheck(side, shown, again)


def verify_seals(game: Game) -> dict[str, SealCheck]:
    """Both sides' seals for a ``Game``: recomputed from ``game.initial``, compared with the seals now shown."""
    return {side: verify_seal(game.initial, side, game.state.sealed.get(side)) for side in SIDES}


def seal_all(state: GameState, ctx: Ctx | None = None, salts: dict[str, str] | None = None) -> GameState:
    """Set-up's last step: seal both sides and, given the resolution context, log the seals for both players."""
    seal(state, salts)
    if ctx is not None:
        ctx.event("holding areas and missions sealed: "
                  + "; ".join(f"side {side} {short_seal(state.sealed[side])}" for side in SIDES),
                  "each seal is checked in the end-of-battle report")
    return state


def sealed_text(state: GameState, side: str) -> str | None:
    """The exact text that was hashed into ``side``'s seal (``None`` without a salt). It holds the side's holding
    area, mission and salt, so it is shown only when the battle is over (or to the referee)."""
    salt = state.salts.get(side)
    if not salt:
        return None
    return canonical_json(seal_document(state, side, salt))


def seal_report(game: Game) -> dict[str, Data]:
    """The end-of-battle report's seals, for each side: the seal shown all battle, the one recomputed from the state
    after set-up, whether they match, a sentence saying so, and the sealed document itself. Anyone can check the
    referee at the table: the SHA-256 of ``document`` (for example ``sha256sum`` of the text) is the seal."""
    out: dict[str, Data] = {}
    for side, check in verify_seals(game).items():
        out[side] = {"sealed": check.sealed, "recomputed": check.recomputed, "matches": check.matches,
                     "text": check.text(), "document": sealed_text(game.initial, side)}
    return out


def seal_report_lines(game: Game) -> list[str]:
    lines = []
    for side, r in seal_report(game).items():
        lines.append(r["text"])
        if r["document"]:
            lines.append(f"  side {side}'s sealed document (its SHA-256 is the seal {r['sealed']}):")
            lines.append(f"  {r['document']}")
    return lines
