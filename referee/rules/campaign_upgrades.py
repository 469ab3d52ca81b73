"""Campaign tech upgrades (p.31, ruling A45): what +1 to one stat of one rating costs, whether it may be bought, and
the faction after buying it.

* Each purchase raises one stat of one rating by 1. It costs Reserve 2, Veteran 4, Spec Ops 6 tech points, halved
  when the opponent's same stat at the same rating is higher than yours [p.31].
* Halving is checked against the current values (upgrades included) before each purchase [A45].
* After the raise the stat is at most 5, and Reserve <= Veteran <= Spec Ops still holds [p.31, A45].
* Unspent tech points bank for later purchases; an odd remainder is not lost [A45].

Refusing is normal flow: ``check_upgrade`` returns ``allowed=False`` with the rule as ``reason``. Only
``apply_upgrade`` raises (``UpgradeRefused``) when asked to apply a purchase the rules forbid.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError
from .explain import Step, Working, lines
from .factions import STAT_MAX, UPGRADE_COST, Faction, Upgrade
from .stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT

TECH_POINTS_FOR_TAKING_PART = 1
TECH_POINTS_FOR_TABLE_CONTROL = 1


@dataclass(frozen=True)
class UpgradeCost:
    """The price of +1 to ``stat`` of ``rating``: ``full`` from the table, ``cost`` after halving."""

    rating: str
    stat: str
    cost: int
    full: int
    halved: bool
    explain: tuple[Step, ...]

    @property
    def value(self) -> int:
        return self.cost


@dataclass(frozen=True)
class UpgradeCheck:
    """Whether one purchase is allowed now, what it costs and what is left of the tech points.

    ``current`` is the stat before the purchase and ``raised_to`` after it. ``tech_points`` is what the player has
    (None when not given: only the rules on the stats are checked); ``remaining`` is what is left after buying,
    banked for later [A45] (None when the purchase is refused or the points were not given).
    """

    rating: str
    stat: str
    allowed: bool
    reason: str
    cost: int
    full: int
    halved: bool
    current: int
    raised_to: int
    tech_points: int | None
    remaining: int | None
    explain: tuple[Step, ...]

    def lines(self) -> list[str]:
        return lines(self.explain)


class UpgradeRefused(InputError):
    """``apply_upgrade`` was asked for a purchase the rules forbid; ``check`` holds the reason and the working."""

    def __init__(self, source: str, check: UpgradeCheck):
        self.check = check
        super().__init__(source, check.reason)


def _check_names(rating: str, stat: str) -> None:
    problems = []
    if rating not in RATINGS:
        problems.append(f"rating: expected one of {', '.join(RATINGS)} (got {rating!r})")
    if stat not in STAT_NAMES:
        problems.append(f"stat: expected one of {', '.join(STAT_NAMES)} (got {stat!r})")
    if problems:
        raise InputError("upgrade", problems)


def _points(n: int) -> str:
    return f"{n} tech point{'' if n == 1 else 's'}"


def _label(faction: Faction, rating: str, stat: str) -> str:
    return f"{faction.name} {RATING_TITLES[rating]} {STAT_SHORT[stat]}"


def upgrade_cost(faction: Faction, rating: str, stat: str, opponent: Faction | None = None) -> UpgradeCost:
    """Tech points for +1 to ``stat`` of ``rating`` now: 2/4/6, halved when the opponent's is higher [p.31, A45]."""
    _check_names(rating, stat)
    full = UPGRADE_COST[rating]
    mine = faction.stats(rating).get(stat)
    why = Working()
    why.add(f"raising a {RATING_TITLES[rating]} stat costs {full} tech points", "p.31")
    halved = False
    if opponent is None:
        why.add("no opponent given: full cost", "p.31")
    else:
        theirs = opponent.stats(rating).get(stat)
        if theirs > mine:
            halved = True
            why.add(
                f"{_label(opponent, rating, stat)} {theirs} is higher than {_label(faction, rating, stat)} {mine}: "
                f"cost halved to {full // 2}", "p.31", "A45",
            )
        else:
            why.add(
                f"{_label(opponent, rating, stat)} {theirs} is not higher than {_label(faction, rating, stat)} "
                f"{mine}: full cost (checked against the current values before each purchase)", "p.31", "A45",
            )
    cost = full // 2 if halved else full
    return UpgradeCost(rating, stat, cost, full, halved, why.freeze())


def check_upgrade(faction: Faction, rating: str, stat: str, opponent: Faction | None = None,
                  tech_points: int | None = None) -> UpgradeCheck:
    """Whether +1 to ``stat`` of ``rating`` may be bought now, with its cost and the points left to bank."""
    price = upgrade_cost(faction, rating, stat, opponent)
    why = Working()
    why.extend(price.explain)
    current = faction.stats(rating).get(stat)
    raised = current + 1
    label = _label(faction, rating, stat)
    reasons = []
    if raised > STAT_MAX:
        reasons.append(f"{label} is already {current}; the maximum is {STAT_MAX}")
        why.add(f"{label} {current} -> {raised} would pass the maximum of {STAT_MAX}: not allowed", "p.30", "A45")
    index = RATINGS.index(rating)
    if index + 1 < len(RATINGS):
        higher = RATINGS[index + 1]
        above = faction.stats(higher).get(stat)
        if raised > above:
            reasons.append(
                f"{label} {current} -> {raised} would be above {RATING_TITLES[higher]} {STAT_SHORT[stat]} {above}; "
                f"a {RATING_TITLES[rating]} stat may never be raised above the {RATING_TITLES[higher]} one"
            )
            why.add(f"{label} {raised} would be above {RATING_TITLES[higher]} {above}: not allowed", "p.31")
        else:
            why.add(f"{label} {current} -> {raised}, not above {RATING_TITLES[higher]} {above}", "p.31")
    elif raised <= STAT_MAX:
        why.add(f"{label} {current} -> {raised}, within the maximum of {STAT_MAX}", "p.31", "A45")
    remaining = None
    if tech_points is not None:
        if tech_points < 0:
            raise InputError("tech points", f"expected 0 or more tech points (got {tech_points})")
        if tech_points < price.cost:
            reasons.append(f"it costs {price.cost} tech points and only {_points(tech_points)} available")
            why.add(f"{_points(tech_points)} available, {price.cost} needed: not enough (they stay banked)", "p.31", "A45")
        elif not reasons:
            remaining = tech_points - price.cost
            why.add(f"{tech_points} - {price.cost} = {_points(remaining)} left, banked for later purchases", "A45")
    allowed = not reasons
    reason = "" if allowed else "; ".join(reasons) + (" [p.31, A45]")
    return UpgradeCheck(rating, stat, allowed, reason, price.cost, price.full, price.halved, current, raised,
                        tech_points, remaining, why.freeze())


def apply_upgrade(faction: Faction, rating: str, stat: str, opponent: Faction | None = None,
                  tech_points: int | None = None, battle: int | None = None) -> Faction:
    """A new faction with the purchase recorded in ``upgrades`` (the given one is unchanged).

    Raises ``UpgradeRefused`` (an InputError) with the rule when ``check_upgrade`` does not allow it.
    """
    check = check_upgrade(faction, rating, stat, opponent, tech_points)
    if not check.allowed:
        raise UpgradeRefused(f"faction {faction.id!r}", check)
    # check_upgrade accepted the rating and the stat: validating turns the words into the model's closed sets.
    record = Upgrade.model_validate({"rating": rating, "stat": stat, "cost": check.cost, "battle": battle})
    return faction.model_copy(update={"upgrades": [*faction.upgrades, record]})


def tech_points_after_battle(controlled_table: bool) -> tuple[int, tuple[Step, ...]]:
    """Tech points earned by one player for one battle: +1 for taking part, +1 for Controlling the Table [p.31]."""
    why = Working()
    why.add(f"+{TECH_POINTS_FOR_TAKING_PART} for taking part in the battle", "p.31")
    points = TECH_POINTS_FOR_TAKING_PART
    if controlled_table:
        points += TECH_POINTS_FOR_TABLE_CONTROL
        why.add(f"+{TECH_POINTS_FOR_TABLE_CONTROL} for Controlling the Table at the end", "p.31")
    why.add(f"= {points} tech points, added to any banked", "p.31", "A45")
    return points, why.freeze()
