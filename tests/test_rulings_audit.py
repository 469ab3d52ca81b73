"""Acceptance audit of ``seven-seconds query`` against RULINGS.md: fresh scenarios written inline, expected answers
worked out by hand from the rulings (Council of Zane Veteran: every stat 3; New Tokyo Veteran 3/4/2/4/1/4)."""

import json

import pytest

from referee.cli.main import main


def unit(ident, side, x, y, type="tactical", faction="council-of-zane", rating="veteran", **kw):
    return {"id": ident, "side": side, "faction": faction, "rating": rating, "type": type, "x": x, "y": y, **kw}


def member(ident, side="B", type="tactical", **kw):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type, **kw}


def rect(x0, y0, x1, y1):
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def table(units=(), terrain=(), blips=(), objectives=(), **top):
    return {"name": "audit", "table": {"width": 48, "height": 48}, "terrain": list(terrain), "units": list(units),
            "blips": list(blips), "objectives": list(objectives), **top}


@pytest.fixture
def ask(tmp_path, capsys):
    def run(data, *args):
        path = tmp_path / "table.json"
        path.write_text(json.dumps(data))
        code = main(["query", str(path), *map(str, args), "--json"])
        out, err = capsys.readouterr()
        answer = json.loads(out)
        refused = "do" in args and not answer["legal"]
        assert code == (3 if refused else 0), err     # a refused do has its own exit status (docs/query.md)
        return answer
    return run


def state_unit(out, ident):
    return next((u for u in out["state"]["units"] if u["id"] == ident), None)


# ---- geometry and bands at the boundaries (A2, A58) ------------------------------------------------------


@pytest.mark.parametrize("bx, band", [(12.0, 2), (12.0 + 1e-7, 2), (12.0 - 5e-7, 2), (12.0 - 1e-5, 1)])
def test_band_boundary_at_six_inches(ask, bx, band):
    out = ask(table([unit("a", "A", 5, 5), unit("b", "B", bx, 5)]), "range", "a", "b")
    assert out["target_band"] == band and out["rifle_band"] == 1


@pytest.mark.parametrize("dx, blocked", [(0.0, False), (1e-7, False), (0.01, True)])
def test_three_inches_of_own_heavy_cover(ask, dx, blocked):
    woods = {"id": "w", "type": "woods", "polygon": rect(10, 5, 20, 25)}
    out = ask(table([unit("s", "A", 4.5, 15), unit("d", "B", 13.5 + dx, 15)], [woods]), "cover", "s", "d")
    assert out["target_cover"] == "heavy" and out["blocked"] is blocked


def test_a_line_with_no_cover_on_it_names_the_ruling_that_chose_the_line(ask):
    """Whether cover intervenes depends on which line is measured (A6): "no cover intervenes" names it, with the
    option when it is not the default, as every result that depends on a ruling does."""
    data = table([unit("s", "A", 5, 5), unit("d", "B", 15, 5)])
    out = ask(data, "cover", "s", "d")
    assert out["intervening"] == [] and "no cover intervenes [p.24, A6]" in out["explain"]
    out = ask({**data, "rulings": {"A6": "B"}}, "cover", "s", "d")
    assert "no cover intervenes [p.24, A6 option B]" in out["explain"]


def test_out_of_arc_doubles_the_eaten_counters_too(ask):
    # 5" in the open behind a 2" wood, target behind the trooper: price 1 x 2; 2 counters eaten at 2 each (A50 A).
    woods = {"id": "w", "type": "woods", "polygon": rect(7, 5, 9, 25)}
    data = table([unit("s", "A", 5, 15, facing=180), unit("d", "B", 11, 15)], [woods])
    out = ask(data, "target", "s", "d", "--pool", 7)
    assert (out["in_arc"], out["band"], out["price"], out["eaten"], out["placed"]) == (False, 1, 2, 2, 1)


# ---- missiles: A27 option B (blips in the flight path) ----------------------------------------------------


def a27b_table():
    return table([unit("f", "A", 5, 15), unit("t", "B", 25, 15, target_counters=4)],
                 blips=[{"id": "bl", "side": "B", "x": 12, "y": 16,
                         "contents": [member("u1"), member("u2", type="basic-drone")]},
                        {"id": "dec", "side": "B", "x": 15, "y": 14, "contents": []}],
                 rulings={"A27": "B"})


def test_missile_query_with_blips_rolling_under_a27_b(ask):
    # Used to crash (a blip has no stats). The blips are listed; their secret contents cannot enter the odds.
    out = ask(a27b_table(), "missile", "f", "t")
    assert out["allowed"] and out["countermeasures"] == ["bl", "dec", "t"]
    assert out["p_direct_hit"] == pytest.approx(0.5 * 4 / 6)


def test_missile_do_reveals_blips_in_the_path_under_a27_b(ask):
    # bl is revealed (u1, u2 roll CM 3), dec is a decoy and removed, then t rolls; all fail (6, 6, 6); hit die 1.
    out = ask(a27b_table(), "do", "missile", "f", "t", "--dice", "6,6,6,1")
    assert out["legal"] and out["dice_used"] == 4
    assert out["state"]["blips"] == []
    assert state_unit(out, "t") is None
    assert state_unit(out, "u1") is not None and state_unit(out, "u2") is not None


# ---- A17 option B: counters on a two-unit blip are split --------------------------------------------------


@pytest.mark.parametrize("rulings, counts", [({}, (3, 3)), ({"A17": "B"}, (2, 1))])
def test_counters_on_a_two_unit_blip(ask, rulings, counts):
    data = table([unit("s", "A", 5, 15, facing=0)],
                 blips=[{"id": "two", "side": "B", "x": 5, "y": 20,
                         "contents": [member("d1", type="basic-drone"), member("d2", type="basic-drone")]}],
                 rulings=rulings)
    out = ask(data, "do", "target", "s", "--assign", "two=3", "--dice", "2,2")
    assert out["legal"]
    assert (state_unit(out, "d1")["target_counters"], state_unit(out, "d2")["target_counters"]) == counts


# ---- A35 option B: a kamikaze without contact deviates and rolls the faction's Nuc ------------------------


def kamikaze_table(**top):
    return table([unit("k", "A", 10, 10, type="kamikaze-drone", faction="new-tokyo"),
                  unit("t", "B", 15, 10, target_counters=3), unit("o", "B", 14, 18)], **top)


def test_kamikaze_default_blasts_where_it_stands(ask):
    # Passive sensors: t 3 -> 4. Contact 4 is not lower than 4 (A34). Blast at (14, 10), radius and dice Rob 4:
    # t (touching) rolls 4 dice; o is 7.5" away and is not caught.
    out = ask(kamikaze_table(), "do", "kamikaze", "k", 14, 10, "--target", "t", "--dice", "4,1,1,1,1")
    assert out["legal"] and out["dice_used"] == 5
    assert [t["circle"] for t in out["state"]["terrain"]] == [{"x": 14.0, "y": 10.0, "r": 1.5}]


def test_kamikaze_a35_b_deviates(ask):
    # Contact fails (4), Red 2 + normal 2 at 90 degrees: the blast is at (14, 14), radius Rob 4, dice Nuc 1.
    # Caught: o (3.5") and t (3.62"), one die each.
    out = ask(kamikaze_table(rulings={"A35": "B"}), "do", "kamikaze", "k", 14, 10, "--target", "t",
              "--dice", "4,2,2,1,1", "--bearing", 90)
    assert out["legal"] and out["dice_used"] == 5
    assert [t["circle"] for t in out["state"]["terrain"]] == [{"x": 14.0, "y": 14.0, "r": 1.5}]


def test_kamikaze_a35_b_contact_does_not_deviate(ask):
    out = ask(kamikaze_table(rulings={"A35": "B"}), "do", "kamikaze", "k", 14, 10, "--target", "t", "--dice", "3")
    assert out["legal"] and out["dice_used"] == 1 and state_unit(out, "t") is None
    assert [t["circle"] for t in out["state"]["terrain"]] == [{"x": 14.0, "y": 10.0, "r": 1.5}]


# ---- further hand-worked acceptance cases (defaults) ------------------------------------------------------


@pytest.mark.parametrize("ytop, visible, fraction", [(0.0, True, 0.5), (0.05, False, 0.6055), (-0.05, True, 0.3990)])
def test_fifty_percent_rule_from_the_viewers_closest_point(ask, ytop, visible, fraction):
    wall = {"id": "wall", "type": "large-building", "polygon": rect(10, 5, 10.2, 10 + ytop)}
    out = ask(table([unit("v", "A", 5, 10), unit("t", "B", 15, 10)], [wall]), "los", "v", "t")
    assert out["visible"] is visible and out["hidden_fraction"] == pytest.approx(fraction, abs=6e-4)


def test_countermeasure_corridor_edges_and_order(ask):
    # Path (5,15)-(25,15). Base edges exactly 3" from it roll (within 1e-6 too), 3.1" do not; the 3" around the
    # target's and the firer's centres count; friends and blips never roll. Nearest the firer first.
    units = [unit("f", "A", 5, 15), unit("t", "B", 25, 15, target_counters=4), unit("e1", "B", 15, 18.5),
             unit("e2", "B", 12, 11.5 - 1e-7), unit("e3", "B", 18, 18.6), unit("e4", "B", 28.5, 15),
             unit("e5", "B", 1.5, 15), unit("fr", "A", 15, 16)]
    out = ask(table(units, blips=[{"id": "bl", "side": "B", "x": 15, "y": 14}]), "missile", "f", "t")
    assert out["countermeasures"] == ["e5", "e2", "e1", "t", "e4"]
    assert out["p_direct_hit"] == pytest.approx(0.5 ** 5 * 4 / 6)


def test_missile_dice_order_with_a_damaged_countermeasure_and_a_blast(ask):
    # CM order e1 (Damaged: pre-roll 3, then CM 5), t 6, e2 4; hit 2 <= 4: t destroyed. Blast radius Nuc 3 at t:
    # e2 and fr both 1.5" away (ties by id): e2 4,1,1 -> Damaged, stun roll 1,1,1 -> stop; fr 1,1,1 unharmed.
    units = [unit("f", "A", 5, 15), unit("t", "B", 25, 15, target_counters=4), unit("e1", "B", 15, 17, damaged=True),
             unit("e2", "B", 27, 15), unit("fr", "A", 23, 15)]
    out = ask(table(units), "do", "missile", "f", "t", "--dice", "3,5,6,4,2,4,1,1,1,1,1,1,1,1")
    assert out["legal"] and out["dice_used"] == 14
    assert state_unit(out, "t") is None
    assert state_unit(out, "e2").get("damaged") and not state_unit(out, "e2").get("stunned")
    assert not state_unit(out, "fr").get("damaged") and state_unit(out, "f")["target_counters"] == 1


def test_flamer_reach_template_and_graze_order(ask):
    # Smoke centre 6.0" from the firer's base edge. Under the 2.5" template: e3 (0.5"), d (drone, 1.0"), e2 (1.0").
    units = [unit("f", "A", 10, 10, facing=0), unit("e1", "B", 16.5, 13.4), unit("e2", "B", 18, 10),
             unit("e3", "B", 16.5, 11), unit("d", "B", 15, 10, type="basic-drone")]
    out = ask(table(units), "do", "flamer", "f", 16.5, 10, "--dice", "4,1,1,4")
    assert out["legal"] and out["dice_used"] == 4
    assert state_unit(out, "e3").get("stunned") and not state_unit(out, "e3").get("damaged")
    assert state_unit(out, "e2").get("damaged") and not state_unit(out, "e2").get("stunned")
    assert state_unit(out, "d") is None
    assert not state_unit(out, "e1").get("stunned") and not state_unit(out, "e1").get("damaged")
    assert ask(table(units), "do", "flamer", "f", 16.6, 10)["legal"] is False


def test_counter_removal_at_half_scale_counts_scaled_inches(ask):
    # A56 option B halves every distance: a 3" Move at scale 0.5 is 6 scaled inches, so Stl 3 removes 3 (A14).
    out = ask(table([unit("m", "A", 5, 15, target_counters=5)], scale=0.5), "move", "m", 8, 15)
    assert out["legal"] and out["allowance"] == 3.0 and out["removes"] == 3
    assert any("/ scale 0.5" in line and "A56" in line for line in out["explain"])


def test_a_disc_feature_is_exact_for_cover_and_intervening_length(ask):
    # d's centre (23, 24) is exactly 5" from the smoke's centre (a 3-4-5 point, between the vertices of the disc's
    # polygon): on the edge counts as in it (A58), so Light cover.
    smoke = {"id": "sm", "type": "smoke", "circle": {"x": 20, "y": 20, "r": 5}}
    out = ask(table([unit("s", "A", 5, 24), unit("d", "B", 23, 24)], [smoke]), "cover", "s", "d")
    assert out["target_cover"] == "light"
    # A crater crossed 1" off its centre: chord 2 * sqrt(1.5^2 - 1) exactly.
    crater = {"id": "c", "type": "crater", "circle": {"x": 15, "y": 16, "r": 1.5}}
    out = ask(table([unit("s", "A", 5, 15), unit("d", "B", 25, 15)], [crater]), "cover", "s", "d")
    assert out["intervening"] == [{"terrain": "c", "cover": "heavy", "length": round(2 * (1.5 ** 2 - 1) ** 0.5, 6)}]
