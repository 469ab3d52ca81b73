"""Small drawing helpers shared by the scenes: cached text, wrapping, dashed lines, display lists, tooltips."""

from __future__ import annotations

import math
from collections import OrderedDict
from functools import lru_cache
from typing import NamedTuple

import pygame

from . import theme
from .gui_managers import gui_manager  # noqa: F401 (the scenes' import)
from .theme import Colour


# ---- text ---------------------------------------------------------------------------------------------------------


TEXT_CACHE_BYTES = 8 * 2**20


class TextCache:
    """Rendered lines of text, bounded by the bytes of their pixels rather than by their number: a long battle's
    log renders thousands of wide lines, and 4,096 of them held about 150 MB. The least recently drawn go first."""

    def __init__(self, budget: int = TEXT_CACHE_BYTES) -> None:
        self.budget = budget
        self.bytes = 0
        self._items: OrderedDict[tuple, pygame.Surface] = OrderedDict()

    def __call__(self, text: str, size: int, bold: bool = False,
                 colour: Colour | tuple[int, ...] = theme.TEXT) -> pygame.Surface:
        key = (text, size, bold, colour)
        img = self._items.get(key)
        if img is not None:
            self._items.move_to_end(key)
            return img
        img = theme.font(size, bold).render(text, True, colour)
        self._items[key] = img
        self.bytes += _pixel_bytes(img)
        while self.bytes > self.budget and len(self._items) > 1:
            _, old = self._items.popitem(last=False)
            self.bytes -= _pixel_bytes(old)
        return img

    def __len__(self) -> int:
        return len(self._items)

    def cache_clear(self) -> None:
        self._items.clear()
        self.bytes = 0


def _pixel_bytes(img: pygame.Surface) -> int:
    return img.get_pitch() * img.get_height()


text_surface = TextCache()


BUTTON_FONT = 15             # the theme's button font, bold
BUTTON_MARGIN = 10           # a button's border and a few pixels either side of its text


BUTTON_BORDER = 4            # a button's border either side and a pixel of air: the least room a label needs


def fits_button(labels, width: int, margin: int = BUTTON_MARGIN) -> bool:
    """Every label shows whole on a button ``width`` pixels wide, with ``margin`` pixels to spare."""
    return all(text_width(t, BUTTON_FONT, True) + margin <= width for t in labels)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Measuring shapes the whole line: the panels ask for the same few widths every frame."""
    return theme.font(size, bold).size(text)[0]


def line_height(size: int, bold: bool = False) -> int:
    return theme.font(size, bold).get_linesize()


def draw_text(surface: pygame.Surface, text: str, pos: tuple[float, float], size: int = 14, bold: bool = False,
              colour: Colour = theme.TEXT, anchor: str = "topleft") -> pygame.Rect:
    img = text_surface(text, size, bold, (colour[0], colour[1], colour[2]))
    rect = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    surface.blit(img, rect)
    return rect


@lru_cache(maxsize=2048)
def wrap(text: str, width: int, size: int, bold: bool = False, indent: int = 0) -> tuple[str, ...]:
    """Break ``text`` into lines no wider than ``width`` pixels; continuation lines get ``indent`` spaces."""
    f = theme.font(size, bold)
    if width <= 0 or f.size(text)[0] <= width:
        return (text,)
    lead = len(text) - len(text.lstrip(" "))
    pad = " " * (lead + indent)
    words = []
    for word in text.strip(" ").split(" "):
        words.extend(_split_long(word, width - f.size(pad)[0], f))
    lines: list[str] = []
    current = " " * lead
    for word in words:
        trial = (current + " " + word) if current.strip() else current + word
        if f.size(trial)[0] <= width or not current.strip():
            current = trial
        else:
            lines.append(current)
            current = pad + word
    lines.append(current)
    return tuple(lines)


def _split_long(word: str, width: int, f: pygame.font.Font) -> list[str]:
    """A word wider than the line (a sealed document, a long id) broken into pieces that fit, not drawn off the edge."""
    if width <= 0 or f.size(word)[0] <= width:
        return [word]
    pieces: list[str] = []
    piece = ""
    for ch in word:
        if piece and f.size(piece + ch)[0] > width:
            pieces.append(piece)
            piece = ch
        else:
            piece += ch
    return pieces + [piece] if piece else pieces


@lru_cache(maxsize=1024)
def ellipsize(text: str, width: int, size: int, bold: bool = False) -> str:
    f = theme.font(size, bold)
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"


def ellipsize_middle(text: str, width: int, size: int, bold: bool = False) -> str:
    """``text`` cut in the middle to fit ``width``, so its end stays: "a-kamik…drone-2" still tells the two drones
    apart where "a-kamikaze-…" does not."""
    f = theme.font(size, bold)
    if f.size(text)[0] <= width:
        return text
    head, tail = len(text) // 2, len(text) - len(text) // 2
    while head + tail > 1 and f.size(text[:head] + "…" + text[len(text) - tail:])[0] > width:
        if head >= tail:
            head -= 1
        else:
            tail -= 1
    return text[:head] + "…" + text[len(text) - tail:]


# ---- shapes -------------------------------------------------------------------------------------------------------


def dashed_line(surface, colour, start, end, width: int = 1, dash: float = 8.0, gap: float = 6.0) -> None:
    x0, y0 = start
    x1, y1 = end
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1e-6:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    t = 0.0
    while t < length:
        t2 = min(length, t + dash)
        pygame.draw.line(surface, colour, (x0 + ux * t, y0 + uy * t), (x0 + ux * t2, y0 + uy * t2), width)
        t = t2 + gap


def dashed_circle(surface, colour, centre, radius: float, width: int = 1, dash: float = 10.0, gap: float = 7.0) -> None:
    if radius < 2:
        return
    circumference = 2 * math.pi * radius
    n = max(8, int(circumference / (dash + gap)))
    step = 2 * math.pi / n
    on = step * dash / (dash + gap)
    cx, cy = centre
    rect = pygame.Rect(0, 0, 2 * radius, 2 * radius)
    rect.center = (round(cx), round(cy))
    for i in range(n):
        a = i * step
        pygame.draw.arc(surface, colour, rect, a, a + on, width)


def draw_pattern(surface, rect: pygame.Rect, kind: str, colour, origin: tuple[int, int] = (0, 0)) -> None:
    """A second cue inside ``rect`` besides a fill colour: "hatch" (diagonals: blocks sight, illegal), "waves"
    (short level strokes: swamp) or "reeds" (upright tufts: marsh). ``origin`` aligns the pattern to the table, so
    two pieces of one terrain match."""
    ox, oy = origin
    if kind == "hatch":
        for k in range(-rect.h, rect.w, 6):
            pygame.draw.line(surface, colour, (rect.x + k, rect.bottom), (rect.x + k + rect.h, rect.y), 2)
        return
    step_x, step_y = (10, 7) if kind == "waves" else (9, 9)
    row = -((rect.y + oy) % step_y)
    n = 0
    while rect.y + row < rect.bottom:
        shift = (step_x // 2) * (((rect.y + oy + row) // step_y) % 2)
        col = -((rect.x + ox + shift) % step_x)
        while rect.x + col < rect.right:
            x, y = rect.x + col, rect.y + row
            if kind == "waves":
                pygame.draw.line(surface, colour, (x, y + 3), (x + 3, y + 1), 2)
                pygame.draw.line(surface, colour, (x + 3, y + 1), (x + 6, y + 3), 2)
            else:
                pygame.draw.line(surface, colour, (x + 3, y + 1), (x + 3, y + 7), 1)
                pygame.draw.line(surface, colour, (x + 1, y + 3), (x + 3, y + 7), 1)
                pygame.draw.line(surface, colour, (x + 5, y + 3), (x + 3, y + 7), 1)
            col += step_x
            n += 1
        row += step_y


def sight_glyph(surface, centre, r: float, sight: str, colour, halo=None) -> None:
    """The shape that goes with a sight colour: a full disc clear, a half disc cover, a cross blocked."""
    cx, cy = round(centre[0]), round(centre[1])
    r = max(3, round(r))
    if sight == "blocked":
        for w, c in ((5, halo), (3, colour)):
            if c is not None:
                pygame.draw.line(surface, c, (cx - r, cy - r), (cx + r, cy + r), w)
                pygame.draw.line(surface, c, (cx - r, cy + r), (cx + r, cy - r), w)
        return
    if halo is not None:
        pygame.draw.circle(surface, halo, (cx, cy), r + 1)
    if sight == "clear":
        pygame.draw.circle(surface, colour, (cx, cy), r)
    else:
        pygame.draw.circle(surface, colour, (cx, cy), r, 2)
        pygame.draw.circle(surface, colour, (cx, cy), r, draw_top_left=True, draw_bottom_left=True)


def circle_visible(centre, radius: float, clip: pygame.Rect) -> bool:
    """Does a circle outline of this size show inside ``clip`` at all (skip huge off-screen rings)?"""
    cx, cy = centre
    nearest_x = min(max(cx, clip.left), clip.right)
    nearest_y = min(max(cy, clip.top), clip.bottom)
    if math.hypot(nearest_x - cx, nearest_y - cy) > radius:
        return False
    corners = [(clip.left, clip.top), (clip.right, clip.top), (clip.left, clip.bottom), (clip.right, clip.bottom)]
    return max(math.hypot(x - cx, y - cy) for x, y in corners) >= radius


_SHADE: list = []          # the last shade made: (size, colour, its surface)


def shade(surface: pygame.Surface, colour: tuple[int, int, int, int]) -> None:
    """Darken the whole of ``surface`` under a modal screen. The translucent layer is made once per window size and
    colour, not every frame: a full-window picture made and dropped 60 times a second fragments the heap."""
    size = surface.get_size()
    if not _SHADE or _SHADE[0][:2] != (size, colour):
        layer = pygame.Surface(size, pygame.SRCALPHA)
        layer.fill(colour)
        _SHADE[:] = [(size, colour, layer)]
    surface.blit(_SHADE[0][2], (0, 0))


def panel(surface, rect, colour=theme.PANEL, border=theme.PANEL_EDGE, radius: int = 0) -> None:
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if border is not None:
        pygame.draw.rect(surface, border, rect, 1, border_radius=radius)


# ---- display lists: laid out once when the content changes, drawn every frame, hit-tested by key ----------------
# Their items are named tuples rather than frozen dataclasses: as plain values, and each class costs the window's
# start a tenth of what a dataclass's generated methods cost it (about 1 ms a class on a busy machine).


class Text(NamedTuple):
    x: float
    y: float
    text: str
    size: int = 14
    bold: bool = False
    colour: Colour = theme.TEXT


class Box(NamedTuple):
    x: float
    y: float
    w: float
    h: float
    colour: Colour
    border: Colour | None = None
    radius: int = 0
    hatch: Colour | None = None
    pattern: str | None = None          # "waves" or "reeds" over the fill (``draw_pattern``), in ``border``'s colour


class Dot(NamedTuple):
    x: float
    y: float
    r: float
    colour: Colour
    border: Colour | None = None


class Mark(NamedTuple):
    """A sight glyph (``sight_glyph``): the shape that goes with the colour in a list."""
    x: float
    y: float
    r: float
    sight: str
    colour: Colour
    halo: Colour | None = None


class Block(NamedTuple):
    """A stretch of a panel: ``key`` names what a click on it means (None: nothing)."""

    key: str | None
    y: int
    h: int
    items: tuple = ()
    background: Colour | None = None


def draw_items(surface, items, ox: float, oy: float) -> None:
    for it in items:
        if isinstance(it, Text):
            draw_text(surface, it.text, (ox + it.x, oy + it.y), it.size, it.bold, it.colour)
        elif isinstance(it, Box):
            r = pygame.Rect(round(ox + it.x), round(oy + it.y), round(it.w), round(it.h))
            pygame.draw.rect(surface, it.colour, r, border_radius=it.radius)
            if it.hatch is not None:
                old = surface.get_clip()
                surface.set_clip(r.clip(old) if old else r)
                draw_pattern(surface, r, "hatch", it.hatch)
                surface.set_clip(old)
            if it.pattern is not None:
                old = surface.get_clip()
                surface.set_clip(r.clip(old) if old else r)
                draw_pattern(surface, r, it.pattern, it.border or theme.TEXT)
                surface.set_clip(old)
            if it.border is not None:
                pygame.draw.rect(surface, it.border, r, 1, border_radius=it.radius)
        elif isinstance(it, Mark):
            sight_glyph(surface, (ox + it.x, oy + it.y), it.r, it.sight, it.colour, it.halo)
        elif isinstance(it, Dot):
            c = (round(ox + it.x), round(oy + it.y))
            pygame.draw.circle(surface, it.colour, c, it.r)
            if it.border is not None:
                pygame.draw.circle(surface, it.border, c, it.r, 1)


def draw_blocks(surface, blocks, rect: pygame.Rect, scroll: int, highlight: str | None = None) -> None:
    """Draw the blocks that show in ``rect`` with the content scrolled up by ``scroll`` pixels."""
    old = surface.get_clip()
    surface.set_clip(rect.clip(old) if old else rect)
    for b in blocks:
        top = rect.y + b.y - scroll
        if top > rect.bottom or top + b.h < rect.y:
            continue
        bg = b.background
        if highlight is not None and b.key == highlight:
            bg = theme.HEADER
        if bg is not None:
            pygame.draw.rect(surface, bg, (rect.x, top, rect.w, b.h))
        draw_items(surface, b.items, rect.x, top)
    surface.set_clip(old)


def block_at(blocks, y_in_content: float):
    for b in blocks:
        if b.y <= y_in_content < b.y + b.h:
            return b
    return None


def content_height(blocks) -> int:
    return max((b.y + b.h for b in blocks), default=0)


# ---- tooltips -----------------------------------------------------------------------------------------------------


def draw_tooltip(surface, lines, pos, size: int = 14, max_width: int = 420, bounds: pygame.Rect | None = None) -> None:
    """A box of lines near ``pos``, kept inside ``bounds`` (default the window). Each line is a str or
    (str, colour, bold). The box is one picture, made again only when its lines change (a tooltip follows the mouse
    for many frames)."""
    if not lines:
        return
    key = tuple(ln if isinstance(ln, str) else (str(ln[0]), tuple(ln[1]), bool(ln[2])) for ln in lines)
    picture = _tooltip_picture(key, size, max_width)
    w, h = picture.get_width() - SHADOW, picture.get_height() - SHADOW
    bounds = bounds or surface.get_rect()
    x, y = pos[0] + 18, pos[1] + 18
    if x + w > bounds.right - 4:
        x = pos[0] - w - 12
    if y + h > bounds.bottom - 4:
        y = pos[1] - h - 12
    x, y = max(bounds.x + 4, x), max(bounds.y + 4, y)
    surface.blit(picture, (x, y))


SHADOW = 3          # a tooltip's shadow, down and right of its box


@lru_cache(maxsize=8)
def _tooltip_picture(lines: tuple, size: int, max_width: int) -> pygame.Surface:
    """The tooltip's box, its shadow and its text, on a transparent picture."""
    norm = []
    for ln in lines:
        if isinstance(ln, str):
            ln = (ln, theme.TEXT, False)
        text, colour, bold = ln
        for part in wrap(text, max_width, size, bold, 2):
            norm.append((part, colour, bold))
    pad = 8
    lh = line_height(size)
    w = max(text_width(t, size, b) for t, _, b in norm) + 2 * pad
    h = lh * len(norm) + 2 * pad
    picture = pygame.Surface((w + SHADOW, h + SHADOW), pygame.SRCALPHA)
    picture.fill((0, 0, 0, 90), pygame.Rect(SHADOW, SHADOW, w, h))
    panel(picture, pygame.Rect(0, 0, w, h), (24, 27, 32), theme.PANEL_EDGE, 4)
    for i, (t, colour, bold) in enumerate(norm):
        draw_text(picture, t, (pad, pad + i * lh), size, bold, colour)
    return picture
