"""A battlefield is handed out again for a table that stands the same, and never for one that changed."""

import random
import tomllib
from dataclasses import replace

import shapely

from referee.game.battle.dice import ScriptedDice
from referee.game.play.engine import begin_battle, play
from referee.game.battle.intents import Action
from referee.game.battle.state import state_from_scenario
from referee.rules import movement
from referee.rules.battlefield import battlefield_from_scenario
from referee.rules.movement import move, path_distance
from referee.rules.scenario import load_scenario
from referee import paths
from referee.rules.scenario import parse_scenario
from referee.rules.targeting import target_price

TABLE = """
name = "two tacticals"
table = { width = 36, height = 36 }
[[units]]
id = "a-tactical-1"
side = "A"
faction = "new-tokyo"
type = "tactical"
rating = "veteran"
x = 8
y = 6
[[units]]
id = "a-tactical-2"
side = "A"
faction = "new-tokyo"
type = "tactical"
rating = "veteran"
x = 8
y = 10
[[units]]
id = "b-tactical-1"
side = "B"
faction = "new-tokyo"
type = "tactical"
rating = "veteran"
x = 9
y = 26
"""


def state():
    return begin_battle(state_from_scenario(parse_scenario(tomllib.loads(TABLE), "two tacticals")), "A")


def test_a_copy_of_a_state_gets_the_same_battlefield_and_a_changed_one_a_new_one():
    s = state()
    bf = s.battlefield()
    assert s.copy().battlefield() is bf
    moved = s.copy()
    moved.units["a-tactical-1"].x = 12.0
    other = moved.battlefield()
    assert other is not bf
    assert other.pieces["a-tactical-1"].x == 12.0 and bf.pieces["a-tactical-1"].x == 8.0
    countered = s.copy()
    countered.units["b-tactical-1"].target_counters = 3
    assert countered.battlefield().pieces["b-tactical-1"].target_counters == 3
    assert bf.pieces["b-tactical-1"].target_counters == 0


def test_a_move_through_a_unit_is_refused_every_time_it_is_asked():
    s = state()
    bf = s.battlefield()
    mover = bf.pieces["a-tactical-1"]
    # Straight up from (8, 6) to (8, 12) runs through a-tactical-2 at (8, 10) [p.18].
    for _ in range(2):
        r = move(bf, mover, [(8.0, 12.0)])
        assert not r.legal and "a-tactical-2" in r.reason
    # Round it, the same length, is allowed; a piece not of the battlefield is worked out afresh.
    assert move(bf, mover, [(10.0, 8.0), (10.0, 11.0)]).legal


def test_after_a_move_the_table_shows_the_unit_where_it_went():
    s = play(state(), Action("activate", "a-tactical-1"), ScriptedDice([])).state
    out = play(s, Action("move", "a-tactical-1", {"x": 12.0, "y": 6.0}), ScriptedDice([]))
    assert out.legal
    assert out.state.battlefield().pieces["a-tactical-1"].x == 12.0
    assert s.battlefield().pieces["a-tactical-1"].x == 8.0


def test_a_path_s_distance_from_each_piece_is_shapely_s_to_the_last_digit():
    # The Move's check measures the pieces against its path with plain arithmetic, as GEOS does: the same figures,
    # so a base that grazes a unit is refused or allowed as before.
    rng = random.Random(7)
    for _ in range(300):
        path = [(rng.uniform(0, 36), rng.uniform(0, 36)) for _ in range(rng.randint(2, 4))]
        if rng.random() < 0.3:
            path = [(round(x, 1), round(y, 1)) for x, y in path] + [(round(path[-1][0], 1), round(path[-1][1], 1))]
        points = [(rng.uniform(0, 36), rng.uniform(0, 36)) for _ in range(8)] + list(path)
        expected = shapely.distance(shapely.LineString(path), shapely.points(points)).tolist()
        assert [path_distance(path, x, y) for x, y in points] == expected


def _shapely_spans(a, b, geometry):
    """A segment's spans inside a polygon as shapely gives them: each part of the cut with a length, from the least
    to the most of the segment (``project``, normalized) its points lie along."""
    seg = shapely.LineString([a, b])
    spans = []
    if shapely.intersects(geometry, seg):
        for piece in shapely.get_parts(geometry.intersection(seg)):
            if piece.length > 0:
                ts = [seg.project(shapely.Point(c), normalized=True) for c in piece.coords]
                spans.append((min(ts), max(ts)))
    return spans


def _point_near(rng, f):
    """A point by a terrain piece: one of its corners, a point along a line between two of them, a point on a tenth
    of an inch, or anywhere around it."""
    x0, y0, x1, y1 = f.box
    corners = list(f.geometry.exterior.coords)
    r = rng.random()
    if r < 0.2:
        return tuple(rng.choice(corners))
    if r < 0.35:
        (ux, uy), (vx, vy) = rng.sample(corners, 2)
        t = rng.random()
        return (ux + t * (vx - ux), uy + t * (vy - uy))
    if r < 0.45:
        return (round(rng.uniform(x0 - 3, x1 + 3), 1), round(rng.uniform(y0 - 3, y1 + 3), 1))
    return (rng.uniform(x0 - 6, x1 + 6), rng.uniform(y0 - 6, y1 + 6))


def test_a_segment_s_spans_in_a_terrain_piece_are_shapely_s_to_the_last_digit():
    # A Move's cost in hindering terrain reads where the path enters and leaves each piece: worked out from the cut's
    # points as GEOS projects them, the same figures, on the bundled tables' pieces, through their corners and along
    # their edges too.
    rng = random.Random(11)
    features = [f for name in ("pastoral-hills", "blasted-urban")
                for f in battlefield_from_scenario(load_scenario(paths.table_file(name))).terrain if f.circle is None]
    checked = 0
    for _ in range(3000):
        f = rng.choice(features)
        a, b = _point_near(rng, f), _point_near(rng, f)
        if a == b:
            continue
        movement._SPANS.clear()
        assert movement._polygon_spans(a, b, f) == _shapely_spans(a, b, f.geometry), (a, b, f.id)
        checked += 1
    assert checked > 2500


def test_a_target_price_is_worked_out_once_on_a_battlefield_and_afresh_for_a_piece_from_elsewhere():
    bf = state().battlefield()
    a, b = bf.pieces["a-tactical-1"], bf.pieces["b-tactical-1"]
    first = target_price(bf, a, b)
    assert target_price(bf, a, b) is first
    moved = replace(b, y=20.0)
    other = target_price(bf, a, moved)
    assert other is not first and other.explain != first.explain
