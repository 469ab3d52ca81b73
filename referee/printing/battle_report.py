"""The end-of-battle report on paper: the final table, the result and its working, the seals checked, every secret
revealed (missions, cards, holding areas), the turning points, and the dice report with its charts.

It prints what the end-of-battle report in the window shows: the end-of-battle view (``referee_view`` of a battle
that is over, when the rules reveal everything), the summary (``game/reports/summary.py``), the seal checks
(``game/play/seal.py``) and the dice report (``game/reports/dice_report.py``); it computes no rule of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..game.reports.dice_report import DiceReport, Test, convolve, dice_report
from ..game.play.engine import Game
from ..game.play.seal import verify_seals
from ..game.battle.state import SIDES
from ..game.reports.summary import battle_summary
from ..game.views.view import referee_view
from ..game.views.view_words import card_lines
from ..rules.errors import InputError
from ..rules.odds import percent
from .charts import PARTS, luck_histogram, outcome_bar
from .document import BAD, FONT, GOOD, INK, SIDE_INK, SOFT_INK, Page, write_pdf
from .table_picture import draw_table

# The unit a roll belongs to opens its description: "b-tactical-3's gauss rifle at ...", "a-tactical-1 grazed".
_UNIT = re.compile(r"^([ab]-[a-z]+(?:-[a-z]+)*-(?:\d+|[A-Z]{2}))(?:'s\b|\s)")


def roll_owner(test: Test) -> str:
    """The unit whose roll ``test`` is, by the dice report's own words; the roll's side when it names none."""
    m = _UNIT.match(test.what)
    return m.group(1) if m else f"side {test.side}"


def battle_report(game: Game) -> Page:
    """The report as a PDF document (not yet written). The battle must be over: the report reveals everything."""
    state = game.state
    if state.phase != "over":
        raise InputError(state.name, "the battle is not over: the end-of-battle report is made once it is scored "
                                     "[p.16]")
    view = referee_view(state)
    summary = battle_summary(view)
    report = dice_report(game)
    pdf = Page(f"{summary.name}: end-of-battle report", footer=f"{summary.name}  \u00b7  end-of-battle report  "
                                                               "\u00b7  7 Seconds playtest v0.81")
    pdf.set_font(FONT, "B", 18)
    pdf.cell(0, 9, f"End of battle: {summary.name}", new_x="LMARGIN", new_y="NEXT")
    pdf.text_block(summary.headline(), size=11.5, bold=True)
    pdf.ln(1)
    top = pdf.get_y()
    size = 92.0
    bottom = draw_table(pdf, view, pdf.l_margin, top + 3, size)

    # Beside the table: the sides, their missions and what they lost.
    left = pdf.l_margin + size + 6
    column = pdf.w - pdf.r_margin - left
    pdf.set_y(top)
    result = view.get("result") or {}
    roles = ("Chance Encounter" if summary.attacker is None else
             f"side {summary.attacker} attacks, side {'B' if summary.attacker == 'A' else 'A'} defends")
    _column_text(pdf, left, column, f"{summary.rounds} round{'s' if summary.rounds != 1 else ''}, {roles}; the "
                 "table " + ("Contested" if summary.control is None else f"Controlled by side {summary.control}"))
    for side in SIDES:
        pdf.set_x(left)
        pdf.set_font(FONT, "B", 10.5)
        pdf.set_text_color(*SIDE_INK[side])
        pdf.cell(column, 6, f"Side {side}: {summary.factions[side]}  \u00b7  {summary.vp[side]} VP",
                 new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(*INK)
        kept = "kept on the mat (not entered)" if summary.mode == "table" else "none"
        _column_text(pdf, left, column, f"mission: {summary.missions.get(side, kept)}")
        _column_text(pdf, left, column, "lost: " + (", ".join(summary.lost[side]) or "none"), colour=SOFT_INK)
    pdf.ln(1)
    pdf.set_x(left)
    pdf.set_font(FONT, "B", 9.5)
    pdf.cell(column, 5, "How the result was scored", new_x="LMARGIN", new_y="NEXT")
    for line in result.get("explain", []):
        _column_text(pdf, left, column, str(line), size=7.5)
    pdf.set_y(max(pdf.get_y(), bottom) + 2)

    pdf.heading("Seals made at set-up", "each side's holding area, blips, mission and cards [A59]")
    for line in game.tampered:
        pdf.text_block(line, size=8.5, colour=BAD)
    for check in verify_seals(game).values():
        if check.sealed is None and game.refereed:
            pdf.text_block(f"side {check.side} was not sealed: a battle refereed at a physical table has no set-up "
                           "in the program to seal", size=8.5, colour=SOFT_INK)
        else:
            mark = "" if check.matches else "MISMATCH: "
            pdf.text_block(mark + check.text(), size=8.5, colour=INK if check.matches else BAD)

    pdf.heading("Every secret revealed", "missions, cards and holding areas")
    for side in SIDES:
        pdf.text_block(f"Side {side}", size=10, bold=True, colour=SIDE_INK[side])
        for line in card_lines(view, side) or ["no cards recorded"]:
            pdf.text_block(line, size=8.5, indent=3)
        holding = (view.get("holding") or {}).get(side) or {}
        filled = [f"square {n}: " + ", ".join(f"{c['id']} ({c['type']}, {c['rating']})" for c in contents)
                  for n, contents in holding.items() if contents]
        pdf.text_block("holding area: " + ("; ".join(filled) if filled else "empty"), size=8.5, indent=3)
        pdf.ln(1)

    pdf.heading("Turning points", "units destroyed, blips revealed, objectives taken")
    if not summary.turning_points:
        pdf.text_block("none: no unit destroyed, no blip revealed, no objective taken", size=9, colour=SOFT_INK)
    for rnd, _, text in summary.turning_points:
        pdf.text_block(f"round {rnd}: {text}", size=8.5)

    _dice_pages(pdf, report)
    return pdf


def _column_text(pdf: Page, left: float, width: float, text: str, size: float = 9,
                 colour: tuple[int, int, int] = INK) -> None:
    pdf.set_x(left)
    pdf.set_font(FONT, "", size)
    pdf.set_text_color(*colour)
    pdf.multi_cell(width, size * 0.47, text, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*INK)


def _dice_pages(pdf: Page, report: DiceReport) -> None:
    pdf.add_page()
    pdf.heading("Dice report: how lucky each side was",
                "each scored roll: 2 its roller's way, 1 half, 0 not; luck is the percentile of the total")
    chart_w = (pdf.inner_width - 8) / 2
    y = pdf.get_y()
    for i, side in enumerate(SIDES):
        luck = report.sides[side]
        tests = luck.tests
        x = pdf.l_margin + i * (chart_w + 8)
        title = f"Side {side}: luck {percent(luck.luck)} ({len(tests)} scored rolls; 50% is average)"
        luck_histogram(pdf, x, y, chart_w, 48, convolve(t.distribution for t in tests), luck.score,
                       SIDE_INK[side], title)
    pdf.set_y(y + 50)
    for side in SIDES:
        for line in report.sides[side].lines():
            pdf.text_block(line.strip(), size=8.5, indent=0 if line.startswith("side") else 4,
                           bold=line.startswith("side"))
    pdf.ln(2)

    pdf.heading("The odds of every scored roll, by unit",
                "bar: the roll's chances; the outlined part, marked beneath, is what happened")
    _key(pdf)
    by_unit: dict[str, list[Test]] = {}
    for t in report.tests:
        by_unit.setdefault(roll_owner(t), []).append(t)
    label_w, bar_w = 92.0, pdf.inner_width - 92.0 - 30
    for unit in sorted(by_unit):
        tests = by_unit[unit]
        pdf.need(9 + 6.5 * min(len(tests), 3))
        side = tests[0].side
        pdf.set_font(FONT, "B", 9.5)
        pdf.set_text_color(*SIDE_INK.get(side, INK))
        pdf.cell(0, 5.5, f"{unit} (side {side})", new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(*INK)
        for t in tests:
            pdf.need(6.5)
            y = pdf.get_y()
            pdf.set_font(FONT, "", 7)
            pdf.set_xy(pdf.l_margin + 3, y)
            pdf.cell(label_w - 3, 3.2, f"action {t.action}, round {t.round}: {t.what}"[:78])
            pdf.set_xy(pdf.l_margin + 3, y + 2.8)
            pdf.set_text_color(*SOFT_INK)
            pdf.cell(label_w - 3, 3, f"rolled {' '.join(map(str, t.faces))} gave {t.outcome}"[:80])
            pdf.set_text_color(*INK)
            outcome_bar(pdf, pdf.l_margin + label_w, y + 0.5, bar_w, 3.8, t.distribution, t.score)
            pdf.set_font(FONT, "B", 7)
            pdf.set_xy(pdf.l_margin + label_w + bar_w + 2, y + 0.5)
            sign = {2: "+", 1: "\u00bd", 0: "\u2212"}[t.score]
            pdf.set_text_color(*{2: GOOD, 1: SOFT_INK, 0: BAD}[t.score])
            pdf.cell(28, 3.8, f"{sign} {percent(t.percentile)}")
            pdf.set_text_color(*INK)
            pdf.set_y(y + 6.5)
        pdf.ln(1)
    if not report.tests:
        pdf.text_block("No scored roll yet.", size=9, colour=SOFT_INK)


def _key(pdf: Page) -> None:
    y = pdf.get_y()
    x = pdf.l_margin
    pdf.set_font(FONT, "", 7.5)
    for score, sign, colour in PARTS:
        words = {2: "went its roller's way", 1: "half (a graze, a pool on its average)", 0: "did not"}[score]
        pdf.set_fill_color(*colour)
        pdf.rect(x, y + 0.6, 6, 3, style="F")
        pdf.set_xy(x, y + 0.6)
        pdf.set_font(FONT, "B", 6.5)
        pdf.cell(6, 3, sign, align="C")
        pdf.set_font(FONT, "", 7.5)
        pdf.set_xy(x + 7, y)
        label = f"{words}"
        pdf.cell(pdf.get_string_width(label) + 2, 4.2, label)
        x += pdf.get_string_width(label) + 14
    pdf.set_xy(pdf.l_margin, y + 5)
    pdf.text_block("At the right of each bar: the roll's percentile (its chance of worse, plus half its chance of "
                   "the same).", size=7.5, colour=SOFT_INK)
    pdf.ln(1)


def save_battle_report(game: Game, path: Path | str) -> Path:
    """The report written as a PDF at ``path``."""
    return write_pdf(battle_report(game), path)
