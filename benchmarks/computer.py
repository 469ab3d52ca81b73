"""The computer opponent's strength, speed and honesty (issue 15).

Run ``python -m benchmarks.computer`` (``--quick`` for a short run, ``--json`` for one JSON object on the last line).

* **Battles**: seeded battles on the bundled tables, each pairing played with the sides swapped (every seed twice,
  the computer once as side A and once as side B): normal against random legal play, hard against normal, normal
  against easy. Set-up is placed for both players as ``selfplay`` does. Battles are capped in rounds to keep the run
  short (the cap is printed): at the cap both players agree to stop, the table is Contested, and the winner is the
  engine's own result (mission Victory Points). A draw counts half a win.
* **Decision time**: the wall-clock time of each of the computer's decisions, per level (median and 95th
  percentile). It depends on the machine and its load: reported here, never asserted in tests.
* **Peek test**: for sampled decisions of the computer, everything its side cannot see is dealt again consistently
  with its view (``game/computer/peek.py``) and the decision taken again; ``peek_changes`` counts the decisions that
  changed (must be 0).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass, field


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    draws: int = 0
    margins: list[int] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class Figures:
    times: dict[str, list[float]] = field(default_factory=dict)
    peek_checked: int = 0
    peek_changed: int = 0
    peek_examples: list[str] = field(default_factory=list)


def battle(seed: int, table_name: str, kinds: tuple[str, str], rounds: int, figures: Figures,
           peek_every: int, peek_left: list[int]) -> dict[str, object]:
    from referee import paths
    from referee.game.computer.peek import check, honest
    from referee.game.engine import Game
    from referee.game.players import ComputerPlayer, make_player
    from referee.game.record import new_seeded_dice
    from referee.game.selfplay import play_battle
    from referee.game.session import Session
    from referee.game.setup import SetupChoices, new_battle
    from referee.rules.factions import faction_files
    from referee.rules.scenario import load_scenario

    table = load_scenario(paths.table_file(table_name))
    rng = random.Random(seed)
    known = sorted(faction_files())
    factions = [rng.choice(known), rng.choice(known)]
    dice = new_seeded_dice(seed)
    state, _ = new_battle(table, SetupChoices(factions={"A": factions[0], "B": factions[1]}), dice)
    game = Game(state)
    players = {side: make_player(kind, side, seed, rng) for side, kind in zip("AB", kinds)}
    peek_rng = random.Random(seed * 7919 + 1)
    count = [0]
    for side, p in players.items():
        if not isinstance(p, ComputerPlayer):
            continue
        computer = p.computer
        level = computer.level.name
        inner = computer.decide

        def timed(view, legal, inner=inner, level=level):       # type: ignore[no-untyped-def]
            t0 = time.perf_counter()
            d = inner(view, legal)
            figures.times.setdefault(level, []).append(time.perf_counter() - t0)
            return d

        computer.decide = timed        # type: ignore[method-assign]
        act = p.act

        def act_and_peek(session: Session, side: str, act=act, inner=inner):      # type: ignore[no-untyped-def]
            count[0] += 1
            s = session.state
            if peek_left[0] > 0 and count[0] % peek_every == 0 and s.phase == "action":
                r = check(s, side, honest(inner), peek_rng, 1)
                figures.peek_checked += r.checked
                figures.peek_changed += r.changed
                figures.peek_examples.extend(r.examples)
                peek_left[0] -= r.checked
            return act(session, side)

        p.act = act_and_peek           # type: ignore[method-assign]
    play_battle(game, dice, rng, rounds, 20000, players)
    s = game.state
    result = s.result or {}
    return {"winner": result.get("winner"), "vp": result.get("vp"), "round": s.round, "phase": s.phase,
            "control": s.control}


def pairing(name: str, kinds: tuple[str, str], seeds: list[int], tables: list[str], rounds: int, figures: Figures,
            peek_every: int, peek_left: list[int], out: list[str]) -> Tally:
    """``kinds[0]`` is the player measured; each seed is played twice, with the sides swapped."""
    tally = Tally()
    for i, seed in enumerate(seeds):
        table = tables[i % len(tables)]
        for swap in (False, True):
            seat = (kinds[1], kinds[0]) if swap else kinds
            me = "B" if swap else "A"
            t0 = time.perf_counter()
            r = battle(seed, table, seat, rounds, figures, peek_every, peek_left)
            vp = r["vp"] or {"A": 0, "B": 0}
            assert isinstance(vp, dict)
            tally.games += 1
            if r["winner"] == me:
                tally.wins += 1
            elif r["winner"] is None:
                tally.wins += 0.5
                tally.draws += 1
            tally.margins.append(vp[me] - vp["B" if me == "A" else "A"])
            out.append(f"  {name}: seed {seed} on {table}, {kinds[0]} as side {me}: winner "
                       f"{r['winner'] or 'none (a draw)'}, VP A {vp['A']} B {vp['B']}, round {r['round']}, "
                       f"{time.perf_counter() - t0:.0f} s")
            print(out[-1], file=sys.stderr, flush=True)
    return tally


def p95(xs: list[float]) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="20 battles capped at 3 rounds, 100 peek-checked decisions")
    ap.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    ap.add_argument("--rounds", type=int, default=None, help="the round cap (default 3 quick, 8 full)")
    args = ap.parse_args(argv)
    tables = ["pastoral-hills", "blasted-urban"]
    if args.quick:
        seeds_random, seeds_hard, seeds_easy, rounds, peeks = [1, 2, 3, 4], [5, 6, 7], [8, 9, 10], 3, 100
    else:
        seeds_random, seeds_hard, seeds_easy, rounds, peeks = (list(range(1, 101)), list(range(101, 121)),
                                                               list(range(121, 141)), 8, 1000)
    rounds = args.rounds or rounds
    figures = Figures()
    lines: list[str] = []
    peek_left = [peeks]
    battles_vs_random = 2 * len(seeds_random)
    # Sample decisions evenly over the battles against random play: enough of them to reach the peek target.
    peek_every = 3
    t0 = time.perf_counter()
    vs_random = pairing("normal vs random", ("computer:normal", "random"), seeds_random, tables, rounds, figures,
                        peek_every, peek_left, lines)
    hard = pairing("hard vs normal", ("computer:hard", "computer:normal"), seeds_hard, tables, rounds, figures,
                   peek_every, peek_left, lines)
    easy = pairing("normal vs easy", ("computer:normal", "computer:easy"), seeds_easy, tables, rounds, figures,
                   peek_every, peek_left, lines)
    elapsed = time.perf_counter() - t0
    games = vs_random.games + hard.games + easy.games
    per_level = {lv: {"decisions": len(ts), "median_s": round(statistics.median(ts), 3), "p95_s": round(p95(ts), 3)}
                 for lv, ts in sorted(figures.times.items())}
    print(f"computer benchmark ({'quick' if args.quick else 'full'}): {games} battles on {', '.join(tables)}, "
          f"each seed played twice with the sides swapped; every battle capped at {rounds} rounds (then both agree "
          f"to stop, the table is Contested, and the engine's result decides; a draw counts half)")
    for line in lines:
        print(line)
    print("| figure | measured | target |")
    print("|---|---|---|")
    print(f"| win rate, normal vs random, {vs_random.games} battles | {vs_random.rate:.0%} ({vs_random.draws} draws) | >= 95 % |")
    print(f"| win rate, hard vs normal, {hard.games} battles | {hard.rate:.0%} ({hard.draws} draws) | >= 65 % |")
    print(f"| win rate, normal vs easy, {easy.games} battles | {easy.rate:.0%} ({easy.draws} draws) | >= 65 % |")
    for lv, f in per_level.items():
        target = {"normal": "<= 1 s", "hard": "<= 3 s"}.get(lv, "-")
        print(f"| decision time {lv}, {f['decisions']} decisions | median {f['median_s']} s, p95 {f['p95_s']} s | {target} |")
    print(f"| peek test: decisions changed by re-dealing hidden information | {figures.peek_changed} of "
          f"{figures.peek_checked} | 0 of >= {peeks} |")
    for e in figures.peek_examples[:5]:
        print(f"  changed: {e}")
    print(f"elapsed {elapsed:.0f} s")
    del battles_vs_random
    if args.json:
        print(json.dumps({
            "games": games, "rounds_cap": rounds,
            "win_rate_vs_random": round(vs_random.rate, 3),
            "win_rate_hard_vs_normal": round(hard.rate, 3),
            "win_rate_normal_vs_easy": round(easy.rate, 3),
            "decision_p95_s": per_level.get("normal", {}).get("p95_s", 0.0),
            "decision_p95_s_by_level": {lv: f["p95_s"] for lv, f in per_level.items()},
            "peek_changes": figures.peek_changed, "decisions_checked": figures.peek_checked,
            "elapsed_s": round(elapsed, 1),
        }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
