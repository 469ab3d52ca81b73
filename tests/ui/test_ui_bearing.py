"""A deviation's bearing as the players measure it: a clock direction from their own edge (a button, or typed as
4:30 or 2 o'clock) or degrees; a bearing that is not one keeps the box open with the reason."""

import pytest

from referee.game.battle.dice import RollRequest
from referee.ui.scenes.bearing import BearingDialog, clock_bearing, dice_dialog, parse_bearing
from referee.ui.scenes.dialogs import DiceDialog

BEARING = RollRequest("deviation bearing: from the Red Die to the normal die", "p.21, A29", "bearing")


@pytest.mark.parametrize("text, turned, degrees", [
    ("12 o'clock", False, 90.0),       # straight across the table from side A's edge: toward B's, +y
    ("3 o'clock", False, 0.0),         # to side A's player's right: +x
    ("4:30", False, 315.0),
    ("9h", False, 180.0),
    ("12 o'clock", True, 270.0),       # side B's player, the table turned: across is toward A's edge
    ("3", False, 3.0),                 # a bare number is degrees
    ("135°", False, 135.0),
])
def test_typed_bearings(text, turned, degrees):
    assert parse_bearing(text, turned) == pytest.approx(degrees)


def test_clock_hours_by_hand():
    assert [clock_bearing(h) for h in (12, 1, 2, 6)] == [pytest.approx(90.0), 60.0, 30.0, 270.0]


def test_the_bearing_box_offers_the_clock_and_keeps_a_bad_entry_open(fresh):
    got = []
    box = fresh.push(dice_dialog(BEARING, got.append))
    assert isinstance(box, BearingDialog)
    assert [label for _, label in box.choices[:3]] == ["12 o'clock", "1 o'clock", "2 o'clock"]
    box.entry.set_text("north-ish")
    box.choose("ok")
    assert fresh.scene is box and "clock direction" in box.error and got == []
    box.entry.set_text("13 o'clock")
    box.choose("ok")
    assert fresh.scene is box and "1 to 12" in box.error
    box.entry.set_text("4:30")
    box.choose("ok")
    assert got == [pytest.approx(315.0)] and fresh.scene is not box


def test_a_clock_button_answers_and_a_face_die_keeps_its_own_box(fresh):
    got = []
    box = fresh.push(dice_dialog(BEARING, got.append, turned=True))
    box.choose("clock:3")
    assert got == [pytest.approx(180.0)]           # side B's right, on the turned table, is -x
    d6 = dice_dialog(RollRequest("a die", "p.21", "d6"), got.append)
    assert type(d6) is DiceDialog
