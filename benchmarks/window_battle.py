"""A long battle played headless through the window's own controller: the battle scene's ``do`` for every action, its
dialogs answered (hand-off, end of round, objectives), one frame drawn after each action, the autosave on.

``python -m benchmarks.window_battle --rounds 200`` prints whether the window stays flat: the median and the mean CPU
time per action in the first five rounds, five in the middle and the last five, the dearer of the middle and the last
against the first, and the resident memory after round 1, 20, 100 and 200 and at its largest, each beside its
target, with whether the middle and the last rounds' actions cost at most 1.15 times the first rounds', by the median
(a typical action) and by the mean (which counts the rarer dear ones: a dialog, a round's end).

Rounds apart, though, the play differs: late in a battle more units stand revealed and in sight of each other, and
the hand-offs come more often. So flat is judged on the battle's length alone: from the start of a late round, the
same actions (the same random proposals, the same dice) are played through a fresh window twice, once with the whole
battle behind them (its log, record and autosave) and once with none, in turn three times; flat means the first cost
at most 1.15 times the second, and the memory after the last round is within 10 % of that after round 20 (a tenth
of the battle: the window's own pictures and caches are made by then). ``--json`` prints the measurements instead (the wall-clock and CPU milliseconds of each
action with its round, the memory after each round, the same play's two medians), as ``benchmarks.run`` reads them.

Random players agree to play on, as in the long-game test: missions without a round limit, no Withdraw, and a truce
(no more attacks, jammers off) once a side is down to its last two troopers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time

ATTACKS = ("rifle", "missile", "flamer", "kamikaze")
TRUCE_AT = 2
ANSWERS = {"ready": "ready", "next": "next", "secured": "secured", "allow": "allow"}
TARGET_ACTION_MS = 20.0       # per action, at any round
TARGET_MEMORY_MB = 150.0
FLAT_ACTION = 1.15            # the middle and last rounds' median (and mean) per action at most this times the first's
FLAT_MEMORY = 1.10            # the memory after the last round at most this times that after a tenth of the battle


def _resident_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _battle(seed: int):
    from referee.game.battle.dice import SeededDice
    from referee.game.play.setup import SetupChoices, new_battle
    from referee.game.play.victory import round_limit
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
    from referee.game.battle.intents import Action
    from referee.game.players.random_play import random_action
    from referee.game.battle.state import SIDES

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


DRAWS_SEED = 77                # the program's card draws: fixed, so that the same play can be played twice


def _window(game, seed: int, viewer: str | None = None):
    from referee.game.battle.dice import SeededDice
    from referee.ui.app import App
    from referee.service.session import BattleSession
    from referee.ui.scenes.battle import BattleScene

    app = App()
    session = BattleSession(game, SeededDice(seed), hotseat=True, draws=SeededDice(DRAWS_SEED))
    if viewer is not None:
        session.viewer = viewer
    scene = app.push(BattleScene(session))
    _answer_dialogs(app, scene)
    app.step(1 / 60, events=[])
    return app, session, scene


def _act(app, scene, action) -> tuple[float, float]:
    """One action through the battle scene, its dialogs answered and a frame drawn: its wall-clock and CPU ms."""
    c0, t0 = time.thread_time(), time.perf_counter()
    scene.do(action)
    _answer_dialogs(app, scene)
    app.step(1 / 60, events=[])
    return (time.perf_counter() - t0) * 1000.0, (time.thread_time() - c0) * 1000.0


def play(rounds: int, seed: int = 5, keep_from: int | None = None) -> dict:
    """The battle through the window. ``keep_from``: the round whose start is kept (the state, the record's length,
    the proposals' random state and the side at the screen) for ``same_play``; the round after the last played
    (``rounds + 1``) may be kept too, its start reached and nothing of it played."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from referee.game.play.engine import Game

    state, dice = _battle(seed)
    app, session, scene = _window(Game(state), dice.seed)
    rng = random.Random(seed)
    actions: list[tuple[int, float, float]] = []
    memory: list[tuple[int, float]] = [(0, _resident_mb())]
    last_round = session.state.round
    kept = None
    while session.state.phase != "over":
        round_now = session.state.round
        if kept is None and keep_from is not None and round_now >= keep_from and session.state.phase == "action":
            kept = {"game": session.game, "state": session.state.copy(), "record": len(session.game.record),
                    "rng": rng.getstate(), "viewer": session.viewer, "round": round_now, "seed": dice.seed}
        if round_now > rounds and (kept is not None or keep_from is None or keep_from <= rounds):
            break
        action = _proposal(session.state, rng)
        wall, cpu = _act(app, scene, action)
        actions.append((round_now, wall, cpu))
        if session.state.round != last_round:
            memory.append((last_round, _resident_mb()))
            last_round = session.state.round
    out = {"actions": actions, "memory": memory, "rounds": last_round, "phase": session.state.phase}
    if kept is not None:
        out["kept"] = kept
    return out


def _replay(kept: dict, history: bool, rounds: int) -> tuple[list[float], list[str]]:
    """The same play from the kept round's start, with the battle's whole history behind it or with none (the same
    table, units and turn, a log of one entry and an empty record, the program's dice going on from the same action's number): the
    CPU ms of each action and the actions' words, which must be equal for the two to be compared."""
    from referee.game.play.engine import Game
    from referee.game.play.undo import moment_index

    past, state = kept["game"], kept["state"].copy()
    if history:
        game = Game(past.initial, list(past.record[:kept["record"]]), state, players=past.players)
    else:
        from referee.game.battle.state import LogEntry

        # One entry naming every counter the log has named: a new blip never takes a label used before
        # (``state.labels_in_use``), so both replays label a Scramble's blips alike.
        named = sorted({u for e in state.log for u in e.units})
        state.log = [LogEntry("the battle so far", units=named, round=state.round)]
        game = Game(state, [], state.copy(), players=past.players)
        # The dice of the n-th action are keyed by n (``undo.moment_index``): the empty record counts on from the
        # long one's, so both draw the same faces.
        game.counted = (0, None, moment_index(Game(past.initial, past.record[:kept["record"]], state)) - 1)
    app, session, scene = _window(game, kept["seed"], kept["viewer"])
    rng = random.Random()
    rng.setstate(kept["rng"])
    cpus: list[float] = []
    words: list[str] = []
    while session.state.round < kept["round"] + rounds and session.state.phase != "over":
        action = _proposal(session.state, rng)
        words.append(action.text())
        cpus.append(_act(app, scene, action)[1])
    return cpus, words


def same_play(kept: dict, rounds: int = 3, tries: int = 3) -> dict:
    """The window's dependence on the battle's length alone: the same actions played from the same position with
    the whole battle behind them and with none, in turn ``tries`` times; the median CPU ms per action of each."""
    long_runs, short_runs = [], []
    words: dict[bool, list[str]] = {}
    for _ in range(tries):
        for history, runs in ((True, long_runs), (False, short_runs)):
            cpus, said = _replay(kept, history, rounds)
            runs.append(statistics.median(cpus) if cpus else float("nan"))
            words.setdefault(history, said)
    return {"round": kept["round"], "rounds": rounds, "history_rounds": kept["round"] - 1,
            "actions": len(words[True]), "same": words[True] == words[False],
            "with_history": statistics.median(long_runs), "without": statistics.median(short_runs)}


def _rounds_median(actions: list, first: int, last: int) -> tuple[float, float, int, float] | None:
    """Median wall-clock and CPU ms of the actions taken in rounds ``first`` to ``last``, how many there were, and
    their mean CPU ms."""
    walls = [w for r, w, _ in actions if first <= r <= last]
    cpus = [c for r, _, c in actions if first <= r <= last]
    return (statistics.median(walls), statistics.median(cpus), len(walls), statistics.mean(cpus)) if walls else None


def _worst(per_action: dict, figure: int) -> float | None:
    """The dearer of the middle and the last rounds against the first, by ``figure`` (1: median, 3: mean CPU)."""
    first = per_action["first"]
    later = [m[figure] for m in (per_action["middle"], per_action["last"]) if m]
    return max(later) / first[figure] if first and later and first[figure] > 0 else None


def _memory_after(memory: list, round_: int) -> float | None:
    return next((m for r, m in memory if r >= round_), None)


def flatness(out: dict) -> dict:
    """The figures that say whether the window stays flat over the battle ``play`` returned."""
    actions, memory, last = out["actions"], out["memory"], out["rounds"]
    if out["phase"] != "over" and last > 1:
        last -= 1                                  # the round under way when the battle was stopped is not whole
    middle = max(5, (last + 1) // 2)
    spans = {"first": (1, min(5, last)), "middle": (middle - 4, middle), "last": (max(1, last - 4), last)}
    per_action = {name: _rounds_median(actions, a, b) for name, (a, b) in spans.items()}
    tenth = max(1, last // 10)
    memory_at = {r: _memory_after(memory, r) for r in sorted({1, tenth, middle, last})}
    first, final = per_action["first"], per_action["last"]
    ratio = final[1] / first[1] if first and final and first[1] > 0 else None
    middle_m = per_action["middle"]
    late_ratio = final[1] / middle_m[1] if middle_m and final and middle_m[1] > 0 else None
    grown = (memory_at[last] / memory_at[tenth] if memory_at[last] is not None and memory_at[tenth] else None)
    worst, worst_mean = _worst(per_action, 1), _worst(per_action, 3)
    return {"rounds": last, "spans": spans, "per_action": per_action, "ratio": ratio, "late_ratio": late_ratio,
            "worst": worst, "worst_mean": worst_mean,
            "memory_at": memory_at,
            "tenth": tenth, "peak": max(m for _, m in memory), "grown": grown,
            "flat_action": worst is not None and worst_mean is not None and max(worst, worst_mean) <= FLAT_ACTION,
            "flat_memory": grown is not None and grown <= FLAT_MEMORY, **_history(out.get("same_play"))}


def _history(same: dict | None) -> dict:
    """What the battle's length alone adds to an action: the same actions with the whole battle behind them
    against none (``same_play``)."""
    if not same or not same["same"] or not same["without"] > 0:
        return {"history": None, "flat_history": None}
    ratio = same["with_history"] / same["without"]
    return {"history": ratio, "flat_history": ratio <= FLAT_ACTION}


def _load() -> str:
    try:
        return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load unknown"


def report(out: dict) -> list[str]:
    """``flatness`` as the lines printed, each figure beside its target."""
    f = flatness(out)
    lines = [f"The window over a {f['rounds']}-round battle, every action through the battle scene and one frame "
             f"drawn after it (CPU time of the window's thread, median; wall clock beside it); {_load()}"]
    for name, (a, b) in f["spans"].items():
        m = f["per_action"][name]
        figure = f"{m[1]:7.2f} ms CPU ({m[0]:.2f} ms wall, {m[2]} actions, mean {m[3]:.2f})" if m else "    -"
        meets = "PASS" if m and m[1] <= TARGET_ACTION_MS else "MISS"
        lines.append(f"  per action, rounds {a:>3}-{b:<3} {figure:<50} <= {TARGET_ACTION_MS:g} ms  {meets}")
    nan = float("nan")
    worst, worst_mean = f["worst"], f["worst_mean"]
    lines.append(f"  dearer of middle, last / first {worst if worst is not None else nan:5.2f} (median), "
                 f"{worst_mean if worst_mean is not None else nan:.2f} (mean){'':22} "
                 f"{'within' if f['flat_action'] else 'above'} {FLAT_ACTION:g} (the play differs)")
    same = out.get("same_play")
    if same:
        a, b = same["round"], same["round"] + same["rounds"] - 1
        if f["history"] is None:
            lines.append(f"  the same play, rounds {a}-{b}: not compared (the two replays took different actions)")
        else:
            lines.append(f"  the same {same['actions']} actions, rounds {a}-{b}, after {same['history_rounds']} rounds "
                         f"of battle / after none: {same['with_history']:.2f} / {same['without']:.2f} ms CPU = "
                         f"{f['history']:.2f}   <= {FLAT_ACTION:g}   {'FLAT' if f['flat_history'] else 'GROWS'}")
    ratio = f["ratio"]
    lines.append(f"  last / first                 {ratio if ratio is not None else nan:7.2f}{'':43} (median)")
    late = f["late_ratio"]
    lines.append(f"  last / middle                {late if late is not None else nan:7.2f}"
                 f"{'':43} (the same kind of play, half the battle apart)")
    for r, m in f["memory_at"].items():
        meets = "PASS" if m is not None and m <= TARGET_MEMORY_MB else "MISS"
        lines.append(f"  memory after round {r:<9} {m if m is not None else nan:7.1f} MB{'':40} "
                     f"<= {TARGET_MEMORY_MB:g} MB {meets}")
    lines.append(f"  memory at its largest        {f['peak']:7.1f} MB{'':40} <= {TARGET_MEMORY_MB:g} MB "
                 f"{'PASS' if f['peak'] <= TARGET_MEMORY_MB else 'MISS'}")
    grown = f["grown"]
    lines.append(f"  round {f['rounds']} / round {f['tenth']} memory   "
                 f"{(grown - 1) * 100 if grown is not None else nan:+7.1f} %{'':41} <= "
                 f"+{(FLAT_MEMORY - 1) * 100:g} %  {'FLAT' if f['flat_memory'] else 'GROWS'}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.window_battle", description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", action="store_true", help="print the measurements as one JSON object")
    ap.add_argument("--same-play", type=int, default=3, metavar="N",
                    help="rounds of the same play replayed with and without the battle's history (default 3; 0: none)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:
        os.environ["SEVEN_SECONDS_HOME"] = home           # the autosave goes here, not to the player's saves
        out = play(args.rounds, args.seed, keep_from=max(2, args.rounds - 4) if args.same_play else None)
        kept = out.pop("kept", None)
        if kept is not None:
            out["same_play"] = same_play(kept, args.same_play)
    if args.json:
        json.dump(out, sys.stdout)
    else:
        print("\n".join(report(out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
