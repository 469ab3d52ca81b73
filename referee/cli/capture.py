"""``seven-seconds capture PHOTO``: the table read from a photo of it (markers from ``seven-seconds markers``).

Without ``--battle`` it reads the table given by ``--table`` (default: the default table) and prints every piece's
centre and facing (terrain: its outline) in table inches, with a confidence. With ``--battle SAVE`` it compares the
photo with the battle's last known table and lists the differences: the active unit's Move, or corrections; a Move
the engine refuses is shown with its rule. ``--accept all`` (or a comma list of ids) plays the accepted ones into
``--out NEW``; nothing is changed otherwise. ``--json`` prints one JSON object.
"""

from __future__ import annotations

import json

from ..rules.errors import InputError


def register(sub) -> None:
    p = sub.add_parser("capture", help="read the table from a photo of its printed markers",
                       description="Read a photo of the table (with the markers of `seven-seconds markers`): each "
                                   "piece's centre, facing or outline in table inches; with --battle, the "
                                   "differences from the battle's last known table.")
    p.add_argument("photo", help="the photo (JPEG, PNG, ...)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--battle", metavar="SAVE", help="a battle's save: compare the photo with its table")
    where.add_argument("--table", metavar="TABLE", default="pastoral-hills",
                       help="the scenario the markers were printed for (default pastoral-hills)")
    p.add_argument("--accept", metavar="IDS", help="with --battle: 'all', or the pieces whose differences to play")
    p.add_argument("--out", metavar="SAVE", help="with --accept: where to write the battle with them played")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..capture.photo import load_photo
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..capture.tables import compare, open_table

    if args.accept and not (args.battle and args.out):
        raise InputError("--accept", "needs --battle SAVE and --out NEW: the battle to play them in, and where to "
                                     "write it")
    table = open_table(args.battle or args.table)
    if args.battle and table.game is None:
        raise InputError(args.battle, "expected a battle's save (a .json file with a record), not a table")
    image = load_photo(args.photo)
    seen = compare(table, image)
    reading, problems, diffs = seen.reading, seen.problems, seen.differences
    if args.json:
        print(json.dumps({
            "photo": str(args.photo), "table": table.name, "read": reading.usable,
            "pieces": [{"id": p.piece, "kind": p.kind, "x": round(p.x, 3), "y": round(p.y, 3),
                        "facing": None if p.facing is None else round(p.facing, 1), "confidence": p.confidence,
                        **({"outline": [[round(a, 3), round(b, 3)] for a, b in p.outline]} if p.outline else {})}
                       for p in sorted(reading.pieces.values(), key=lambda p: p.piece)],
            "problems": [{"kind": p.kind, "piece": p.piece, "text": p.text} for p in problems],
            "differences": [{"piece": d.piece, "text": d.text, "action": d.action.to_data(), "as_move": d.as_move,
                             "legal": d.legal, "reason": d.reason, "confidence": d.confidence} for d in diffs],
        }, indent=2, ensure_ascii=False))
    else:
        print(f"{args.photo}: {table.name}, {len(reading.pieces)} pieces read")
        for p in problems:
            print(f"  ! {p.text}")
        if table.game is None:
            for r in sorted(reading.pieces.values(), key=lambda p: p.piece):
                facing = f", facing {r.facing:.0f}°" if r.facing is not None else ""
                turn = f", turned {r.turn:+.1f}°" if r.kind == "terrain" else ""
                print(f"  {r.piece}: ({r.x:.2f}, {r.y:.2f}){facing}{turn} (confidence {r.confidence:.2f})")
        elif reading.usable:
            if not diffs:
                print("  the photo shows the table as the battle has it")
            for d in diffs:
                print(f"  {d.line()}")
    if not reading.usable:
        return 1
    if args.accept:
        return _accept(args, table, diffs)
    return 0


def _accept(args, table, diffs) -> int:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..service.capture import play_into_save

    wanted = None if args.accept.strip().lower() == "all" else {w.strip() for w in args.accept.split(",") if w.strip()}
    known = {d.piece for d in diffs}
    if wanted is not None and wanted - known:
        raise InputError("--accept", f"no difference for {', '.join(sorted(wanted - known))} (the differences are "
                                     f"for: {', '.join(sorted(known)) or 'nothing'})")
    chosen = [d for d in diffs if wanted is None or d.piece in wanted]
    print("\n".join(play_into_save(args.battle, args.out, chosen)))
    return 0
