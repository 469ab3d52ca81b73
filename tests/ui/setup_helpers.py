"""Driving the window's set-up in tests: every decision left to the program ("for me"), hand-offs answered."""

from __future__ import annotations

from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog, HandoffScreen
from referee.ui.scenes.pin import DrawnPinScreen, PinDialog, PinHandoff
from referee.ui.scenes.setup_table import COMPUTER_SETUP_PACE, SetupTableScene


DRAWN: dict[str, str] = {}          # the PINs the players took last, typed again when their battle is reopened


def answer_pins(app) -> dict[str, str]:
    """Each player takes the PIN the program draws for them, as a new battle asks before its set-up; the PINs."""
    pins: dict[str, str] = {}
    for _ in range(8):
        top = app.scene
        if isinstance(top, PinHandoff):
            top.choose("ready")
        elif isinstance(top, PinDialog):
            top.choose("draw")
        elif isinstance(top, DrawnPinScreen):
            pins[top.side] = top.pin
            top.choose("ready")
        else:
            break
    DRAWN.clear()
    DRAWN.update(pins)
    return pins


def reopened(app, opened):
    """The scene a battle reopened from the menu shows: at once for a battle in clear, or once its players typed
    their PINs (the ones they took last) for a sealed one."""
    if opened is not None:
        return opened
    type_pins(app, DRAWN)
    return app.stack.find(BattleScene) or app.stack.find(SetupTableScene)


def type_pins(app, pins: dict[str, str], rounds: int = 8) -> None:
    """Each player types their PIN (behind their hand-off) as a sealed battle asks when it is resumed or loaded
    (``rounds``: how many screens at most are answered)."""
    for _ in range(rounds):
        top = app.scene
        if isinstance(top, PinHandoff):
            top.choose("ready")
        elif isinstance(top, PinDialog):
            assert top.entry is not None
            top.entry.set_text(pins[top.side])
            top.choose("ok")
        else:
            break


def finish_setup(app, handoffs: bool = True) -> BattleScene:
    """From the set-up scene to the battle scene (left under its first hand-off). ``handoffs=False``: a battle
    against the computer, where no hand-off screen may appear."""
    for _ in range(2000):
        battle = app.stack.find(BattleScene)
        if battle is not None:
            return battle
        top = app.scene
        if isinstance(top, (PinHandoff, PinDialog, DrawnPinScreen)):
            answer_pins(app)                         # the players' PINs, asked as a new battle starts
        elif isinstance(top, HandoffScreen):
            assert handoffs, "a hand-off screen against the computer"
            top.choose("ready")
        elif isinstance(top, Dialog):
            top.choose(top.choices[0][0])
        elif isinstance(top, SetupTableScene) and top.computer_deciding():
            app.step(COMPUTER_SETUP_PACE * 1.1, events=[])      # the computer's decision comes after a pause
        elif isinstance(top, SetupTableScene):
            if top.decision().get("step") == "blip":
                top.press("rest")
            else:
                assert top.for_me(), top.message
        else:
            raise AssertionError(f"set-up stopped at {type(top).__name__}")
    raise AssertionError("set-up did not finish")
