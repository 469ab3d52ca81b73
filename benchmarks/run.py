"""The referee's hot paths on the standard table, each median beside its target.

Run ``python -m benchmarks.run`` (``--quick`` for fewer repeats). Every figure is the median of repeated runs;
PASS/MISS compares it with the target. Parts that do not exist yet (the table view, the odds module) print "n/a".
Timings depend on the machine and its load: they are reported here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .standard_table import standard_scenario, standard_table

# Targets in milliseconds. The sight-line, exposure and odds targets come from the performance brief; the one-pair,
# frame and start-up targets are the budgets of an interactive table (one 60 Hz frame, two seconds to a picture).
TARGETS = {
    "sightlines_fast": 10.0,
    "sightlines_ratio": 30.0,          # reference / fast, at least
    "exposure": 100.0,
    "odds_preview": 1.0,
    "one_pair": 1000.0 / 60.0,
    "frame": 1000.0 / 60.0,
    "startup": 2000.0,
}


@dataclass(frozen=True)
class Timing:
    wall: float     # median wall-clock milliseconds
    cpu: float      # median CPU milliseconds of this process (tells more than the wall clock on a busy machine)


def measure(fn, repeat: int, warmup: int = 1) -> Timing:
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        wall.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
    return Timing(statistics.median(wall), statistics.median(cpu))


def load_average() -> str:
    try:
        return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())
    except (AttributeError, OSError):
        return "load average unknown"


def line(label: str, value: float | str | None, unit: str, target: str, ok: bool | None) -> None:
    """One figure: label, value, target and PASS/MISS ("n/a" when the part does not exist yet)."""
    if value is None:
        shown, mark = "n/a", "n/a"
    else:
        shown = value if isinstance(value, str) else f"{value:10.2f} {unit}"
        mark = "" if ok is None else ("PASS" if ok else "MISS")
    print(f"  {label:<52} {shown:>13}   target {target:<13} {mark}")


# ---- the rules engine ------------------------------------------------------------------------------------------

def bench_sightlines(bf, repeat: int, reference_repeat: int) -> tuple[Timing, Timing, bool]:
    """All ordered pairs on both engines, and whether their answers agree (1e-9 on floats)."""
    from referee.rules.fast_sight import sightlines_fast
    from referee.rules.table_sight import sightlines_reference

    fast = measure(lambda: sightlines_fast(bf), repeat)
    ref = measure(lambda: sightlines_reference(bf), reference_repeat, warmup=0)
    a, b = sightlines_fast(bf), sightlines_reference(bf)
    def same(x, y) -> bool:
        exact = ("viewer", "target", "visible", "target_cover", "blocked")
        return (all(getattr(x, k) == getattr(y, k) for k in exact)
                and abs(x.hidden_fraction - y.hidden_fraction) <= 1e-9 and abs(x.distance - y.distance) <= 1e-9)

    agree = len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return fast, ref, agree


def bench_one_pair(bf, repeat: int) -> Timing:
    """line_of_sight + cover for one pair (what the query command and the table view ask): a partly hidden one."""
    from referee.rules.sight import cover, line_of_sight
    from referee.rules.table_sight import opposing_pairs

    pairs = opposing_pairs(bf)
    a, b = next(((a, b) for a, b in pairs if 0.0 < line_of_sight(bf, a, b).hidden_fraction < 1.0), pairs[0])
    return measure(lambda: cover(bf, a, b, line_of_sight(bf, a, b)), repeat)


def bench_exposure(bf, repeat: int) -> tuple[Timing, str]:
    from referee.rules.fast_sight import exposure_fast
    from referee.rules.table_sight import watchers

    grid = exposure_fast(bf, "A", 0.5)
    timing = measure(lambda: exposure_fast(bf, "A", 0.5), repeat)
    return timing, f"{grid.columns}x{grid.rows} points, {len(watchers(bf, 'A'))} enemies"


def bench_odds(repeat: int) -> list[tuple[str, Timing | None]] | None:
    """Exact odds of one preview per function, cold (the module's caches emptied before every call)."""
    try:
        from referee.rules import odds
    except ImportError:
        return None
    calls = {
        "rifle_outcomes(gauss, 3 dice, Arm 3)": lambda: odds.rifle_outcomes("gauss", 3, 3, False, False, False),
        "missile_odds(3 CM, 4 counters)": lambda: odds.missile_odds([(3, False), (4, True), (2, False)], 4),
        "blast_odds(5 dice, Arm 3, damaged)": lambda: odds.blast_odds(5, 3, True),
        "target_counters_distribution(5 dice, price 3)": lambda: odds.target_counters_distribution(5, 3, 1),
        "kamikaze_contact(4 counters)": lambda: odds.kamikaze_contact(4),
    }
    caches = [v for v in vars(odds).values() if callable(getattr(v, "cache_clear", None))]

    def cold(fn):
        def run():
            for c in caches:
                c.cache_clear()
            fn()
        return run

    out = []
    for name, fn in calls.items():
        try:
            fn()
        except Exception as e:            # the module is someone else's work in progress: report, do not fail
            out.append((f"{name}: {type(e).__name__}", None))
            continue
        out.append((name, measure(cold(fn), repeat)))
    return out


# ---- the table view (hooks: None until referee.ui can draw headless) --------------------------------------------

def _headless() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def bench_frame(repeat: int) -> Timing | None:
    """One drawn frame of the table view (1280x800) with a trooper selected: sight and cover marks on every enemy."""
    _headless()
    try:
        from referee.ui.app import App
        from referee.ui.scenes.table import TableScene
        from referee.ui.table_data import table_from_scenario
    except ImportError:
        return None
    try:
        import pygame

        app = App()
        scene = app.push(TableScene(table_from_scenario(standard_scenario())))
        app.step(1 / 60, events=[])
        scene.select(next(p.id for p in scene.table.bf.pieces.values() if p.is_trooper))
        app.step(1 / 60, events=[])
        timing = measure(app.render, repeat)
        pygame.quit()
        return timing
    except Exception as e:               # a view in progress: say why instead of failing the whole run
        print(f"  (frame: {type(e).__name__}: {e})")
        return None


STARTUP_SCRIPT = """
import os, sys
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
from referee.ui.app import App
app = App()
app.open_menu(sys.argv[1])
app.step(0.0, events=[])
print("first-frame" if len(app.stack) > 1 else "menu-only", flush=True)
"""


def bench_startup(repeat: int) -> float | None:
    """Median wall-clock time from starting a fresh Python process to its first frame of the standard table (the
    scenario given as a file): interpreter, imports, scenario load, first drawing."""
    try:
        import referee.ui.app  # noqa: F401
        from referee.rules.scenario import scenario_to_data
    except ImportError:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "standard-table.json"
        path.write_text(json.dumps(scenario_to_data(standard_scenario())))
        root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", STARTUP_SCRIPT, str(path)], capture_output=True, text=True,
                                 env=env, cwd=root, timeout=120)
            elapsed = (time.perf_counter() - t0) * 1000.0
            if out.returncode != 0 or "first-frame" not in out.stdout:
                print(f"  (start-up: {(out.stderr.strip().splitlines() or [out.stdout.strip()])[-1]})")
                return None
            times.append(elapsed)
    return statistics.median(times)


# ---- report ---------------------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=30, help="runs per measurement (default 30)")
    ap.add_argument("--reference-repeat", type=int, default=15, help="runs of the reference sight lines (default 15)")
    ap.add_argument("--quick", action="store_true", help="5 runs each, 3 of the reference")
    args = ap.parse_args(argv)
    repeat, ref_repeat = (5, 3) if args.quick else (args.repeat, args.reference_repeat)

    import numpy
    import shapely
    bf = standard_table()
    print(f"Standard table: {bf.width:g}\" x {bf.height:g}\", {len(bf.terrain)} terrain pieces "
          f"({len(bf.blocking_features)} blocking), {sum(1 for _ in bf.units())} units. "
          f"Python {platform.python_version()}, numpy {numpy.__version__}, shapely {shapely.__version__}, "
          f"{os.cpu_count()} CPUs, {load_average()}.")
    print(f"Medians of {repeat} runs ({ref_repeat} for the reference), wall clock; in brackets the CPU time of this "
          f"process, which a busy machine inflates less.")

    print("Sight lines")
    fast, ref, agree = bench_sightlines(bf, repeat, ref_repeat)
    ratio = ref.wall / fast.wall
    line(f"all pairs, fast engine (cpu {fast.cpu:.2f} ms)", fast.wall, "ms", f"<= {TARGETS['sightlines_fast']:g} ms",
         fast.wall <= TARGETS["sightlines_fast"])
    line(f"all pairs, reference engine (cpu {ref.cpu:.0f} ms)", ref.wall, "ms", "-", None)
    line("speed-up (reference / fast)", ratio, "x", f">= {TARGETS['sightlines_ratio']:g}x",
         ratio >= TARGETS["sightlines_ratio"])
    line("fast answers equal the reference", "yes" if agree else "NO", "", "equal", agree)
    pair = bench_one_pair(bf, repeat)
    line(f"one pair, line_of_sight + cover (cpu {pair.cpu:.2f} ms)", pair.wall, "ms",
         f"<= {TARGETS['one_pair']:.1f} ms", pair.wall <= TARGETS["one_pair"])

    print("Exposure map")
    exposure, what = bench_exposure(bf, repeat)
    line(f"{what}, fast (cpu {exposure.cpu:.1f} ms)", exposure.wall, "ms", f"<= {TARGETS['exposure']:g} ms",
         exposure.wall <= TARGETS["exposure"])

    print("Table view")
    frame = bench_frame(repeat)
    line("a drawn frame with overlays" + (f" (cpu {frame.cpu:.2f} ms)" if frame else ""), frame and frame.wall,
         "ms", f"<= {TARGETS['frame']:.1f} ms", frame is not None and frame.wall <= TARGETS["frame"])
    start = bench_startup(max(3, repeat // 6))
    line("start-up to the first frame (fresh process)", start, "ms", f"<= {TARGETS['startup']:g} ms",
         start is not None and start <= TARGETS["startup"])

    print("Exact odds (one preview, cold caches)")
    results = bench_odds(repeat)
    if results is None:
        line("referee.rules.odds", None, "ms", f"< {TARGETS['odds_preview']:g} ms", None)
    else:
        for name, timing in results:
            line(name, timing and timing.wall, "ms", f"< {TARGETS['odds_preview']:g} ms",
                 timing is not None and timing.wall < TARGETS["odds_preview"])
    print(f"Finished; {load_average()}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
