"""The fast engine agrees with the reference on generated tables of the benchmark's scaling kind: star-shaped woods
of 10-28 vertices, rotated ellipse hills, buildings at any angle, craters; small enough to check every pair."""

import functools
import gc

import pytest

from benchmarks.generated_tables import generated_table
from referee.rules import fast_sight
from referee.rules.battlefield import Battlefield
from referee.rules.fast_sight import exposure_fast, prepare, sightlines_fast
from referee.rules.table_sight import PairSight, exposure_reference

from .test_fast_sight import assert_same_exposure, assert_same_sightlines


@pytest.mark.parametrize("units_a_side, pieces, seed", [(4, 10, 1), (6, 30, 2), (8, 60, 3), (17, 30, 4)])
def test_scaling_tables_agree_on_every_pair(units_a_side, pieces, seed):
    assert_same_sightlines(generated_table(units_a_side, pieces, seed))


def test_scaling_table_exposure_agrees():
    assert_same_exposure(generated_table(2, 30, 5), 2.0)


def test_a_rebuilt_battlefield_reuses_the_prepared_terrain_and_gives_the_same_answers():
    """The battle view builds a new battlefield per action: equal terrain finds the arrays prepared for the first."""
    first = generated_table(5, 30, 6)
    prepare(first, exposure_steps=(0.5,))
    again = generated_table(5, 30, 6)
    assert fast_sight._table(again) is fast_sight._table(first)
    assert sightlines_fast(again) == sightlines_fast(first)
    assert_same_sightlines(again)


def test_a_crowded_table_keeps_its_heap_and_gives_the_same_answers(monkeypatch):
    """From CROWDED_PAIRS pairs on, the sight lines ask the C library to keep the heap they grew to for the next
    call (a no-op where that library has no such setting): the answers stay the reference's."""
    monkeypatch.setattr(fast_sight, "CROWDED_PAIRS", 10)
    bf = generated_table(4, 10, 7)
    assert len(sightlines_fast(bf)) >= 10
    assert_same_sightlines(bf)


def test_the_sight_lines_read_as_a_list_of_records_however_they_are_read():
    """The fast engine keeps each field of the pairs as one list and makes a pair's record when it is read: read by
    index (from either end), by slice or in a loop, the records are the same ``PairSight`` values, equal to the
    reference's list."""
    bf = generated_table(6, 30, 2)
    pairs = sightlines_fast(bf)
    every = list(pairs)
    assert len(pairs) == len(every) == 72
    assert all(type(p) is PairSight for p in every)
    assert [pairs[i] for i in range(len(pairs))] == every
    assert pairs[-1] == every[-1] and pairs[-len(pairs)] == every[0]
    assert pairs[3:9] == every[3:9] and pairs[::7] == every[::7]
    assert pairs == every and every == pairs and pairs == sightlines_fast(bf)
    assert pairs != every[:-1] and pairs != "pairs"
    assert any(p.intervening for p in every) and any(len(p.corridor) > 1 for p in every)
    assert all(isinstance(p.intervening, tuple) and isinstance(p.corridor, tuple) for p in every)
    with pytest.raises(IndexError):
        pairs[len(pairs)]


@pytest.mark.parametrize("chunk", [1, 1200, 10**9])
def test_the_exposure_bounds_give_the_same_map_however_many_viewers_are_worked_at_once(monkeypatch, chunk):
    """The exposure map's bounds are worked a few viewers at a time (``BOUNDED_CHUNK`` sight lines): one viewer at a
    time, a few, or all at once, the map is the reference's."""
    bf, reference = chunked_table()
    monkeypatch.setattr(fast_sight, "BOUNDED_CHUNK", chunk)
    for side in ("A", "B"):
        fast = exposure_fast(bf, side, CHUNKED_STEP)
        assert (fast.counts, fast.prices) == reference[side], side


# The map's grid: 324 points, so 1,200 sight lines are three viewers' at a time, then two.
CHUNKED_STEP = 2.0


@functools.cache
def chunked_table() -> tuple[Battlefield, dict[str, tuple[object, object]]]:
    """The table the chunks are tried on, and the reference engine's map of it for each side (worked once)."""
    bf = generated_table(5, 30, 8)
    maps = {side: exposure_reference(bf, side, CHUNKED_STEP) for side in ("A", "B")}
    return bf, {side: (m.counts, m.prices) for side, m in maps.items()}


def test_the_sight_lines_of_64_units_a_side_leave_the_cycle_collector_next_to_nothing_to_scan():
    """The call holds the collector off and gives it back at its end: what it made and kept is then scanned at once
    if there are more than the collector's threshold (700) of them. The records, the intervening terrain's (id,
    length) entries and the missile corridors are made when a pair is read, so the call keeps a few dozen objects
    (5,600 before, each entry a tuple); the entries read are the same."""
    bf = generated_table(64, 30, 1)
    sights = sightlines_fast(bf)
    crossed = [k for k, s in enumerate(sights) if s.intervening]
    assert len(sights) == 8192 and len(crossed) > 1000
    gc.collect()
    gc.disable()
    try:
        before = gc.get_count()[0]
        again = sightlines_fast(bf)
        kept = gc.get_count()[0] - before
    finally:
        gc.enable()
    assert kept < 100, kept
    assert [again[k].intervening for k in crossed] == [sights[k].intervening for k in crossed]
    assert all(isinstance(t, str) and isinstance(x, float) for k in crossed[:50] for t, x in again[k].intervening)
