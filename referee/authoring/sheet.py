"""The printable faction sheet: an A4 page (1240x1754 px, 150 dpi) drawn with pygame, headless.

``render_sheet(faction) -> pygame.Surface`` only reads the faction; ``save_sheet(faction, path)`` writes the PNG
atomically. The page shows the name, lore and emblem in the faction's colours, the three rating lines (current, with
upgrades marked), each unit type's stats at each rating (faction line + type modifiers, ruling A5), and a key to the
unit types.
"""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # drawing needs no window, so no video driver is chosen:
                                                           # importing this from the open window changes nothing
import pygame  # noqa: E402

from .unit_key import unit_key_entries  # noqa: E402
from ..rules.catalogue import unit_types  # noqa: E402
from ..rules.errors import InputError  # noqa: E402
from ..rules.factions import Faction  # noqa: E402
from ..rules.stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT  # noqa: E402
from ..storage import shared_mode  # noqa: E402
from ..rules.units import unit_stats

SHEET_SIZE = (1240, 1754)          # A4 at 150 dpi
MARGIN = 80
FOOTER = "7 Seconds playtest v0.81 \u00b7 unit modifiers per ruling A5"

PAPER = (255, 255, 255)
INK = (28, 28, 30)
SOFT_INK = (92, 92, 98)
RULE = (200, 200, 206)
HEADER_FILL = (236, 237, 240)
STRIPE = (247, 247, 249)
STAT_TITLES = {"sensors": "Sensors", "stealth": "Stealth", "armour": "Armour",
               "countermeasures": "Counterm.", "nuclear": "Nuclear", "robotics": "Robotics"}
TROOPER_STATS = STAT_NAMES[:5]


# ----------------------------------------------------------------------------------------------------------------
# Colour helpers


def hex_colour(text: str) -> tuple[int, int, int]:
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


def _luminance(c) -> float:
    def lin(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in c[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(fill) -> tuple[int, int, int]:
    """Near-black or white, whichever reads better on ``fill``."""
    return INK if contrast(INK, fill) >= contrast(PAPER, fill) else PAPER


def ink_version(colour, on=PAPER, minimum: float = 4.5):
    """``colour`` darkened until it reads on white paper (for headings and rules in the faction's colour)."""
    c = tuple(colour)
    for _ in range(40):
        if contrast(c, on) >= minimum:
            return c
        c = tuple(int(v * 0.9) for v in c)
    return INK


def tint(colour, amount: float):
    """``colour`` mixed with white: 0 is white, 1 is the colour."""
    return tuple(int(255 + (v - 255) * amount) for v in colour)


# ----------------------------------------------------------------------------------------------------------------
# Emblems: simple vector shapes in a unit box (-1..1), drawn large and smoothed for print


def _star(points=5, outer=0.95, inner=0.4):
    out = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / points
        out.append((r * math.cos(a), r * math.sin(a) + 0.06))
    return out


EMBLEM_SHAPES = {
    "chevron": [[(-0.85, -0.1), (0.0, -0.75), (0.85, -0.1), (0.85, 0.3), (0.0, -0.35), (-0.85, 0.3)],
                [(-0.85, 0.42), (0.0, -0.23), (0.85, 0.42), (0.85, 0.8), (0.0, 0.15), (-0.85, 0.8)]],
    "star": [_star()],
    "diamond": [[(0.0, -0.95), (0.7, 0.0), (0.0, 0.95), (-0.7, 0.0)]],
    "cross": [[(-0.25, -0.85), (0.25, -0.85), (0.25, -0.25), (0.85, -0.25), (0.85, 0.25), (0.25, 0.25),
               (0.25, 0.85), (-0.25, 0.85), (-0.25, 0.25), (-0.85, 0.25), (-0.85, -0.25), (-0.25, -0.25)]],
    "bolt": [[(0.15, -0.95), (-0.6, 0.12), (-0.05, 0.12), (-0.25, 0.95), (0.6, -0.18), (0.05, -0.18), (0.3, -0.95)]],
}


def draw_emblem(surface: pygame.Surface, emblem: str, centre: tuple[int, int], radius: int, primary, secondary) -> None:
    """The faction's emblem on a round badge: the shape in the primary colour on the secondary, outlined."""
    scale = 4
    size = radius * 2 * scale
    big = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size // 2
    outline = INK if contrast(INK, secondary) >= 3 else (70, 70, 76)
    pygame.draw.circle(big, outline, (c, c), c)
    pygame.draw.circle(big, secondary, (c, c), c - 5 * scale)
    pygame.draw.circle(big, primary, (c, c), c - 11 * scale, 3 * scale)
    inner = (c - 22 * scale) * 0.82

    def pts(shape):
        return [(c + x * inner, c + y * inner) for x, y in shape]

    edge = outline
    if emblem == "circle":
        pygame.draw.circle(big, edge, (c, c), int(inner * 0.8) + 3 * scale)
        pygame.draw.circle(big, primary, (c, c), int(inner * 0.8))
        pygame.draw.circle(big, edge, (c, c), int(inner * 0.42) + 3 * scale)
        pygame.draw.circle(big, secondary, (c, c), int(inner * 0.42))
    else:
        for shape in EMBLEM_SHAPES.get(emblem, EMBLEM_SHAPES["chevron"]):
            p = pts(shape)
            pygame.draw.polygon(big, primary, p)
            pygame.draw.polygon(big, edge, p, 3 * scale)
    small = pygame.transform.smoothscale(big, (radius * 2, radius * 2))
    surface.blit(small, (centre[0] - radius, centre[1] - radius))


# ----------------------------------------------------------------------------------------------------------------
# Text helpers


class _Fonts:
    def __init__(self) -> None:
        self._cache: dict[int, pygame.font.Font] = {}

    def __call__(self, size: int) -> pygame.font.Font:
        if size not in self._cache:
            self._cache[size] = pygame.font.Font(None, size)
        return self._cache[size]


def _text(surface, font, text, colour, pos, anchor="topleft") -> pygame.Rect:
    image = font.render(text, True, colour)
    rect = image.get_rect(**{anchor: pos})
    surface.blit(image, rect)
    return rect


def wrap(font: pygame.font.Font, text: str, width: int) -> list[str]:
    out, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if font.size(trial)[0] <= width or not line:
            line = trial
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out


def _fit(font_for, text: str, width: int, size: int, smallest: int = 40) -> pygame.font.Font:
    while size > smallest and font_for(size).size(text)[0] > width:
        size -= 4
    return font_for(size)


# ----------------------------------------------------------------------------------------------------------------
# The page


def render_sheet(faction: Faction) -> pygame.Surface:
    """The faction sheet as a surface of ``SHEET_SIZE``; reads the faction, changes nothing."""

    if not pygame.font.get_init():
        pygame.font.init()
    fonts = _Fonts()
    w, h = SHEET_SIZE
    page = pygame.Surface(SHEET_SIZE)
    page.fill(PAPER)
    primary = hex_colour(faction.colours.primary)
    secondary = hex_colour(faction.colours.secondary)
    accent = ink_version(primary)
    left, right = MARGIN, w - MARGIN
    width = right - left

    # Header band: emblem badge, name, subtitle
    band_h = 270
    page.fill(primary, (0, 0, w, band_h))
    page.fill(accent, (0, band_h, w, 8))
    on_band = text_on(primary)
    radius = 100
    draw_emblem(page, faction.emblem, (left + radius, band_h // 2), radius, primary, secondary)
    name_x = left + 2 * radius + 44
    name_font = _fit(fonts, faction.name, right - name_x, 104)
    _text(page, name_font, faction.name, on_band, (name_x, band_h // 2 + 4), "bottomleft")
    sub = f"Faction sheet  \u00b7  emblem: {faction.emblem}  \u00b7  id: {faction.id}"
    _text(page, fonts(36), sub, on_band, (name_x, band_h // 2 + 22), "topleft")

    # The tables and the key are drawn first on their own layer, so the lore gets exactly the room left over.
    footer_top = h - 100
    body = pygame.Surface((w, h), pygame.SRCALPHA)
    by = _heading(body, fonts, "Faction stats", "current values; each rating builds on the one before [p.30]",
                  accent, left, right, 0)
    by = _rating_table(body, fonts, faction, primary, left, width, by)
    by += 30
    by = _heading(body, fonts, "Unit stats by rating", "faction line + unit type modifiers (shaded) [A5]",
                  accent, left, right, by)
    by = _unit_table(body, fonts, faction, unit_stats, primary, left, width, by)
    by += 30
    by = _heading(body, fonts, "Unit types", "weapons and abilities [p.33, p.34]", accent, left, right, by)
    by = _unit_key(body, fonts, left, width, by)

    y = band_h + 40
    if faction.lore:
        lore_font, line_h = fonts(36), 38
        room = max(1, (footer_top - by - 24 - y - 20) // line_h)
        lore_lines = wrap(lore_font, faction.lore, width)
        if len(lore_lines) > room:
            lore_lines = lore_lines[:room]
            lore_lines[-1] = lore_lines[-1].rstrip(".,;: ") + "\u2026"
        for line in lore_lines:
            _text(page, lore_font, line, INK, (left, y))
            y += line_h
        y += 20
    page.blit(body, (0, y), (0, 0, w, max(0, footer_top - 10 - y)))

    # Footer
    page.fill(accent, (left, h - 84, width, 3))
    _text(page, fonts(30), FOOTER, SOFT_INK, (w // 2, h - 50), "center")
    return page


def _heading(page, fonts, title, note, accent, left, right, y) -> int:
    r = _text(page, fonts(50), title, accent, (left, y))
    _text(page, fonts(28), note, SOFT_INK, (right, r.bottom - 4), "bottomright")
    page.fill(accent, (left, r.bottom + 6, right - left, 3))
    return r.bottom + 22


def _rating_table(page, fonts, faction, primary, left, width, y) -> int:
    label_w = 230
    cols = len(STAT_NAMES) + 1
    col_w = (width - label_w) // cols
    head_h, row_h = 74, 62
    page.fill(HEADER_FILL, (left, y, width, head_h))
    for i, s in enumerate(STAT_NAMES):
        cx = left + label_w + i * col_w + col_w // 2
        _text(page, fonts(42), STAT_SHORT[s], INK, (cx, y + 28), "center")
        _text(page, fonts(24), STAT_TITLES[s], SOFT_INK, (cx, y + 56), "center")
    cx = left + label_w + (cols - 1) * col_w + col_w // 2
    _text(page, fonts(42), "Sum", INK, (cx, y + 28), "center")
    _text(page, fonts(24), "points", SOFT_INK, (cx, y + 56), "center")
    y += head_h
    raised_fill = tint(ink_version(primary), 0.25)
    for n, rating in enumerate(RATINGS):
        if n % 2:
            page.fill(STRIPE, (left, y, width, row_h))
        line, created = faction.stats(rating), faction.created.line(rating)
        _text(page, fonts(44), RATING_TITLES[rating], INK, (left + 16, y + row_h // 2), "midleft")
        for i, s in enumerate(STAT_NAMES):
            x = left + label_w + i * col_w
            raised = line.get(s) != created.get(s)
            if raised:
                page.fill(raised_fill, (x + 6, y + 6, col_w - 12, row_h - 12))
            label = f"{line.get(s)}" + ("*" if raised else "")
            _text(page, fonts(52), label, INK, (x + col_w // 2, y + row_h // 2 + 2), "center")
        x = left + label_w + (cols - 1) * col_w
        _text(page, fonts(44), str(line.total()), SOFT_INK, (x + col_w // 2, y + row_h // 2 + 2), "center")
        y += row_h
    page.fill(RULE, (left, y, width, 2))
    y += 12
    if faction.upgrades:
        parts = [f"{RATING_TITLES[u.rating]} {STAT_SHORT[u.stat]} +1 ({u.cost} pt{'' if u.cost == 1 else 's'}"
                 + (f", battle {u.battle})" if u.battle else ")") for u in faction.upgrades]
        note_font = fonts(28)
        note = wrap(note_font, "* raised by campaign upgrades [p.31, A45]: " + "; ".join(parts), width)
        if len(note) > 3:
            note = note[:3]
            note[-1] = note[-1].rstrip(";, ") + " \u2026 (all of them: seven-seconds faction show)"
        for line in note:
            _text(page, note_font, line, SOFT_INK, (left, y))
            y += 28
    else:
        _text(page, fonts(28), "As created: Reserve adds 6 points to all 1s, Veteran 6 more, Spec Ops 6 more "
                               "(sums 12 / 18 / 24) [p.30, A46].", SOFT_INK, (left, y))
        y += 28
    return y


def _unit_table(page, fonts, faction, unit_stats, primary, left, width, y) -> int:
    types = unit_types()
    label_w = 220
    gap = 18
    group_w = (width - label_w - 2 * gap) // 3
    col_w = group_w / len(TROOPER_STATS)
    group_x = [left + label_w + g * (group_w + gap) for g in range(3)]
    mod_fill = tint(ink_version(primary), 0.25)
    # Rating header and stat names
    for g, rating in enumerate(RATINGS):
        page.fill(HEADER_FILL, (group_x[g], y, group_w, 44))
        _text(page, fonts(38), RATING_TITLES[rating], INK, (group_x[g] + group_w // 2, y + 23), "center")
    y += 48
    for g in range(3):
        for i, s in enumerate(TROOPER_STATS):
            _text(page, fonts(30), STAT_SHORT[s], SOFT_INK, (group_x[g] + col_w * i + col_w / 2, y + 14), "center")
    _text(page, fonts(30), "Unit", SOFT_INK, (left + 12, y + 14), "midleft")
    y += 32
    row_h = 54
    rows = list(types.troopers.items())
    for n, (key, trooper) in enumerate(rows):
        if n % 2 == 0:
            page.fill(STRIPE, (left, y, width, row_h))
        _text(page, fonts(42), trooper.name, INK, (left + 12, y + row_h // 2 + 2), "midleft")
        for g, rating in enumerate(RATINGS):
            st = unit_stats(faction, rating, key).stats
            for i, s in enumerate(TROOPER_STATS):
                cx = group_x[g] + col_w * i + col_w / 2
                if s == "nuclear" and not trooper.missile:
                    _text(page, fonts(42), "\u2013", SOFT_INK, (cx, y + row_h // 2 + 2), "center")
                    continue
                if s in trooper.modifiers:
                    page.fill(mod_fill, (cx - col_w / 2 + 5, y + 5, col_w - 10, row_h - 10))
                _text(page, fonts(46), str(st.get(s)), INK, (cx, y + row_h // 2 + 2), "center")
        y += row_h
    # Drones: Robotics only
    first_drone = next(iter(types.drones))
    page.fill(HEADER_FILL, (left, y, width, row_h))
    _text(page, fonts(42), "Drones", INK, (left + 12, y + row_h // 2 + 2), "midleft")
    for g, rating in enumerate(RATINGS):
        rob = unit_stats(faction, rating, first_drone).stats.robotics
        cx = group_x[g] + group_w / 2
        _text(page, fonts(42), f"Rob {rob}", INK, (cx, y + row_h // 2 + 2), "center")
    y += row_h
    page.fill(RULE, (left, y, width, 2))
    return y + 10


def _unit_key(page, fonts, left, width, y) -> int:
    name_font, body_font = fonts(34), fonts(30)
    name_w = 200
    entries = unit_key_entries()
    for name, text in entries:
        body = wrap(body_font, text, width - name_w)
        _text(page, name_font, name, INK, (left, y))
        for line in body:
            _text(page, body_font, line, SOFT_INK, (left + name_w, y + 3))
            y += 32
        y += 6
    return y


def save_sheet(faction: Faction, path: Path | str) -> Path:
    """Render the sheet and write it as a PNG (temporary file in the same folder, then renamed over ``path``)."""
    path = Path(path)
    if path.suffix.lower() != ".png":
        raise InputError(str(path), "expected a file name ending in .png")
    if path.is_dir():
        raise InputError(str(path), "is a folder, expected a .png file name")
    surface = render_sheet(faction)
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".png", dir=folder)
        os.close(fd)
    except OSError as e:
        raise InputError(str(path), f"cannot write in {folder} ({e.strerror})") from None
    temp = Path(temp_name)
    try:
        pygame.image.save(surface, str(temp))
        with open(temp, "rb+") as f:
            os.fchmod(f.fileno(), shared_mode())       # a sheet is meant to be shared; mkstemp made it 0600
            os.fsync(f.fileno())
        os.replace(temp, path)
    except (OSError, pygame.error) as e:
        raise InputError(str(path), f"cannot be written ({e})") from None
    finally:
        if temp.exists():
            temp.unlink()
    return path


__all__ = ["SHEET_SIZE", "render_sheet", "save_sheet", "draw_emblem"]
