"""What the autosave costs per action at the start and at the end of a long battle (issue 11).

Run ``python -m benchmarks.autosave_cost`` (``--rounds 50`` for a shorter battle). The battle is the 200-round
random battle of the long-game test, played through the window's session; for the first and the last five rounds
it prints the CPU time of the autosave after each action (journal line), beside what writing the whole save with
its re-read check costs at the same moment (what every action cost before the journal). Figures depend on the
machine and its load: they are reported here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path


def measure(rounds: int) -> dict[str, dict[str, float]]:
    from referee.game.records.autosave import Autosaver
    from referee.game.battle.dice import SeededDice
    from referee.game.play.engine import Game, begin_battle
    from referee.game.records.record import not_same_game, save_game
    from referee.service.session import BattleSession
    from tests.test_long_game import long_game_action, long_table

    session = BattleSession(Game(begin_battle(long_table())), SeededDice(2024), hotseat=False, autosaving=False)
    saver = Autosaver()
    whole = Path(os.environ["SEVEN_SECONDS_HOME"]) / "whole.json"
    rng = random.Random(2024)
    early, late = range(1, 6), range(max(6, rounds - 4), rounds + 1)
    journal: dict[str, list[float]] = {"start": [], "end": []}
    rewrite: dict[str, list[float]] = {"start": [], "end": []}
    actions = 0
    while session.state.round <= rounds and session.state.phase != "over":
        r = session.state.round
        attempt = session.attempt(long_game_action(session.state, rng))
        if not attempt.legal:
            continue
        actions += 1
        t = time.process_time()
        saver.save(session.game, session.dice)
        spent = time.process_time() - t
        where = "start" if r in early else "end" if r in late else ""
        if where:
            journal[where].append(spent)
            if len(rewrite[where]) < 40:
                t = time.process_time()
                if whole.exists():
                    not_same_game(whole, session.game)
                save_game(session.game, whole, session.dice, overwrite=True)
                rewrite[where].append(time.process_time() - t)
    out = {}
    for where in ("start", "end"):
        out[where] = {"actions": len(journal[where]), "journal_ms": 1000 * statistics.mean(journal[where] or [0]),
                      "rewrite_ms": 1000 * statistics.mean(rewrite[where] or [0])}
    out["battle"] = {"rounds": session.state.round - 1, "actions": actions}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.autosave_cost")
    p.add_argument("--rounds", type=int, default=200)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:
        os.environ["SEVEN_SECONDS_HOME"] = home
        figures = measure(args.rounds)
    b = figures["battle"]
    print(f"autosave per action, {b['actions']} actions over {b['rounds']} rounds (CPU time, mean):")
    for where, label in (("start", "rounds 1-5"), ("end", "last 5 rounds")):
        f = figures[where]
        print(f"  {label:>12}: journal {f['journal_ms']:.3f} ms over {f['actions']} actions; "
              f"whole save with re-read {f['rewrite_ms']:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
