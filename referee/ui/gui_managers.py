"""The pygame_gui managers of the window's scenes and dialogs: made once and reused.

A battle opens a dialog at every hand-off, end of round and die typed in. Making a manager for each cost tens of
milliseconds (theme, fonts, drawable shapes), and each one left pictures behind until the garbage collector came by.
A dialog now gives its manager back when it leaves the screen, and the next one empties it and lays its own widgets
out in it.

pygame_gui also adds its translations folder to ``i18n``'s search path once per manager made, and every label with a
dot in it ("End activ.") is then looked for in every copy of that folder: late in a long battle each button cost
milliseconds more than at its start. The search path keeps each folder once.

The managers of one window share their theme: each manager used to read the theme afresh and load its fonts on
threads of its own, and each theme kept its own cache of drawn button shapes, so every scene drew the same buttons
again. A theme is kept for the window it was made in (its fonts die with the window's) and for the data it was made
from (the high-contrast colours make another).
"""

from __future__ import annotations

import json
from typing import Any

from . import scale, theme

SPARES = 2                        # managers kept for the next dialogs
_spare: list[Any] = []
_themes: dict[str, Any] = {}      # this window's pygame_gui themes, by the data they were made from


class _DistinctPaths(list):
    """A search path that takes each folder once."""

    def append(self, path) -> None:
        if path not in self:
            super().append(path)


def keep_translation_paths_distinct() -> None:
    import i18n  # type: ignore[import-untyped]  # (pygame_gui's translations library ships no types)

    paths = i18n.config.settings["load_path"]
    if not isinstance(paths, _DistinctPaths):
        distinct = _DistinctPaths(dict.fromkeys(paths))
        i18n.config.settings["load_path"] = distinct
        i18n.load_path = distinct


def gui_manager(manager, size: tuple[int, int]):
    """The scene's pygame_gui manager for a window of ``size``, emptied of its widgets (a spare one, or made, the
    first time), so a scene lays its widgets out afresh after a resize."""
    if manager is None:
        if _spare:
            manager = _spare.pop()
        else:

            return new_manager(size)
    manager.set_window_resolution(size)
    manager.clear_and_reset()
    return manager


def new_manager(size: tuple[int, int]):
    """A pygame_gui manager with the window's theme that reads the mouse in the scenes' coordinates (``ui/scale.py``):
    pygame_gui asks the system where the mouse is for its hover, and the system answers in the window's pixels."""
    # lazy: pygame_gui loads when the first scene builds its widgets, not with the window
    import pygame_gui

    keep_translation_paths_distinct()
    global _Scaled
    if _Scaled is None:
        class ScaledManager(pygame_gui.UIManager):
            def _update_mouse_position(self) -> None:
                # lazy: pygame_gui loads when the first scene builds its widgets, not with the window
                import pygame

                self.mouse_position = scale.to_logical(pygame.mouse.get_pos())

            def create_new_theme(self, theme_path=None):
                key = json.dumps(theme_path, sort_keys=True)
                made = _themes.get(key)
                if made is None:
                    made = _themes[key] = super().create_new_theme(theme_path)
                return made

        _Scaled = ScaledManager
    data = theme.gui_theme()
    made = _themes.get(json.dumps(data, sort_keys=True))
    # A theme already made has its fonts loaded: the manager starts no loading threads of its own for it.
    return _Scaled(size, data, resource_loader=made._resource_loader if made else None)


_Scaled: Any = None


def give_back(manager) -> None:
    """A manager whose scene has left the screen, for the next dialog."""
    if manager is not None and len(_spare) < SPARES and all(m is not manager for m in _spare):
        manager.clear_and_reset()
        _spare.append(manager)


def forget_spares() -> None:
    """A new window (its display and fonts made afresh) starts without spare managers or themes."""
    _spare.clear()
    _themes.clear()
