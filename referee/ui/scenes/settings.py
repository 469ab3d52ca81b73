"""Settings: the playing group's readings of the rulings, used by every new battle, and how the window looks.

Each ruling of ``data/rulings.toml`` shows its options; a click moves to the next one. The choice is saved in the
user's data folder (``settings.toml``) and applied at set-up; a scenario's own ``rulings`` still win for that table.
The text size (the UI scale, 100-250 %) and the theme change the window at once and are kept by Save
(``ui/preferences.py``).
"""

from __future__ import annotations

import pygame
import pygame_gui

from ...i18n import _, ngettext
from ... import paths
from ...rules.rulings import catalogue, honoured
from .. import preferences, scale, theme
from ..scene import Scene
from ..widgets import draw_text, ellipsize, gui_manager, text_width

ROW_H = 40


def settings_path():
    return preferences.settings_path()


def group_rulings() -> dict[str, str]:
    """The saved choices that differ from the recommended reading; a broken or stale file gives none of them."""
    data = preferences.read_settings()           # a missing or broken file reads as empty
    known = catalogue()
    chosen = data.get("rulings", {}) if isinstance(data.get("rulings", {}), dict) else {}
    return {rid: opt for rid, opt in chosen.items()
            if rid in known and opt in known[rid].options and honoured(rid, opt)}


class SettingsScene(Scene):
    title = "Settings"

    def __init__(self) -> None:
        super().__init__()
        self.rulings = catalogue()
        self.chosen = {rid: r.default for rid, r in self.rulings.items()}
        self.chosen.update(group_rulings())
        self.scroll = 0
        self.message = ""
        self.manager: pygame_gui.UIManager | None = None
        self.buttons: dict[object, str] = {}

    def on_enter(self) -> None:
        self._build(self.size)

    def on_resize(self, size) -> None:
        self._build(size)

    def _build(self, size) -> None:
        self.manager = gui_manager(self.manager, size)
        w, h = size
        self.buttons = {}
        for i, (key, label) in enumerate((("save", "Save"), ("reset", "All recommended"), ("back", "Back"))):
            rect = pygame.Rect(40 + i * 200, h - 58, 186, 40)
            self.buttons[pygame_gui.elements.UIButton(rect, label, self.manager)] = key
        # The window's look: text size and theme, on the line under the title.
        x = 40 + text_width(self.look_text(), 15, True) + 16
        for key, label, tip in (("smaller", "Smaller", "the UI scale one step (25 %) down"),
                                ("larger", "Larger", "the UI scale one step (25 %) up"),
                                ("theme", "Theme", "standard or high contrast")):
            rect = pygame.Rect(x, 58, 100, 32)
            self.buttons[pygame_gui.elements.UIButton(rect, label, self.manager, tool_tip_text=tip)] = key
            x += 108

    def look_text(self) -> str:
        return f"Text size {self.ui_scale():.0%} · theme {theme.current_theme[0]}"

    def ui_scale(self) -> float:
        return self.app.ui_scale if self.app is not None else scale.current()

    def change_scale(self, steps: int) -> None:
        """The window at once, one step larger or smaller (Save keeps it for the next start)."""
        if self.app is None:
            return
        self.app.set_scale(scale.clamp(self.ui_scale() + steps * scale.STEP))
        shown = scale.current()
        self.message = f"text size {self.ui_scale():.0%} (Save to keep it)"
        if abs(shown - self.ui_scale()) > 1e-9:
            self.message += f"; this window has room for {shown:.0%}"

    def next_theme(self) -> None:
        names = list(theme.THEMES)
        theme.apply(names[(names.index(theme.current_theme[0]) + 1) % len(names)])
        if self.app is not None:
            self.app.set_scale(self.app.ui_scale)          # every scene lays itself out in the new colours
        self.message = f"theme {theme.current_theme[0]} (Save to keep it)"

    def list_rect(self) -> pygame.Rect:
        w, h = self.size
        return pygame.Rect(30, 134, w - 60, h - 208)

    def row_at(self, pos) -> str | None:
        box = self.list_rect()
        if not box.collidepoint(pos):
            return None
        i = (pos[1] - box.y) // ROW_H + self.scroll
        ids = list(self.rulings)
        return ids[i] if 0 <= i < len(ids) else None

    def next_option(self, rid: str) -> None:
        # Only the options the program plays are offered (rulings.NOT_HONOURED).
        options = [o for o in self.rulings[rid].options if honoured(rid, o)]
        self.chosen[rid] = options[(options.index(self.chosen[rid]) + 1) % len(options)]
        self.message = ""

    def save(self) -> None:
        changed = {rid: opt for rid, opt in self.chosen.items() if opt != self.rulings[rid].default}
        target = paths.user_config_dir() / "settings.toml"      # an earlier version's file is left where it was
        try:
            preferences.write_table("rulings", changed)
            preferences.save_display(self.ui_scale(), theme.current_theme[0])
        except OSError as e:
            self.message = _("not saved: {file}: {reason}").format(file=target, reason=e.strerror or e)
            return
        self.message = ngettext("saved: {n} ruling differs from the recommended reading",
                                "saved: {n} rulings differ from the recommended reading", len(changed)).format(n=len(changed))

    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            key = self.buttons[event.ui_element]
            if key == "save":
                self.save()
            elif key in ("smaller", "larger"):
                self.change_scale(1 if key == "larger" else -1)
            elif key == "theme":
                self.next_theme()
            elif key == "reset":
                self.chosen = {rid: r.default for rid, r in self.rulings.items()}
                self.message = _("every ruling is back to the recommended reading (Save to keep it)")
            elif self.app is not None:
                self.app.pop()
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            rid = self.row_at(event.pos)
            if rid is not None:
                self.next_option(rid)
            return True
        if event.type == pygame.MOUSEWHEEL:
            most = max(0, len(self.rulings) - self.list_rect().h // ROW_H)
            self.scroll = max(0, min(most, self.scroll - event.y * 2))
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.app is not None:
            self.app.pop()
            return True
        return False

    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BACKGROUND)
        draw_text(surface, ellipsize(_("Settings: rulings for new battles, and the window"), surface.get_width() - 80, 26, True),
                  (40, 16), 26, True, theme.TEXT)
        draw_text(surface, self.look_text(), (40, 74), 15, True, theme.TEXT, "midleft")
        draw_text(surface, ellipsize(_("Click a ruling to switch its reading; the recommended one is the default. A "
                                       "scenario's own rulings still apply to its table. Explanations cite the ruling "
                                       "id."),
                                     surface.get_width() - 80, 14),
                  (40, 104), 14, False, theme.TEXT_DIM)
        box = self.list_rect()
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=6)
        old = surface.get_clip()
        surface.set_clip(box)
        for i, rid in enumerate(list(self.rulings)[self.scroll:]):
            y = box.y + i * ROW_H
            if y > box.bottom:
                break
            r = self.rulings[rid]
            opt = self.chosen[rid]
            changed = opt != r.default
            draw_text(surface, f"{rid}  {r.title}", (box.x + 14, y + 4), 14, True, theme.ACCENT if changed else theme.TEXT)
            tag = " (recommended)" if not changed else ""
            draw_text(surface, ellipsize(f"{opt}: {r.options[opt]}{tag}", box.w - 40, 13), (box.x + 28, y + 21), 13,
                      False, theme.TEXT_DIM)
        surface.set_clip(old)
        if self.message:
            w, h = surface.get_size()
            where = (640, h - 38) if w >= 1000 else (40, h - 74)     # beside the buttons, or above them
            draw_text(surface, ellipsize(self.message, w - where[0] - 10, 14), where, 14, False, theme.TEXT, "midleft")
        if self.manager is not None:
            self.manager.draw_ui(surface)
