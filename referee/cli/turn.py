"""``seven-seconds turn write SAVE --side A --out FILE`` and ``seven-seconds turn show FILE``: turn files for play
by e-mail (``service/turns.py``). A turn file holds the battle's public part and one side's sealed part: send it
to the opponent, who learns nothing of yours from it; you open it with your PIN (``--pin-file``, ``--ask-pin``, or
``SEVEN_SECONDS_PIN_A``/``_B``)."""

from __future__ import annotations

import json

from ..i18n import _
from ..service import reports
from ..service.turns import read_turn, write_turn
from .pins import add_pin_options, keys_from


def register(sub) -> None:
    p = sub.add_parser("turn", help=_("turn files for play by e-mail: one side's sealed part and the public battle"))
    ts = p.add_subparsers(dest="turn_command", required=True)
    w = ts.add_parser("write", help=_("write a side's turn file from a sealed save (no PIN needed)"))
    w.add_argument("save", help=_("a save sealed with both players' PINs"))
    w.add_argument("--side", required=True, choices=("A", "B"), help=_("whose turn file"))
    w.add_argument("--out", required=True, metavar="FILE", help=_("where to write it"))
    w.set_defaults(run=_write)
    s = ts.add_parser("show", help=_("show a turn file: the public battle, and its side's secrets with its PIN"))
    s.add_argument("file", help=_("a turn file"))
    s.add_argument("--json", action="store_true", help=_("print the view as JSON"))
    s.add_argument("--no-log", action="store_true", help=_("leave the log out of the text"))
    add_pin_options(s)
    s.set_defaults(run=_show)


def _write(args) -> int:
    written = write_turn(args.save, args.side, args.out)
    print(f"wrote {written.path}: side {written.side}'s turn file after {written.actions} actions (the public battle "
          f"and side {written.side}'s part, sealed with its PIN)")
    return 0


def _show(args) -> int:
    side, seen = read_turn(args.file, keys_from(args))
    if args.json:
        print(json.dumps({"turn": {"side": side, "actions": seen.actions, "opened": list(seen.opened),
                                   "saved_at": seen.saved_at}, **seen.view}, indent=2, ensure_ascii=False))
        return 0
    whose = f"side {side}'s view" if seen.opened else f"the public view (side {side}'s PIN not given)"
    print("\n".join([f"{args.file}: side {side}'s turn file after {seen.actions} actions, shown as {whose}",
                     *reports.describe(seen.view, log=not args.no_log)]))
    return 0
