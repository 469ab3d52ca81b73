"""Preparing a table pre-faults the heap the first answer works in, in pieces the C allocator keeps.

Counted in page faults, not timed: a fresh process, a crowded table (64 units a side, whose work is larger than the
32 MB one pre-faulted block could be: glibc mapped such a block on its own and handed it back when it was freed, so
the first answer still faulted its whole work in), the table prepared as loading it does, then the first answer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, resource, sys
sys.path.insert(0, sys.argv[1])
from benchmarks.generated_tables import generated_table
from referee.rules import whole_table
from referee.rules.fast_sight import exposure_fast, sightlines_fast
bf = generated_table(int(sys.argv[2]), 30, 1)
step = float(sys.argv[3]) or None
whole_table.prepare(bf, None, (step,) if step else ())
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
exposure_fast(bf, "A", step) if step else sightlines_fast(bf)
print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before))
"""


def _first_answer_faults(units_a_side: int, step: float = 0.0) -> int:
    run = subprocess.run([sys.executable, "-c", PROBE, str(ROOT), str(units_a_side), str(step)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    return int(json.loads(run.stdout.strip().splitlines()[-1]))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heap: what the pre-faulting is for")
def test_the_first_answer_on_a_crowded_table_faults_little_of_its_work_in():
    # The work of 64 units a side is about 20 MB (5,000 pages): before, its first answer faulted 4,800 pages in.
    assert _first_answer_faults(64) < 2000
    # The exposure map's grid is pre-faulted too when the table is prepared for it (6,000 pages before).
    assert _first_answer_faults(16, 0.5) < 1000
