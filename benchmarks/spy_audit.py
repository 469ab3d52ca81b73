"""The adversarial leak audit on many seeded battles (issues 11 and 32).

* **Screens**: how well a spy that sees only side A's outputs tells B's real blips from decoys, guesses whether B's
  force is larger than usual and which half of its missions B drew, as the area under its ROC curve (0.5: chance).
  The same battles are watched through a view with planted leaks, which the spy must find.
* **Files**: a spy playing side A, with A's PIN and read access to every file the program wrote (saves, autosaves,
  journals, kept copies, temporary files, the campaign's battle saves), counts B's secrets it can read, over
  battles sealed for their players and, as a control, the same battles written in clear (as before format 5).
* **Crashes**: a kill before each durable step of the saves (``tests/crash_points.py``): acknowledged actions lost
  and battles refused.

Run ``python -m benchmarks.spy_audit`` (``--quick`` for a short run, ``--json`` for one JSON object of the figures).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path


def screens(battles: int, steps: int) -> dict[str, float]:
    from referee.game.view import player_view
    from tests.spy import observe, planted_leak, spy

    pairs = [observe(seed, steps, (player_view, planted_leak)) for seed in range(battles)]
    clean, leaky = spy([q[0] for q in pairs]), spy([q[1] for q in pairs])
    return {"blips scored": sum(len(q[0].blips) for q in pairs[len(pairs) // 2:]),
            "real blips AUC": clean.blips, "force size AUC": clean.force, "mission AUC": clean.mission,
            "planted: real blips AUC": leaky.blips, "planted: force size AUC": leaky.force,
            "planted: mission AUC": leaky.mission}


def files(battles: int, actions: int, sealed: bool) -> dict[str, object]:
    """``battles`` battles played one after another in one saves folder (each new one sets the last aside), each
    saved by hand too; then the spy reads every file."""
    from referee import paths
    from tests.file_spy import killed_while_writing, play_battle, spy_on

    home = Path(tempfile.mkdtemp(prefix="spy-files-"))
    os.environ["SEVEN_SECONDS_HOME"] = str(home)
    try:
        pins: dict[str, str] = {}
        for seed in range(battles):
            session = play_battle(seed, actions, sealed=sealed)
            if session.game.keys is not None:
                pins[session.game.keys.battle] = session.game.keys.pins["A"]
            session.save(paths.saves_dir() / f"battle-{seed}.json")
            if seed % 10 == 0 and hasattr(os, "fork"):
                killed_while_writing(session, paths.saves_dir() / f"killed-{seed}.json")    # a .tmp left behind
        found = spy_on([paths.saves_dir()], pins)
        return {"battles": battles, "files read": found.files, "bytes read": found.bytes,
                "secrets recovered": found.total, "by kind": dict(sorted(found.secrets.items()))}
    finally:
        shutil.rmtree(home, ignore_errors=True)


def crashes() -> dict[str, object]:
    from referee import paths
    from tests.crash_points import kill_points, recover

    home = Path(tempfile.mkdtemp(prefix="spy-crash-"))
    os.environ["SEVEN_SECONDS_HOME"] = str(home / "home")
    try:
        run, points = kill_points([paths.saves_dir(), home / "campaign"], home / "copies")
        outcomes = [recover(p, run.pins) for p in points]
        return {"kill points": len(points), "acknowledged actions": sum(len(r) for r in run.acknowledged.values()),
                "actions lost": sum(o.lost for o in outcomes), "battles refused": sum(len(o.refused) for o in outcomes)}
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.spy_audit")
    p.add_argument("--battles", type=int, default=None, help="battles watched on screen (default 200; quick 40)")
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--file-battles", type=int, default=None, help="battles for the file spy (default 200; quick 50)")
    p.add_argument("--quick", action="store_true", help="a short run")
    p.add_argument("--json", action="store_true", help="print one JSON object of every figure")
    args = p.parse_args(argv)
    battles = args.battles or (40 if args.quick else 200)
    file_battles = args.file_battles or (50 if args.quick else 200)
    started = time.process_time()
    figures: dict[str, object] = {"screens": screens(battles, args.steps)}
    screen_cpu = time.process_time() - started
    figures["files, sealed"] = files(file_battles, 40, sealed=True)
    figures["files, in clear"] = files(min(file_battles, 10), 40, sealed=False)
    figures["crashes"] = crashes()
    figures["CPU seconds"] = round(time.process_time() - started, 1)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    s = figures["screens"]
    assert isinstance(s, dict)
    print(f"spy audit, {battles} seeded battles ({s['blips scored']} of B's blips scored), {screen_cpu:.0f} s CPU; "
          f"ROC AUC, 0.5 is chance:")
    print(f"  as the program shows it: real blips {s['real blips AUC']:.3f}, force size {s['force size AUC']:.3f}, "
          f"mission {s['mission AUC']:.3f}")
    print(f"  with planted leaks:      real blips {s['planted: real blips AUC']:.3f}, force size "
          f"{s['planted: force size AUC']:.3f}, mission {s['planted: mission AUC']:.3f}")
    for name in ("files, sealed", "files, in clear"):
        f = figures[name]
        assert isinstance(f, dict)
        print(f"{name}: side A's spy read {f['files read']} files ({f['bytes read']} bytes) of {f['battles']} "
              f"battles: {f['secrets recovered']} of B's secrets recovered {f['by kind'] or ''}".rstrip())
    c = figures["crashes"]
    assert isinstance(c, dict)
    print(f"crashes: {c['kill points']} kill points over {c['acknowledged actions']} acknowledged actions: "
          f"{c['actions lost']} lost, {c['battles refused']} battles refused")
    print(f"{figures['CPU seconds']} s CPU in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
