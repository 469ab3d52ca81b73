"""The refereed physical game served to phones: the window is the shared table of the referee mode, each side's secret
entries on its own hand (``referee/net/desk.py``).

It is the referee scene (corrections, terrain, the photo, the numbers and their working) reading the table as the
spectator does (``TableModeScene``): when a reveal needs a blip's contents, its owner says on its own hand what the
blip holds and the table shows only that side X is telling what blip XY holds; the mission cards are entered on the
hands, and the table says whose are entered. The dice an action taken here rolls may be typed on the hand of the side
taking it or, as before, in the dice dialog on this screen: whichever comes first answers it.
"""

from __future__ import annotations

from typing import Any

from ...game.battle.action_kinds import Kind
from ...service.referee import NeedsContents, RefereeSession
from ...service.session import Attempt, BattleSession, Pending
from .bearing import dice_dialog
from .referee import REFEREE_ACTIONS, RefereeScene
from .table_mode import Hosting, PublicTable, TableModeScene, Unhosted

# The referee's own changes to the session: made under the host's lock and pushed to every phone, as the table's
# actions are (``PublicTable.attempt``).
REFEREE_CHANGES = frozenset(("tell", "correct", "remove", "add_unit", "enter_mission", "correct_terrain",
                             "add_terrain"))


class PublicRefereeTable(PublicTable):
    """The refereed session as the shared table reads it (the spectator's seat); its corrections under the lock."""

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._session, name)
        if name not in REFEREE_CHANGES:
            return found

        def changing(*args: Any, **kwargs: Any) -> Any:
            with self.host.lock:
                out = found(*args, **kwargs)
            self.host.changed()
            return out
        return changing


class RefereeTableScene(TableModeScene, RefereeScene):
    """The referee mode on the shared table while each side's secrets are entered on its hand (see the module note)."""

    title = "Referee: the table"
    actions = REFEREE_ACTIONS

    def __init__(self, session: RefereeSession, host: Hosting | None = None) -> None:
        self.die_asked: tuple[str, Pending, Any] | None = None     # a die asked here and on a hand: side, die, dialog
        super().__init__(session, host)

    def public_table(self, session: BattleSession, host: Hosting | None) -> PublicTable:
        return PublicRefereeTable(session, host)

    @property
    def desk(self) -> Any:
        return self.public.host.desk

    # ---- a reveal: its owner says on its own hand what the blip holds ----------------------------------------------
    def handle(self, attempt: Attempt, title: str) -> None:
        needs = getattr(attempt, "needs", None)
        if isinstance(needs, NeedsContents) and self.desk is not None:
            with self.public.host.lock:
                self.desk.ask_contents(needs, self.public.viewer)
            self.public.host.changed()
            self.wait_for(f"side {needs.side}'s hand", f"side {needs.side} is telling what {needs.blip} holds; "
                          "the action goes on once it has said [p.15, p.17]")
            self.refresh()
            self.seen = self.public.moment_key()       # the table shows this moment: it waits until the word comes
            return
        RefereeScene.handle(self, attempt, title)

    # ---- the dice: typed on the hand of the side taking the action, or here ------------------------------------------
    def ask_die(self, pending: Pending, then: Any, context: str = "") -> None:
        desk = self.desk
        if desk is None or pending.resolving is None or self.app is None or pending.action.kind == Kind.SENSOR_POOL:
            # A Target's sensor pool is typed here: the table's Target tool places its counters next.
            RefereeScene.ask_die(self, pending, then, context)
            return
        side = self.public.viewer
        with self.public.host.lock:
            desk.pending[side] = pending
        self.public.host.changed()

        def typed_here(value: float | None) -> None:
            self.die_asked = None
            with self.public.host.lock:
                still = desk.pending.get(side) is pending
                if still:
                    del desk.pending[side]          # answered (or cancelled) here: the hand is asked no more
            if not still:
                self.say("The die", [f"it was typed on side {side}'s hand"])
                return
            self.public.host.changed()
            then(value)

        note = f"{context}: die {len(pending.given) + 1}" if context else ""
        dialog = dice_dialog(pending.request, typed_here, note + (" (or on the hand)" if note else "or on the hand"),
                             may_roll=True, turned=self.view.turned)
        self.die_asked = (side, pending, dialog)
        self.app.push(dialog)

    def update(self, dt: float) -> None:
        asked = self.die_asked
        if asked is not None and self.desk is not None and self.app is not None:
            side, pending, dialog = asked
            with self.public.host.lock:
                answered = self.desk.pending.get(side) is not pending
            if answered:                    # typed on the hand: the dialog here is not needed any more
                self.die_asked = None
                if self.app.scene is dialog:
                    self.app.pop()
        super().update(dt)

    # ---- missions: entered on each side's hand ----------------------------------------------------------------------
    def press(self, key: str) -> None:
        if key == "mission":
            entered = {side: self.public.mission_entered(side) for side in ("A", "B")}
            self.say("Missions: on each side's hand", [
                "Each player enters their mission card on their own phone; it stays secret until the end of the "
                "battle, and this table shows only whose is entered.",
                *(f"side {side}: {'entered' if done else 'not entered'}" for side, done in entered.items())])
            return
        if key == "phones":
            self.show_phones()
            return
        super().press(key)

    def show_phones(self) -> None:
        """The seats' codes over the table: the hands are the players' private mats (no side played here)."""
        if not isinstance(self.public.host, Unhosted):
            self.push_scene("phones", self.public.host, refereed=True)

    def offered(self, key: str) -> bool:
        return key == "phones" or super().offered(key)

    def banner_who(self) -> tuple[str, str]:
        return ("Referee: the table" if not self.public.over else "Whole truth", "your dice, here or on the hand")
