"""The faction sheet as a PDF: name, lore and emblem in the faction's colours, the three rating lines as they stand
(campaign upgrades marked), each unit type's stats at each rating (faction line + type modifiers, ruling A5) and a
key to the unit types. It reads the faction and the unit catalogue; the numbers are ``rules.units.unit_stats``."""

from __future__ import annotations

from pathlib import Path

from fpdf.enums import XPos, YPos

from ..authoring.unit_key import unit_key_entries
from ..rules.catalogue import unit_types
from ..rules.factions import Faction
from ..rules.stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT
from .document import (FONT, HEADER_FILL, INK, RULE, SOFT_INK, STRIPE, Colour, Page, disc, hex_colour, luminance,
                       text_on, tint, write_pdf)
from ..authoring.sheet import EMBLEM_SHAPES
from ..rules.units import unit_stats

STAT_TITLES = {"sensors": "Sensors", "stealth": "Stealth", "armour": "Armour",
               "countermeasures": "Counterm.", "nuclear": "Nuclear", "robotics": "Robotics"}
TROOPER_STATS = STAT_NAMES[:5]          # troopers use the first five stats; drones only Robotics [p.~11]


def ink_version(colour: Colour) -> Colour:
    """``colour`` darkened until it reads on white paper (4.5:1), for headings and rules in the faction's colour."""
    c = colour
    for _ in range(40):
        if 1.05 / (luminance(c) + 0.05) >= 4.5:
            return c
        c = (int(c[0] * 0.9), int(c[1] * 0.9), int(c[2] * 0.9))
    return INK


def _emblem(pdf: Page, emblem: str, cx: float, cy: float, r: float, primary: Colour, secondary: Colour) -> None:
    """The emblem on a round badge, as vector shapes (the same shapes as the window's)."""

    outline = INK if luminance(secondary) > 0.18 else (70, 70, 76)
    pdf.set_fill_color(*outline)
    disc(pdf, cx, cy, r)
    pdf.set_fill_color(*secondary)
    disc(pdf, cx, cy, r * 0.95)
    pdf.set_draw_color(*primary)
    pdf.set_line_width(r * 0.03)
    disc(pdf, cx, cy, r * 0.86, style="D")
    inner = r * 0.62
    pdf.set_draw_color(*outline)
    pdf.set_line_width(r * 0.025)
    pdf.set_fill_color(*primary)
    if emblem == "circle":
        disc(pdf, cx, cy, inner * 0.8, "DF")
        pdf.set_fill_color(*secondary)
        disc(pdf, cx, cy, inner * 0.42, "DF")
        return
    for shape in EMBLEM_SHAPES.get(emblem, EMBLEM_SHAPES["chevron"]):
        pdf.polygon([(cx + x * inner, cy + y * inner) for x, y in shape], style="DF")


def faction_sheet(faction: Faction) -> Page:
    """The sheet as a PDF document (not yet written); reads the faction, changes nothing."""
    primary = hex_colour(faction.colours.primary)
    secondary = hex_colour(faction.colours.secondary)
    accent = ink_version(primary)
    pdf = Page(f"{faction.name}: faction sheet", footer="7 Seconds playtest v0.81 \u00b7 unit modifiers per ruling A5")
    left, width = pdf.l_margin, pdf.inner_width

    # Header band: emblem badge, name, subtitle
    band = 46.0
    pdf.set_fill_color(*primary)
    pdf.rect(0, 0, pdf.w, band, style="F")
    pdf.set_fill_color(*accent)
    pdf.rect(0, band, pdf.w, 1.4, style="F")
    _emblem(pdf, faction.emblem, left + 17, band / 2, 17, primary, secondary)
    on_band = text_on(primary)
    pdf.set_text_color(*on_band)
    size = 30.0
    pdf.set_font(FONT, "B", size)
    while size > 14 and pdf.get_string_width(faction.name) > width - 42:
        size -= 1
        pdf.set_font(FONT, "B", size)
    pdf.set_xy(left + 40, band / 2 - size * 0.42)
    pdf.cell(width - 40, size * 0.42, faction.name)
    pdf.set_font(FONT, "", 10)
    pdf.set_xy(left + 40, band / 2 + 3)
    pdf.cell(width - 40, 5, f"Faction sheet  \u00b7  emblem: {faction.emblem}  \u00b7  id: {faction.id}")
    pdf.set_text_color(*INK)
    pdf.set_y(band + 7)

    if faction.lore:
        pdf.text_block(faction.lore, size=10)
        pdf.ln(2)

    pdf.heading("Faction stats", "current values; each rating builds on the one before [p.30]", accent)
    _rating_table(pdf, faction, accent, left, width)
    pdf.heading("Unit stats by rating", "faction line + unit type modifiers (shaded) [A5]", accent)
    _unit_table(pdf, faction, accent, left, width)
    pdf.heading("Unit types", "weapons and abilities [p.33, p.34]", accent)
    _unit_key(pdf)
    return pdf


def _rating_table(pdf: Page, faction: Faction, accent: Colour, left: float, width: float) -> None:
    label_w = 34.0
    cols = len(STAT_NAMES) + 1
    col_w = (width - label_w) / cols
    head_h, row_h = 11.0, 9.0
    y = pdf.get_y()
    pdf.set_fill_color(*HEADER_FILL)
    pdf.rect(left, y, width, head_h, style="F")
    heads = [(STAT_SHORT[s], STAT_TITLES[s]) for s in STAT_NAMES] + [("Sum", "points")]
    for i, (short, title) in enumerate(heads):
        x = left + label_w + i * col_w
        pdf.set_font(FONT, "B", 11)
        pdf.set_xy(x, y + 1)
        pdf.cell(col_w, 5, short, align="C")
        pdf.set_font(FONT, "", 6.5)
        pdf.set_text_color(*SOFT_INK)
        pdf.set_xy(x, y + 6)
        pdf.cell(col_w, 4, title, align="C")
        pdf.set_text_color(*INK)
    y += head_h
    raised_fill = tint(accent, 0.25)
    for n, rating in enumerate(RATINGS):
        if n % 2:
            pdf.set_fill_color(*STRIPE)
            pdf.rect(left, y, width, row_h, style="F")
        line, created = faction.stats(rating), faction.created.line(rating)
        pdf.set_font(FONT, "B", 11)
        pdf.set_xy(left + 2, y)
        pdf.cell(label_w, row_h, RATING_TITLES[rating])
        for i, s in enumerate(STAT_NAMES):
            x = left + label_w + i * col_w
            raised = line.get(s) != created.get(s)
            if raised:
                pdf.set_fill_color(*raised_fill)
                pdf.rect(x + 1, y + 1, col_w - 2, row_h - 2, style="F")
            pdf.set_font(FONT, "B" if raised else "", 13)
            pdf.set_xy(x, y)
            pdf.cell(col_w, row_h, f"{line.get(s)}" + ("*" if raised else ""), align="C")
        pdf.set_font(FONT, "", 11)
        pdf.set_text_color(*SOFT_INK)
        pdf.set_xy(left + label_w + (cols - 1) * col_w, y)
        pdf.cell(col_w, row_h, str(line.total()), align="C")
        pdf.set_text_color(*INK)
        y += row_h
    pdf.set_draw_color(*RULE)
    pdf.set_line_width(0.3)
    pdf.line(left, y, left + width, y)
    pdf.set_y(y + 1.5)
    if faction.upgrades:
        parts = [f"{RATING_TITLES[u.rating]} {STAT_SHORT[u.stat]} +1 ({u.cost} pt{'' if u.cost == 1 else 's'}"
                 + (f", battle {u.battle})" if u.battle else ")") for u in faction.upgrades]
        pdf.text_block("* raised by campaign upgrades [p.31, A45]: " + "; ".join(parts), size=8, colour=SOFT_INK)
    else:
        pdf.text_block("As created: Reserve adds 6 points to all 1s, Veteran 6 more, Spec Ops 6 more "
                       "(sums 12 / 18 / 24) [p.30, A46].", size=8, colour=SOFT_INK)
    pdf.ln(2)


def _unit_table(pdf: Page, faction: Faction, accent: Colour, left: float, width: float) -> None:

    types = unit_types()
    label_w, gap = 32.0, 3.0
    group_w = (width - label_w - 2 * gap) / 3
    col_w = group_w / len(TROOPER_STATS)
    group_x = [left + label_w + g * (group_w + gap) for g in range(3)]
    mod_fill = tint(accent, 0.25)
    y = pdf.get_y()
    for g, rating in enumerate(RATINGS):
        pdf.set_fill_color(*HEADER_FILL)
        pdf.rect(group_x[g], y, group_w, 7, style="F")
        pdf.set_font(FONT, "B", 10)
        pdf.set_xy(group_x[g], y)
        pdf.cell(group_w, 7, RATING_TITLES[rating], align="C")
    y += 7.5
    pdf.set_font(FONT, "", 8)
    pdf.set_text_color(*SOFT_INK)
    pdf.set_xy(left + 2, y)
    pdf.cell(label_w, 5, "Unit")
    for g in range(3):
        for i, s in enumerate(TROOPER_STATS):
            pdf.set_xy(group_x[g] + col_w * i, y)
            pdf.cell(col_w, 5, STAT_SHORT[s], align="C")
    pdf.set_text_color(*INK)
    y += 5.5
    row_h = 8.0
    for n, (key, trooper) in enumerate(types.troopers.items()):
        if n % 2 == 0:
            pdf.set_fill_color(*STRIPE)
            pdf.rect(left, y, width, row_h, style="F")
        pdf.set_font(FONT, "B", 10.5)
        pdf.set_xy(left + 2, y)
        pdf.cell(label_w, row_h, trooper.name)
        for g, rating in enumerate(RATINGS):
            st = unit_stats(faction, rating, key).stats
            for i, s in enumerate(TROOPER_STATS):
                x = group_x[g] + col_w * i
                pdf.set_xy(x, y)
                if s == "nuclear" and not trooper.missile:
                    pdf.set_font(FONT, "", 11)
                    pdf.set_text_color(*SOFT_INK)
                    pdf.cell(col_w, row_h, "\u2013", align="C")
                    pdf.set_text_color(*INK)
                    continue
                modified = s in trooper.modifiers
                if modified:
                    pdf.set_fill_color(*mod_fill)
                    pdf.rect(x + 0.7, y + 0.7, col_w - 1.4, row_h - 1.4, style="F")
                pdf.set_xy(x, y)
                pdf.set_font(FONT, "B" if modified else "", 11)
                pdf.cell(col_w, row_h, str(st.get(s)), align="C")
        y += row_h
    first_drone = next(iter(types.drones))
    pdf.set_fill_color(*HEADER_FILL)
    pdf.rect(left, y, width, row_h, style="F")
    pdf.set_font(FONT, "B", 10.5)
    pdf.set_xy(left + 2, y)
    pdf.cell(label_w, row_h, "Drones")
    for g, rating in enumerate(RATINGS):
        rob = unit_stats(faction, rating, first_drone).stats.robotics
        pdf.set_font(FONT, "", 11)
        pdf.set_xy(group_x[g], y)
        pdf.cell(group_w, row_h, f"Rob {rob}", align="C")
    y += row_h
    pdf.set_draw_color(*RULE)
    pdf.line(left, y, left + width, y)
    pdf.set_y(y + 3)


def _unit_key(pdf: Page) -> None:
    name_w = 30.0
    for name, text in unit_key_entries():
        pdf.need(10)
        y = pdf.get_y()
        pdf.set_font(FONT, "B", 10)
        pdf.cell(name_w, 5, name)
        pdf.set_font(FONT, "", 9)
        pdf.set_text_color(*SOFT_INK)
        pdf.set_xy(pdf.l_margin + name_w, y)
        pdf.multi_cell(pdf.inner_width - name_w, 4.6, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_text_color(*INK)
        pdf.ln(1)


def save_faction_sheet(faction: Faction, path: Path | str) -> Path:
    """The sheet written as a PDF at ``path``."""
    return write_pdf(faction_sheet(faction), path)
