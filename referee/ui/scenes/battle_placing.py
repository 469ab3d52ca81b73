"""Where revealed units stand (A66): the first unit of the square replaced the counter; its owner says where the
second stands, touching it: on one of the spots the engine offers, by a click on the table (the click is carried to
the touching spot in its direction), or typed as x and y. Asked on the owner's screen (behind a hand-off in
hot-seat), in referee mode as the miniature stands on the table. Its facing is asked next (A13).
"""

from __future__ import annotations

import math
from typing import Iterable, Protocol

import pygame

from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action
from .. import theme
from ...service.battle_screen import BattleScreen
from ...service.session import BattleSession
from ..scene import Window
from ..view import ViewTransform
from .battle_questions import ClicksOnTheTable
from .dialogs import Dialog, TextDialog

PLACE = "place-revealed"
TITLE = "Place the revealed unit"


def clock_word(view: ViewTransform, dx: float, dy: float) -> str:
    """The direction (dx, dy) as a clock on the player's screen, as the table is drawn for them (12 o'clock up, away
    from the edge at the bottom; 3 o'clock to the right): the words of the deviation's bearing too."""
    degrees = math.degrees(math.atan2(dy, dx))
    up = 270.0 if view.turned else 90.0
    hours = round(((up - degrees) % 360.0) / 30.0) % 12
    return f"{hours or 12} o'clock"


class PlacingHost(ClicksOnTheTable, Protocol):
    """What the placing of revealed units uses of the battle scene: besides a click on the table, its window (no
    question without one) and screen, the tool in hand, and how the scene sends an action and says what happened."""

    tool: str

    @property
    def app(self) -> Window | None: ...

    @property
    def shown(self) -> BattleScreen: ...

    def clear_tools(self) -> None: ...

    def next_step(self) -> None: ...

    def do(self, action: Action, title: str | None = None, given: list[float] | None = None) -> None: ...

    def say(self, title: str, lines: Iterable[object]) -> None: ...


class RevealPlacing:
    """Held by the battle scene as ``scene.placing``."""

    def __init__(self, host: PlacingHost) -> None:
        self.host = host
        self.kept: tuple[str, ...] = ()         # units whose owner kept the offered spot
        self.unit: str | None = None            # the unit placed by a click on the table

    @property
    def session(self) -> BattleSession:
        return self.host.session

    def owed(self) -> tuple[str, ...]:
        """Units just revealed that wait for a human owner's spot (the computer's keep the engine's offer)."""
        return self.host.shown.to_place

    def due(self) -> bool:
        owed = self.owed()
        return bool(owed) and owed != self.kept and self.host.app is not None

    def spots(self, uid: str) -> list[tuple[float, float]]:
        return self.session.revealed_spots(uid)

    def ask(self, uid: str) -> None:
        first_id = self.session.to_place()[uid]
        unit, first = self.session.unit_at(uid), self.session.unit_at(first_id)
        if unit is None or first is None:
            return
        (ux, uy, _, owner, utype), (fx, fy) = unit, first[:2]

        def closed(answer) -> None:
            if answer is None or answer == "keep":
                self.keep(uid, ux, uy)
            elif answer == "click":
                self.start_click(uid)
            elif answer == "type":
                self.ask_typed(uid)
            else:
                x, y = spots[int(answer)]
                self.place(uid, x, y)

        def ask() -> None:
            lines = [f"Side {owner}: {first_id} replaced the counter at ({fx:.2f}, {fy:.2f}); {uid} "
                     f"({utype}) stands touching it, where you choose [p.17, A66]. It stands at "
                     f"({ux:.2f}, {uy:.2f}) for now.",
                     f"Choose a spot, as a clock around {first_id} on your screen (12 o'clock up), click it on the "
                     "table, or type it."]
            buttons = []
            for i, (x, y) in enumerate(spots):
                if math.hypot(x - ux, y - uy) < 1e-6:
                    continue
                word = clock_word(self.host.view, x - fx, y - fy)
                buttons.append((str(i), f"{word} ({x:.2f}, {y:.2f})"))
            buttons += [("click", "Click on the table"), ("type", "Type x and y"),
                        ("keep", f"Keep ({ux:.2f}, {uy:.2f})")]
            self.host.questions.show_guarded(Dialog(f"Place {uid}", lines, buttons, closed, columns=3, width=720))

        spots = self.spots(uid)
        self.host.questions.for_side(owner, ask, f"Side {owner}: a unit of yours was revealed; you say where it "
                                                  f"stands and its facing [A66, A13].")

    def keep(self, uid: str, x: float, y: float) -> None:
        """The owner keeps the engine's spot: every unit still waiting keeps it here."""
        self.kept = self.owed()
        self.host.next_step()

    def place(self, uid: str, x: float, y: float) -> bool:
        """Send the placement to the engine; refused, the reason is shown and nothing changes."""
        action = Action(Kind.FACE, uid, {"x": round(x, 3), "y": round(y, 3)})
        check = self.session.check(action)
        if not check.legal:
            self.host.say(f"Place {uid}: not there", [check.reason, "choose another spot"])
            return False
        self.unit = None
        self.host.do(action, f"Place {uid}")
        return True

    def ask_typed(self, uid: str) -> None:
        unit = self.session.unit_at(uid)
        ux, uy = unit[:2] if unit is not None else (0.0, 0.0)

        def check(text: str) -> str:
            try:
                x, y = (float(v) for v in text.replace(",", " ").split())
            except ValueError:
                return f"type two numbers, x and y in inches, for example \"{ux:.2f} {uy:.2f}\""
            return self.session.check(Action(Kind.FACE, uid, {"x": x, "y": y})).reason

        def typed(text: str | None) -> None:
            if text is None:
                self.ask(uid)
                return
            x, y = (float(v) for v in text.replace(",", " ").split())
            self.place(uid, x, y)

        self.host.questions.show(TextDialog(
            f"Place {uid}: type where it stands", [
                "x and y of the base's centre in inches, as measured on the table (x along side A's edge, y toward "
                "side B's). It must touch the first unit of its square [A66]."],
            f"{ux:.2f} {uy:.2f}", typed, ok="Place it", check=check))

    # ---- the click on the table --------------------------------------------------------------------------------
    def start_click(self, uid: str) -> None:
        self.host.clear_tools()
        self.unit = uid
        self.host.tool = PLACE
        self.host.say(TITLE, [f"Click where {uid} stands: the click is carried to the spot touching "
                               f"{self.session.to_place().get(uid, 'the first unit')} in its direction. "
                               "The green rings are the spots offered. Esc: back to the question."])

    def touching_point(self, uid: str, point: tuple[float, float]) -> tuple[float, float]:
        """The spot touching the first unit in the direction of ``point`` (a click is never exactly in contact)."""
        unit, first = self.session.unit_at(uid), self.session.unit_at(self.session.to_place()[uid])
        assert unit is not None and first is not None
        dx, dy = point[0] - first[0], point[1] - first[1]
        d = math.hypot(dx, dy)
        if d < 1e-9:
            return unit[0], unit[1]
        reach = (first[2] + unit[2]) / 2
        return first[0] + dx / d * reach, first[1] + dy / d * reach

    def click(self, point: tuple[float, float]) -> None:
        uid = self.unit
        if uid is None or uid not in self.session.to_place():
            self.host.clear_tools()
            return
        x, y = self.touching_point(uid, point)
        self.place(uid, x, y)

    def cancel(self) -> bool:
        if self.host.tool != PLACE or self.unit is None:
            return False
        uid, self.unit = self.unit, None
        self.host.clear_tools()
        self.ask(uid)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        """The offered spots, and the one the click would take under the cursor."""
        host = self.host
        uid = self.unit
        unit = self.session.unit_at(uid) if uid is not None else None
        if host.tool != PLACE or uid is None or unit is None or uid not in self.session.to_place():
            return
        r = unit[2] / 2 * host.view.scale
        for x, y in self.spots(uid):
            pygame.draw.circle(surface, theme.MOVE_LEGAL, host.view.to_screen(x, y), max(3, r), 2)
        if host.on_table(host.mouse):
            x, y = self.touching_point(uid, host.table_point(host.mouse))
            pygame.draw.circle(surface, theme.SELECTION, host.view.to_screen(x, y), max(3, r), 2)


class OwnPlacing(RevealPlacing):
    """At a seat of its own (a joined window, a turn by e-mail): only this side's units; the other side places its
    own on its own screen. The host waits for this side's word before the other side plays on: keeping the engine's
    spot is said to it, as the spot it is."""

    def keep(self, uid: str, x: float, y: float) -> None:
        self.host.do(Action(Kind.FACE, uid, {"x": round(x, 3), "y": round(y, 3)}), f"Place {uid}")

    def owed(self) -> tuple[str, ...]:
        session = self.session
        return tuple(uid for uid in super().owed()
                     if (unit := session.unit_at(uid)) is not None and unit[3] == session.viewer)
