"""Previews carry the exact chances of what each unit under a flamer, in a missile's blast or in a kamikaze's blast
would suffer (``session.preview`` figures), checked against ``rules/odds.py`` and against values worked by hand."""

from fractions import Fraction

import pytest

from referee.game.battle.intents import Action
from referee.game.play.session import preview_on_table
from referee.rules import odds

from .test_damage import flamer_table, kamikaze_table, missile_table, unit


def test_the_flamer_preview_gives_each_unit_under_the_smoke_its_graze_chances():
    f = preview_on_table(flamer_table(), Action("flamer", "f", {"x": 12.5, "y": 10})).figures
    assert f["under"] == ["e", "d", "fr", "bl", "f"]
    # e, fr and f are Zane Vet troopers with Arm 3: Red above 3 stuns (1/2), normal above 3 damages (1/2).
    for uid in ("e", "fr", "f"):
        assert f["odds"][uid] == {"unharmed": 0.25, "stunned": 0.25, "damaged": 0.25, "damaged_stunned": 0.25,
                                  "destroyed": 0.0}
    assert f["odds"]["d"]["destroyed"] == 1.0                     # a drone under the smoke is destroyed
    assert "bl" not in f["odds"]                                  # a blip's contents are its owner's secret


def test_a_damaged_trooper_under_the_smoke_is_destroyed_by_a_normal_die_above_armour():
    state = flamer_table()
    state.units["e"].damaged = True
    f = preview_on_table(state, Action("flamer", "f", {"x": 12.5, "y": 10})).figures
    g = odds.graze_effects(3, True, False)
    assert f["odds"]["e"]["destroyed"] == float(g.p_destroyed) == 0.5
    assert f["odds"]["e"]["stunned"] == 0.25 and f["odds"]["e"]["unharmed"] == 0.25


def test_a_missiles_blast_lists_each_unit_it_would_catch_with_its_chances():
    # b5 stands 2" (edge) from t: in the 3" blast of a direct hit. Nuc 3 dice against Arm 3: h = 1 - (1/2)^3 = 7/8.
    state = missile_table(extra=[unit("b5", "B", 22.5, 10)])
    f = preview_on_table(state, Action("missile", "f", {"target": "t"})).figures
    b = f["blast"]
    assert b["catches"] == ["b5"] and b["dice"] == 3
    h = Fraction(7, 8)
    assert b["odds"]["b5"] == pytest.approx({"unharmed": float(1 - h), "stunned": 0.0,
                                             "damaged": float(h * (1 - h)),
                                             "damaged_stunned": float(h * h * (1 - h)),
                                             "destroyed": float(h ** 3)})
    assert b["odds"]["b5"]["destroyed"] == pytest.approx(343 / 512)


def test_the_kamikaze_preview_gives_the_contact_chance_and_the_blast_chances():
    f = preview_on_table(kamikaze_table(), Action("kamikaze", "k", {"x": 14, "y": 10, "target": "t"})).figures
    # Passive sensors first: t 3 + 1 = 4 counters; contact must be lower than 4 (A34): 3/6.
    assert f["contact"]["p_destroy"] == 0.5
    b = f["blast"]
    assert set(b["catches"]) == {"t", "t2"} and b["dice"] == 4
    # New Tokyo Vet kamikaze: Rob 4 dice against Zane Vet Arm 3: h = 1 - (1/2)^4 = 15/16.
    assert b["odds"]["t2"]["destroyed"] == pytest.approx((15 / 16) ** 3)
    expected = odds.blast_odds(4, 3, False)
    assert b["odds"]["t2"]["unharmed"] == pytest.approx(float(expected.p_unharmed)) == pytest.approx(1 / 16)


def test_the_missile_preview_gives_a_damaged_units_countermeasures_with_the_a24_pre_roll():
    # b2 is a Damaged Zane Vet trooper (CM 3): it must first pre-roll 1-4 (A24), so 4/6 x 3/6 = 1/3, not 3/6.
    f = preview_on_table(missile_table(b2_kw={"damaged": True}), Action("missile", "f", {"target": "t"})).figures
    each = {c["unit"]: c["p_shoot_down"] for c in f["countermeasures"]}
    assert each == pytest.approx({"b2": 1 / 3, "b3": 0.5, "t": 0.5})
    # and the figures agree with the working's chance that every countermeasure fails: 2/3 x 1/2 x 1/2
    assert f["p_shot_down"] == pytest.approx(1 - (2 / 3) * 0.5 * 0.5)
    assert any("4/6 x 3/6" in line for line in f["explain"])
