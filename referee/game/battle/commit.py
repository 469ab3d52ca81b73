"""A side whose secrets stay on its own computer: what it commits to at set-up, and how an opening is checked.

A battle hosted on one computer and joined from another (``seven-seconds host TABLE --kept-by B``) need not trust the
host with the joining side's holding area. That side fills its 16 squares on its own computer and sends, for each
square, only a commitment: the SHA-256 of a canonical JSON document naming this format (the domain tag), the battle
(``battle_id``: the commitment to its dice seed, drawn fresh for every battle), the side, the square, the units it
holds (none: a decoy) and a salt of 256 bits from the operating system. The host keeps the commitments
(``GameState.square_commitments``) and never the contents. At a reveal the owner's computer opens the square (its
units and salt); the engine recomputes the commitment and refuses any other answer, so no lie is recorded. Without
the salt a commitment tells nothing: not even which of the few likely arrangements it is.

This module holds no battle state, so the joining computer's client uses the same function the engine checks with.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ...rules.pieces import SQUARES as SQUARES, UNITS_PER_SQUARE

SQUARE_FORMAT: Final = "seven-seconds-square/1"
BLIP_FORMAT: Final = "seven-seconds-blip/1"
CARDS_FORMAT: Final = "seven-seconds-cards/1"
UNIT_KEYS: Final = ("id", "side", "faction", "rating", "type")      # what a commitment covers of each unit
SALT_HEX: Final = 64                                                 # 256 bits, as hex
HEX: Final = frozenset("0123456789abcdef")


def canonical_json(data: object) -> str:
    """Sorted keys, no spaces, UTF-8: the same data always gives the same text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical_numbers(data: Any) -> Any:
    """The same data with every number written one way: a whole number as an integer (``1``, never ``1.0``; ``-0.0``
    is ``0``). A save read back gives ``1.0`` where the battle held ``1``; digests of the two must agree.

    Each value's exact type is looked at first: a battle's state is tens of thousands of plain texts, numbers, lists
    and dictionaries (its log above all), and a digest walks them all. Anything else (an enumeration's member, a
    subclass) takes the general way."""
    kind = type(data)
    if kind is str or kind is int or data is None or kind is bool:
        return data
    if kind is float:
        return int(data) if data.is_integer() else data
    if kind is dict:
        return {k if type(k) is str else str(k): canonical_numbers(v) for k, v in data.items()}
    if kind is list or kind is tuple:
        return [canonical_numbers(v) for v in data]
    if isinstance(data, bool) or isinstance(data, str):
        return data
    if isinstance(data, float):
        return int(data) if data.is_integer() else data
    if isinstance(data, int):
        return data
    if isinstance(data, dict):
        return {str(k): canonical_numbers(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [canonical_numbers(v) for v in data]
    return data


def canonical_text(data: Any) -> str:
    """``canonical_json`` of ``canonical_numbers``: the text digests and seals are taken of."""
    return canonical_json(canonical_numbers(data))


def new_square_salt() -> str:
    return secrets.token_hex(SALT_HEX // 2)


def is_digest(text: object, length: int = 64) -> bool:
    """A lowercase hex text of ``length`` characters (a SHA-256, a salt)."""
    return isinstance(text, str) and len(text) == length and set(text) <= HEX


def battle_id(dice_commitments: Mapping[str, str]) -> str:
    """The battle a commitment belongs to: the commitment to its dice seed (public, drawn fresh for each battle),
    so an opening of another battle's square never fits this one. "" : the battle's dice are not keyed."""
    return str(dice_commitments.get("seed", ""))


def unit_entries(units: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The units of a square as committed: each unit's id, side, faction, rating and type, in the order given."""
    return [{k: u.get(k) for k in UNIT_KEYS} for u in units]


def square_commitment(battle: str, side: str, square: int, units: Sequence[Mapping[str, Any]], salt: str) -> str:
    """The commitment to what ``side``'s holding square ``square`` holds (see the module note)."""
    doc = {"format": SQUARE_FORMAT, "battle": battle, "side": side, "square": int(square),
           "contents": unit_entries(units), "salt": salt}
    return hashlib.sha256(canonical_text(doc).encode("utf-8")).hexdigest()


def blip_commitment(battle: str, side: str, square: int, salt: str) -> str:
    """The commitment to the square a blip counter of ``side`` stands for (A59), sent with the holding area: one for
    each counter the side will place, in the order it places them (its ``slot``). The host gives each counter placed
    the next one and learns the square only when the owner opens it at the counter's reveal."""
    doc = {"format": BLIP_FORMAT, "battle": battle, "side": side, "square": int(square), "salt": salt}
    return hashlib.sha256(canonical_text(doc).encode("utf-8")).hexdigest()


def cards_commitment(battle: str, side: str, mission: str, troop: str, drone: str, drone_line: str,
                     purchase: Mapping[str, int] | None, salt: str) -> str:
    """The commitment to the cards ``side`` drew on its own computer (``kept_cards.py``): its mission, troop and drone
    card, the drone line they give and a Chance Encounter's drone purchase (null: none), sent with its draw. The host
    learns the cards when the owner opens them at the end of the battle."""
    doc = {"format": CARDS_FORMAT, "battle": battle, "side": side, "mission": mission, "troop": troop,
           "drone": drone, "drone_line": drone_line,
           "purchase": None if purchase is None else {str(k): int(v) for k, v in purchase.items()}, "salt": salt}
    return hashlib.sha256(canonical_text(doc).encode("utf-8")).hexdigest()


# ---- the holding area's rule, as the host and the joining computer both check it -------------------------------


def square_overfull(n: int, count: int) -> str:
    """Why ``count`` units may not share holding square ``n``, or "" (p.~10): the set-up screen asks as each unit is
    put in, the engine when the arrangement is made."""
    return f"square {n} holds {count} units; at most {UNITS_PER_SQUARE} [p.~10]" if count > UNITS_PER_SQUARE else ""


def arrangement_problems(side: str, issued: Sequence[str], squares: object) -> list[str]:
    """Why an arrangement of the issued units (their ids) is not allowed: squares 1-16, at most 2 units a square,
    every issued unit exactly once (p.~10)."""
    if not isinstance(squares, dict):
        return [f"squares: expected {{square: [unit ids]}} (got {type(squares).__name__})"]
    ids = set(issued)
    problems = []
    placed: list[str] = []
    for key, units in squares.items():
        try:
            n = int(key)
        except (TypeError, ValueError):
            problems.append(f"square {key!r}: expected a square number from 1 to {SQUARES} [p.~10]")
            continue
        if not 1 <= n <= SQUARES:
            problems.append(f"square {n}: expected a square number from 1 to {SQUARES} [p.~10]")
            continue
        if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
            problems.append(f"square {n}: expected a list of unit ids")
            continue
        if square_overfull(n, len(units)):
            problems.append(square_overfull(n, len(units)))
        for u in units:
            if u not in ids:
                problems.append(f"square {n}: {u!r} is not a unit side {side}'s cards issued "
                                f"(expected one of {', '.join(sorted(ids))})")
            elif u in placed:
                problems.append(f"square {n}: {u} is already in another square")
            placed.append(u)
    left = sorted(ids - set(placed))
    if left and not problems:
        problems.append(f"every issued unit goes into a square: {', '.join(left)} left [p.~10]")
    return problems


def drawn_groups(units: Sequence[Any]) -> list[list[Any]]:
    """The units as "place for me" puts them: one a square while there is room, pairs beyond 16 (p.~10). Raises
    ``ValueError`` when they do not fit."""
    if len(units) > SQUARES * UNITS_PER_SQUARE:
        raise ValueError(f"{len(units)} units do not fit 16 squares of 2 [p.~10]")
    groups = [[u] for u in units[:SQUARES]]
    for i, u in enumerate(units[SQUARES:]):
        groups[i].append(u)
    return groups
