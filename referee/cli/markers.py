"""``seven-seconds markers TABLE``: the printable sheet of fiducial markers for a table or a battle.

TABLE is a scenario file, a bundled table's name or a battle's save; the PDF names each marker's piece by the
battle's own ids. ``--paper a4`` (default) or ``letter``; the markers print at real size.
"""

from __future__ import annotations

import re
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser("markers", help="write the printable PDF of markers for reading the table from a photo",
                       description="The printable sheet of fiducial markers (OpenCV ArUco) for a table or a battle: "
                                   "four table corners, one per unit, blip and objective, two per terrain piece.")
    p.add_argument("table", help="a scenario file, a bundled table's name, or a battle's save (.json)")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size (default a4)")
    p.add_argument("--out", metavar="PDF", help="where to write it (default markers-TABLE.pdf here)")
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..capture.sheet import write_markers_pdf
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..capture.tables import open_table

    table = open_table(args.table)
    plan = table.plan
    slug = re.sub(r"[^a-z0-9]+", "-", table.name.lower()).strip("-") or "table"
    out = Path(args.out) if args.out else Path(f"markers-{slug}.pdf")
    write_markers_pdf(out, plan, table.name, args.paper, table.bases())
    kinds = [m.kind for m in plan.markers.values()]
    print(f"{out}: {len(plan.markers)} markers ({kinds.count('unit')} units, {kinds.count('blip')} blips, "
          f"{kinds.count('objective')} objectives, {kinds.count('terrain')} on terrain, 4 table corners) for "
          f"{table.name}, {args.paper.upper()}, print at 100 %")
    return 0
