"""Reading what a client sends: one JSON text frame, checked for its size, its shape and its types before anything
reads it further. A message that cannot be read is refused with the reason, and nothing else happens.

The shapes (``docs/network.md``)::

    {"type": "intent", "id": ID, "intent": {"kind": K, ...}}      something to do, applied once per ID
    {"type": "ask", "id": ID, "question": Q, ...}                  a read-only question about the seat's own view
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Final

from ..game.battle.action_kinds import Kind

MAX_MESSAGE: Final = 16 * 1024          # characters of one frame; a screen's intent is well under 2,000
MAX_ID: Final = 80
MAX_DICE: Final = 64
# A refereed battle's own entries are intents named by the kind of action they make (the owner's word on a blip's
# contents, a side's mission card), checked here and handed to the session's ``tell`` and ``enter_mission``.
INTENT_KINDS: Final = ("action", "answer", "undo", "consent", Kind.CONTENTS, Kind.MISSION, Kind.FORFEIT,
                       "dice-commitment", "dice-shares", "dice-refused", Kind.DICE_OPENED, Kind.CARDS_OPENED)
MAX_SHARES: Final = 64                  # a kept side's dice shares in one answer (``game/battle/dice.py``)
MAX_MOMENT: Final = 100_000             # characters of a moment (its place and the action, as the dice name it)
MAX_SALT: Final = 64                    # hex digits of a square's salt (``game/battle/commit.py``)
MAX_REASON: Final = 1_000               # characters of why a kept side's device refused the shares asked of it
MAX_NAME: Final = 80                    # characters of a blip's or a card's id, a unit's rating, type or faction
QUESTIONS: Final = ("preview", "log", "screen", "report", "record")


class Unreadable(ValueError):
    """A message refused before it is read: ``reason`` says what was expected."""

    def __init__(self, reason: str, id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.id = id


@dataclass(frozen=True)
class Message:
    type: str                     # "intent" or "ask"
    id: str
    body: dict[str, Any]          # the intent, or the question and its arguments


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _no_constants(name: str) -> float:
    raise Unreadable(f"not JSON: {name} is not a number JSON knows")


def read(frame: str | bytes) -> Message:
    """The message in ``frame``, or ``Unreadable`` with the reason."""
    if isinstance(frame, bytes):
        raise Unreadable("expected a JSON text frame, got a binary one")
    if len(frame) > MAX_MESSAGE:
        raise Unreadable(f"message too long: {len(frame)} characters (at most {MAX_MESSAGE})")
    try:
        data = json.loads(frame, parse_constant=_no_constants)
    except RecursionError:
        raise Unreadable("not JSON this host reads: nested too deep") from None
    except ValueError as e:
        raise Unreadable(e.reason if isinstance(e, Unreadable) else f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise Unreadable(f"expected a JSON object, got {type(data).__name__}")
    ident = data.get("id")
    if not isinstance(ident, str) or not 0 < len(ident) <= MAX_ID:
        raise Unreadable(f"id: expected a text of 1 to {MAX_ID} characters, chosen by the client")
    kind = data.get("type")
    if kind == "intent":
        intent = data.get("intent")
        if not isinstance(intent, dict):
            raise Unreadable("intent: expected an object", ident)
        _check_intent(intent, ident)
        return Message("intent", ident, intent)
    if kind == "ask":
        question = data.get("question")
        if question not in QUESTIONS:
            raise Unreadable(f"question: expected one of {', '.join(QUESTIONS)}", ident)
        return Message("ask", ident, data)
    raise Unreadable("type: expected 'intent' or 'ask'", ident)


def _check_intent(intent: dict[str, Any], ident: str) -> None:
    kind = intent.get("kind")
    if kind not in INTENT_KINDS:
        raise Unreadable(f"intent.kind: expected one of {', '.join(INTENT_KINDS)}", ident)
    if kind == "action":
        check_action(intent.get("action"), ident, "intent.action")
        dice = intent.get("dice", [])
        if not isinstance(dice, list) or len(dice) > MAX_DICE or not all(_number(d) for d in dice):
            raise Unreadable(f"intent.dice: expected a list of at most {MAX_DICE} numbers", ident)
    elif kind == "answer":
        if not _number(intent.get("value")):
            raise Unreadable("intent.value: expected the die's face (a number)", ident)
    elif kind == "consent":
        if not isinstance(intent.get("allow"), bool):
            raise Unreadable("intent.allow: expected true or false", ident)
    elif kind == Kind.CONTENTS:
        # A refereed battle: the owner's word on what a blip holds at its reveal (up to 2 units, none: a decoy).
        if not _name(intent.get("blip")):
            raise Unreadable(f"intent.blip: expected the blip's id (a text of 1 to {MAX_NAME} characters)", ident)
        # A side that keeps its secrets on its own computer opens the square: its units as committed (with their ids
        # and side) and the commitment's salt.
        units = intent.get("contents")
        if not isinstance(units, list) or len(units) > 2 or not all(
                isinstance(u, dict) and set(u) <= {"rating", "type", "faction", "id", "side"} and _name(u.get("type"))
                and all(_name(u[k]) for k in ("rating", "faction", "id", "side") if k in u) for u in units):
            raise Unreadable("intent.contents: expected up to 2 units, each {rating, type, faction?} (none: a decoy)",
                             ident)
        salt = intent.get("salt")
        if salt is not None and not (isinstance(salt, str) and 0 < len(salt) <= MAX_SALT):
            raise Unreadable(f"intent.salt: expected the square's salt (a text of at most {MAX_SALT} characters)",
                             ident)
        # ... and the square the counter stands for, with the salt of the counter's commitment to it.
        square = intent.get("square")
        if square is not None and (isinstance(square, bool) or not isinstance(square, int) or not 0 < square < 100):
            raise Unreadable("intent.square: expected the square the counter stands for (a whole number)", ident)
        salt = intent.get("square_salt")
        if salt is not None and not (isinstance(salt, str) and 0 < len(salt) <= MAX_SALT):
            raise Unreadable(f"intent.square_salt: expected the counter's salt (a text of at most {MAX_SALT} "
                             f"characters)", ident)
    elif kind == "dice-commitment":
        if not _hex(intent.get("commitment"), 64):
            raise Unreadable("intent.commitment: expected the SHA-256 of the dice contribution (64 hex digits)", ident)
    elif kind == "dice-shares":
        moment, start, shares = intent.get("moment"), intent.get("from"), intent.get("shares")
        if not isinstance(moment, str) or not 0 < len(moment) <= MAX_MOMENT:
            raise Unreadable("intent.moment: expected the moment the host asked for (a text)", ident)
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= 10**6:
            raise Unreadable("intent.from: expected the first number's index the host asked for", ident)
        if not isinstance(shares, list) or not 0 < len(shares) <= MAX_SHARES or not all(_hex(x, 16) for x in shares):
            raise Unreadable(f"intent.shares: expected 1 to {MAX_SHARES} shares of 16 hex digits", ident)
    elif kind == "dice-refused":
        moment, reason = intent.get("moment"), intent.get("reason")
        if not isinstance(moment, str) or not 0 < len(moment) <= MAX_MOMENT:
            raise Unreadable("intent.moment: expected the moment the host asked for (a text)", ident)
        if not isinstance(reason, str) or len(reason) > MAX_REASON:
            raise Unreadable(f"intent.reason: expected why the shares are not sent (a text of at most {MAX_REASON} "
                             f"characters)", ident)
    elif kind == Kind.DICE_OPENED:
        if not _hex(intent.get("value"), 64) or not _hex(intent.get("salt"), 32):
            raise Unreadable("intent.value, intent.salt: expected the dice contribution (64 hex digits) and the salt "
                             "of its commitment (32 hex digits)", ident)
    elif kind == Kind.CARDS_OPENED:
        if not _hex(intent.get("value"), 64) or not _hex(intent.get("dice_salt"), 32) or not _hex(
                intent.get("salt"), 64):
            raise Unreadable("intent.value, intent.dice_salt, intent.salt: expected the dice contribution (64 hex "
                             "digits), the salt of its commitment (32) and the salt of the cards' commitment (64)",
                             ident)
        for key in ("mission", "troop", "drone"):
            if not _name(intent.get(key)):
                raise Unreadable(f"intent.{key}: expected a {key} card's id", ident)
        purchase = intent.get("purchase")
        if purchase is not None and not (isinstance(purchase, dict) and len(purchase) <= 20 and all(
                _name(k) and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100
                for k, v in purchase.items())):
            raise Unreadable("intent.purchase: expected {drone type: number}, or null", ident)
    elif kind == Kind.MISSION:
        # A refereed battle: a side enters its own mission card (and, if it wishes, troop and drone cards).
        if not _name(intent.get("mission")):
            raise Unreadable("intent.mission: expected a mission card's id", ident)
        for key in ("troop", "drone"):
            if intent.get(key) is not None and not _name(intent[key]):
                raise Unreadable(f"intent.{key}: expected a {key} card's id, or null", ident)
        if intent.get("side") is not None and not _name(intent["side"]):
            raise Unreadable("intent.side: expected the side (A or B)", ident)


def _hex(value: object, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and all(c in "0123456789abcdef" for c in value)


def _name(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME


def check_action(action: object, ident: str, where: str) -> None:
    """An action as data: ``{"kind": text, "actor": text, "args": object}``."""
    if not isinstance(action, dict):
        raise Unreadable(f"{where}: expected an object with kind, actor and args", ident)
    if not isinstance(action.get("kind"), str):
        raise Unreadable(f"{where}.kind: expected a text", ident)
    if not isinstance(action.get("actor", ""), str):
        raise Unreadable(f"{where}.actor: expected a text", ident)
    if not isinstance(action.get("args", {}), dict):
        raise Unreadable(f"{where}.args: expected an object", ident)
