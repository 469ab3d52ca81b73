"""Rulings options that used to be accepted and silently ignored (A12 B, A36 B's line of sight, A17 B), and the
refusal of any option the program cannot honour."""

import pytest

from referee.game.battle.intents import Action
from referee.game.play.actions import resolve
from referee.game.battle.dice import ScriptedDice
from referee.rules.errors import InputError
from referee.rules.movement import move
from referee.rules.rulings import Rulings
from referee.rules.targeting import target_price

from .tables import battlefield, game_state, rect, unit


def drone_table(rulings):
    return dict(units=[unit("d", "A", 10, 10, type="recce-drone", facing=0), unit("t", "B", 4, 10)],
                rulings=rulings)


def test_a12_b_a_drone_targeting_behind_its_facing_pays_double():
    behind_a = battlefield(**drone_table({}))
    behind_b = battlefield(**drone_table({"A12": "B"}))
    a = target_price(behind_a, behind_a.piece("d"), behind_a.piece("t"))
    b = target_price(behind_b, behind_b.piece("d"), behind_b.piece("t"))
    assert (a.in_arc, b.in_arc) == (True, False)
    assert b.price == 2 * a.price
    assert any("A12 option B" in str(step) for step in b.explain)


def test_a12_b_a_drone_faces_the_way_it_last_moved_and_the_view_shows_it():
    from referee.game.views.view import player_view

    bf = battlefield(**drone_table({"A12": "B"}))
    r = move(bf, bf.piece("d"), [(10, 14)])
    assert r.legal and r.facing == pytest.approx(90.0)
    state = game_state(**drone_table({"A12": "B"}))
    out = resolve(state, Action("move", "d", {"x": 10, "y": 14}), ScriptedDice([]))
    assert out.legal and out.state.units["d"].facing == pytest.approx(90.0)
    seen = {u["id"]: u for u in player_view(out.state, "B")["units"]}
    assert seen["d"]["facing"] == pytest.approx(90.0)
    # Under option A a drone has no facing: a move leaves none, and the view shows none.
    plain = resolve(game_state(**drone_table({})), Action("move", "d", {"x": 10, "y": 14}), ScriptedDice([]))
    assert "facing" not in {u["id"]: u for u in player_view(plain.state, "B")["units"]}["d"]


@pytest.mark.parametrize("rulings, legal", [({}, True), ({"A36": "B"}, False)])
def test_a36_b_the_flamer_needs_line_of_sight_to_the_smokes_centre(rulings, legal):
    # A hill between the firer and the point 5" ahead: option A places the smoke there, option B refuses it.
    state = game_state(units=[unit("a", "A", 5, 10, facing=0), unit("b", "B", 30, 30)],
                       terrain=[rect("hill", "hills", 7, 8, 8, 12)], rulings=rulings)
    out = resolve(state, Action("flamer", "a", {"x": 10, "y": 10}), ScriptedDice([]))
    assert out.legal is legal
    if not legal:
        assert "no line of sight from a to the smoke's centre (hill)" in out.reason and "A36 option B" in out.reason
        assert out.state is state


def blip_behind_woods(rulings):
    # A trooper Targets a blip (two tacticals) 5" away behind a 2" wood, Heavy cover: it eats 2 counters (p.19, p.24).
    woods = rect("w", "woods", 7, 5, 9, 25)
    contents = [{"id": "b1", "side": "B", "faction": "council-of-zane", "rating": "veteran", "type": "tactical"},
                {"id": "b2", "side": "B", "faction": "council-of-zane", "rating": "veteran", "type": "tactical"}]
    return game_state(units=[unit("s", "A", 5, 15, facing=0)], terrain=[woods],
                      blips=[{"id": "bl", "side": "B", "x": 11, "y": 15, "contents": contents}], rulings=rulings)


@pytest.mark.parametrize("rulings, revealed", [({}, False), ({"A17": "B"}, True)])
def test_a17_b_buying_a_counter_that_terrain_eats_reveals_the_blip(rulings, revealed):
    state = blip_behind_woods(rulings)
    price = target_price(state.battlefield(), state.battlefield().piece("s"), state.battlefield().piece("bl"))
    assert price.allowed and price.eaten == 2 and price.price == 1
    out = resolve(state, Action("target", "s", {"dice": 1, "assign": {"bl": 0}}), ScriptedDice([4]))
    assert out.legal
    assert ("bl" in out.state.blips) is not revealed
    if revealed:
        assert {out.state.units["b1"].target_counters, out.state.units["b2"].target_counters} == {0}
        assert any("buying any counter reveals a blip" in line and "A17 option B" in line for line in out.explain)


def test_an_option_the_program_does_not_play_is_refused_when_the_rulings_are_read():
    with pytest.raises(InputError) as e:
        Rulings({"A18": "B", "A17": "B"})
    text = e.value.message()
    assert "rulings.A18: option 'B' (any action its contents could take) is not implemented" in text
    assert "A17" not in text
    assert Rulings({"A17": "B", "A12": "B", "A36": "B"}).reads("A12", "B")


def test_the_same_choices_share_one_rulings_and_a_wrong_choice_is_refused_and_not_kept():
    """A table rebuilt for every action and every player view reads its rulings from the same choices: one Rulings
    for them, so the pieces made under it are found again (they are kept by the rulings' identity)."""
    from referee.rules.rulings import rulings_for

    shared = rulings_for({"A17": "B", "A12": "B"})
    assert rulings_for({"A12": "B", "A17": "B"}) is shared and shared.reads("A12", "B")
    assert rulings_for({}) is not shared and rulings_for({}).reads("A12", "A")
    for _ in range(2):                      # refused each time: a wrong choice is never kept as if it were checked
        with pytest.raises(InputError) as e:
            rulings_for({"A18": "B"})
        assert "rulings.A18: option 'B'" in e.value.message()
    with pytest.raises(InputError):
        rulings_for({"A12": ["B"]})         # an unhashable value is checked too, not a TypeError


def test_a_scenario_choosing_an_option_not_played_fails_validation(tmp_path, capsys):
    from referee.cli.main import main

    path = tmp_path / "t.toml"
    path.write_text('name = "t"\nrulings = { A43 = "B" }\nterrain = []\nunits = []\n[table]\nwidth = 36\nheight = 36\n')
    assert main(["validate", str(path)]) != 0
    out = capsys.readouterr()
    assert "A43" in out.out + out.err and "not implemented" in out.out + out.err


@pytest.mark.parametrize("more, dice, damaged", [([], "6", True), ([], "2", False), (["--more"], "", False)])
def test_query_do_runs_the_end_of_activation_jammer_test(tmp_path, capsys, more, dice, damaged):
    # A trooper (Armour 3) moves and stays 1" from an enemy haywire drone whose jammer is on (p.23, A38).
    import json

    from referee.cli.main import main

    from .tables import scenario

    s = scenario(units=[unit("a", "A", 10, 10, facing=0), unit("h", "B", 14, 10, type="haywire-drone", jammer_on=True)])
    path = tmp_path / "t.json"
    path.write_text(json.dumps(s.model_dump(mode="json")))
    assert main(["query", str(path), "do", "move", "a", "12", "10", "--dice", dice, *more, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    a = next(u for u in out["state"]["units"] if u["id"] == "a")
    assert a.get("damaged", False) is damaged
    assert out["dice_used"] == (0 if more else 1)
