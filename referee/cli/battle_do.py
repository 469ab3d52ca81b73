"""``query SAVE do KIND ...`` and ``query TABLE do new-battle ...``: a whole battle, set-up included, one action at a time.

``query TABLE do new-battle --factions A,B [--streak N,M] --out SAVE`` writes a battle about to be set up (A60). On a
save, ``query SAVE do KIND [ACTOR] [--args JSON] [--dice D,D,...] [--out SAVE]`` resolves any action the record may
hold (set-up decisions, turn-level actions, unit actions) on the battle the save replays to; with ``--out`` the
battle with the action appended is written there. Dice are the faces given; a draw ("place for me", a card, a
label) comes from the save's own program dice, or from a fresh 128-bit seed when the players roll.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ..game.battle.action_kinds import Kind
from ..i18n import _
from ..rules.errors import InputError
from ..service.intents import ACTION_KINDS, Action


def _parser(new: bool):
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from .parsing import _Parser, finite_number

    p = _Parser(prog="seven-seconds query " + ("TABLE do new-battle" if new else "SAVE do KIND"), add_help=False)
    p.add_argument("--json", action="store_true")
    p.add_argument("--out", required=new)
    if new:
        p.add_argument("--factions", required=True, help=_("side A's and side B's faction ids, as A,B"))
        p.add_argument("--streak", default="0,0", help=_("each side's campaign winning streak, as N,M (A47)"))
        return p
    p.add_argument("actor", nargs="?", default="")
    p.add_argument("--args", default="{}", help=_("the action's arguments as JSON"))
    p.add_argument("--dice", default="")
    p.add_argument("--bearing", type=finite_number, action="append", default=[])
    return p


def new_battle_file(table_path: Path, rest: list[str]) -> int:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.factions import get_faction
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.scenario import load_scenario
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..service.battles import new_battle

    a = _parser(True).parse_args(rest)
    factions = [f.strip() for f in a.factions.split(",")]
    if len(factions) != 2 or not all(factions):
        raise InputError("--factions", f"expected two faction ids as A,B (got {a.factions!r})")
    for f in factions:
        get_faction(f)
    try:
        streak = [int(n) for n in a.streak.split(",")]
    except ValueError:
        streak = []
    if len(streak) != 2 or not all(0 <= n <= 3 for n in streak):
        raise InputError("--streak", f"expected two winning streaks from 0 to 3 as N,M (got {a.streak!r})")
    battle = new_battle(load_scenario(table_path), {"A": factions[0], "B": factions[1]},
                        {"A": streak[0], "B": streak[1]}, a.out)
    written = battle.written
    out = {"written": str(written), "phase": battle.phase, "to_act": "A", "next": Kind.ROLL_ROLES}
    print(json.dumps(out, indent=2) if a.json else f"{written}: a new battle on {battle.name}; set-up begins: "
                                                   f"roll-roles")
    return 0


def _no_constant(name: str) -> Any:
    raise ValueError(f"expected finite numbers (got {name}, which no action takes)")


def _finite(text: str) -> float:
    # 1e999 reads as infinity: no position, angle or count of the game is one
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"expected finite numbers (got {text}, too large)")
    return value


def do_on_save(save_path: Path, kind: str, rest: list[str]) -> int:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..service.battles import UnreadArguments, play_on_save
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..service.intents import action_problems
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from .dice_words import REFUSED, parse_dice
    from .pins import keys_from  # lazy: loaded when this command runs

    if kind not in ACTION_KINDS:
        raise InputError("do", f"expected an action kind a save records: one of {', '.join(ACTION_KINDS)}")
    a = _parser(False).parse_args(rest)
    try:
        args: Any = json.loads(a.args, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as e:
        raise InputError("--args", f"expected the action's arguments as a JSON object ({e.msg})") from None
    except ValueError as e:
        raise InputError("--args", str(e)) from None
    except RecursionError:
        raise InputError("--args", "values nested too deeply (expected a JSON object of the action's arguments)") from None
    if not isinstance(args, dict):
        raise InputError("--args", "expected a JSON object, for example '{\"x\": 12, \"y\": 28}'")
    problems = action_problems({"kind": kind, "actor": a.actor, "args": args}, "--args")
    if problems:
        raise InputError("--args", "; ".join(p.removeprefix("--args.args.") for p in problems))
    action = Action(kind, a.actor, args)
    try:
        # A sealed save opens with its players' PINs, from the environment (SEVEN_SECONDS_PIN_A and _B).
        done = play_on_save(save_path, action, parse_dice(a.dice), list(a.bearing), a.out, keys_from(a))
    except UnreadArguments as e:
        why = f"{type(e.error).__name__}: {e.error}"
        raise InputError("--args", f"the engine cannot read these arguments ({why})") from None
    if done.missing:
        raise InputError(str(save_path), f"too few dice: {done.missing} is missing")
    written = done.written
    out: dict[str, Any] = {"legal": done.legal, "events": done.events, "explain": done.explain,
                           "rolls": done.rolls, "phase": done.phase, "to_act": done.to_act}
    if not done.legal:
        out["reason"] = done.reason
    if written is not None:
        out["written"] = str(written)
    if a.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        lines = [x for x in done.explain if x]
        if done.legal:
            lines.append(f"= done; now {done.phase}" + (f", side {out['to_act']} to decide" if out["to_act"] else "")
                         + (f"; battle written to {written}" if written else ""))
        else:
            lines.append(f"= not allowed: {done.reason}; nothing changed")
        print("\n".join(lines))
    return 0 if done.legal else REFUSED
