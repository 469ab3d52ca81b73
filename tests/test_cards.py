"""Cards as data (ruling A42): the sample deck, the schema's refusals and the deck loader."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from referee.game.battle import cards
from referee.game.battle.cards import (
    FIGURE_POOL,
    MISSION_KINDS,
    MissionCard,
    bundled_deck,
    bundled_folder,
    deck_listing,
    issue_force,
    load_deck,
    pool_problems,
    purchase_problems,
    read_cards,
)
from referee.rules.catalogue import unit_types
from referee.rules.errors import InputError
from referee.rules.stats import RATINGS

# ---- the sample deck -----------------------------------------------------------------------------------------


def test_sample_deck_loads_and_is_playable():
    deck = bundled_deck()
    for kind in MISSION_KINDS:
        assert len(deck.missions(kind)) >= 6, kind
    assert len(deck.troop_cards) >= 6
    assert len(deck.drone_cards) >= 3
    assert set(deck.prices.costs) == set(unit_types().drones)


@pytest.mark.parametrize("path", cards.card_files(bundled_folder()), ids=lambda p: p.name)
def test_every_sample_file_validates_on_its_own(path):
    found, prices, problems = read_cards(path)
    assert problems == []
    assert found or prices


def test_every_sample_card_is_labelled_unofficial():
    deck = bundled_deck()
    every = (*deck.mission_cards, *deck.troop_cards, *deck.drone_cards)
    assert all(c.sample for c in every)
    assert deck.prices.sample and deck.sample
    for path in cards.card_files(bundled_folder()):
        assert "UNOFFICIAL SAMPLE" in path.read_text(encoding="utf-8").splitlines()[0]
    assert deck_listing(deck).startswith("UNOFFICIAL SAMPLE DECK")


def test_sample_cards_round_trip_through_the_schema():
    deck = bundled_deck()
    for card in (*deck.mission_cards, *deck.troop_cards, *deck.drone_cards):
        assert type(card).model_validate(card.model_dump()) == card


def test_sample_missions_have_flavour_and_rules():
    for m in bundled_deck().mission_cards:
        assert len(m.flavour.split()) >= 10, m.id
        assert m.vp_rules and any(r.vp > 0 for r in m.vp_rules)
        lines = {x.troop_line for x in bundled_deck().missions(m.kind)}
        assert lines == {"A", "B", "C"}


def _strength(line) -> tuple[int, int]:
    return RATINGS.index(line.rating), line.trooper_count()


def test_sample_troop_lines_run_from_strongest_a_to_weakest_c():
    for t in bundled_deck().troop_cards:
        a, b, c = (_strength(t.line(x)) for x in "ABC")
        assert a >= b >= c, t.id
        assert a > c, t.id
        for letter in "ABC":
            assert 4 <= t.line(letter).trooper_count() <= 8     # squads of 4 to 8 men [p.32]


def test_sample_drone_points_buy_every_drone_card_line():
    """The drawn Drone card line is the default Chance Encounter purchase (A42): it must be affordable."""
    deck = bundled_deck()
    for t in deck.troop_cards:
        for letter in "ABC":
            line = t.line(letter)
            for d in deck.drone_cards:
                purchase = dict(d.line(line.drone_line).totals())
                assert purchase_problems(deck.prices, line, purchase) == [], (t.id, letter, d.id)


def test_sample_vp_favour_the_weaker_troop_line():
    """Designer's notes: VP are skewed towards the inferior force. For the same rule within a kind of mission, a
    weaker line never earns less per achievement and never loses more per trooper lost."""
    deck = bundled_deck()
    for kind in MISSION_KINDS:
        by_rule: dict[tuple, dict[str, list[int]]] = {}
        for m in deck.missions(kind):
            for r in m.vp_rules:
                key = (r.condition, r.objective, r.unit_type)
                by_rule.setdefault(key, {}).setdefault(m.troop_line, []).append(r.vp)
        for key, per_line in by_rule.items():
            present = [x for x in "ABC" if x in per_line]
            for stronger, weaker in zip(present, present[1:]):
                assert max(per_line[stronger]) <= min(per_line[weaker]), (kind, key, per_line)


def test_figure_pool_names_every_unit_type():
    t = unit_types()
    assert set(FIGURE_POOL) == set(t.troopers) | set(t.drones)
    assert sum(FIGURE_POOL[x] for x in t.troopers) == 10
    assert sum(FIGURE_POOL[x] for x in t.drones) == 16


def test_deck_lookups_and_listing():
    deck = bundled_deck()
    assert deck.mission("deep-strike").kind == "offence"
    assert deck.troop("line-section").line("C").rating == "reserve"
    assert deck.drone("strike-swarm").line("X").rating == "spec-ops"
    with pytest.raises(InputError, match="no mission card 'nope'"):
        deck.mission("nope")
    with pytest.raises(ValueError):
        deck.missions("offense")
    text = deck_listing(deck)
    for card in (*deck.mission_cards, *deck.troop_cards, *deck.drone_cards):
        assert card.id in text and card.title in text
    assert "+8 VP per blue objective (delta, epsilon) Destroyed" in text
    assert "+15 VP if objective beta (β) is not destroyed" in text
    assert "3 Kamikaze drones, 2 Basic drones (Spec Ops)" in text


# ---- forces ---------------------------------------------------------------------------------------------------


def test_issue_force_uses_the_line_rating_and_the_drone_card_rating_a48():
    deck = bundled_deck()
    force = issue_force(deck.troop("line-section"), "A", deck.drone("strike-swarm"))
    assert force.rating == "veteran" and force.drone_line == "X"
    assert Counter(u.type for u in force.troopers) == {"commander": 1, "tactical": 4, "assault": 1, "engineer": 1}
    assert {u.rating for u in force.troopers} == {"veteran"}
    assert {u.rating for u in force.drones} == {"spec-ops"}    # the card fixes the rating of line X
    force = issue_force(deck.troop("line-section"), "B", deck.drone("strike-swarm"))
    assert {u.rating for u in force.drones} == {"veteran"}     # otherwise the force's rating (A48)
    assert len(force.units) == 5 + 4


def test_chance_encounter_purchase_within_budget_and_pool():
    deck = bundled_deck()
    troop = deck.troop("line-section")                          # line C: 7 drone points
    force = issue_force(troop, "C", deck.drone("standard-allocation"), deck.prices,
                        {"basic-drone": 2, "kamikaze-drone": 1})
    assert Counter(u.type for u in force.drones) == {"basic-drone": 2, "kamikaze-drone": 1}
    with pytest.raises(InputError) as e:
        issue_force(troop, "C", deck.drone("standard-allocation"), deck.prices, {"recce-drone": 2})
    assert "cost 8 points, the troop line allows 7" in str(e.value)
    problems = purchase_problems(deck.prices, deck.troop("drone-wing").line("A"), {"recce-drone": 4})
    assert any("figure pool has 3" in p for p in problems)
    assert purchase_problems(deck.prices, troop.line("C"), {"laser-drone": 1})


def test_holding_area_limit():
    assert pool_problems(Counter(FIGURE_POOL)) == []                    # the whole pool: 26 units fit 32 places
    problems = pool_problems({"tactical": 4, "mystery": 29})
    assert any("do not fit the Holding Area (16 squares x 2 units = 32)" in p for p in problems)


# ---- refusals -------------------------------------------------------------------------------------------------

@pytest.fixture
def deck_dir(tmp_path) -> Path:
    """A copy of the sample deck that a test may spoil."""
    folder = tmp_path / "cards"
    shutil.copytree(bundled_folder(), folder)
    return folder


def _problems(folder: Path) -> str:
    with pytest.raises(InputError) as e:
        load_deck(folder)
    return e.value.message()


def _mission(**changes) -> str:
    fields = {
        "id": '"test-mission"', "title": '"Test Mission"', "flavour": '"Words."', "kind": '"offence"',
        "troop_line": '"A"', "vp_rules": '[{ condition = "control-table", vp = 5 }]',
    }
    fields.update(changes)
    body = "\n".join(f"{k} = {v}" for k, v in fields.items() if v is not None)
    return f"[[mission]]\n{body}\n"


TROOP = """[[troop]]
id = "test-troop"
title = "Test Troop"
[troop.lines.A]
rating = "veteran"
units = [{{ type = "commander", count = 1 }}, {{ type = "{a_type}", count = {a_count} }}]
drone_line = "X"
drone_points = {points}
[troop.lines.B]
rating = "veteran"
units = [{{ type = "tactical", count = 2 }}]
drone_line = "{b_drone}"
drone_points = 4
[troop.lines.C]
rating = "{c_rating}"
units = [{{ type = "tactical", count = 2 }}]
drone_line = "Z"
drone_points = 4
"""


def _troop(a_type="tactical", a_count=3, points=5, b_drone="Y", c_rating="reserve") -> str:
    return TROOP.format(a_type=a_type, a_count=a_count, points=points, b_drone=b_drone, c_rating=c_rating)


@pytest.mark.parametrize(
    "text, expected",
    [
        (_mission(colour='"red"'), "bad.toml: mission[0] 'test-mission': colour: unknown key"),
        (_mission(vp_rules='[{ condition = "win-the-war", vp = 5 }]'),
         "bad.toml: mission[0] 'test-mission': vp_rules[0].condition: unknown condition; expected one of "
         "objective-secured"),
        (_mission(troop_line='"D"'), "bad.toml: mission[0] 'test-mission': troop_line: Input should be 'A', 'B' or"),
        (_mission(kind='"offense"'), "bad.toml: mission[0] 'test-mission': kind: Input should be 'offence'"),
        (_mission(troop_line=None), "bad.toml: mission[0] 'test-mission': troop_line: required key is missing"),
        (_mission(flavour=None), "bad.toml: mission[0] 'test-mission': flavour: required key is missing"),
        (_mission(vp_rules='[{ condition = "control-table", vp = "five" }]'),
         "bad.toml: mission[0] 'test-mission': vp_rules[0].vp: Input should be a valid integer"),
        (_mission(vp_rules='[{ condition = "control-table", vp = 0 }]'),
         "vp_rules[0].vp: expected a whole number of victory points other than 0"),
        (_mission(vp_rules='[]'), "bad.toml: mission[0] 'test-mission': vp_rules: List should have at least 1 item"),
        (_mission(vp_rules='[{ condition = "control-table" }]'), "vp_rules[0].vp: required key is missing"),
        (_mission(vp_rules='[{ condition = "control-table", vp = 5, unit_type = "scout" }]'),
         "vp_rules[0]: 'unit_type' does not apply to condition 'control-table'"),
        (_mission(vp_rules='[{ condition = "control-table", vp = 5, max_count = 2 }]'),
         "vp_rules[0]: 'max_count' does not apply to condition 'control-table', which scores once"),
        (_mission(vp_rules='[{ condition = "enemy-trooper-destroyed", vp = 5, unit_type = "recce-drone" }]'),
         "vp_rules[0]: unit_type 'recce-drone': condition 'enemy-trooper-destroyed' counts troopers"),
        (_mission(vp_rules='[{ condition = "objective-secured", vp = 5, objective = "zeta" }]'),
         "vp_rules[0]: objective 'zeta': expected one of alpha, beta, gamma, delta, epsilon"),
        (_mission(vp_rules='[{ condition = "enemy-drone-destroyed", vp = 5, objective = "alpha" }]'),
         "vp_rules[0]: 'objective' does not apply to condition 'enemy-drone-destroyed'"),
        (_mission(kind='"chance-encounter"', vp_rules='[{ condition = "objective-destroyed", vp = 5 }]'),
         "bad.toml: mission[0] 'test-mission': a Chance Encounter uses no objectives"),
        (_mission(id='"Test Mission"'), "bad.toml: mission[0] 'Test Mission': id: expected lower-case words"),
        (_mission(round_limit="0"), "round_limit: Input should be greater than or equal to 1"),
        (_mission(inspected_counters='"ten"'), "inspected_counters: Input should be a valid integer"),
        (_troop(b_drone="W"), "bad.toml: troop[0] 'test-troop': lines.B.drone_line: Input should be 'X', 'Y' or 'Z'"),
        (_troop(c_rating="elite"), "bad.toml: troop[0] 'test-troop': lines.C.rating: Input should be 'reserve'"),
        (_troop(a_count=5), "bad.toml: troop[0] 'test-troop': lines.A: 5 x Tactical, but a player's figure pool "
                            "has 4 [p.~6]"),
        (_troop(a_type="commander", a_count=1),
         "bad.toml: troop[0] 'test-troop': lines.A: 2 x Commander, but a player's figure pool has 1"),
        (_troop(a_type="basic-drone"), "lines.A.units[1].type: expected a trooper type: commander, tactical"),
        (_troop(a_count=0), "lines.A.units[1].count: Input should be greater than or equal to 1"),
        (_troop(points=-1), "bad.toml: troop[0] 'test-troop': lines.A.drone_points: Input should be greater"),
        (_troop(points=2.5), "lines.A.drone_points: Input should be a valid integer"),
        (_troop(a_count='"3"'), "lines.A.units[1].count: Input should be a valid integer"),
        (_troop().replace("[troop.lines.C]", "[troop.lines.D]"),
         "bad.toml: troop[0] 'test-troop': lines.C: required key is missing"),
        ('[[drone]]\nid = "test-drone"\ntitle = "T"\n[drone.lines]\nX = [{ type = "kamikaze-drone", count = 5 }]\n'
         'Y = []\nZ = []\n',
         "bad.toml: drone[0] 'test-drone': lines.X: 5 x Kamikaze drone, but a player's figure pool has 4"),
        ('[[drone]]\nid = "test-drone"\ntitle = "T"\n[drone.lines]\nX = [{ type = "scout", count = 1 }]\n'
         'Y = []\nZ = []\n',
         "bad.toml: drone[0] 'test-drone': lines.X.units[0].type: expected a drone type"),
        ('[[drone]]\nid = "test-drone"\ntitle = "T"\n[drone.lines]\nX = { rating = "elite", units = [] }\n'
         'Y = []\nZ = []\n',
         "bad.toml: drone[0] 'test-drone': lines.X.rating: Input should be 'reserve'"),
        ('[weapons]\nx = 1\n', "bad.toml: weapons: unknown key (not part of the format); expected mission, troop"),
        ('[[mission]]\nid = "broken"\n[[mission', "bad.toml: not valid TOML"),
    ],
)
def test_invalid_card_names_file_item_and_expectation(deck_dir, text, expected):
    (deck_dir / "bad.toml").write_text(text, encoding="utf-8")
    message = _problems(deck_dir)
    assert str(deck_dir) in message
    assert expected in message


def test_duplicate_card_id_names_both_places(deck_dir):
    (deck_dir / "zz-extra.toml").write_text(_mission(id='"deep-strike"'), encoding="utf-8")
    message = _problems(deck_dir)
    assert ("zz-extra.toml: mission[0] 'deep-strike': duplicate card id 'deep-strike', already used by "
            "offence.toml: mission[0] 'deep-strike'") in message


def test_duplicate_id_across_card_types(deck_dir):
    (deck_dir / "extra.toml").write_text(_troop().replace('"test-troop"', '"deep-strike"'), encoding="utf-8")
    assert "duplicate card id 'deep-strike'" in _problems(deck_dir)


def test_prices_must_cover_every_drone_type(deck_dir):
    (deck_dir / "prices.toml").write_text(
        '[drone_prices]\ncosts = { basic-drone = 2, laser-drone = 3, recce-drone = 0 }\n', encoding="utf-8")
    message = _problems(deck_dir)
    assert "prices.toml: drone_prices: costs.recce-drone: Input should be greater than or equal to 1" in message
    (deck_dir / "prices.toml").write_text(
        '[drone_prices]\ncosts = { basic-drone = 2, laser-drone = 3 }\n', encoding="utf-8")
    message = _problems(deck_dir)
    assert "'laser-drone' is not a drone type" in message
    assert "no price for kamikaze-drone, haywire-drone, recce-drone" in message


def test_two_price_lists_are_refused(deck_dir):
    shutil.copy(deck_dir / "prices.toml", deck_dir / "more-prices.toml")
    expected = "the deck has 2 drone price lists (more-prices.toml, prices.toml); expected exactly one"
    assert expected in _problems(deck_dir)


def test_every_problem_is_reported_at_once(deck_dir):
    (deck_dir / "bad.toml").write_text(
        _mission(colour='"red"') + _mission(id='"other"', troop_line='"D"') + _troop(a_count=5), encoding="utf-8")
    (deck_dir / "worse.json").write_text(json.dumps({"drone": [{"id": "x", "title": "X"}]}), encoding="utf-8")
    message = _problems(deck_dir)
    assert "4 problems" in message
    assert "bad.toml: mission[0] 'test-mission': colour: unknown key" in message
    assert "bad.toml: mission[1] 'other': troop_line" in message
    assert "bad.toml: troop[0] 'test-troop': lines.A: 5 x Tactical" in message
    assert "worse.json: drone[0] 'x': lines: required key is missing" in message


def test_an_incomplete_deck_says_what_is_missing(tmp_path):
    (tmp_path / "one.toml").write_text(_mission(), encoding="utf-8")
    message = _problems(tmp_path)
    assert "no Defence mission card" in message
    assert "no Chance Encounter mission card" in message
    assert "no Offence mission card" not in message
    assert "no Troop card" in message and "no Drone card" in message and "no drone price list" in message


def test_empty_or_missing_folder(tmp_path):
    with pytest.raises(InputError, match="no card files"):
        load_deck(tmp_path)
    with pytest.raises(InputError, match="card folder not found"):
        load_deck(tmp_path / "nowhere")


def test_json_cards_and_single_table_cards_load(deck_dir):
    card = {"mission": {"id": "json-mission", "title": "From JSON", "flavour": "", "kind": "defence",
                        "troop_line": "B", "vp_rules": [{"condition": "objective-intact", "vp": 3}]}}
    (deck_dir / "sub").mkdir()
    (deck_dir / "sub" / "extra.json").write_text(json.dumps(card), encoding="utf-8")
    deck = load_deck(deck_dir)
    assert deck.mission("json-mission").troop_line == "B"
    assert deck.sources["json-mission"] == "sub/extra.json: mission 'json-mission'"
    assert not deck.sample


def test_card_validates_directly():
    m = MissionCard.model_validate({
        "id": "x", "title": "X", "flavour": "", "kind": "offence", "troop_line": "C",
        "vp_rules": [{"condition": "objective-inspected", "vp": 4, "objective": "blue"}],
        "inspected_counters": 12, "round_limit": 8,
    })
    assert m.inspected_counters == 12 and m.round_limit == 8
    assert m.vp_rules[0].describe() == "+4 VP per blue objective (delta, epsilon) Inspected"


# ---- the user's own deck ----------------------------------------------------------------------------------------


def test_user_deck_replaces_the_sample_deck_only_when_present(tmp_path, monkeypatch):
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path))
    assert cards.user_deck() is None
    assert cards.playing_deck() is bundled_deck()
    (tmp_path / "cards").mkdir()
    assert cards.user_deck() is None
    shutil.copytree(bundled_folder(), tmp_path / "cards", dirs_exist_ok=True)
    (tmp_path / "cards" / "mine.toml").write_text(_mission(), encoding="utf-8")
    deck = cards.playing_deck()
    assert deck.folder == tmp_path / "cards"
    assert deck.mission("test-mission").title == "Test Mission"


def test_a_broken_user_deck_is_reported(tmp_path, monkeypatch):
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path))
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "mine.toml").write_text(_mission(kind='"attack"'), encoding="utf-8")
    # a game leaves the file out and plays the sample deck; the problem is listed, never raised at the table
    assert cards.user_deck() is None and cards.playing_deck() is bundled_deck()
    assert cards.user_deck_problems()[0].startswith("mine.toml: mission[0] 'test-mission': kind")
    # `cards validate` checks the folder strictly, every problem named
    with pytest.raises(InputError) as e:
        cards.load_deck(tmp_path / "cards")
    assert "mine.toml: mission[0] 'test-mission': kind" in e.value.message()


# ---- the documentation ----------------------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs" / "cards.md"


def test_docs_examples_are_valid_cards(tmp_path):
    text = DOCS.read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```toml\n")[1:]]
    assert len(blocks) == 4
    for n, block in enumerate(blocks):
        path = tmp_path / f"example-{n}.toml"
        path.write_text(block, encoding="utf-8")
        found, prices, problems = read_cards(path)
        assert problems == [] and (found or prices), block


def test_docs_list_every_condition():
    text = DOCS.read_text(encoding="utf-8")
    for name in cards.CONDITIONS:
        assert f"| `{name}` |" in text
    assert "UNOFFICIAL" in text


def test_load_card_file(tmp_path):
    assert len(cards.load_card_file(bundled_folder() / "offence.toml")) == 6
    bad = tmp_path / "bad.toml"
    bad.write_text(_mission(kind='"attack"'), encoding="utf-8")
    with pytest.raises(InputError) as e:
        cards.load_card_file(bad)
    assert "bad.toml: mission[0] 'test-mission': kind: Input should be" in e.value.message()
