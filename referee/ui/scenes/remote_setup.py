"""Set-up in a joined window: one side's set-up decisions taken on another computer than the host's.

It is the set-up table itself over ``ui/remote.RemoteBattle``: the seat's screen gives the view, the decision due and
the seat's legal actions; every decision is sent to the host as an intent, and a placement's word is the host's
preview from this seat's own view. The other side decides on its own device: while the decision is its, this window
shows the table and says whom it waits for, and the host's new screen (the other side decided) is shown as it comes.
When set-up is complete the joined battle scene takes over, with the same seat.
"""

from __future__ import annotations

from typing import Any, cast

import pygame

from ...service.session import BattleSession, Pending
from .. import theme
from ..remote import RemoteBattle
from ..widgets import Block, Text, line_height, wrap
from .dialogs import DiceDialog
from .remote_battle import RemoteBattleScene
from .setup_table import PAD, SetupTableScene
from .table_mode import draw_waiting


class RemoteSetupScene(SetupTableScene):
    """One side's set-up from a remote host (see the module note)."""

    title = "Set-up: joined"

    host: Any = None                # the host this window serves the battle with, when it plays a side of it

    def __init__(self, battle: RemoteBattle) -> None:
        self.battle = battle
        self.handed_on = False      # set-up complete: the seat (and the host) go on with the battle scene
        # The remote battle answers the set-up scene's questions from its seat's screen (``remote.BattleSeat``).
        super().__init__(cast(BattleSession, battle))
        self.seen = battle.version

    # ---- whose decision it is ----------------------------------------------------------------------------------
    def waiting_for(self) -> str | None:
        """The side whose decision set-up waits for on its own device, or None when it is this side's."""
        side = str(self.decision().get("side") or "")
        return side if side and side != self.battle.viewer else None

    def step_title(self, d: Any) -> str:
        title = super().step_title(d)
        return title.replace("your ", "their ") if self.waiting_for() else title

    def choices(self) -> list[tuple[str, str]]:
        return [] if self.waiting_for() else super().choices()

    def press(self, key: str) -> None:
        if not self.waiting_for():
            super().press(key)

    def for_me(self) -> bool:
        return False if self.waiting_for() else super().for_me()

    def place_at(self, x: float, y: float) -> bool:
        return False if self.waiting_for() else super().place_at(x, y)

    def placement_word(self, x: float, y: float) -> str:
        return "" if self.waiting_for() else super().placement_word(x, y)

    def decision_blocks(self, width: int) -> list[Block]:
        side = self.waiting_for()
        d = self.decision()
        if side is None or not d.get("step"):
            return super().decision_blocks(width)
        items: list = []
        y = 8
        for part in wrap(f"Side {side}: {self.step_title(d)}", width - 2 * PAD, 16, True):
            items.append(Text(PAD, y, part, 16, True, theme.SIDE_COLOURS.get(side, theme.TEXT)))
            y += line_height(16)
        mail = self.battle.mail_word()
        y = self.note_items(items, y + 10, width, [mail + "."] if mail else [
            f"Waiting for side {side}'s decision on their device.",
            "This window shows what your side may see; their decision appears here when the host has it."])
        return [Block(None, 0, y + 10, tuple(items), theme.PANEL)]

    def show_log(self) -> None:
        super().show_log()
        said = str(self.battle.data.get("said") or "")
        if said:
            # The host's word for this seat (a faction the battle file added here, an action refused after it waited)
            # heads the log until this side acts, as the battle's log panel says it.
            self.set_log("", [f"Said to your side: {said[:1].upper() + said[1:]}", *self.log_lines])
        self.log_title = f"Set-up log (side {self.battle.viewer}, joined)"

    # ---- following the host ------------------------------------------------------------------------------------
    def next_step(self) -> None:
        self.seen = self.battle.version
        super().next_step()
        mail = self.battle.mail_word()
        if mail and not self.waiting_for():
            # This side's own step waits for the other side's part of its dice, by e-mail: the file goes there now.
            self.message = mail
            self._relayout_panel()

    def update(self, dt: float) -> None:
        """A new screen from the host (the other side decided): shown, and set-up goes on."""
        super().update(dt)
        if self.battle.version != self.seen and self.app is not None and self.app.scene is self:
            self.next_step()

    def ask_die(self, pending: Pending) -> None:
        """A die of this side's roll typed here (physical dice): each one answers the host's question for it."""
        if self.app is None:
            raise RuntimeError(f"a die is needed: {pending.request.describe()}")

        def answered(value: float | None) -> None:
            if value is None:
                self.message = "cancelled: no die was used, nothing changed"
                self._relayout_panel()
                return
            attempt = self.battle.answer(cast(Any, pending), value)
            if attempt.pending is not None:
                self.ask_die(cast(Pending, attempt.pending))
                return
            if attempt.outcome is None or not attempt.outcome.legal:
                self.message = f"not allowed: {attempt.outcome.reason if attempt.outcome else 'no answer'}"
                self._relayout_panel()
                return
            self.message = ""
            self.after(pending.action)

        self.app.push(DiceDialog(pending.request, answered, f"Set-up: die {len(pending.given) + 1}"))

    # ---- on to the battle, the seat with it ---------------------------------------------------------------------
    def open_battle(self) -> None:
        if self.app is None:
            return
        self.handed_on = True
        scene = cast(RemoteBattleScene, self.replace_scene("battle-remote", self.battle))
        scene.host = self.host
        scene.next_step()

    def on_exit(self) -> None:
        super().on_exit()
        if self.handed_on:
            return
        self.battle.close()
        if self.host is not None:
            self.host.stop()

    def phones(self) -> None:
        """W: a joined battle is served by the host's computer, which shows its codes."""
        self.message = ("this battle is served by the computer that hosts it: its window (W) shows the seats' "
                        "codes")
        self._relayout_panel()

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        side = self.waiting_for()
        d = self.decision()
        # Not over the other side's placements: the player watches its counters go down on the table.
        if side is not None and d.get("step") not in (None, "objective", "blip"):
            mail = self.battle.mail_word()
            draw_waiting(surface, self.layout.table, f"side {side}", f"{self.step_title(d)}: " + (
                f"by e-mail. Close this window and send {self.battle.data['by_mail'].get('file')} to side {side}."
                if mail else "decided on their device."))

