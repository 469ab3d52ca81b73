"""Target counters on a patch of ground and missiles aimed at it (p.19, A54 Rec A, A28): priced like any target from
the Targeter's base to the point, kept by the ground for the battle, and a missile's point of impact when it hits."""

import json

from referee.cli.main import main
from referee.game.battle.intents import Action
from referee.game.records.record import read_save
from referee.game.battle.state import GameState
from referee.game.views.view import player_view

from .tables import game_state, rect, unit
from .test_damage import blip, do


def table():
    """tac at (18, 4) faces +y; a decoy blip stands on the point (20, 18), a wood from (2, 20) to (8, 26)."""
    return game_state(units=[unit("tac", "A", 18, 4, facing=90), unit("e", "B", 30, 30)],
                      blips=[blip("bl", "B", 20, 18, [])], terrain=[rect("w", "woods", 2, 20, 8, 26)])


def test_counters_on_a_point_of_ground_are_priced_and_kept_and_reveal_no_blip_standing_there():
    # 13.64" from tac's base edge to the point: band 3 in the open, price 3; pool 6 + 5 = 11 buys 3 (9 points)
    out = do(table(), "target", "tac", [6, 5], dice=2, assign={"20,18": 3})
    assert out.legal, out.reason
    g = out.state.ground["ground-1"]
    assert (g.x, g.y, g.target_counters) == (20, 18, 3)
    assert "bl" in out.state.blips                          # a blip on the point is unaffected (A54)
    assert "ground-1 marks the patch of ground at (20, 18); its Target counters stay" in out.events[-1]
    # more counters on the same point go on the same patch
    again = do(out.state, "target", "tac", [6, 6], dice=2, assign={"20,18": 4})
    assert again.legal and list(again.state.ground) == ["ground-1"] and again.state.ground["ground-1"].target_counters == 7


def test_a_point_in_a_wood_is_in_heavy_cover_and_a_point_off_the_table_is_refused():
    # 21.70" away: band 4, +2 bands for the wood's Heavy cover at the point; 2 counters eaten on the way in
    out = do(table(), "target", "tac", [6, 6], dice=2, assign={"5,22": 1})
    assert out.figures["prices"]["5,22"] == {"price": 6, "eaten": 2}
    assert not out.legal and "costs 18 points but the sensor pool is 12" in out.reason
    out = do(table(), "target", "tac", [6, 6], dice=2, assign={"40,18": 1})
    assert not out.legal and "off the table" in out.reason and "A54" in out.reason


def test_a_missile_at_the_patch_puts_the_point_of_impact_there_and_its_blast_takes_the_blip():
    state = do(table(), "target", "tac", [6, 5], dice=2, assign={"20,18": 3}).state
    # no countermeasures (a blip rolls none under A27 A); hit 1 <= 3 counters: a direct hit on the ground
    out = do(state, "missile", "tac", [1], target="ground-1")
    assert out.legal, out.reason
    assert any("direct hit on ground-1, the patch of ground at (20, 18)" in e for e in out.events)
    assert "bl" not in out.state.blips                      # caught by the blast as any blip is (A63, A32): a decoy
    [crater] = [t for t in out.state.terrain if t.type == "crater"]
    assert (crater.circle.x, crater.circle.y) == (20, 18)
    assert out.state.ground["ground-1"].target_counters == 3     # ground counters are permanent (A54)
    # a point of ground with no counters is no missile target (A28)
    out = do(table(), "missile", "tac", [1], target="20,18")
    assert not out.legal and "no Target counters" in out.reason


def test_the_patch_is_public_saved_and_replayed(tmp_path):
    state = do(table(), "target", "tac", [6, 5], dice=2, assign={"20,18": 3}).state
    assert player_view(state, "B")["ground"] == [{"id": "ground-1", "x": 20.0, "y": 18.0, "target_counters": 3}]
    assert GameState.from_data(state.to_data()).ground == state.ground
    from referee.service.referee import RefereeSession

    from .tables import scenario

    session = RefereeSession.from_scenario(scenario(units=[unit("tac", "A", 18, 4, facing=90), unit("e", "B", 30, 30)]))
    session.autosaving = False
    assert session.attempt(Action("activate", "tac")).legal
    assert session.attempt(Action("target", "tac", {"dice": 2, "assign": {"20,18": 3}}), [6, 5]).legal
    loaded = read_save(session.save(tmp_path / "g.json")).game            # replayed from the record
    assert loaded.state.ground["ground-1"].target_counters == 3


def test_the_command_line_places_counters_on_ground_and_fires_at_it(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"name": "t", "table": {"width": 36, "height": 36},
                                "units": [unit("tac", "A", 18, 4, facing=90), unit("e", "B", 30, 30)]}))
    after = tmp_path / "after.json"
    assert main(["query", str(path), "do", "target", "tac", "--assign", "20,18=3", "--dice", "6,5",
                 "--out", str(after), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"]["ground"] == [{"id": "ground-1", "x": 20.0, "y": 18.0, "target_counters": 3}]
    assert main(["query", str(after), "missile", "tac", "ground-1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["p_direct_hit"] == 0.5
    assert main(["query", str(after), "do", "missile", "tac", "ground-1", "--dice", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
