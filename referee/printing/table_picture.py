"""The table as a vector picture on a printed page: terrain, objectives, units and blips from a view.

It draws what the view it is given holds (the end-of-battle view for the report), with side A's edge at the bottom
as in the window. Sides differ in shape as well as colour (A circles, B squares), so the picture reads in grey too.
"""

from __future__ import annotations

from fpdf.enums import XPos, YPos

from ..game.views.view_types import PlayerView
from ..rules.catalogue import terrain_types
from .document import FONT, INK, SIDE_INK, SOFT_INK, Colour, Page, disc, hex_colour, tint

GREEK = {"alpha": "\u03b1", "beta": "\u03b2", "gamma": "\u03b3", "delta": "\u03b4", "epsilon": "\u03b5"}
CLOTH: Colour = (226, 222, 200)
DESTROYED: Colour = (90, 90, 96)


def draw_table(pdf: Page, view: PlayerView, x: float, y: float, size: float) -> float:
    """The table in a ``size`` mm box at (x, y), with its legend below; returns the y under the legend."""
    w, h = float(view["table"]["width"]), float(view["table"]["height"])
    scale = min(size / w, size / h)

    def at(px: float, py: float) -> tuple[float, float]:
        return x + px * scale, y + (h - py) * scale      # side A's edge (y = 0) at the bottom

    pdf.set_fill_color(*CLOTH)
    pdf.rect(x, y, w * scale, h * scale, style="F")
    types = terrain_types()
    seen: dict[str, Colour] = {}
    pdf.set_line_width(0.15)
    with pdf.rect_clip(x, y, w * scale, h * scale):
        for t in view.get("terrain", []):
            colour = hex_colour(types[t["type"]].colour) if t["type"] in types else (150, 150, 150)
            seen.setdefault(t["type"], colour)
            pdf.set_fill_color(*colour)
            pdf.set_draw_color(*(int(c * 0.7) for c in colour))
            if "polygon" in t:
                pdf.polygon([at(px, py) for px, py in t["polygon"]], style="DF")
            else:
                c = t["circle"]
                cx, cy = at(c["x"], c["y"])
                disc(pdf, cx, cy, c["r"] * scale, "DF")
        for o in view.get("objectives", []):
            ox, oy = at(o["x"], o["y"])
            r = 2.2
            pdf.set_draw_color(*INK)
            pdf.set_line_width(0.3)
            if o.get("destroyed"):
                pdf.line(ox - r, oy - r, ox + r, oy + r)
                pdf.line(ox - r, oy + r, ox + r, oy - r)
            else:
                holder = o.get("control")
                pdf.set_fill_color(*(SIDE_INK[holder] if holder in SIDE_INK else (255, 255, 255)))
                pdf.polygon([(ox, oy - r), (ox + r, oy), (ox, oy + r), (ox - r, oy)], style="DF")
            pdf.set_font(FONT, "B", 7)
            pdf.set_text_color(*INK)
            label = GREEK.get(o["id"], o["id"]) + (f" {o['control']}" if o.get("control") else "")
            pdf.text(ox + r + 0.6, oy + 1.0, label)
        for u in view.get("units", []):
            ux, uy = at(u["x"], u["y"])
            r = max(0.9, float(u.get("base", 1.0)) * scale / 2)
            pdf.set_fill_color(*SIDE_INK[u["side"]])
            pdf.set_draw_color(255, 255, 255)
            pdf.set_line_width(0.25)
            if u["side"] == "A":
                disc(pdf, ux, uy, r, "DF")
            else:
                pdf.rect(ux - r, uy - r, 2 * r, 2 * r, style="DF")
        for b in view.get("blips", []):
            bx, by = at(b["x"], b["y"])
            pdf.set_fill_color(*tint(SIDE_INK[b["side"]], 0.4))
            pdf.set_draw_color(*SIDE_INK[b["side"]])
            pdf.set_line_width(0.2)
            if b["side"] == "A":
                disc(pdf, bx, by, 0.8, "DF")
            else:
                pdf.rect(bx - 0.8, by - 0.8, 1.6, 1.6, style="DF")
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.4)
    pdf.rect(x, y, w * scale, h * scale, style="D")
    pdf.set_font(FONT, "", 6.5)
    pdf.set_text_color(*SOFT_INK)
    pdf.text(x, y - 1.2, "side B's edge")
    pdf.text(x, y + h * scale + 3, f"side A's edge  \u00b7  {w:g}\u2033 \u00d7 {h:g}\u2033")

    # Legend: the sides by shape and colour, the objectives, then each terrain type drawn.
    ly = y + h * scale + 5.5
    lx = x
    items: list[tuple[str, str, Colour]] = [("disc", "side A unit", SIDE_INK["A"]),
                                            ("square", "side B unit", SIDE_INK["B"]),
                                            ("diamond", "objective (letter, holder)", (255, 255, 255)),
                                            ("cross", "objective destroyed", INK)]
    items += [("swatch", name.replace("-", " "), colour) for name, colour in seen.items()]
    pdf.set_line_width(0.2)
    for shape, name, colour in items:
        width = pdf.get_string_width(name) + 6
        if lx + width > x + size:
            lx, ly = x, ly + 4
        pdf.set_fill_color(*colour)
        pdf.set_draw_color(*INK)
        cx, cy = lx + 1.5, ly + 1.5
        if shape == "disc":
            disc(pdf, cx, cy, 1.2, "DF")
        elif shape == "square":
            pdf.rect(cx - 1.2, cy - 1.2, 2.4, 2.4, style="DF")
        elif shape == "diamond":
            pdf.polygon([(cx, cy - 1.4), (cx + 1.4, cy), (cx, cy + 1.4), (cx - 1.4, cy)], style="DF")
        elif shape == "cross":
            pdf.line(cx - 1.2, cy - 1.2, cx + 1.2, cy + 1.2)
            pdf.line(cx - 1.2, cy + 1.2, cx + 1.2, cy - 1.2)
        else:
            pdf.rect(cx - 1.4, cy - 1.1, 2.8, 2.2, style="DF")
        pdf.set_xy(lx + 3.5, ly)
        pdf.cell(width - 3.5, 3, name, new_x=XPos.RIGHT, new_y=YPos.TOP)
        lx += width + 1.5
    pdf.set_text_color(*INK)
    return ly + 5
