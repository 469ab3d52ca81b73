"""The six stats, in the rulebook's order Sen / Stl / Arm / CM / Nuc / Rob."""

from __future__ import annotations

from typing import Literal

from .model import Strict

STAT_NAMES = ("sensors", "stealth", "armour", "countermeasures", "nuclear", "robotics")
STAT_SHORT = {
    "sensors": "Sen", "stealth": "Stl", "armour": "Arm",
    "countermeasures": "CM", "nuclear": "Nuc", "robotics": "Rob",
}
StatName = Literal["sensors", "stealth", "armour", "countermeasures", "nuclear", "robotics"]

RATINGS = ("reserve", "veteran", "spec-ops")
Rating = Literal["reserve", "veteran", "spec-ops"]
RATING_TITLES = {"reserve": "Reserve", "veteran": "Veteran", "spec-ops": "Spec Ops"}


class StatLine(Strict):
    sensors: int
    stealth: int
    armour: int
    countermeasures: int
    nuclear: int
    robotics: int

    def get(self, stat: str) -> int:
        value: int = getattr(self, stat)
        return value

    def values(self) -> tuple[int, ...]:
        return tuple(getattr(self, s) for s in STAT_NAMES)

    def total(self) -> int:
        return sum(self.values())

    def raised(self, stat: str, by: int = 1) -> "StatLine":
        return self.model_copy(update={stat: self.get(stat) + by})

    def short(self) -> str:
        return "/".join(str(v) for v in self.values())
