"""What the computer reads from its player view: its side, the pieces on the table, its mission and the cards.

Everything here is built from the view (``game/views/view.py``) and from the public deck of cards; nothing reads a
``GameState``. The opponent's mission is one of the deck's missions of the kind its role draws (offence, defence or
Chance Encounter), which the computer averages over, since which one it is stays secret until the battle ends.

Its troopers narrow it down. A mission card names a Troop line, and the Troop card's line of that letter sets the
rating and the troopers of the force (p.~9). Every trooper the opponent has revealed or lost shows its type, and a
revealed one its rating, so only the lines of some Troop card with that rating and at least those troopers can have
issued them: of an attacker's six offence cards, only the two of its line stay possible. The Troop cards are the
public deck's; which one the opponent drew is not read, so this is a fact of the view alone.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ....rules.catalogue import unit_types
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
        """The missions the opponent may hold: its own card once the battle is over, else the cards of its kind whose
        Troop line could have issued the troopers it has shown (``shown_lines``); all of its kind when none could (a
        force the deck's cards do not issue, as a campaign's may be). Averaged over every card of its kind, normal
        lost 9 attacks of 83 against random legal play, all at round 6 against cards that pay for the table as it
        stands; narrowed, it lost 5 (docs/computer-measurements.md, "The opponent's cards narrowed")."""
        known = mission_card((self.view.get("missions") or {}).get(self.them))
        if known is not None:
            return (known,)
        kind = mission_kind(self.view.get("mode", "table"), self.view.get("attacker"), self.them)
        cards = deck().missions(kind) or deck().missions()
        lines = self.shown_lines
        return tuple(m for m in cards if m.troop_line in lines) or cards

    @functools.cached_property
    def shown_lines(self) -> frozenset[str]:
        """The Troop lines that could have issued every enemy trooper seen so far, revealed or destroyed (p.~9)."""
        troopers = set(unit_types().troopers)
        shown = [u for u in self.enemies() if u["type"] in troopers]
        lost = [d for d in self.view.get("destroyed") or () if d.get("side") == self.them and d.get("type") in troopers]
        if not shown and not lost:
            return frozenset("ABC")
        ratings = {u.get("rating") for u in shown}
        counts = Counter(u["type"] for u in shown) + Counter(d["type"] for d in lost)
        lines: set[str] = set()
        for card in deck().troop_cards:
            for letter in "ABC":
                line = getattr(card.lines, letter)
                totals = line.totals()
                if ratings <= {line.rating} and all(totals[t] >= n for t, n in counts.items()):
                    lines.add(letter)
        return frozenset(lines)

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
