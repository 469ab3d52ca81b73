"""Reading the table from a photo: generated photos of known tables, with the faults of real ones.

Each photo is rendered by ``tests/capture_photos.py`` from a table whose every piece stands where the test says;
the reading must find them there (within 0.1" and 3 degrees), name what it cannot read, and offer each change as the
active unit's Move or a correction that the engine checks. The 500-photo accuracy run is ``benchmarks.capture``.
"""

from __future__ import annotations

import json
import math
import re

import cv2
import numpy as np
import pytest

from referee.capture.differences import differences, still_missing
from referee.capture.photo import load_photo, read_photo
from referee.capture.plan import plan_for
from referee.capture.sheet import markers_pdf
from referee.cli.main import main
from referee.game.battle.intents import Action
from referee.game.battle.state import state_from_scenario
from referee.paths import table_file
from referee.rules.errors import InputError
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession
from tests.capture_photos import PhotoSpec, render
from tests.tables import rect, scenario, unit


@pytest.fixture(scope="module")
def pastoral():
    state = state_from_scenario(load_scenario(table_file("pastoral-hills")))
    return state, plan_for(state)


def small_table():
    """Two units a side on an open table with a wood and a hill: a refereed battle's table."""
    return scenario(units=[unit("a-1", "A", 8, 4, facing=90), unit("a-2", "A", 26, 4, facing=90),
                           unit("b-1", "B", 10, 32, facing=270), unit("b-2", "B", 28, 32, facing=270)],
                    terrain=[rect("woods-1", "woods", 14, 14, 20, 20), rect("hill-1", "hills", 24, 20, 30, 24)])


def test_a_plain_photo_reads_every_piece_where_it_stands(pastoral):
    state, plan = pastoral
    image, truth = render(state, plan, PhotoSpec(seed=1))
    reading = read_photo(image, plan)
    assert reading.problems == []
    assert set(reading.pieces) == set(state.units) | set(state.blips) | set(state.objectives) | {
        t.id for t in state.terrain}
    # The table file's own numbers: a-assault-1 stands at (14, 6.5) facing 90, objective alpha at (8, 20).
    a = reading.pieces["a-assault-1"]
    assert abs(a.x - 14) < 0.1 and abs(a.y - 6.5) < 0.1 and abs(a.facing - 90) < 3
    assert math.hypot(reading.pieces["alpha"].x - 8, reading.pieces["alpha"].y - 20) < 0.1
    for u in state.units.values():
        r = reading.pieces[u.id]
        assert math.hypot(r.x - u.x, r.y - u.y) < 0.1
        assert abs((r.facing - u.facing + 180) % 360 - 180) < 3
    for t in state.terrain:
        read = reading.pieces[t.id].outline
        assert max(math.dist(p, (q[0], q[1])) for p, q in zip(read, t.polygon)) < 0.15


def test_a_tilted_noisy_large_photo_is_read_as_well(pastoral):
    state, plan = pastoral
    spec = PhotoSpec(width=3000, height=2250, tilt=35, turn=140, blur=1.2, noise=5, light=0.45, seed=2)
    image, truth = render(state, plan, spec)
    reading = read_photo(image, plan)
    errors = [math.hypot(reading.pieces[u.id].x - u.x, reading.pieces[u.id].y - u.y) for u in state.units.values()]
    assert max(errors) < 0.1
    assert len(reading.pieces) >= 0.97 * len(truth.pieces)


def test_no_corners_and_too_dark_and_too_blurred(pastoral):
    state, plan = pastoral
    image, _ = render(state, plan, PhotoSpec(seed=3))
    middle = np.ascontiguousarray(image[300:800, 600:1300])      # a close-up: no table corner in it
    reading = read_photo(middle, plan)
    assert not reading.usable
    assert [p.kind for p in reading.problems] == ["no-corners"]
    assert "corners were not found" in reading.problems[0].text

    dark, _ = render(state, plan, PhotoSpec(seed=3, dark=0.06))
    reading = read_photo(dark, plan)
    assert not reading.usable
    assert "too dark" in reading.problems[0].text

    blurred, _ = render(state, plan, PhotoSpec(seed=3, blur=30))
    reading = read_photo(blurred, plan)
    assert not reading.usable
    assert "too blurred" in reading.problems[0].text


def test_a_marker_seen_twice_reads_neither(pastoral):
    state, plan = pastoral
    image, truth = render(state, plan, PhotoSpec(seed=4))
    number = plan.of_piece("a-scout-1")[0].number
    quad = read_photo(image, plan).seen[number]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 4
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 4
    patch = image[y0:y1, x0:x1].copy()
    image[500:500 + patch.shape[0], 1500:1500 + patch.shape[1]] = patch      # a copy on the floor beside the table
    reading = read_photo(image, plan)
    twice = [p for p in reading.problems if p.kind == "twice"]
    assert len(twice) == 1 and twice[0].piece == "a-scout-1" and "seen 2 times" in twice[0].text
    assert "a-scout-1" not in reading.pieces


def test_a_unit_under_a_hand_is_not_found_and_ringed_on_the_photo(pastoral):
    state, plan = pastoral
    image, truth = render(state, plan, PhotoSpec(seed=5, hand=True))
    reading = read_photo(image, plan)
    missing = {p.piece: p for p in still_missing(state, reading) if p.kind == "not-found"}
    covered = {plan.markers[n].piece for n in truth.covered}
    assert missing and set(missing) <= covered
    for piece, problem in missing.items():
        if piece in state.units:
            u = state.units[piece]
            expected = cv2.perspectiveTransform(np.array([[[u.x, u.y]]], dtype=np.float64), truth.to_photo)[0, 0]
            assert math.dist(problem.at, expected) < 3          # pixels


def test_a_photo_of_another_table(pastoral):
    state, plan = pastoral
    other = state_from_scenario(load_scenario(table_file("battle-site")))
    image, _ = render(other, plan_for(other), PhotoSpec(seed=6))
    reading = read_photo(image, plan)
    assert any(p.kind == "another-table" for p in reading.problems)


def test_differences_offer_the_active_units_move_and_corrections():
    session = RefereeSession.from_scenario(small_table(), first="A")
    first = session.state.copy()
    plan = plan_for(first)
    assert session.attempt(Action("activate", "a-1", {})).legal
    table = session.state.copy()
    table.units["a-1"].y, table.units["a-1"].facing = 8.0, 90.0           # moved 4" straight ahead
    table.units["b-2"].x = 28.6                                             # knocked 0.6" to the side
    image, _ = render(table, plan, PhotoSpec(seed=7, tilt=20, turn=60), moved={"woods-1": (0.8, 0.0, 0.0)})
    diffs = {d.piece: d for d in differences(session.state, read_photo(image, plan), plan)}
    assert set(diffs) == {"a-1", "b-2", "woods-1"}
    assert diffs["a-1"].as_move and diffs["a-1"].legal
    assert diffs["a-1"].action == Action("move", "a-1", {"x": 8.0, "y": 8.0})
    assert diffs["a-1"].text == "a-1 moved 4.0\" to (8, 8), facing 90°"
    assert not diffs["b-2"].as_move and diffs["b-2"].action == Action("correct", "b-2", {"x": 28.6, "y": 32.0})
    assert diffs["woods-1"].text == "woods-1 drifted 0.8\""
    assert diffs["woods-1"].action.args["polygon"] == [[14.8, 14.0], [20.8, 14.0], [20.8, 20.0], [14.8, 20.0]]
    # Nothing changed until accepted; accepting plays the engine's own Move and corrections.
    assert session.state.units["a-1"].y == 4.0
    assert session.attempt(diffs["a-1"].action).legal
    assert session.correct("b-2", **diffs["b-2"].action.args).legal
    assert session.correct_terrain("woods-1", polygon=diffs["woods-1"].action.args["polygon"]).legal
    assert session.state.units["a-1"].y == 8.0 and session.state.units["b-2"].x == 28.6


def test_a_move_the_engine_refuses_is_shown_with_its_rule():
    session = RefereeSession.from_scenario(small_table(), first="A")
    plan = plan_for(session.state)
    assert session.attempt(Action("activate", "a-1", {})).legal
    table = session.state.copy()
    table.units["a-1"].y = 12.0                                             # 8": more than a Move's 6"
    image, _ = render(table, plan, PhotoSpec(seed=8))
    (d,) = differences(session.state, read_photo(image, plan), plan)
    assert d.as_move and not d.legal
    assert "p.18" in d.reason and "refused" in d.line()


def test_a_turn_at_the_end_of_a_move_is_its_last_leg():
    session = RefereeSession.from_scenario(small_table(), first="A")
    plan = plan_for(session.state)
    assert session.attempt(Action("activate", "a-1", {})).legal
    table = session.state.copy()
    table.units["a-1"].y, table.units["a-1"].facing = 7.0, 0.0            # 3" ahead, then faces along +x
    image, _ = render(table, plan, PhotoSpec(seed=9))
    (d,) = differences(session.state, read_photo(image, plan), plan)
    assert d.action == Action("move", "a-1", {"x": 8.0, "y": 7.0, "via": [[7.5, 7.0]]})
    assert session.attempt(d.action).legal
    assert session.state.units["a-1"].facing == 0.0


def test_a_table_s_plan_gives_each_piece_its_markers_once():
    from referee.capture.tables import open_table

    plan = open_table("pastoral-hills").plan
    kinds = [m.kind for m in plan.markers.values()]
    # 14 units, 12 blips and 5 objectives in the table file; 29 terrain pieces, two markers on each but the smallest.
    assert (kinds.count("corner"), kinds.count("unit"), kinds.count("blip"), kinds.count("objective")) == (4, 14, 12, 5)
    terrain = [m.piece for m in plan.markers.values() if m.kind == "terrain"]
    assert set(terrain) == set(plan.outlines) and len(set(terrain)) == 29
    assert all(terrain.count(t) <= 2 for t in terrain)
    assert sorted(plan.markers) == list(range(len(plan.markers)))


def test_markers_pdf_names_each_piece_at_real_size_on_a4_and_letter(pastoral):
    state, plan = pastoral
    a4 = markers_pdf(plan, "Pastoral Hills", "a4", compress=False).decode("latin-1")
    letter = markers_pdf(plan, "Pastoral Hills", "letter", compress=False).decode("latin-1")
    assert "/MediaBox [0 0 595.28 841.89]" in a4 and "/MediaBox [0 0 612.00 792.00]" in letter
    for ident in ("a-assault-1", "b-blip-3", "alpha", "woods-corner", "table corner, bottom-left"):
        assert ident in a4
    # A corner marker is 1.5" (108 pt) across: its top border is one run of 6 cells, 18 pt each.
    assert re.search(r" 108\.00 -?18\.00 re f", a4)
    # A unit's marker is 0.8" (57.6 pt): its top border, 6 cells of 9.6 pt.
    assert re.search(r" 57\.60 -?9\.60 re f", a4)


def test_markers_and_capture_commands(tmp_path, capsys):
    session = RefereeSession.from_scenario(small_table(), first="A")
    assert session.attempt(Action("activate", "a-1", {})).legal
    save = session.save(tmp_path / "battle.json")
    assert main(["markers", str(save), "--paper", "letter", "--out", str(tmp_path / "m.pdf")]) == 0
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")
    table = session.state.copy()
    table.units["a-1"].y = 7.5
    image, _ = render(table, plan_for(session.state), PhotoSpec(seed=10))
    cv2.imwrite(str(tmp_path / "photo.png"), image)
    capsys.readouterr()
    assert main(["capture", str(tmp_path / "photo.png"), "--battle", str(save), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [d["action"] for d in out["differences"]] == [{"kind": "move", "actor": "a-1", "args": {"x": 8.0, "y": 7.5}}]
    assert main(["capture", str(tmp_path / "photo.png"), "--battle", str(save), "--accept", "all",
                 "--out", str(tmp_path / "after.json")]) == 0
    after = json.loads((tmp_path / "after.json").read_text())
    assert after["record"][-1]["action"] == {"kind": "move", "actor": "a-1", "args": {"x": 8.0, "y": 7.5}}
    # The battle itself is untouched.
    assert json.loads(save.read_text())["record"][-1]["action"]["kind"] == "activate"


def test_a_broken_photo_file_is_named(tmp_path, capsys):
    bad = tmp_path / "photo.jpg"
    bad.write_text("not a photo")
    with pytest.raises(InputError, match="photo.jpg"):
        load_photo(bad)
    assert main(["capture", str(bad)]) == 2
    assert "not a photo OpenCV can read" in capsys.readouterr().err
