"""The faction draft behind the editor: lines built as the rulebook builds them (p.30, A46), refusals with the rule,
the same checker as ``faction validate``, campaign purchases by the campaign rules (p.31, A45)."""

import pytest

from referee import paths
from referee.authoring.draft import FactionDraft, unit_rows
from referee.authoring.faction_io import faction_problems
from referee.rules.factions import STAT_MAX, load_faction
from referee.rules.stats import RATINGS, STAT_NAMES

SAMPLES = ("new-tokyo", "peoples-utopian-collective", "council-of-zane")


def sample(name):
    return load_faction(paths.DATA_DIR / "factions" / f"{name}.toml")


def zane_draft():
    d = FactionDraft(id="test-zane", name="Test Zane")
    for rating in RATINGS:
        for stat in STAT_NAMES:
            assert d.raise_stat(rating, stat) == ""
    return d


@pytest.mark.parametrize("name", SAMPLES)
def test_a_sample_faction_round_trips_through_the_draft(name):
    faction = sample(name)
    draft = FactionDraft.from_faction(faction)
    assert all(draft.points_left(r) == 0 for r in RATINGS)
    faction_again, problems = draft.check()
    assert problems == [] and faction_again == faction


def test_a_new_draft_is_all_ones_with_six_points_per_rating():
    d = FactionDraft()
    assert all(d.value(r, s) == 1 for r in RATINGS for s in STAT_NAMES)
    assert [d.points_left(r) for r in RATINGS] == [6, 6, 6]


def test_points_are_carried_up_and_spent_once():
    d = FactionDraft()
    d.raise_stat("reserve", "armour")
    d.raise_stat("veteran", "armour")
    assert [d.value(r, "armour") for r in RATINGS] == [2, 3, 3]
    assert [d.points_left(r) for r in RATINGS] == [5, 5, 6]
    d.lower_stat("reserve", "armour")
    assert [d.value(r, "armour") for r in RATINGS] == [1, 2, 2]


def test_the_check_is_the_faction_validate_checker():
    d = zane_draft()
    assert d.check() == faction_problems(d.data(), "faction editor")
    assert d.check()[1] == []
    d.lower_stat("spec-ops", "robotics")
    assert d.check() == faction_problems(d.data(), "faction editor")
    assert d.check()[1] == ["created.spec-ops: expected exactly 6 points added to Veteran, this line adds 5 "
                            "(sum 23, expected 24) [p.30, A46]"]


def test_refusals_name_the_rule_and_change_nothing():
    d = FactionDraft()
    assert d.lower_stat("reserve", "sensors") == "Reserve Sen is 1: every stat starts at 1 [p.30]"
    for _ in range(4):
        assert d.raise_stat("reserve", "sensors") == ""
    assert d.raise_stat("reserve", "sensors") == "Reserve Sen would be 6; no stat may be above 5 [p.30]"
    assert d.lower_stat("veteran", "sensors") == ("Veteran Sen is already the Reserve value 5: a rating starts from "
                                                  "the one before [p.30]")
    assert d.raise_stat("veteran", "sensors") == "Veteran Sen would be 6; no stat may be above 5 [p.30]"
    assert d.raise_stat("reserve", "stealth") == "" and d.raise_stat("reserve", "stealth") == ""
    assert d.raise_stat("reserve", "armour") == "Reserve has no points left: each rating adds exactly 6 [p.30, A46]"
    assert d.value("reserve", "sensors") == STAT_MAX and d.points_left("reserve") == 0
    # raising a lower rating is refused when it would carry a higher one past 5
    e = FactionDraft()
    e.raise_stat("veteran", "nuclear")
    for _ in range(3):
        e.raise_stat("spec-ops", "nuclear")
    assert e.raise_stat("reserve", "nuclear") == ("Spec Ops Nuc would be 6; no stat may be above 5 (a point added "
                                                  "to Reserve is carried up to Spec Ops) [p.30]")


def test_the_preview_survives_bad_header_fields():
    d = zane_draft()
    d.id, d.name, d.primary, d.emblem = "Bad Id", "", "red", "moon"
    problems = d.check()[1]
    assert len(problems) == 4
    preview = d.preview()
    assert preview is not None and preview.name == "Unnamed" and preview.emblem == "chevron"
    assert unit_rows(preview)[0][0] == "Commander"


def test_purchases_use_the_campaign_rules_and_lock_the_created_lines():
    d = FactionDraft.from_faction(sample("new-tokyo"))
    pu = sample("peoples-utopian-collective")
    check = d.buy("veteran", "armour", pu, tech_points=5, battle=2)
    assert check.allowed and check.cost == 2 and check.remaining == 3
    assert d.upgrades[-1].cost == 2 and d.upgrades[-1].battle == 2
    assert d.current("veteran", "armour") == 3 and d.value("veteran", "armour") == 2
    refused = d.buy("veteran", "armour", pu, tech_points=3)
    assert not refused.allowed and "above Spec Ops Arm 3" in refused.reason
    assert len(d.upgrades) == 1
    assert d.raise_stat("reserve", "sensors").startswith("the created lines are fixed once campaign upgrades")
    faction, problems = d.check()
    assert problems == [] and faction.stats("veteran").armour == 3
    assert d.undo_upgrade().stat == "armour" and d.upgrades == [] and d.undo_upgrade() is None
    assert d.raise_stat("reserve", "sensors") == "Reserve has no points left: each rating adds exactly 6 [p.30, A46]"


def test_no_purchase_for_unfinished_lines():
    d = FactionDraft(id="half", name="Half")
    assert d.buy("reserve", "armour").startswith("finish the created lines first")
    assert d.upgrades == []
