"""The adversarial leak audit on many seeded battles (issue 11): how well a spy that sees only side A's outputs
tells B's real blips from decoys, guesses whether B's force is larger than usual and which half of its missions B
drew, as the area under its ROC curve (0.5: chance). The same battles are watched through a view with planted leaks,
which the spy must find. Run ``python -m benchmarks.spy_audit`` (``--battles 60`` for a shorter run)."""

from __future__ import annotations

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    from referee.game.view import player_view
    from tests.spy import observe, planted_leak, spy

    p = argparse.ArgumentParser(prog="python -m benchmarks.spy_audit")
    p.add_argument("--battles", type=int, default=200)
    p.add_argument("--steps", type=int, default=30)
    args = p.parse_args(argv)
    started = time.process_time()
    pairs = [observe(seed, args.steps, (player_view, planted_leak)) for seed in range(args.battles)]
    clean, leaky = spy([q[0] for q in pairs]), spy([q[1] for q in pairs])
    blips = sum(len(q[0].blips) for q in pairs[len(pairs) // 2:])
    print(f"spy audit, {args.battles} seeded battles ({blips} of B's blips scored), "
          f"{time.process_time() - started:.0f} s CPU; ROC AUC, 0.5 is chance:")
    print(f"  as the program shows it: real blips {clean.blips:.3f}, force size {clean.force:.3f}, "
          f"mission {clean.mission:.3f}")
    print(f"  with planted leaks:      real blips {leaky.blips:.3f}, force size {leaky.force:.3f}, "
          f"mission {leaky.mission:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
