"""The two sides of a battle, A and B, in the game's words."""

from __future__ import annotations

from ...rules.pieces import Side

SIDES = ("A", "B")


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def as_side(value: str) -> Side:
    """A side held as text in the state, as the closed set the scoring and the file models use."""
    if value == "A":
        return "A"
    if value == "B":
        return "B"
    raise ValueError(f"expected side 'A' or 'B' (got {value!r})")
