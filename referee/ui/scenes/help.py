"""The keyboard help overlay: a scene's keys, drawn from its key table (``ui/keys.py``), and what the marks on the
table mean. Any key or click closes it; when the help takes more than one page (a small window), the arrows, Page
Up / Page Down and the mouse wheel turn the pages instead.

The rows flow down columns, a group going on in the next column when it must (its title repeated), and each row's
text wraps beside its key: the largest letters and the fewest pages that fit the window are chosen."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from .. import keys, theme
from ..scene import Scene
from ..widgets import draw_text, line_height, panel, shade, text_width, wrap

HelpGroup = tuple[str, Sequence[tuple[str, str]]]
SIZES = (15, 14, 13, 12)        # the rows' font sizes tried, largest first, until the help fits the window
HEAD = 17                       # a group title's font size
MARGIN, GAP, TOP, BOTTOM = 24, 28, 62, 34   # inside the box: sides, between columns, above and below the columns
MIN_TEXT = 150                  # pixels: a narrower text column wraps too much to read; fewer columns then
NEXT_PAGE = (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_PAGEDOWN, pygame.K_SPACE)
PREVIOUS_PAGE = (pygame.K_LEFT, pygame.K_UP, pygame.K_PAGEUP)


@dataclass(frozen=True)
class Item:
    """One line of a column: a group's title (``key`` empty) or a row's key with its text's first wrapped line, or
    a continuation of that text."""
    kind: str                   # "title", "row" or "more"
    key: str
    text: str


@dataclass(frozen=True)
class HelpLayout:
    size: int                   # the rows' font size
    lh: int                     # a row's line height
    key_w: int                  # the keys' column width
    col_w: int
    pages: tuple[tuple[tuple[Item, ...], ...], ...]     # pages of columns of lines

    @property
    def columns(self) -> int:
        return max(len(page) for page in self.pages)


def _height(item: Item, lh: int) -> int:
    return lh + 4 if item.kind == "title" else lh


def _lines(groups: Sequence[HelpGroup], size: int, text_w: int) -> list[list[Item]]:
    """Each group as its lines: the title, then every row with its text wrapped to ``text_w``."""
    out = []
    for title, rows in groups:
        lines = [Item("title", "", title)]
        for key, text in rows:
            first, *rest = wrap(text, text_w, size)
            lines.append(Item("row", key, first))
            lines.extend(Item("more", "", part) for part in rest)
        out.append(lines)
    return out


def _flow(groups: list[list[Item]], lh: int, height: int) -> list[tuple[Item, ...]]:
    """The groups' lines down columns ``height`` pixels high. A group starts a new column when its title and first
    row would not fit; one that goes on in the next column has its title there again. A row's wrapped lines stay
    together."""
    columns: list[list[Item]] = [[]]
    used = 0
    for lines in groups:
        title, rest = lines[0], lines[1:]
        # Rows with their continuation lines, kept together.
        rows: list[list[Item]] = []
        for item in rest:
            if item.kind == "more" and rows:
                rows[-1].append(item)
            else:
                rows.append([item])
        gap = 10 if columns[-1] else 0
        first = _height(title, lh) + (sum(_height(i, lh) for i in rows[0]) if rows else 0)
        if columns[-1] and used + gap + first > height:
            columns.append([])
            used, gap = 0, 0
        used += gap
        columns[-1].append(title)
        used += _height(title, lh)
        for row in rows:
            h = sum(_height(i, lh) for i in row)
            if used + h > height and len(columns[-1]) > 1:
                columns.append([Item("title", "", f"{title.text} (continued)")])
                used = _height(columns[-1][0], lh)
            columns[-1].extend(row)
            used += h
    return [tuple(c) for c in columns if c]


def lay_out(groups: Sequence[HelpGroup], window: tuple[int, int]) -> HelpLayout:
    """The help laid out for a window of this size: the largest letters on one page if any size fits, else the
    fewest pages at the smallest size."""
    w, h = window
    box_w, box_h = w - 40, h - 40
    height = box_h - TOP - BOTTOM
    best: HelpLayout | None = None
    for size in SIZES:
        lh = line_height(size) + 3
        key_w = max(text_width(k, size, True) for _, rows in groups for k, _ in rows) + 14
        widest = max(text_width(t, size) for _, rows in groups for _, t in rows)
        for n in (1, 2, 3, 4):
            col_w = (box_w - 2 * MARGIN - GAP * (n - 1)) // n
            text_w = min(col_w - key_w, widest)
            if text_w < MIN_TEXT and n > 1:
                break
            columns = _flow(_lines(groups, size, max(text_w, 40)), lh, height)
            pages = tuple(tuple(columns[i:i + n]) for i in range(0, len(columns), n))
            layout = HelpLayout(size, lh, key_w, min(col_w, key_w + widest), pages)
            if len(pages) == 1:
                return layout
            if best is None or len(pages) < len(best.pages) or (
                    len(pages) == len(best.pages) and size > best.size):
                best = layout
    assert best is not None
    return best


class HelpScene(Scene):
    overlay = True
    title = "Help"

    def __init__(self, shortcuts: Sequence[HelpGroup], legend: HelpGroup | None = None) -> None:
        """``shortcuts``: the scene's groups of (keys, what they do) rows (``keys.help_groups``); ``legend``: the
        marks on the table, for the scenes that show one."""
        super().__init__()
        self.shortcuts = shortcuts
        self.legend = legend
        self.page = 0
        self._layout: tuple[tuple[int, int], HelpLayout] | None = None

    def groups(self) -> list[HelpGroup]:
        return [*self.shortcuts, *keys.help_groups(keys.WINDOW_KEYS), self.own_keys(),
                *([self.legend] if self.legend is not None else [])]

    def own_keys(self) -> HelpGroup:
        """How to move a key, and the names of this screen's bindings for the settings file."""
        below = self.app.stack.scenes[-2] if self.app is not None and len(self.app.stack) > 1 else None
        table = getattr(below, "key_table", ()) or ()
        names = sorted({k.name for k in (*keys.bindings(table), *keys.bindings(keys.WINDOW_KEYS))})
        moved = [f"{name} = {' / '.join(t for _c, _m, t in keys.REMAPPED[name])}" for name in names
                 if name in keys.REMAPPED]
        rows = [("settings.toml", "a [keys] table gives a binding other keys, e.g. redo = [\"Ctrl+Y\", \"F4\"]"),
                ("names here", ", ".join(names))]
        if moved:
            rows.append(("yours", "; ".join(moved)))
        return ("Keys of your own", rows)

    def layout(self, window: tuple[int, int]) -> HelpLayout:
        if self._layout is None or self._layout[0] != window:
            self._layout = (window, lay_out(self.groups(), window))
        return self._layout[1]

    def pages(self) -> int:
        return len(self.layout(self.size).pages) if self.app is not None else 1

    def handle_event(self, event: pygame.event.Event) -> bool:
        pages = self.pages()
        turn = 0
        if pages > 1:
            if event.type == pygame.KEYDOWN and event.key in NEXT_PAGE + PREVIOUS_PAGE:
                turn = 1 if event.key in NEXT_PAGE else -1
            elif event.type == pygame.MOUSEWHEEL:
                turn = -1 if event.y > 0 else 1
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (4, 5):
                return True                    # the wheel's legacy clicks: the MOUSEWHEEL event turns the page
        if turn:
            self.page = max(0, min(pages - 1, self.page + turn))
            return True
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            if self.app is not None:
                self.app.pop()
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        shade(surface, (10, 12, 16, 185))
        layout = self.layout((w, h))
        page = layout.pages[min(self.page, len(layout.pages) - 1)]
        col_h = max(sum(_height(i, layout.lh) + (10 if i.kind == "title" and n else 0)
                        for n, i in enumerate(col)) for col in page)
        width = len(page) * layout.col_w + GAP * (len(page) - 1) + 2 * MARGIN
        box = pygame.Rect(0, 0, min(w - 40, max(width, 480)), min(h - 40, col_h + TOP + BOTTOM))
        box.center = (w // 2, h // 2)
        panel(surface, box, theme.PANEL, theme.ACCENT, 8)
        draw_text(surface, "Keys and marks", (box.x + MARGIN, box.y + 16), 22, True, theme.TEXT)
        pages = len(layout.pages)
        hint = "any key or click closes this"
        if pages > 1:
            hint = f"page {self.page + 1} of {pages}: arrows or wheel turn it; other keys close"
        draw_text(surface, hint, (box.right - MARGIN, box.y + 22), 14, False, theme.TEXT_FAINT, "topright")
        old = surface.get_clip()
        surface.set_clip(box.inflate(-4, -4))
        x = box.x + MARGIN
        for column in page:
            y = box.y + TOP
            for n, item in enumerate(column):
                if item.kind == "title":
                    y += 10 if n else 0
                    draw_text(surface, item.text, (x, y), HEAD, True, theme.ACCENT)
                else:
                    if item.key:
                        draw_text(surface, item.key, (x, y), layout.size, True, theme.TEXT)
                    draw_text(surface, item.text, (x + layout.key_w, y), layout.size, False, theme.TEXT_DIM)
                y += _height(item, layout.lh)
            x += layout.col_w + GAP
        surface.set_clip(old)
