"""The faction editor's layout: the widgets of the three columns (or of one page in a narrow window)."""

from __future__ import annotations

import pygame
import pygame_gui

from ... import paths
from ...rules.errors import InputError
from ...rules.factions import EMBLEMS, available_factions, faction_files
from ...rules.stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT
from ..faction_choices import left_out
from ..gui_managers import new_manager
from .faction_editor_base import FactionEditorBase
from .faction_editor_common import (
    CREATE,
    LOAD_PROMPT,
    NO_OPPONENT,
    SWATCHES,
    UPGRADE,
    WIDE,
    _choice_label,
)


class FactionEditorLayout(FactionEditorBase):
    """The pygame_gui widgets of the editor, rebuilt whenever the window, the mode or the page changes."""

    # ---- life cycle ----------------------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self._build(self.size)

    def on_resume(self) -> None:
        self._build(self.size)

    def on_resize(self, size) -> None:
        self._build(size)

    def _columns(self, size) -> dict:
        """Three columns side by side in a wide window; below WIDE the fields and the lines share one column,
        shown one page at a time (``page``), and the actions and problems stay on the right."""
        w, h = size
        if w >= WIDE:
            left_w = max(300, min(380, int(w * 0.28)))
            right_w = max(260, min(330, int(w * 0.25)))
            mid_x = 20 + left_w + 20
            mid_w = w - mid_x - right_w - 40
            return {"narrow": False, "top": 70, "left": (20, left_w), "mid": (mid_x, mid_w),
                    "right": (w - right_w - 20, right_w), "h": h}
        right_w = max(220, min(300, int(w * 0.28)))
        content_w = w - right_w - 60
        return {"narrow": True, "top": 106, "left": (20, min(380, content_w - 190)), "mid": (20, content_w),
                "right": (w - right_w - 20, right_w), "h": h}

    def _build(self, size) -> None:
        if self.manager is None:
            self.manager = new_manager(size)
        else:
            self.manager.set_window_resolution(size)
            self.manager.clear_and_reset()
        self.dialog = self.confirm = None
        m = self.manager
        cols = self._columns(size)
        self.layout = cols
        self.widgets, self.stat_buttons, self.emblem_buttons = {}, {}, {}
        UIButton = pygame_gui.elements.UIButton
        w, h = size

        # Top bar: load, new, back
        top_right = w - 20
        self.widgets["back"] = UIButton(pygame.Rect(top_right - 110, 14, 110, 34), "Back", m,
                                        tool_tip_text="back to the menu (Escape)")
        self.widgets["new"] = UIButton(pygame.Rect(top_right - 230, 14, 110, 34), "New", m,
                                       tool_tip_text="start a new faction")
        try:
            factions = available_factions()
        except (InputError, OSError):       # a broken folder must not keep the editor from opening
            factions = []
        self.choices = {_choice_label(f): f for f in factions}
        files = faction_files()
        self.choice_paths = {_choice_label(f): files.get(f.id) for f in factions}
        # Broken files are listed too, with the reason: choosing one shows every problem.
        self.broken = {f"{path.name} (cannot be used: {why})": path for path, why in left_out().items()}
        load_w = min(320, max(200, top_right - 250 - 420))
        self.layout["title_w"] = top_right - 250 - load_w - 40
        self.widgets["load"] = pygame_gui.elements.UIDropDownMenu(
            [LOAD_PROMPT, *self.choices, *self.broken], LOAD_PROMPT,
            pygame.Rect(top_right - 250 - load_w, 14, load_w, 34), m)

        top = cols["top"]
        show_fields = show_lines = True
        if cols["narrow"]:
            cx, cwid = cols["mid"]
            half = (cwid - 8) // 2
            pages = (("page_fields", "Name, colours, emblem", "fields"), ("page_lines", "Stat lines", "lines"))
            for i, (key, label, page) in enumerate(pages):
                b = UIButton(pygame.Rect(cx + i * (half + 8), 64, half, 32), label, m)
                if page == self.page:
                    b.select()
                self.widgets[key] = b
            show_fields, show_lines = self.page == "fields", self.page == "lines"
        self.layout["show_fields"], self.layout["show_lines"] = show_fields, show_lines
        self.swatch_rects = []
        if show_fields:
            self._build_fields(cols, top, h)
        if show_lines:
            self._build_lines(cols, top)
        self._build_actions(cols)

    def _build_fields(self, cols, top: int, h: int) -> None:
        m = self.manager
        UIButton, UILabel = pygame_gui.elements.UIButton, pygame_gui.elements.UILabel
        Entry = pygame_gui.elements.UITextEntryLine
        x, cw = cols["left"]
        y = top
        for key, title, limit in (("id", "Id (like iron-league; names the file)", 40),
                                  ("name", "Name", 48)):
            UILabel(pygame.Rect(x, y, cw, 22), title, m)
            entry = Entry(pygame.Rect(x, y + 22, cw, 34), m)
            entry.set_text_length_limit(max(limit, len(getattr(self.draft, key))))   # a longer loaded value still shows
            entry.set_text(getattr(self.draft, key))
            self.widgets[key] = entry
            y += 62
        UILabel(pygame.Rect(x, y, cw, 22), "Lore (optional)", m)
        lore = pygame_gui.elements.UITextEntryBox(pygame.Rect(x, y + 22, cw, 78), self.draft.lore, m)
        self.widgets["lore"] = lore
        y += 108
        self.swatch_rects = []
        for key, title in (("primary", "Primary colour"), ("secondary", "Secondary colour")):
            UILabel(pygame.Rect(x, y, cw, 22), title, m)
            entry = Entry(pygame.Rect(x, y + 22, 96, 30), m)
            entry.set_text_length_limit(max(7, len(getattr(self.draft, key))))
            entry.set_text(getattr(self.draft, key))
            self.widgets[key] = entry
            sx, size_sw = x + 104, max(12, min(18, (cw - 104) // len(SWATCHES) - 3))
            per_row = max(1, (cw - 104) // (size_sw + 3))
            for i, colour in enumerate(SWATCHES):
                r = pygame.Rect(sx + (i % per_row) * (size_sw + 3), y + 22 + (i // per_row) * (size_sw + 3) + 5,
                                size_sw, size_sw)
                self.swatch_rects.append((r, key, colour))
            y += 62
        UILabel(pygame.Rect(x, y, cw, 22), "Emblem", m)
        y += 24
        bw = (cw - 10) // 3
        for i, emblem in enumerate(EMBLEMS):
            b = UIButton(pygame.Rect(x + (i % 3) * (bw + 5), y + (i // 3) * 34, bw, 30), emblem.title(), m)
            if emblem == self.draft.emblem:
                b.select()
            self.emblem_buttons[b] = emblem
        y += 2 * 34 + 8
        if cols["narrow"]:
            mx, mw = cols["mid"]
            px = x + cw + 20
            self.layout["preview"] = pygame.Rect(px, top + 22, mx + mw - px, max(150, min(340, h - top - 60)))
        else:
            self.layout["preview"] = pygame.Rect(x, y, cw, max(90, min(130, h - y - 20)))

    def _build_lines(self, cols, top: int) -> None:
        m = self.manager
        UIButton = pygame_gui.elements.UIButton
        mx, mw = cols["mid"]
        half = (mw - 8) // 2
        create = UIButton(pygame.Rect(mx, top, half, 32), "Create: the three lines", m,
                          tool_tip_text="the lines as created: 6 points per rating [p.30, A46]")
        upgrade = UIButton(pygame.Rect(mx + half + 8, top, half, 32), "Campaign upgrades", m,
                           tool_tip_text="buy +1 to a stat with tech points [p.31, A45]")
        (create if self.mode == CREATE else upgrade).select()
        self.widgets["mode_create"], self.widgets["mode_upgrade"] = create, upgrade
        grid = self._grid(cols)
        self.layout["grid"] = grid
        for r_i, rating in enumerate(RATINGS):
            for s_i, stat in enumerate(STAT_NAMES):
                cell = grid["cell"](r_i, s_i)
                label = f"{RATING_TITLES[rating]} {STAT_SHORT[stat]}"
                if self.mode == CREATE:
                    minus = UIButton(pygame.Rect(cell.x + 2, cell.y + 8, 22, 26), "-", m,
                                     tool_tip_text=f"{label} -1")
                    self.stat_buttons[(rating, stat, -1)] = minus
                    plus = UIButton(pygame.Rect(cell.right - 24, cell.y + 8, 22, 26), "+", m,
                                    tool_tip_text=f"{label} +1")
                else:
                    plus = UIButton(pygame.Rect(cell.right - 24, cell.y + 8, 22, 26), "+", m,
                                    tool_tip_text=f"buy {label} +1 [p.31, A45]")
                self.stat_buttons[(rating, stat, 1)] = plus
        y = grid["bottom"] + 8
        if self.mode == UPGRADE:
            y = self._build_upgrade_controls(mx, mw, y)
        self.layout["units_top"] = y

    def _build_actions(self, cols) -> None:
        m = self.manager
        UIButton = pygame_gui.elements.UIButton
        rx, rw = cols["right"]
        bw = (rw - 8) // 2
        self.widgets["save"] = UIButton(pygame.Rect(rx, 70, bw, 36), "Save", m,
                                        tool_tip_text=f"to your factions folder: {paths.user_factions_dir()}")
        self.widgets["save_as"] = UIButton(pygame.Rect(rx + bw + 8, 70, bw, 36), "Save as file…", m,
                                           tool_tip_text="one .toml file to share or keep anywhere")
        self.widgets["sheet"] = UIButton(pygame.Rect(rx, 112, rw, 32), "Faction sheet (PNG)…", m,
                                         tool_tip_text="the printable sheet: stat lines, unit stats, emblem")
        self.layout["messages_top"] = 156
        self._seen = {k: self._widget_text(k) for k in ("id", "name", "lore", "primary", "secondary", "tech",
                                                        "battle") if k in self.widgets}

    def _build_upgrade_controls(self, mx: int, mw: int, y: int) -> int:
        m = self.manager
        UIButton, UILabel = pygame_gui.elements.UIButton, pygame_gui.elements.UILabel
        small, undo_w, gap = 84, 96, 8
        opp_w = max(150, mw - 2 * (small + gap) - undo_w - gap)
        UILabel(pygame.Rect(mx, y, opp_w, 22), "Opponent", m)
        options: list[str | tuple[str, str]] = [NO_OPPONENT, *self.choices]
        start = NO_OPPONENT
        if self.opponent is not None:
            start = _choice_label(self.opponent)
            if start not in options:
                options.append(start)
        self.widgets["opponent"] = pygame_gui.elements.UIDropDownMenu(
            options, start, pygame.Rect(mx, y + 22, opp_w, 32), m)
        ex = mx + opp_w + gap
        for key, title, hint, text in (("tech", "Tech pts", "unchecked", self.tech_text),
                                       ("battle", "Battle", "optional", self.battle_text)):
            UILabel(pygame.Rect(ex, y, small, 22), title, m)
            entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(ex, y + 22, small, 32), m, placeholder_text=hint)
            entry.set_text_length_limit(4)
            entry.set_text(text)
            self.widgets[key] = entry
            ex += small + gap
        self.widgets["undo"] = UIButton(pygame.Rect(ex, y + 22, max(80, mx + mw - ex), 32), "Undo last", m,
                                        tool_tip_text="take back the last upgrade")
        return y + 64

    def _grid(self, cols) -> dict:
        mx, mw = cols["mid"]
        label_w, points_w = (74, 84) if cols["narrow"] else (86, 96)
        cell_w = max(54, (mw - label_w - points_w) // len(STAT_NAMES))
        top = cols["top"] + 42
        head_h, row_h = 26, (56 if cols["narrow"] else 64) if self.mode == UPGRADE else 50

        def cell(r_i, s_i):
            return pygame.Rect(mx + label_w + s_i * cell_w, top + head_h + r_i * row_h, cell_w, row_h)

        return {"top": top, "head_h": head_h, "row_h": row_h, "label_w": label_w, "cell_w": cell_w,
                "points_x": mx + label_w + len(STAT_NAMES) * cell_w, "cell": cell,
                "bottom": top + head_h + len(RATINGS) * row_h}

    def _widget_text(self, key: str) -> str:
        box = self.widgets.get(key)
        return box.get_text() if box is not None else ""
