"""Base contact in the window: a Move or Jump clicked on another piece ends touching it (exactly, as a Repair needs),
and a Kamikaze clicked on its target goes to a spot touching it, so that the contact roll is made (A34)."""

import pygame

from referee.game.battle.intents import Action
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.rules.geometry import edge_range
from referee.service.session import BattleSession
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog
from referee.ui.scenes.table_common import MOVE
from tests.tables import game_state, unit


def battle(app, units) -> tuple[BattleScene, BattleSession]:
    state = game_state(units=units)
    session = BattleSession(Game(begin_battle(state, first="A")), SeededDice(2), hotseat=False, viewer="A",
                            autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    return scene, session


def click_on(app, scene, piece_id: str) -> None:
    p = scene.table.bf.pieces[piece_id]
    pos = tuple(round(v) for v in scene.view.to_screen(p.x, p.y))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def test_an_engineer_moves_into_contact_with_a_damaged_trooper_and_repairs_it(fresh):
    scene, session = battle(fresh, [unit("eng", "A", 10, 10, type="engineer", facing=0),
                                    unit("tac", "A", 14, 10, damaged=True), unit("b1", "B", 30, 30)])
    scene.select("eng")
    scene.press("activate")
    scene.set_tool(MOVE)
    click_on(fresh, scene, "tac")
    assert scene.waypoints == [(13.0, 10.0)]                 # touching tac, on eng's side
    assert scene.move_result is not None and scene.move_result.legal, scene.move_result.reason
    assert scene.log_lines[0] == "the base ends touching tac at (13.000, 10.000)"
    scene.confirm()
    s = session.state
    assert edge_range(s.battlefield().piece("eng"), s.battlefield().piece("tac")) == 0.0
    assert session.check(Action("repair", "eng", {"target": "tac"})).legal
    scene.press("repair")
    click_on(fresh, scene, "tac")
    assert isinstance(fresh.scene, Dialog)
    fresh.scene.choose("go")
    assert not session.state.units["tac"].damaged


def test_a_kamikaze_clicked_on_its_target_goes_into_contact_and_rolls_for_it(fresh):
    scene, session = battle(fresh, [unit("kd", "A", 10, 10, type="kamikaze-drone"), unit("b1", "B", 14, 10),
                                    unit("b-far", "B", 30, 30)])
    scene.select("kd")
    scene.press("activate")
    scene.press("kamikaze")
    click_on(fresh, scene, "b1")
    confirm = fresh.scene
    assert isinstance(confirm, Dialog), scene.log_lines
    assert confirm.lines[0].startswith("kd moves to (13.00, 10.00) and explodes [p.34, A35], touching b1")
    assert confirm.lines[1].startswith("contact roll against b1:")
    confirm.choose("go")
    # The contact roll was made: b1 destroyed by it, or the roll failed and the drone detonated.
    assert any(e.text.startswith("contact! b1 is destroyed") or e.text.startswith("contact roll ")
               for e in session.state.log)
