"""The table scene driven by synthetic events: what it shows must be what the rules functions say."""

import math
from pathlib import Path

import pygame
import pytest

from referee.rules.geometry import closest_points
from referee.rules.movement import jump, move
from referee.rules.ranges import band_index, measure
from referee.rules.sight import cover, line_of_sight
from referee.rules.targeting import target_price
from referee.ui import panels
from referee.ui.app import App
from referee.ui.intents import Intent
from referee.rules.questions import RulerEnd
from referee.ui.scenes.help import HelpScene
from referee.ui.scenes.table import TableScene
from referee.ui.scenes.table_common import JUMP, MOVE, RULER, SELECT
from referee.ui.scenes.table_tools import snap
from referee.ui.table_data import load_table
from referee.ui.widgets import Text

TABLE = Path(__file__).with_name("table.toml")


@pytest.fixture(scope="module")
def app():
    sent = []
    a = App((1280, 800), on_intent=sent.append)
    a.sent = sent
    yield a
    pygame.quit()


@pytest.fixture(scope="module")
def table():
    return load_table(TABLE)


@pytest.fixture
def scene(app, table):
    while len(app.stack):
        app.stack.pop()
    app.running = True
    app.sent.clear()
    s = app.push(TableScene(table))
    yield s
    while len(app.stack):
        app.stack.pop()


def at(scene, ident):
    p = scene.table.bf.pieces[ident]
    return tuple(round(v) for v in scene.view.to_screen(p.x, p.y))


def send(app, kind, **attrs):
    app.dispatch(pygame.event.Event(kind, **attrs))


def hover(app, pos):
    send(app, pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def click(app, pos, button=1):
    hover(app, pos)
    send(app, pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
    send(app, pygame.MOUSEBUTTONUP, pos=pos, button=button)


def drag(app, start, end, button=1):
    hover(app, start)
    send(app, pygame.MOUSEBUTTONDOWN, pos=start, button=button)
    mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    send(app, pygame.MOUSEMOTION, pos=mid, rel=(mid[0] - start[0], mid[1] - start[1]), buttons=(1, 0, 0))
    send(app, pygame.MOUSEMOTION, pos=end, rel=(end[0] - mid[0], end[1] - mid[1]), buttons=(1, 0, 0))
    send(app, pygame.MOUSEBUTTONUP, pos=end, button=button)


def key(app, k, mod=0):
    send(app, pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)
    send(app, pygame.KEYUP, key=k, mod=mod, scancode=0)


def empty_spot(scene):
    """A screen point on the table with no piece under it."""
    for x in range(2, 34):
        for y in range(2, 34):
            pos = tuple(round(v) for v in scene.view.to_screen(x + 0.5, y + 0.5))
            if scene.piece_at(pos) is None:
                return pos
    raise AssertionError("no empty spot")


def block_text(scene, other):
    block = next(b for b in scene.panel_blocks if b.key == f"pair:{other}")
    return " ".join(it.text for it in block.items if isinstance(it, Text))


# ---- selecting ----------------------------------------------------------------------------------------------------


def test_clicking_a_unit_selects_it(app, scene):
    click(app, at(scene, "a-tac-1"))
    assert scene.selected == "a-tac-1"
    assert scene.report is not None and scene.report.piece == "a-tac-1"
    assert scene.log_title.startswith("a-tac-1")
    app.render()


def test_click_on_nothing_is_harmless(app, scene, table):
    click(app, at(scene, "a-tac-1"))
    before = {p.id: (p.x, p.y, p.target_counters) for p in table.bf.pieces.values()}
    click(app, empty_spot(scene))
    assert scene.selected is None and scene.report is None
    click(app, (5, 5))                                  # the status bar
    click(app, (scene.layout.side.x + 20, scene.layout.side.bottom - 5))    # the log
    click(app, empty_spot(scene), button=3)             # a right click is the start of a pan
    send(app, pygame.MOUSEWHEEL, x=0, y=1, flipped=False)
    key(app, pygame.K_RETURN)                           # nothing to confirm
    key(app, pygame.K_m)                                # move needs a selection: explained, no crash
    assert scene.tool == SELECT
    app.render()
    assert app.running
    assert before == {p.id: (p.x, p.y, p.target_counters) for p in table.bf.pieces.values()}
    assert app.sent == []


def test_side_panel_lists_every_enemy_with_the_rules_numbers(app, scene, table):
    bf = table.bf
    click(app, at(scene, "a-tac-1"))
    actor = bf.pieces["a-tac-1"]
    enemies = bf.enemies_of("A")
    assert sorted(r.other for r in scene.report.enemies) == sorted(e.id for e in enemies)
    for enemy in enemies:
        pair = scene.report.pair(enemy.id)
        tp = target_price(bf, actor, enemy)
        assert (pair.target.allowed, pair.target.reason, pair.target.price, pair.target.band, pair.target.eaten,
                pair.target.in_arc) == (tp.allowed, tp.reason, tp.price, tp.band, tp.eaten, tp.in_arc)
        assert pair.target.explain == tp.explain
        los = line_of_sight(bf, actor, enemy)
        assert (pair.los.visible, pair.los.hidden_fraction, pair.los.blocked_by) == (
            los.visible, los.hidden_fraction, los.blocked_by)
        cov = cover(bf, actor, enemy)
        assert (pair.cover.target_cover, pair.cover.blocked, pair.cover.penalty) == (
            cov.target_cover, cov.blocked, cov.penalty)
        assert pair.distance == measure(bf, actor, enemy).distance
        text = block_text(scene, enemy.id)
        if tp.allowed:
            assert f"{tp.price} pt" in text and f"band {tp.band}" in text
        else:
            assert "Target: not allowed" in text


def test_side_panel_rifle_numbers_are_rifle_shot(app, scene, table):
    pytest.importorskip("referee.rules.odds")
    from referee.rules.rifle import rifle_shot

    bf = table.bf
    for shooter_id in ("a-tac-1", "b-tac-2", "a-sct"):
        click(app, at(scene, shooter_id))
        shooter = bf.pieces[shooter_id]
        for enemy in bf.enemies_of(shooter.side):
            pair = scene.report.pair(enemy.id)
            shot = rifle_shot(bf, shooter, enemy)
            assert (pair.rifle.allowed, pair.rifle.dice, pair.rifle.p_kill, pair.rifle.p_graze) == (
                shot.allowed, shot.dice, shot.p_kill, shot.p_graze)
            assert pair.rifle.explain == shot.explain
            text = block_text(scene, enemy.id)
            if shot.allowed:
                assert panels.percent(shot.p_kill) in text


def test_hovering_an_enemy_highlights_the_sight_line(app, scene, table):
    click(app, at(scene, "a-tac-1"))
    hover(app, at(scene, "b-kam"))
    assert scene.hover == "b-kam"
    pair = scene.pair("b-kam")
    a, b = table.bf.pieces["a-tac-1"], table.bf.pieces["b-kam"]
    cp = closest_points(a.x, a.y, a.radius, b.x, b.y, b.radius)
    assert (pair.sight_start, pair.sight_end) == (cp.start, cp.end)
    expected = "blocked" if (not pair.los.visible or pair.cover.blocked) else None
    if expected:
        assert pair.sight == expected
    lines = panels.tooltip_lines(table, pair)
    assert any(panels.target_text(pair) == (ln if isinstance(ln, str) else ln[0]) for ln in lines)
    app.render()


def test_clicking_an_enemy_row_shows_its_working(app, scene):
    click(app, at(scene, "a-tac-1"))
    block = next(b for b in scene.panel_blocks if b.key == "pair:b-tac-2")
    pos = (scene.layout.panel.x + 40, scene.layout.panel.y + block.y - scene.panel_scroll + 10)
    if not scene.layout.panel.collidepoint(pos):
        scene.panel_scroll = block.y
        pos = (scene.layout.panel.x + 40, scene.layout.panel.y + 10)
    click(app, pos)
    assert "b-tac-2" in scene.expanded
    pair = scene.pair("b-tac-2")
    assert scene.log_lines == pair.explain()[1:]
    assert any(str(s) in scene.log_lines or f"  {s}" in scene.log_lines for s in pair.target.explain)
    app.render()


# ---- the ruler ----------------------------------------------------------------------------------------------------


def test_ruler_between_units_is_measure(app, scene, table):
    bf = table.bf
    key(app, pygame.K_r)
    assert scene.tool == RULER
    drag(app, at(scene, "a-tac-1"), at(scene, "b-asl"))
    r = scene.ruler_result
    m = measure(bf, bf.pieces["a-tac-1"], bf.pieces["b-asl"])
    assert r.distance == m.distance
    assert r.band_6 == band_index(bf, m.distance, 6.0) and r.band_12 == band_index(bf, m.distance, 12.0)
    assert r.range.target_band == m.target_band and r.range.rifle_band == m.rifle_band
    app.render()


def test_ruler_between_points_is_point_to_point(app, scene):
    key(app, pygame.K_r)
    a, b = (200, 300), (420, 520)
    assert scene.piece_at(a) is None and scene.piece_at(b) is None
    drag(app, a, b)
    ta, tb = scene.view.to_table(*a), scene.view.to_table(*b)
    assert scene.ruler_result.distance == pytest.approx(math.dist(ta, tb), abs=1e-9)
    assert scene.ruler_a.piece is None and scene.ruler_b.piece is None
    direct = scene.measure_between(RulerEnd(*ta), RulerEnd(*tb))
    assert direct.distance == pytest.approx(math.dist(ta, tb), abs=1e-9)


# ---- zoom and pan -------------------------------------------------------------------------------------------------


def test_view_round_trip_and_zoom_pan(app, scene):
    v = scene.view
    for sx, sy in [(100, 100), (333, 517), (640.5, 77.25)]:
        tx, ty = v.to_table(sx, sy)
        assert v.to_screen(tx, ty) == pytest.approx((sx, sy), abs=1e-9)
    for x, y in [(0, 0), (36, 36), (12.25, 7.5)]:
        assert v.to_table(*v.to_screen(x, y)) == pytest.approx((x, y), abs=1e-9)
    # side A (y = 0) is at the bottom of the screen
    assert v.to_screen(0, 0)[1] > v.to_screen(0, 36)[1]

    before = v.copy()
    pos = at(scene, "a-tac-1")
    hover(app, pos)
    anchor = v.to_table(*pos)
    send(app, pygame.MOUSEWHEEL, x=0, y=2, flipped=False)
    assert v.scale > before.scale
    assert v.to_table(*pos) == pytest.approx(anchor, abs=1e-9)      # the point under the mouse stays put
    scale = v.scale
    key(app, pygame.K_MINUS)
    assert v.scale < scale
    key(app, pygame.K_EQUALS)
    ox, oy = v.ox, v.oy
    key(app, pygame.K_LEFT)
    assert v.ox == ox + 48
    drag(app, (300, 300), (340, 280), button=3)
    assert (v.ox, v.oy) == pytest.approx((ox + 48 + 40, oy - 20))
    assert not scene.fitted
    key(app, pygame.K_f)
    assert (v.scale, v.ox, v.oy) == pytest.approx((before.scale, before.ox, before.oy))
    for x, y in [(0, 0), (36, 36), (12.25, 7.5)]:
        assert v.to_table(*v.to_screen(x, y)) == pytest.approx((x, y), abs=1e-9)


def test_resize_refits_the_table(app, scene):
    send(app, pygame.VIDEORESIZE, w=1000, h=700, size=(1000, 700))
    assert app.size == (1000, 700)
    assert scene.layout.side.right == 1000
    x0, y0 = scene.view.to_screen(0, 36)
    x1, y1 = scene.view.to_screen(36, 0)
    assert scene.layout.table.contains(pygame.Rect(x0, y0, x1 - x0, y1 - y0))
    app.render()
    send(app, pygame.VIDEORESIZE, w=1280, h=800, size=(1280, 800))


# ---- move and jump previews ---------------------------------------------------------------------------------------


def test_move_preview_is_the_rules_move_and_confirms_as_an_intent(app, scene, table):
    bf = table.bf
    click(app, at(scene, "a-sct"))
    key(app, pygame.K_m)
    assert scene.tool == MOVE
    target = tuple(round(v) for v in scene.view.to_screen(26.0, 12.0))
    drag(app, at(scene, "a-sct"), target)
    point = snap(scene.view.to_table(*target))          # a click goes to the nearest tenth of an inch
    expected = move(bf, bf.pieces["a-sct"], [point])
    r = scene.move_result
    assert (r.legal, r.reason, r.cost, r.removes, r.end, r.facing) == (
        expected.legal, expected.reason, expected.cost, expected.removes, expected.end, expected.facing)
    assert r.legal
    app.render()
    key(app, pygame.K_RETURN)
    assert app.sent == [Intent("move", "a-sct", (point,))]
    assert app.sent[0].action_data() == {"kind": "move", "actor": "a-sct", "args": {"x": point[0], "y": point[1]}}
    assert (bf.pieces["a-sct"].x, bf.pieces["a-sct"].y) == (24, 9)          # nothing was committed


def test_illegal_move_preview_is_not_sent(app, scene, table):
    bf = table.bf
    click(app, at(scene, "a-sct"))
    key(app, pygame.K_m)
    waypoints = [(22.0, 12.0), (19.0, 14.5)]
    for w in waypoints:
        click(app, tuple(round(v) for v in scene.view.to_screen(*w)))
    points = scene.waypoints
    assert len(points) == 2
    expected = move(bf, bf.pieces["a-sct"], points)
    assert scene.move_result.legal == expected.legal is False
    assert scene.move_result.reason == expected.reason
    app.render()
    key(app, pygame.K_RETURN)
    assert app.sent == []
    key(app, pygame.K_BACKSPACE)
    assert scene.waypoints == points[:1]
    assert scene.move_result.legal == move(bf, bf.pieces["a-sct"], points[:1]).legal
    key(app, pygame.K_ESCAPE)
    assert scene.tool == SELECT and scene.selected == "a-sct"


def test_jump_preview_is_the_rules_jump(app, scene, table):
    bf = table.bf
    click(app, at(scene, "a-sct"))
    key(app, pygame.K_j)
    assert scene.tool == JUMP
    pos = tuple(round(v) for v in scene.view.to_screen(27.0, 16.0))
    click(app, pos)
    point = snap(scene.view.to_table(*pos))
    expected = jump(bf, bf.pieces["a-sct"], *point)
    r = scene.jump_result
    assert (r.legal, r.reason, r.cost, r.removes, r.adds) == (
        expected.legal, expected.reason, expected.cost, expected.removes, expected.adds)
    app.render()
    key(app, pygame.K_RETURN)
    assert [i.kind for i in app.sent] == (["jump"] if expected.legal else [])


# ---- keys and overlays --------------------------------------------------------------------------------------------


def test_help_overlay_opens_and_closes(app, scene):
    key(app, pygame.K_h)
    assert isinstance(app.scene, HelpScene)
    assert app.stack.visible() == [scene, app.scene]
    app.render()
    key(app, pygame.K_SPACE)
    assert app.scene is scene


def test_escape_leaves_tool_then_selection_then_table(app, scene):
    click(app, at(scene, "a-tac-1"))
    key(app, pygame.K_r)
    key(app, pygame.K_ESCAPE)
    assert scene.tool == SELECT and scene.selected == "a-tac-1"
    key(app, pygame.K_ESCAPE)
    assert scene.selected is None
    key(app, pygame.K_TAB)
    assert scene.selected is not None
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_ESCAPE)
    assert app.scene is not scene


def test_every_kind_of_piece_can_be_selected_and_drawn(app, scene, table):
    one_of_each = {}
    for p in table.bf.pieces.values():
        one_of_each.setdefault(p.unit_type or p.kind, p.id)
    for ident in ("a-hay", "b-blip-5", "alpha", "b-tac-2"):
        one_of_each.setdefault(ident, ident)
    for ident in sorted(set(one_of_each.values()) & {"a-hay", "b-blip-5", "alpha", "b-tac-2", "a-rec", "b-kam"}):
        scene.select(ident)
        assert scene.selected == ident and scene.report is not None and scene.report.piece == ident
        app.render()
    scene.select(None)
    assert scene.report is None


def test_the_log_wraps_as_a_whole_whether_it_grew_changed_or_the_panel_resized(app, scene):
    """Wrapping only the new lines (or reusing each line's wrapping) gives what wrapping the whole log gives."""
    long = "a line long enough to be wrapped over several lines of the log panel " * 4
    width = scene.layout.log.w - 2 * panels.PAD
    first = [f"[round 1] {long}", "    working of the first", "[round 1] short"]
    scene.set_log("Battle log", first)
    assert scene.log_wrapped == panels.log_lines(first, width)
    grown = first + [f"[round 2] {long} more", "    working"]
    scene.set_log("Battle log", grown)
    assert scene.log_wrapped == panels.log_lines(grown, width)
    other = [grown[0], "[round 1] short (only you: a note)"] + grown[3:]
    scene.set_log("Battle log", other)
    assert scene.log_wrapped == panels.log_lines(other, width)
    scene.on_resize((1000, 700))
    narrow = scene.layout.log.w - 2 * panels.PAD
    assert narrow != width
    scene.set_log("Battle log", other + ["[round 3] last"])
    assert scene.log_wrapped == panels.log_lines(other + ["[round 3] last"], narrow)
    assert len(scene.log_wrapped) > len(other) + 1
