"""The exposure overlay of the table view: the engine's own numbers, computed off the drawing thread."""

import threading
import time
from pathlib import Path

import numpy as np
import pygame
import pytest

from referee.rules.whole_table import exposure
from referee.ui import keys
from referee.ui.exposure import ExposureOverlay, ExposureWorker, moved, show_now, table_key
from referee.ui.scenes.table import TableScene
from referee.ui.scenes.table_common import MOVE
from referee.ui.table_data import load_table

TABLE = Path(__file__).with_name("table.toml")


@pytest.fixture(scope="module")
def table():
    return load_table(TABLE)


@pytest.fixture
def scene(app, table):
    while len(app.stack):
        app.stack.pop()
    app.running = True
    s = app.push(TableScene(table))
    yield s
    s.exposure.worker.stop()
    while len(app.stack):
        app.stack.pop()


def key(app, k, mod=0):
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))


def hover(app, pos):
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))


def settle(app, scene, timeout=30.0):
    """Run frames until the overlay's map is the one wanted (the test waits; the view never does)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.step(1 / 60, events=[])
        scene.exposure.worker.wait(timeout)
        app.step(1 / 60, events=[])
        if scene.exposure.up_to_date:
            return scene.exposure.current
    raise AssertionError("the exposure map never arrived")


def assert_same_as_engine(m, bf, side):
    out = exposure(bf, side, 0.5)
    assert m.side == side and m.step == out["step"]
    assert m.counts.tolist() == out["counts"]
    assert [[None if v < 0 else v for v in row] for row in m.prices.tolist()] == out["prices"]


# ---- switching -------------------------------------------------------------------------------------------------

def test_e_toggles_the_overlay_and_shift_e_steps_through_the_sides(app, scene):
    assert not scene.exposure.enabled
    key(app, pygame.K_e)
    assert scene.exposure.enabled and scene.log_title == "Exposure map"
    key(app, pygame.K_e)
    assert not scene.exposure.enabled
    key(app, pygame.K_e, pygame.KMOD_SHIFT)
    assert scene.exposure.enabled and scene.exposure.chosen_side == "A"
    key(app, pygame.K_e, pygame.KMOD_SHIFT)
    assert scene.exposure.chosen_side == "B"
    key(app, pygame.K_e, pygame.KMOD_SHIFT)
    assert scene.exposure.chosen_side is None


def test_the_key_is_in_the_help():
    rows = [k for _, group in keys.help_groups(TableScene.key_table) for k, _ in group]
    assert "E / Shift+E" in rows


def test_off_means_no_thread_and_no_drawing(app, scene):
    app.step(1 / 60, events=[])
    assert scene.exposure.worker.wanted is None and not scene.exposure.worker.busy
    assert scene.exposure.current is None


# ---- the numbers are the engine's --------------------------------------------------------------------------------

def test_the_overlay_counts_and_prices_are_the_exposure_query(app, scene):
    key(app, pygame.K_e)
    m = settle(app, scene)
    assert m.error == ""
    assert (m.columns, m.rows) == (72, 72)
    assert_same_as_engine(m, scene.table.bf, "A")
    assert m.counts.max() > 0 and (m.prices >= 0).any()


def test_the_side_follows_the_selected_unit(app, scene):
    key(app, pygame.K_e)
    scene.select("b-cmd")
    m = settle(app, scene)
    assert_same_as_engine(m, scene.table.bf, "B")


def test_the_map_follows_a_move_preview(app, scene):
    """With side A's map shown, previewing a move of a side B unit changes who watches where."""
    scene.select("b-tac-2")
    key(app, pygame.K_e, pygame.KMOD_SHIFT)              # side A, whatever is selected
    first = settle(app, scene)
    scene.set_tool(MOVE)
    target = (20.0, 18.0)
    hover(app, tuple(round(v) for v in scene.view.to_screen(*target)))
    assert scene.cursor_result is not None and scene.cursor_result.legal
    m = settle(app, scene)
    r = scene.cursor_result
    bf = moved(scene.table.bf, "b-tac-2", r.end, r.facing)
    assert bf.pieces["b-tac-2"].x == pytest.approx(r.end[0]) and scene.table.bf.pieces["b-tac-2"].x == 22
    assert m is not first
    assert_same_as_engine(m, bf, "A")
    assert m.counts.tolist() != first.counts.tolist()


def test_hovering_a_cell_reads_its_numbers(app, scene):
    show_now(scene, "A")
    m = scene.exposure.current
    x, y = 14.2, 17.9                   # the cell centred on (14.25, 17.75)
    pos = tuple(round(v) for v in scene.view.to_screen(x, y))
    tx, ty = scene.view.to_table(*pos)
    count, price = m.at(tx, ty)
    lines = scene.exposure.hover_lines(scene.view, pos)
    assert f"seen by {count} enem" in lines[0] or (count == 0 and "seen by no enemy" in lines[0])
    if price is None:
        assert lines[1] == "no enemy can Target it"
    else:
        assert lines[1].startswith(f"cheapest Target counter {price} pt")


def test_the_heat_is_drawn_under_the_pieces(app, scene):
    before = app.render().copy()
    show_now(scene, "A")
    app.step(1 / 60, events=[])
    after = app.render()
    m = scene.exposure.current
    # An open cell far from every piece changes colour toward its heat colour.
    x, y = 18.25, 16.25
    px = tuple(round(v) for v in scene.view.to_screen(x, y))
    assert before.get_at(px) != after.get_at(px)
    assert m.at(x, y) is not None


# ---- the drawing thread never waits ------------------------------------------------------------------------------

class Gate:
    """A compute function that waits until released, counting its calls (stands in for a slow machine)."""

    def __init__(self):
        self.release = threading.Event()
        self.entered = threading.Event()
        self.calls = []

    def __call__(self, bf, side, step):
        self.calls.append(side)
        self.entered.set()
        assert self.release.wait(30)
        return exposure(bf, side, step)


def test_drawing_never_waits_for_the_computation(app, scene):
    gate = Gate()
    scene.exposure = ExposureOverlay(compute=gate)
    key(app, pygame.K_e)
    app.step(1 / 60, events=[])                # the first frame asks for the map
    # The worker thread may start late on a busy machine: the frames below are drawn once it is stuck in the gate.
    assert gate.entered.wait(30)
    for _ in range(5):
        app.step(1 / 60, events=[])            # update asks, draw draws: the computation is stuck meanwhile
    # A frame that waited would have outlasted the gate's 30 s, failing the computation and ending it: five frames
    # drawn while it is still asked once and still busy show that none of them waited, with no clock involved.
    assert gate.calls == ["A"] and not gate.release.is_set()
    assert scene.exposure.worker.busy and scene.exposure.current is None
    gate.release.set()
    m = settle(app, scene)
    assert_same_as_engine(m, scene.table.bf, "A")


def test_a_newer_table_replaces_a_waiting_request_and_the_last_map_stays_shown(table):
    gate = Gate()
    worker = ExposureWorker(compute=gate)
    bf = table.bf
    keys = []
    for k, x in enumerate((20.0, 21.0, 22.0)):
        b = moved(bf, "b-tac-2", (x, 22.0), None)
        keys.append(table_key(b, "A", 3.0))
        assert worker.request(keys[-1], b, "A", 3.0)
        if k == 0:
            for _ in range(200):                # the first one is running (stuck at the gate)
                if gate.calls:
                    break
                time.sleep(0.01)
    assert not worker.request(keys[-1], b, "A", 3.0)          # the same table again: nothing new
    assert worker.dropped == 1 and worker.result is None      # the middle one never started
    gate.release.set()
    assert worker.wait(30)
    assert len(gate.calls) == 2 and worker.finished == 2
    assert worker.result.key == keys[-1]
    assert worker.result.counts.tolist() == exposure(b, "A", 3.0)["counts"]
    worker.stop()


def test_a_failing_computation_is_shown_not_raised(app, scene):
    def broken(bf, side, step):
        raise RuntimeError("no map today")

    scene.exposure = ExposureOverlay(compute=broken)
    key(app, pygame.K_e)
    app.step(1 / 60, events=[])
    assert scene.exposure.worker.wait(10)
    app.step(1 / 60, events=[])
    assert "no map today" in scene.exposure.current.error
    assert np.size(scene.exposure.current.counts) == 0


def test_dragging_a_friendly_unit_asks_for_nothing_new(app, scene):
    """Only the enemies (and jammer fields) decide the map: moving one of the shown side's own troopers does not."""
    scene.select("a-tac-1")
    key(app, pygame.K_e)
    first = settle(app, scene)
    finished = scene.exposure.worker.finished
    scene.set_tool(MOVE)
    hover(app, tuple(round(v) for v in scene.view.to_screen(15.0, 10.0)))
    assert scene.cursor_result is not None and scene.cursor_result.legal
    assert scene.exposure.preview_of(scene) is not None
    app.step(1 / 60, events=[])
    assert scene.exposure.worker.wait(30)
    assert scene.exposure.worker.finished == finished and scene.exposure.current is first
