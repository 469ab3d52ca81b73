"""What the computer reads from its player view: its side, the pieces on the table, its mission and the cards.

Everything here is built from the view (``game/views/view.py``) and from the public deck of cards; nothing reads a
``GameState``. The opponent's mission is one of the deck's missions of the kind its role draws (offence, defence or
Chance Encounter), which the computer averages over, since which one it is stays secret until the battle ends.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ...battle.cards import Deck, MissionCard, bundled_deck, playing_deck
from ...battle.sides import other
from ...views.view_types import Data


@functools.lru_cache(maxsize=1)
def _decks() -> tuple[Deck, ...]:
    return (playing_deck(), bundled_deck())


def mission_card(ident: str | None) -> MissionCard | None:
    if not ident:
        return None
    for deck in _decks():
        for m in deck.mission_cards:
            if m.id == ident:
                return m
    return None


def mission_kind(mode: str, attacker: str | None, side: str) -> str:
    if mode == "chance-encounter" or attacker is None:
        return "chance-encounter"
    return "offence" if side == attacker else "defence"


def deck() -> Deck:
    return _decks()[0]


@dataclass(frozen=True)
class Seen:
    """The view, indexed: the computer's side, the units and blips of each side, the objectives and missions."""

    view: Data
    me: str

    @property
    def them(self) -> str:
        return other(self.me)

    @functools.cached_property
    def units(self) -> dict[str, Data]:
        return {u["id"]: u for u in self.view["units"]}

    @functools.cached_property
    def blips(self) -> dict[str, Data]:
        return {b["id"]: b for b in self.view["blips"]}

    @functools.cached_property
    def objectives(self) -> dict[str, Data]:
        return {o["id"]: o for o in self.view["objectives"] if not o.get("destroyed")}

    def mine(self) -> list[Data]:
        return [u for u in self.view["units"] if u["side"] == self.me]

    def enemies(self) -> list[Data]:
        return [u for u in self.view["units"] if u["side"] != self.me]

    def my_blips(self) -> list[Data]:
        return [b for b in self.view["blips"] if b["side"] == self.me]

    def enemy_blips(self) -> list[Data]:
        return [b for b in self.view["blips"] if b["side"] != self.me]

    @functools.cached_property
    def my_mission(self) -> MissionCard | None:
        return mission_card((self.view.get("missions") or {}).get(self.me))

    @functools.cached_property
    def their_missions(self) -> tuple[MissionCard, ...]:
        """The missions the opponent may hold: its own card once the battle is over, else every card of its kind."""
        known = mission_card((self.view.get("missions") or {}).get(self.them))
        if known is not None:
            return (known,)
        kind = mission_kind(self.view.get("mode", "table"), self.view.get("attacker"), self.them)
        return deck().missions(kind) or deck().missions()

    def piece(self, ident: str) -> Data | None:
        return self.units.get(ident) or self.blips.get(ident) or self.objectives.get(ident)


def fingerprint(view: Data) -> str:
    """A short text that changes with every decision point, from public and own data only: it seeds the computer's
    tie-breaking, so the same view always gets the same decision."""
    turn: Any = view.get("turn") or {}
    return "|".join(str(x) for x in (
        view.get("round"), view.get("phase"), len(view.get("log", [])), turn.get("active"), turn.get("actions_left"),
        turn.get("primary_used"), turn.get("extra_blips_used"),
        sum(round(u["x"] * 7 + u["y"] * 13, 2) for u in view["units"]),
        sum(round(b["x"] * 7 + b["y"] * 13, 2) for b in view["blips"]),
    ))
