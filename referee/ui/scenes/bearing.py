"""The deviation's bearing, measured at the table (p.21, A29): as a clock direction seen from the player's own edge
(12 o'clock straight across the table), by a button or typed ("3", "4:30", "2 o'clock"), or in degrees as the engine
counts them (counter-clockwise from +x, along side A's edge to the right)."""

from __future__ import annotations

import re
from typing import Callable

from ...game.battle.dice import RollRequest, check_face
from .dialogs import DiceDialog

CLOCK = re.compile(r"^\s*(\d{1,2})(?:[:.h](\d{1,2}))?\s*(?:o'?\s*clock|h|oclock)?\s*$", re.IGNORECASE)


def clock_bearing(hours: float, turned: bool = False) -> float:
    """Degrees counter-clockwise from +x of a clock direction: 12 o'clock points away from the player's edge (to
    side B's edge as side A's player sees the table; to side A's once the table is turned for side B), 3 o'clock
    to their right."""
    up = 270.0 if turned else 90.0
    return (up - 30.0 * hours) % 360.0


def parse_bearing(text: str, turned: bool = False) -> float:
    """A typed bearing: degrees ("135", "135°", "135 deg") or a clock direction ("4", "4:30", "4 o'clock"). Bare
    whole numbers up to 12 are read as a clock direction only when written as one ("4h", "4 o'clock", "4:30");
    otherwise they are degrees."""
    raw = text.strip().lower()
    if not raw:
        raise ValueError("type the bearing: degrees (0 to 360) or a clock direction such as 4 o'clock or 4:30")
    clock_words = any(w in raw for w in ("clock", "h", ":"))
    m = CLOCK.match(raw)
    if m and clock_words:
        hours, minutes = int(m.group(1)), int(m.group(2) or 0)
        if not (1 <= hours <= 12 and 0 <= minutes < 60):
            raise ValueError(f"a clock direction is 1 to 12 o'clock, minutes 0 to 59 (got {text.strip()!r})")
        return clock_bearing(hours % 12 + minutes / 60, turned)
    degrees = raw.replace("°", "").replace("degrees", "").replace("deg", "").strip()
    try:
        return float(degrees)
    except ValueError:
        raise ValueError(f"expected degrees (0 to 360) or a clock direction such as 4 o'clock or 4:30 "
                         f"(got {text.strip()!r})") from None


class BearingDialog(DiceDialog):
    """A deviation's bearing: twelve clock buttons as the table is drawn for the player, or typed."""

    def __init__(self, request: RollRequest, on_close: Callable[[float | None], None], context: str = "",
                 may_roll: bool = False, turned: bool = False) -> None:
        super().__init__(request, on_close, context, may_roll)
        self.turned = turned
        seat = "side B's" if turned else "side A's"
        self.lines[-1] = (f"Measure the direction from the Red Die to the other die as a clock seen from {seat} edge "
                          f"(12 o'clock straight across the table, 3 o'clock to the right) and click it, or type it "
                          f"(4:30, 2 o'clock) or in degrees counter-clockwise from +x (along side A's edge to the "
                          f"right), then Enter.")
        clock = [(f"clock:{h}", f"{h} o'clock") for h in (12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)]
        self.choices = clock + self.choices
        self.columns = 4

    def choose(self, key: str) -> None:
        if key.startswith("clock:"):
            self.answer(clock_bearing(int(key.split(":")[1]) % 12, self.turned))
            return
        if key == "ok" and self.entry is not None:
            try:
                value = parse_bearing(self.entry.get_text(), self.turned)
            except ValueError as e:
                self.error = str(e)
                return
            self.answer(value)
            return
        super().choose(key)

    def answer(self, degrees: float) -> None:
        try:
            value = check_face(degrees, self.request)
        except (ValueError, TypeError) as e:
            self.error = str(e)
            return
        self.close(None)
        self.answered(value)


def dice_dialog(request: RollRequest, then: Callable[[float | None], None], context: str = "",
                may_roll: bool = False, turned: bool = False) -> DiceDialog:
    """The dialog asking the players for one die: a bearing by the clock, any other die by its face."""
    if request.kind == "bearing":
        return BearingDialog(request, then, context, may_roll, turned)
    return DiceDialog(request, then, context, may_roll)
