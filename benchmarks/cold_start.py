"""Cold start: what a player pays before the first answer, each command in a fresh process, start to exit (issue 35).

One ``seven-seconds query`` (a question on a bundled table, and every pair of the standard table as JSON), the
window's first frame of the standard table (``play --screenshot``, headless), ``--help``, and beside them the floor
no change to the program can go below: the interpreter alone and the library every query needs (shapely with
numpy), and pydantic, which a query on a table checked before no longer loads (``referee/rules/model.py``). Each figure is the median over several processes, taken in turn so that a busy spell of the machine
spreads over every figure; CPU time (user + system of the process) is the figure compared with the target, the wall
clock is printed beside it. The first process of each command is not counted: it compiles the modules and keeps the
checked bundled files and table (``referee/rules/checked.py``), once per install and table. It also lists the heavy
libraries a query loads.

``python -m benchmarks.cold_start`` (``--quick``: 3 processes a figure; ``--json``: one JSON object); ``--root DIR``
times another source tree, ``--against DIR`` prints this tree's figures beside another's (before / after a change).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .standard_table import standard_scenario

# Targets in milliseconds of CPU time (issue 35, on a 2-core machine).
TARGETS = {"query": 200.0, "startup": 450.0}
BUNDLED_QUESTION = ("cover-example", ["cover", "green", "target-a", "--json"])
HEAVY = ("pydantic", "pydantic_core", "shapely", "numpy", "platformdirs", "importlib.metadata", "pygame", "pygame_gui",
         "starlette", "uvicorn", "PIL", "reportlab")

# Runs the command as the shell would (``entry`` minus its fast exit) and tells which heavy libraries it loaded.
MODULES_SCRIPT = """
import json, os, sys
heavy = set(sys.argv[1].split(","))
sys.argv = ["seven-seconds", *sys.argv[2:]]
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
from referee.cli import main
main._from_shell = True
out = sys.stdout
sys.stdout = open(os.devnull, "w")
main.main()
out.write(json.dumps(sorted(heavy & set(sys.modules))))
"""

# Where one query's CPU time goes: the same query, its stages timed in the order the command meets them. Each stage
# counts only what the stages before it have not loaded yet.
STAGES_SCRIPT = """
import contextlib, io, json, os, sys, time
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", os.environ.get("COLD_START_PLUGINS", ""))
if not os.environ["PYDANTIC_DISABLE_PLUGINS"]:
    del os.environ["PYDANTIC_DISABLE_PLUGINS"]
import gc
gc.disable()
clock = time.process_time
stages, t = [], 0.0          # the process's CPU time counts from its start
def stage(name):
    global t
    now = clock()
    stages.append([name, (now - t) * 1000.0])
    t = now
stage("interpreter, to the first line of the program")
import referee.cli.main
stage("the command line (argparse, the rules' errors)")
import shapely
stage("shapely with numpy")
import referee.rules.catalogue, referee.rules.pieces, referee.rules.factions, referee.rules.rulings
import referee.rules.scenario
stage("the rules' value classes (catalogue, pieces, factions, rulings, scenario)")
import referee.cli.query
from referee import paths
from referee.rules.scenario import load_scenario
stage("the rules engine's other modules and the query command's")
load_scenario(paths.table_file(sys.argv[1]))
stage("reading and checking the table (or the checked values read back)")
with contextlib.redirect_stdout(io.StringIO()):
    referee.cli.main.main(["query", *sys.argv[1:]])
stage("the question answered (the table read again)")
stages.append(["pydantic loaded", 1.0 if "pydantic" in sys.modules else 0.0])
print(json.dumps(stages))
"""


def _env(root: str, tmp: str) -> dict[str, str]:
    """A child process's environment as a user's install has it: compiled modules and checked files cached (in
    ``tmp``: the user's cache folder is found as always, where ``XDG_CACHE_HOME`` puts it), headless."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPYCACHEPREFIX=str(Path(tmp) / "pyc"),
               XDG_CACHE_HOME=str(Path(tmp) / "cache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


def commands(tmp: str) -> dict[str, tuple[list[str], float | None]]:
    """Each figure's command line (after the interpreter) and its target."""
    table = Path(tmp) / "standard-table.json"
    if not table.exists():
        # lazy: the standard table's file is written by the process that reads its scenario model
        from referee.rules.scenario import scenario_to_data
        table.write_text(json.dumps(scenario_to_data(standard_scenario())))
    name, question = BUNDLED_QUESTION
    return {
        "interpreter alone (python -c pass)": (["-c", "pass"], None),
        "import shapely (with numpy)": (["-c", "import shapely"], None),
        "import pydantic (BaseModel)": (["-c", "from pydantic import BaseModel"], None),
        "--help": (["-m", "referee", "--help"], None),
        f"one query ({name}: {' '.join(question[:3])})": (["-m", "referee", "query", name, *question],
                                                           TARGETS["query"]),
        "one query (standard table: sightlines --json)": (["-m", "referee", "query", str(table), "sightlines",
                                                           "--json"], TARGETS["query"]),
        "first frame of the window (play --screenshot)": (["-m", "referee", "play", str(table), "--screenshot",
                                                           str(Path(tmp) / "shot.png")], TARGETS["startup"]),
    }


def _run(args: list[str], env: dict[str, str], cwd: str) -> tuple[float, float, str | None]:
    """One fresh process: (CPU ms, wall ms, the last line of its error output when it failed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    run = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300,
                         check=False)
    wall = (time.perf_counter() - t0) * 1000.0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000.0
    failed = None if run.returncode == 0 else (run.stderr.strip().splitlines() or ["failed"])[-1]
    return cpu, wall, failed


def query_stages(env: dict[str, str], cwd: str, processes: int) -> list[list] | None:
    """The bundled question's stages, [name, median CPU ms], over ``processes`` fresh processes (the program's own
    start: pydantic's plugin search is off as ``entry`` turns it off, unless the tree's ``entry`` leaves it on)."""
    name, question = BUNDLED_QUESTION
    main_py = Path(env["PYTHONPATH"].split(os.pathsep)[0]) / "referee" / "cli" / "main.py"
    plugins_off = "PYDANTIC_DISABLE_PLUGINS" in main_py.read_text(encoding="utf-8")
    env = dict(env, COLD_START_PLUGINS="__all__" if plugins_off else "")
    runs = []
    for _ in range(processes):
        run = subprocess.run([sys.executable, "-c", STAGES_SCRIPT, name, *question], capture_output=True, text=True,
                             env=env, cwd=cwd, timeout=300, check=False)
        if run.returncode != 0 or not run.stdout.strip():
            return None
        runs.append(json.loads(run.stdout.strip().splitlines()[-1]))
    return [[stage, round(statistics.median(r[i][1] for r in runs), 1)] for i, (stage, _) in enumerate(runs[0])]


def cold_start(roots: list[str], processes: int) -> dict[str, dict]:
    """Every figure for every source tree in ``roots``: {root: {figure: {cpu_ms, wall_ms, target_ms, ...}}}, and
    the heavy libraries a query loads (``query_loads``)."""
    out: dict[str, dict] = {root: {} for root in roots}
    with tempfile.TemporaryDirectory() as tmp:
        cmds = commands(tmp)
        envs = {root: _env(root, str(Path(tmp) / f"tree-{i}")) for i, root in enumerate(roots)}
        samples: dict[tuple[str, str], list[tuple[float, float]]] = {(r, n): [] for r in roots for n in cmds}
        errors: dict[tuple[str, str], str] = {}
        for k in range(processes + 1):
            for name, (args, _goal) in cmds.items():
                for root in roots:
                    cpu, wall, failed = _run(args, envs[root], tmp)
                    if failed:
                        errors[(root, name)] = failed
                    elif k:           # the first round compiles the modules
                        samples[(root, name)].append((cpu, wall))
        name, question = BUNDLED_QUESTION
        for root in roots:
            run = subprocess.run([sys.executable, "-c", MODULES_SCRIPT, ",".join(HEAVY), "query", name, *question],
                                 capture_output=True, text=True, env=envs[root], cwd=tmp, timeout=300, check=False)
            out[root]["query_loads"] = json.loads(run.stdout) if run.returncode == 0 and run.stdout else None
            out[root]["query_stages"] = query_stages(envs[root], tmp, processes)
            for fig, (_args, goal) in cmds.items():
                got = samples[(root, fig)]
                out[root][fig] = {"cpu_ms": round(statistics.median(c for c, _ in got), 1) if got else None,
                                  "wall_ms": round(statistics.median(w for _, w in got), 1) if got else None,
                                  "target_ms": goal, "processes": len(got), "error": errors.get((root, fig))}
    return out


def _cell(fig: dict) -> str:
    if fig["cpu_ms"] is None:
        return f"n/a ({fig['error']})"
    return f"{fig['cpu_ms']:7.1f} ({fig['wall_ms']:7.1f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.cold_start", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 processes a figure")
    ap.add_argument("--processes", type=int, default=None, help="fresh processes per figure (default 9; 3 quick)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--root", default=None, help="time another source tree")
    ap.add_argument("--against", default=None, help="another source tree, timed in turn with this one (before)")
    args = ap.parse_args(argv)
    processes = args.processes or (3 if args.quick else 9)
    here = str(Path(args.root).resolve()) if args.root else str(Path(__file__).resolve().parent.parent)
    roots = [here] + ([str(Path(args.against).resolve())] if args.against else [])
    figures = cold_start(roots, processes)
    load = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    if args.json:
        print(json.dumps({"processes": processes, "trees": figures, "load_average": load}, indent=1))
        return 0
    print(f"Cold start, fresh processes start to exit: medians of {processes}, CPU ms (wall ms); load average "
          f"{' '.join(f'{v:.2f}' for v in load or [])}")
    names = [n for n in figures[here] if n not in ("query_loads", "query_stages")]
    heads = ["this tree"] + (["against"] if args.against else [])
    print(f"  {'':<52}" + "".join(f"{h:>20}" for h in heads) + "   target (CPU)")
    for name in names:
        cells = "".join(f"{_cell(figures[r][name]):>20}" for r in roots)
        goal = figures[here][name]["target_ms"]
        verdict = ""
        if goal is not None and figures[here][name]["cpu_ms"] is not None:
            verdict = f"   <= {goal:g} ms {'PASS' if figures[here][name]['cpu_ms'] <= goal else 'MISS'}"
        print(f"  {name:<52}{cells}{verdict}")
    for r, head in zip(roots, heads):
        loads = figures[r]["query_loads"]
        print(f"  heavy libraries one query loads ({head}): {', '.join(loads) if loads is not None else 'n/a'}")
    stages = [figures[r]["query_stages"] for r in roots]
    print(f"Where one query's CPU time goes ({BUNDLED_QUESTION[0]}: {' '.join(BUNDLED_QUESTION[1][:3])}), in the "
          f"process, stage by stage; medians of {processes}, CPU ms")
    if any(st is None for st in stages):
        print("  n/a (the stages' process failed)")
    else:
        for i, (stage, _) in enumerate(stages[0][:-1]):
            print(f"  {stage:<76}" + "".join(f"{st[i][1]:>20.1f}" for st in stages))
        print(f"  {'in all':<76}" + "".join(f"{sum(v for _, v in st[:-1]):>20.1f}" for st in stages))
        print(f"  {'pydantic loaded (by the value classes or on reading the table)':<76}"
              + "".join(f"{'yes' if st[-1][1] else 'no':>20}" for st in stages))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
