"""What the table editor's modules share: its tools, keys, hints, layout, and where a table is saved."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pygame

from ... import paths
from ...rules.errors import InputError
from .. import theme
from ..editing import TableEditor
from ..keys import CTRL, CTRL_SHIFT_Z, ENTER, EVENT, MINUS, NO_CTRL, PLUS, Gesture, Key, KeyTable

SELECT, POLYGON, CIRCLE, UNIT, BLIP, OBJECTIVE = "select", "polygon", "circle", "unit", "blip", "objective"
TOOLS = ((SELECT, "Select", "V"), (POLYGON, "Polygon", "P"), (CIRCLE, "Circle", "C"), (UNIT, "Unit", "U"),
         (BLIP, "Blip", "B"), (OBJECTIVE, "Objective", "O"))
TOOL_TITLES = {SELECT: "Select and drag", POLYGON: "Draw terrain", CIRCLE: "Draw a round piece",
               UNIT: "Place units", BLIP: "Place blips", OBJECTIVE: "Place objectives"}
TOOL_HINTS = {
    SELECT: "Click a piece or terrain to select it, drag to move it. Q/E turns a trooper; "
            "+/- Target counters; D Damaged; S Stunned; Delete removes.",
    POLYGON: "Click the corners. Enter, a double click or a click on the first corner closes it; Backspace removes "
             "the last corner; Esc cancels.",
    CIRCLE: "Drag from the centre outwards to set the radius (smoke, craters, ponds).",
    UNIT: "Choose side, faction, rating and type, then click the table to place. Drag a piece to move it.",
    BLIP: "Choose the side, then click to place a blip counter.",
    OBJECTIVE: "Choose an objective (alpha to epsilon), then click to place it.",
}
ROTATE_STEP = 15.0
FINE_STEP = 5.0
ZOOM_STEP = 1.15
PAN_STEP = 48
PICK_SLOP = 4
DRAG_PIXELS = 4
CLOSE_PIXELS = 7           # a click this close to the first or the last corner closes the polygon
MIN_RADIUS = 0.1           # inches: a shorter circle drag is a click
PAD = 12
SIDE_W = 440
BOTTOM_H = 170
MESSAGE_H = 88
CHIP_H = 26
EDITOR_KEYS: KeyTable = (
    ("Physical table: tools", (
        Key("V", "select and drag pieces and terrain", "set_tool", (pygame.K_v,), NO_CTRL, (SELECT,)),
        Key("P", "polygon: click corners, Enter closes", "set_tool", (pygame.K_p,), NO_CTRL, (POLYGON,)),
        Key("C", "circle: drag from the centre", "set_tool", (pygame.K_c,), NO_CTRL, (CIRCLE,)),
        Key("U / B / O", "place units / blips / objectives", "set_tool", (pygame.K_u, pygame.K_b, pygame.K_o), NO_CTRL,
            each=((UNIT,), (BLIP,), (OBJECTIVE,))),
        Key("Ctrl+Y / Ctrl+Shift+Z", "redo the last edit undone", "redo", (pygame.K_y, pygame.K_z), CTRL_SHIFT_Z),
        Key("Ctrl+Z", "undo the last edit", "undo", (pygame.K_z,), CTRL),
        Key("Ctrl+Y", "redo the edit undone", "redo", (pygame.K_y,), CTRL),
        Key("Ctrl+S", "save the table", "save", (pygame.K_s,), CTRL),
        Key("Ctrl+Enter", "save and ask the referee", "ask_referee", ENTER, CTRL),
        Key("Ctrl+P", "place every piece from a photo of the table", "ask_photo", (pygame.K_p,), CTRL),
    )),
    ("Drawing a polygon", (
        Key("Enter", "close it", "polygon_close", ENTER, NO_CTRL),
        Key("Backspace", "remove the last corner", "polygon_back", (pygame.K_BACKSPACE,), NO_CTRL),
        Key("Esc", "drop its corners (again: back to select)", "polygon_cancel", (pygame.K_ESCAPE,), NO_CTRL),
    )),
    ("The selected piece", (
        Key("Q / E", "turn a trooper or a terrain piece 15° (Shift: 5°)", "rotate_by_key", (pygame.K_q, pygame.K_e), NO_CTRL,
            (EVENT,)),
        Key("+ / -", "Target counters (nothing selected: zoom)", "plus_minus", PLUS + MINUS, NO_CTRL, (EVENT,)),
        Key("D / S", "Damaged / Stunned", "act", (pygame.K_d, pygame.K_s), NO_CTRL, each=(("damaged",), ("stunned",))),
        Key("Delete / Backspace", "remove it", "act", (pygame.K_DELETE, pygame.K_BACKSPACE), NO_CTRL, ("delete",)),
        Key("Tab", "select the next piece with a problem (even off the table): Enter then fixes it", "next_problem",
            (pygame.K_TAB,), NO_CTRL),
        Key("Enter", "type its position, facing, id, type, contents, corners (placing: where it goes)",
            "exact_by_key", ENTER, NO_CTRL),
        Gesture("Alt+click", "to the tenth of an inch (a click near a half inch lands on it)"),
        Gesture("Drag", "move it (refused if bases overlap)"),
        Gesture("Corners", "drag a terrain corner; Shift+click an edge adds one; right-click removes one"),
    )),
    ("View", (
        Gesture("Wheel on the table", "zoom"),
        Gesture("Right or middle drag", "pan"),
        Key("Arrow keys", "pan", "pan_by_key", (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN), NO_CTRL,
            (EVENT,)),
        Key("F or Home", "fit the table to the window", "fit", (pygame.K_f, pygame.K_HOME), NO_CTRL),
        Key("H or F1", "this help (any key closes it)", "open_help", (pygame.K_h, pygame.K_F1), NO_CTRL),
        Key("Esc", "leave the tool / deselect / menu", "escape", (pygame.K_ESCAPE,), NO_CTRL),
    )),
)


def default_save_path(editor: TableEditor) -> Path:
    """The file a table is saved to unless the user names another: its own file, or one in the user's folder."""
    src = editor.source
    if src is not None and src.parent.resolve() != paths.SCENARIO_DIR.resolve():
        return src
    stem = src.stem if src is not None else (re.sub(r"[^a-z0-9]+", "-", editor.scenario.name.lower()).strip("-")
                                             or "my-table")
    return paths.user_data_dir() / "tables" / f"{stem}.toml"


def error_text(error: Exception) -> str:
    if isinstance(error, InputError):
        return error.message()
    if isinstance(error, OSError):
        return f"{error.filename or ''}: {error.strerror or error}".lstrip(": ")
    return f"{type(error).__name__}: {error}"



@dataclass(frozen=True)
class EditorLayout:
    status: pygame.Rect
    table: pygame.Rect
    side: pygame.Rect
    toolbar: pygame.Rect
    options: pygame.Rect
    message: pygame.Rect
    bottom: pygame.Rect


def editor_layout(size: tuple[int, int]) -> EditorLayout:
    w, h = size
    side_w = min(SIDE_W, max(340, int(w * 0.34)))
    top = theme.STATUS_HEIGHT
    status = pygame.Rect(0, 0, w, top)
    side = pygame.Rect(w - side_w, top, side_w, h - top)
    toolbar = pygame.Rect(side.x, top, side_w, 88 if side_w >= 420 else 128)
    bottom = pygame.Rect(side.x, h - BOTTOM_H, side_w, BOTTOM_H)
    message = pygame.Rect(side.x, bottom.y - MESSAGE_H, side_w, MESSAGE_H)
    options = pygame.Rect(side.x, toolbar.bottom, side_w, max(0, message.y - toolbar.bottom))
    table = pygame.Rect(0, top, w - side_w, h - top)
    return EditorLayout(status, table, side, toolbar, options, message, bottom)


@dataclass(frozen=True)
class Chip:
    """One clickable choice drawn in the side panel: ``key`` says what a click means."""

    key: str
    rect: pygame.Rect
    label: str
    selected: bool = False
    enabled: bool = True
    swatch: tuple | None = None
    hatch: bool = False
    tip: str = ""
