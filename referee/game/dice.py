"""Dice as chance events: the engine asks, a source answers, and every answer is recorded.

The engine never draws a random number itself. A ``RollRequest`` says what is rolled, why, and its exact outcome
distribution; a seeded source, the faces of physical dice typed in by hand, or a script in tests answers it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from collections.abc import Generator, Iterable, Sequence
from typing import Literal, Protocol, TypeAlias, TypeVar

D6 = {face: Fraction(1, 6) for face in range(1, 7)}
T = TypeVar("T")


@dataclass(frozen=True)
class RollRequest:
    """One die (``d6``) or one deviation bearing in degrees (``bearing``)."""

    label: str                   # "CM die for b-tactical-2"
    rule: str                    # "p.21, A24"
    kind: Literal["d6", "bearing", "draw"] = "d6"
    success: str = ""            # "1-4 succeeds": shown to a player rolling by hand
    die: str = "normal"          # "red" for the Red Die
    options: tuple[str, ...] = ()   # for a "draw": the cards (or choices) one is drawn from, answered by index

    @property
    def distribution(self) -> dict[int, Fraction] | None:
        return D6 if self.kind == "d6" else None

    def describe(self) -> str:
        what = {"bearing": "bearing in degrees", "draw": f"one of {len(self.options)}"}.get(
            self.kind, "Red Die" if self.die == "red" else "d6")
        return f"{self.label} ({what}{'; ' + self.success if self.success else ''}) [{self.rule}]"


# Resolution code that rolls is a generator: it yields a RollRequest, is sent back the face (or bearing, or the index
# of the card drawn), and returns its result.
Rolling: TypeAlias = Generator[RollRequest, float, T]


class DiceMissing(Exception):
    """A scripted or hand-entered source has no answer for this roll."""

    def __init__(self, request: RollRequest):
        self.request = request
        super().__init__(f"missing roll: {request.describe()}")


class DiceSource(Protocol):
    def answer(self, request: RollRequest) -> float: ...


def check_face(value: float, request: RollRequest) -> float:
    if request.kind == "d6":
        if isinstance(value, bool) or int(value) != value or not 1 <= value <= 6:
            raise ValueError(f"{request.label}: a die shows 1 to 6 (got {value!r})")
        return int(value)
    if request.kind == "draw":
        if isinstance(value, bool) or int(value) != value or not 0 <= value < len(request.options):
            raise ValueError(f"{request.label}: expected a choice from 0 to {len(request.options) - 1} (got {value!r})")
        return int(value)
    v = float(value)
    if not 0.0 <= v < 360.0 + 1e-9:
        raise ValueError(f"{request.label}: a bearing is 0 to 360 degrees (got {value!r})")
    return v % 360.0


@dataclass
class SeededDice:
    """The program rolls: a seeded generator whose seed is part of the game record."""

    seed: int
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def answer(self, request: RollRequest) -> float:
        if request.kind == "bearing":
            return round(self.rng.uniform(0.0, 360.0), 3) % 360.0
        if request.kind == "draw":
            return self.rng.randrange(len(request.options))
        return self.rng.randint(1, 6)


@dataclass
class ScriptedDice:
    """Faces given in order (tests, ``query do --dice``, replays, or physical dice typed in by hand)."""

    # Faces as given (a save holds numbers, a script or a hand may give anything): check_face judges each when used.
    dice: Sequence[float] = field(default_factory=list)
    bearings: Sequence[float] = field(default_factory=list)
    draws: Sequence[float] = field(default_factory=list)
    used_dice: int = 0
    used_bearings: int = 0
    used_draws: int = 0

    def answer(self, request: RollRequest) -> float:
        if request.kind == "draw":
            if self.used_draws >= len(self.draws):
                raise DiceMissing(request)
            v = self.draws[self.used_draws]
            self.used_draws += 1
            return check_face(v, request)
        if request.kind == "bearing":
            if self.used_bearings >= len(self.bearings):
                raise DiceMissing(request)
            v = self.bearings[self.used_bearings]
            self.used_bearings += 1
            return check_face(v, request)
        if self.used_dice >= len(self.dice):
            raise DiceMissing(request)
        v = self.dice[self.used_dice]
        self.used_dice += 1
        return check_face(v, request)


@dataclass(frozen=True)
class Roll:
    label: str
    kind: str
    value: float

    def as_list(self) -> list[str | float]:
        return [self.label, self.kind, self.value]


@dataclass
class Recorder:
    """Wraps a source and keeps every answer in order: the game record stores them with the action."""

    source: DiceSource
    rolls: list[Roll] = field(default_factory=list)

    def answer(self, request: RollRequest) -> float:
        value = self.source.answer(request)
        self.rolls.append(Roll(request.label, request.kind, value))
        return value


def replay_source(rolls: Iterable[Roll]) -> ScriptedDice:
    """A source that gives back recorded rolls in their order."""
    return ScriptedDice(
        dice=[r.value for r in rolls if r.kind == "d6"],
        bearings=[r.value for r in rolls if r.kind == "bearing"],
        draws=[r.value for r in rolls if r.kind == "draw"],
    )
