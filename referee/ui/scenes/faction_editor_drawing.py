"""The faction editor's drawing: swatches, the badge preview, the stat grid, unit stats and the messages."""

from __future__ import annotations

import pygame

from ...authoring.draft import modified_stats
from ...rules.campaign_upgrades import UpgradeCheck
from ...rules.factions import EMBLEMS, STAT_MAX
from ...rules.stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT
from .. import theme
from ..widgets import draw_text, ellipsize, line_height, panel, wrap
from .faction_editor_base import FactionEditorBase
from .faction_editor_common import CREATE, OK, UPGRADE, _badge, _valid_hex


class FactionEditorDrawing(FactionEditorBase):
    """Everything drawn by hand around the widgets, from the draft as it is now."""

    def heading(self) -> str:
        return "Faction editor"

    def where(self) -> str:
        return f"file: {self.source}" if self.source is not None else "not saved yet"

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill(theme.BACKGROUND)
        title = self.draft.name.strip() or "New faction"
        draw_text(surface, self.heading(), (20, 12), 24, True, theme.TEXT)
        where = self.where()
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
