"""``seven-seconds mail``: a battle played by e-mail, one file sent back and forth (``net/mail.py``).

``mail new TABLE --factions A,B --out FILE`` starts one; ``mail play FILE --side A`` opens the window on side A's
turn at it (the battle served on this computer only), writes the file as the battle goes, and says on closing whom
to send it to; ``mail status FILE`` says what the battle waits for, without a window. Each side's secrets stay in
its own sealed file on its own computer; the file sent holds none of them.
"""

from __future__ import annotations

from pathlib import Path

from ..i18n import _
from ..rules.errors import InputError
from ..rules.stats import RATINGS, STAT_NAMES
from .pins import add_pin_options, keys_from


def register(sub) -> None:
    p = sub.add_parser("mail", help=_("play a battle by e-mail: one file sent back and forth"),
                       description=_("Play a battle by e-mail: each player in turn opens the battle file on their "
                                     "own computer, plays until the battle waits for the other side, and sends the "
                                     "file on. Each side's secrets stay on its own computer."))
    ms = p.add_subparsers(dest="mail_command", required=True)
    n = ms.add_parser("new", help=_("start a battle by e-mail on a table"))
    n.add_argument("table", metavar="TABLE", help=_("a scenario file, or a bundled table by name such as "
                                                      "pastoral-hills"))
    chosen = n.add_mutually_exclusive_group(required=True)
    chosen.add_argument("--factions", help=_("side A's and side B's faction ids, as A,B"))
    chosen.add_argument("--campaign", metavar="CAMPAIGN", help=_("play this campaign's next battle: the factions as "
                                                                   "the campaign made them and its streak bonus; "
                                                                   "this computer records the result there when the "
                                                                   "battle ends"))
    n.add_argument("--out", required=True, metavar="FILE", help=_("the battle file to write (and to send)"))
    n.set_defaults(run=_new)
    play = ms.add_parser("play", help=_("play your side's turn at a battle file in the window"))
    play.add_argument("file", metavar="FILE", help=_("the battle file, as the other player sent it"))
    play.add_argument("--side", required=True, choices=("A", "B"), help=_("your side"))
    play.add_argument("--screenshot", metavar="PNG", help=_("save the first frames as PNG and exit"))
    # The side's PIN seals its secrets in its own file on this computer; without one the program keeps a key for it.
    add_pin_options(play)
    play.set_defaults(run=_play)
    up = ms.add_parser("upgrade", help=_("a campaign's battle by e-mail, over: ask for your side's upgrade in its "
                                         "file"),
                       description=_("Once a campaign's battle by e-mail is over, ask for +1 to one stat of one "
                                     "rating of your side's faction in the battle file, on your own computer. The "
                                     "computer that began the battle buys it in the campaign with your banked tech "
                                     "points when it has the file, and writes in the file what came of it."))
    up.add_argument("file", metavar="FILE", help=_("the battle file, over and scored"))
    up.add_argument("--side", required=True, choices=("A", "B"), help=_("your side"))
    up.add_argument("--rating", required=True, choices=RATINGS)
    up.add_argument("--stat", required=True, choices=STAT_NAMES)
    add_pin_options(up)
    up.set_defaults(run=_upgrade)
    status = ms.add_parser("status", help=_("say what a battle file waits for, without a window"))
    status.add_argument("file", metavar="FILE", help=_("the battle file"))
    status.set_defaults(run=_status)


def _new(args) -> int:
    # Lazy: the battle service and the network host load for this command only.
    from .. import paths  # lazy: loaded when this command runs
    from ..net.mail import mail_summary, new_mail_battle, waits_text  # lazy: loaded when this command runs
    from ..rules.factions import faction_files  # lazy: loaded when this command runs
    from ..rules.scenario import load_scenario  # lazy: loaded when this command runs

    out = Path(args.out)
    if out.exists():
        raise InputError("--out", f"{out} exists: a new battle is written to a new file")
    table = load_scenario(paths.table_file(args.table))
    if args.campaign is not None:
        new_mail_battle(table, {}, out, campaign=Path(args.campaign))
    else:
        known = sorted(faction_files())
        chosen = [x.strip() for x in args.factions.split(",")]
        if len(chosen) != 2 or not all(f in known for f in chosen):
            # The battle file carries both factions to the other computer, so the computer that begins it needs both.
            raise InputError("--factions", f"expected two of {', '.join(known)} as A,B (got {args.factions!r}); "
                                           f"a faction only the other player has: ask them for its file and put it "
                                           f"in your factions folder ({paths.user_factions_dir()})")
        new_mail_battle(table, {"A": chosen[0], "B": chosen[1]}, out)
    factions, campaign = mail_summary(out)
    print(_("Wrote {file}: a new battle by e-mail, side A {a}, side B {b}.").format(file=out, a=factions.get("A"),
                                                                                    b=factions.get("B")))
    if campaign is not None:
        print(_("It is battle {n} of the campaign {name}: this computer records it there when it ends.").format(
            n=campaign["battle"], name=campaign["name"]))
    print(waits_text(out))
    return 0


def _play(args) -> int:
    # Lazy: the network host and the window load for this command only.
    from ..net.mail import MailTurn, waits_text  # lazy: loaded when this command runs
    from .join import in_window  # lazy: loaded when this command runs

    keys = keys_from(args)
    pin = keys.pins.get(args.side) if keys is not None else None
    turn = MailTurn(args.file, args.side, pin=pin)
    for line in turn.added:
        print(line[:1].upper() + line[1:] + ".")
    try:
        code = in_window(turn.link, {args.side: pin} if pin else None, args.screenshot, keep_hint=False,
                         keeper=turn.keeper)
    finally:
        turn.close()
    if turn.unsaved:
        raise InputError(args.file, f"the battle could not be written: {turn.unsaved}")
    print(waits_text(Path(args.file), turn.waits))
    for line in turn.recorded:
        print(line)
    return code


def _upgrade(args) -> int:
    from ..net.mail import MailTurn  # lazy: loaded when this command runs

    keys = keys_from(args)
    turn = MailTurn(args.file, args.side, pin=keys.pins.get(args.side) if keys is not None else None)
    try:
        print(turn.ask_upgrade(args.rating, args.stat))
    finally:
        turn.close()
    return 0


def _status(args) -> int:
    from ..net.mail import waits_text  # lazy: loaded when this command runs

    print(waits_text(Path(args.file)))
    return 0
