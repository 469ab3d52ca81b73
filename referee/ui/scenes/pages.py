"""A page of text with a row of buttons: the end-of-battle report's look, shared by the campaign screen and the
look-back pages. Subclasses give the lines and the buttons; the page scrolls with the wheel and the arrow keys."""

from __future__ import annotations

import pygame
import pygame_gui

from .. import theme
from ..scene import Scene
from ..widgets import draw_text, gui_manager, line_height, panel, wrap

def style_colour(style: str) -> theme.Colour:
    """A line's colour by its style, read from the theme now (it may have changed since this module loaded)."""
    return {"h": theme.ACCENT, "ok": theme.GOOD_TEXT, "bad": theme.ERROR, "dim": theme.TEXT_DIM}.get(style, theme.TEXT)
BUTTON_W, BUTTON_H, GAP = 176, 38, 10


class LinesScene(Scene):
    title = "Page"
    heading = ""
    subtitle = ""

    def __init__(self) -> None:
        super().__init__()
        self.manager: pygame_gui.UIManager | None = None
        self.buttons: dict[pygame_gui.elements.UIButton, str] = {}
        self.scroll = 0
        self.message: tuple[str, str] = ("", "")      # (style, text) under the heading

    # ---- what a page shows (subclasses) ----------------------------------------------------------------------
    def lines(self) -> list[tuple[str, str]]:
        """(style, text): "h" heading, "b" body, "ok" / "bad" / "dim"."""
        return []

    def button_row(self) -> list[tuple[str, str, bool]]:
        """(key, label, enabled) in order, laid out in rows along the bottom."""
        return [("back", "Back", True)]

    def pressed(self, key: str) -> None:
        if key == "back" and self.app is not None:
            self.app.pop()

    def build_extra(self, manager, size, bottom: int) -> None:
        """Extra widgets above the button rows (``bottom`` is the top of the buttons)."""

    def handle_extra(self, event) -> bool:
        return False

    # ---- life cycle ----------------------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self.rebuild()

    def on_resume(self) -> None:
        self.rebuild()

    def on_resize(self, size) -> None:
        self.rebuild()

    def rebuild(self) -> None:
        size = self.size
        self.manager = gui_manager(self.manager, size)
        w, h = size
        self.buttons = {}
        row = self.button_row()
        per_row = max(1, (w - 60 + GAP) // (BUTTON_W + GAP))
        rows = (len(row) + per_row - 1) // per_row
        top = h - 20 - rows * (BUTTON_H + GAP)
        for i, (key, label, enabled) in enumerate(row):
            r, c = divmod(i, per_row)
            rect = pygame.Rect(30 + c * (BUTTON_W + GAP), top + r * (BUTTON_H + GAP), BUTTON_W, BUTTON_H)
            b = pygame_gui.elements.UIButton(rect, label, self.manager)
            if not enabled:
                b.disable()
            self.buttons[b] = key
        self.buttons_top = top
        self.build_extra(self.manager, size, top)

    def press(self, key: str) -> None:
        """The button ``key`` as if clicked (tests and keys call it)."""
        for b, k in self.buttons.items():
            if k == key and b.is_enabled:
                self.pressed(key)
                return
        raise KeyError(f"no enabled button {key!r} on this page")

    def say(self, style: str, text: str) -> None:
        self.message = (style, text)

    # ---- events ------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self.pressed(self.buttons[event.ui_element])
            return True
        if self.handle_extra(event):
            return True
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - event.y * 3)
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.pressed("back")
            elif event.key in (pygame.K_DOWN, pygame.K_PAGEDOWN):
                self.scroll += 1 if event.key == pygame.K_DOWN else 10
            elif event.key in (pygame.K_UP, pygame.K_PAGEUP):
                self.scroll = max(0, self.scroll - (1 if event.key == pygame.K_UP else 10))
            return True
        return False

    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)

    # ---- drawing -----------------------------------------------------------------------------------------------
    def text_box(self, w: int, h: int) -> pygame.Rect:
        top = 92 + (28 if self.message[1] else 0)
        return pygame.Rect(30, top, w - 60, getattr(self, "buttons_top", h - 70) - top - 14)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill(theme.BACKGROUND)
        draw_text(surface, self.heading or self.title, (30, 22), 26, True, theme.TEXT)
        if self.subtitle:
            draw_text(surface, self.subtitle, (30, 60), 14, False, theme.TEXT_DIM)
        style, text = self.message
        if text:
            colour = {"error": theme.ERROR, "ok": theme.GOOD_TEXT}.get(style, theme.ACCENT)
            draw_text(surface, text, (30, 88), 15, True, colour)
        box = self.text_box(w, h)
        panel(surface, box, theme.PANEL, theme.PANEL_EDGE, 6)
        wrapped: list[tuple[str, str]] = []
        for style_, line in self.lines():
            line = theme.SIGNS.get(style_, "") + line       # the sign says good or bad without the colour
            size = 16 if style_ == "h" else 14
            for part in wrap(line, box.w - 40, size, style_ == "h", 4) or ("",):
                wrapped.append((style_, part))
        self.scroll = min(self.scroll, max(0, len(wrapped) - 5))
        y = box.y + 10
        for style_, line in wrapped[self.scroll:]:
            size = 16 if style_ == "h" else 14
            if y + line_height(size) > box.bottom - 6:
                break
            if style_ == "h":
                y += 6
            draw_text(surface, line, (box.x + 20, y), size, style_ == "h", style_colour(style_))
            y += line_height(size) + 2
        if self.manager is not None:
            self.manager.draw_ui(surface)
