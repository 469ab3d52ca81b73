"""Each side's mission card as the battle reads it: its round limit, what it counts as Inspected (A41, A43).

A mission is its side's secret (A59): whatever is said from it is said to that side only (``inspection_notes`` are
private notes), until the end of the battle reveals both cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.errors import InputError
from .state import SIDES, GameState

if TYPE_CHECKING:
    from .cards import MissionCard


def mission_of(state: GameState, side: str) -> MissionCard | None:
    """``side``'s mission card (None: it has none, or it was never entered at a physical table)."""
    ident = state.missions.get(side)
    if not ident:
        return None
    # Lazy: the decks' file models (pydantic) load when a mission is first read, not with the engine.
    from .cards import bundled_deck, playing_deck

    # The player's own deck first; a battle set up with the sample deck (before the player added cards) finds its
    # mission there. A mission in neither is an error, never a mission without its round limit or threshold.
    decks = (playing_deck(), bundled_deck())
    for deck in decks:
        for mission in deck.mission_cards:
            if mission.id == ident:
                return mission
    raise InputError(str(decks[0].folder), f"side {side}'s mission {ident!r} is not in this deck nor in the sample deck")


def inspection_notes(state: GameState, oid: str, was: int, now: int) -> dict[str, str]:
    """The private word to each side whose own mission counts objective ``oid`` Inspected (or not) that its Target
    counters, going from ``was`` to ``now``, have just reached the number its card names (A41,
    ``MissionCard.inspection_note``). Only that side reads it: a card's number is as secret as the card (A59), and
    the counters themselves are on the table for all."""
    notes: dict[str, str] = {}
    for side in SIDES:
        m = mission_of(state, side)
        note = None if m is None else m.inspection_note(oid, was, now)
        if note is not None:
            notes[side] = note
    return notes
