"""Keyboard focus through the buttons and boxes of any scene built with pygame_gui (menus, dialogs, hand-offs).

Tab and Shift+Tab move the focus in reading order (top to bottom, left to right); the focused button shows the
theme's selected colours; Enter or Space presses it, as a click would. A scene whose own key table binds Tab (the
table's next unit) keeps its Tab: the window asks here only when the scene does not take the key itself, and
Ctrl+Tab moves through such a scene's buttons (``App.focus_buttons``); pressed, the button lets the focus go.
"""

from __future__ import annotations

import weakref
from typing import Any

import pygame

from . import keys

TAB = pygame.K_TAB
PRESS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)

_focused: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def focusables(manager: Any) -> list[Any]:
    """The enabled, visible buttons and text boxes of ``manager``, in reading order."""
    # lazy: pygame_gui loads when a scene first builds its widgets, not with the keys
    import pygame_gui

    kinds = (pygame_gui.elements.UIButton, pygame_gui.elements.UITextEntryLine)
    found = [e for e in manager.get_sprite_group().sprites()
             if isinstance(e, kinds) and e.visible and e.is_enabled and e.alive()
             and not _inside_closed_window(e)]
    # A window open over the scene (the file dialog of Load) holds the keys: nothing hidden behind it is reached.
    windows = [w for w in manager.get_window_stack().get_full_stack() if w.alive() and w.visible]
    if windows:
        top = windows[-1].get_container()
        found = [e for e in found if _inside(e, top)]
    return sorted(found, key=lambda e: (e.rect.y, e.rect.x))


def _inside(element: Any, container: Any) -> bool:
    """Whether ``element`` lies in ``container``, however deep."""
    at = getattr(element, "ui_container", None)
    while at is not None:
        if at is container:
            return True
        parent = getattr(at, "ui_container", None)
        at = parent if parent is not at else None
    return False


def _inside_closed_window(element: Any) -> bool:
    container = getattr(element, "ui_container", None)
    return container is not None and not getattr(container, "visible", True)


def focused(scene: Any) -> Any | None:
    element = _focused.get(scene)
    if element is None or not element.alive() or not element.visible or not element.is_enabled:
        return None
    return element


def _binds(scene: Any, code: int) -> bool:
    return any(code in k.keys for k in keys.bindings(getattr(scene, "key_table", ())))


def move(scene: Any, step: int) -> Any | None:
    """Focus the next (``step`` 1) or previous (-1) element of the scene; returns it."""
    manager = getattr(scene, "manager", None)
    if manager is None:
        return None
    elements = focusables(manager)
    if not elements:
        return None
    current = focused(scene)
    if current is None:
        index = 0 if step > 0 else len(elements) - 1
    else:
        index = (elements.index(current) + step) % len(elements) if current in elements else 0
    return set_focus(scene, elements[index])


def set_focus(scene: Any, element: Any) -> Any:
    # lazy: pygame_gui loads when a scene first builds its widgets, not with the keys
    import pygame_gui

    old = focused(scene)
    if old is not None and isinstance(old, pygame_gui.elements.UIButton):
        old.unselect()
    _focused[scene] = element
    manager = scene.manager
    if isinstance(element, pygame_gui.elements.UIButton):
        manager.set_focus_set(None)         # a text box that had the keys lets them go
        element.select()
    else:
        manager.set_focus_set(element.get_focus_set())
    return element


def handle(scene: Any, event: pygame.event.Event) -> bool:
    """Tab, Shift+Tab, Enter and Space for the focus; True when the key was used here."""
    # lazy: pygame_gui loads when a scene first builds its widgets, not with the keys
    import pygame_gui

    if event.type != pygame.KEYDOWN or getattr(scene, "manager", None) is None:
        return False
    mod = getattr(event, "mod", 0)
    if event.key == TAB and not mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT) and not _binds(scene, TAB):
        return move(scene, -1 if mod & pygame.KMOD_SHIFT else 1) is not None
    if event.key in PRESS:
        element = focused(scene)
        if isinstance(element, pygame_gui.elements.UIButton) and element.is_selected:
            if _binds(scene, TAB):
                # Reached by Ctrl+Tab on a screen whose own keys come first: pressed once, the focus goes, and Enter
                # is the screen's own again (a Move's confirmation, say).
                element.unselect()
                _focused.pop(scene, None)
            scene.handle_event(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED,
                                                  {"ui_element": element, "ui_object_id": element.most_specific_combined_id,
                                                   "mouse_button": 1}))
            return True
    return False
