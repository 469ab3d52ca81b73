"""The battle scene's action bar: the Action Table as buttons between the table's tools and its side panel, each
enabled only when the scene says the action may be taken now (the engine's checks, ``BattleScene.offered``)."""

from __future__ import annotations

import math
from typing import Any, Protocol

import pygame
import pygame_gui

from ...game.battle.action_kinds import bar_buttons
from .. import panels
from ..widgets import BUTTON_BORDER, fits_button
from .table_common import COMPACT, Layout, layout_for, layout_with_bar

ACTION_COLUMNS = 5           # buttons a row, fewer in a narrow window so that every label shows whole
ROW_H = 30
# Large text on a small window (``table_common.COMPACT``): the bar keeps this many rows and shows only the actions
# offered now, so the side panel keeps room under it; the keys of the others still work (their help lists them).
COMPACT_ROWS = 3

# (key, label, tooltip); the order is the bar's, row by row: the action kinds' buttons (``action_kinds``), then the
# window's own.
ACTIONS = (
    *((b.name, b.label, b.tip) for b in bar_buttons()),
    ("holding", "Holding", "O: your holding area, mission and seals"),
    ("log", "Log: all", "Shift+L: the log of every unit, or of the selected unit only"),
    ("undo", "Undo", "Ctrl+Z: take back the last action"),
    ("save", "Save", "Ctrl+S: save the battle to a file"),
)
Actions = tuple[tuple[str, str, str], ...]
GAP = 4


def button_width(width: int, cols: int) -> int:
    return (width - 2 * panels.PAD - GAP * (cols - 1)) // cols


class BarHost(Protocol):
    """What the action bar uses of the battle scene: which actions it offers now, which log it shows, and what a
    button pressed does."""

    @property
    def log_unit_only(self) -> bool: ...

    def offered(self, key: str) -> bool: ...

    def press(self, key: str) -> None: ...

    def push_scene(self, name: str, *args: Any, **kwargs: Any) -> object: ...


class ActionBar:
    """Held by the battle scene as ``scene.bar``; ``actions`` are the buttons, row by row."""

    def __init__(self, host: BarHost, actions: Actions) -> None:
        self.host = host
        self.actions = actions
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.columns = ACTION_COLUMNS
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.compact = False
        self.more: pygame_gui.elements.UIButton | None = None
        self.overflow: list[str] = []            # offered actions behind "More…" (compact bar only)

    def keys(self) -> set[str]:
        return {k for k, _, _ in self.actions}

    def lay_out(self, size: tuple[int, int]) -> Layout:
        """The table's layout with room for the bar's rows between the tools and the side panel."""
        self.columns = self.columns_for(layout_for(size).panel.w)
        rows = math.ceil(len(self.actions) / self.columns)
        self.compact = (size[0] < COMPACT[0] or size[1] < COMPACT[1]) and rows > COMPACT_ROWS
        self.rect, layout = layout_with_bar(size, COMPACT_ROWS if self.compact else rows, ROW_H)
        return layout

    def slot(self, i: int) -> pygame.Rect:
        bw = button_width(self.rect.w, self.columns)
        r, c = divmod(i, self.columns)
        return pygame.Rect(self.rect.x + panels.PAD + c * (bw + GAP), self.rect.y + 4 + r * (ROW_H + 4), bw, ROW_H)

    def columns_for(self, width: int) -> int:
        """Five buttons a row, fewer when a label would be cut ("Kamikaze", "End activ." at 800 x 560)."""
        labels = [label for _key, label, _tip in self.actions] + ["Log: unit"]
        cols = ACTION_COLUMNS
        while cols > 2 and not fits_button(labels, button_width(width, cols), BUTTON_BORDER):
            cols -= 1
        return cols

    def build(self, manager: pygame_gui.UIManager) -> None:
        self.buttons = {}
        per_row = self.columns
        bar = self.rect
        bw = button_width(bar.w, per_row)
        for i, (key, label, tip) in enumerate(self.actions):
            r, c = divmod(i, per_row)
            rect = pygame.Rect(bar.x + panels.PAD + c * (bw + GAP), bar.y + 4 + r * (ROW_H + 4), bw, ROW_H)
            self.buttons[key] = pygame_gui.elements.UIButton(rect, label, manager, tool_tip_text=tip)
        self.more = None
        if self.compact:
            self.more = pygame_gui.elements.UIButton(self.slot(0), "More…", manager,
                                                     tool_tip_text="the other actions offered now")
        self.sync()

    def sync(self) -> None:
        """Enable each button the scene offers now; the log button says which log it shows."""
        for key, button in self.buttons.items():
            if self.host.offered(key):
                button.enable()
            else:
                button.disable()
        log = self.buttons.get("log")
        if log is not None:
            log.set_text("Log: unit" if self.host.log_unit_only else "Log: all")
        if self.compact:
            self.place()

    def place(self) -> None:
        """The compact bar: the offered actions in its slots, the last slot "More…" when they do not all fit."""
        slots = COMPACT_ROWS * self.columns
        offered = [key for key, _label, _tip in self.actions if self.host.offered(key)]
        shown = offered if len(offered) <= slots else offered[:slots - 1]
        self.overflow = offered[len(shown):]
        for key, button in self.buttons.items():
            if key in shown:
                button.set_relative_position(self.slot(shown.index(key)).topleft)
                button.show()
            else:
                button.hide()
        if self.more is not None:
            if self.overflow:
                self.more.set_relative_position(self.slot(slots - 1).topleft)
                self.more.show()
            else:
                self.more.hide()

    def open_more(self) -> None:
        """The offered actions the compact bar has no slot for, as a dialog of buttons."""
        host = self.host
        labels = {key: label for key, label, _tip in self.actions}
        choices = [(key, labels[key]) for key in self.overflow]

        def chosen(key: str | None) -> None:
            if key is not None:
                host.press(key)

        host.push_scene("dialog", "More actions", ["Offered now:"], choices + [("cancel", "Cancel")],
                         lambda key: chosen(None if key == "cancel" else key), columns=2)

    def pressed(self, element: object) -> str | None:
        """The action whose button ``element`` is ("More…" opens the rest and is no action itself)."""
        if element is not None and element is self.more:
            self.open_more()
            return None
        return next((key for key, b in self.buttons.items() if b is element), None)
