"""The computer's count of a mission's Victory Points is the card's own score, without the working."""

from referee.game.battle.cards import bundled_deck
from referee.game.battle.scoring import BattleOutcome, ObjectiveOutcome, mission_vp, score_mission


def test_every_card_counts_the_same_victory_points_as_its_scored_working():
    outcomes = [
        BattleOutcome(),
        BattleOutcome(objectives={"alpha": ObjectiveOutcome("A", False, 12),
                                  "delta": ObjectiveOutcome("contested", True, 0)},
                      table_control="A", attacker="B",
                      destroyed_enemies={"A": [("tactical", False), ("commander", False), ("recce-drone", True)],
                                         "B": [("scout", False)]},
                      surviving_troopers={"A": ["tactical", "scout"], "B": ["commander"]}),
    ]
    for card in bundled_deck().missions():
        for outcome in outcomes:
            for side in "AB":
                assert mission_vp(card, side, outcome) == score_mission(card, side, outcome).vp
