"""The battlefield a viewer measures on: the whole truth for the engine, a player's view for that player's window.

Both are made by ``rules.battlefield.build_battlefield``. A player's battlefield is read from the player view only,
so it cannot hold anything the player may not see; that it equals the engine's on every public field is checked by
the property tests.
"""

from __future__ import annotations

from ...rules.battlefield import Battlefield
from ..battle.state import GameState
from .view import player_view
from .view_table import battlefield_from_view as battlefield_from_view


def battlefield_of(state: GameState, viewer: str | None = None) -> Battlefield:
    """``viewer`` None: the engine's battlefield; "A" or "B": the one that side's window draws and previews on."""
    if viewer is None:
        return state.battlefield()
    return battlefield_from_view(player_view(state, viewer, log=False))
