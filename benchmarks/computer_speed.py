"""How fast the computer's imagined battles run: simulated actions per processor second (issue 37).

``python -m benchmarks.computer --speed`` (or ``python -m benchmarks.computer_speed``) takes fixed decision points --
the states of seeded battles of random legal play, which depend on the engine alone, every ``EVERY``-th action of
round 1 on -- and has the computer decide at each of them at a level, counting every action the engine resolves
(a play, a preview, a check run through ``actions.Resolving``) and the processor time it took. The same points and
the same count on two versions of the code tell how much faster the simulation got: the decisions are the same when
the behaviour is.
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import sys
import time
from typing import Any

from referee import paths
from referee.game.play import actions
from referee.game.players import selfplay
from referee.game.players.computer import Computer
from referee.game.play.legal import legal_actions, to_act
from referee.game.records.record import new_seeded_dice
from referee.game.play.setup import new_game
from referee.game.views.view import player_view
from referee.game.views.view_types import as_data
from referee.rules.factions import faction_files
from referee.rules.scenario import load_scenario

P95_GOAL = {"normal": 0.5, "hard": 1.5}     # processor seconds a decision may take at the 95th percentile (issue 37)
EVERY = 9                   # a decision point every this many actions of a battle, from round 1 on
SEEDS = (11, 12, 13, 14)    # the battles the points are taken from
QUICK_SEEDS = (11, 12)
ACTIONS = 240               # actions played per battle at most


def decision_points(seeds: tuple[int, ...]) -> list[Any]:
    """The states where the computer is asked to decide: random legal play's battles, every ``EVERY``-th action
    in the action phase."""
    points = []
    for seed in seeds:
        table = load_scenario(paths.table_file(("pastoral-hills", "blasted-urban")[seed % 2]))
        rng = random.Random(seed)
        known = sorted(faction_files())
        game = new_game(table, {"A": rng.choice(known), "B": rng.choice(known)})
        count = [0]

        def keep(state: Any, count: list[int] = count) -> None:
            count[0] += 1
            if state.phase == "action" and state.turn is not None and count[0] % EVERY == 0:
                points.append(state)

        selfplay.play_battle(game, new_seeded_dice(seed), rng, 6, ACTIONS, on_action=keep)
    return points


def measure(level: str, seeds: tuple[int, ...]) -> dict[str, Any]:
    points = decision_points(seeds)
    resolved = [0]
    original = actions.Resolving.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        resolved[0] += 1
        original(self, *args, **kwargs)

    actions.Resolving.__init__ = counted     # type: ignore[method-assign]
    cpu: list[float] = []
    chosen: list[str] = []
    try:
        for i, state in enumerate(points):
            side = to_act(state)
            if side is None:
                continue
            legal = legal_actions(state, side)
            if not legal:
                continue
            view = as_data(player_view(state, side))
            c0 = time.process_time()
            decision = Computer(side, level, 1000 + i).decide(view, legal)
            cpu.append(time.process_time() - c0)
            chosen.append(decision.action.text())
    finally:
        actions.Resolving.__init__ = original    # type: ignore[method-assign]
    total = sum(cpu)
    return {"level": level, "decisions": len(cpu), "simulated_actions": resolved[0], "cpu_s": round(total, 2),
            "actions_per_cpu_s": round(resolved[0] / total, 1) if total else 0.0,
            "decision_median_cpu_s": round(statistics.median(cpu), 3) if cpu else 0.0,
            "decision_p95_cpu_s": round(sorted(cpu)[int(0.95 * (len(cpu) - 1))], 3) if cpu else 0.0,
            "decisions_digest": _digest(chosen)}


def _digest(texts: list[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


def main(quick: bool = False, as_json: bool = False, levels: tuple[str, ...] = ("normal", "hard")) -> int:
    seeds = QUICK_SEEDS if quick else SEEDS
    out = []
    for level in levels:
        r = measure(level, seeds)
        out.append(r)
        print(f"{level}: {r['decisions']} decisions, {r['simulated_actions']} simulated actions in {r['cpu_s']} s of "
              f"processor time: {r['actions_per_cpu_s']} actions per processor second; decision median "
              f"{r['decision_median_cpu_s']} s, p95 {r['decision_p95_cpu_s']} s; decisions digest "
              f"{r['decisions_digest']}", flush=True)
        goal = P95_GOAL.get(level)
        if goal is not None:
            r["p95_goal_s"] = goal
            r["p95_goal_met"] = r["decision_p95_cpu_s"] <= goal
            print(f"{level}: decision p95 {r['decision_p95_cpu_s']} s of processor time against a goal of {goal} s: "
                  f"{'met' if r['p95_goal_met'] else 'NOT met'}", flush=True)
    if as_json:
        print(json.dumps({"speed": out}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main("--quick" in sys.argv, "--json" in sys.argv))
