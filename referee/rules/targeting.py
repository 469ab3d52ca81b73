"""Target (active sensors, p.19): the price of each counter, the counters eaten by terrain, and what a pool buys."""

from __future__ import annotations

from typing import NamedTuple

from .battlefield import Battlefield, Piece
from .explain import Step, Working, inches
from .geometry import edge_range, in_arc
from .ranges import band_index, target_band_size
from .sight import CoverResult, cover


class TargetPrice(NamedTuple):
    """A named tuple, as ``sight``'s results: a plain value, cheaper than a dataclass for a start to define."""

    allowed: bool
    reason: str
    in_arc: bool
    band: int            # cover included
    base_price: int      # points per counter before out-of-arc doubling
    price: int           # points per counter, doubling included
    eaten: int
    cover: CoverResult
    explain: tuple[Step, ...]
    eaten_doubled: bool = True   # ruling A50 option A

    @property
    def eaten_price(self) -> int:
        """What one counter eaten by terrain costs: doubled out of arc too under A50 option A."""
        return self.price if self.eaten_doubled else self.base_price

    def cost(self, counters: int) -> int:
        """Points needed to place ``counters`` net counters: the eaten ones are bought first (p.19 Example 2)."""
        if counters <= 0:
            return 0
        eaten_price = self.price if self.eaten_doubled else self.base_price
        return self.eaten * eaten_price + counters * self.price

    def placed(self, pool: int) -> int:
        """Counters a pool of ``pool`` points places on this target alone."""
        if not self.allowed:
            return 0
        eaten_price = self.price if self.eaten_doubled else self.base_price
        rest = pool - self.eaten * eaten_price
        return max(0, rest // self.price) if rest > 0 else 0


def can_target(actor: Piece) -> tuple[bool, str]:
    if actor.is_trooper:
        return True, ""
    if actor.is_drone and actor.unit_type == "recce-drone":
        return True, ""
    if actor.is_blip:
        return False, "an unrevealed blip may only Move; reveal it first [A18]"
    if actor.is_drone:
        return False, f"only troopers and Recce drones may Target; {actor.describe()} cannot [p.17]"
    return False, f"{actor.id} is not a unit [p.17]"


def sensor_dice_limit(actor: Piece) -> int:
    """Troopers roll up to Sensors dice, Recce drones up to Robotics (p.19)."""
    return actor.stat("sensors") if actor.is_trooper else actor.stat("robotics")


def target_price(bf: Battlefield, actor: Piece, target: Piece) -> TargetPrice:
    """The price of a Target counter from ``actor`` on ``target``, worked out once on a battlefield for two of its
    own pieces (a battlefield never changes: ``Battlefield.known``); a piece from elsewhere is priced afresh."""
    pieces = bf.pieces
    if pieces.get(actor.id) is not actor or (pieces.get(target.id) or bf.ground.get(target.id)) is not target:
        return _target_price(bf, actor, target)
    key = ("target price", actor.id, target.id)
    held = bf.known.get(key)
    if held is None:
        held = bf.known[key] = _target_price(bf, actor, target)
    assert isinstance(held, TargetPrice)
    return held


def _target_price(bf: Battlefield, actor: Piece, target: Piece) -> TargetPrice:
    rules = bf.rulings
    why = Working()
    ok, reason = can_target(actor)
    arc = in_arc(actor, target)
    if ok and actor.id == target.id:
        ok, reason = False, "a unit cannot Target itself [p.19]"
    if ok and not target.is_objective and target.side == actor.side:
        ok, reason = False, f"{target.id} is a friendly unit; Target counters go on enemy units, objectives or ground [p.19]"
    d = edge_range(actor, target)
    size, size_step = target_band_size(bf, actor)
    why.add(f"range {inches(d)} between the closest edges of the bases", "p.~6")
    why.extend([size_step])
    b = band_index(bf, d, size)
    why.add(f"band {b} at {inches(d)}", "p.19", rules.label("A2"))
    cov = cover(bf, actor, target)
    why.extend(cov.explain)
    if cov.cover_bands:
        why.add(f"+{cov.cover_bands} band{'s' if cov.cover_bands > 1 else ''}: target in {cov.target_cover} cover ({cov.cover_feature})", "p.24")
    total_band = b + cov.cover_bands
    price = total_band
    if not arc:
        price *= 2
        why.add(f"{target.id} is outside {actor.id}'s 180° arc: price doubled to {price} per counter", "p.19", rules.label("A12"))
    elif actor.has_arc:
        why.add(f"{target.id} is inside {actor.id}'s 180° arc", "p.19", rules.label("A12"))
    else:
        why.add(f"{actor.describe()} has no facing: no arc", rules.label("A12"))
    why.add(f"price {price} point{'s' if price > 1 else ''} per counter", "p.19")
    doubled = rules.reads("A50", "A")
    if ok and not cov.los.visible:
        ok, reason = False, f"more than half of {target.id} is hidden by blocking terrain ({', '.join(cov.los.blocked_by)}) [p.19, p.24, A9]"
    elif ok and cov.blocked:
        heavy = [i.terrain for i in cov.intervening if i.blocks]
        ok, reason = False, f"more than 3\" of Heavy cover ({', '.join(heavy)}) lies between: blocked [p.19, A6]"
    # Nothing is bought across blocking terrain, so nothing is eaten: a blocked target says blocked, never "2 eaten".
    blocked = not cov.los.visible or cov.blocked
    eaten = 0 if blocked else cov.penalty
    if eaten:
        absorb = eaten * (price if doubled else total_band)
        why.add(f"the first {eaten} counter{'s' if eaten > 1 else ''} bought are eaten by intervening terrain ({absorb} points absorbed)", "p.19", rules.label("A50") if not arc else "")
    if not ok:
        why.add(f"not allowed: {reason}")
    return TargetPrice(ok, reason, arc, total_band, total_band, price, eaten, cov, why.freeze(), doubled)
