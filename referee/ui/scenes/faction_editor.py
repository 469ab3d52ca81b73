"""The faction editor: make a faction by the creation rules, or buy its campaign upgrades, and save it for play.

* Left: id, name, lore, colours (swatches or #rrggbb) and emblem, with a preview of the badge.
* Middle: the three rating lines with - and + per stat and the points left per rating (p.30, ruling A46); below them
  each unit type's stats at each rating (faction line + type modifiers, ruling A5).
* Right: Save / Save as file / faction sheet, the result of the last action and every problem, live.
* "Campaign upgrades" turns the + buttons into purchases priced and checked by the campaign rules (p.31, A45).

Every rule comes from elsewhere: the draft (``authoring.draft``) refuses edits the rules forbid, the problems are
those of ``faction validate`` (``faction_io.faction_problems``), purchases are checked by ``campaign_upgrades``.
A saved faction goes to the user's factions folder, the same place as ``seven-seconds faction new``, and is
listed by ``rules.factions.available_factions()`` at once.

Escape returns to the menu; with unsaved changes the first Escape warns and the second discards them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pygame
import pygame_gui

from ...authoring.draft import FactionDraft, unit_rows
from ...rules.campaign_upgrades import UpgradeCheck
from ...rules.factions import EMBLEMS, Faction
from ...rules.stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT
from .. import keys
from ..keys import CTRL, CTRL_SHIFT_Z, Key
from .faction_editor_common import CREATE, UPGRADE
from .faction_editor_drawing import FactionEditorDrawing
from .faction_editor_files import FactionEditorFiles
from .faction_editor_layout import FactionEditorLayout


class FactionEditorScene(FactionEditorFiles, FactionEditorLayout, FactionEditorDrawing):
    title = "Factions"
    key_table = (("Campaign upgrades", (
        Key("Ctrl+Y / Ctrl+Shift+Z", "buy again the upgrade last taken back", "redo_upgrade", (pygame.K_y, pygame.K_z),
            CTRL_SHIFT_Z),
        Key("Ctrl+Z", "take back the last upgrade", "undo_upgrade", (pygame.K_z,), CTRL),
    )),)

    def __init__(self, faction: Faction | None = None, source: Path | None = None) -> None:
        super().__init__()
        self.manager: pygame_gui.UIManager | None = None
        self.draft = FactionDraft.from_faction(faction) if faction is not None else FactionDraft()
        self.undone_upgrades: list[tuple[str, str]] = []      # (rating, stat) taken back, newest last, for redo
        self.source: Path | None = source          # the file the faction was loaded from (saved over without asking)
        self.baseline = self.draft.data()
        self.mode = UPGRADE if faction is not None and faction.upgrades else CREATE
        self.opponent: Faction | None = None
        self.tech_text = ""
        self.battle_text = ""
        self.message = ("", "")                    # (kind: ok / error / note, text)
        self.escape_armed = False
        self.page = "fields" if faction is None else "lines"     # the page shown in a narrow window
        # pygame_gui elements of several kinds (text entries, buttons, drop-downs), looked up by name.
        self.widgets: dict[str, Any] = {}
        self.stat_buttons: dict[tuple[str, str, int], pygame_gui.elements.UIButton] = {}
        self.emblem_buttons: dict[pygame_gui.elements.UIButton, str] = {}
        self.choices: dict[str, Faction] = {}
        self.choice_paths: dict[str, Path | None] = {}
        self.broken: dict[str, Path] = {}               # unusable faction files, shown with the reason
        self.dialog: pygame_gui.windows.UIFileDialog | None = None
        self.dialog_purpose = ""
        self.confirm: pygame_gui.windows.UIConfirmationDialog | None = None
        self.pending: Callable[[], object] | None = None
        self.question = ""
        self.swatch_rects: list[tuple[pygame.Rect, str, str]] = []
        # Column boxes (x, width), rectangles and flags of the current layout, by name (see _columns).
        self.layout: dict[str, Any] = {}
        self.faction: Faction | None = None
        self.problems: list[str] = []
        self.preview: Faction | None = None
        self.rows: list = []
        self.purchases: dict[tuple[str, str], UpgradeCheck | str] = {}
        self._seen = {}
        self.refresh()

    # ---- state ------------------------------------------------------------------------------------------------
    @property
    def dirty(self) -> bool:
        return self.draft.data() != self.baseline

    def refresh(self) -> None:
        """Recompute everything shown from the draft: problems, preview, derived stats, purchase checks."""
        self.faction, self.problems = self.draft.check()
        self.preview = self.draft.preview()
        self.rows = unit_rows(self.preview) if self.preview is not None else []
        self.purchases = {}
        if self.mode == UPGRADE:
            tech, _ = self.tech_points()
            for rating in RATINGS:
                for stat in STAT_NAMES:
                    self.purchases[(rating, stat)] = self.draft.check_purchase(rating, stat, self.opponent, tech)
        if self.escape_armed and not self.dirty:
            self.escape_armed = False

    def tech_points(self) -> tuple[int | None, str]:
        """Tech points typed (None when the box is empty: purchases are then checked without a budget)."""
        text = self.tech_text.strip()
        if not text:
            return None, ""
        if not text.isdigit():
            return None, f"tech points: expected a whole number, 0 or more (got {text!r})"
        return int(text), ""

    def battle(self) -> tuple[int | None, str]:
        text = self.battle_text.strip()
        if not text:
            return None, ""
        if not text.isdigit() or int(text) < 1:
            return None, f"battle: expected a battle number, 1 or more (got {text!r})"
        return int(text), ""

    def say(self, kind: str, text: str) -> None:
        self.message = (kind, text)

    # ---- editing (called by the buttons; tests call them directly) ---------------------------------------------
    def set_field(self, key: str, value: str) -> None:
        """Set a header field (id, name, lore, primary, secondary) as if typed, and the box showing it."""
        setattr(self.draft, key, value)
        box = self.widgets.get(key)
        if box is not None and box.get_text() != value:
            limit = getattr(box, "length_limit", None)
            if limit is not None and len(value) > limit:
                box.set_text_length_limit(len(value))
            box.set_text(value)
        # what the box shows now counts as seen, so the next frame does not copy an old text back into the draft
        self._seen[key] = box.get_text() if box is not None else value
        self.refresh()

    def set_emblem(self, emblem: str) -> None:
        if emblem in EMBLEMS:
            self.draft.emblem = emblem
            for button, name in self.emblem_buttons.items():
                button.select() if name == emblem else button.unselect()
            self.refresh()

    def change_stat(self, rating: str, stat: str, step: int) -> bool:
        """+1 or -1 to a created stat (create mode) or buy +1 (upgrade mode). Refusals show the rule."""
        label = f"{RATING_TITLES[rating]} {STAT_SHORT[stat]}"
        if self.mode == UPGRADE:
            return self.buy(rating, stat) if step > 0 else False
        refusal = self.draft.raise_stat(rating, stat) if step > 0 else self.draft.lower_stat(rating, stat)
        if refusal:
            self.say("error", f"{label} {'+' if step > 0 else '-'}1 refused: {refusal}")
        else:
            left = self.draft.points_left(rating)
            self.say("note", f"{label} {self.draft.value(rating, stat)}; {RATING_TITLES[rating]} has {left} point"
                             f"{'' if left == 1 else 's'} left")
        self.refresh()
        return not refusal

    def buy(self, rating: str, stat: str) -> bool:
        label = f"{RATING_TITLES[rating]} {STAT_SHORT[stat]}"
        tech, tech_problem = self.tech_points()
        battle, battle_problem = self.battle()
        if tech_problem or battle_problem:
            self.say("error", f"{label} not bought: " + "; ".join(p for p in (tech_problem, battle_problem) if p))
            return False
        check = self.draft.buy(rating, stat, self.opponent, tech, battle)
        if isinstance(check, str):
            self.say("error", f"{label} not bought: {check}")
        elif not check.allowed:
            self.say("error", f"{label} +1 refused: {check.reason}")
        else:
            halved = " (halved: the opponent's is higher)" if check.halved else ""
            text = f"Bought {label} {check.current} -> {check.raised_to} for {check.cost} tech points{halved} [p.31]"
            if check.remaining is not None:
                self._set_tech(str(check.remaining))
                text += f"; {check.remaining} left, banked [A45]"
            self.say("ok", text)
        self.refresh()
        return not isinstance(check, str) and check.allowed

    def undo_upgrade(self) -> None:
        undone = self.draft.undo_upgrade()
        if undone is None:
            self.say("note", "No upgrades to undo.")
        else:
            self.undone_upgrades.append((undone.rating, undone.stat))
            text = f"Took back {RATING_TITLES[undone.rating]} {STAT_SHORT[undone.stat]} +1"
            tech, problem = self.tech_points()
            if tech is not None and not problem:
                self._set_tech(str(tech + undone.cost))
                text += f"; {undone.cost} tech points returned"
            self.say("note", text)
        self.refresh()

    def redo_upgrade(self) -> None:
        """Buy again the upgrade last taken back, checked by the campaign rules as any purchase."""
        if not self.undone_upgrades:
            self.say("note", "No upgrade to redo.")
            return
        rating, stat = self.undone_upgrades.pop()
        if not self.buy(rating, stat):
            self.undone_upgrades.clear()

    def _set_tech(self, text: str) -> None:
        self.tech_text = text
        box = self.widgets.get("tech")
        if box is not None:
            box.set_text(text)
        self._seen["tech"] = text

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.refresh()
        self._build(self.size)

    def show_page(self, page: str) -> None:
        self.page = page
        self._build(self.size)

    def set_opponent(self, faction: Faction | None) -> None:
        """The campaign opponent: a cost is halved when their stat at that rating is higher (p.31, A45)."""
        self.opponent = faction
        self.refresh()
        self._build(self.size)

    # ---- events -----------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if (self.dialog is not None and self.dialog.alive()) or (self.confirm is not None and self.confirm.alive()):
                self._close_dialogs()
            else:
                self.leave()
            return True
        if event.type == pygame.KEYDOWN and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META) \
                and keys.dispatch(self.key_table, self, event):
            return True
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._button(event.ui_element)
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.widgets.get("load") and event.text in self.choices:
                self.load(str(self.choice_paths.get(event.text) or self.choices[event.text].id))
            elif event.ui_element is self.widgets.get("load") and event.text in self.broken:
                self.load(str(self.broken[event.text]))
            elif event.ui_element is self.widgets.get("opponent"):
                self.set_opponent(self.choices.get(event.text))
            return True
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
            purpose, self.dialog = self.dialog_purpose, None
            if purpose == "sheet":
                self.save_sheet(event.text)
            else:
                self.save(event.text)
            return True
        if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and event.ui_element is self.confirm:
            then, self.pending, self.confirm = self.pending, None, None
            if then is not None:
                then()
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE:
            if event.ui_element is self.dialog:
                self.dialog = None
            elif event.ui_element is self.confirm:
                self.confirm, self.pending = None, None
            return True
        if event.type in (pygame_gui.UI_TEXT_ENTRY_CHANGED, pygame_gui.UI_TEXT_ENTRY_FINISHED):
            self._poll_fields()
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for rect, key, colour in self.swatch_rects:
                if rect.collidepoint(event.pos):
                    self.set_field(key, colour)
                    return True
        return False

    def _button(self, el) -> bool:
        for (rating, stat, step), button in self.stat_buttons.items():
            if el is button:
                self.change_stat(rating, stat, step)
                return True
        if el in self.emblem_buttons:
            self.set_emblem(self.emblem_buttons[el])
        elif el is self.widgets.get("save"):
            self.save()
        elif el is self.widgets.get("save_as"):
            self.open_file_dialog("save")
        elif el is self.widgets.get("sheet"):
            self.open_file_dialog("sheet")
        elif el is self.widgets.get("new"):
            self.start_new()
        elif el is self.widgets.get("back"):
            self.leave()
        elif el is self.widgets.get("mode_create"):
            self.set_mode(CREATE)
        elif el is self.widgets.get("mode_upgrade"):
            self.set_mode(UPGRADE)
        elif el is self.widgets.get("undo"):
            self.undo_upgrade()
        elif el is self.widgets.get("page_fields"):
            self.show_page("fields")
        elif el is self.widgets.get("page_lines"):
            self.show_page("lines")
        else:
            return False
        return True

    def _poll_fields(self) -> None:
        """Copy what was typed into the draft (checked live on the next refresh)."""
        changed = False
        for key in ("id", "name", "lore", "primary", "secondary", "tech", "battle"):
            if key not in self.widgets:
                continue
            text = self._widget_text(key)
            if self._seen.get(key) == text:
                continue
            self._seen[key] = text
            changed = True
            if key == "tech":
                self.tech_text = text
            elif key == "battle":
                self.battle_text = text
            else:
                setattr(self.draft, key, text)
        if changed:
            self.refresh()

    # ---- the loop -----------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.manager is not None:
            self._poll_fields()
            self.manager.update(dt)
