"""What the faction editor's parts share: the state every mixin of ``FactionEditorScene`` reads and writes, declared
once with its type, and the scene's methods the parts call on one another."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pygame
import pygame_gui

from ...authoring.draft import FactionDraft
from ...rules.campaign_upgrades import UpgradeCheck
from ...rules.factions import Faction
from ..scene import Scene


class FactionEditorBase(Scene):
    """The base of every part of the faction editor (``faction_editor_*.py``); ``FactionEditorScene`` sets these in
    ``__init__``."""

    manager: pygame_gui.UIManager | None
    draft: FactionDraft
    source: Path | None                 # the file the faction was loaded from (saved over without asking)
    baseline: dict[str, Any]
    mode: str                           # CREATE or UPGRADE
    opponent: Faction | None
    tech_text: str
    battle_text: str
    message: tuple[str, str]            # (kind: ok / error / note, text)
    escape_armed: bool
    page: str                           # the page shown in a narrow window
    # pygame_gui elements of several kinds (text entries, buttons, drop-downs), looked up by name.
    widgets: dict[str, Any]
    stat_buttons: dict[tuple[str, str, int], pygame_gui.elements.UIButton]
    emblem_buttons: dict[pygame_gui.elements.UIButton, str]
    choices: dict[str, Faction]
    choice_paths: dict[str, Path | None]
    broken: dict[str, Path]
    dialog: pygame_gui.windows.UIFileDialog | None
    dialog_purpose: str
    confirm: pygame_gui.windows.UIConfirmationDialog | None
    pending: Callable[[], object] | None
    question: str
    swatch_rects: list[tuple[pygame.Rect, str, str]]
    # Column boxes (x, width), rectangles and flags of the current layout, by name.
    layout: dict[str, Any]
    faction: Faction | None
    problems: list[str]
    preview: Faction | None
    rows: list[Any]
    purchases: dict[tuple[str, str], UpgradeCheck | str]
    _seen: dict[str, str]               # each text box as last read, so a change is noticed once

    if TYPE_CHECKING:
        # Defined by FactionEditorScene or by one part, called by others.
        @property
        def dirty(self) -> bool: ...

        def refresh(self) -> None: ...
        def say(self, kind: str, text: str) -> None: ...
        def tech_points(self) -> tuple[int | None, str]: ...
        def battle(self) -> tuple[int | None, str]: ...
        def _build(self, size: tuple[int, int]) -> None: ...
