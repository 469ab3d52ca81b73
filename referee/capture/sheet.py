"""The markers sheet: a printable PDF, at real size on A4 or Letter, of every marker of a table with its piece's id.

The first page says how to stick them (with a drawing) and carries a 100 mm ruler to check the print was not scaled.
Then come the cards to cut out, each with its marker number and the battle's id of its piece:

* four corner cards, 2" square: the card's outer corner goes on the table's corner, the marker's top towards the far
  edge (side B's);
* one tail card per unit: the unit's base stands on the printed circle (25-40 mm, its own base size), the marker
  behind it pointing the way the unit faces; the card slides under the base, so nothing covers the miniature and
  the marker lies flat on the table, where the camera reads it without parallax;
* one card per blip and objective, stuck on the counter, centred;
* two cards per terrain piece, stuck on it where the card says (near two of its corners), their top towards the far
  edge.

Markers are drawn as vector squares, so they print sharp at any resolution.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from fpdf import FPDF

from ..storage import atomic_write_bytes
from .plan import DICTIONARY, Marker, MarkerPlan

MM = 25.4                       # millimetres an inch
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 12.0                   # mm round the page
GAP = 4.0                       # mm between cards
CUT = (150, 150, 150)           # the cutting line's grey


def bits(number: int) -> np.ndarray:
    """The marker's cells, 6 x 6 with its black border (1 = black)."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    return (np.asarray(cv2.aruco.generateImageMarker(d, number, 6)) < 128).astype(np.uint8)


def _marker(pdf: FPDF, m: Marker, x: float, y: float) -> None:
    """Marker ``m`` with its top-left corner at (x, y) mm, its printed size exact."""
    cells = bits(m.number)
    cell = m.size * MM / cells.shape[0]
    pdf.set_fill_color(0, 0, 0)
    for r in range(cells.shape[0]):
        c = 0
        while c < cells.shape[1]:           # runs of black cells as one rectangle: no hairlines between them
            if cells[r, c]:
                start = c
                while c < cells.shape[1] and cells[r, c]:
                    c += 1
                pdf.rect(x + start * cell, y + r * cell, (c - start) * cell, cell, style="F")
            else:
                c += 1


def _card_size(m: Marker, base: float) -> tuple[float, float]:
    side = m.size * MM
    if m.kind == "corner":
        return 2.0 * MM, 2.0 * MM + 8
    if m.kind == "unit":
        return max(side + 6, base * MM + 4), side + 3 + (m.tail + base / 2) * MM - side / 2 + 8
    return side + 6, side + 6 + 8


def _card(pdf: FPDF, m: Marker, base: float, x: float, y: float) -> None:
    """One card: its cutting line, the marker, and the words that say which piece it is and where it goes."""
    w, h = _card_size(m, base)
    side = m.size * MM
    pdf.set_draw_color(*CUT)
    pdf.set_line_width(0.2)
    pdf.set_font("Helvetica", size=6.5)
    pdf.set_text_color(0, 0, 0)
    label = f"#{m.number} {m.label()}"
    if m.kind == "unit":
        # From the top: the base's circle, then the marker behind it; the card is cut round both.
        body = h - 8
        pdf.rect(x, y, w, body)
        cx = x + w / 2
        base_y = y + 2 + base * MM / 2
        pdf.set_draw_color(60, 60, 60)
        pdf.circle(cx, base_y, base * MM / 2, style="D")
        pdf.set_font("Helvetica", size=5)
        pdf.text(cx - 5, base_y + 1, f"base {base * MM:.0f} mm")
        top = base_y + m.tail * MM - side / 2
        _marker(pdf, m, cx - side / 2, top)
        pdf.set_font("Helvetica", size=6.5)
        pdf.text(x, y + body + 3, label[:34])
        pdf.text(x, y + body + 6, "base on the circle; faces up")
        return
    if m.kind == "corner":
        pdf.rect(x, y, w, w)
        _marker(pdf, m, x + (w - side) / 2, y + (w - side) / 2)
        pdf.text(x, y + w + 3, f"#{m.number} {m.label()}")
        pdf.text(x, y + w + 6, "card corner on table corner; top to far edge")
        return
    pdf.rect(x, y, w, w - 8)
    _marker(pdf, m, x + 3, y + 3)
    pdf.text(x, y + w - 8 + 3, label[:30])
    where = "centred on the counter" if m.kind in ("blip", "objective") else "top towards the far edge"
    pdf.text(x, y + w - 8 + 6, where)


def _how_to(pdf: FPDF, plan: MarkerPlan, title: str, paper: str) -> None:
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 15)
    pdf.text(MARGIN, MARGIN + 6, f"Markers for {title}")
    pdf.set_font("Helvetica", size=9)
    lines = [
        f"{len(plan.markers)} markers of OpenCV's ArUco dictionary {DICTIONARY}, for a {plan.width:g}\" x "
        f"{plan.height:g}\" table.",
        f"Print at actual size (100 %, no 'fit to page') on {paper.upper()} paper; check the ruler below measures "
        "100 mm.",
        "Cut each card along its grey line.",
        "",
        "Table corners: the card's outer corner on the table's corner, the marker's top towards the far edge (side B's).",
        "Units: stand the unit's base on its card's circle, the card under the base; the marker lies flat behind the",
        "  base and its top points the way the unit faces. Turn the card with the unit whenever it turns.",
        "Blips and objectives: stick the card on the counter, centred (any way round).",
        "Terrain: two cards per piece, stuck on it near the corners the card names, the top towards the far edge.",
        "",
        "Photograph the whole table from above or at most 35 degrees from above, all four corner cards in view,",
        "in even light; a hand over one marker only loses that piece (it is ringed on the photo).",
    ]
    for i, line in enumerate(lines):
        pdf.text(MARGIN, MARGIN + 16 + 4.5 * i, line)
    y = MARGIN + 16 + 4.5 * len(lines) + 4
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.3)
    pdf.line(MARGIN, y, MARGIN + 100, y)
    for k in range(11):
        pdf.line(MARGIN + 10 * k, y - (3 if k % 5 == 0 else 1.5), MARGIN + 10 * k, y)
    pdf.text(MARGIN + 102, y + 1, "100 mm")
    # A drawing of a unit with its tail card, seen from above, and a corner card on the table's corner.
    y += 10
    pdf.set_font("Helvetica", "B", 10)
    pdf.text(MARGIN, y, "How a unit stands on its card (seen from above)")
    pdf.text(MARGIN + 100, y, "A table corner")
    pdf.set_font("Helvetica", size=8)
    cx, top = MARGIN + 40, y + 8
    base = 32.0
    side = 0.8 * MM * 1.6
    pdf.set_draw_color(*CUT)
    pdf.rect(cx - base / 2 - 2, top, base + 4, base + side + 10)
    pdf.set_fill_color(70, 70, 70)
    pdf.circle(cx, top + base / 2 + 2, base / 2, style="FD")
    pdf.set_fill_color(150, 150, 170)
    pdf.circle(cx, top + base / 2 + 2, base / 4, style="F")
    example = Marker(7, "example", "unit", 0.8 * 1.6)
    _marker(pdf, example, cx - side / 2, top + base + 6)
    pdf.set_draw_color(200, 0, 0)
    pdf.set_line_width(0.6)
    pdf.line(cx, top + base + 4, cx, top - 6)
    pdf.line(cx, top - 6, cx - 2.5, top - 2)
    pdf.line(cx, top - 6, cx + 2.5, top - 2)
    pdf.text(cx + 3, top - 3, "facing")
    pdf.text(cx + base / 2 + 4, top + base / 2 + 2, "the miniature's base")
    pdf.text(cx + base / 2 + 4, top + base + 6 + side / 2, "the marker, flat on the table")
    pdf.text(cx + base / 2 + 4, top + base + 10 + side / 2, "(its top towards the base)")
    # The corner: two table edges and the card in the corner.
    ox, oy = MARGIN + 100, y + 8 + 45
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.8)
    pdf.line(ox, oy, ox + 60, oy)
    pdf.line(ox, oy, ox, oy - 45)
    pdf.set_line_width(0.2)
    pdf.set_draw_color(*CUT)
    pdf.rect(ox, oy - 2 * MM * 0.6, 2 * MM * 0.6, 2 * MM * 0.6)
    corner = Marker(0, "corner-bottom-left", "corner", 1.5 * 0.6)
    _marker(pdf, corner, ox + 0.25 * MM * 0.6, oy - 1.75 * MM * 0.6)
    pdf.text(ox + 2, oy + 5, "table edge (side A's)")
    pdf.text(ox + 32, oy - 10, "bottom-left corner card")
    pdf.text(MARGIN, top + base + side + 22, "Drawings not to scale. The cards that follow are at real size.")


def markers_pdf(plan: MarkerPlan, title: str, paper: str = "a4", bases: dict[str, float] | None = None,
                compress: bool = True) -> bytes:
    """The markers sheet of ``plan`` as PDF bytes; ``bases`` gives each unit's base diameter in inches."""
    if paper not in PAPERS:
        raise ValueError(f"paper: expected one of {', '.join(PAPERS)} (got {paper!r})")
    bases = bases or {}
    pw, ph = PAPERS[paper]
    pdf = FPDF(unit="mm", format=(pw, ph))
    pdf.set_auto_page_break(False)
    pdf.set_compression(compress)
    pdf.set_title(f"Markers for {title}")
    _how_to(pdf, plan, title, paper)
    x, y, row = MARGIN, MARGIN, 0.0
    pdf.add_page()
    order = sorted(plan.markers.values(), key=lambda m: ("corner unit blip objective terrain".split().index(m.kind),
                                                          m.number))
    for m in order:
        w, h = _card_size(m, bases.get(m.piece, 1.0))
        if x + w > pw - MARGIN:
            x, y, row = MARGIN, y + row + GAP, 0.0
        if y + h > ph - MARGIN:
            pdf.add_page()
            x, y, row = MARGIN, MARGIN, 0.0
        _card(pdf, m, bases.get(m.piece, 1.0), x, y)
        x += w + GAP
        row = max(row, h)
    return bytes(pdf.output())


def write_markers_pdf(path: Path | str, plan: MarkerPlan, title: str, paper: str = "a4",
                      bases: dict[str, float] | None = None) -> Path:
    path = Path(path)
    atomic_write_bytes(path, markers_pdf(plan, title, paper, bases))
    return path
