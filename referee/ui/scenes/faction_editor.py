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

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pygame
import pygame_gui

from ... import paths
from ...authoring.draft import FactionDraft, modified_stats, unit_rows
from ...authoring.faction_io import check_faction_file, default_faction_path, save_faction
from ...rules.campaign_upgrades import UpgradeCheck
from ...rules.errors import InputError
from ...rules.factions import EMBLEMS, STAT_MAX, Faction, available_factions, faction_dirs, faction_files
from ...rules.stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT
from .. import theme
from ..scene import Scene
from ..widgets import draw_text, ellipsize, line_height, panel, wrap

SWATCHES = ("#3c6e9f", "#1f8a8a", "#2f8f4e", "#8a9a2c", "#c8962d", "#e07b2a", "#b23a3a", "#a0417a", "#6b4fa0",
            "#5a4634", "#2b2b2b", "#f0f0f0")
NEW_FACTION = "New faction"
LOAD_PROMPT = "Load a faction…"
NO_OPPONENT = "No opponent (full cost)"
OK = (110, 210, 130)

CREATE, UPGRADE = "create", "upgrade"
WIDE = 1180            # narrower windows show the fields and the stat lines one page at a time


@lru_cache(maxsize=32)
def _badge(emblem: str, primary: str, secondary: str, radius: int) -> pygame.Surface:
    """The emblem badge as on the faction sheet (drawn once per look)."""
    from ...authoring.sheet import draw_emblem

    surface = pygame.Surface((radius * 2, radius * 2), pygame.SRCALPHA)
    draw_emblem(surface, emblem, (radius, radius), radius, theme.hex_colour(primary), theme.hex_colour(secondary))
    return surface


def _valid_hex(text: str) -> bool:
    text = text.strip()
    return len(text) == 7 and text[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in text[1:])


def _choice_label(f: Faction) -> str:
    return f"{f.name} ({f.id})"


class FactionEditorScene(Scene):
    title = "Factions"

    def __init__(self, faction: Faction | None = None, source: Path | None = None) -> None:
        super().__init__()
        self.manager: pygame_gui.UIManager | None = None
        self.draft = FactionDraft.from_faction(faction) if faction is not None else FactionDraft()
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
        self._seen: dict[str, str] = {}
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
            text = f"Took back {RATING_TITLES[undone.rating]} {STAT_SHORT[undone.stat]} +1"
            tech, problem = self.tech_points()
            if tech is not None and not problem:
                self._set_tech(str(tech + undone.cost))
                text += f"; {undone.cost} tech points returned"
            self.say("note", text)
        self.refresh()

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

    # ---- loading and saving -----------------------------------------------------------------------------------------
    def start_new(self, confirmed: bool = False) -> None:
        if self.dirty and not confirmed:
            self.ask("Start a new faction? The unsaved changes to this one are lost.", "Discard",
                     lambda: self.start_new(True))
            return
        self.draft, self.source, self.mode = FactionDraft(), None, CREATE
        self.baseline = self.draft.data()
        self.say("note", "New faction: every stat starts at 1; add 6 points to each rating [p.30, A46].")
        self.refresh()
        self._build(self.size)

    def load(self, ref: str, confirmed: bool = False) -> bool:
        """Open a faction (id or file) to edit it or buy its upgrades. A file with problems is not opened."""
        if self.dirty and not confirmed:
            self.ask(f"Open {ref}? The unsaved changes to this faction are lost.", "Discard",
                     lambda: self.load(ref, True))
            return False
        from ...rules.factions import forget_factions

        forget_factions()
        path = faction_files().get(ref) or Path(ref)
        faction, problems = check_faction_file(path)
        if problems or faction is None:
            self.say("error", f"Could not open {path}: " + "; ".join(problems))
            self._build(self.size)
            return False
        self.draft, self.source = FactionDraft.from_faction(faction), path
        self.baseline = self.draft.data()
        self.mode = UPGRADE if faction.upgrades else CREATE
        bundled = self._is_bundled(path)
        note = (" It is a bundled faction: give your copy its own id before saving, or use Save as file."
                if bundled else "")
        self.say("note", f"Opened {faction.name} from {path}.{note}")
        self.refresh()
        self._build(self.size)
        return True

    @staticmethod
    def _is_bundled(path: Path) -> bool:
        try:
            return path.resolve().parent == faction_dirs()[0].resolve()
        except OSError:
            return False

    def save(self, path: Path | str | None = None, confirmed: bool = False) -> Path | None:
        """Save the faction (default: the user's factions folder, ``<id>.toml``). Refused with every problem."""
        faction, problems = self.draft.check()
        if problems or faction is None:
            n = len(problems)
            self.say("error", f"Not saved: {n} problem{'s' if n > 1 else ''} to fix first (listed below).")
            self.refresh()
            return None
        target = Path(path) if path is not None else default_faction_path(faction)
        same_file = self.source is not None and self._same(target, self.source)
        if not confirmed and not same_file:
            bundled = faction_dirs()[0] / f"{faction.id}.toml"
            if path is None and bundled.exists():
                self.ask(f"'{faction.id}' is a bundled faction. A custom faction with that id replaces it in every "
                         "game. Save it anyway?", "Replace", lambda: self.save(path, True))
                return None
            if target.exists():
                existing, _ = check_faction_file(target)
                if existing != faction:
                    what = f"the faction '{existing.id}'" if existing is not None else "a file that is not this faction"
                    self.ask(f"{target} already holds {what}. Replace it?", "Replace", lambda: self.save(path, True))
                    return None
        try:
            written = save_faction(faction, target, overwrite=True)
        except InputError as e:
            self.say("error", f"Not saved: {e.message()}")
            return None
        self.source = written
        self.baseline = self.draft.data()
        self.escape_armed = False
        if written.resolve().parent == paths.user_factions_dir().resolve():
            self.say("ok", f"Saved {faction.name} to {written}. It can be chosen for a battle now as "
                           f"'{faction.id}'.")
        else:
            self.say("ok", f"Saved {faction.name} to {written}. Share this one file; put it in your factions "
                           f"folder ({paths.user_factions_dir()}) to play with it.")
        self.refresh()
        self._build(self.size)
        return written

    def save_sheet(self, path: Path | str) -> Path | None:
        from ...authoring.sheet import save_sheet

        if self.faction is None:
            self.say("error", "No sheet: the faction has problems to fix first (listed below).")
            return None
        try:
            written = save_sheet(self.faction, path)
        except InputError as e:
            self.say("error", f"No sheet: {e.message()}")
            return None
        self.say("ok", f"Faction sheet written to {written}")
        return written

    @staticmethod
    def _same(a: Path, b: Path) -> bool:
        try:
            return a.resolve() == b.resolve()
        except OSError:
            return False

    def leave(self) -> None:
        """Escape or Back: leave at once when saved; with unsaved changes warn first, leave on the second time."""
        if self.dirty and not self.escape_armed:
            self.escape_armed = True
            self.say("error", "Unsaved changes. Press Escape (or Back) again to leave without saving them, or Save.")
            return
        if self.app is not None:
            self.app.pop()

    # ---- dialogs ----------------------------------------------------------------------------------------------------
    def ask(self, question: str, action: str, then) -> None:
        self._close_dialogs()
        w, h = self.size
        rect = pygame.Rect(0, 0, min(460, w - 40), 220)
        rect.center = (w // 2, h // 2)
        self.pending, self.question = then, question
        if self.manager is None:
            return
        self.confirm = pygame_gui.windows.UIConfirmationDialog(rect, question, self.manager, window_title="Confirm",
                                                               action_short_name=action)

    def open_file_dialog(self, purpose: str) -> None:
        self._close_dialogs()
        fid = self.draft.id if self.draft.id.strip() else "faction"
        if purpose == "sheet":
            start, title, suffixes = paths.user_data_dir() / "sheets" / f"{fid}.png", "Faction sheet (PNG)", {".png"}
        else:
            start, title, suffixes = paths.user_factions_dir() / f"{fid}.toml", "Save faction as", {".toml"}
        try:
            start.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            start = Path.cwd() / start.name
        w, h = self.size
        rect = pygame.Rect(0, 0, min(640, w - 40), min(500, h - 40))
        rect.center = (w // 2, h // 2)
        self.dialog_purpose = purpose
        self.dialog = pygame_gui.windows.UIFileDialog(rect, self.manager, window_title=title,
                                                      initial_file_path=str(start), allowed_suffixes=suffixes,
                                                      allow_existing_files_only=False)

    def _close_dialogs(self) -> None:
        for d in (self.dialog, self.confirm):
            if d is not None and d.alive():
                d.kill()
        self.dialog = self.confirm = None

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
            self.manager = pygame_gui.UIManager(size, theme.gui_theme())
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
        from ..faction_choices import left_out

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

    # ---- events -----------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if (self.dialog is not None and self.dialog.alive()) or (self.confirm is not None and self.confirm.alive()):
                self._close_dialogs()
            else:
                self.leave()
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

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill(theme.BACKGROUND)
        title = self.draft.name.strip() or "New faction"
        draw_text(surface, "Faction editor", (20, 12), 24, True, theme.TEXT)
        where = f"file: {self.source}" if self.source is not None else "not saved yet"
        status = where + ("   \u2022 unsaved changes" if self.dirty else "")
        status = ellipsize(f"{title}  \u00b7  {status}", self.layout.get("title_w", w // 2), 13)
        draw_text(surface, status, (20, 44), 13, False,
                  theme.ACCENT if self.dirty else theme.TEXT_DIM)
        if self.layout:
            if self.layout["show_fields"]:
                self._draw_swatches(surface)
                self._draw_preview(surface)
            if self.layout["show_lines"]:
                self._draw_grid(surface)
                self._draw_units(surface)
            self._draw_messages(surface)
        if self.manager is not None:
            self.manager.draw_ui(surface)

    def _draw_swatches(self, surface) -> None:
        for rect, key, colour in self.swatch_rects:
            surface.fill(theme.hex_colour(colour), rect)
            chosen = getattr(self.draft, key).lower() == colour
            pygame.draw.rect(surface, theme.ACCENT if chosen else theme.PANEL_EDGE, rect.inflate(4, 4) if chosen
                             else rect, 2 if chosen else 1)

    def _draw_preview(self, surface) -> None:
        """The badge, name and lore in the faction's colours; beside the text in a wide box, above it in a tall one."""
        box = self.layout["preview"]
        primary = self.draft.primary if _valid_hex(self.draft.primary) else "#3c6e9f"
        secondary = self.draft.secondary if _valid_hex(self.draft.secondary) else "#f0f0f0"
        emblem = self.draft.emblem if self.draft.emblem in EMBLEMS else EMBLEMS[0]
        fill = theme.hex_colour(primary)
        panel(surface, box, fill, theme.PANEL_EDGE, 6)
        ink = theme.text_on(fill)
        tall = box.width < 260
        if tall:
            radius = max(20, min(52, (box.width - 24) // 2))
            surface.blit(_badge(emblem, primary.lower(), secondary.lower(), radius),
                         (box.centerx - radius, box.y + 12))
            tx, ty, text_w = box.x + 10, box.y + 2 * radius + 24, box.width - 20
        else:
            radius = max(20, min(52, box.height // 2 - 8))
            surface.blit(_badge(emblem, primary.lower(), secondary.lower(), radius),
                         (box.x + 10, box.centery - radius))
            tx, ty = box.x + 2 * radius + 22, box.y + 12
            text_w = box.right - tx - 10
        name = self.draft.name.strip() or "Unnamed faction"
        for line in wrap(name, text_w, 18, True)[:2]:
            draw_text(surface, ellipsize(line, text_w, 18, True), (tx, ty), 18, True, ink)
            ty += 24
        lore = " ".join(self.draft.lore.split())
        if lore:
            ty += 8
            lines = wrap(lore, text_w, 12)
            room = max(0, (box.bottom - 6 - ty) // 16)
            for i, line in enumerate(lines[:room]):
                if i == room - 1 and len(lines) > room:
                    line = line.rstrip() + "\u2026"
                draw_text(surface, ellipsize(line, text_w, 12), (tx, ty + i * 16), 12, False, ink)

    def _draw_grid(self, surface) -> None:
        g = self.layout["grid"]
        mx, mw = self.layout["mid"]
        top, head_h = g["top"], g["head_h"]
        for s_i, stat in enumerate(STAT_NAMES):
            cell = g["cell"](0, s_i)
            draw_text(surface, STAT_SHORT[stat], (cell.centerx, top + 4), 14, True, theme.TEXT_DIM, "midtop")
        heading = "Points left" if self.mode == CREATE else "Sum"
        draw_text(surface, heading, (g["points_x"] + 8, top + 4), 14, True, theme.TEXT_DIM)
        for r_i, rating in enumerate(RATINGS):
            row = pygame.Rect(mx, top + head_h + r_i * g["row_h"], mw, g["row_h"])
            panel(surface, row.inflate(0, -4), theme.PANEL if r_i % 2 == 0 else theme.PANEL_ALT, theme.PANEL_EDGE, 4)
            draw_text(surface, RATING_TITLES[rating], (mx + 8, row.y + 12), 14 if self.layout["narrow"] else 15, True,
                      theme.TEXT)
            if self.mode == CREATE:
                left = self.draft.points_left(rating)
                colour = OK if left == 0 else theme.ACCENT if left > 0 else theme.ERROR
                text = "all 6 spent" if left == 0 else f"{left} left" if left > 0 else f"{-left} too many"
                draw_text(surface, text, (g["points_x"] + 8, row.y + 12), 15, True, colour)
                draw_text(surface, f"sum {sum(self.draft.line(rating).values())}", (g["points_x"] + 8, row.y + 30),
                          12, False, theme.TEXT_FAINT)
            else:
                total = sum(self.draft.current(rating, s) for s in STAT_NAMES)
                draw_text(surface, f"sum {total}", (g["points_x"] + 8, row.y + 12), 15, True, theme.TEXT)
            for s_i, stat in enumerate(STAT_NAMES):
                cell = g["cell"](r_i, s_i)
                if self.mode == CREATE:
                    value = self.draft.value(rating, stat)
                    colour = theme.ERROR if value > STAT_MAX else theme.TEXT
                    draw_text(surface, str(value), (cell.centerx, cell.y + 21), 20, True, colour, "center")
                    added = self.draft.added[rating][stat]
                    if added:
                        draw_text(surface, f"+{added}", (cell.centerx, cell.y + 38), 11, False, theme.ACCENT, "center")
                else:
                    self._draw_upgrade_cell(surface, cell, rating, stat)

    def _draw_upgrade_cell(self, surface, cell, rating, stat) -> None:
        value, created = self.draft.current(rating, stat), self.draft.value(rating, stat)
        draw_text(surface, str(value), (cell.centerx - 8, cell.y + 21), 20, True,
                  theme.ACCENT if value != created else theme.TEXT, "center")
        if value != created:
            draw_text(surface, f"was {created}", (cell.centerx - 8, cell.y + 38), 10, False, theme.TEXT_FAINT, "center")
        check = self.purchases.get((rating, stat))
        if isinstance(check, UpgradeCheck):
            if check.allowed:
                text = f"{check.cost} pt{'s' if check.cost != 1 else ''}" + (" \u00bd" if check.halved else "")
                colour = OK
            elif check.raised_to > STAT_MAX:
                text, colour = "max 5", theme.TEXT_FAINT
            elif check.tech_points is not None and check.tech_points < check.cost and "above" not in check.reason:
                text, colour = f"{check.cost} pts", theme.ERROR
            else:
                text, colour = "capped", theme.TEXT_FAINT
            draw_text(surface, text, (cell.centerx, cell.bottom - 12), 11, False, colour, "center")

    def _draw_units(self, surface) -> None:
        mx, mw = self.layout["mid"]
        y = self.layout["units_top"] + 4
        draw_text(surface, "Unit stats at each rating", (mx, y), 16, True, theme.TEXT)
        draw_text(surface, "faction line + unit type modifiers [A5]", (mx + mw, y + 3), 12, False,
                  theme.TEXT_FAINT, "topright")
        y += 26
        if not self.rows:
            draw_text(surface, "(shown when the lines can be read)", (mx, y), 13, False, theme.TEXT_FAINT)
            return
        name_w = 112
        gap = 10
        group_w = (mw - name_w - 2 * gap) // 3
        col_w = group_w / 5
        xs = [mx + name_w + i * (group_w + gap) for i in range(3)]
        for i, rating in enumerate(RATINGS):
            panel(surface, pygame.Rect(xs[i], y, group_w, 20), theme.HEADER, theme.HEADER, 3)
            draw_text(surface, RATING_TITLES[rating], (xs[i] + group_w // 2, y + 10), 13, True, theme.TEXT, "center")
        y += 22
        for i in range(3):
            for k, stat in enumerate(STAT_NAMES[:5]):
                draw_text(surface, STAT_SHORT[stat], (xs[i] + col_w * k + col_w / 2, y + 8), 11, False,
                          theme.TEXT_FAINT, "center")
        y += 18
        marked = modified_stats()
        lh = 22
        bottom = self.layout["h"] - 10
        for n, (name, per) in enumerate(self.rows):
            if y + lh > bottom:
                break
            if n % 2 == 0:
                surface.fill(theme.PANEL, (mx, y, mw, lh))
            draw_text(surface, name, (mx + 6, y + lh // 2), 13, False, theme.TEXT, "midleft")
            raised = marked.get(name, set())
            for i, rating in enumerate(RATINGS):
                values = per[rating]
                if len(values) == 1:
                    draw_text(surface, f"Rob {values[0]}", (xs[i] + group_w / 2, y + lh // 2), 13, True,
                              theme.TEXT, "center")
                    continue
                for k, v in enumerate(values):
                    stat = STAT_NAMES[k]
                    colour = theme.ACCENT if stat in raised else theme.TEXT if v != "-" else theme.TEXT_FAINT
                    draw_text(surface, v, (xs[i] + col_w * k + col_w / 2, y + lh // 2), 13, stat in raised, colour,
                              "center")
            y += lh
        if y + 34 < bottom:
            note = ("Yellow: raised by the unit type (Assault Arm +1, Scout Sen and Stl +1, Engineer CM +1); a unit "
                    "stat may reach 6 [A5]. Commanders carry no missile; drones use only Rob.")
            for i, line in enumerate(wrap(note, mw, 12)[:3]):
                draw_text(surface, line, (mx, y + 6 + i * 16), 12, False, theme.TEXT_FAINT)

    def _draw_messages(self, surface) -> None:
        rx, rw = self.layout["right"]
        y = self.layout["messages_top"]
        bottom = self.layout["h"] - 12
        kind, text = self.message
        size = 13
        lh = line_height(size)
        if text:
            colour = {"ok": OK, "error": theme.ERROR}.get(kind, theme.TEXT)
            lines = wrap(text, rw - 20, size)[:8]
            box = pygame.Rect(rx, y, rw, 14 + lh * len(lines))
            edge = colour if kind in ("ok", "error") else theme.PANEL_EDGE
            panel(surface, box, theme.PANEL, edge, 6)
            for i, line in enumerate(lines):
                draw_text(surface, line, (rx + 10, y + 7 + i * lh), size, False, colour)
            y = box.bottom + 12
        problems = list(self.problems)
        if self.mode == UPGRADE:
            problems += [p for p in (self.tech_points()[1], self.battle()[1]) if p]
        if problems:
            n = len(problems)
            draw_text(surface, f"{n} problem{'s' if n > 1 else ''}: not ready to save", (rx, y), 15, True,
                      theme.ERROR)
        else:
            draw_text(surface, "No problems: ready to save", (rx, y), 15, True, OK)
        y += 26
        for p in problems:
            lines = wrap("\u2022 " + p, rw - 6, size, False, 2)
            if y + lh * len(lines) > bottom:
                draw_text(surface, "\u2026 (more: fix these first)", (rx, y), size, False, theme.TEXT_FAINT)
                return
            for line in lines:
                draw_text(surface, line, (rx, y), size, False, theme.TEXT)
                y += lh
            y += 4
        if self.mode == UPGRADE:
            y += 8
            ups = self.draft.upgrades
            draw_text(surface, f"Campaign upgrades bought: {len(ups)}", (rx, y), 15, True, theme.TEXT)
            y += 24
            for i, up in enumerate(ups, 1):
                if y + lh > bottom:
                    draw_text(surface, "\u2026", (rx, y), size, False, theme.TEXT_FAINT)
                    break
                after = f", after battle {up.battle}" if up.battle else ""
                draw_text(surface, f"{i}. {RATING_TITLES[up.rating]} {STAT_SHORT[up.stat]} +1 for {up.cost}{after}",
                          (rx, y), size, False, theme.TEXT_DIM)
                y += lh
            y += 8
            hint = ("Costs: Reserve 2, Veteran 4, Spec Ops 6 tech points, halved when the opponent's stat is "
                    "higher; at most 5, and never above the rating above [p.31, A45]. Unspent points bank.")
            for line in wrap(hint, rw, 12):
                if y + 16 > bottom:
                    break
                draw_text(surface, line, (rx, y), 12, False, theme.TEXT_FAINT)
                y += 16
        else:
            y += 8
            hint = self.draft.locked_reason() or ("Each rating adds exactly 6 points: Reserve to all 1s, Veteran to Reserve, Spec Ops to Veteran; "
                    "every stat 1 to 5 [p.30, A46]. A point added to a lower rating is carried up.")
            for line in wrap(hint, rw, 12):
                if y + 16 > bottom:
                    break
                draw_text(surface, line, (rx, y), 12, False, theme.TEXT_FAINT)
                y += 16
