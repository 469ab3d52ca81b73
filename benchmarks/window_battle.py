"""A long battle played headless through the window's own controller: the battle scene's ``do`` for every action, its
dialogs answered (hand-off, end of round, objectives), one frame drawn after each action, the autosave on.

``python -m benchmarks.window_battle --rounds 200`` prints one JSON object: the wall-clock and CPU milliseconds of
each action (with its round) and the process's resident memory after each round. ``benchmarks.run`` runs it in a
fresh process and reports the medians of the first and the last rounds.

Random players agree to play on, as in the long-game test: missions without a round limit, no Withdraw, and a truce
(no more attacks, jammers off) once a side is down to its last two troopers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import tempfile
import time

ATTACKS = ("rifle", "missile", "flamer", "kamikaze")
TRUCE_AT = 2
ANSWERS = {"ready": "ready", "next": "next", "secured": "secured", "allow": "allow"}


def _resident_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _battle(seed: int):
    from referee.game.dice import SeededDice
    from referee.game.setup import SetupChoices, new_battle
    from referee.game.victory import round_limit
    from referee.rules.scenario import parse_scenario

    table = parse_scenario({
        "name": "long field", "table": {"width": 36, "height": 36},
        "terrain": [{"id": "w1", "type": "woods", "polygon": [[14, 14], [20, 14], [20, 20], [14, 20]]},
                    {"id": "h1", "type": "hills", "polygon": [[25, 18], [29, 18], [29, 22], [25, 22]]},
                    {"id": "b1", "type": "bush", "polygon": [[5, 15], [9, 15], [9, 19], [5, 19]]}],
    }, "long field")
    for s in range(seed, seed + 60):
        state, _ = new_battle(table, SetupChoices(factions={"A": "council-of-zane", "B": "new-tokyo"}), SeededDice(s))
        if round_limit(state) is None:
            return state, SeededDice(s)
    raise RuntimeError("no set-up without a round limit")


def _proposal(state, rng):
    """The random player's proposal, with the players' agreement to play on."""
    from referee.game.actions import Action
    from referee.game.random_play import random_action
    from referee.game.state import SIDES

    action = random_action(state, rng)
    if action.kind == "end-of-round":
        return Action("end-of-round")
    if min(state.troopers_left(side) for side in SIDES) > TRUCE_AT:
        return action
    t = state.turn
    if t is not None and t.active in state.units and state.units[t.active].jammer_on:
        return Action("jammer", t.active)
    if action.kind in ATTACKS:
        return Action("end-activation")
    if action.kind == "jammer" and action.actor in state.units and not state.units[action.actor].jammer_on:
        return Action("end-activation")
    return action


def _answer_dialogs(app, scene) -> None:
    """Answer whatever the battle asks on top of the table: the next player is ready, the next round, objectives."""
    from referee.ui.scenes.dialogs import Dialog

    for _ in range(20):
        top = app.scene
        if top is scene or not isinstance(top, Dialog):
            return
        keys = [k for k, _ in top.choices]
        top.choose(next((k for k in keys if k in ANSWERS), keys[0] if keys else None))


def play(rounds: int, seed: int = 5) -> dict:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from referee.game.engine import Game
    from referee.ui.app import App
    from referee.ui.battle import BattleSession
    from referee.ui.scenes.battle import BattleScene

    state, dice = _battle(seed)
    app = App()
    session = BattleSession(Game(state), dice, hotseat=True)
    scene = app.push(BattleScene(session))
    _answer_dialogs(app, scene)
    app.step(1 / 60, events=[])
    rng = random.Random(seed)
    actions: list[tuple[int, float, float]] = []
    memory: list[tuple[int, float]] = [(0, _resident_mb())]
    last_round = session.state.round
    while session.state.round <= rounds and session.state.phase != "over":
        round_now = session.state.round
        action = _proposal(session.state, rng)
        c0, t0 = time.thread_time(), time.perf_counter()
        scene.do(action)
        _answer_dialogs(app, scene)
        app.step(1 / 60, events=[])
        actions.append((round_now, (time.perf_counter() - t0) * 1000.0, (time.thread_time() - c0) * 1000.0))
        if session.state.round != last_round:
            memory.append((last_round, _resident_mb()))
            last_round = session.state.round
    return {"actions": actions, "memory": memory, "rounds": last_round, "phase": session.state.phase}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.window_battle", description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:
        os.environ["SEVEN_SECONDS_HOME"] = home           # the autosave goes here, not to the player's saves
        out = play(args.rounds, args.seed)
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
