"""Driving the window's set-up in tests: every decision left to the program ("for me"), hand-offs answered."""

from __future__ import annotations

from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog, HandoffScreen
from referee.ui.scenes.setup_table import COMPUTER_SETUP_PACE, SetupTableScene


def finish_setup(app, handoffs: bool = True) -> BattleScene:
    """From the set-up scene to the battle scene (left under its first hand-off). ``handoffs=False``: a battle
    against the computer, where no hand-off screen may appear."""
    for _ in range(2000):
        battle = app.stack.find(BattleScene)
        if battle is not None:
            return battle
        top = app.scene
        if isinstance(top, HandoffScreen):
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
