"""What the players chose for a new battle before its first set-up decision: each side's faction, its winning
streak (A47), and, for a scripted set-up, the decisions themselves. A value that holds no battle state, so the
window's new-battle form may build it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SetupChoices:
    factions: dict[str, str]
    streak: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    objectives: dict[str, tuple[float, float]] = field(default_factory=dict)
    holding: dict[str, dict[int, list[str]]] = field(default_factory=dict)   # side -> square -> unit ids
    blips: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    purchase: dict[str, dict[str, int]] = field(default_factory=dict)        # Chance Encounter drones
    ratings: dict[str, str] = field(default_factory=dict)                     # unused: cards give ratings
