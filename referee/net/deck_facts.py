"""The public deck as a phone that keeps its side's secrets needs it (``GET /hand/deck?side=B``).

A side kept on a phone draws its cards there (``static/kept.js``), as a joined computer draws them with
``net/keeper.py``: the host sends its parts of the draw, the phone makes the numbers with its own shares and picks the
cards. The phone runs no engine, so what the engine would work out from the cards it may draw comes from here, worked
out by the engine for every card of the deck: the ids drawn from (by mission kind), each card's words, each mission's
troop line, round limit and the objectives it counts Inspected (with its word, A41), and the force every troop card,
line and drone card issue (``kept_cards.hand_of``), named as set-up names it for the side, and what a Chance
Encounter's drones bought are checked and issued with (the prices, each line's points, rating and troopers, a
player's figure pool and the Holding Area's room, A42). All of it is the playing
deck's, which both sides play with and anybody may read: the host learns nothing from being asked for it, and the
phone never says which cards it drew. At the end of the battle the host draws again from the opened cards and issues
the force again with the engine, so a phone that got anything here wrong is caught there.
"""

from __future__ import annotations

from typing import Any, Final

from ..game.battle.cards import FIGURE_POOL, HOLDING_AREA_UNITS, MISSION_KINDS, Deck, objective_ids, playing_deck
from ..game.battle.kept_cards import Offer, hand_of
from ..rules.catalogue import type_title
from .desk import card_words

INSPECTED: Final = ("objective-inspected", "objective-uninspected")
NOW: Final = 987_654_321            # stands for the counters an objective has now in a mission's word (A41)


def _inspections(deck: Deck, mission_id: str) -> dict[str, str]:
    """The objectives a mission counts Inspected or not (A41), each with the word said to its side when its Target
    counters reach the number, ``{now}`` standing for the counters it then has."""
    card = deck.mission(mission_id)
    ids = sorted({oid for rule in card.vp_rules if rule.condition in INSPECTED
                  for oid in objective_ids(rule.objective)})
    words = {}
    for oid in ids:
        note = card.inspection_note(oid, card.inspected_counters - 1, NOW)
        if note is not None:
            words[oid] = note.replace(str(NOW), "{now}")
    return words


def deck_facts(side: str) -> dict[str, Any]:
    """What a phone keeping ``side``'s secrets needs of the playing deck (see the module note)."""
    deck = playing_deck()
    troops = [c.id for c in deck.troop_cards]
    drones = [c.id for c in deck.drone_cards]
    every = [c.id for c in deck.mission_cards] + troops + drones
    # A mission of each troop line a mission may name: the engine's hand is made through one.
    naming = {c.troop_line: c.id for c in reversed(deck.mission_cards)}
    forces: dict[str, dict[str, dict[str, Any]]] = {}
    lines: dict[str, dict[str, Any]] = {}
    for troop in troops:
        for line, mission in sorted(naming.items()):
            # The force of every troop card at every line with every drone card (the Drone card's line: no purchase).
            for drone in drones:
                hand = hand_of(deck, side, Offer((mission,), (troop,), drone), mission, troop, None,
                               chance_encounter=False)
                forces.setdefault(troop, {}).setdefault(line, {})[drone] = {
                    "drone_line": hand.drone_line, "issued": [dict(u) for u in hand.issued]}
            # A Chance Encounter's purchase (p.~15, A42) is checked and issued with the line's points, rating and
            # troopers (a purchase of nothing issues them alone), as ``purchase_problems`` and ``issue_force`` do.
            tl = deck.troop(troop).line(line)
            troopers = hand_of(deck, side, Offer((mission,), (troop,), drones[0]), mission, troop, {},
                               chance_encounter=True).issued
            lines.setdefault(troop, {})[line] = {
                "rating": tl.rating, "drone_points": tl.drone_points, "drone_line": tl.drone_line,
                "totals": dict(tl.totals()), "troopers": [dict(u) for u in troopers]}
    return {
        "side": side, "troops": troops, "drones": drones,
        "missions": {kind: [c.id for c in deck.missions(kind)] for kind in MISSION_KINDS},
        "words": {ident: card_words(ident) for ident in every},
        "mission": {c.id: {"title": c.title, "troop_line": c.troop_line, "round_limit": c.round_limit,
                           "inspected_counters": c.inspected_counters, "inspect": _inspections(deck, c.id)}
                    for c in deck.mission_cards},
        "forces": forces, "lines": lines,
        # The prices as pairs: the page is sent its data with sorted keys, and the words list them in the deck's order.
        "prices": [[t, cost] for t, cost in deck.prices.costs.items()],
        "pool": dict(FIGURE_POOL), "holding_units": HOLDING_AREA_UNITS,
        "titles": {t: type_title(t) for t in FIGURE_POOL},
    }
