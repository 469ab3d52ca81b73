"""What the table scenes share: the tools and their names, the key table, the toolbar and the layout of the window
(the table, the side panel with its toolbar, the log and the status bar)."""

from __future__ import annotations

from typing import NamedTuple

import pygame

from .. import theme
from ..keys import ANY, ENTER, EVENT, MINUS, PLUS, Gesture, Key, KeyTable

SELECT, RULER, MOVE, JUMP = "select", "ruler", "move", "jump"
TOOL_TITLES = {SELECT: "Select", RULER: "Ruler", MOVE: "Move preview", JUMP: "Jump preview"}
TOOL_HINTS = {
    RULER: "Drag between two points or two units: edge to edge between units, point to point otherwise. "
           "Esc or R leaves the ruler.",
    MOVE: "Drag from the unit, or click waypoints; the numbers are the rules' own. Enter sends the move, "
          "Backspace removes the last waypoint, Esc or M leaves.",
    JUMP: "Click the landing point. Enter sends the jump, Esc or J leaves.",
}
ZOOM_STEP = 1.15
PAN_STEP = 48
PICK_SLOP = 4           # pixels of tolerance around a base when clicking it
TOOLBAR_H = 44
BUTTONS = (("ruler", "Ruler", "R: measure between points or units"),
           ("move", "Move", "M: preview a Move of the selected unit"),
           ("jump", "Jump", "J: preview a Jump of the selected unit"),
           ("fit", "Fit", "F or Home: fit the table to the window"),
           ("help", "Help", "H or F1: keys and marks"),
           ("menu", "Menu", "Esc: back to the menu"))

LOOKING = ("Looking", (
    Gesture("Left click", "select a unit (click empty table: deselect)"),
    Key("Tab / Shift+Tab", "next / previous unit", "cycle_by_key", (pygame.K_TAB,), ANY, (EVENT,)),
    Gesture("Mouse wheel", "zoom"),
    Key("+ / -", "zoom in / out", "zoom_by_key", PLUS + MINUS, ANY, (EVENT,)),
    Gesture("Right or middle drag", "pan"),
    Key("Arrow keys", "pan", "pan_by_key", (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN), ANY, (EVENT,)),
    Key("F or Home", "fit the table to the window", "fit", (pygame.K_f, pygame.K_HOME)),
    Gesture("Hover an enemy", "its sight line and numbers"),
    Gesture("Click an enemy row", "show the working (pages, rulings)"),
))
TOOLS = ("Tools", (
    Key("R", "ruler: drag between points or units", "set_tool", (pygame.K_r,), ANY, (RULER,)),
    Key("M", "move preview: drag or click waypoints", "set_tool", (pygame.K_m,), ANY, (MOVE,)),
    Key("J", "jump preview: click the landing point", "set_tool", (pygame.K_j,), ANY, (JUMP,)),
    Key("E / Shift+E", "exposure map on or off / its side", "exposure_by_key", (pygame.K_e,), ANY, (EVENT,)),
    Key("D", "type the move's next waypoint or the jump's landing point", "type_destination", (pygame.K_d,)),
    Key("Enter", "send the previewed move or jump", "confirm", ENTER),
    Key("Backspace", "remove the last waypoint", "remove_waypoint", (pygame.K_BACKSPACE,)),
    Key("Esc", "leave the tool / deselect / menu", "escape", (pygame.K_ESCAPE,)),
    Key("H or F1", "this help (any key closes it)", "open_help", (pygame.K_h, pygame.K_F1)),
))
TABLE_KEYS: KeyTable = (LOOKING, TOOLS)


COMPACT = (800, 560)        # a logical window smaller than this gets the large-text layout


class Layout(NamedTuple):
    """Where each part of the table scene goes (a named tuple: a plain value, cheaper than a dataclass for a start)."""

    status: pygame.Rect
    table: pygame.Rect
    log: pygame.Rect
    side: pygame.Rect
    toolbar: pygame.Rect
    panel: pygame.Rect


def layout_for(size: tuple[int, int]) -> Layout:
    """Status bar on top; the table on the left; on the right the tools, the side panel and, at its bottom, the log.

    The table is usually square, so the height is what limits it: the log lives under the side panel, not under
    the table.
    """
    w, h = size
    compact = w < COMPACT[0] or h < COMPACT[1]
    # Large text on a small window (``ui/scale.py``): a shorter log leaves the panel room for its first lines.
    side_w = min(theme.SIDE_PANEL_WIDTH, max(320, int(w * 0.36)))
    top = theme.STATUS_HEIGHT
    body_h = h - top
    log_h = min(theme.LOG_HEIGHT, max(96 if compact else 120, int(body_h * 0.3)))
    status = pygame.Rect(0, 0, w, top)
    side = pygame.Rect(w - side_w, top, side_w, body_h)
    toolbar = pygame.Rect(side.x, top, side_w, TOOLBAR_H)
    log = pygame.Rect(side.x, h - log_h, side_w, log_h)
    panel = pygame.Rect(side.x, toolbar.bottom, side_w, log.y - toolbar.bottom)
    table = pygame.Rect(0, top, w - side_w, body_h)
    return Layout(status, table, log, side, toolbar, panel)


def layout_with_bar(size: tuple[int, int], rows: int, row_h: int) -> tuple[pygame.Rect, Layout]:
    """``layout_for`` with a bar of ``rows`` rows of buttons between the tools and the side panel (the battle's
    actions, set-up's choices): the bar, and the layout whose panel starts under it."""
    base = layout_for(size)
    bar_h = rows * (row_h + 4) + 8
    bar = pygame.Rect(base.panel.x, base.panel.y, base.panel.w, bar_h)
    panel = pygame.Rect(base.panel.x, base.panel.y + bar_h, base.panel.w, base.panel.h - bar_h)
    return bar, Layout(base.status, base.table, base.log, base.side, base.toolbar, panel)
