"""The players' PINs in the window (issue 32): a new battle asks each player behind a hand-off, the box takes only
keys pressed while it is shown, and the battle's files are sealed from its first autosave; a sealed autosave is
offered for resuming and opens once both players typed their PINs."""

from __future__ import annotations

import json

import pygame

from referee.game.records.autosave import autosave_path
from referee.ui.scenes import dialogs
from referee.ui.scenes.menu import MenuScene
from referee.ui.scenes.pin import DrawnPinScreen, PinDialog, PinHandoff
from referee.ui.scenes.setup import SetupScene
from referee.ui.scenes.setup_table import SetupTableScene

from tests.ui.setup_helpers import type_pins


def down(k: int, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, unicode=unicode, mod=0)


def up(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYUP, key=k, mod=0)


def test_each_player_sets_a_pin_privately_and_the_files_are_sealed(fresh, monkeypatch):
    setup = fresh.push(SetupScene())
    fresh.step(1 / 30, events=[])
    setup.widgets["seed"].set_text("21")
    session = setup.start()
    assert session is not None and not session.sealed
    handoff = fresh.scene
    assert isinstance(handoff, PinHandoff) and handoff.side == "A"
    handoff.choose("ready")
    box = fresh.scene
    assert isinstance(box, PinDialog) and box.side == "A"
    # Enter held from the button before, and keys typed before the box could be read, send nothing.
    fresh.step(1 / 30, events=[down(pygame.K_RETURN, "\r"), down(pygame.K_RETURN, "\r")])
    assert fresh.scene is box
    monkeypatch.setattr(dialogs, "ARM_MS", 0)
    fresh.step(1 / 30, events=[down(pygame.K_RETURN, "\r")])          # still held: a repeat
    assert fresh.scene is box
    box.entry.set_text("ab")
    box.choose("ok")
    assert fresh.scene is box and "at least 4 characters" in box.error
    box.entry.set_text("47.11")
    box.choose("ok")
    assert isinstance(fresh.scene, PinHandoff) and fresh.scene.side == "B"
    fresh.scene.choose("ready")
    fresh.scene.choose("draw")
    drawn = fresh.scene
    assert isinstance(drawn, DrawnPinScreen) and len(drawn.pin) == 14
    drawn.choose("ready")
    assert isinstance(fresh.scene, SetupTableScene) and session.sealed
    fresh.scene.press("roll")
    text = autosave_path().read_text()
    # "47.11" has a dot, which no sealed (base64) text holds: a 4-digit PIN turns up in a long one by chance.
    assert json.loads(text)["version"] == 5 and "47.11" not in text and drawn.pin not in text
    assert session.state.missions == {} or all(m not in text for m in session.state.missions.values())
    # The menu offers the sealed battle; it opens once both players typed their PINs.
    while len(fresh.stack):
        fresh.stack.pop()
    menu = fresh.push(MenuScene())
    assert menu.interrupted is not None and "sealed for its players" in menu.interrupted.summary()
    assert menu.open_battle(menu.interrupted) is None
    type_pins(fresh, {"A": "47.11", "B": "0000"}, rounds=4)
    # Side B's PIN did not open its part: B alone types it again, behind B's hand-off.
    again = fresh.scene
    assert isinstance(again, PinHandoff) and again.side == "B" and menu.error == ""
    assert any("Side B's PIN did not open its part of the battle: type it again." in line for line in again.lines)
    type_pins(fresh, {"B": drawn.pin})
    opened = fresh.stack.find(SetupTableScene)
    assert opened is not None and opened.session.state.to_data() == session.state.to_data()


def test_against_the_computer_the_player_may_let_the_program_keep_their_key(fresh):
    setup = fresh.push(SetupScene())
    fresh.step(1 / 30, events=[])
    setup.opponent_label = "The computer plays side B, normal"
    session = setup.start()
    assert session is not None and session.computer is not None
    box = fresh.scene
    assert isinstance(box, PinDialog) and [key for key, _ in box.choices] == ["ok", "draw", "keep"]
    box.choose("keep")
    assert isinstance(fresh.scene, SetupTableScene) and session.sealed       # sealed all the same
    fresh.scene.press("roll")
    doc = json.loads(autosave_path().read_text())
    assert doc["version"] == 5 and not any(doc["public"]["state"]["holding"].values())
    # Resumed from the menu with no PIN asked: both keys are the program's.
    while len(fresh.stack):
        fresh.stack.pop()
    menu = fresh.push(MenuScene())
    assert menu.interrupted is not None
    menu.open_battle(menu.interrupted)
    opened = fresh.stack.find(SetupTableScene)
    assert opened is not None and opened.session.state.to_data() == session.state.to_data()


def test_a_pin_typed_as_draw_is_that_pin(fresh):
    setup = fresh.push(SetupScene())
    fresh.step(1 / 30, events=[])
    session = setup.start()
    assert session is not None
    for side in ("A", "B"):
        fresh.scene.choose("ready")                    # the hand-off
        fresh.scene.entry.set_text("draw" if side == "A" else "keep")
        fresh.scene.choose("ok")
    assert isinstance(fresh.scene, SetupTableScene) and session.game.keys.pins == {"A": "draw", "B": "keep"}


def test_w_in_set_up_against_the_computer_says_when_it_can_be_served(fresh):
    setup = fresh.push(SetupScene())
    fresh.step(1 / 30, events=[])
    setup.opponent_label = "The computer plays side B, easy"
    session = setup.start()
    assert session is not None
    fresh.scene.choose("keep")
    table = fresh.scene
    assert isinstance(table, SetupTableScene)
    fresh.step(1 / 30, events=[down(pygame.K_w, "w"), up(pygame.K_w)])
    assert fresh.scene is table and "press W once the battle has begun" in table.message
