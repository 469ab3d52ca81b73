"""``seven-seconds query SCENARIO QUESTION ARGS... [--json]``: one referee question, answered with its working."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from ..i18n import N_, _
from .. import paths
from ..rules.battlefield import Battlefield, battlefield_from_scenario
from ..rules.errors import InputError
from ..rules.explain import lines
from ..rules.scenario import load_scenario

MAX_GRID_POINTS = 250_000          # exposure: about 0.07" steps on a 3' x 3' table; finer grids exhaust memory
QUESTIONS = ("range", "los", "cover", "target", "rifle", "missile", "passive", "move", "jump",
             "sightlines", "exposure", "do")


# What each question answers, for ``query --help`` and ``query QUESTION --help``.
QUESTION_HELP = {
    "range": N_("edge-to-edge range from A to B, A's Target band and rifle band [p.13]"),
    "los": N_("can A see B: blocking terrain and the 50 % rule [p.23]"),
    "cover": N_("B's cover against A and the terrain in between [p.24]"),
    "target": N_("the price of each Target counter A places on B [p.19]"),
    "rifle": N_("A fires its rifle at B: dice, kill and graze chances [p.20]"),
    "missile": N_("A fires a missile at B: countermeasures and the hit chance [p.21]"),
    "passive": N_("what A's passive sensors detect where it stands [p.18]"),
    "move": N_("a Move of A to (X, Y), by way of points: its cost and the counters it removes [p.18]"),
    "jump": N_("a Jump of A to (X, Y) [p.18]"),
    "sightlines": N_("every ordered pair of units of opposite sides: sight, cover, band, who rolls countermeasures"),
    "exposure": N_("for each grid point, how many enemies could see a unit of SIDE there, and the cheapest counter"),
    "do": N_("one action resolved with the dice you rolled (seven-seconds query SCENARIO do ACTION --help)"),
}


def register(sub) -> None:
    listing = "; ".join(f"{q}: {_(QUESTION_HELP[q])}" for q in QUESTIONS)
    p = sub.add_parser(
        "query", help=_("answer one referee question about a scenario"),
        description=_("Answer one referee question about a scenario file. Questions: {questions}. "
                      "`seven-seconds query QUESTION --help` lists a question's arguments.").format(questions=listing),
    )
    p.add_argument("scenario", help=_("scenario file (.toml or .json), or a bundled table's name"))
    p.add_argument("question", choices=QUESTIONS, help=_("one of {questions}").format(questions=", ".join(QUESTIONS)))
    p.add_argument("args", nargs=argparse.REMAINDER, help=_("the question's arguments"))
    p.set_defaults(run=run)


def question_help(argv: list[str]) -> str | None:
    """The help of the question named in ``query ... QUESTION ... --help``, or None when no question is named
    before the help flag (then the command's own help is shown). ``do`` has a parser of its own per action."""
    for i, word in enumerate(argv):
        if word in ("-h", "--help"):
            return None
        if word in QUESTIONS and word != "do" and any(w in ("-h", "--help") for w in argv[i + 1:]):
            return _question_parser(word).format_help()
    return None


def _question_parser(question: str) -> argparse.ArgumentParser:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from .parsing import _Parser, finite_number

    q = _Parser(prog=f"seven-seconds query SCENARIO {question}", add_help=False,
                description=_(QUESTION_HELP[question]) if question in QUESTION_HELP else "")
    q.add_argument("--json", action="store_true", help=_("print one JSON object (the keys of docs/query.md)"))
    unit_a, unit_b = _("the unit asking (its id in the scenario)"), _("the other piece (a unit's or an objective's id)")
    if question in ("range", "los", "cover", "rifle", "missile"):
        q.add_argument("a", metavar="A", help=unit_a)
        q.add_argument("b", metavar="B", help=unit_b)
    elif question == "target":
        q.add_argument("a", metavar="A", help=unit_a)
        q.add_argument("b", metavar="B", help=unit_b)
        q.add_argument("--pool", type=int, metavar="N", help=_("the Sensor Pool rolled: how many counters it places"))
    elif question == "passive":
        q.add_argument("a", metavar="A", help=unit_a)
    elif question == "move":
        q.add_argument("a", metavar="A", help=_("the unit or blip that moves"))
        q.add_argument("x", type=finite_number, metavar="X", help=_("where it ends, inches across"))
        q.add_argument("y", type=finite_number, metavar="Y", help=_("where it ends, inches up"))
        q.add_argument("--via", nargs=2, type=finite_number, action="append", default=[], metavar=("X", "Y"),
                       help=_("a point the path passes through (repeat it for more)"))
    elif question == "jump":
        q.add_argument("a", metavar="A", help=_("the Scout or drone that jumps"))
        q.add_argument("x", type=finite_number, metavar="X", help=_("where it lands, inches across"))
        q.add_argument("y", type=finite_number, metavar="Y", help=_("where it lands, inches up"))
    elif question == "sightlines":
        q.add_argument("--engine", choices=("fast", "reference"), default=None,
                       help=_("the whole-table engine (default) or the reference one it is checked against"))
    elif question == "exposure":
        q.add_argument("side", choices=("A", "B"), metavar="SIDE", help=_("A or B: the side whose exposure is mapped"))
        q.add_argument("--step", type=finite_number, default=0.5, help=_("the grid's step in inches (default 0.5)"))
        q.add_argument("--engine", choices=("fast", "reference"), default=None,
                       help=_("the whole-table engine (default) or the reference one"))
    return q


def _unit(bf: Battlefield, ident: str):
    piece = bf.piece(ident)
    return piece


def _aim(bf: Battlefield, ident: str):
    """What Target counters go on or a missile is aimed at: a piece, a patch of ground by its id, or a point of
    ground as ``x,y`` (p.19, A28, A54)."""
    piece = bf.target_piece(ident)
    return piece if piece is not None else bf.piece(ident)


def _unit_not_objective(bf: Battlefield, ident: str, role: str):
    piece = bf.piece(ident)
    if piece.is_objective:
        raise InputError(ident, f"{ident!r} is an objective, not a unit; the {role} must be a unit")
    return piece


def answer(bf: Battlefield, question: str, a: argparse.Namespace) -> dict[str, Any]:
    """The JSON answer (with ``explain``) to one question; raises InputError for bad input."""
    if question == "range":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.ranges import measure

        rng = measure(bf, _unit_not_objective(bf, a.a, "measurer"), _unit(bf, a.b))
        return {"distance": round(rng.distance, 6), "target_band": rng.target_band, "rifle_band": rng.rifle_band,
                "explain": lines(rng.explain)}
    if question == "los":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.sight import line_of_sight

        los = line_of_sight(bf, _unit(bf, a.a), _unit(bf, a.b))
        return {"visible": los.visible, "hidden_fraction": round(los.hidden_fraction, 6),
                "blocked_by": list(los.blocked_by), "explain": lines(los.explain)}
    if question == "cover":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.sight import cover

        cov = cover(bf, _unit(bf, a.a), _unit(bf, a.b))
        return {"target_cover": cov.target_cover, "intervening": [i.as_dict() for i in cov.intervening],
                "blocked": cov.blocked, "explain": lines(cov.explain)}
    if question == "target":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.targeting import target_price

        price = target_price(bf, _unit_not_objective(bf, a.a, "targeting unit"), _aim(bf, a.b))
        out: dict[str, Any] = {"allowed": price.allowed, "in_arc": price.in_arc, "band": price.band, "price": price.price, "eaten": price.eaten}
        if not price.allowed:
            out["reason"] = price.reason
        explain = lines(price.explain)
        if a.pool is not None:
            if a.pool < 0:
                raise InputError("--pool", f"expected a pool of 0 or more points (got {a.pool})")
            out["placed"] = price.placed(a.pool)
            if price.allowed:
                explain.append(f"pool {a.pool}: {out['placed']} counter(s) placed [p.19]")
        out["explain"] = explain
        return out
    if question == "rifle":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.rifle import rifle_shot

        shot = rifle_shot(bf, _unit_not_objective(bf, a.a, "firer"), _unit(bf, a.b))
        out = {"allowed": shot.allowed, "weapon": shot.weapon, "band": shot.band, "dice": shot.dice,
               "p_kill": shot.p_kill, "p_graze": shot.p_graze, "explain": lines(shot.explain)}
        if not shot.allowed:
            out["reason"] = shot.reason
        return out
    if question == "missile":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.missile import missile_shot

        missile = missile_shot(bf, _unit_not_objective(bf, a.a, "firer"), _aim(bf, a.b))
        out = {"allowed": missile.allowed, "countermeasures": list(missile.countermeasures),
               "effective_counters": missile.effective_counters, "p_direct_hit": missile.p_direct_hit, "explain": lines(missile.explain)}
        if not missile.allowed:
            out["reason"] = missile.reason
        return out
    if question == "passive":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.sensors import passive_sensors

        passive = passive_sensors(bf, _unit_not_objective(bf, a.a, "unit"))
        return {"detects": list(passive.detects), "objectives": list(passive.objectives), "explain": lines(passive.explain)}
    if question in ("move", "jump"):
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.movement import jump, move

        unit = _unit_not_objective(bf, a.a, "mover")
        if question == "move":
            r = move(bf, unit, [tuple(v) for v in a.via] + [(a.x, a.y)])
            out = {"legal": r.legal, "cost": round(r.cost, 6), "allowance": r.allowance, "removes": r.removes}
        else:
            r = jump(bf, unit, a.x, a.y)
            out = {"legal": r.legal, "distance": round(r.distance, 6), "removes": r.removes, "adds": r.adds}
        if not r.legal:
            out["reason"] = r.reason
        out["explain"] = lines(r.explain)
        return out
    if question == "sightlines":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.whole_table import sightlines

        return sightlines(bf, a.engine)
    if question == "exposure":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.whole_table import exposure

        if not a.step > 0:
            raise InputError("--step", f"expected a positive grid step (got {a.step})")
        points = (bf.width / a.step) * (bf.height / a.step)
        if points > MAX_GRID_POINTS:
            finest = math.sqrt(bf.width * bf.height / MAX_GRID_POINTS)
            raise InputError("--step", f"expected a grid of at most {MAX_GRID_POINTS:,} points on this "
                                       f"{bf.width:g}\" x {bf.height:g}\" table, a step of {finest:.3g}\" or more "
                                       f"(got {a.step:g}\")")
        return exposure(bf, a.side, a.step, a.engine)
    raise InputError(question, "unknown question")


def _human(question: str, out: dict) -> str:
    body = [line for line in out.get("explain", [])]
    summary = {k: v for k, v in out.items() if k not in ("explain", "pairs", "counts", "prices", "state")}
    if question == "sightlines":
        for p in out["pairs"]:
            body.append(f"{p['from']} -> {p['to']}: {p['distance']:.2f}\" "
                        + ("visible" if p["visible"] else "not visible")
                        + f", {p['hidden_fraction'] * 100:.0f} % hidden, cover {p['target_cover']}"
                        + (", blocked" if p["blocked"] else "")
                        + (f", band {p['band']}" if "band" in p else "")
                        + "".join(f", {i['terrain']} {i['length']:.2f}\"" for i in p.get("intervening", []))
                        + (f", CM: {' '.join(p['corridor'])}" if p.get("corridor") else ""))
    if question == "exposure":
        for row in reversed(out["counts"]):
            body.append("".join(str(min(c, 9)) if c else "." for c in row))
    body.append("= " + ", ".join(f"{k}: {json.dumps(v)}" for k, v in summary.items()))
    return "\n".join(body)


def run(args) -> int:
    question = args.question
    if question == "do":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from .do import run_do

        return run_do(args)
    parser = _question_parser(question)
    if any(word in ("-h", "--help") for word in args.args):
        print(parser.format_help(), end="")
        return 0
    qa = parser.parse_args(args.args)
    path = paths.table_file(args.scenario)
    scenario = load_scenario(path)
    bf = battlefield_from_scenario(scenario, path.parent)
    if question in ("sightlines", "exposure"):
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.whole_table import prepare

        grid = question == "exposure" and qa.step > 0 and (bf.width / qa.step) * (bf.height / qa.step) <= MAX_GRID_POINTS
        prepare(bf, qa.engine, (qa.step,) if grid else ())
    try:
        out = answer(bf, question, qa)
    except InputError as e:
        # Name the scenario too: the id is only wrong with respect to that file.
        raise InputError(str(path), [f"{e.source}: {p}" if not p.startswith(e.source) else p for p in e.problems]) from None
    if qa.json:
        print(json.dumps(out, indent=None if question in ("sightlines", "exposure") else 2))
    else:
        print(_human(question, out))
    return 0
