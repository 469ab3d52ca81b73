"""The seats at a battle: who a client speaks for, and so what its screen may show.

A seat is a side (``A`` or ``B``), the ``referee`` of a physical game (both players at one table, the program told
only what the table shows), or a ``spectator`` (the shared table screen: what everyone may see, and nothing more).
A side's secrets (its blips' squares and contents, its holding area, mission and cards, its private log notes) reach
that side's seat only, until the rules reveal them; a spectator sees no side's secrets; the referee of a physical game
sees what the players told the program, which is what the table shows.
"""

from __future__ import annotations

from typing import Final, Literal

SeatName = Literal["A", "B", "referee", "spectator"]

SIDE_SEATS: Final = ("A", "B")
REFEREE: Final = "referee"
SPECTATOR: Final = "spectator"
SEATS: Final = (*SIDE_SEATS, REFEREE, SPECTATOR)


class SeatError(ValueError):
    """A seat the battle has no place for."""


def as_seat(name: str) -> SeatName:
    """``name`` checked as a seat: A, B, referee or spectator."""
    seats: tuple[SeatName, ...] = ("A", "B", "referee", "spectator")
    for seat in seats:
        if name == seat:
            return seat
    raise SeatError(f"a seat is one of {', '.join(SEATS)} (got {name!r})")


def side_of(seat: str) -> str | None:
    """The side a seat plays (None for the referee and the spectator)."""
    return seat if seat in SIDE_SEATS else None
