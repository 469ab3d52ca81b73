"""The board (the table under the tools' previews) is kept as one picture between frames: every frame drawn from it
is the frame drawn in full, and a new selection, hover, table or view draws it again."""

import dataclasses
from pathlib import Path

import pygame
import pytest

from referee.ui import exposure
from referee.ui.scenes import table_drawing
from referee.ui.scenes.table import TableScene
from referee.ui.table_data import load_table

TABLE = Path(__file__).with_name("table.toml")


@pytest.fixture
def scene(fresh):
    s = fresh.push(TableScene(load_table(TABLE)))
    fresh.step(1 / 60, events=[])
    return s


def frame(app) -> bytes:
    app.render()
    return pygame.image.tobytes(app.screen, "RGB")


def in_full(app, scene) -> bytes:
    scene._board = None                       # nothing kept: the board is drawn piece by piece
    return frame(app)


def test_a_frame_from_the_kept_board_is_the_frame_drawn_in_full(fresh, scene):
    bf = scene.table.bf
    me = next(p for p in bf.pieces.values() if p.is_trooper)
    others = [p.id for p in bf.pieces.values() if p.id != me.id]
    far = bf.pieces[others[-1]]
    # A new table, as after an action: one piece moved (the battle's tables are replaced, never changed).
    moved = dataclasses.replace(scene.table, battlefield=exposure.moved(bf, far.id, (far.x + 1.5, far.y), None))
    steps = [lambda: scene.select(me.id), lambda: setattr(scene, "hover", others[0]),
             lambda: setattr(scene, "hover", others[1]), lambda: scene.pan(30, -12),
             lambda: setattr(scene, "table", moved), lambda: scene.select(None)]
    before = frame(fresh)
    for change in steps:
        kept = scene._board
        change()
        fresh.step(1 / 60, events=[])
        shown = frame(fresh)
        assert scene._board is not None and scene._board[0] is not kept[0]     # drawn again for the change
        assert shown != before                                                 # and the change is on the screen
        again = frame(fresh)
        assert again == shown and scene._board[1] is not None                  # the next frame: the same picture
        assert in_full(fresh, scene) == shown
        before = shown


def test_the_board_is_drawn_again_only_when_what_it_shows_changes(fresh, scene):
    frame(fresh)
    kept = scene._board
    frame(fresh)
    assert scene._board is kept
    scene.mouse = (scene.layout.table.centerx + 5, scene.layout.table.centery)   # the mouse alone: not the board
    frame(fresh)
    assert scene._board is kept
    key = table_drawing.board_key(scene)
    scene.hover = next(iter(scene.table.bf.pieces))
    assert not table_drawing._same(key, table_drawing.board_key(scene))
