"""How long a long battle takes: the 200 rounds of random play of ``tests/test_long_game.py``, timed.

Run ``python -m benchmarks.long_game`` (``--rounds N`` for fewer) from the source tree. The test checks every
invariant and the memory of that battle; its speed is reported here, never asserted in a test, because a loaded
machine can make it several times slower.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from tests.test_long_game import ROUNDS, long_game_action, long_table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.long_game", description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=ROUNDS, help=f"rounds to play (default {ROUNDS}, as the test)")
    args = ap.parse_args(argv)

    game = Game(begin_battle(long_table()))
    rng, dice = random.Random(2024), SeededDice(2024)
    proposals = legal = 0
    wall, cpu = time.perf_counter(), time.process_time()
    from referee.progress import progress_bar

    with progress_bar(args.rounds, "playing", "round") as bar:
        while game.state.round <= args.rounds and game.state.phase != "over":
            proposals += 1
            legal += game.play(long_game_action(game.state, rng), dice).legal
            bar.update(game.state.round - 1 - bar.n)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{game.state.round - 1} rounds of random play: {proposals} proposals, {legal} legal actions; "
          f"{wall:.1f} s wall clock ({cpu:.1f} s CPU), {1000 * wall / max(1, proposals):.2f} ms per proposal; "
          f"load {' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
