"""``seven-seconds mat``: a player's mat for a physical game, as a PDF: the Holding Area's 16 squares, the player's
own mission and cards, and a quick reference of the Action Table and the formulas.

``mat SAVE --side A --out mat.pdf`` fills it from a saved battle with what side A's player may see (its own holding
area and cards, never the opponent's); ``mat --side A --out mat.pdf`` prints empty squares, and ``--mission``,
``--troop``/``--line`` and ``--drone``/``--drone-line`` write the cards drawn at the table on it.
"""

from __future__ import annotations

from typing import Any, cast

from ..i18n import _
from .pins import add_pin_options, keys_from
from ..rules.errors import InputError


def register(sub) -> None:
    p = sub.add_parser("mat", help=_("print a player's mat for a physical game (PDF)"),
                       description=_("A player's mat as a PDF: the Holding Area squares, the player's own mission and "
                                   "cards, and a quick reference of the Action Table and the formulas."))
    p.add_argument("save", nargs="?", help=_("a saved battle (.json): the side's own holding area and cards"))
    p.add_argument("--side", choices=("A", "B"), required=True, help=_("whose mat it is"))
    p.add_argument("--out", required=True, metavar="PDF", help=_("the file to write, like mat-a.pdf"))
    p.add_argument("--mission", metavar="ID", help=_("without a save: the mission card drawn (see `cards list`)"))
    add_pin_options(p)
    p.add_argument("--troop", metavar="ID", help=_("without a save: the troop card drawn"))
    p.add_argument("--line", choices=("A", "B", "C"), help=_("the troop line (default: the mission's)"))
    p.add_argument("--drone", metavar="ID", help=_("without a save: the drone card drawn"))
    p.add_argument("--drone-line", dest="drone_line", choices=("X", "Y", "Z"), help=_("the drone line chosen"))
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..printing.mat import save_mat

    cards_given = args.mission or args.troop or args.drone
    if args.save:
        if cards_given:
            raise InputError("--mission", "the cards come from the save; give either a save or the cards")
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..service import reports
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..service.battles import open_save

        # The mat holds the side's own view only: its holding area, mission and cards, never the opponent's.
        view = reports.view_of(open_save(args.save, keys=keys_from(args)).session, args.side)
        out = save_mat(view, args.side, args.out, view["name"])
    else:
        view = None
        if cards_given:
            _check_cards(args)
            cards = {"troop": args.troop, "line": args.line, "drone": args.drone, "drone_line": args.drone_line}
            view = cast(Any, {"missions": {args.side: args.mission}, "cards": {args.side: cards}, "holding": {}})
        out = save_mat(view, args.side, args.out)
    print(_("Wrote {file}: side {side}'s mat (PDF)").format(file=out, side=args.side))
    return 0


def _check_cards(args) -> None:
    """Each card named must be in the deck in play: a typing slip is refused, not printed."""
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..game.battle.cards import playing_deck

    deck = playing_deck()
    if args.mission:
        deck.mission(args.mission)
    if args.troop:
        deck.troop(args.troop)
    if args.drone:
        deck.drone(args.drone)
