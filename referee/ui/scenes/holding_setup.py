"""Filling a holding area at set-up: the owner puts each issued unit into one of the 16 squares (p.~10).

Click a unit (in the list or in a square), then click the square it goes to. Squares left empty become decoys.
The arrangement is the player's; whether it is allowed (at most 2 a square, every unit placed) is the engine's word,
asked with a preview on Done, and a refusal is shown with its rule. Only the owner sees this screen: the set-up
scene opens it after the hand-off to that player.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pygame_gui

from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action
from .. import theme
from ...service.session import BattleSession
from ..scene import Scene
from ..widgets import draw_text, ellipsize_middle, gui_manager, panel, shade, text_width, wrap

SQUARES = 16
TALL_CHIP = 36              # a chip of two lines: its unit's id, then its rating
NOTE = "Click a unit, then the square it goes to; at most 2 a square, empty squares are decoys [p.~10]. Only you see this."


def chip_label(uid: str, rating: str, width: int, bold: bool = False) -> str:
    """A unit's chip: its id and rating when they fit, else its id alone, cut in the middle if it must be: the
    number at its end tells two units of a type apart (the list beside the squares gives every rating)."""
    full = f"{uid} ({rating})" if rating else uid
    if text_width(full, 13, bold) <= width:
        return full
    return ellipsize_middle(uid, width, 13, bold)


class HoldingSetupScene(Scene):
    overlay = True
    title = "Holding area"

    def __init__(self, session: BattleSession, side: str, issued: list[dict],
                 on_done: Callable[[dict[str, list[str]] | None], None]) -> None:
        super().__init__()
        self.session = session
        self.side = side
        self.issued = [dict(u) for u in issued]
        self.on_done = on_done
        self.where: dict[str, int] = {}            # unit id -> square
        self.picked: str | None = None
        self.error = ""
        self.manager: pygame_gui.UIManager | None = None
        self.buttons: dict[object, str] = {}
        self.box = pygame.Rect(0, 0, 0, 0)
        self.grid = pygame.Rect(0, 0, 0, 0)
        self.list_rect = pygame.Rect(0, 0, 0, 0)

    # ---- the arrangement --------------------------------------------------------------------------------------------
    def squares(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for u in self.issued:
            n = self.where.get(u["id"])
            if n is not None:
                out.setdefault(str(n), []).append(u["id"])
        return out

    def unplaced(self) -> list[str]:
        return [u["id"] for u in self.issued if u["id"] not in self.where]

    def put(self, unit: str, square: int | None) -> bool:
        """Move ``unit`` into ``square`` (None: back to the list). A square already full is refused at once, with
        the engine's rule, and nothing moves: not only at Done."""
        if square is not None:
            tried = {**self.where, unit: square}
            full = BattleSession.square_overfull(square, sum(1 for u in self.issued if tried.get(u["id"]) == square))
            if full:
                self.error = f"not allowed: {full}"
                return False
        if square is None:
            self.where.pop(unit, None)
        else:
            self.where[unit] = square
        self.error = ""
        return True

    def finish(self) -> bool:
        """The engine's preview of the arrangement: closed and handed on when legal, else the refusal shown."""
        action = Action(Kind.FILL_HOLDING, self.side, {"squares": self.squares()})
        p = self.session.preview(action)
        if not p.legal:
            self.error = f"not allowed: {p.reason}"
            return False
        self.close(self.squares())
        return True

    def close(self, answer: dict[str, list[str]] | None) -> None:
        if self.app is not None and self.app.scene is self:
            self.app.pop()
        self.on_done(answer)

    # ---- layout -----------------------------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self._build(self.size)

    def on_resize(self, size) -> None:
        self._build(size)

    def _build(self, size) -> None:
        self.manager = gui_manager(self.manager, size)
        w, h = size
        self.box = pygame.Rect(0, 0, min(w - 40, 1080), min(h - 40, 720))
        self.box.center = (w // 2, h // 2)
        # Below the note, which wraps to two lines in a small window.
        top = 46 + 18 * len(wrap(NOTE, self.box.w - 40, 14)) + 16
        self.list_rect = pygame.Rect(self.box.x + 20, self.box.y + top, 250, self.box.h - top - 80)
        self.grid = pygame.Rect(self.list_rect.right + 16, self.box.y + top, self.box.right - self.list_rect.right - 36,
                                self.box.h - top - 80)
        self.buttons = {}
        for i, (key, label) in enumerate((("done", "Done"), ("clear", "Clear"), ("cancel", "Cancel"))):
            rect = pygame.Rect(self.box.x + 20 + i * 170, self.box.bottom - 56, 160, 38)
            self.buttons[pygame_gui.elements.UIButton(rect, label, self.manager)] = key

    def unit_rows(self) -> list[tuple[pygame.Rect, str]]:
        rows = []
        for i, uid in enumerate(self.unplaced()):
            rows.append((pygame.Rect(self.list_rect.x, self.list_rect.y + 30 + i * 26, self.list_rect.w, 24), uid))
        return rows

    def cell(self, n: int) -> pygame.Rect:
        r, c = divmod(n - 1, 4)
        cw, ch = self.grid.w // 4, self.grid.h // 4
        return pygame.Rect(self.grid.x + c * cw + 3, self.grid.y + r * ch + 3, cw - 6, ch - 6)

    def cell_rows(self, n: int) -> list[tuple[pygame.Rect, str]]:
        cell = self.cell(n)
        ids = self.squares().get(str(n), [])
        # Two lines a chip (id, then rating) where the square is tall enough for two such chips, else one.
        h = TALL_CHIP if cell.h >= 26 + 2 * (TALL_CHIP + 2) else 20
        return [(pygame.Rect(cell.x + 6, cell.y + 26 + i * (h + 2), cell.w - 12, h), uid) for i, uid in enumerate(ids)]

    # ---- events ------------------------------------------------------------------------------------------------------
    def click(self, pos) -> None:
        for rect, uid in self.unit_rows():
            if rect.collidepoint(pos):
                self.picked = uid
                return
        for n in range(1, SQUARES + 1):
            for rect, uid in self.cell_rows(n):
                if rect.collidepoint(pos):
                    self.picked = uid
                    return
            if self.cell(n).collidepoint(pos) and self.picked is not None:
                self.put(self.picked, n)
                self.picked = None
                return
        if self.list_rect.collidepoint(pos) and self.picked is not None:
            self.put(self.picked, None)
            self.picked = None

    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            key = self.buttons[event.ui_element]
            if key == "done":
                self.finish()
            elif key == "clear":
                self.where.clear()
                self.picked = None
            else:
                self.close(None)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.click(event.pos)
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close(None)
        return True           # modal

    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)

    # ---- drawing -------------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        shade(surface, (10, 12, 16, 215))
        panel(surface, self.box, theme.PANEL, theme.ACCENT, 8)
        draw_text(surface, f"Side {self.side}: fill your holding area", (self.box.x + 20, self.box.y + 16), 21, True,
                  theme.TEXT)
        for i, line in enumerate(wrap(NOTE, self.box.w - 40, 14)):
            draw_text(surface, line, (self.box.x + 20, self.box.y + 46 + i * 18), 14, False, theme.TEXT_DIM)
        draw_text(surface, f"To place ({len(self.unplaced())})", (self.list_rect.x, self.list_rect.y), 15, True,
                  theme.ACCENT)
        for rect, uid in self.unit_rows():
            self._unit(surface, rect, uid)
        for n in range(1, SQUARES + 1):
            cell = self.cell(n)
            ids = self.squares().get(str(n), [])
            pygame.draw.rect(surface, theme.HEADER if ids else theme.BACKGROUND, cell, border_radius=6)
            pygame.draw.rect(surface, theme.PANEL_EDGE, cell, 1, border_radius=6)
            draw_text(surface, f"{n}" + ("" if ids else "  decoy"), (cell.x + 6, cell.y + 4), 14, True,
                      theme.TEXT if ids else theme.TEXT_FAINT)
            for rect, uid in self.cell_rows(n):
                self._unit(surface, rect, uid)
        if self.error:
            for i, line in enumerate(wrap(self.error, self.box.w - 580, 14)):
                draw_text(surface, line, (self.box.x + 540, self.box.bottom - 60 + i * 18), 14, True, theme.ERROR)
        if self.manager is not None:
            self.manager.draw_ui(surface)

    def _unit(self, surface, rect: pygame.Rect, uid: str) -> None:
        unit = next((u for u in self.issued if u["id"] == uid), {"type": "", "rating": ""})
        picked = uid == self.picked
        pygame.draw.rect(surface, theme.SIDE_COLOURS.get(self.side, theme.PANEL_EDGE) if picked else theme.PANEL,
                         rect, border_radius=4)
        pygame.draw.rect(surface, theme.ACCENT if picked else theme.PANEL_EDGE, rect, 1, border_radius=4)
        if rect.h >= TALL_CHIP:
            draw_text(surface, ellipsize_middle(uid, rect.w - 8, 13, picked), (rect.x + 4, rect.y + 10), 13, picked,
                      theme.TEXT, "midleft")
            draw_text(surface, str(unit["rating"]), (rect.x + 4, rect.bottom - 9), 12, False,
                      theme.TEXT if picked else theme.TEXT_DIM, "midleft")
            return
        draw_text(surface, chip_label(uid, str(unit["rating"]), rect.w - 8, picked), (rect.x + 4, rect.centery), 13,
                  picked, theme.TEXT, "midleft")
