"""The battle scene's keys: one table (``ui/keys.py``) from which the battle's key handling and its help come."""

from __future__ import annotations

import pygame

from ...game.battle.action_kinds import Kind, button
from ..keys import ANY, CTRL, CTRL_SHIFT_Z, DIGITS, ENTER, EVENT, MINUS, PLAIN, PLUS, SHIFT, Gesture, Key, KeyTable
from .table_common import LOOKING, TOOLS


def actions(label: str, does: str, letters: dict[int, str]) -> Key:
    """Letters that press the action bar's buttons (when no action's choice is under way): key -> action."""
    return Key(label, does, "action_key", tuple(letters), PLAIN, each=tuple((a,) for a in letters.values()))


def kinds(label: str, does: str, *names: str) -> Key:
    """The keys of action kinds' buttons, each the letter its kind's entry names (``action_kinds``)."""
    return actions(label, does, {ord(button(name).key): name for name in names})


BATTLE = ("Battle", (
    kinds("A / X", "activate the selected unit or blip / extra blip activation", Kind.ACTIVATE, "extra"),
    kinds("T", "Target: sensor dice, then counters (below)", Kind.TARGET),
    kinds("G / I / L / K", "rifle / missile / flamer / kamikaze", Kind.RIFLE, Kind.MISSILE, Kind.FLAMER, Kind.KAMIKAZE),
    kinds("C / P / V", "Command / Repair / reveal the active blip", Kind.COMMAND, Kind.REPAIR, Kind.REVEAL),
    kinds("Q / N", "end the activation / end the turn", Kind.END_ACTIVATION, Kind.END_TURN),
    actions("O", "your holding area, mission and cards", {pygame.K_o: "holding"}),
    Key("U", "turn the table: each player's own edge at the bottom", "turn_table_key", (pygame.K_u,), PLAIN),
    Key("W", "phones and remote play: serve the battle, a QR code per seat", "phones", (pygame.K_w,), PLAIN),
    Key("Shift+L", "log of the selected unit only / of all", "press", (pygame.K_l,), SHIFT, ("log",)),
    Key("Ctrl+Y / Ctrl+Shift+Z", "redo: play the action taken back again, same dice", "questions.redo",
        (pygame.K_y, pygame.K_z), CTRL_SHIFT_Z),
    Key("Ctrl+Z", "undo the last action", "questions.undo", (pygame.K_z,), CTRL),
    Key("Ctrl+S", "save the battle", "questions.save", (pygame.K_s,), CTRL),
    Key("Esc", "cancel choosing a target, the smoke, the drone's point, a unit's spot", "cancel_choice", (pygame.K_ESCAPE,)),
    Key("Tab / Shift+Tab", "choosing a target (after G, I, C or P): the next / previous one the rules allow",
        "choices.next_pick", (pygame.K_TAB,), ANY, (EVENT,)),
    Key("Enter", "choosing a target: take the one Tab chose", "choices.take_pointed", ENTER),
))
TARGET = ("Target counters (after T)", (
    Key("1 to 9", "how many sensor dice (before the roll)", "target.dice_key", tuple(DIGITS), ANY, (EVENT,)),
    Key("+ / -", "one die more / fewer (before the roll); after it, one counter more / less on the piece Tab chose",
        "target.more_fewer", PLUS + MINUS, ANY, (EVENT,)),
    Key("Tab / Shift+Tab", "after the roll: the next / previous piece to put counters on", "target.next_piece",
        (pygame.K_TAB,), ANY, (EVENT,)),
    Key("Shift+Enter", "after the roll: place none (the points are lost)", "target.place_none", ENTER, SHIFT),
    Key("Enter", "roll the dice; after the roll: place the counters", "target.enter", ENTER),
    Gesture("Click a piece", "one counter on it (right click: one off)"),
    Key("Esc", "cancel (after the roll: what is left to place)", "target.escape", (pygame.K_ESCAPE,)),
    Key("Other keys", "wait until the counters are placed", "target.holds_keys", ()),
))
# The battle's own keys come before the table's: its Enter and Esc while a choice is under way, then the table's.
BATTLE_KEYS: KeyTable = (BATTLE, TARGET, LOOKING, TOOLS)
