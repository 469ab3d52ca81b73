"""The Target tool's hint before the roll: the engine's offer for the Targeter (its dice range, each piece's price)
and the odds of the pool and of the counters it would place, worked out by the rules (``rules/odds.py``, p.19,
p.26), so the window composes no odds of its own."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..rules import odds

if TYPE_CHECKING:
    from .session import BattleSession

NO_OFFER: dict[str, Any] = {"dice": [1, 1], "assign": {}}


def _percent(p: float | Fraction) -> str:
    return f"{float(p) * 100:.1f} %"        # as the side panel writes a chance


@dataclass(frozen=True)
class TargetHint:
    """What the Target tool shows before the roll: the engine's offer and the lines that explain it."""

    offer: dict[str, Any]              # the legal Target action's free arguments: "dice" [min, max], "assign" prices
    lines: tuple[str, ...]

    @property
    def limit(self) -> int:
        return int(self.offer["dice"][1])


def target_offer(session: BattleSession, actor: str) -> dict[str, Any]:
    """The engine's legal Target action for ``actor``: its dice range and the price on each piece."""
    offers = session.legal_for("target", actor)
    return offers[0].free if offers else NO_OFFER


def target_hint(session: BattleSession, actor: str, dice: int) -> TargetHint:
    """The pool's odds for ``dice`` sensor dice, and for every dice count the counters the whole pool would place
    on each piece the engine lets ``actor`` price."""
    offer = target_offer(session, actor)
    limit, n = int(offer["dice"][1]), dice
    pool = odds.pool_distribution(n)
    prices = offer["assign"]
    lines = [f"{actor} rolls {n} of at most {limit} sensor dice (keys 1-{limit} or +/-); it gains a Target "
             f"counter per die [p.19]",
             f"pool of {n} dice: mean {float(pool.mean):.1f}; "
             + ", ".join(f"{k} or more {_percent(pool.p_at_least(k))}" for k in (4, 7, 10, 14) if k <= 6 * n)]
    if not prices:
        lines.append(f"WARNING: no target in sight of {actor}: the dice would place no counter anywhere; "
                     f"{actor} would still gain {n} counter{'s' if n != 1 else ''} [p.19]. Enter twice rolls "
                     f"anyway.")
    else:
        lines.append("Counters the whole pool would place on one piece, by dice count: expected (chance of at "
                     "least one) [p.19, p.26]")
        for tid, price in prices.items():
            head = f"  {tid} ({price['price']} pt" + (f", {price['eaten']} eaten" if price["eaten"] else "") + "):"
            cells = []
            for k in range(1, limit + 1):
                c = odds.target_counters_distribution(k, price["price"], price["eaten"],
                                                      eaten_price=price.get("eaten_price", price["price"]))
                mark = "*" if k == n else ""
                cells.append(f"{mark}{k}d {float(c.expected):.2f} ({_percent(1 - c.p_none)})")
            lines.append(head + " " + "  ".join(cells))
    lines.append("Enter rolls the dice; Esc cancels (nothing is rolled).")
    return TargetHint(offer, tuple(lines))
