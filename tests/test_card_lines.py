"""A player reads their own mission, troop and drone cards at any time, the opponent's only at the end (A59); the
text comes from the player view (``card_lines``), never from the state."""

from referee.game.battle.cards import KIND_TITLES, bundled_deck
from referee.game.play.setup import SetupChoices
from referee.game.views.view import player_view, referee_view
from referee.game.views.view_words import card_lines

from .battles import finished_battle

CHOICES = SetupChoices({"A": "council-of-zane", "B": "new-tokyo"})


def test_own_cards_during_the_battle_and_the_opponents_only_at_the_end():
    game, _ = finished_battle(CHOICES, seed=5, rounds=1)
    during = game.initial
    deck = bundled_deck()
    for side, other in (("A", "B"), ("B", "A")):
        view = player_view(during, side)
        mine = card_lines(view, side)
        mission = deck.mission(during.missions[side])
        assert mine[0] == f"Mission: {mission.title} ({KIND_TITLES[mission.kind]})"
        assert all(f"  {r.describe()}" in mine for r in mission.vp_rules)
        limit = (f"Round limit: the battle ends after round {mission.round_limit} [A43]" if mission.round_limit
                 else "Round limit: none [A43]")
        assert limit in mine
        troop = deck.troop(during.cards[side].troop)
        assert any(line.startswith(f"Troop card: {troop.title}, line {mission.troop_line}: ") for line in mine)
        drone = deck.drone(during.cards[side].drone)
        assert any(line.startswith(f"Drone card: {drone.title}") for line in mine)
        assert card_lines(view, other) is None                   # the opponent's cards are hidden
    over = game.state
    assert over.phase == "over"
    for side, other in (("A", "B"), ("B", "A")):
        theirs = card_lines(player_view(over, side), other)
        assert theirs == card_lines(referee_view(over), other)
        assert deck.mission(over.missions[other]).title in theirs[0]


def test_a_card_missing_from_the_deck_is_named_not_a_crash():
    view = {"missions": {"A": "no-such-mission"}, "cards": {"A": {"troop": "nope", "drone": "none-here"}}}
    lines = card_lines(view, "A")
    assert lines == ["Mission no-such-mission: not in this deck nor in the sample deck",
                     "Troop card nope: not in this deck nor in the sample deck",
                     "Drone card none-here: not in this deck nor in the sample deck"]
