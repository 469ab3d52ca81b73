"""The public deck as a phone that keeps its side's secrets needs it (``GET /hand/deck?side=B``).

A side kept on a phone draws its cards there (``static/kept.js``), as a joined computer draws them with
``net/keeper.py``: the host sends its parts of the draw, the phone makes the numbers with its own shares and picks the
cards. The phone runs no engine, so what the engine would work out from the cards it may draw comes from here, worked
out by the engine for every card of the deck: the ids drawn from (by mission kind), each card's words, each mission's
troop line, round limit and the objectives it counts Inspected (with its word, A41), and the force every troop card,
line and drone card issue (``kept_cards.hand_of``), named as set-up names it for the side. All of it is the playing
deck's, which both sides play with and anybody may read: the host learns nothing from being asked for it, and the
phone never says which cards it drew. At the end of the battle the host draws again from the opened cards and issues
the force again with the engine, so a phone that got anything here wrong is caught there.
"""

from __future__ import annotations

from typing import Any, Final

from ..game.battle.cards import MISSION_KINDS, Deck, objective_ids, playing_deck
from ..game.battle.kept_cards import Offer, hand_of
from .desk import card_words

INSPECTED: Final = ("objective-inspected", "objective-uninspected")
NOW: Final = 987_654_321            # stands for the counters an objective has now in a mission's word (A41)


def _inspections(deck: Deck, mission_id: str) -> dict[str, str]:
    """The objectives a mission counts Inspected or not (A41), each with the word said to its side when its Target
    counters reach the number, ``{now}`` standing for the counters it then has."""
    card = deck.mission(mission_id)
    ids = sorted({oid for rule in card.vp_rules if rule.condition in INSPECTED for oid in objective_ids(rule.objective)})
    words = {}
    for oid in ids:
        note = card.inspection_note(oid, card.inspected_counters - 1, NOW)
        if note is not None:
            words[oid] = note.replace(str(NOW), "{now}")
    return words


def deck_facts(side: str) -> dict[str, Any]:
    """What a phone keeping ``side``'s secrets needs of the playing deck (see the module note)."""
    deck = playing_deck()
    missions = {kind: [c.id for c in deck.missions(kind)] for kind in MISSION_KINDS}
    troops = [c.id for c in deck.troop_cards]
    drones = [c.id for c in deck.drone_cards]
    every = [c.id for c in deck.mission_cards] + troops + drones
    facts: dict[str, Any] = {
        "side": side, "missions": missions, "troops": troops, "drones": drones,
        "words": {ident: card_words(ident) for ident in every},
        "mission": {c.id: {"title": c.title, "troop_line": c.troop_line, "round_limit": c.round_limit,
                           "inspected_counters": c.inspected_counters, "inspect": _inspections(deck, c.id)} for c in deck.mission_cards},
    }
    # The force of every troop card at every line a mission may name, with every drone card: the engine's own issue.
    lines = sorted({c.troop_line for c in deck.mission_cards})
    forces: dict[str, dict[str, dict[str, Any]]] = {}
    mission_of = {line: next(c.id for c in deck.mission_cards if c.troop_line == line) for line in lines}
    for troop in troops:
        for line in lines:
            for drone in drones:
                try:
                    hand = hand_of(deck, side, Offer((mission_of[line],), (troop,), drone), mission_of[line], troop,
                                   None)
                except ValueError:
                    continue                    # a card with no such line: no mission of this deck draws it
                forces.setdefault(troop, {}).setdefault(line, {})[drone] = {
                    "drone_line": hand.drone_line, "issued": [dict(u) for u in hand.issued]}
    facts["forces"] = forces
    return facts
