"""The service's battles on file, as the command line drives them: a save opened into a session, a new battle
written, one action played on a save with exactly the dice given, an action on a scenario's table, the reports the
rules let a client show, a campaign told of a finished battle, and a whole headless battle."""

from __future__ import annotations

import json
import random

import pytest

from referee import paths
from referee.game.records.record import read_save, save_game, state_digest
from referee.game.players.selfplay import play_battle
from referee.game.records.record import new_seeded_dice
from referee.game.play.setup import new_game
from referee.rules.errors import InputError
from referee.rules.scenario import load_scenario
from referee.service import reports
from referee.service.battles import UnreadArguments, new_battle, open_save, play_on_save
from referee.service.campaigns import record_saved_battle
from referee.service.intents import Action
from referee.service.selfplay import play_selfplay
from referee.service.tables import TableAction

FACTIONS = {"A": "new-tokyo", "B": "council-of-zane"}


@pytest.fixture(scope="module")
def table():
    return load_scenario(paths.DEFAULT_SCENARIO)


def _new(table, path):
    return new_battle(table, FACTIONS, {"A": 0, "B": 0}, path)


def test_a_new_battle_is_written_about_to_be_set_up(table, tmp_path):
    battle = _new(table, tmp_path / "b.json")
    assert battle.written == tmp_path / "b.json" and battle.phase == "setup" and battle.name == "Pastoral Hills"
    opened = open_save(battle.written)
    assert opened.actions == 0 and opened.phase == "setup" and not opened.refereed
    assert opened.session.to_act() == "A", "set-up opens with the attacker/defender roll, side A's to make"


def test_an_action_on_a_save_is_played_with_the_faces_given_and_written(table, tmp_path):
    path = _new(table, tmp_path / "b.json").written
    done = play_on_save(path, Action("roll-roles", "", {}), [2, 5], [], path)
    assert done.legal and done.written == path and not done.missing
    assert [r[2] for r in done.rolls] == [2, 5] and all(r[1] == "d6" for r in done.rolls)
    assert done.phase == "setup" and done.to_act == "A", "B rolled higher and attacks: A, the defender, picks the edge"
    again = open_save(path)
    assert again.actions == 1 and again.session.to_act() == "A"


def test_a_die_not_given_is_missing_never_rolled_and_nothing_is_written(table, tmp_path):
    path = _new(table, tmp_path / "b.json").written
    before = path.read_bytes()
    done = play_on_save(path, Action("roll-roles", "", {}), [4], [], path)
    assert done.missing and "d6" in done.missing and not done.legal and done.written is None
    assert path.read_bytes() == before


def test_a_refused_action_changes_nothing(table, tmp_path):
    path = _new(table, tmp_path / "b.json").written
    before = path.read_bytes()
    done = play_on_save(path, Action("choose-edge", "A", {"turn": False}), [], [], path)
    assert not done.legal and done.reason and done.written is None and done.rolls == []
    assert path.read_bytes() == before


def test_a_campaign_battle_played_on_its_file_keeps_its_campaign_as_named_and_records_nothing(table, tmp_path):
    # ``query SAVE do`` on a campaign battle's save: the save goes on naming its campaign exactly as before (not
    # rewritten to an absolute path), and the campaign file is left alone: ``campaign battle`` records the result.
    game = new_game(table, FACTIONS)
    game.campaign = "war.toml"
    path = save_game(game, tmp_path / "b.json")
    play_on_save(path, Action("roll-roles", "", {}), [2, 5], [], path)
    assert read_save(path).game.campaign == "war.toml" and len(read_save(path).game.record) == 1
    assert not (tmp_path / "war.toml").exists()


@pytest.fixture(scope="module")
def mid_battle(tmp_path_factory, table):
    """A battle through set-up into round 1, every decision played on its save as ``query SAVE do`` plays it."""
    path = tmp_path_factory.mktemp("mid") / "b.json"
    _new(table, path)

    def do(kind, actor="", **args):
        done = play_on_save(path, Action(kind, actor, args), [2, 5] if kind == "roll-roles" else [], [], path)
        assert done.legal, done.reason

    do("roll-roles")
    do("choose-edge", "A", turn=False)
    for oid, side in (("delta", "B"), ("epsilon", "B"), ("alpha", "A"), ("beta", "A"), ("gamma", "A")):
        do("place-objective", side, objective=oid)
    for kind, side in (("draw-cards", "A"), ("draw-cards", "B"), ("fill-holding", "A"), ("fill-holding", "B"),
                       ("place-blips", "A"), ("place-blips", "B")):
        do(kind, side)
    return path


def test_a_side_sees_its_own_holding_area_and_not_the_opponent_s_the_referee_both(mid_battle):
    session = open_save(mid_battle).session
    assert reports.view_of(session, "A")["phase"] == "action"
    mine, theirs = reports.view_of(session, "A")["holding"]["A"], reports.view_of(session, "A")["holding"]["B"]
    assert mine and theirs is None
    truth = reports.view_of(session)
    assert truth["holding"]["A"] and truth["holding"]["B"]
    assert reports.digest(session) == state_digest(read_save(mid_battle).game.state)


def test_the_seals_reach_a_side_only_when_the_battle_is_over_the_referee_at_once(mid_battle):
    session = open_save(mid_battle).session
    assert not reports.seals_shown(session, "A") and not reports.seals_shown(session, "B")
    assert reports.seals_shown(session)
    seals = reports.seals(session)
    assert set(seals) == {"A", "B"} and all(s["matches"] for s in seals.values())
    assert any("side A's sealed document" in line for line in reports.seal_lines(session))


def test_the_legal_actions_are_the_side_to_act_s_and_none_for_the_other(mid_battle):
    session = open_save(mid_battle).session
    assert session.to_act() == "B", "round 1: the attacker holds the Initiative"
    assert reports.legal_of(session, "A") == []
    mine = reports.legal_of(session, "B")
    assert mine and all(a.kind == "activate" or a.kind == "end-turn" for a in mine)
    assert reports.legal_of(session) == mine


def test_arguments_the_engine_cannot_read_are_handed_back_to_the_client_to_word(mid_battle, tmp_path):
    session = open_save(mid_battle).session
    blip = next(a.actor for a in reports.legal_of(session) if a.kind == "activate")
    active = tmp_path / "active.json"
    assert play_on_save(mid_battle, Action("activate", blip, {}), [], [], active).legal
    before = active.read_bytes()
    with pytest.raises(UnreadArguments) as caught:
        play_on_save(active, Action("move", blip, {"x": [1], "y": 2}), [], [], active)
    assert isinstance(caught.value.error, TypeError)
    assert active.read_bytes() == before


def test_a_summary_waits_for_the_end_of_the_battle_the_dice_report_does_not(mid_battle):
    session = open_save(mid_battle).session
    with pytest.raises(InputError, match="once the battle is over"):
        reports.summary(session)
    lines = reports.dice_lines(session)
    assert any(line.startswith("side A: luck") for line in lines) and any(line.startswith("side B: luck")
                                                                          for line in lines)
    assert not any(line.startswith("side B") for line in reports.dice_lines(session, "A"))


def test_selfplay_through_the_service_plays_the_battle_the_engine_plays_from_the_same_seed(table, tmp_path):
    played = play_selfplay(table, FACTIONS, {"A": "random", "B": "random"}, 3, random.Random(3), 1, 20000,
                           tmp_path / "s.json")
    assert played.written == tmp_path / "s.json" and played.reasons == {}
    game = new_game(table, FACTIONS)
    dice = new_seeded_dice(3)
    direct = play_battle(game, dice, random.Random(3), 1, 20000, None)
    saved = read_save(played.written).game
    # The same actions with the same dice (the seals' salts are fresh each run, so the digests are not compared).
    assert [(e.action.to_data(), [r.as_list() for r in e.rolls]) for e in saved.record] == \
        [(e.action.to_data(), [r.as_list() for r in e.rolls]) for e in game.record]
    assert (played.actions, played.refused, played.round, played.phase) == (len(game.record), direct.refused, 1,
                                                                            "over")


def test_a_finished_battle_is_recorded_in_its_campaign_from_its_save(table, tmp_path):
    from referee.game.campaigns.campaign import Campaign, Player, campaign_data
    from referee.storage import write_document

    played = play_selfplay(table, FACTIONS, {"A": "random", "B": "random"}, 3, random.Random(3), 1, 20000,
                           tmp_path / "s.json")
    campaign = tmp_path / "war.toml"
    write_document(campaign, campaign_data(Campaign(name="War", length="short",
                                                    players={"A": Player(faction="new-tokyo"),
                                                             "B": Player(faction="council-of-zane")})))
    c, status = record_saved_battle(campaign, played.written)
    assert len(c.battles) == 1 and c.battles[0].control == played.control
    assert c.battles[0].winner == played.winner
    assert status.sides["A"].tech_points >= 1 and status.sides["B"].tech_points >= 1, "each side takes part [p.31]"


def test_an_action_on_a_table_uses_the_dice_given_and_names_a_missing_one(table):
    on_table = TableAction(table)
    assert {"a-tactical-1", "alpha"} <= on_table.piece_ids() and not on_table.damaged_trooper("a-tactical-1")
    unit = next(u for u in table.units if u.id == "a-tactical-1")
    done = on_table.do(Action("move", "a-tactical-1", {"x": unit.x, "y": unit.y + 1}), [], [])
    assert done.legal and done.dice_used == 0 and not done.missing
    moved = next(u for u in done.table["units"] if u["id"] == "a-tactical-1")
    assert moved["y"] == pytest.approx(unit.y + 1)
    missing = on_table.do(Action("target", "a-tactical-1", {"dice": 2, "assign": {}}), [6], [])
    assert "sensor die 2 of 2" in missing.missing and missing.given_used == 1


def test_the_save_s_json_is_never_rewritten_by_opening_it(table, tmp_path):
    path = _new(table, tmp_path / "b.json").written
    before = json.loads(path.read_text(encoding="utf-8"))
    open_save(path)
    assert json.loads(path.read_text(encoding="utf-8")) == before


def test_the_computer_in_selfplay_decides_from_its_seat_s_screen_and_plays_the_battle_it_played_before(
        table, tmp_path, monkeypatch):
    from referee.game.players.seated import make_player, seat_computer
    from referee.service.session import BattleSession

    seats = []
    screen = BattleSession.screen

    def spied(self, seat=None):
        seats.append(seat)
        return screen(self, seat)

    monkeypatch.setattr(BattleSession, "screen", spied)
    played = play_selfplay(table, FACTIONS, {"A": "computer:easy", "B": "random"}, 5, random.Random(5), 1, 40,
                           tmp_path / "s.json")
    assert played.phase == "action" and played.actions == 40, "set-up done, and round 1 under way"
    assert seats and set(seats) == {"A"}, "the computer is told side A's screen, and no other seat's"
    assert played.reasons["A"].player == "computer:easy" and played.reasons["A"].lines
    # The same battle as the engine's own computer player, deciding from the player view and legal actions.
    rng = random.Random(5)
    game = new_game(table, FACTIONS)
    players = {side: make_player(kind, side, 5, rng) for side, kind in (("A", "computer:easy"), ("B", "random"))}
    seat_computer(game, players["A"].computer)
    play_battle(game, new_seeded_dice(5), rng, 1, 40, players)
    saved = read_save(played.written).game
    assert [(e.action.to_data(), [r.as_list() for r in e.rolls]) for e in saved.record] == \
        [(e.action.to_data(), [r.as_list() for r in e.rolls]) for e in game.record]
    assert played.reasons["A"].lines == [f"[round {r}] {t}: {why}" for r, t, why in players["A"].reasons]
