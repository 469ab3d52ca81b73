"""The computer spends its campaign tech points as a player would (p.31, A45): the rules' prices and limits, the
purchase worth most per point first, what is left banked; in a campaign battle it played, the purchases are written
to the campaign file when the battle ends, each with its reason."""

import random

from referee.cli.main import main
from referee.game.campaigns.campaign import load_campaign
from referee.game.campaigns.campaign_battle import battle_choices, battle_save_path
from referee.game.battle.cards import playing_deck
from referee.game.players.computer import Computer
from referee.game.players.computer.tech import choose_purchases
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.play.setup import new_battle
from referee.rules.factions import get_faction
from referee.rules.scenario import parse_scenario
from referee.service.session import BattleSession
from tests.battles import OPEN_FIELD, ThroughSession, finish, play_rounds


def test_new_tokyo_raises_the_armour_the_council_outclasses_first_and_banks_what_buys_nothing():
    # New Tokyo Arm is 1/2/3 by rating, Council of Zane's 2/3/4: both halved (p.31). Reserve Arm 1 -> 2 costs 1 and
    # doubles what Arm gives; then Veteran Arm 2 -> 3 for 2. The last point buys nothing: Reserve Arm is now level
    # with the Council's (full price, 2), Reserve Nuc 2 would pass Veteran Nuc 1 (p.31), no other Reserve stat of
    # New Tokyo is below the Council's, and a Veteran or Spec Ops purchase costs at least 2.
    bought = choose_purchases(get_faction("new-tokyo"), get_faction("council-of-zane"), 4, playing_deck())
    assert [(b.rating, b.stat, b.cost, b.raised_to) for b in bought] == [("reserve", "armour", 1, 2),
                                                                        ("veteran", "armour", 2, 3)]
    assert "half price as Council of Zane's is higher" in bought[0].reason and "[p.31, A45]" in bought[0].reason


def test_nothing_is_bought_that_the_points_do_not_cover():
    assert choose_purchases(get_faction("council-of-zane"), get_faction("council-of-zane"), 1, playing_deck()) == []


def test_a_campaign_battle_against_the_computer_ends_with_its_upgrades_recorded(tmp_path):
    campaign = tmp_path / "war.toml"
    assert main(["campaign", "new", str(campaign), "--a", "new-tokyo", "--b", "council-of-zane",
                 "--name", "Border War"]) == 0
    c, st = load_campaign(campaign)
    dice = SeededDice(11)
    state, _ = new_battle(parse_scenario(OPEN_FIELD, "open field"), battle_choices(campaign, c, st), dice)
    session = BattleSession(Game(state), dice, hotseat=True, campaign=campaign,
                            save_path=battle_save_path(campaign, 1), computer=Computer("B", "normal", 3))

    through = ThroughSession(session)
    play_rounds(through, None, random.Random(12), 1)
    finish(through, None, "B")                        # B withdraws: A Controls the Table

    c, st = load_campaign(campaign)
    assert len(c.battles) == 1 and c.battles[0].control == "A"
    # Side B earned 1 tech point (taking part; no Table). Council's Reserve Stl 2 is below New Tokyo's 3 and its
    # Reserve Rob 2 below 3: both halved to 1 point; Stealth is used by every trooper, Robotics by drones only.
    assert [(p.side, p.rating, p.stat, p.after_battle) for p in c.purchases] == [("B", "reserve", "stealth", 1)]
    assert st.sides["B"].tech_points == 0
    assert st.sides["B"].the_faction().stats("reserve").stealth == 3
    said = " ".join(session.campaign_recorded)
    assert "the computer (side B) buys Reserve Stl 2 -> 3 for 1 tech point" in said
