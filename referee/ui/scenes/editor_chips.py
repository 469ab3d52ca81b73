"""The table editor's side panel: the choices for the current tool and the selected piece, drawn as chips."""

from __future__ import annotations

import pygame

from ...rules.catalogue import is_drone_type, terrain_types, type_title, unit_type_names
from ...rules.errors import InputError
from ...rules.factions import get_faction
from ...rules.stats import RATING_TITLES, RATINGS
from .. import theme
from ..editing import SIDES, faction_ids, placeable_terrain
from ..widgets import draw_text, ellipsize, text_width
from .editor_base import EditorBase
from .editor_common import BLIP, CHIP_H, CIRCLE, OBJECTIVE, PAD, POLYGON, SELECT, UNIT, Chip, error_text


class ChipPanel(EditorBase):
    """Mixed into ``EditorScene``."""

    def chips(self) -> tuple[list[tuple[str, tuple[int, int]]], list[Chip], int]:
        """Headings and chips of the options area for the current tool and selection (scrolled by
        ``options_scroll``), and the height of all of it."""
        L = self.layout
        x0, y = L.options.x + PAD, L.options.y + 6 - self.options_scroll
        right = L.options.right - PAD
        heads: list[tuple[str, tuple[int, int]]] = []
        chips: list[Chip] = []

        def head(text: str) -> None:
            nonlocal y
            heads.append((text, (x0, y)))
            y += 20

        def row(items, min_w: int = 0) -> None:
            """Chips laid out left to right, wrapping: items are (key, label, selected, enabled, swatch, hatch, tip)."""
            nonlocal y
            x = x0
            for key, label, sel, on, swatch, hatch, tip in items:
                w = max(min_w, text_width(label, 13, True) + 16 + (20 if swatch else 0))
                if x + w > right and x > x0:
                    x, y = x0, y + CHIP_H + 5
                chips.append(Chip(key, pygame.Rect(x, y, w, CHIP_H), label, sel, on, swatch, hatch, tip))
                x += w + 5
            y += CHIP_H + 7

        sel_kind = self.editor.kind_of(self.selected) if self.selected else None
        if self.tool in (POLYGON, CIRCLE) or sel_kind == "terrain":
            head("Terrain type" + (f" of {self.selected}" if self.tool == SELECT else ""))
            types = terrain_types()
            col_w = (right - x0 - 5) // 2
            for i, type_id in enumerate(placeable_terrain()):
                t = types[type_id]
                r = pygame.Rect(x0 + (i % 2) * (col_w + 5), y + (i // 2) * 24, col_w, 22)
                chips.append(Chip(f"terrain:{type_id}", r, t.name, type_id == self.terrain_type, True,
                                  theme.hex_colour(t.colour), t.blocking))
            y += ((len(placeable_terrain()) + 1) // 2) * 24 + 8
        sides = [(f"side:{s}", f"Side {s}", s == self.side, True, theme.SIDE_COLOURS[s], False, "") for s in SIDES]
        if self.tool == BLIP:
            head("Side")
            row(sides, 90)
        if self.tool == UNIT:
            head("Side and rating")
            row(sides + [(f"rating:{r}", RATING_TITLES[r], r == self.rating, True, None, False, "")
                         for r in RATINGS])
            head(f"Faction of side {self.side}")
            row([(f"faction:{f}", self._faction_name(f), f == self.faction[self.side], True, None, False, f)
                 for f in faction_ids()])
            head("Unit type")
            row([(f"type:{t}", type_title(t), t == self.unit_type, True, None, False, "")
                 for t in unit_type_names()])
        if self.tool == OBJECTIVE:
            head("Objective (alpha, beta, gamma: the defender's; delta, epsilon: the attacker's)")
            free = self.editor.free_objectives()
            chosen = self.objective or (free[0] if free else None)
            row([(f"objective:{o}", f"{theme.GREEK[o]} {o}", o == chosen, o in free, None, False, "")
                 for o in theme.GREEK], 70)
        if self.selected is not None and sel_kind is not None and sel_kind != "terrain":
            e = self.editor.entry(self.selected)
            head(f"Selected: {self.selected}")
            items = []
            if sel_kind == "unit" and not is_drone_type(e.type):
                items += [("act:ccw", "Turn left", False, True, None, False, "Q"),
                          ("act:cw", "Turn right", False, True, None, False, "E")]
            if sel_kind in ("unit", "objective"):
                items += [("act:minus", "Counter −", False, e.target_counters > 0, None, False, "-"),
                          ("act:plus", "Counter +", False, True, None, False, "+")]
            if sel_kind == "unit" and not is_drone_type(e.type):
                items += [("act:damaged", "Damaged", e.damaged, True, None, False, "D"),
                          ("act:stunned", "Stunned", e.stunned, True, None, False, "S")]
            items.append(("act:exact", "Exact…", False, True, None, False,
                          "Enter: type its position, facing, id, type" + (", contents" if sel_kind == "blip" else "")))
            items.append(("act:delete", "Delete", False, True, None, False, "Delete"))
            row(items)
        elif self.selected is not None and sel_kind == "terrain":
            head(f"Selected: {self.selected}")
            row([("act:exact", "Exact…", False, True, None, False, "Enter: type its centre, id and type"),
                 ("act:delete", "Delete", False, True, None, False, "Delete")])
        return heads, chips, y + self.options_scroll - L.options.y

    @staticmethod
    def _faction_name(ident: str) -> str:
        try:
            return get_faction(ident).name
        except (InputError, OSError):   # a broken user faction file still gets a chip; choosing it shows the problem
            return ident

    def scroll_options(self, dy: int) -> None:
        most = max(0, self.chips()[2] - self.layout.options.h)
        self.options_scroll = max(0, min(most, self.options_scroll + int(dy)))

    def chip_at(self, pos) -> Chip | None:
        if not self.layout.options.collidepoint(pos):
            return None
        for chip in self.chips()[1]:
            if chip.rect.collidepoint(pos):
                return chip
        return None

    def choose(self, key: str) -> None:
        """A click on a chip."""
        what, _, value = key.partition(":")
        if what == "terrain":
            self.terrain_type = value
            if self.selected and self.editor.kind_of(self.selected) == "terrain" and self.tool == SELECT:
                self.report(self.editor.set_terrain_type(self.selected, value))
            else:
                self.say(True, f"New terrain will be {terrain_types()[value].name.lower()}")
        elif what == "side":
            self.side = value
        elif what == "faction":
            try:
                get_faction(value)
            except (InputError, OSError) as e:
                self.say(False, f"Faction {value} cannot be used: {error_text(e)}")
                return
            self.faction[self.side] = value
        elif what == "rating":
            self.rating = value
        elif what == "type":
            self.unit_type = value
        elif what == "objective":
            self.objective = value
        elif what == "act":
            self.act(value)

    def _draw_side(self, surface) -> None:
        L = self.layout
        pygame.draw.rect(surface, theme.PANEL, L.side)
        pygame.draw.line(surface, theme.PANEL_EDGE, L.side.topleft, L.side.bottomleft)
        pygame.draw.rect(surface, theme.HEADER, L.toolbar)
        old = surface.get_clip()
        surface.set_clip(L.options)
        heads, chips, height = self.chips()
        for text, pos in heads:
            draw_text(surface, ellipsize(text, L.options.w - 2 * PAD, 14, True), pos, 14, True, theme.ACCENT)
        for chip in chips:
            self._draw_chip(surface, chip)
        if height > L.options.h:            # more below or above: a scroll bar, the wheel scrolls
            bar_h = max(20, L.options.h * L.options.h // height)
            bar_y = L.options.y + (L.options.h - bar_h) * self.options_scroll // max(1, height - L.options.h)
            pygame.draw.rect(surface, theme.PANEL_EDGE, (L.options.right - 5, bar_y, 4, bar_h), border_radius=2)
        surface.set_clip(old)
        self._draw_message(surface)
        pygame.draw.rect(surface, theme.HEADER, L.bottom)

    def _draw_chip(self, surface, chip: Chip) -> None:
        r = chip.rect
        hovered = r.collidepoint(self.mouse) and chip.enabled
        fill = (138, 109, 28) if chip.selected else (theme.HEADER if hovered else theme.PANEL_ALT)
        border = theme.ACCENT if chip.selected else theme.PANEL_EDGE
        pygame.draw.rect(surface, fill, r, border_radius=4)
        pygame.draw.rect(surface, border, r, 1, border_radius=4)
        x = r.x + 8
        if chip.swatch is not None:
            box = pygame.Rect(x - 2, r.y + 4, 18, r.h - 8)
            pygame.draw.rect(surface, chip.swatch, box, border_radius=3)
            if chip.hatch:
                edge = theme.darker(chip.swatch)
                clip = surface.get_clip()
                surface.set_clip(box.clip(clip) if clip else box)
                for k in range(-box.h, box.w, 5):
                    pygame.draw.line(surface, edge, (box.x + k, box.bottom), (box.x + k + box.h, box.y), 2)
                surface.set_clip(clip)
            pygame.draw.rect(surface, theme.darker(chip.swatch), box, 1, border_radius=3)
            x += 22
        ink = theme.TEXT if chip.enabled else theme.TEXT_FAINT
        label = ellipsize(chip.label, r.right - x - 4, 13, chip.selected)
        draw_text(surface, label, (x, r.centery), 13, chip.selected, ink, "midleft")
