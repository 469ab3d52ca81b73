"""The holding area's chips at set-up: two units of a type stay told apart however narrow the squares, and the
squares start below the note, which wraps in a small window."""

import pygame
import pytest

from referee.ui.app import App
from referee.ui.scenes.holding_setup import HoldingSetupScene, chip_label
from referee.ui.widgets import text_width, wrap

ISSUED = [{"id": "a-kamikaze-drone-1", "type": "kamikaze-drone", "rating": "veteran"},
          {"id": "a-kamikaze-drone-2", "type": "kamikaze-drone", "rating": "spec-ops"},
          {"id": "a-tactical-1", "type": "tactical", "rating": "veteran"}]


@pytest.fixture(params=[(1280, 800), (800, 560)])
def filled(request):
    app = App(request.param)
    scene = app.push(HoldingSetupScene(None, "A", ISSUED, lambda answer: None))
    scene.put("a-kamikaze-drone-1", 1)
    scene.put("a-kamikaze-drone-2", 1)
    app.step(1 / 30, events=[])
    yield scene
    pygame.quit()


def test_two_drones_in_one_square_keep_the_numbers_that_tell_them_apart(filled):
    rows = filled.cell_rows(1)
    assert [uid for _, uid in rows] == ["a-kamikaze-drone-1", "a-kamikaze-drone-2"]
    for rect, uid in rows:
        assert rect.bottom <= filled.cell(1).bottom
        label = chip_label(uid, "veteran", rect.w - 8)
        assert text_width(label, 13) <= rect.w - 8
        assert label.endswith(uid[-2:])           # "a-kam…one-1": never "a-kamikaze-…"
    labels = [chip_label(uid, "", rect.w - 8) for rect, uid in rows]
    assert labels[0] != labels[1]


def test_the_squares_start_below_the_note(filled):
    note_lines = len(wrap("Click a unit, then the square it goes to; at most 2 a square, empty squares are decoys "
                          "[p.~10]. Only you see this.", filled.box.w - 40, 14))
    assert filled.grid.y >= filled.box.y + 46 + 18 * note_lines
    assert filled.list_rect.y == filled.grid.y


def test_a_label_that_fits_is_whole():
    assert chip_label("a-tactical-1", "veteran", 400) == "a-tactical-1 (veteran)"


def test_in_battle_a_narrow_square_keeps_the_number_and_the_rating():
    from referee.ui.scenes.holding import unit_lines

    App((800, 560))
    try:
        one = unit_lines({"id": "a-kamikaze-drone-1", "type": "kamikaze-drone", "rating": "reserve"}, 76)
        two = unit_lines({"id": "a-kamikaze-drone-2", "type": "kamikaze-drone", "rating": "spec-ops"}, 76)
        assert one[0] != two[0] and one[0].endswith("-1") and two[0].endswith("-2")
        assert (one[1], two[1]) == ("reserve", "spec-ops")           # the id names the type: the rating stays
        assert all(text_width(t, 13) <= 76 for t in (one[0], two[0]))
        assert unit_lines({"id": "a-tactical-1", "type": "tactical", "rating": "veteran"}, 300) == \
            ("a-tactical-1", "tactical, veteran")
    finally:
        pygame.quit()
