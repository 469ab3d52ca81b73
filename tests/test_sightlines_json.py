"""The sight-lines query's JSON is written without a dict a pair (``table_sight.pairs_json``): byte for byte what
``json.dumps`` writes of the pairs' dicts."""

from __future__ import annotations

import json
import math
import re

import pytest

from referee import paths
from referee.rules.battlefield import battlefield_from_scenario
from referee.rules.fast_sight import sightlines_fast
from referee.rules.scenario import load_scenario
from referee.rules.table_sight import PairSight, pairs_json, sightlines_reference
from referee.rules.whole_table import sightlines, sightlines_json

from benchmarks.standard_table import standard_scenario

from .tables import rect, unit
from .tables import unchecked_battlefield as battlefield


def _dumps(pairs):
    return json.dumps([p.as_dict() for p in pairs])


@pytest.mark.parametrize("table", sorted(p.name for p in paths.SCENARIO_DIR.iterdir() if p.suffix == ".toml"))
def test_each_bundled_tables_pairs_are_written_as_json_writes_their_dicts(table):
    path = paths.table_file(table)
    bf = battlefield_from_scenario(load_scenario(path), path.parent)
    for pairs in (sightlines_fast(bf), sightlines_reference(bf)):
        assert pairs_json(pairs) == _dumps(pairs)


def test_the_standard_tables_pairs_are_written_as_json_writes_their_dicts():
    bf = battlefield_from_scenario(standard_scenario(), paths.SCENARIO_DIR)
    pairs = sightlines_fast(bf)
    assert len(pairs) == 512 and pairs_json(pairs) == _dumps(pairs)


def test_the_whole_answer_is_the_answer_json_writes_but_for_its_computing_time():
    bf = battlefield(units=[unit("a-1", "A", 4, 4), unit("a-2", "A", 6, 30), unit("b-1", "B", 30, 30),
                            unit("b-2", "B", 20, 5)],
                     terrain=[rect("wood", "woods", 10, 10, 16, 16), rect("hill", "hills", 22, 14, 26, 24)])
    for engine in ("fast", "reference"):
        ours, theirs = sightlines_json(bf, engine), json.dumps(sightlines(bf, engine))
        assert json.loads(ours).keys() == json.loads(theirs).keys()
        assert re.sub(r'"elapsed_ms": [^,]+', "", ours) == re.sub(r'"elapsed_ms": [^,]+', "", theirs)


def test_odd_names_and_numbers_are_written_as_json_writes_them():
    pairs = [
        PairSight('a "quoted" ünit', "b\\1", 0.1 + 0.2, True, 1e-5, "light", False, 2, (("wood, thin", 1e-7),), 0.0,
                  ("b\\1", "é")),
        PairSight("a", "b", 3, False, 0, "none", True, 7, (), -1e-9, ()),
        PairSight("a", "c", 1e17, False, math.nan, "heavy", True, 1, (("x", math.inf), ("y", 2.0000005)), -math.inf,
                  ("c",)),
    ]
    assert pairs_json(pairs) == _dumps(pairs)
    assert pairs_json([]) == "[]"
