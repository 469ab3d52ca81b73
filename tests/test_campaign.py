"""Campaigns (p.31, A44, A45): points, streaks, tech points, upgrades, and the campaign command."""

import pytest

from referee.cli.main import main
from referee.game.campaigns.campaign import BattleRecord, Campaign, Player, Purchase, status
from referee.rules.errors import InputError


def campaign(battles=(), purchases=(), length="short"):
    return Campaign(length=length, players={"A": Player(faction="new-tokyo"), "B": Player(faction="peoples-utopian-collective")},
                    battles=list(battles), purchases=list(purchases))


def won(side, level="normal", control=None):
    return BattleRecord(winner=side, level=level, control=control)


def test_campaign_points_and_streak():
    st = status(campaign([won("A", "marginal"), won("A", "decisive"), won("B", "normal")]))
    assert st.sides["A"].campaign_points == 4 and st.sides["A"].streak == 0
    assert st.sides["B"].campaign_points == 2 and st.sides["B"].streak == 1
    assert st.winner is None


def test_a_draw_changes_no_streak_a44():
    st = status(campaign([won("A"), BattleRecord(winner=None, level="draw")]))
    assert st.sides["A"].streak == 1 and st.sides["A"].campaign_points == 2


def test_short_campaign_won_at_six_points():
    st = status(campaign([won("A", "decisive"), won("B", "marginal"), won("A", "decisive")]))
    assert st.winner == "A" and "6 campaign points" in st.why_won


def test_streak_of_four_wins():
    st = status(campaign([won("B", "marginal")] * 4, length="long"))
    assert st.winner == "B" and st.sides["B"].campaign_points == 4


def test_tech_points_bank_and_halving():
    # Battle 1: A controls (2 points), B takes part (1). A buys Veteran Arm: PUC's 4 > New Tokyo's 2, so 2 not 4.
    st = status(campaign([won("A", control="A")], [Purchase(side="A", rating="veteran", stat="armour", after_battle=1)]))
    a = st.sides["A"]
    assert a.tech_points == 0 and a.faction.stats("veteran").armour == 3
    assert st.sides["B"].tech_points == 1


def test_purchase_beyond_the_points_is_refused():
    with pytest.raises(InputError, match="tech points"):
        status(campaign([won("A")], [Purchase(side="B", rating="spec-ops", stat="robotics", after_battle=1)]))


def test_campaign_command_round_trip(tmp_path, capsys):
    f = str(tmp_path / "war.toml")
    assert main(["campaign", "new", f, "--a", "new-tokyo", "--b", "council-of-zane"]) == 0
    assert main(["campaign", "new", f, "--a", "new-tokyo", "--b", "council-of-zane"]) == 2
    assert main(["campaign", "battle", f, "--winner", "A", "--level", "decisive", "--control", "A"]) == 0
    # Zane Reserve Stl 2 is below New Tokyo's 3: halved to 1, and B has its 1 point for taking part.
    assert main(["campaign", "upgrade", f, "--side", "B", "--rating", "reserve", "--stat", "stealth"]) == 0
    assert main(["campaign", "upgrade", f, "--side", "B", "--rating", "reserve", "--stat", "armour"]) == 2
    capsys.readouterr()
    assert main(["campaign", "show", f]) == 0
    out = capsys.readouterr().out
    assert "3 campaign points" in out and "Reserve   2/3/2/2/2/2" in out
