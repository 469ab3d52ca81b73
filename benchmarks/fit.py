"""Fit the computer's attack weights by play against the stranger opponents (issue 37).

Run ``python -m benchmarks.fit`` (``--quick`` for a short run, ``--json`` for one JSON object on the last line).

A coordinate search over the few weights of ``evaluate.Weights`` that decide how an attacker plays: from the weights
in use, each weight in turn is multiplied by each factor (``--factors``, default 0.5 and 2) and the candidate plays
the same battles as the best so far: a level (``--level``, default normal) against each stranger of
``strangers.py`` (``--strangers``), each seed twice with the sides swapped, on seeds the benchmark does not use (from
``--first-seed``, default 5001, going round both bundled tables and every faction pairing as the benchmark does).
The same seeds for every candidate (common random numbers): a battle in which two candidates decide alike is the
same battle, so their difference is read battle by battle, not drowned in the luck of the cards. A candidate
replaces the best only if it scores more (a win 1, a draw half), the mean margin breaking a tie; ``--passes`` goes
round the weights again from the new best. Each candidate's line gives its wins, its win rate with two standard
errors, its mean margin, its wins as attacker, and its difference from the best so far, battle by battle, with
two standard errors of that difference. The last lines name the weights found: the best of several candidates on a
few battles is chosen partly for its luck, so they are written into ``evaluate.Weights`` (with this command beside
them) only once the benchmark's own seeds (``python -m benchmarks.computer``) show them stronger.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
import time
from typing import Any

from .computer import ROUNDS_GUARD, ROUNDS_QUICK, Tally, _run, faction_pairings, jobs_for, result_line, role_of
from .strangers import STYLES

PARAMS = ("threat", "clock_hunt", "attrition")     # the weights searched by default, in this order


def _play(job: tuple[dict[str, float], tuple[Any, ...]]) -> dict[str, Any]:
    """One battle with the computer's evaluation weighted by ``weights`` (set in this process before it plays)."""
    from referee.game.players.computer import evaluate

    weights, battle = job
    evaluate.WEIGHTS = dataclasses.replace(evaluate.Weights(), **weights)
    r = _run(battle)
    for heavy in ("times", "cpu", "peek"):
        r.pop(heavy, None)
    return r


def _score(r: dict[str, Any]) -> float:
    me = r["me"]
    return 1.0 if r["winner"] == me else 0.5 if r["winner"] is None else 0.0


def _margin(r: dict[str, Any]) -> int:
    me, vp = r["me"], r["vp"]
    return int(vp[me] - vp["B" if me == "A" else "A"])


def _key(r: dict[str, Any]) -> tuple[Any, ...]:
    return r["name"], r["seed"], r["me"]


def play(weights: dict[str, float], battles: list[tuple[Any, ...]], jobs: int) -> dict[tuple[Any, ...], dict[str, Any]]:
    """Every battle played with ``weights``; the results by battle (pairing, seed, side)."""
    work = [(weights, b) for b in battles]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_play, work))
    else:
        results = [_play(w) for w in work]
    return {_key(r): r for r in results}


def summary(results: dict[tuple[Any, ...], dict[str, Any]],
            best: dict[tuple[Any, ...], dict[str, Any]] | None) -> dict[str, Any]:
    """A candidate's figures, and its difference from the best so far battle by battle (the same battles)."""
    t = Tally()
    attacks = attack_wins = 0.0
    for r in results.values():
        t.games += 1
        s = _score(r)
        t.wins += s
        t.draws += r["winner"] is None
        t.margins.append(_margin(r))
        if role_of(r) == "attacker":
            attacks += 1
            attack_wins += s
    out: dict[str, Any] = {"battles": t.games, "wins": t.wins, "rate": round(t.rate, 3),
                           "two_standard_errors": round(t.spread, 3),
                           "mean_margin": round(statistics.mean(t.margins), 2) if t.margins else 0.0,
                           "attacks": int(attacks), "attack_wins": attack_wins}
    if best is not None:
        diffs = [_score(r) - _score(best[k]) for k, r in results.items() if k in best]
        mean = statistics.mean(diffs) if diffs else 0.0
        sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
        out["difference"] = round(sum(diffs), 2)
        out["difference_two_standard_errors"] = round(2.0 * sd * math.sqrt(len(diffs)), 2)
        out["battles_changed"] = sum(1 for k, r in results.items() if k in best and
                                     (r["winner"], r["vp"]) != (best[k]["winner"], best[k]["vp"]))
        out["mean_difference"] = mean
    return out


def better(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Does candidate ``a`` beat ``b``: more won, the mean margin breaking a tie."""
    return (a["wins"], a["mean_margin"]) > (b["wins"], b["mean_margin"])


def line(weights: dict[str, float], f: dict[str, Any]) -> str:
    named = ", ".join(f"{k}={v:g}" for k, v in weights.items())
    text = (f"{named}: won {f['wins']:g} of {f['battles']} ({f['rate']:.0%} ± {f['two_standard_errors']:.0%}), "
            f"mean margin {f['mean_margin']:+.1f} VP, as attacker {f['attack_wins']:g} of {f['attacks']}")
    if "difference" in f:
        text += (f"; against the best so far {f['difference']:+g} battles ± {f['difference_two_standard_errors']:g}"
                 f" ({f['battles_changed']} battles ended otherwise)")
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help=f"2 seeds against greedy alone, the first weight only, battles stopped after round "
                         f"{ROUNDS_QUICK} (a check that all runs)")
    ap.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    ap.add_argument("--level", default="normal", help="the level whose weights are fitted (default normal)")
    ap.add_argument("--strangers", default="greedy,holder",
                    help=f"the strangers it plays (default greedy,holder; any of {','.join(STYLES)})")
    ap.add_argument("--seeds", type=int, default=None, help="seeds against each stranger, each played twice "
                                                            "(default 6, 2 with --quick)")
    ap.add_argument("--first-seed", type=int, default=5001,
                    help="the first seed (default 5001: the benchmark plays 1-100, 1001-1020, 2001-2006, 3001-3020)")
    ap.add_argument("--params", default=",".join(PARAMS),
                    help=f"the weights searched, in order (default {','.join(PARAMS)}; any field of "
                         "evaluate.Weights)")
    ap.add_argument("--factors", default="0.5,2", help="each weight is tried at the best so far times each of "
                                                       "these (default 0.5,2)")
    ap.add_argument("--passes", type=int, default=1, help="times round the weights (default 1)")
    ap.add_argument("--rounds", type=int, default=None,
                    help=f"stop every battle after this round (default {ROUNDS_GUARD}, {ROUNDS_QUICK} with --quick)")
    ap.add_argument("--jobs", type=int, default=1, help="battles played at once, one process each (default 1)")
    ap.add_argument("--battles", action="store_true", help="print each battle's result under its candidate's line")
    args = ap.parse_args(argv)

    from referee.game.players.computer.evaluate import Weights

    fields = {f.name for f in dataclasses.fields(Weights)}
    params = [p for p in args.params.split(",") if p]
    if args.quick:
        params = params[:1]
    unknown = [p for p in params if p not in fields]
    if unknown:
        ap.error(f"--params names a weight evaluate.Weights does not have: {', '.join(unknown)} "
                 f"(it has {', '.join(sorted(fields))})")
    try:
        factors = [float(x) for x in args.factors.split(",") if x]
    except ValueError:
        ap.error(f"--factors is a list of numbers separated by commas (got {args.factors!r})")
    strangers = ["greedy"] if args.quick else [s for s in args.strangers.split(",") if s]
    if any(s not in STYLES for s in strangers):
        ap.error(f"--strangers names one of {', '.join(STYLES)} (got {args.strangers!r})")
    n_seeds = args.seeds if args.seeds is not None else (2 if args.quick else 6)
    rounds = args.rounds or (ROUNDS_QUICK if args.quick else ROUNDS_GUARD)
    seeds = [args.first_seed + i for i in range(n_seeds)]
    tables = ["pastoral-hills", "blasted-urban"]
    grid = faction_pairings()
    battles = [job for st in strangers
               for job in jobs_for(f"{args.level} vs stranger:{st}", (f"computer:{args.level}", f"stranger:{st}"),
                                   seeds, tables, rounds, 3, 0, grid)]
    start = Weights()
    best_w = {p: float(getattr(start, p)) for p in params}
    print(f"fit of {', '.join(params)} for {args.level} against {', '.join(strangers)}: {len(battles)} battles a "
          f"candidate (seeds {seeds[0]}-{seeds[-1]}, each twice with the sides swapped), factors "
          f"{', '.join(f'{f:g}' for f in factors)}, {args.passes} pass(es), {args.jobs} at a time", flush=True)
    t0 = time.perf_counter()
    best = play(best_w, battles, args.jobs)
    best_f = summary(best, None)
    tried: list[dict[str, Any]] = [{"weights": dict(best_w), **best_f}]
    print(f"  start  {line(best_w, best_f)}  [{time.perf_counter() - t0:.0f} s]", flush=True)
    if args.battles:
        print("\n".join("  " + result_line(r) for r in best.values()), flush=True)
    for _ in range(args.passes):
        for p in params:
            base = dict(best_w)
            for factor in factors:
                cand = {**base, p: round(base[p] * factor, 6)}
                results = play(cand, battles, args.jobs)
                f = summary(results, best)
                tried.append({"weights": cand, **f})
                print(f"  {p} x{factor:g}  {line(cand, f)}  [{time.perf_counter() - t0:.0f} s]", flush=True)
                if args.battles:
                    print("\n".join("  " + result_line(r) for r in results.values()), flush=True)
                if better(f, best_f):
                    best_w, best, best_f = cand, results, summary(results, None)
    found = ", ".join(f"{k}={v:g}" for k, v in best_w.items())
    print(f"best: {found}: won {best_f['wins']:g} of {best_f['battles']} ({best_f['rate']:.0%} ± "
          f"{best_f['two_standard_errors']:.0%}); {time.perf_counter() - t0:.0f} s")
    print(f"  to play them, write {found} into evaluate.Weights with the command that found them: "
          "python -m benchmarks.fit " + " ".join(a for a in (argv if argv is not None else sys.argv[1:]) if a != "--json"))
    if args.json:
        print(json.dumps({"level": args.level, "strangers": strangers, "seeds": [seeds[0], seeds[-1]],
                          "battles_per_candidate": len(battles), "candidates": tried, "best": best_w,
                          "best_rate": best_f["rate"], "elapsed_s": round(time.perf_counter() - t0, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
