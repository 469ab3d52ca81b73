"""A player's mat for a game on a physical table: the 16 squares of the Holding Area, the player's own mission and
cards, and a quick reference of the Action Table and the formulas, each with its page or ruling.

From a save it prints one side's player view (``game/views/view.py: player_view``): its own holding area, mission and
cards and nothing of the opponent's. Without a save the squares are empty, to fill with the counters at the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from fpdf.enums import XPos, YPos

from ..game.battle.cards import HOLDING_SQUARES
from ..game.views.view_words import card_lines
from ..game.views.view_types import PlayerView
from .document import FONT, HEADER_FILL, INK, RULE, SIDE_INK, SOFT_INK, STRIPE, Page, write_pdf

# The Action Table [p.17]: each action, the Target counters it puts on the actor, and who may take it.
ACTION_TABLE: tuple[tuple[str, str, str], ...] = (
    ("Move", "removes min(Stl, inches moved)", "all: troopers, drones, blips [p.18]"),
    ("Jump", "removes as a Move, then +1", "Scouts, all drones [p.18, A39]"),
    ("Target", "+1 per die rolled", "troopers, Recce drones (dice up to Rob) [p.19]"),
    ("Fire Rifle", "+1", "every revealed unit (drones: MG) [p.20]"),
    ("Fire Missile", "+1", "troopers but the Commander [p.21]"),
    ("Fire Flamer", "+1", "troopers [p.22]"),
    ("Command", "+1", "Commander (any unit), Engineer (drones) [p.22]"),
    ("Repair", "+1", "Engineer [p.22]"),
    ("Scramble", "0", "a unit with no Target counters [p.22, A23]"),
    ("Kamikaze", "the drone explodes", "Kamikaze drone [p.23]"),
    ("Toggle Jammer", "+1", "Haywire drone [p.23]"),
)

FORMULAS: tuple[tuple[str, str], ...] = (
    ("Range band", "band = floor(distance / S) + 1; S = 6\u2033, or 12\u2033 for a Scout Targeting and a Tactical "
                   "firing its rifle; exactly 6\u2033 is band 2 [p.13, A2]"),
    ("Target price", "price per counter = band + cover bands, doubled out of arc; counters placed = "
                     "floor(pool / price) \u2212 light pieces crossed (not the target's own) \u2212 2 \u00d7 heavy "
                     "pieces within 3\u2033 [p.19, p.24]"),
    ("Rifle dice", "dice = floor(counters / (band + cover bands)) \u2212 light \u2212 2 \u00d7 heavy; fire only "
                   "with 1 die or more [p.20]"),
    ("Missile", "direct hit when the d6 is at most counters \u2212 cover bands; each unit in reach shoots it down when its "
                "d6 is at most its CM [p.21]"),
    ("Kamikaze", "contact on d6 < counters \u2212 cover bands [p.23]"),
    ("Armour", "a graze, blast or flamer harms on d6 > Arm; a jamming field too [p.25, p.23]"),
    ("Damaged, Stunned", "a Damaged trooper loses the action on a d6 of 5 or 6; a Stunned one stands on a 1 or 2 "
                         "[p.25]"),
    ("Turn", "1 activation; 2 with twice the opponent's active units, 3 with three times; then up to 3 extra blip "
             "Moves [p.16]"),
    ("Activation", "2 actions a trooper, 1 a drone, 1 a blip (a Move only) [p.17, A18]"),
)


def mat(view: PlayerView | None, side: str, title: str = "") -> Page:
    """The mat of ``side``: from its own player view (a save), or empty (``view`` None)."""
    pdf = Page(f"Side {side}'s mat", footer=f"side {side}'s mat  \u00b7  keep it on your side of the table  "
                                            "\u00b7  7 Seconds playtest v0.81")
    pdf.set_font(FONT, "B", 18)
    pdf.set_text_color(*SIDE_INK.get(side, INK))
    pdf.cell(0, 9, f"Side {side}'s mat" + (f": {title}" if title else ""), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_text_color(*INK)
    pdf.heading("Holding Area", "2 units a square at most; an empty square is a decoy blip [p.~10, p.14]",
                SIDE_INK.get(side, INK))
    holding: dict[str, Any] = {}
    if view is not None:
        holding = cast(dict[str, Any], (view.get("holding") or {}).get(side) or {})
    _squares(pdf, holding, side)
    pdf.heading("Your mission and cards", "secret until the end of the battle [p.~14]", SIDE_INK.get(side, INK))
    lines = card_lines(view, side) if view is not None else None
    if not lines:
        pdf.text_block("Mission: ____________________________   Round limit: ______   Troop card and line: "
                       "____________________   Drone card and line: ____________________", size=9, line=7)
    for line in lines or []:
        pdf.text_block(line, size=9, indent=3 if line.startswith("  ") else 0)
    pdf.add_page()
    _quick_reference(pdf)
    return pdf


def _squares(pdf: Page, holding: dict[str, Any], side: str) -> None:
    cols = 4
    gap = 2.0
    size = (pdf.inner_width - gap * (cols - 1)) / cols
    height = size * 0.62
    top = pdf.get_y()
    for n in range(1, HOLDING_SQUARES + 1):
        r, c = divmod(n - 1, cols)
        x, y = pdf.l_margin + c * (size + gap), top + r * (height + gap)
        pdf.set_draw_color(*SIDE_INK.get(side, INK))
        pdf.set_line_width(0.5)
        pdf.rect(x, y, size, height, style="D")
        pdf.set_font(FONT, "B", 14)
        pdf.set_text_color(*SIDE_INK.get(side, INK))
        pdf.set_xy(x + 1.5, y + 1)
        pdf.cell(10, 6, str(n))
        pdf.set_text_color(*INK)
        contents = holding.get(str(n))
        pdf.set_font(FONT, "", 8)
        if contents:
            for i, unit in enumerate(contents):
                pdf.set_xy(x + 2, y + 9 + i * 8)
                pdf.set_font(FONT, "B", 8.5)
                pdf.cell(size - 4, 4, unit["id"])
                pdf.set_xy(x + 2, y + 13 + i * 8)
                pdf.set_font(FONT, "", 7.5)
                pdf.set_text_color(*SOFT_INK)
                pdf.cell(size - 4, 3.5, f"{unit['type']}, {unit['rating']}")
                pdf.set_text_color(*INK)
        elif contents == [] and holding:
            pdf.set_text_color(*SOFT_INK)
            pdf.set_xy(x, y + height / 2 - 2)
            pdf.cell(size, 4, "empty", align="C")
            pdf.set_text_color(*INK)
    pdf.set_y(top + 4 * (height + gap) + 1)


def _quick_reference(pdf: Page) -> None:
    pdf.heading("Action Table", "the Target counters each action puts on the actor [p.17]")
    widths = (30.0, 52.0, pdf.inner_width - 82.0)
    y = pdf.get_y()
    pdf.set_fill_color(*HEADER_FILL)
    pdf.rect(pdf.l_margin, y, pdf.inner_width, 6, style="F")
    x = pdf.l_margin
    pdf.set_font(FONT, "B", 9)
    for w, head in zip(widths, ("Action", "Target counters on the actor", "Who")):
        pdf.set_xy(x + 1.5, y)
        pdf.cell(w, 6, head)
        x += w
    y += 6
    for n, row in enumerate(ACTION_TABLE):
        if n % 2:
            pdf.set_fill_color(*STRIPE)
            pdf.rect(pdf.l_margin, y, pdf.inner_width, 5.6, style="F")
        x = pdf.l_margin
        for i, (w, text) in enumerate(zip(widths, row)):
            pdf.set_font(FONT, "B" if i == 0 else "", 8.5)
            pdf.set_xy(x + 1.5, y)
            pdf.cell(w - 2, 5.6, text)
            x += w
        y += 5.6
    pdf.set_draw_color(*RULE)
    pdf.line(pdf.l_margin, y, pdf.l_margin + pdf.inner_width, y)
    pdf.set_y(y + 1)
    pdf.text_block("A Damaged trooper rolls before every action: on 5-6 it is lost. A Stunned trooper must stand "
                   "first [p.25].", size=8, colour=SOFT_INK)
    pdf.heading("Formulas", "every number the referee counts, with its page")
    for name, text in FORMULAS:
        pdf.need(10)
        y = pdf.get_y()
        pdf.set_font(FONT, "B", 9)
        pdf.cell(38, 4.6, name)
        pdf.set_font(FONT, "", 8.5)
        pdf.set_xy(pdf.l_margin + 38, y)
        pdf.multi_cell(pdf.inner_width - 38, 4.3, text, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(1)


def save_mat(view: PlayerView | None, side: str, path: Path | str, title: str = "") -> Path:
    return write_pdf(mat(view, side, title), path)
