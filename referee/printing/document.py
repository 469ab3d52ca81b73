"""One A4 page layout for every printed document: the fonts, the ink, headings, wrapped text and the footer.

The font is Noto Sans, the window's own (it ships with pygame_gui, a dependency, so an installed wheel has it): it
holds the Greek objective letters, the inch and degree signs and the arrows the rules text uses. It is embedded in
the PDF (fpdf2 subsets it), so the page prints the same on any reader.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Sequence

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from ..rules.errors import InputError
from ..storage import atomic_write_bytes

Colour = tuple[int, int, int]

INK: Colour = (28, 28, 30)
SOFT_INK: Colour = (92, 92, 98)
RULE: Colour = (200, 200, 206)
HEADER_FILL: Colour = (236, 237, 240)
STRIPE: Colour = (247, 247, 249)
# The two sides and the good/bad of a chart, from the Okabe-Ito set, which readers with a colour-vision deficiency
# tell apart; the charts also say it with a sign or a pattern, never with colour alone.
SIDE_INK: dict[str, Colour] = {"A": (0, 114, 178), "B": (213, 94, 0)}
GOOD: Colour = (0, 158, 115)
BAD: Colour = (204, 121, 167)
NEUTRAL: Colour = (240, 228, 66)
FONT = "Noto"
FOOTER = "7 Seconds playtest v0.81"


def _font_file(name: str) -> str:
    # Found without importing pygame_gui (which would start pygame for a command that prints a page).
    spec = importlib.util.find_spec("pygame_gui")
    folders = list(spec.submodule_search_locations or []) if spec else []
    path = Path(folders[0] if folders else ".") / "data" / name
    if not path.is_file():
        raise InputError("pygame_gui", f"the font {name} that the printed pages use is missing; reinstall pygame-gui")
    return str(path)


def hex_colour(text: str) -> Colour:
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


def luminance(c: Sequence[int]) -> float:
    def lin(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in c[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_on(fill: Sequence[int]) -> Colour:
    """Black or white ink, whichever reads better on ``fill`` (WCAG contrast)."""
    lum = luminance(fill)
    return (255, 255, 255) if (1.05 / (lum + 0.05)) > ((lum + 0.05) / 0.05) else INK


def tint(colour: Sequence[int], amount: float) -> Colour:
    """``colour`` mixed with white paper: ``amount`` 0 is paper, 1 the colour."""
    r, g, b = colour[:3]
    return (int(255 + (r - 255) * amount), int(255 + (g - 255) * amount), int(255 + (b - 255) * amount))


class Page(FPDF):
    """An A4 portrait document with the Noto fonts, a running footer and helpers for headings and text (mm)."""

    def __init__(self, title: str, footer: str = FOOTER, landscape: bool = False) -> None:
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.footer_text = footer
        self.add_font(FONT, "", _font_file("NotoSans-Regular.ttf"))
        self.add_font(FONT, "B", _font_file("NotoSans-Bold.ttf"))
        self.set_title(title)
        self.set_creator("seven-seconds")
        self.set_margins(15, 15, 15)
        self.set_auto_page_break(True, margin=18)
        self.add_page()
        self.set_font(FONT, "", 10)
        self.set_text_color(*INK)

    @property
    def inner_width(self) -> float:
        return float(self.w - self.l_margin - self.r_margin)

    def footer(self) -> None:
        self.set_y(-13)
        self.set_font(FONT, "", 7.5)
        self.set_text_color(*SOFT_INK)
        self.cell(0, 5, f"{self.footer_text}  \u00b7  page {self.page_no()}/{{nb}}", align="C")
        self.set_text_color(*INK)

    def heading(self, title: str, note: str = "", accent: Colour = INK, size: float = 14) -> None:
        """A section title with a small note at its right (the page or ruling it follows) and a rule under it."""
        if self.get_y() > self.h - 45:
            self.add_page()
        self.ln(2)
        y = self.get_y()
        self.set_font(FONT, "B", size)
        self.set_text_color(*accent)
        self.cell(0, size * 0.5, title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        if note:
            title_w = self.get_string_width(title)
            self.set_font(FONT, "", 7.5)
            self.set_text_color(*SOFT_INK)
            if title_w + self.get_string_width(note) + 6 < self.inner_width:
                self.set_xy(self.l_margin, y + size * 0.5 - 4)      # beside the title, at its right
                self.cell(0, 4, note, align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            else:
                self.cell(0, 4, note, new_x=XPos.LMARGIN, new_y=YPos.NEXT)     # too long: under it
        self.set_draw_color(*accent)
        self.set_line_width(0.6)
        line_y = self.get_y() + 0.8
        self.line(self.l_margin, line_y, self.w - self.r_margin, line_y)
        self.set_y(line_y + 2.5)
        self.set_text_color(*INK)
        self.set_font(FONT, "", 10)

    def text_block(self, text: str, size: float = 10, colour: Colour = INK, bold: bool = False,
                   indent: float = 0.0, line: float | None = None) -> None:
        """A paragraph wrapped to the page's width (less ``indent``)."""
        self.set_font(FONT, "B" if bold else "", size)
        self.set_text_color(*colour)
        self.set_x(self.l_margin + indent)
        self.multi_cell(self.inner_width - indent, line or size * 0.48, text, align="L", new_x=XPos.LMARGIN,
                        new_y=YPos.NEXT)
        self.set_text_color(*INK)
        self.set_font(FONT, "", 10)

    def need(self, height: float) -> None:
        """Start a new page unless ``height`` mm are left above the footer."""
        if self.get_y() + height > self.h - self.b_margin:
            self.add_page()


def write_pdf(pdf: FPDF, path: Path | str) -> Path:
    """Write ``pdf`` to ``path`` atomically, with the permissions of a file meant to be shared."""
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        raise InputError(str(path), "expected a file name ending in .pdf")
    if path.is_dir():
        raise InputError(str(path), "is a folder, expected a .pdf file name")
    data = bytes(pdf.output())
    try:
        atomic_write_bytes(path, data)
    except OSError as e:
        raise InputError(str(path), f"cannot be written ({e.strerror or e})") from None
    return path


def disc(pdf: FPDF, cx: float, cy: float, r: float, style: str = "F") -> None:
    """A circle by its centre (fpdf2's own ``circle`` changed its anchor between releases; an ellipse has not)."""
    pdf.ellipse(cx - r, cy - r, 2 * r, 2 * r, style=style)
