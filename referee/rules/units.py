"""A unit's own stats: its faction's line for its rating plus its type's modifiers (ruling A5)."""

from __future__ import annotations

from typing import NamedTuple

from .catalogue import unit_types
from .explain import Step, Working
from .factions import Faction
from .rulings import Rulings, default_rulings
from .stats import RATING_TITLES, STAT_NAMES, STAT_SHORT, StatLine

UNIT_STAT_CAP = 5


class UnitStats(NamedTuple):
    """A unit's stat line and its working (a named tuple: a plain value, cheaper than a dataclass for a start)."""

    stats: StatLine
    explain: tuple[Step, ...]


def unit_stats(faction: Faction, rating: str, unit_type: str, rulings: Rulings | None = None) -> UnitStats:
    """Troopers: faction line + modifiers (capped at 5 only under A5 option B). Drones use only Robotics."""
    rulings = rulings or default_rulings()
    key = (faction.name, rating, faction.stats(rating).values(), unit_type, rulings.choices["A5"])
    hit = _CACHE.get(key)
    if hit is None:
        hit = _CACHE[key] = _unit_stats(faction, rating, unit_type, rulings)
    return hit


_CACHE: dict[tuple[str, str, tuple[int, ...], str, str], UnitStats] = {}


def _unit_stats(faction: Faction, rating: str, unit_type: str, rulings: Rulings) -> UnitStats:
    line = faction.stats(rating)
    why = Working()
    why.add(f"{faction.name} {RATING_TITLES[rating]} line {line.short()} (Sen/Stl/Arm/CM/Nuc/Rob)", "p.12")
    types = unit_types()
    if unit_type in types.drones:
        why.add(f"{types.drones[unit_type].name}: drones use Robotics {line.robotics} for everything", "p.~11")
        return UnitStats(line, why.freeze())
    trooper = types.troopers[unit_type]
    values = {s: line.get(s) for s in STAT_NAMES}
    for stat, plus in trooper.modifiers.items():
        raised = values[stat] + plus
        if rulings.reads("A5", "B") and raised > UNIT_STAT_CAP:
            why.add(f"{trooper.name}: {STAT_SHORT[stat]} {values[stat]}{plus:+d} capped at {UNIT_STAT_CAP}", rulings.label("A5"))
            raised = UNIT_STAT_CAP
        else:
            why.add(f"{trooper.name}: {STAT_SHORT[stat]} {values[stat]}{plus:+d} = {raised}", rulings.label("A5"))
        values[stat] = raised
    if not trooper.modifiers:
        why.add(f"{trooper.name}: all stats par", "A5")
    # Whole numbers the rules computed from a checked faction: made as they are, with no validator to build first.
    return UnitStats(StatLine.model_construct(None, **values), why.freeze())
