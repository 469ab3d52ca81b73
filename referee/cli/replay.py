"""``seven-seconds replay SAVE [--as A|B] [--legal] [--json]``: rebuild a saved battle by replaying it, and show the result.

Without ``--as`` it shows the whole truth (the referee's view: both holding areas, missions, every blip's contents).
With ``--as A`` or ``--as B`` it shows exactly what that player may see, through the same player view the window
uses. Text by default; ``--json`` prints the view as one JSON object. A damaged or unreadable save exits with status
2 and a message naming the item that is wrong; the file is never changed.

With ``--legal`` it prints instead the actions the player may take now (``game.legal``): with ``--as``, that side's
(none when it is not its call), else the side to act's. With ``--json`` they are a JSON list of objects in the save's
action format (``kind``, ``actor``, ``args``) plus ``free``, the parameters still to choose and their ranges.

When the battle is over (or without ``--as``) it also shows the seals made at set-up: whether each still matches, and
the sealed document itself, whose SHA-256 anyone can compute to check the referee.

A save sealed for its players (format 5) replays with both players' PINs (``--pin-file``, the environment's
``SEVEN_SECONDS_PIN_A`` and ``SEVEN_SECONDS_PIN_B``, or ``--ask-pin A --ask-pin B``). With one side's PIN it shows
that side's view of the battle as it stood when written; with none, the public view.

With ``--do ACTION --out SAVE`` it plays one more action (JSON in the save's action format, for example the owner's
``face`` of a revealed trooper) through the same controller as the window: the save's program dice roll it, or
``--dice`` gives the faces (and bearings) in the order the engine asks for them. A refused action names its rule and
nothing is written.
"""

from __future__ import annotations

import json
import sys

from ..i18n import _
from ..service import reports
from ..service.battles import OpenedSave, open_save
from ..service.keys import Locked, is_sealed_file, sealed_view
from .pins import add_pin_options, keys_from


def register(sub) -> None:
    p = sub.add_parser("replay", help=_("replay a saved battle and show the resulting table"),
                       description=_("Load a save in a fresh process, replay every action with its recorded dice, and "
                                   "print the resulting table: the whole truth, or what one player may see."))
    p.add_argument("save", help=_("a save file (.json)"))
    p.add_argument("--as", dest="side", choices=("A", "B"), help=_("show only what this player may see"))
    p.add_argument("--json", action="store_true", help=_("print the view as JSON"))
    p.add_argument("--legal", action="store_true",
                   help=_("print the actions the player (--as, else the side to act) may take now"))
    p.add_argument("--no-log", action="store_true", help=_("leave the log out of the text"))
    p.add_argument("--do", metavar="ACTION",
                   help=_('play one more action, as JSON: \'{"kind": "face", "actor": "b-tac-1", "args": {"facing": 200}}\''))
    p.add_argument("--dice", default="", metavar="F,F,...",
                   help=_("with --do: the faces (and bearings) of physical dice, in the order the engine asks"))
    p.add_argument("--out", metavar="SAVE", help=_("with --do: where to write the battle with the action added"))
    add_pin_options(p)
    p.set_defaults(run=run)


def run(args) -> int:
    if args.do is not None:
        return _do(args)
    keys = keys_from(args)
    if is_sealed_file(args.save) and (keys is None or not all(keys.has(s) for s in ("A", "B"))):
        return _sealed(args, keys)
    save = open_save(args.save, keys=keys)
    session = save.session
    view = reports.view_of(session, args.side)
    # The sealed documents reveal both holding areas and missions: shown when the battle is over, or to the referee.
    reveal_seals = reports.seals_shown(session, args.side)
    for w in save.warnings:
        print(f"seven-seconds: {args.save}: warning: {w}", file=sys.stderr)
    if args.legal:
        return _legal(save, args.side, args.json)
    if args.json:
        head = {"program": save.program, "saved_at": save.saved_at, "actions": save.actions}
        if save.computer_levels:
            head["players"] = {side: f"computer:{level}" for side, level in save.computer_levels.items()}
        if not args.side:
            # The digest of the whole truth: never shown to one player (without seal salts, a player could try
            # every possible content of the opponent's blips against it).
            head["state_digest"] = reports.digest(session)
        out = {"save": head, **view}
        if reveal_seals:
            out["seals"] = reports.seals(session)
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    lines = [f"{args.save}: {save.actions} actions replayed (saved {save.saved_at} by version {save.program})"]
    lines += [f"side {side} is played by the computer ({level})" for side, level in save.computer_levels.items()]
    lines += reports.describe(view, log=not args.no_log)
    if reveal_seals:
        lines.append("seals made at set-up:")
        lines.extend("  " + line for line in reports.seal_lines(session))
    print("\n".join(lines))
    return 0


def _sealed(args, keys) -> int:
    """A sealed save without both PINs: the public battle as it stood when written, and the secrets of the side
    whose PIN was given (never the record: it opens with both PINs only)."""
    if args.legal or (args.side and (keys is None or not keys.has(args.side))):
        raise Locked(args.save, tuple(s for s in ("A", "B") if keys is None or not keys.has(s)))
    seen = sealed_view(args.save, keys)
    whose = ("the whole truth (the battle is over: both sides revealed)" if len(seen.opened) == 2
             else f"side {seen.opened[0]}'s view" if seen.opened else "the public view (no side's PIN given)")
    if args.json:
        head = {"program": seen.program, "saved_at": seen.saved_at, "actions": seen.actions, "sealed": True,
                "opened": list(seen.opened)}
        print(json.dumps({"save": head, **seen.view}, indent=2, ensure_ascii=False))
        return 0
    lines = [f"{args.save}: sealed for its players; {seen.actions} actions (saved {seen.saved_at} by version "
             f"{seen.program}), shown as {whose}"]
    lines += [f"side {side} is played by the computer ({level})" for side, level in seen.computer_levels.items()]
    lines += reports.describe(seen.view, log=not args.no_log)
    print("\n".join(lines))
    return 0


def _legal(save: OpenedSave, side: str | None, as_json: bool) -> int:
    actions = reports.legal_of(save.session, side)
    if as_json:
        print(json.dumps([a.to_data() for a in actions], indent=2, ensure_ascii=False))
        return 0
    who = side or save.session.to_act() or "either side"
    if not actions:
        print(f"side {who} has no action to take now (phase: {save.phase})")
        return 0
    print(f"side {who} may now:")
    for a in actions:
        text = a.action().text() if not a.free else f"{a.kind} {a.actor}".strip() + " (" + ", ".join(a.free) + " to choose)"
        print(f"  {text}")
    return 0


def _do(args) -> int:
    """One more action on a save, resolved as the window resolves it (``service.session.BattleSession``, no window)."""
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.errors import InputError
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..service.intents import ACTION_KINDS, Action, action_problems

    if not args.out:
        raise InputError("--out", "--do needs --out SAVE: where to write the battle with the action added")
    try:
        data = json.loads(args.do)
    except json.JSONDecodeError as e:
        raise InputError("--do", f"expected an action as JSON ({e.msg} at character {e.pos})") from None
    except RecursionError:
        raise InputError("--do", "values nested too deeply (expected an action as a JSON object)") from None
    if not isinstance(data, dict) or data.get("kind") not in ACTION_KINDS:
        raise InputError("--do", f"expected {{\"kind\": ..., \"actor\": ..., \"args\": {{...}}}} with a kind from "
                                 f"{', '.join(ACTION_KINDS)}")
    problems = action_problems(data, "--do")
    if problems:
        raise InputError("--do", problems)
    given = []
    for part in filter(None, (p.strip() for p in args.dice.split(","))):
        try:
            given.append(float(part))
        except ValueError:
            raise InputError("--dice", f"expected numbers separated by commas (got {part!r})") from None
    session = open_save(args.save, keys=keys_from(args)).session
    action = Action.from_data(data)
    try:
        attempt = session.attempt(action, given)
    except ValueError as e:              # a face that is not a die's (check_face)
        raise InputError("--dice", str(e)) from None
    if attempt.pending is not None:
        raise InputError("--dice", f"die {len(attempt.pending.given) + 1} is missing: "
                                   f"{attempt.pending.request.describe()}")
    outcome = attempt.outcome
    if outcome is None or not outcome.legal:
        print(f"not allowed: {outcome.reason if outcome else 'no outcome'} (nothing written)", file=sys.stderr)
        return 1
    written = session.save(args.out)
    for line in outcome.events:
        print(line)
    print(f"{action.text()}: done; the battle is saved in {written}")
    return 0
