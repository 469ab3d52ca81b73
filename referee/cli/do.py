"""``query SCENARIO do ACTION ...``: one action resolved on a scenario with the dice given, the new table returned."""

from __future__ import annotations

import json
from pathlib import Path

from ..game.battle.action_kinds import ALONG_A_PATH, AT_A_TARGET, TO_A_POINT, UNIT_KINDS, Kind
from ..i18n import _
from .. import paths
from ..rules.battlefield import ground_point
from ..rules.errors import InputError
from ..rules.scenario import load_scenario
from ..service.intents import Action
from ..service.tables import TableAction
from ..storage import write_document
from .dice_words import REFUSED, parse_dice

DO_ACTIONS = (*UNIT_KINDS, Kind.REVEAL)      # what one action on a scenario's table may be


def _parser(kind: str):
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from .parsing import _Parser, finite_number

    p = _Parser(prog=f"seven-seconds query SCENARIO do {kind}", add_help=False)
    p.add_argument("--json", action="store_true")
    p.add_argument("--dice", default="")
    p.add_argument("--bearing", type=finite_number, action="append", default=[])
    p.add_argument("--out")
    p.add_argument("--more", action="store_true")
    p.add_argument("actor")
    if kind in TO_A_POINT:
        p.add_argument("x", type=finite_number)
        p.add_argument("y", type=finite_number)
    if kind in ALONG_A_PATH:
        p.add_argument("--via", nargs=2, type=finite_number, action="append", default=[], metavar=("X", "Y"))
    if kind == Kind.KAMIKAZE:
        p.add_argument("--target")
        p.add_argument("--jump", action="store_true")
    if kind == Kind.TARGET:
        p.add_argument("--assign", action="append", default=[], metavar="B=N")
    if kind in AT_A_TARGET:
        p.add_argument("target")
    if kind == Kind.REVEAL:
        p.add_argument("--facing", type=finite_number)
    if kind == Kind.SCRAMBLE:
        p.add_argument("--square", type=int, help=_("the empty holding-area square the unit goes to (A23)"))
    return p


def build_action(kind: str, a, table: TableAction, dice: list[int]) -> Action:
    args: dict = {}
    if kind in TO_A_POINT:
        args.update(x=a.x, y=a.y)
    if kind in ALONG_A_PATH and a.via:
        args["via"] = [list(v) for v in a.via]
    if kind == Kind.KAMIKAZE:
        if a.target:
            args["target"] = a.target
        if a.jump:
            args["jump"] = True
    if kind in AT_A_TARGET:
        args["target"] = a.target
    if kind == Kind.REVEAL and a.facing is not None:
        args["facing"] = a.facing
    if kind == Kind.SCRAMBLE and a.square is not None:
        if not 1 <= a.square <= 16:
            raise InputError("--square", f"expected a holding-area square from 1 to 16 (got {a.square})")
        args["square"] = a.square
    if kind == Kind.TARGET:
        assign: dict[str, int] = {}
        for item in a.assign:
            name, _, n = item.partition("=")
            try:
                count = int(n)
            except ValueError:
                raise InputError("--assign", f"expected B=N, a unit id and a number of counters (got {item!r})") from None
            assign[name] = assign.get(name, 0) + count
        args["assign"] = assign
        pre = 1 if table.damaged_trooper(a.actor) else 0
        # At least one sensor die is rolled: with none given, the first is reported missing (unless a Damaged
        # check fails first and the action does nothing, A25).
        args["dice"] = max(1, len(dice) - pre)
    return Action(kind, a.actor, args)


def _check_ids(table: TableAction, action: Action, path) -> None:
    known = table.piece_ids()
    names = [action.actor] + [action.args[k] for k in ("target",) if action.args.get(k)]
    names += list(action.args.get("assign", {}))
    for n in names:
        if n not in known and not (n != action.actor and ground_point(n)):     # a point of ground, x,y (A54)
            raise InputError(str(path), f"unit id: {n!r} is not in this scenario (expected one of {', '.join(sorted(known))})")


def _is_save(path: Path) -> bool:
    """A battle save (its JSON names the save format), as opposed to a scenario."""
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.files import SAVE_FORMAT

    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        # not a save the program could read (nested too deeply, not JSON at all): the scenario loader names why
        return False
    return isinstance(doc, dict) and doc.get("format") == SAVE_FORMAT


def run_do(args) -> int:
    rest = list(args.args)
    if rest and rest[0] == "new-battle":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from .battle_do import new_battle_file

        return new_battle_file(paths.table_file(args.scenario), rest[1:])
    if _is_save(Path(args.scenario)):
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from .battle_do import do_on_save

        return do_on_save(Path(args.scenario), rest[0] if rest else "", rest[1:])
    if not rest or rest[0] not in DO_ACTIONS:
        raise InputError("do", f"expected an action: one of {', '.join(DO_ACTIONS)} (on a save: any action it "
                               f"records, set-up included; on a table: new-battle)")
    kind = rest[0]
    a = _parser(kind).parse_args(rest[1:])
    path = paths.table_file(args.scenario)
    scenario = load_scenario(path)
    table = TableAction(scenario)
    dice = parse_dice(a.dice)
    for b in a.bearing:
        if not 0 <= b <= 360:
            raise InputError("--bearing", f"expected degrees from 0 to 360 (got {b:g})")
    action = build_action(kind, a, table, dice)
    _check_ids(table, action, path)
    done = table.do(action, dice, list(a.bearing), more=a.more, where=str(path))
    if done.missing:
        raise InputError(str(path), f"too few dice: {done.missing} is missing "
                                    f"({done.given_used} dice given were used before it)")
    if done.no_contents:
        raise InputError(str(path), f"blips: {done.no_contents!r} has no `contents`, so the referee cannot reveal it")
    if done.too_many:
        raise InputError(str(path), done.too_many)
    data = done.table
    dice_used = done.dice_used
    out = {
        "legal": done.legal,
        "events": done.events,
        "dice_used": dice_used,
        "state": data,
        "explain": done.explain,
    }
    if not done.legal:
        out["reason"] = done.reason
    if a.out:
        try:
            write_document(Path(a.out), data)
        except OSError as e:
            raise InputError(a.out, f"--out: cannot be written ({e.strerror or e})") from None
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        lines = [x for x in done.explain if x]
        if done.legal:
            lines.append(f"= legal, {dice_used} dice used" + (f"; new table written to {a.out}" if a.out else ""))
        else:
            lines.append(f"= not allowed: {done.reason}; nothing changed")
        print("\n".join(lines))
    return 0 if done.legal else REFUSED
