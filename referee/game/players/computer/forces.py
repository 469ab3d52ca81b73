"""What the opponent's troopers tell of its mission card: the Troop line they were issued from (p.~9).

A mission card names a Troop line, and the Troop card's line of that letter sets the rating and the troopers of the
force (p.~9). Every trooper the opponent has revealed or lost shows its type, and a revealed one its rating, so only
the lines of some Troop card with that rating and at least those troopers can have issued them: of an attacker's
six offence cards only the two of its line stay possible. The Troop cards are the public deck's; which one the
opponent drew is not read, so this is a fact of the view alone.
"""

from __future__ import annotations

from collections import Counter

from ...battle.cards import MissionCard
from ....rules.catalogue import unit_types
from .seen import Seen, deck


def shown_lines(seen: Seen) -> frozenset[str]:
    """The Troop lines that could have issued every enemy trooper seen so far, revealed or destroyed."""
    troopers = set(unit_types().troopers)
    shown = [u for u in seen.enemies() if u["type"] in troopers]
    lost = [d for d in seen.view.get("destroyed") or () if d.get("side") == seen.them and d.get("type") in troopers]
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


def possible_missions(seen: Seen) -> tuple[MissionCard, ...]:
    """The missions the opponent may hold, narrowed to the Troop lines its troopers could come from; all of its
    kind when none fits (a force the deck's cards do not issue, as a campaign's may be)."""
    cards = seen.their_missions
    lines = shown_lines(seen)
    narrowed = tuple(m for m in cards if m.troop_line in lines)
    return narrowed or cards
