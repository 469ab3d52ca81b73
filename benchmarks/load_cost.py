"""What opening a save costs (issue 35): the window's Load and Resume, ``seven-seconds replay SAVE``, the autosave.

Run ``python -m benchmarks.load_cost`` (``--quick`` for fewer repeats, ``--json`` for one JSON object). Three saves
are read with ``read_save``, each checked as a player's program checks it (the record replayed through the engine
with its dice, the digest compared, the seals and dice commitments checked): the example save of the docs (set-up
and a few actions), a whole random battle (``seven-seconds selfplay --seed 12``), and the same battle sealed under
both players' PINs (the scrypt cost of opening it is the program's own, 2^15 a side, and counted). Each figure is
the median CPU time of the repeats. Figures depend on the machine and its load: they are reported here, never
asserted in tests.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from referee.cli.main import main as command
from referee.game.records.record import read_save, save_game
from referee.game.records.sealing import Keyring

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "example-save.json"
PINS = {"A": "pin-a-12", "B": "pin-b-12"}


def _keys(sealed: bool) -> Keyring | None:
    """Both players' PINs as the window takes them, in a keyring of its own for each read: a keyring keeps the keys
    it derived, and a player opening a save derives them once."""
    return Keyring(dict(PINS)) if sealed else None


def _cpu_ms(path: Path, sealed: bool, repeats: int) -> float:
    spent = []
    for _ in range(repeats):
        keys = _keys(sealed)
        t = time.process_time()
        read_save(path, keys)
        spent.append(time.process_time() - t)
    return 1000 * statistics.median(spent)


def measure(repeats: int, folder: Path) -> dict[str, dict[str, float]]:
    battle = folder / "selfplay-12.json"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        command(["selfplay", "--seed", "12", "--out", str(battle)])
    sealed = folder / "sealed-12.json"
    opened = read_save(battle)
    opened.game.keys = _keys(True)
    save_game(opened.game, sealed, opened.dice)
    out: dict[str, dict[str, float]] = {}
    for name, path, is_sealed in (("example", EXAMPLE, False), ("battle", battle, False), ("sealed", sealed, True)):
        save = read_save(path, _keys(is_sealed))     # the first read loads the modules and the rules' tables
        out[name] = {"actions": len(save.game.record), "rounds": save.game.state.round,
                     "bytes": path.stat().st_size, "load_ms": round(_cpu_ms(path, is_sealed, repeats), 1)}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.load_cost", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="3 repeats of each read instead of 9")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:
        os.environ["SEVEN_SECONDS_HOME"] = home
        figures = measure(3 if args.quick else 9, Path(home))
    if args.json:
        print(json.dumps({**figures, "load": [round(v, 2) for v in os.getloadavg()]}))
        return 0
    print("opening a save with read_save (CPU time, median; replayed, digest compared, seals checked):")
    for name, label in (("example", "docs/example-save.json"), ("battle", "selfplay --seed 12"),
                        ("sealed", "the same, sealed (2 PINs)")):
        f = figures[name]
        print(f"  {label:>26}: {f['load_ms']:7.1f} ms  ({f['actions']} actions, round {f['rounds']}, "
              f"{f['bytes'] / 1024:.0f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
