"""Every rules computation returns its value with its working: one Step per rule applied."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Step:
    """One line of working, with the page (``p.24``) or ruling (``A7``) it rests on."""

    text: str
    source: str = ""

    def __str__(self) -> str:
        return f"{self.text} [{self.source}]" if self.source else self.text


@dataclass
class Working:
    """Collects steps while a computation runs; frozen into a tuple when the result is built."""

    steps: list[Step] = field(default_factory=list)

    def add(self, text: str, *sources: str) -> None:
        self.steps.append(Step(text, ", ".join([s for s in sources if s])))

    def extend(self, steps: Iterable[Step | str]) -> None:
        # The exact-odds results carry their working as finished lines (their tags already in the text).
        self.steps.extend(s if isinstance(s, Step) else Step(s) for s in steps)

    def freeze(self) -> tuple[Step, ...]:
        return tuple(self.steps)


def lines(steps: Iterable[object]) -> list[str]:
    return [str(s) for s in steps]


def inches(value: float) -> str:
    """Distances as players say them: 8.0", 5.66"."""
    return f'{value:.2f}"'.replace('.00"', '.0"')
