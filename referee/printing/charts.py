"""Small charts for printed pages, where a person would rather look than read: the odds of a roll as one stacked
bar, and a side's luck as a histogram of every total its rolls could have made.

Each part of a bar carries a sign as well as a colour (+ went the roller's way, \u00bd half, \u2212 not), and the
outcome that happened is marked with a triangle, so the charts read in grey and with any colour vision. The numbers
are the dice report's (``game/reports/dice_report.py``), computed by the engine's odds functions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from .document import BAD, FONT, GOOD, INK, NEUTRAL, SOFT_INK, Colour, Page

PARTS: tuple[tuple[int, str, Colour], ...] = ((2, "+", GOOD), (1, "\u00bd", NEUTRAL), (0, "\u2212", BAD))


def outcome_bar(pdf: Page, x: float, y: float, width: float, height: float,
                distribution: Mapping[int, Fraction], happened: int) -> None:
    """One roll's chances as a stacked bar: its way (+), half (\u00bd), not its way (\u2212); the part that
    happened is outlined and marked with a triangle under it."""
    left = x
    pdf.set_line_width(0.15)
    for score, sign, colour in PARTS:
        p = float(distribution.get(score, 0))
        if p <= 0:
            continue
        part = width * p
        pdf.set_fill_color(*colour)
        pdf.set_draw_color(255, 255, 255)
        pdf.rect(left, y, part, height, style="DF")
        if part > 6:
            pdf.set_font(FONT, "B", 6)
            pdf.set_text_color(*INK)
            pdf.set_xy(left, y)
            pdf.cell(part, height, f"{sign} {p * 100:.0f}%", align="C")
        if score == happened:
            pdf.set_draw_color(*INK)
            pdf.set_line_width(0.5)
            pdf.rect(left, y, part, height, style="D")
            pdf.set_fill_color(*INK)
            mid = left + part / 2
            pdf.polygon([(mid, y + height + 0.2), (mid - 1.0, y + height + 1.6), (mid + 1.0, y + height + 1.6)],
                        style="F")
            pdf.set_line_width(0.15)
        left += part
    pdf.set_text_color(*INK)


def luck_histogram(pdf: Page, x: float, y: float, width: float, height: float,
                   distribution: Mapping[int, Fraction], actual: int, colour: Colour, title: str) -> None:
    """Every total the side's scored rolls could have made, with its chance; the total made is the dark bar,
    marked "made". Totals too unlikely to draw (under 0.1 %) at either end are left out of the axis."""
    totals = sorted(t for t, p in distribution.items() if p >= Fraction(1, 1000) or t == actual)
    pdf.set_font(FONT, "B", 8)
    pdf.set_text_color(*INK)
    pdf.set_xy(x, y)
    pdf.cell(width, 4, title)
    top = y + 5
    plot_h = height - 12
    if not totals:
        return
    lo, hi = totals[0], totals[-1]
    span = hi - lo + 1
    peak = max(float(distribution.get(t, 0)) for t in range(lo, hi + 1)) or 1.0
    step = width / span
    pdf.set_line_width(0.15)
    for t in range(lo, hi + 1):
        p = float(distribution.get(t, 0))
        bar = plot_h * p / peak
        bx = x + (t - lo) * step
        made = t == actual
        pdf.set_fill_color(*(colour if made else tuple(int(255 + (c - 255) * 0.3) for c in colour)))
        pdf.set_draw_color(*(INK if made else SOFT_INK))
        if bar > 0:
            pdf.rect(bx + step * 0.1, top + plot_h - bar, step * 0.8, bar, style="DF")
        if made:
            pdf.set_font(FONT, "B", 6)
            pdf.set_xy(bx - 4, top + plot_h - bar - 3.2)
            pdf.cell(step + 8, 3, "made", align="C")
    pdf.set_draw_color(*SOFT_INK)
    pdf.line(x, top + plot_h, x + width, top + plot_h)
    pdf.set_font(FONT, "", 5.5)
    pdf.set_text_color(*SOFT_INK)
    labels = max(1, span // 10)
    for t in range(lo, hi + 1, labels):
        pdf.set_xy(x + (t - lo) * step - 2, top + plot_h + 0.5)
        pdf.cell(step + 4, 2.5, str(t), align="C")
    pdf.set_xy(x, top + plot_h + 3.2)
    pdf.cell(width, 2.5, "total score of the side's scored rolls (2 its way, 1 half, 0 not); bar height: chance",
             align="C")
    pdf.set_text_color(*INK)
