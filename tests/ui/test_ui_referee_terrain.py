"""Terrain drifts at a physical table and the referee follows it from the window: a terrain piece is chosen with a
click, dragged to where it lies, moved or turned by typed amounts, lifted off with Delete; smoke and a crater are
added at a click. Each is a logged correction; a refused one changes nothing."""

from pathlib import Path

import pygame
import pytest

from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession, parse_terrain_correction
from referee.rules.errors import InputError
from referee.ui.scenes.dialogs import Dialog, TextDialog
from referee.ui.scenes.referee import RefereeScene

SMALL = Path(__file__).with_name("small_table.toml")


@pytest.fixture
def referee(fresh):
    session = RefereeSession.from_scenario(load_scenario(SMALL))
    session.autosaving = False
    scene = fresh.push(RefereeScene(session))
    fresh.step(1 / 30, events=[])
    return scene, session


def screen(scene, x: float, y: float) -> tuple[int, int]:
    return tuple(round(v) for v in scene.view.to_screen(x, y))


def press_and_release(app, start, end) -> None:
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))


def corners(session, ident):
    return next(t for t in session.state.terrain if t.id == ident).polygon


def test_a_wood_clicked_is_chosen_and_dragged_to_where_it_lies(fresh, referee):
    scene, session = referee
    press_and_release(fresh, screen(scene, 17, 16), screen(scene, 17, 16))
    assert scene.chosen_terrain == "woods-1" and scene.selected is None
    assert not isinstance(fresh.scene, Dialog)                  # a click only chooses it
    press_and_release(fresh, screen(scene, 17, 16), screen(scene, 19, 15))
    assert isinstance(fresh.scene, Dialog) and fresh.scene.heading == "Correct woods-1?"
    fresh.scene.choose("cancel")
    assert corners(session, "woods-1") == [[14, 14], [20, 14], [20, 19], [14, 19]]
    press_and_release(fresh, screen(scene, 17, 16), screen(scene, 19, 15))
    fresh.scene.choose("go")
    (x0, y0), (x2, y2) = corners(session, "woods-1")[0], corners(session, "woods-1")[2]
    assert (x0, y0, x2, y2) == pytest.approx((16, 13, 22, 18), abs=0.1)
    assert session.state.log[-1].text.startswith("correction: woods-1 (woods) moved +2")
    # the window draws the table the engine now holds
    assert scene.terrain_feature("woods-1").geometry.bounds == pytest.approx((16, 13, 22, 18), abs=0.1)


def test_typed_move_and_turn_then_delete_removes_it(fresh, referee):
    scene, session = referee
    press_and_release(fresh, screen(scene, 27, 24), screen(scene, 27, 24))
    assert scene.chosen_terrain == "hill-1"
    fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u, unicode="u", mod=0))     # U: Correct
    top = fresh.scene
    assert isinstance(top, TextDialog) and top.heading == "Correct hill-1 as it stands on the table"
    top.entry.set_text("move=0,0 turn=90")
    top.choose("ok")
    assert corners(session, "hill-1") == [[29.5, 21.5], [29.5, 27.5], [24.5, 27.5], [24.5, 21.5]]
    fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DELETE, unicode="", mod=0))
    assert isinstance(fresh.scene, Dialog) and fresh.scene.heading == "Remove hill-1?"
    fresh.scene.choose("go")
    assert [t.id for t in session.state.terrain] == ["woods-1"]
    assert scene.chosen_terrain is None
    assert session.state.log[-1].text.startswith("correction: hill-1 (hills, 4 corners")


def test_smoke_and_a_crater_are_added_at_a_click(fresh, referee):
    scene, session = referee
    scene.press("add-smoke")
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=screen(scene, 10, 12), button=1))
    top = fresh.scene
    assert isinstance(top, TextDialog) and top.entry.get_text() == "5"
    top.choose("ok")
    smoke = session.state.terrain[-1]
    assert (smoke.id, smoke.type, smoke.circle.r) == ("smoke-1", "smoke", 2.5)
    assert (smoke.circle.x, smoke.circle.y) == pytest.approx((10, 12), abs=0.1)
    scene.press("add-crater")
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=screen(scene, 30, 14), button=1))
    assert fresh.scene.entry.get_text() == "3"
    fresh.scene.entry.set_text("4")
    fresh.scene.choose("ok")
    crater = session.state.terrain[-1]
    assert (crater.id, crater.type, crater.circle.r) == ("crater-1", "crater", 2.0)
    assert "crater-1" in {f.id for f in scene.table.bf.terrain}


def test_a_refused_terrain_correction_says_why_and_changes_nothing(fresh, referee):
    scene, session = referee
    before = session.state.to_data()
    scene.choose_terrain("woods-1")
    out = scene.correct_terrain_from_text("woods-1", "move=20,0")
    assert not out.legal
    assert scene.log_title == "Correction of woods-1: not allowed"
    assert any("would leave the 36\" x 36\" table" in line for line in scene.log_lines)
    assert session.state.to_data() == before
    assert scene.correct_terrain_from_text("woods-1", "move=0,0 turn=0") is None      # the offered text, unchanged
    assert scene.log_lines == ["it neither moved nor turned: nothing changed"]
    assert session.state.to_data() == before


def test_typed_terrain_corrections():
    assert parse_terrain_correction("move=2,-1.5 turn=30°") == {"move": [2.0, -1.5], "turn": 30.0}
    assert parse_terrain_correction("remove") == {"remove": True}
    for bad in ("move=2", "turn=left", "spin=3", ""):
        with pytest.raises(InputError):
            parse_terrain_correction(bad)
