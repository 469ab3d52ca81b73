"""Against the computer, the log reads in order: the reason it ends its turn stands where its turn ends, before the
heading of the human's next turn, not under it."""

import pygame
import pytest

from referee.game.battle.intents import Action
from referee.ui.app import App
from referee.ui.scenes.battle_computer import COMPUTER_PACE
from referee.ui.scenes.dialogs import Dialog
from tests.ui.test_ui_computer import start_against_computer


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def test_the_reason_the_computer_ends_its_turn_comes_before_the_next_turns_heading(app):
    # A battle in which the computer ends a turn of its own accord in round 1. Seed 11's did until the attacker's
    # blips could stand up to 6" + their radius from the edge (A61), seed 12's until the window's battles drew their
    # blips' labels apart: each changed its set-up, and so its battle.
    scene, session = start_against_computer(app, seed=13, opponent="The computer plays side B, normal")
    ended = None
    for _ in range(60):
        if isinstance(app.scene, Dialog):
            keys = [k for k, _ in app.scene.choices]
            app.scene.choose("next" if "next" in keys else "keep" if "keep" in keys else keys[0])
            continue
        if session.computer_to_act():
            before = len(session.state.log)
            app.step(COMPUTER_PACE * 1.1, events=[])
            notes = {at: note for at, note in session.computer_notes.items() if note.startswith("ends its turn")}
            if notes:
                ended = before, max(notes)
                break
            continue
        if session.state.phase != "action":
            break
        scene.do(Action("end-turn"))           # the human passes: the computer plays on until it ends its turn
    assert ended is not None, "the computer never ended a turn with a reason"
    scene.show_log()
    lines = scene.log_lines
    note = next(i for i, line in enumerate(lines) if line.strip().startswith("the computer: ends its turn"))
    above = [line for line in lines[:note] if line.startswith("[")]
    assert "side A's turn" not in above[-1], "the reason stands under the next turn's heading"
    later = [line for line in lines[note + 1:] if line.startswith("[")]
    assert later and "side A's turn" in later[0], lines[note - 2: note + 3]
