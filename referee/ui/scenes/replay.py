"""A recorded battle stepped through on the table: what one player knew after each action, or the whole truth.

The table is rebuilt from ``BattleReplay.view_at`` (the player view of that moment, or the referee's view once the
battle is over); the selection report, ruler and previews work as on any table. Page Down / "." steps forward,
Page Up / "," back, End jumps to the end, Shift+Home to the start; V changes whose view is shown.
"""

from __future__ import annotations

import pygame

from ...service.replay import TRUTH, BattleReplay
from .. import theme
from ..keys import ANY, SHIFT, Key, KeyTable, without
from ..table_data import table_from_view
from ..widgets import draw_text
from .table import TableScene
from .table_common import LOOKING, TOOLS

VIEWER_TITLES = {"A": "as side A saw it", "B": "as side B saw it", TRUTH: "the whole truth"}
REPLAY = ("Replay", (
    Key("Page Down / .", "the next action", "go_by", (pygame.K_PAGEDOWN, pygame.K_PERIOD), ANY, (1,)),
    Key("Page Up / ,", "the action before", "go_by", (pygame.K_PAGEUP, pygame.K_COMMA), ANY, (-1,)),
    Key("End", "the end", "go_to_end", (pygame.K_END,)),
    Key("Shift+Home", "the start", "go", (pygame.K_HOME,), SHIFT, (0,)),
    Key("V", "whose view: side A, side B, the whole truth (once the battle is over)", "next_viewer", (pygame.K_v,)),
))
# A replay moves nothing: the table's tools but the Move and Jump previews and sending them.
REPLAY_KEYS: KeyTable = (REPLAY, *without((LOOKING, TOOLS), ("M", "J", "Enter", "Backspace")))


class ReplayScene(TableScene):
    title = "Replay"
    key_table = REPLAY_KEYS

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

    def go_by(self, steps: int) -> None:
        self.go(self.step + steps)

    def go_to_end(self) -> None:
        self.go(self.replay.steps)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        L = self.layout
        box = pygame.Rect(L.table.x + 8, L.table.y + 4, L.table.w - 16, 24)
        pygame.draw.rect(surface, (24, 27, 32), box, border_radius=4)
        text = (f"Replay · step {self.step} of {self.replay.steps} · {VIEWER_TITLES[self.viewer]} · "
                f"PgDn/PgUp step, V view")
        draw_text(surface, text, (box.x + 10, box.centery), 14, True, theme.ACCENT, "midleft")
