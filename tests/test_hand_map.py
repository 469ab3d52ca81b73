"""The hand's map turns a tap into the point the engine is sent: to the tenth of an inch, a tap a finger's width
outside the zone taken at its edge (one farther left for the engine to refuse), a trooper placed touching the first
unit of its square (A66), a facing counter-clockwise from +x, and each side's view of the table from its own edge.
The page's own functions, run by Node (skipped without it)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from importlib import resources

import pytest

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")

STATIC = resources.files("referee.net").joinpath("static")
# The page loads the shared map's script (map.js) before its own.
HAND_JS = "\n".join(STATIC.joinpath(name).read_text(encoding="utf-8") for name in ("map.js", "hand.js"))


def run(expression: str):
    """``expression`` evaluated beside the functions of hand.js and map.js (the page's own start waits for a document)."""
    script = ("globalThis.document = { addEventListener: () => {} };\n" + HAND_JS +
              f"\nprocess.stdout.write(JSON.stringify({expression}));\n")
    out = subprocess.run([NODE, "-"], input=script, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


def test_a_tap_goes_to_the_tenth_and_into_the_zone_within_a_finger():
    zone = [0.5, 6.5]
    got = run("[0.2, -0.4, -0.6, 3.04, 3.06, 6.93, 7.6, 12.345].map((v) => intoRange(v, [0.5, 6.5]))")
    assert got == [0.5, 0.5, -0.6, 3.0, 3.1, 6.5, 7.6, 12.3]
    assert all(zone[0] <= v <= zone[1] for v in got[:2] + got[3:6])


def test_a_trooper_is_placed_touching_the_first_of_its_square():
    first, unit = {"x": 10, "y": 10, "base": 1.0}, {"base": 1.2}
    for tap in ((13, 10), (10, 4), (8.7, 11.9), (10, 10)):
        p = run(f"touching({json.dumps(first)}, {json.dumps(unit)}, {tap[0]}, {tap[1]})")
        gap = math.hypot(p["x"] - first["x"], p["y"] - first["y"]) - (first["base"] + unit["base"]) / 2
        assert abs(gap) <= 0.01, (tap, p, gap)          # the engine's TOUCH_TOLERANCE (A66)
        if tap != (10, 10):
            assert math.isclose(math.atan2(p["y"] - 10, p["x"] - 10), math.atan2(tap[1] - 10, tap[0] - 10), abs_tol=1e-3)


def test_a_facing_and_each_sides_view():
    assert run("[bearing({x: 0, y: 0}, {x: 1, y: 1}), bearing({x: 0, y: 0}, {x: 0, y: -2}), "
               "bearing({x: 5, y: 5}, {x: 4, y: 5})]") == [45, 270, 180]
    view = '{table: {width: 36, height: 24}}'
    # Side A's edge (y = 0) at the bottom of its map; side B's view turned half round; a tap read back.
    assert run(f"[mapPoint({view}, 'A', 1, 0), mapPoint({view}, 'B', 1, 0)]") == [[1, 24], [35, 0]]
    for back in run(f"['A', 'B'].map((s) => tablePoint({view}, s, ...mapPoint({view}, s, 7.5, 3.2)))"):
        assert back == {"x": pytest.approx(7.5), "y": pytest.approx(3.2)}
