"""One confirmed rifle shot in the window, traced: how many of the package's files it enters and the route it takes.

The window is opened headless on the test table with program dice, a unit is activated and a rifle target picked;
then the trace runs from the confirmation ("Do it") to the next frame drawn. Every call into the package is
recorded with its file. The route is the layer the running code is in, each change kept once: the window
(``ui/``), the service (``service/``) and the engine (``game/``, ``rules/``); a route that goes
window -> service -> engine -> service -> window turns once. Each further turn is a round trip the window makes
for something the service could have told it, or one the service makes to the engine for its answer: the window's
own are counted apart (``window_round_trips``: how many times the route leaves the window; the goal is one, the
action sent and its screen answered).

``python -m benchmarks.trace_rifle`` prints the figures; ``--json`` prints them as data; ``--quick`` is the same
(one shot is quick).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "ui" / "table.toml"
LAYERS = (("ui", "window"), ("cli", "window"), ("service", "service"), ("game", "engine"), ("rules", "engine"),
          ("authoring", "engine"))
DEPTH = {"window": 0, "service": 1, "engine": 2}
GOAL_FILES = 25


def _layer(rel: str) -> str:
    top = rel.split("/", 1)[0]
    for folder, layer in LAYERS:
        if top == folder:
            return layer
    return "engine"


def _shoot():
    """The window ready for the confirmation of a rifle shot: returns (app, the confirmation dialog)."""
    import pygame  # noqa: F401 (the window's library, loaded before the trace starts)

    from referee.game.battle.dice import SeededDice
    from referee.game.play.engine import Game, begin_battle
    from referee.game.battle.state import state_from_scenario
    from referee.rules.scenario import load_scenario
    from referee.service.session import BattleSession
    from referee.ui.app import App
    from referee.ui.scenes.battle import BattleScene

    app = App((1280, 800))
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), SeededDice(7), hotseat=True, viewer="A", autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    scene.select("a-asl")
    scene.press("activate")
    app.step(1 / 30, events=[])
    target = next(r.other for r in scene.report.enemies if getattr(r.rifle, "allowed", False))
    scene.press("rifle")
    scene.choices.pick(target)
    app.step(1 / 30, events=[])
    return app, app.scene


def trace() -> dict:
    import referee

    package = Path(referee.__file__).resolve().parent
    app, confirm = _shoot()
    files: set[str] = set()
    route: list[str] = []
    calls = cross = depth = deepest = 0
    asks: dict[str, int] = {"service": 0, "engine": 0}      # calls the window makes out of itself, by layer
    stack: list[str | None] = []

    def where(frame) -> str | None:
        name = frame.f_code.co_filename
        if not name.startswith(str(package)):
            return None
        return os.path.relpath(name, package).replace(os.sep, "/")

    def profile(frame, event, _arg):
        nonlocal calls, cross, depth, deepest
        if event == "call":
            rel = where(frame)
            caller = stack[-1] if stack else None
            stack.append(rel)
            depth += 1
            deepest = max(deepest, depth)
            if rel is not None:
                calls += 1
                files.add(rel)
                if caller is not None and caller != rel:
                    cross += 1
                if caller is not None and _layer(caller) == "window" and _layer(rel) != "window":
                    asks[_layer(rel)] += 1
                layer = _layer(rel)
                if not route or route[-1] != layer:
                    route.append(layer)
        elif event == "return":
            if stack:
                stack.pop()
            depth -= 1
            back = next((r for r in reversed(stack) if r is not None), None)
            if back is not None:
                layer = _layer(back)
                if route and route[-1] != layer:
                    route.append(layer)

    sys.setprofile(profile)
    try:
        confirm.choose("go")
        app.step(1 / 30, events=[])
    finally:
        sys.setprofile(None)
    turns = sum(1 for a, b, c in zip(route, route[1:], route[2:])
                if (DEPTH[b] - DEPTH[a]) * (DEPTH[c] - DEPTH[b]) < 0)
    trips = sum(1 for a, b in zip(route, route[1:]) if a == "window" and b != "window")
    return {"files": len(files), "goal_files": GOAL_FILES, "window_round_trips": trips, "calls": calls, "cross_file_calls": cross,
            "deepest": deepest, "route": route if len(route) <= 40 else route[:20] + ["..."] + route[-19:],
            "route_length": len(route), "turns": turns, "window_asks": asks, "file_list": sorted(files)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.trace_rifle", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="the same single shot (kept for the benchmarks' flags)")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")       # its greeting would spoil --json
    result = trace()
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"files of the package entered: {result['files']} (goal: at most {GOAL_FILES})")
    print(f"calls into the package: {result['calls']}, across files: {result['cross_file_calls']}, "
          f"deepest: {result['deepest']}")
    asks = result["window_asks"]
    print(f"the window's calls out of itself: {asks['service']} to the service, {asks['engine']} to the engine "
          "(rules functions it draws with)")
    print(f"the window's round trips: {result['window_round_trips']} (goal: 1, window -> service -> window)")
    print(f"route ({result['route_length']} layers, {result['turns']} turns; goal: 1): {' -> '.join(result['route'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
