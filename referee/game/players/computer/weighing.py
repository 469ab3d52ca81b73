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


@dataclass
class _Scored:
    cand: Candidate
    value: float
    outcome: ActionOutcome | None
