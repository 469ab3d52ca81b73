"""After the last round the human's own mission allows, the end-of-round dialog says so and its first choice ends
the battle: it offered "Next round" while the engine ended the battle at that very choice (A43)."""

import pygame
import pytest

from referee.game.battle.intents import Action
from referee.game.play.victory import end_of_round_lines, last_round
from referee.ui.app import App
from referee.ui.scenes.battle_computer import COMPUTER_PACE
from referee.ui.scenes.dialogs import Dialog
from referee.ui.scenes.report import ReportScene
from tests.ui.test_ui_computer import start_against_computer


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def _to_the_end_of_the_round(app, scene, session) -> Dialog:
    for _ in range(300):
        if isinstance(app.scene, Dialog) and session.state.phase == "end-of-round":
            return app.scene
        if isinstance(app.scene, Dialog):            # a revealed trooper's facing (A13), kept as it is
            keys = [k for k, _ in app.scene.choices]
            app.scene.choose("keep" if "keep" in keys else keys[-1])
        elif session.computer_to_act():
            app.step(COMPUTER_PACE * 1.1, events=[])
        elif session.state.phase == "end-of-round":
            scene.next_step()
        else:
            scene.do(Action("end-turn"))       # the human passes; the computer plays its counters out
    raise AssertionError("the round did not end")


def test_the_last_round_of_the_humans_mission_ends_the_battle_from_the_end_of_round_dialog(app):
    scene, session = start_against_computer(app, seed=11)
    s = session.state
    s.missions["A"] = "eyes-on"                   # its card: the battle ends after round 6
    s.missions["B"] = "hold-the-line"             # no limit of its own
    s.round = 5
    dialog = _to_the_end_of_the_round(app, scene, session)
    assert not last_round(s, "A")
    assert dialog.choices[0] == ("next", "Next round")
    assert "the last round" not in " ".join(dialog.text_lines())
    dialog.choose("next")
    assert session.state.round == 6                 # each action leaves a new state: read the session's
    dialog = _to_the_end_of_the_round(app, scene, session)
    s = session.state
    assert last_round(s, "A") and not last_round(s, "B")
    assert dialog.choices[0] == ("next", "End the battle")
    assert any("this was the last round" in line for line in end_of_round_lines(s, "A"))
    assert "End of round 6: the last round of your mission" in scene.banner_text()
    dialog.choose("next")
    assert session.over
    assert any("round limit of 6 is reached" in e.text for e in session.state.log)
    assert isinstance(app.scene, ReportScene) or app.stack.find(ReportScene) is not None


def test_with_no_enemy_trooper_left_the_dialog_offers_only_the_end_of_the_battle(app):
    scene, session = start_against_computer(app, seed=11)
    s = session.state
    for uid in [u for u, unit in s.units.items() if unit.side == "B" and not unit.is_drone]:
        del s.units[uid]
    for n, contents in s.holding["B"].squares.items():      # every trooper of B gone: its squares hold none
        s.holding["B"].squares[n] = [c for c in contents or [] if c.type.endswith("drone")]
    dialog = _to_the_end_of_the_round(app, scene, session)
    assert dialog.choices == [("next", "End the battle")]
    assert "only side A has troopers left" in " ".join(dialog.text_lines())
    dialog.choose("next")
    assert session.over and session.state.control == "A"
