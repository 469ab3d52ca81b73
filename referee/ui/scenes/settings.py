"""Settings: the playing group's readings of the rulings, used by every new battle.

Each ruling of ``data/rulings.toml`` shows its options; a click moves to the next one. The choice is saved in the
user's data folder (``settings.toml``) and applied at set-up; a scenario's own ``rulings`` still win for that table.
"""

from __future__ import annotations

import pygame
import pygame_gui

from ...i18n import _, ngettext
from ... import paths
from ...rules.errors import InputError
from ...rules.files import read_document
from ...rules.rulings import catalogue, honoured
from ...storage import write_document
from .. import theme
from ..scene import Scene
from ..widgets import draw_text, ellipsize, gui_manager

ROW_H = 40


def settings_path():
    """The settings file read: in the user's settings folder (``paths.settings_file``)."""
    return paths.settings_file()


def group_rulings() -> dict[str, str]:
    """The saved choices that differ from the recommended reading; a broken or stale file gives none of them."""
    path = settings_path()
    try:
        data = read_document(path) if path.is_file() else {}
    except InputError:
        return {}
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

    def list_rect(self) -> pygame.Rect:
        w, h = self.size
        return pygame.Rect(30, 96, w - 60, h - 170)

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
            write_document(target, {"rulings": changed})
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
        draw_text(surface, _("Settings: rulings for new battles"), (40, 24), 26, True, theme.TEXT)
        draw_text(surface, _("Click a ruling to switch its reading; the recommended one is the default. A scenario's own "
                           "rulings still apply to its table. Explanations cite the ruling id."),
                  (40, 62), 14, False, theme.TEXT_DIM)
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
            draw_text(surface, self.message, (640, surface.get_height() - 38), 14, False, theme.TEXT, "midleft")
        if self.manager is not None:
            self.manager.draw_ui(surface)
