"""What the computer weighs with: the dice it rolls in its head (never the battle's) and a candidate's score."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...play.actions import ActionOutcome
from ...battle.dice import RollRequest
from .candidates import Candidate


class HeadDice:
    """Dice rolled in the computer's head while it weighs an action (never the battle's dice)."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def answer(self, request: RollRequest) -> float:
        if request.kind == "bearing":
            return round(self.rng.uniform(0.0, 360.0), 3)
        if request.kind == "draw":
            return self.rng.randrange(max(1, len(request.options)))
        return self.rng.randint(1, 6)


class FixedDice(HeadDice):
    """Every d6 shows ``face``: the computer's way to see each outcome of a shot whose odds the preview gives."""

    def __init__(self, face: int, rng: random.Random):
        super().__init__(rng)
        self.face = face

    def answer(self, request: RollRequest) -> float:
        return self.face if request.kind == "d6" else super().answer(request)


class MissileDice(HeadDice):
    """The dice of one outcome of a missile: ``down`` (the first countermeasures die shoots it down), ``hit`` (every
    countermeasures die fails, the hit die is a 1) or ``miss`` (countermeasures fail, the hit die is a 6 and the
    missile deviates); the deviation and the blast are rolled in the head [p.21]."""

    def __init__(self, outcome: str, rng: random.Random):
        super().__init__(rng)
        self.outcome = outcome

    def answer(self, request: RollRequest) -> float:
        if request.kind == "d6" and request.label.startswith("CM die"):
            return 1 if self.outcome == "down" else 6
        if request.kind == "d6" and request.label.startswith("missile hit die"):
            return 1 if self.outcome == "hit" else 6
        return super().answer(request)


class DeviatedDice(MissileDice):
    """A missile that misses and deviates ``total`` inches (the Red Die plus the normal die) at ``bearing`` degrees
    [p.21, A29]: one of the deviations ``deviations`` spreads over the dice's throws and the compass."""

    def __init__(self, total: int, bearing: float, rng: random.Random):
        super().__init__("miss", rng)
        self.red, self.normal, self.bearing = min(6, total - 1), total - min(6, total - 1), bearing

    def answer(self, request: RollRequest) -> float:
        if request.kind == "bearing":
            return self.bearing
        if request.kind == "d6" and request.label.startswith("Red Die for the deviation"):
            return self.red
        if request.kind == "d6" and request.label.startswith("normal die for the deviation"):
            return self.normal
        return super().answer(request)


# A deviation's length is the Red Die plus a normal die (2-12", p.21): each of these eight sums stands for an eighth of
# the 36 throws (the middle of each eighth of their distribution), and each goes in its own direction, a compass
# point apart, so that together they sweep the whole circle a deviated blast may land in (A29).
DEVIATION_SUMS = (7, 3, 9, 5, 11, 6, 8, 7)


def deviations(rng: random.Random) -> list[tuple[int, float]]:
    """Eight deviations (their sum of the two dice, their bearing) that stand for every deviation equally: the
    compass turned by a random amount, so that no bearing is favoured from one weighing to the next."""
    turn = rng.uniform(0.0, 45.0)
    return [(total, round((turn + 45.0 * k) % 360.0, 3)) for k, total in enumerate(DEVIATION_SUMS)]


@dataclass
class _Scored:
    cand: Candidate
    value: float
    outcome: ActionOutcome | None
