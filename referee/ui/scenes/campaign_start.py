"""Campaign from the menu: start one (name, length, the two players and their factions) or continue one."""

from __future__ import annotations

import pygame
import pygame_gui

from ...game.campaigns.campaign import TARGETS, load_campaign
from ...service.campaigns import campaigns, new_campaign
from ...rules.errors import InputError
from ...rules.factions import available_factions
from .. import theme
from ..widgets import draw_text
from .pages import LinesScene

COLUMN_W = 560
LENGTHS = {f"{k} ({v} campaign points)": k for k, v in TARGETS.items()}


class CampaignStartScene(LinesScene):
    title = "Campaigns"
    heading = "Campaigns"
    subtitle = "A campaign is a series of battles between two players; the first to the points needed, or to 4 wins in a row, wins it [p.31]."

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, object] = {}
        self.continues: dict[object, object] = {}
        self.factions: dict[str, str] = {}
        self.values = {"name": "", "player-A": "", "player-B": "", "length": next(iter(LENGTHS)),
                       "faction-A": "", "faction-B": ""}

    def lines(self) -> list[tuple[str, str]]:
        return []

    def button_row(self) -> list[tuple[str, str, bool]]:
        return [("start", "Start the campaign", True), ("back", "Back", True)]

    def text_box(self, w: int, h: int) -> pygame.Rect:
        return pygame.Rect(0, 0, 0, 0)

    def build_extra(self, manager, size, bottom: int) -> None:
        w, _ = size
        x, y = 40, 130
        L, E, D = pygame_gui.elements.UILabel, pygame_gui.elements.UITextEntryLine, pygame_gui.elements.UIDropDownMenu
        self.factions = {f"{f.name} ({f.id})": f.id for f in available_factions()}
        names = list(self.factions) or ["no faction found"]
        self.fields = {}
        L(pygame.Rect(x, y - 34, COLUMN_W, 28), "Start a campaign", manager)
        rows = [("name", "Name", None), ("length", "Length", list(LENGTHS)), ("player-A", "Side A player", None),
                ("faction-A", "Side A faction", names), ("player-B", "Side B player", None),
                ("faction-B", "Side B faction", names)]
        for key, label, options in rows:
            L(pygame.Rect(x, y, 170, 34), label, manager)
            rect = pygame.Rect(x + 180, y, COLUMN_W - 180, 34)
            if options is None:
                entry = E(rect, manager)
                entry.set_text(self.values[key])
                self.fields[key] = entry
            else:
                current = self.values[key]
                if key.startswith("faction-") and current not in options:
                    current = options[min(1, len(options) - 1)] if key == "faction-B" else options[0]
                    self.values[key] = current
                choices: list[str | tuple[str, str]] = [*options]
                self.fields[key] = D(choices, current, rect, manager)
            y += 44
        # Continue: every campaign file in the campaigns folder.
        cx = x + COLUMN_W + 40
        cw = max(200, w - cx - 40)
        L(pygame.Rect(cx, 96, cw, 28), "Continue a campaign", manager)
        self.continues = {}
        cy = 130
        for path in campaigns():
            try:
                c, st = load_campaign(path)
                text = (f"{c.name}: {len(c.battles)} battles, A {st.sides['A'].campaign_points} · "
                        f"B {st.sides['B'].campaign_points} points" + (f", won by {st.winner}" if st.winner else ""))
            except InputError:
                text = f"{path.name} (cannot be read: open it to see why)"
            b = pygame_gui.elements.UIButton(pygame.Rect(cx, cy, cw, 36), text, manager, tool_tip_text=str(path))
            self.continues[b] = path
            cy += 42
            if cy > bottom - 50:
                break

    def handle_extra(self, event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.continues:
            self.open_campaign(self.continues[event.ui_element])
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for key, widget in self.fields.items():
                if widget is event.ui_element:
                    self.values[key] = event.text
            return True
        if event.type in (pygame_gui.UI_TEXT_ENTRY_CHANGED, pygame_gui.UI_TEXT_ENTRY_FINISHED):
            for key, widget in self.fields.items():
                if widget is event.ui_element:
                    self.values[key] = widget.get_text()
            return True
        return False

    def set_value(self, key: str, value: str) -> None:
        """As if typed or chosen (tests call it)."""
        self.values[key] = value

    def pressed(self, key: str) -> None:
        if key == "start":
            self.start()
        elif key == "back" and self.app is not None:
            self.app.pop()

    def start(self):
        v = self.values
        try:
            path = new_campaign(v["name"], LENGTHS.get(v["length"], v["length"]),
                                  {s: self.factions.get(v[f"faction-{s}"], v[f"faction-{s}"]) for s in ("A", "B")},
                                  {s: v[f"player-{s}"] for s in ("A", "B")})
        except InputError as e:
            self.say("error", e.message())
            return None
        return self.open_campaign(path)

    def open_campaign(self, path):
        return self.replace_scene("campaign", path)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if not self.continues:
            draw_text(surface, "no campaign yet", (40 + COLUMN_W + 40, 134), 14, False, theme.TEXT_DIM)
