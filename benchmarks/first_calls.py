"""What players meet: each question's first call in a fresh process, and the calls after it, on the bundled tables
and on generated dense tables (30 terrain pieces, 16 and 64 units a side).

A player opens a table and asks one question: that first answer is what they wait for, so each figure here is
measured in a process of its own, started fresh (the table loaded and prepared as the query command and the window
prepare it, then the question asked once and timed, then asked again). Several processes per figure; the median of
each is reported, in CPU time (a busy machine inflates it far less than the wall clock) beside the wall clock.

``python -m benchmarks.first_calls`` prints the figures alone (``--quick``, ``--json``); ``benchmarks.run`` prints
them among the others.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

BUNDLED = ("pastoral-hills", "blasted-urban", "battle-site", "cover-example")
DENSE = ((16, 30), (64, 30))          # (units a side, terrain pieces) of the generated dense tables
DENSE_SEEDS = (1, 2, 3)
QUESTIONS = ("sightlines", "exposure-0.5", "exposure-0.25")

# One process: load the table, prepare it as a user's program does, ask the question once (timed), then again.
SCRIPT = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
table, question, again_n = sys.argv[2], sys.argv[3], int(sys.argv[4])
from referee.rules import whole_table
if table.startswith("generated-"):
    from benchmarks.generated_tables import generated_table
    _, n, pieces, seed = table.split("-")
    bf = generated_table(int(n), int(pieces), int(seed))
else:
    from referee import paths
    from referee.rules.battlefield import battlefield_from_scenario
    from referee.rules.scenario import load_scenario
    bf = battlefield_from_scenario(load_scenario(paths.table_file(table)))
step = float(question.split("-")[1]) if question.startswith("exposure") else None
whole_table.prepare(bf, None, (step,) if step else ())
from referee.rules.fast_sight import exposure_fast, sightlines_fast
ask = (lambda: exposure_fast(bf, "A", step)) if step else (lambda: sightlines_fast(bf))

def timed():
    c0, t0 = time.process_time(), time.perf_counter()
    answer = ask()
    return (time.process_time() - c0) * 1000.0, (time.perf_counter() - t0) * 1000.0, answer

cpu, wall, answer = timed()
again = [timed()[:2] for _ in range(again_n)]
units = sum(1 for p in bf.units() if p.side == "A"), sum(1 for p in bf.units() if p.side == "B")
print(json.dumps({"first": [cpu, wall], "again": [statistics.median(v) for v in zip(*again)],
                  "units": units, "pieces": len(bf.terrain)}))
"""


@dataclass(frozen=True)
class FirstCall:
    table: str
    question: str
    processes: int
    first_cpu: float        # medians over the processes, milliseconds
    first_wall: float
    again_cpu: float
    again_wall: float
    units: tuple[int, int]
    pieces: int

    def as_dict(self) -> dict:
        return {"table": self.table, "question": self.question, "processes": self.processes,
                "first_cpu_ms": round(self.first_cpu, 3), "first_wall_ms": round(self.first_wall, 3),
                "again_cpu_ms": round(self.again_cpu, 3), "again_wall_ms": round(self.again_wall, 3),
                "units": list(self.units), "pieces": self.pieces}


def _env(root: str, tmp: str) -> dict[str, str]:
    """A child process's environment as a user's install has it: compiled modules cached (in ``tmp``), headless."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPYCACHEPREFIX=str(Path(tmp) / "pyc"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


def tables(quick: bool) -> list[str]:
    """The bundled tables and the generated dense ones (``generated-<a side>-<pieces>-<seed>``)."""
    seeds = DENSE_SEEDS[:1] if quick else DENSE_SEEDS
    return [*BUNDLED, *(f"generated-{n}-{p}-{s}" for n, p in DENSE for s in seeds)]


def first_calls(table_names: list[str], questions: tuple[str, ...] = QUESTIONS, processes: int = 5,
                again: int = 5, errors=None, root: str | None = None) -> list[FirstCall]:
    """Every question on every table, in ``processes`` fresh processes each (taken in turn, so a busy spell of the
    machine spreads over all figures rather than spoiling one), with the median of each figure. ``root``: the
    source tree whose engine is timed (this one by default; another checkout to compare with)."""
    root = root or str(Path(__file__).resolve().parent.parent)
    # The exposure map is a question of 16 enemies (the figures); at 64 a side only the sight lines are asked.
    runs: dict[tuple[str, str], list[dict]] = {(t, q): [] for t in table_names for q in questions
                                               if q == "sightlines" or not t.startswith("generated-64-")}
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(root, tmp)
        # One process first, untimed, so that the modules are compiled once, as an installed program's are.
        subprocess.run([sys.executable, "-c", SCRIPT, root, table_names[0], questions[0], "0"], env=env,
                       capture_output=True, timeout=600, check=False)
        for _ in range(processes):
            for key in runs:
                run = subprocess.run([sys.executable, "-c", SCRIPT, root, key[0], key[1], str(again)],
                                     capture_output=True, text=True, timeout=600, check=False, env=env)
                if run.returncode != 0:
                    if errors is not None:
                        errors.append(f"{key[0]} {key[1]}: {(run.stderr.strip().splitlines() or ['failed'])[-1]}")
                    continue
                runs[key].append(json.loads(run.stdout))
    out = []
    for (table, question), got in runs.items():
        if not got:
            continue
        out.append(FirstCall(table, question, len(got),
                             statistics.median(r["first"][0] for r in got), statistics.median(r["first"][1] for r in got),
                             statistics.median(r["again"][0] for r in got), statistics.median(r["again"][1] for r in got),
                             tuple(got[0]["units"]), got[0]["pieces"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.first_calls", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one generated table of each size, 3 processes a figure")
    ap.add_argument("--processes", type=int, default=None, help="fresh processes per figure (default 7; 3 quick)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--root", default=None, help="time the engine of another source tree (to compare with)")
    args = ap.parse_args(argv)
    processes = args.processes or (3 if args.quick else 7)
    errors: list[str] = []
    rows = first_calls(tables(args.quick), processes=processes, errors=errors, root=args.root)
    if args.json:
        print(json.dumps({"first_calls": [r.as_dict() for r in rows], "errors": errors,
                          "load_average": list(os.getloadavg())}, indent=1))
        return 0
    print(f"First call in a fresh process, then the calls after it: medians of {processes} processes, CPU ms "
          f"(wall ms); load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    for r in rows:
        print(f"  {r.table:<24} {r.question:<14} {r.units[0]:>3}/{r.units[1]:<3} units {r.pieces:>3} pieces  "
              f"first {r.first_cpu:8.2f} ({r.first_wall:8.2f})   again {r.again_cpu:8.2f} ({r.again_wall:8.2f})")
    for e in errors:
        print(f"  ({e})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
