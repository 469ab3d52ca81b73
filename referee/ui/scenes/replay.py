"""A recorded battle stepped through on the table: what one player knew after each action, or the whole truth.

The table is rebuilt from ``BattleReplay.view_at`` (the player view of that moment, or the referee's view once the
battle is over); the selection report, ruler and previews work as on any table. Page Down / "." steps forward,
Page Up / "," back, End jumps to the end, Shift+Home to the start; V changes whose view is shown.
"""

from __future__ import annotations

import pygame

from ...game.replay_steps import TRUTH, BattleReplay
from .. import theme
from ..table_data import table_from_view
from ..widgets import draw_text
from .table import TableScene

VIEWER_TITLES = {"A": "as side A saw it", "B": "as side B saw it", TRUTH: "the whole truth"}
REPLAY_KEYS = ("Replay", [
    ("Page Down / .", "the next action"),
    ("Page Up / ,", "the action before"),
    ("End / Shift+Home", "the end / the start"),
    ("V", "whose view: side A, side B, the whole truth (once the battle is over)"),
])


class ReplayScene(TableScene):
    title = "Replay"

    def __init__(self, replay: BattleReplay, viewer: str, step: int = 0) -> None:
        self.replay = replay
        self.viewer = viewer
        self.step = step
        super().__init__(table_from_view(replay.view_at(step, viewer)))
        self.show()

    def show(self) -> None:
        view = self.replay.view_at(self.step, self.viewer)
        self.table = table_from_view(view)
        self._static = None
        if self.selected is not None and self.selected not in self.table.bf.pieces:
            self.selected = None
        keep, self.selected = self.selected, None
        self.select(keep)
        title = f"Step {self.step} of {self.replay.steps}, {VIEWER_TITLES[self.viewer]}"
        self.set_log(title, self.replay.news(self.step, self.viewer))

    def go(self, step: int) -> None:
        self.step = max(0, min(self.replay.steps, step))
        self.show()

    def next_viewer(self) -> None:
        viewers = self.replay.viewers()
        self.viewer = viewers[(viewers.index(self.viewer) + 1) % len(viewers)]
        self.show()

    def _key(self, event) -> bool:
        k = event.key
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        if k in (pygame.K_PAGEDOWN, pygame.K_PERIOD):
            self.go(self.step + 1)
        elif k in (pygame.K_PAGEUP, pygame.K_COMMA):
            self.go(self.step - 1)
        elif k == pygame.K_END:
            self.go(self.replay.steps)
        elif k == pygame.K_HOME and shift:
            self.go(0)
        elif k == pygame.K_v:
            self.next_viewer()
        elif k in (pygame.K_m, pygame.K_j):
            return True                       # a replay moves nothing
        else:
            return super()._key(event)
        return True

    def open_help(self) -> None:
        from ..panels import SHORTCUTS
        from .help import HelpScene

        if self.app is not None:
            self.app.push(HelpScene((SHORTCUTS[0], SHORTCUTS[1], REPLAY_KEYS)))

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        L = self.layout
        box = pygame.Rect(L.table.x + 8, L.table.y + 4, L.table.w - 16, 24)
        pygame.draw.rect(surface, (24, 27, 32), box, border_radius=4)
        text = (f"Replay · step {self.step} of {self.replay.steps} · {VIEWER_TITLES[self.viewer]} · "
                f"PgDn/PgUp step, V view")
        draw_text(surface, text, (box.x + 10, box.centery), 14, True, theme.ACCENT, "midleft")
