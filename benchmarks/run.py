"""The referee's hot paths on the standard table, each median beside its target.

Run ``python -m benchmarks.run`` (``--quick`` for fewer repeats). Every figure is the median of repeated runs;
PASS/MISS compares it with the target. A part that cannot run prints "n/a" and why.
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

# Targets in milliseconds (issue 6, "Speed", on a 2-core machine). One pair has no target of its own there: its
# budget here is one 60 Hz frame.
TARGETS = {
    "sightlines_fast": 10.0,
    "sightlines_ratio": 30.0,          # reference / fast, at least
    "exposure": 100.0,
    "odds_preview": 1.0,
    "one_pair": 1000.0 / 60.0,
    "frame": 4.0,                      # a drawn frame with every overlay on
    "startup": 800.0,                  # a fresh process to its first frame of the table
}


@dataclass(frozen=True)
class Timing:
    wall: float     # median wall-clock milliseconds
    cpu: float      # median CPU milliseconds of this process (tells more than the wall clock on a busy machine)


def measure(fn, repeat: int, warmup: int = 1, cpu_clock=time.process_time) -> Timing:
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(repeat):
        c0, t0 = cpu_clock(), time.perf_counter()
        fn()
        wall.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((cpu_clock() - c0) * 1000.0)
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
    print(f"  {label:<60} {shown:>13}   target {target:<13} {mark}")


# ---- the rules engine ------------------------------------------------------------------------------------------

def bench_sightlines(bf, repeat: int, reference_repeat: int) -> tuple[Timing, Timing, bool]:
    """All ordered pairs on both engines (distance, band, sight, cover, intervening terrain and its Heavy length,
    missile corridor), and whether their answers agree (1e-9 on floats)."""
    from referee.rules.fast_sight import sightlines_fast
    from referee.rules.table_sight import sightlines_reference

    fast = measure(lambda: sightlines_fast(bf), repeat)
    ref = measure(lambda: sightlines_reference(bf), reference_repeat, warmup=0)
    a, b = sightlines_fast(bf), sightlines_reference(bf)
    def same(x, y) -> bool:
        exact = ("viewer", "target", "visible", "target_cover", "blocked", "band", "corridor")
        close = ("hidden_fraction", "distance", "heavy_length")
        return (all(getattr(x, k) == getattr(y, k) for k in exact)
                and all(abs(getattr(x, k) - getattr(y, k)) <= 1e-9 for k in close)
                and [t for t, _ in x.intervening] == [t for t, _ in y.intervening]
                and all(abs(a - b) <= 1e-9 for (_, a), (_, b) in zip(x.intervening, y.intervening)))

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
    """The exposure map of side A on the 0.5" grid: counts (the full 50 % rule) and the cheapest Target counter."""
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
        "graze_effects(Arm 2, damaged)": lambda: odds.graze_effects(2, True, False),
        "missile_odds(3 CM, 4 counters)": lambda: odds.missile_odds([(3, False), (4, True), (2, False)], 4),
        "blast_odds(5 dice, Arm 3, damaged)": lambda: odds.blast_odds(5, 3, True),
        "stun_recovery + damaged_action_fails": lambda: (odds.stun_recovery(), odds.damaged_action_fails()),
        "jammer_test(Arm 3) + kamikaze_contact(4 counters)":
            lambda: (odds.jammer_test(3, False), odds.kamikaze_contact(4)),
        "target_counters_distribution(5 dice, price 3)": lambda: odds.target_counters_distribution(5, 3, 1),
        "target_counters_distribution(12 dice, price 2)": lambda: odds.target_counters_distribution(12, 2, 2),
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
        except Exception as e:            # report, do not fail the whole run
            out.append((f"{name}: {type(e).__name__}", None))
            continue
        out.append((name, measure(cold(fn), repeat)))
    return out


# ---- the table view (hooks: None until referee.ui can draw headless) --------------------------------------------

def _headless() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def _frame_scene():
    """The table view (1280x800) on the standard table with every overlay on: a trooper selected (arc, sensor and
    band rings, sight and cover marks on every enemy), an enemy hovered (its sight line and tooltip) and the
    exposure map of the selected unit's side, finished, with the mouse over it."""
    _headless()
    from referee.ui.app import App
    from referee.ui.exposure import show_now
    from referee.ui.scenes.table import TableScene
    from referee.ui.table_data import table_from_scenario

    app = App()
    scene = app.push(TableScene(table_from_scenario(standard_scenario())))
    app.step(1 / 60, events=[])
    bf = scene.table.bf
    me = next(p for p in bf.pieces.values() if p.is_trooper)
    scene.select(me.id)
    enemies = [p.id for p in bf.pieces.values() if p.is_unit and p.side not in (None, me.side)]
    seen = [e for e in enemies if scene.pair(e) is not None and scene.pair(e).los.visible]
    enemy = (seen or enemies)[0]
    scene.hover = enemy
    p = bf.pieces[enemy]
    scene.mouse = tuple(round(v) for v in scene.view.to_screen(p.x, p.y))
    if not show_now(scene, "auto"):
        raise RuntimeError("the exposure map did not arrive")
    app.step(1 / 60, events=[])
    return app, scene


def bench_frame(repeat: int) -> tuple[Timing | None, Timing | None]:
    """A drawn frame with every overlay on; and the same frame while exposure maps are being computed in the
    background all along (what a drag of a unit does), which must not wait for them."""
    try:
        import pygame

        from referee.ui.exposure import moved, table_key
    except ImportError:
        return None, None
    try:
        app, scene = _frame_scene()
        overlays = scene.exposure.enabled and scene.selected is not None and scene.hover is not None
        if not overlays:
            raise RuntimeError("not every overlay is on")
        frame = measure(lambda: app.step(1 / 60, events=[]), repeat)         # update (overlays follow) and draw
        worker = scene.exposure.worker
        bf = scene.table.bf
        foe = bf.pieces[scene.hover]
        shift = [0]

        def busy_frame():
            # Keep the worker computing: a new position of the hovered enemy each frame (a dragged unit).
            shift[0] = (shift[0] + 1) % 20
            b = moved(bf, foe.id, (foe.x + 0.05 * shift[0], foe.y), None)
            worker.request(table_key(b, scene.exposure.side, 0.5) + (shift[0],), b, scene.exposure.side, 0.5)
            app.render()

        busy = measure(busy_frame, repeat, cpu_clock=time.thread_time)      # the drawing thread's own CPU
        worker.wait(30)
        worker.stop()
        pygame.quit()
        return frame, busy
    except Exception as e:               # a view in progress: say why instead of failing the whole run
        print(f"  (frame: {type(e).__name__}: {e})")
        return None, None


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


def bench_startup(repeat: int) -> tuple[float, float] | None:
    """Median wall-clock time from starting a fresh Python process to its first frame of the standard table (the
    scenario given as a file): interpreter, imports, scenario load, first drawing; and the median CPU time the
    process used for it (user and system), which a busy machine inflates less."""
    try:
        import resource

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
        times, cpus = [], []
        for _ in range(repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", STARTUP_SCRIPT, str(path)], capture_output=True, text=True,
                                 env=env, cwd=root, timeout=120)
            elapsed = (time.perf_counter() - t0) * 1000.0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if out.returncode != 0 or "first-frame" not in out.stdout:
                print(f"  (start-up: {(out.stderr.strip().splitlines() or [out.stdout.strip()])[-1]})")
                return None
            times.append(elapsed)
            cpus.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000.0)
    return statistics.median(times), statistics.median(cpus)


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
    line(f"{what}, counts and prices (cpu {exposure.cpu:.0f} ms)", exposure.wall, "ms",
         f"<= {TARGETS['exposure']:g} ms",
         exposure.wall <= TARGETS["exposure"])

    print("Table view")
    frame, busy = bench_frame(repeat)
    line("a drawn frame with all overlays" + (f" (cpu {frame.cpu:.2f} ms)" if frame else ""), frame and frame.wall,
         "ms", f"<= {TARGETS['frame']:g} ms", frame is not None and frame.wall <= TARGETS["frame"])
    line("  the same, maps computing behind it" + (f" (thread cpu {busy.cpu:.2f} ms)" if busy else ""),
         busy and busy.wall, "ms", "- (no wait)", None)
    start = bench_startup(max(5, repeat // 3))
    line("start-up to the first frame, fresh process" + (f" (cpu {start[1]:.0f} ms)" if start else ""),
         start and start[0], "ms", f"<= {TARGETS['startup']:g} ms", start is not None and start[0] <= TARGETS["startup"])

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
