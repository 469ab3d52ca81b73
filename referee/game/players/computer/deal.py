"""The computer's secret at a physical table: the units behind its blips, dealt when it takes its seat.

Refereeing a physical game, the program holds no secret it was not told; a side the computer plays must have one.
``deal_holding`` deals the computer's holding area (from its own faction and a force it could have been issued)
as the owner's word on each blip (``contents`` actions), recorded like any player's.
"""

from __future__ import annotations

import random
from collections import Counter

from ...battle.action_kinds import Kind
from ...battle.intents import Action
from ...battle.state import Data, GameState
from .belief import possible_forces


def unknown_blips(state: GameState, side: str) -> list[str]:
    """``side``'s blips on the table whose contents the program was never told."""
    return sorted(b.id for b in state.blips.values() if b.side == side and state.blip_contents(b) is None)


def deal_holding(state: GameState, side: str, faction: str, rng: random.Random) -> list[Action]:
    """The computer's secret, for a physical table: each of its blips whose contents were never told gets units
    (at most 2 a blip [p.15]) from a force its deck can issue, the rest are decoys. One ``contents`` action a blip,
    as its owner's word: only its own log shows what a blip holds."""
    blips = unknown_blips(state, side)
    if not blips:
        return []
    force = rng.choice(possible_forces())
    # The units already on the table (or known in blips) are part of the force; the rest are what the blips hold.
    shown = Counter(u.type for u in state.units.values() if u.side == side)
    for b in state.blips.values():
        if b.side == side:
            shown.update(c.type for c in state.blip_contents(b) or [])
    left = Counter(u.type for u in list(force.troopers) + list(force.drones)) - shown
    units = [(kind, force.rating) for kind in sorted(left.elements())]
    rng.shuffle(units)
    order = list(blips)
    rng.shuffle(order)
    # Fill blips two units at most, leaving decoys where the units run out; which blips stay empty follows the
    # shuffled order, not the counters' names or places.
    filled: dict[str, list[Data]] = {b: [] for b in blips}
    real = order[: max(1, min(len(order), -(-len(units) // 2)))]
    for i, (kind, rating) in enumerate(units[: 2 * len(real)]):
        filled[real[i % len(real)]].append({"faction": faction, "rating": rating, "type": kind})
    return [Action(Kind.CONTENTS, b, {"contents": filled[b]}) for b in blips]
