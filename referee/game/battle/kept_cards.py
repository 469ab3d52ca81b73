"""A side's cards drawn on its own computer, for a battle hosted on another (``seven-seconds host TABLE --kept-by B``).

The host never holds the kept side's mission, troop and drone cards, nor the units they issue. The draw is made on the
side's own computer, from numbers neither computer can steer, exactly as the table's dice are (``dice.py``): number
``n`` is the host's part (``SeededDice.host_parts``: a key of what the host committed to only, no fresh entropy)
exclusive-or the side's share (``dice_share`` with ``CARD_SHARE_FORMAT``: HMAC under the contribution the side
committed to before the first die, of the same moment and count). The host sends its parts with the set-up step
(``draw``: the moment, the parts, the cards drawn from and the side's streak); the side cannot choose its share
after seeing them, and the host cannot know the draw without the share. The side draws here (``drawn_offer``), makes
a streak's choice and a Chance Encounter's purchase (A42, A47), issues its force (``hand_of``) and sends the host
only the commitment to the cards (``commit.cards_commitment``). At the end it opens the cards and its contribution:
the host draws again from them (the same functions), issues the force again and checks every holding square
opened against it.

This module holds no battle state: the joining computer's client draws with the functions the engine checks with.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ...rules.errors import InputError
from .cards import Deck, Force, issue_force
from .commit import is_digest
from .dice import CARD_SHARE_FORMAT, SHARE_HEX, dice_share

KEPT_PARTS: Final = 16          # the host's parts sent for a draw: 5 cards at most, each nearly always from one number
DRAW_KEYS: Final = ("moment", "parts", "streak", "kind", "missions", "troops", "drones")


def cards_moment(side: str) -> str:
    """The moment a kept side's cards are drawn at: one a side and battle (the host's key is the battle's own), so
    neither computer can ask for a second draw."""
    return f"cards {side}"


def draw_numbers(parts: Sequence[str], side: str, value: str, moment: str) -> list[int]:
    """The numbers of ``side``'s card draw: each host's part exclusive-or the side's share from its contribution
    ``value``."""
    return [int(part, 16) ^ int(dice_share(side, value, moment, n, CARD_SHARE_FORMAT), 16)
            for n, part in enumerate(parts)]


@dataclass(frozen=True)
class Offer:
    """The cards a draw gave: one mission (two at streak 3), one troop card (two from streak 2) and a drone card."""

    missions: tuple[str, ...]
    troops: tuple[str, ...]
    drone: str


def _below(numbers: Iterator[int], n: int) -> int:
    """A whole number from 0 to n - 1 from the next numbers, as ``SeededDice.below`` draws it (rejection keeps it
    unbiased)."""
    limit = (1 << 64) - (1 << 64) % n
    for v in numbers:
        if v < limit:
            return v % n
    raise ValueError("the draw ran out of numbers")


def drawn_offer(numbers: Iterable[int], missions: Sequence[str], troops: Sequence[str], drones: Sequence[str],
                streak: int) -> Offer:
    """The cards drawn from ``numbers``, in the order set-up draws them (``setup_steps.draw_cards``): a mission, a
    troop card, a drone card, then at streak 2 an extra troop card and at streak 3 an extra mission (A47)."""
    it = iter(numbers)
    m = missions[_below(it, len(missions))]
    t = troops[_below(it, len(troops))]
    d = drones[_below(it, len(drones))]
    mission_ids, troop_ids = [m], [t]
    if streak >= 2:
        rest = [c for c in troops if c != t]
        if rest:
            troop_ids.append(rest[_below(it, len(rest))])
    if streak >= 3:
        rest = [c for c in missions if c != m]
        if rest:
            mission_ids.append(rest[_below(it, len(rest))])
    return Offer(tuple(mission_ids), tuple(troop_ids), d)


def draw_problems(draw: object) -> list[str]:
    """Why ``draw`` is not the public part of a kept side's card draw as the host sends it, or []."""
    if not isinstance(draw, dict) or sorted(draw) != sorted(DRAW_KEYS):
        return [f"draw: expected {{{', '.join(DRAW_KEYS)}}}"]
    problems = []
    parts = draw["parts"]
    if not isinstance(parts, list) or len(parts) != KEPT_PARTS or not all(is_digest(p, SHARE_HEX) for p in parts):
        problems.append(f"draw.parts: expected {KEPT_PARTS} parts of {SHARE_HEX} hex digits")
    for key in ("missions", "troops", "drones"):
        ids = draw[key]
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) and i for i in ids):
            problems.append(f"draw.{key}: expected the ids of the cards drawn from")
    streak = draw["streak"]
    if isinstance(streak, bool) or not isinstance(streak, int) or not 0 <= streak <= 4:
        problems.append("draw.streak: expected the side's winning streak, 0 to 4")
    if not isinstance(draw["moment"], str) or not isinstance(draw["kind"], str):
        problems.append("draw.moment, draw.kind: expected texts")
    return problems


def offer_of(draw: Mapping[str, Any], side: str, value: str) -> Offer:
    """The cards ``draw`` gives ``side`` with its contribution ``value``."""
    return drawn_offer(draw_numbers(draw["parts"], side, value, draw["moment"]), draw["missions"], draw["troops"],
                       draw["drones"], int(draw["streak"]))


@dataclass(frozen=True)
class Hand:
    """A kept side's cards as played: the mission and troop card chosen (A47), the drone card, a Chance Encounter's
    purchase (A42), and the units they issue (``{"id", "type", "rating"}``, named as set-up names them)."""

    mission: str
    troop: str
    drone: str
    troop_line: str
    drone_line: str
    purchase: dict[str, int] | None
    issued: tuple[dict[str, str], ...]


def issued_entries(side: str, force: Force) -> list[dict[str, str]]:
    """The units ``force`` issues as set-up lists them: ``a-tactical-1``, ``a-tactical-2``, ... by type."""
    counts: dict[str, int] = {}
    issued = []
    for unit in force.units:
        counts[unit.type] = counts.get(unit.type, 0) + 1
        issued.append({"id": f"{side.lower()}-{unit.type}-{counts[unit.type]}", "type": unit.type,
                       "rating": unit.rating})
    return issued


def hand_of(deck: Deck, side: str, offer: Offer, mission: str, troop: str, purchase: object, *,
            chance_encounter: bool) -> Hand:
    """The hand ``side`` plays from ``offer``: ``mission`` and ``troop`` must be among the cards drawn, ``purchase``
    a Chance Encounter's drones or None (drones are bought in no other battle, p.~15, A42). Raises ``ValueError``
    with the reason."""
    if mission not in offer.missions:
        raise ValueError(f"mission {mission!r} is not a mission card the draw gave ({', '.join(offer.missions)})")
    if troop not in offer.troops:
        raise ValueError(f"troop card {troop!r} is not a troop card the draw gave ({', '.join(offer.troops)})")
    if purchase is not None and (not isinstance(purchase, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in purchase.items())):
        raise ValueError(f"purchase: expected {{drone type: number}} (got {purchase!r})")
    if purchase is not None and not chance_encounter:
        raise ValueError("a drone purchase in a battle that is no Chance Encounter: drones are bought only in a Chance "
                         "Encounter [p.~15, A42]")
    try:
        m, t, d = deck.mission(mission), deck.troop(troop), deck.drone(offer.drone)
        force = issue_force(t, m.troop_line, d, deck.prices, purchase)
    except InputError as e:
        raise ValueError("; ".join(e.problems)) from None
    return Hand(m.id, t.id, d.id, m.troop_line, force.drone_line,
                None if purchase is None else dict(purchase), tuple(issued_entries(side, force)))
