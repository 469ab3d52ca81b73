"""The window's side of the served battle (issue 31): what the shared table costs per frame, how long its frame takes
once a hand changed the battle, and how long a joined window waits from its action to its refreshed screen.

Run ``python -m benchmarks.window_network`` (``--quick`` for a short run, ``--json`` for one JSON object on the last
line). Headless (SDL's dummy driver), on the default table with a battle set up by the program and played a little
by the random player. Three figures:

* the idle frame of the table mode beside the hot-seat battle scene's (the table asks the service each frame whether
  anyone changed the battle);
* the table's frame just after a hand's intent changed the battle (the host applies it; the table reads the public
  view again, its log and whom it waits for): a hand's change is on the table after at most one frame more;
* a window joined to a host on 127.0.0.1: from the click's action to the screen that follows it, refreshed (the
  intent, the host's reply, the new screen, the scene rebuilt from it); and of that, the part spent waiting for the
  host (the intent sent, its reply and the new screen received).

Figures depend on the machine and its load: they are reported here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def battle_game():
    from referee import paths
    from referee.game.battle.dice import SeededDice
    from referee.game.play.engine import Game, begin_battle
    from referee.game.players.random_play import random_action
    from referee.game.play.setup import SetupChoices, new_battle
    from referee.rules.scenario import load_scenario

    state, _ = new_battle(load_scenario(paths.DEFAULT_SCENARIO),
                          SetupChoices(factions={"A": "council-of-zane", "B": "new-tokyo"}), SeededDice(11))
    game = Game(begin_battle(state))
    rng, dice = random.Random(3), SeededDice(3)
    for _ in range(30):
        action = random_action(game.state, rng)
        if action.kind in ("end-of-round", "objectives"):
            break
        game.play(action, dice)
    return game


def session_of(game):
    from referee.game.battle.dice import SeededDice
    from referee.game.play.engine import Game
    from referee.service.session import BattleSession

    return BattleSession(Game(game.state.copy()), SeededDice(5), autosaving=False, hotseat=False)


def next_step(session) -> "object":
    """The next public step of the battle: the turn or activation ended, or at the end of a round the next round."""
    from referee.game.battle.intents import Action

    if session.view(log=False)["phase"] == "end-of-round":
        return Action("end-of-round")
    return Action("end-turn" if session.offers("end-turn") else "end-activation")


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def idle_frames(game, frames: int) -> dict[str, float]:
    import pygame

    from referee.ui.app import App
    from referee.ui.scenes.battle import BattleScene
    from referee.ui.scenes.table_mode import TableModeScene

    out = {}
    for name, make in (("battle", lambda s: BattleScene(s)), ("table", lambda s: TableModeScene(s))):
        app = App((1280, 800))
        app.push(make(session_of(game)))
        for _ in range(5):
            app.step(1 / 60, events=[])
        start = time.perf_counter()
        for _ in range(frames):
            app.step(1 / 60, events=[])
        out[f"{name}_idle_frame_ms"] = ms((time.perf_counter() - start) / frames)
        pygame.quit()
    return out


def table_after_change(game, changes: int) -> dict[str, float]:
    import pygame

    from referee.ui.app import App
    from referee.ui.scenes.table_mode import TableModeScene

    session = session_of(game)
    app = App((1280, 800))
    app.push(TableModeScene(session))
    app.step(1 / 60, events=[])
    times = []
    for _ in range(changes):
        if session.over:
            break
        outcome = session.attempt(next_step(session)).outcome     # as the host applies a hand's intent
        if outcome is None or not outcome.legal:
            break
        start = time.perf_counter()
        app.step(1 / 60, events=[])
        times.append(time.perf_counter() - start)
        while len(app.stack) > 1:
            app.pop()
    pygame.quit()
    return {"table_frame_after_change_p50_ms": ms(statistics.median(times)),
            "table_frame_after_change_max_ms": ms(max(times)), "table_changes": len(times)}


def joined_round_trips(game, actions: int) -> dict[str, float]:
    import pygame

    from referee.net.host import Host
    from referee.ui.app import App
    from referee.ui.joining import join

    session = session_of(game)
    host = Host.start(session, bind="127.0.0.1")
    app = App((1280, 800))
    app.open_menu()
    scenes = {}
    times: list[float] = []
    host_times: list[float] = []
    try:
        for side in ("A", "B"):
            scene = join(app, host.link(side))
            assert not isinstance(scene, str), scene
            scenes[side] = scene
            app.pop()
        while len(times) < actions and not session.over:
            side = session.to_act()
            if side is None:
                # The end of a round is both hands' word; here the host takes the next round at once (not timed).
                with host.lock:
                    session.attempt(next_step(session))
                host.changed()
                for other in scenes.values():
                    other.battle.seat.wait_version(host.version)
                continue
            scene = scenes[side]
            app.push(scene)
            scene.changed()
            start = time.perf_counter()
            scene.do(next_step(session))
            sent = scene.battle.last_send
            app.step(1 / 60, events=[])
            times.append(time.perf_counter() - start)
            host_times.append(sent)
            while app.scene is not scene:
                app.pop()
            app.stack.scenes.pop()          # keep the scene (and its connection) for its side's next turn
    finally:
        for scene in scenes.values():
            scene.battle.close()
        host.stop()
        pygame.quit()
    times.sort()
    return {"joined_host_reply_and_screen_p50_ms": ms(statistics.median(host_times)),
            "joined_action_to_screen_p50_ms": ms(statistics.median(times)),
            "joined_action_to_screen_p95_ms": ms(times[min(len(times) - 1, int(0.95 * len(times)))]),
            "joined_actions": len(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = parser.parse_args()
    game = battle_game()
    result: dict[str, float] = {}
    result.update(idle_frames(game, 60 if args.quick else 300))
    result.update(table_after_change(game, 8 if args.quick else 40))
    result.update(joined_round_trips(game, 8 if args.quick else 40))
    for key, value in result.items():
        print(f"{key}: {value}")
    if args.json:
        print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
