"""``seven-seconds report SAVE``: looking back on a battle: the one-page summary and the dice report.

``--summary`` prints the summary of a finished battle (sides, missions, margin, units lost, turning points) and
``--png FILE`` draws it as a picture; ``--pdf FILE`` prints the whole end-of-battle report with its dice report and
charts; ``--dice`` prints every scored roll's exact chance beside what happened, the
expected and actual kills, grazes, Sensor Pool points and countermeasures, and each side's luck as a percentile
(``--side`` keeps one side's rolls). Without any of them it prints both. The dice report works on a battle in
progress too: every roll it lists was rolled openly on the table.
"""

from __future__ import annotations

from ..i18n import _
from .pins import add_pin_options, keys_from
from ..rules.errors import InputError
from ..service import reports
from ..service.battles import open_save


def register(sub) -> None:
    p = sub.add_parser("report",
                       help=_("look back on a saved battle: summary (text or PNG), dice report, the whole report as a PDF"),
                       description=_("The one-page summary of a finished battle and the dice report of any battle."))
    p.add_argument("save", help=_("a save file (.json)"))
    p.add_argument("--summary", action="store_true", help=_("the one-page summary (the battle must be over)"))
    p.add_argument("--png", metavar="FILE", help=_("draw the summary as a PNG picture"))
    p.add_argument("--pdf", metavar="FILE", help=_("print the end-of-battle report as a PDF: the final table, the "
                                                 "result, the seals, every secret, the dice report and its charts"))
    p.add_argument("--dice", action="store_true", help=_("the dice report: every roll's chance and each side's luck"))
    p.add_argument("--side", choices=("A", "B"), help=_("with --dice: only this side's rolls"))
    add_pin_options(p)
    p.set_defaults(run=run)


def run(args) -> int:
    save = open_save(args.save, keys=keys_from(args))
    both = not (args.summary or args.dice or args.png or args.pdf)
    # What the seals caught comes first, whatever was asked: an edited save is named before anything read from it.
    out: list[str] = save.session.tampered()
    if args.summary or args.png or (both and save.phase == "over"):
        if save.phase != "over":
            raise InputError(args.save, "the battle is not over: a summary is made from the end-of-battle report "
                                        "[p.16] (the dice report, --dice, works on any battle)")
        made = reports.summary(save.session)
        summary, view = made.summary, made.view
        if args.summary or both:
            out.extend(summary.lines())
            out.append("")
        if args.png:
            # lazy: loaded only when this command or option runs, so the command line starts fast
            from ..ui.summary_page import save_summary_png

            save_summary_png(summary, view, args.png)
            out.append(f"summary drawn to {args.png}")
    if args.pdf:
        written = reports.battle_report_pdf(save.session, args.pdf)
        out.append(_("Wrote {file}: the end-of-battle report (PDF)").format(file=written))
    if args.dice or both:
        out.extend(reports.dice_lines(save.session, args.side))
    print("\n".join(out))
    return 0
