"""The referee mode reads the table from a photo: W, a file, the differences shown, accepted or rejected."""

import cv2
import pygame

from referee.capture.plan import plan_for
from referee.service.referee import RefereeSession
from referee.ui.scenes.capture import CaptureScene
from referee.ui.scenes.dialogs import TextDialog
from referee.ui.scenes.referee import RefereeScene
from referee.game.battle.intents import Action
from tests.capture_photos import PhotoSpec, render
from tests.tables import rect, scenario, unit


def table():
    return scenario(units=[unit("a-1", "A", 8, 4, facing=90), unit("a-2", "A", 26, 4, facing=90),
                           unit("b-1", "B", 10, 32, facing=270), unit("b-2", "B", 28, 32, facing=270)],
                    terrain=[rect("woods-1", "woods", 14, 14, 20, 20), rect("hill-1", "hills", 24, 20, 30, 24)])


def press_w(app):
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_w, unicode="w", mod=0))
    app.dispatch(pygame.event.Event(pygame.KEYUP, key=pygame.K_w, mod=0))


def photo_of(session, tmp_path, **changes):
    real = session.state.copy()
    for piece, (x, y, facing) in changes.items():
        u = real.units[piece]
        u.x, u.y, u.facing = x, y, facing
    image, _ = render(real, plan_for(session.state), PhotoSpec(seed=11, tilt=15, turn=20))
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    return path


def open_photo(app, path):
    press_w(app)
    dialog = app.scene
    assert isinstance(dialog, TextDialog)
    dialog.entry.set_text(str(path))
    dialog.choose("ok")
    app.step(1 / 30, events=[])
    assert isinstance(app.scene, CaptureScene)
    return app.scene


def test_the_photo_s_differences_are_accepted_as_the_move_and_a_correction(fresh, tmp_path):
    session = RefereeSession.from_scenario(table(), first="A")
    scene = fresh.push(RefereeScene(session))
    fresh.step(1 / 30, events=[])
    assert session.attempt(Action("activate", "a-1", {})).legal
    scene.refresh()
    path = photo_of(session, tmp_path, **{"a-1": (8, 8.5, 90), "b-2": (28.8, 32, 270)})
    capture = open_photo(fresh, path)
    texts = [d.text for d in capture.differences()]
    assert texts == ["a-1 moved 4.5\" to (8, 8.5), facing 90°", "b-2 moved 0.8\" to (28.8, 32), facing 270°"]
    assert session.state.units["a-1"].y == 4                      # nothing changed yet
    fresh.screenshot(tmp_path / "capture.png")
    pygame.image.save(fresh.screen, "/tmp/capture-shot.png")
    fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, unicode="\r", mod=0))
    fresh.step(1 / 30, events=[])
    assert fresh.scene is scene
    assert session.state.units["a-1"].y == 8.5 and session.state.units["b-2"].x == 28.8
    kinds = [e.action.kind for e in session.game.record[-2:]]
    assert kinds == ["correct", "move"]


def test_rejected_differences_change_nothing_and_a_bad_file_is_refused(fresh, tmp_path):
    session = RefereeSession.from_scenario(table(), first="A")
    scene = fresh.push(RefereeScene(session))
    fresh.step(1 / 30, events=[])
    path = photo_of(session, tmp_path, **{"b-1": (10.6, 32, 270)})
    open_photo(fresh, path)
    record = len(session.game.record)
    fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="", mod=0))
    assert fresh.scene is scene and len(session.game.record) == record
    assert session.state.units["b-1"].x == 10

    bad = tmp_path / "notes.png"
    bad.write_text("not a photo")
    press_w(fresh)
    fresh.scene.entry.set_text(str(bad))
    fresh.scene.choose("ok")
    assert fresh.scene is scene and len(session.game.record) == record
    assert any("not a photo OpenCV can read" in line for line in scene.log_lines)


def test_the_table_editor_places_every_piece_from_one_photo(fresh, tmp_path):
    from referee.game.battle.state import state_from_scenario
    from referee.ui.editing import TableEditor
    from referee.ui.scenes.editor import EditorScene

    editor = TableEditor(table())
    scene = fresh.push(EditorScene(editor))
    fresh.step(1 / 30, events=[])
    # The physical table: every unit somewhere else than the file has it, the wood pushed 1" across.
    real = state_from_scenario(table())
    spots = {"a-1": (5, 6, 45), "a-2": (30, 8, 135), "b-1": (12, 28, 200), "b-2": (22, 30, 300)}
    for ident, (x, y, facing) in spots.items():
        real.units[ident].x, real.units[ident].y, real.units[ident].facing = x, y, facing
    image, _ = render(real, plan_for(state_from_scenario(table())), PhotoSpec(seed=12, tilt=25, turn=80),
                      moved={"woods-1": (1.0, 0.0, 0.0)})
    path = tmp_path / "whole-table.png"
    cv2.imwrite(str(path), image)
    fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, unicode="", mod=pygame.KMOD_CTRL))
    dialog = fresh.scene
    assert isinstance(dialog, TextDialog)
    dialog.entry.set_text(str(path))
    dialog.choose("ok")
    assert scene.message.startswith("Placed 6 pieces from the photo"), scene.message
    units = {u.id: u for u in editor.scenario.units}
    for ident, (x, y, facing) in spots.items():
        assert abs(units[ident].x - x) < 0.1 and abs(units[ident].y - y) < 0.1
        assert abs((units[ident].facing - facing + 180) % 360 - 180) < 3
    woods = next(t for t in editor.scenario.terrain if t.id == "woods-1")
    assert abs(woods.polygon[0][0] - 15) < 0.1 and abs(woods.polygon[0][1] - 14) < 0.1
    editor.undo()                                            # one edit: one undo puts the file's table back
    assert {u.id: (u.x, u.y) for u in editor.scenario.units}["a-1"] == (8, 4)
