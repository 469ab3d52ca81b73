"""How fast the computer's imagined battles run: simulated actions per processor second (issue 37).

``python -m benchmarks.computer --speed`` (or ``python -m benchmarks.computer_speed``) takes fixed decision points --
the states of seeded battles of random legal play, which depend on the engine alone, every ``EVERY``-th action of
round 1 on -- and has the computer decide at each of them at a level, counting every action the engine resolves
(a play, a preview, a check run through ``actions.Resolving``) and the processor time it took. The same points and
the same count on two versions of the code tell how much faster the simulation got: the decisions are the same when
the behaviour is.

Beside it, what starting a battle against the computer costs a player (issue 35): a session with the computer on one
side, its set-up decisions made and the human's left to the program ("for me", the blips all placed at once), up to
the human's first decision of round 1, once through the service alone and once through the window's set-up scene
(one frame after each decision, the computer's pause skipped). The battle is neither sealed nor autosaved: a
sealed battle's keys cost a deliberate third of a second of key stretching more. The computer's set-up reasons at
fixed seeds make a digest of their own, which must not change either.
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
from referee.game.battle.action_kinds import Kind
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
START_SEEDS = (21, 22, 23, 24)      # battles started against the computer: its seed, the dice's and the table's
QUICK_START_SEEDS = (21, 22)
START_FACTIONS = {"A": "new-tokyo", "B": "council-of-zane"}


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


def _start_session(seed: int, level: str) -> Any:
    """A battle about to be set up against the computer at ``level``, everything drawn from ``seed``: the table,
    which side the computer plays, its own seed and the dice."""
    # lazy: the service is only needed by this figure, not by the decisions' speed
    from referee.service.session import BattleSession
    table = load_scenario(paths.table_file(("pastoral-hills", "blasted-urban")[seed % 2]))
    game = new_game(table, START_FACTIONS, labels_apart=True)
    side = "AB"[(seed // 2) % 2]
    return BattleSession(game, new_seeded_dice(seed), hotseat=False, autosaving=False,
                         computer=Computer(side, level, seed))


def _human_for_me(session: Any) -> None:
    """The human's set-up decision left to the program, as the window's "for me" (its blips all at once)."""
    # lazy: the service is only needed by this figure
    from referee.service.intents import Action
    offered = session.legal_actions()
    kinds = {la.kind: la for la in offered}
    la = kinds.get(Kind.PLACE_BLIPS) or offered[0]
    session.attempt(Action(la.kind, "" if la.kind == Kind.ROLL_ROLES else la.actor))


def start_service(seed: int, level: str) -> tuple[float, Any]:
    """CPU seconds from a new session to the human's first decision of round 1, through the service alone."""
    c0 = time.process_time()
    session = _start_session(seed, level)
    while session.state.phase == "setup":
        if session.computer_to_act():
            decided = session.computer_act()
            assert decided is not None
            session.attempt(decided[0])
        else:
            _human_for_me(session)
    session.screen(session.viewer)
    return time.process_time() - c0, session


def start_window(seed: int, level: str) -> float:
    """CPU seconds from a new session to the battle scene's first frame, through the window's set-up scene."""
    # lazy: the window (pygame) is loaded only for this figure
    import pygame
    from referee.ui.app import App
    from referee.ui.scenes.battle import BattleScene
    from referee.ui.scenes.dialogs import Dialog
    from referee.ui.scenes.setup_table import SetupTableScene
    app = App((1280, 800))
    try:
        c0 = time.process_time()
        scene = app.push(SetupTableScene(_start_session(seed, level)))
        scene.begin()
        for _ in range(500):
            if app.stack.find(BattleScene) is not None:
                break
            top = app.scene
            if isinstance(top, Dialog):
                top.choose(top.choices[0][0])
            elif top is scene and scene.computer_deciding():
                scene.computer_wait = None
                scene.computer_step()
            elif top is scene:
                if scene.decision().get("step") == "blip":
                    scene.press("rest")
                else:
                    scene.for_me()
            else:
                raise RuntimeError(f"set-up stopped at {type(top).__name__}")
            app.step(0.0, events=[])          # a frame, as the window's loop makes it (no time passes: no pause)
        else:
            raise RuntimeError("set-up did not finish")
        app.step(0.0, events=[])
        return time.process_time() - c0
    finally:
        pygame.quit()


def measure_start(level: str, seeds: tuple[int, ...], window: bool = True) -> dict[str, Any]:
    """Starting a battle against the computer at ``level``: CPU seconds per battle through the service and the
    window, and the digest of the computer's set-up reasons."""
    start_service(seeds[0], level)          # the modules and the tables' caches, once, as a running program has them
    service, reasons = [], []
    for seed in seeds:
        cpu, session = start_service(seed, level)
        service.append(cpu)
        reasons.extend(session.computer_reasons)
    out: dict[str, Any] = {"level": level, "battles": len(seeds),
                           "service_median_cpu_s": round(statistics.median(service), 3),
                           "service_max_cpu_s": round(max(service), 3), "setup_digest": _digest(reasons)}
    if window:
        start_window(seeds[0], level)
        shown = [start_window(seed, level) for seed in seeds]
        out["window_median_cpu_s"] = round(statistics.median(shown), 3)
        out["window_max_cpu_s"] = round(max(shown), 3)
    return out


def _digest(texts: list[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


def main(quick: bool = False, as_json: bool = False, levels: tuple[str, ...] = ("normal", "hard")) -> int:
    seeds = QUICK_SEEDS if quick else SEEDS
    starts = []
    for level in levels:
        r = measure_start(level, QUICK_START_SEEDS if quick else START_SEEDS)
        starts.append(r)
        print(f"{level}: a battle started against the computer, to the human's first decision of round 1: "
              f"{r['service_median_cpu_s']} s of processor time through the service (median of {r['battles']}, "
              f"at most {r['service_max_cpu_s']} s), {r.get('window_median_cpu_s')} s through the window's set-up "
              f"(at most {r.get('window_max_cpu_s')} s); set-up digest {r['setup_digest']}", flush=True)
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
        print(json.dumps({"speed": out, "start": starts}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main("--quick" in sys.argv, "--json" in sys.argv))
