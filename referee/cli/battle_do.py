"""``query SAVE do KIND ...`` and ``query TABLE do new-battle ...``: a whole battle, set-up included, one action at a time.

``query TABLE do new-battle --factions A,B [--streak N,M] --out SAVE`` writes a battle about to be set up (A60). On a
save, ``query SAVE do KIND [ACTOR] [--args JSON] [--dice D,D,...] [--out SAVE]`` resolves any action the record may
hold (set-up decisions, turn-level actions, unit actions) on the battle the save replays to; with ``--out`` the
battle with the action appended is written there. Dice are the faces given; a draw ("place for me", a card, a
label) comes from the save's own program dice, or from a fresh 128-bit seed when the players roll.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..i18n import _
from ..game.actions import Action
from ..game.dice import DiceMissing, ScriptedDice, SeededDice, new_seed
from ..game.engine import play
from ..rules.errors import InputError


def _parser(new: bool):
    from .main import _Parser

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
    p.add_argument("--bearing", type=float, action="append", default=[])
    return p


def new_battle_file(table_path: Path, rest: list[str]) -> int:
    from ..game.record import save_game
    from ..game.setup import new_game
    from ..rules.factions import get_faction
    from ..rules.scenario import load_scenario

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
    game = new_game(load_scenario(table_path), {"A": factions[0], "B": factions[1]}, {"A": streak[0], "B": streak[1]})
    written = save_game(game, a.out, SeededDice(new_seed()))
    out = {"written": str(written), "phase": game.state.phase, "to_act": "A", "next": "roll-roles"}
    print(json.dumps(out, indent=2) if a.json else f"{written}: a new battle on {game.state.name}; set-up begins: "
                                                   f"roll-roles")
    return 0


class _Given:
    """The dice typed in; draws from the save's program dice (or a fresh seed)."""

    def __init__(self, given: ScriptedDice, draws: SeededDice) -> None:
        self.given = given
        self.draws = draws

    def answer(self, request):
        return self.draws.answer(request) if request.kind == "draw" else self.given.answer(request)


def do_on_save(save_path: Path, kind: str, rest: list[str]) -> int:
    from ..game.legal import to_act
    from ..game.record import ACTION_KINDS, read_save, save_game
    from ..game.undo import moment_index
    from ..game.seal import canonical_json
    from .do import parse_dice

    if kind not in ACTION_KINDS:
        raise InputError("do", f"expected an action kind a save records: one of {', '.join(ACTION_KINDS)}")
    a = _parser(False).parse_args(rest)
    try:
        args: Any = json.loads(a.args)
    except json.JSONDecodeError as e:
        raise InputError("--args", f"expected the action's arguments as a JSON object ({e.msg})") from None
    if not isinstance(args, dict):
        raise InputError("--args", "expected a JSON object, for example '{\"x\": 12, \"y\": 28}'")
    save = read_save(save_path)
    game = save.game
    action = Action(kind, a.actor, args)
    draws = save.dice if save.dice is not None else SeededDice(new_seed())
    draws.begin(f"action {moment_index(game)}|{canonical_json(action.to_data())}")
    source = _Given(ScriptedDice(dice=parse_dice(a.dice), bearings=list(a.bearing)), draws)
    try:
        outcome = play(game.state, action, source)
    except DiceMissing as e:
        raise InputError(str(save_path), f"too few dice: {e.request.describe()} is missing") from None
    except (LookupError, TypeError, ValueError) as e:
        raise InputError("--args", f"the engine cannot read these arguments ({type(e).__name__}: {e})") from None
    written = None
    if outcome.legal:
        from ..game.engine import RecordEntry

        game.state = outcome.state
        game.record.append(RecordEntry(action, list(outcome.rolls)))
        if a.out:
            written = save_game(game, a.out, save.dice, overwrite=Path(a.out).resolve() == save_path.resolve())
    out: dict[str, Any] = {"legal": outcome.legal, "events": outcome.events, "explain": outcome.explain,
                           "rolls": [r.as_list() for r in outcome.rolls] if outcome.legal else [],
                           "phase": game.state.phase, "to_act": to_act(game.state)}
    if not outcome.legal:
        out["reason"] = outcome.reason
    if written is not None:
        out["written"] = str(written)
    if a.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        lines = [x for x in outcome.explain if x]
        if outcome.legal:
            lines.append(f"= done; now {game.state.phase}" + (f", side {out['to_act']} to decide" if out["to_act"] else "")
                         + (f"; battle written to {written}" if written else ""))
        else:
            lines.append(f"= not allowed: {outcome.reason}; nothing changed")
        print("\n".join(lines))
    return 0
