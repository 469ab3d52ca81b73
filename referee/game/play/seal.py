"""Sealing each side's secrets at set-up, so that nobody can change them unnoticed before the end of the battle.

At the end of set-up each side's whole secret set-up is sealed: the seal is the SHA-256 of a canonical JSON document
(every number written one way) holding the side, its holding area (every square, in order, with its units), which
blip counter stands for which square, its mission card, its troop and drone cards, and a random salt. The seal is shown to both players (``state.sealed``, visible in every player view); the salt stays
secret in the state (``state.salts``) until the battle is over, so the seal tells the opponent nothing -- not even
which of a few likely holding areas it is. The end-of-battle report recomputes each seal from the state as it was
sealed (``Game.after_setup()``, the state set-up ended in) and compares it with the one shown all game (``verify_seals``).

The salt comes from the operating system's secure generator, not from the dice: it is not a chance event of the
game, and the state after set-up (salts included) is stored whole in a save, so replays stay exact.

A battle whose dice are keyed by the sides' contributions (``dice.py``) is sealed by format 3: each **part** of the
side's secret set-up (its holding area, its blips' squares, its mission, its cards, and the commitments to its dice
contribution and the seed) is hashed with the salt, and the seal is the hash of those part digests. A save keeps the
seal itself and the part digests (``seal_record``), so a save whose record replays to anything else is caught on
load, part by part (``tampered``): a blip's contents swapped, the mission or a card changed, the dice seed or a
contribution changed. Whoever holds the salt could make new digests for an edited save; the fingerprint noted at
set-up (64 bits, ``short_seal``) then differs.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..battle.commit import canonical_json as canonical_json, canonical_numbers as canonical_numbers
from ..battle.commit import canonical_text as canonical_text
from ..battle.state import SIDES, SQUARES, Data, GameState, cards_data
from ..views.view_words import short_seal as short_seal

if TYPE_CHECKING:
    from .effects import Ctx
    from .engine import Game

SEAL_FORMAT = "seven-seconds-seal/2"
OLD_SEAL_FORMAT = "seven-seconds-seal/1"          # holding area and mission only (saves of earlier versions)
PARTS_FORMAT = "seven-seconds-seal/3"             # salted part digests, the dice commitments among them
PARTS = ("holding", "blips", "mission", "cards", "dice")
# What a changed part means, as the report flags it.
TAMPER_KINDS = {"holding": "a blip's contents swapped or changed (the holding area)",
                "blips": "a blip's contents swapped (which square a blip counter stands for)",
                "mission": "the mission changed", "cards": "a card changed",
                "dice": "the dice seed or a side's dice contribution changed",
                "seal": "the seal itself changed"}


def holding_data(state: GameState, side: str) -> dict[str, list[Data] | None]:
    """The side's holding area as data: squares 1-16 (and any others held), each a list of units or ``None``."""
    squares = state.holding[side].squares
    numbers = sorted(set(range(1, SQUARES + 1)) | set(squares))
    out: dict[str, list[Data] | None] = {}
    for n in numbers:
        contents = squares.get(n, [])
        out[str(n)] = None if contents is None else [c.model_dump(mode="json") for c in contents]
    return out


def part_values(state: GameState, side: str) -> Data:
    """The side's secret set-up, part by part, as sealed by format 3."""
    return {
        "holding": holding_data(state, side),
        "blips": {b.id: b.square for b in sorted(state.blips.values(), key=lambda b: b.id) if b.side == side},
        "mission": state.missions.get(side),
        "cards": cards_data(state.cards[side]) if side in state.cards else None,
        "dice": {"contribution": state.dice_commitments.get(side), "seed": state.dice_commitments.get("seed")},
    }


def part_digests(state: GameState, side: str, salt: str) -> dict[str, str]:
    """Each part's salted digest: without the salt a digest tells nothing (a mission is one of a few)."""
    return {name: hashlib.sha256(canonical_text({"format": PARTS_FORMAT, "side": side, "part": name, "salt": salt,
                                                 "value": value}).encode("utf-8")).hexdigest()
            for name, value in part_values(state, side).items()}


def seal_form(state: GameState) -> str:
    """The format a state is sealed by: 3 once its dice are keyed by the sides' contributions, else 2 (every save
    written before keeps the seal it had)."""
    return PARTS_FORMAT if state.dice_commitments else SEAL_FORMAT


def seal_document(state: GameState, side: str, salt: str, form: str = SEAL_FORMAT) -> Data:
    if form == PARTS_FORMAT:
        return {"format": form, "side": side, "parts": part_digests(state, side, salt)}
    if form == OLD_SEAL_FORMAT:
        return {"format": form, "side": side, "holding": holding_data(state, side),
                "mission": state.missions.get(side), "salt": salt}
    return {
        "format": form,
        "side": side,
        "holding": holding_data(state, side),
        "blips": {b.id: b.square for b in sorted(state.blips.values(), key=lambda b: b.id) if b.side == side},
        "mission": state.missions.get(side),
        "cards": cards_data(state.cards[side]) if side in state.cards else None,
        "salt": salt,
    }


def _document_text(state: GameState, side: str, salt: str, form: str = SEAL_FORMAT) -> str:
    doc = seal_document(state, side, salt, form)
    return canonical_json(doc) if form == OLD_SEAL_FORMAT else canonical_text(doc)


def seal_hash(state: GameState, side: str, salt: str, form: str = SEAL_FORMAT) -> str:
    return hashlib.sha256(_document_text(state, side, salt, form).encode("utf-8")).hexdigest()


def new_salt() -> str:
    return secrets.token_hex(16)


def seal_side(state: GameState, side: str, salt: str | None = None) -> str:
    """Seal one side's holding area and mission in ``state`` (changed in place); returns the seal."""
    salt = new_salt() if salt is None else salt
    state.salts[side] = salt
    state.sealed[side] = seal_hash(state, side, salt, seal_form(state))
    return state.sealed[side]


def seal(state: GameState, salts: dict[str, str] | None = None) -> GameState:
    """Seal both sides (set-up calls this last, before the state becomes ``Game.initial``). Changes ``state``."""
    for side in SIDES:
        seal_side(state, side, (salts or {}).get(side))
    return state


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
        shown = f"set-up fingerprint {short_seal(self.sealed)}, recomputed now {short_seal(self.recomputed)}"
        if self.matches:
            covers = "holding area and mission" if self.reason == OLD_SEAL_FORMAT else \
                "holding area, blips, mission and cards"
            return (f"side {self.side}'s seal matches its {covers} ({shown}): compare it with the fingerprint you "
                    f"noted at set-up")
        return f"side {self.side}'s seal does NOT match ({shown}): {self.reason}"


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
    again = seal_hash(state, side, salt, seal_form(state))
    if again == shown:
        return SealCheck(side, shown, again)
    if seal_hash(state, side, salt, OLD_SEAL_FORMAT) == shown:        # sealed by an earlier version
        return SealCheck(side, shown, shown, OLD_SEAL_FORMAT)
    return SealCheck(side, shown, again, "something in the holding area, the blips' squares, the mission or the "
                                         "cards differs from what was sealed: the battle or its save was changed")


def verify_seals(game: Game) -> dict[str, SealCheck]:
    """Both sides' seals for a ``Game``: recomputed from the state set-up ended in, compared with the seals now
    shown."""
    made = game.after_setup()
    return {side: verify_seal(made, side, game.state.sealed.get(side)) for side in SIDES}


def seal_all(state: GameState, ctx: Ctx | None = None, salts: dict[str, str] | None = None) -> GameState:
    """Set-up's last step: seal both sides and, given the resolution context, log the seals for both players."""
    seal(state, salts)
    if ctx is not None:
        ctx.event("each side's holding area, blips, mission and cards sealed; note the fingerprints: "
                  + "; ".join(f"side {side} {short_seal(state.sealed[side])}" for side in SIDES),
                  "each seal is checked in the end-of-battle report")
    return state


def sealed_text(state: GameState, side: str) -> str | None:
    """The exact text that was hashed into ``side``'s seal (``None`` without a salt). It holds the side's holding
    area, mission and salt, so it is shown only when the battle is over (or to the referee)."""
    salt = state.salts.get(side)
    if not salt:
        return None
    text = _document_text(state, side, salt, seal_form(state))
    if state.sealed.get(side) == hashlib.sha256(_document_text(state, side, salt, OLD_SEAL_FORMAT).encode()).hexdigest():
        return _document_text(state, side, salt, OLD_SEAL_FORMAT)
    return text


def seal_record(state: GameState) -> dict[str, Data]:
    """What a save keeps of the seals (``state`` as set-up ended): each side's seal and its salted part digests."""
    return {side: {"seal": state.sealed[side], "parts": part_digests(state, side, state.salts[side])}
            for side in SIDES if state.sealed.get(side) and state.salts.get(side)}


def tampered(kept: dict[str, Data], state: GameState) -> list[tuple[str, str]]:
    """(side, part) for each part of ``kept`` (a save's ``seal_record``) that the replayed ``state`` (as set-up
    ended) no longer gives, and (side, "seal") for a seal that differs: what was edited after the fact."""
    out: list[tuple[str, str]] = []
    for side, held in sorted(kept.items()):
        salt = state.salts.get(side)
        if salt:
            again = part_digests(state, side, salt)
            out += [(side, name) for name in PARTS if name in held.get("parts", {}) and held["parts"][name] != again[name]]
        if held.get("seal") != state.sealed.get(side):
            out.append((side, "seal"))
    return out


def tamper_lines(found: list[tuple[str, str]]) -> list[str]:
    return [f"TAMPERED: side {side}: {TAMPER_KINDS[part]} after set-up sealed it; the save was edited" if part != "seal"
            else f"TAMPERED: side {side}: the seal the save keeps is not the one its set-up replays to; the save was "
                 f"edited" for side, part in found]


def seal_report(game: Game) -> dict[str, Data]:
    """The end-of-battle report's seals, for each side: the seal shown all battle, the one recomputed from the state
    after set-up, whether they match, a sentence saying so, and the sealed document itself. Anyone can check the
    referee at the table: the SHA-256 of ``document`` (for example ``sha256sum`` of the text) is the seal."""
    out: dict[str, Data] = {}
    made = game.after_setup()
    for side, check in verify_seals(game).items():
        out[side] = {"sealed": check.sealed, "recomputed": check.recomputed, "matches": check.matches,
                     "text": check.text(), "document": sealed_text(made, side)}
    return out


def seal_report_lines(game: Game) -> list[str]:
    lines = list(game.tampered)
    for side, r in seal_report(game).items():
        lines.append(r["text"])
        if r["document"]:
            lines.append(f"  side {side}'s sealed document (its SHA-256 is the seal {r['sealed']}):")
            lines.append(f"  {r['document']}")
    return lines
