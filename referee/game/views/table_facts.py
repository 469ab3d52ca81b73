"""What a seat's battle screen shows of its table, read from its view: the table as the rules read it, the side
panel's report on the piece selected, the names the panel gives the pieces, the wrecks drawn where objectives
stood and the side of each unit waiting for its owner's spot or facing.

All of it follows from the seat's view alone (``table_facts``), so a seat holding only its screen (a joined window)
gets the same as the session's own seat (``play/seat_facts.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...rules.battlefield import Battlefield, Piece
from ...rules.catalogue import type_title
from ...rules.errors import InputError
from ...rules.factions import get_faction
from ...rules.questions import SelectionReport, selection_report
from .view_table import battlefield_from_view
from .view_types import PlayerView
from .view_words import view_unit


@dataclass(frozen=True)
class TableFacts:
    """A seat's table and what its screen draws from it; read, never changed."""

    table: Battlefield                     # the view's table as the rules read it (blips as the seat sees them)
    selected: str | None                   # the piece selected, if it is on that table
    panel: SelectionReport | None          # the side panel's report on the selected piece
    panel_error: str                       # why the report could not be made, or ""
    titles: Mapping[str, str]              # each trooper's and drone's type as the panel names it
    faction_names: Mapping[str, str]       # each unit's faction, by its name
    wrecks: tuple[Piece, ...]              # destroyed objectives: drawn, no longer pieces the rules know (p.~12)
    sides: Mapping[str, str]               # the side of each unit waiting to be placed (A66) or faced (A13)


def wrecks(view: PlayerView) -> tuple[Piece, ...]:
    """The destroyed objectives of a view, to draw where they stood."""
    return tuple(Piece(id=o["id"], kind="objective", x=o["x"], y=o["y"], radius=o["base"] / 2)
                 for o in view["objectives"] if o.get("destroyed"))


def _faction_name(faction: str) -> str:
    try:
        return get_faction(faction).name
    except (InputError, OSError):      # a faction given as a file path that moved: the id will do
        return faction


def piece_words(table: Battlefield) -> tuple[dict[str, str], dict[str, str]]:
    """The names the side panel gives the pieces: each unit type's title, each faction's name."""
    titles = {p.id: type_title(p.unit_type) for p in table.pieces.values()
              if (p.is_trooper or p.is_drone) and p.unit_type}
    factions = {f: _faction_name(f) for f in {p.faction for p in table.pieces.values() if p.faction}}
    return titles, factions


def _panel(table: Battlefield, selected: str | None) -> tuple[SelectionReport | None, str]:
    if selected is None:
        return None, ""
    try:
        return selection_report(table, table.pieces[selected]), ""
    except Exception as e:  # noqa: BLE001 -- shown in the window, which must not close on a rules error
        return None, f"{type(e).__name__}: {e}"


def waiting_sides(view: PlayerView) -> dict[str, str]:
    """The side of each unit the view lists as waiting for its owner's spot or facing."""
    sides = {}
    for uid in (*view["to_place"], *view["to_face"]):
        unit = view_unit(view, uid)
        if unit is not None:
            sides[uid] = unit["side"]
    return sides


def table_facts(view: PlayerView, selected: str | None, table: Battlefield | None = None) -> TableFacts:
    """What the screen of the seat seeing ``view`` draws of its table, with ``selected`` picked (``table``: the view's
    table, if already read)."""
    if table is None:
        table = battlefield_from_view(view)
    chosen = selected if selected in table.pieces else None
    panel, panel_error = _panel(table, chosen)
    titles, faction_names = piece_words(table)
    return TableFacts(table, chosen, panel, panel_error, titles, faction_names, wrecks(view), waiting_sides(view))
