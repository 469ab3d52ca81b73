"""``seven-seconds campaign new|show|battle|upgrade|faction``: a campaign file kept battle by battle (p.31)."""

from __future__ import annotations

from pathlib import Path

from ..i18n import _
from ..game.campaigns.campaign import (
    STREAK_EFFECTS,
    TARGETS,
    BattleRecord,
    Campaign,
    Player,
    campaign_data,
    load_campaign,
    status,
)
from ..rules.errors import InputError
from ..rules.stats import RATING_TITLES, RATINGS, STAT_NAMES
from ..service.campaigns import buy_upgrade, record_saved_battle
from ..storage import write_document
from .pins import add_pin_options, keys_from


def register(sub) -> None:
    p = sub.add_parser("campaign", help=_("keep a campaign: battles, campaign points, streaks, tech upgrades"))
    cs = p.add_subparsers(dest="campaign_command")
    new = cs.add_parser("new", help=_("start a campaign file"))
    new.add_argument("file")
    new.add_argument("--a", required=True, metavar="FACTION", help=_("side A's faction id or file"))
    new.add_argument("--b", required=True, metavar="FACTION", help=_("side B's faction id or file"))
    new.add_argument("--length", choices=tuple(TARGETS), default="short")
    new.add_argument("--name", default="Campaign")
    new.set_defaults(run=run_new)
    show = cs.add_parser("show", help=_("points, streaks, tech points and upgraded stats"))
    show.add_argument("file")
    show.set_defaults(run=run_show)
    battle = cs.add_parser("battle", help=_("record a battle's result: from its save, or typed in"))
    battle.add_argument("file")
    battle.add_argument("--save", help=_("a finished battle's save file: the result is read from the battle itself"))
    battle.add_argument("--winner", choices=("A", "B", "draw"), help=_("typed result: the winner (no --save)"))
    battle.add_argument("--level", choices=("marginal", "normal", "decisive"))
    battle.add_argument("--control", choices=("A", "B", "contested"), default="contested")
    add_pin_options(battle)
    battle.set_defaults(run=run_battle)
    up = cs.add_parser("upgrade", help=_("spend tech points: +1 to one stat of one rating"))
    up.add_argument("file")
    up.add_argument("--side", choices=("A", "B"), required=True)
    up.add_argument("--rating", choices=RATINGS, required=True)
    up.add_argument("--stat", choices=STAT_NAMES, required=True)
    up.set_defaults(run=run_upgrade)
    fx = cs.add_parser("faction", help=_("write a side's faction with its campaign upgrades to a file"))
    fx.add_argument("file")
    fx.add_argument("--side", choices=("A", "B"), required=True)
    fx.add_argument("--out", required=True)
    fx.set_defaults(run=run_faction)
    p.set_defaults(run=lambda args: (p.print_help(), 0)[1])


def _save(path: str, c: Campaign) -> None:
    status(c, Path(path).parent, path)       # never write a campaign that does not add up
    write_document(Path(path), campaign_data(c))


def run_new(args) -> int:
    if Path(args.file).exists():
        raise InputError(args.file, "already exists; a campaign file is never overwritten by 'new'")
    c = Campaign(name=args.name, length=args.length, players={"A": Player(faction=args.a), "B": Player(faction=args.b)})
    _save(args.file, c)
    print(f"campaign {args.name!r} started in {args.file} ({args.length}: {TARGETS[args.length]} campaign points to win)")
    return 0


def run_show(args) -> int:
    c, st = load_campaign(args.file)
    print(f"{c.name} ({c.length}, {len(c.battles)} battles)")
    for s in ("A", "B"):
        side = st.sides[s]
        print(f"\nside {s}: {side.the_faction().name}: {side.campaign_points} campaign points, streak {side.streak} "
              f"({STREAK_EFFECTS[min(side.streak, 3)]}), {side.tech_points} tech points banked")
        for r in RATINGS:
            print(f"  {RATING_TITLES[r]:9} {side.the_faction().stats(r).short()}")
    print()
    for line in st.explain:
        print(line)
    return 0


def run_battle(args) -> int:
    if args.save:
        if args.winner or args.level:
            raise InputError("--winner", "a battle with a save is recorded from the save alone; type a result "
                                         "(--winner, --level, --control) only for a battle played without the program")
        c, st = record_saved_battle(args.file, args.save, keys_from(args))
        _print_battle(c, st)
        return 0
    if not args.winner:
        raise InputError("--winner", "expected --save SAVE (a finished battle) or a typed result: --winner A, B or draw")
    c, _ = load_campaign(args.file)
    if args.winner != "draw" and not args.level:
        raise InputError("--level", "a won battle needs its level: marginal, normal or decisive [p.~14]")
    record = BattleRecord(
        winner=None if args.winner == "draw" else args.winner,
        level="draw" if args.winner == "draw" else args.level,
        control=None if args.control == "contested" else args.control,
    )
    c = c.model_copy(update={"battles": [*c.battles, record]})
    _save(args.file, c)
    _print_battle(c, status(c, Path(args.file).parent, args.file))
    return 0


def _print_battle(c: Campaign, st) -> None:
    n = len(c.battles)
    b = c.battles[-1]
    if b.vp is not None:
        print(f"battle {n} from its save: side A {b.vp['A']} VP, side B {b.vp['B']} VP, margin {b.margin}; "
              f"Table {'Contested' if b.control is None else 'controlled by side ' + b.control}")
    for line in st.explain:
        if line.startswith(f"battle {n}:") or line.startswith("the campaign is won"):
            print(line)
    for s in ("A", "B"):
        print(f"side {s}: {st.sides[s].campaign_points} campaign points, streak {st.sides[s].streak}, "
              f"{st.sides[s].tech_points} tech points")


def run_upgrade(args) -> int:
    bought = buy_upgrade(args.file, args.side, args.rating, args.stat)
    for line in bought.explain:
        print(line)
    if not bought.allowed:
        raise InputError(args.file, bought.told)
    print(bought.told)
    return 0


def run_faction(args) -> int:
    _, st = load_campaign(args.file)
    faction = st.sides[args.side].the_faction()
    data = faction.model_dump(mode="json", by_alias=True, exclude_none=True)
    write_document(Path(args.out), data)
    print(f"{faction.name} with {len(faction.upgrades)} campaign upgrades written to {args.out}")
    return 0
