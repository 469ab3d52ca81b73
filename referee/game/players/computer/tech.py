"""The computer's campaign tech points (p.31, A45): after a battle of a campaign it played, it buys upgrades as a
player would, with the rules' own prices and limits (``rules/campaign_upgrades.py``) and a reason for each.

What a purchase is worth, with no tuned weights:

* **Who gains.** +1 to a stat of a rating helps every unit of that rating that uses the stat. The units a side
  fields are not known before its cards are drawn, so the computer counts what the deck's Troop and Drone lines
  issue, each line as likely as any other: troopers use Sensors, Stealth, Armour and Countermeasures; Nuclear only
  the troopers that carry a missile; drones only Robotics, at the drone line's rating or else the Troop line's (A48).
* **How much.** Every stat is a count (dice, inches, counters) or a d6 threshold whose chance is value/6, so +1 to a
  stat at value v gains the fraction 1/v of what it gave: 2 -> 3 is half as much again, 4 -> 5 a quarter.
* **For what.** The worth is divided by the price, so a purchase halved because the opponent's stat is higher
  (p.31) is taken before a full-price one of the same worth.

It buys the best purchase the points allow, and again while any is allowed; what is left is banked (A45).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...battle.cards import Deck
from ....rules.campaign_upgrades import apply_upgrade, check_upgrade
from ....rules.catalogue import unit_types
from ....rules.factions import Faction
from ....rules.stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT

TROOPER_STATS = ("sensors", "stealth", "armour", "countermeasures")


@dataclass(frozen=True)
class TechPurchase:
    """One upgrade the computer buys: +1 to ``stat`` of ``rating`` for ``cost`` tech points, and why."""

    rating: str
    stat: str
    cost: int
    raised_to: int
    reason: str


def fielded(deck: Deck) -> dict[tuple[str, str], Fraction]:
    """The units of each rating expected to use each stat in a battle: (rating, stat) -> mean count over the
    deck's Troop lines (each line as likely as any other; its Drone line taken from each Drone card in turn)."""
    types = unit_types()
    lines = [card.line(letter) for card in deck.troop_cards for letter in ("A", "B", "C")]
    if not lines:
        return {}
    users: dict[tuple[str, str], Fraction] = {}

    def add(rating: str, stat: str, count: Fraction) -> None:
        users[(rating, stat)] = users.get((rating, stat), Fraction(0)) + count / len(lines)

    for line in lines:
        for unit in line.units:
            for stat in TROOPER_STATS:
                add(line.rating, stat, Fraction(unit.count))
            if types.troopers[unit.type].missile:
                add(line.rating, "nuclear", Fraction(unit.count))
        for card in deck.drone_cards:
            drones = card.line(line.drone_line)
            add(drones.rating or line.rating, "robotics", Fraction(drones.drone_count(), len(deck.drone_cards)))  # A48
    return users


def _worth(users: Fraction, current: int, cost: int) -> Fraction:
    """Units that gain, times the fraction gained (1/v), per tech point."""
    return users / max(current, 1) / cost


def choose_purchases(faction: Faction, opponent: Faction, tech_points: int, deck: Deck,
                     battle: int | None = None) -> list[TechPurchase]:
    """The upgrades the computer buys with ``tech_points``, best first, each checked by the rules against the
    faction as raised by the ones before (A45: halving is judged before each purchase)."""
    users = fielded(deck)
    bought: list[TechPurchase] = []
    while True:
        best: tuple[Fraction, str, str] | None = None
        for rating in RATINGS:
            for stat in STAT_NAMES:
                gainers = users.get((rating, stat), Fraction(0))
                if gainers == 0:
                    continue
                check = check_upgrade(faction, rating, stat, opponent, tech_points)
                if not check.allowed:
                    continue
                worth = _worth(gainers, check.current, check.cost)
                if best is None or worth > best[0]:
                    best = (worth, rating, stat)
        if best is None:
            return bought
        _, rating, stat = best
        check = check_upgrade(faction, rating, stat, opponent, tech_points)
        gainers = users[(rating, stat)]
        halved = f", half price as {opponent.name}'s is higher" if check.halved else ""
        points = "tech point" if check.cost == 1 else "tech points"
        reason = (f"{RATING_TITLES[rating]} {STAT_SHORT[stat]} {check.current} -> {check.raised_to} for "
                  f"{check.cost} {points}{halved}: about {float(gainers):.1f} units a battle use it, and +1 on "
                  f"{check.current} is +{round(100 / max(check.current, 1))} % [p.31, A45]")
        bought.append(TechPurchase(rating, stat, check.cost, check.raised_to, reason))
        faction = apply_upgrade(faction, rating, stat, opponent, tech_points, battle)
        tech_points -= check.cost
