"""A Move or Jump preview says when a blip would end within 6\" of an enemy, where the engine reveals it first
(p.18, A15): the preview and the engine ask the same question."""

from referee.game.battle.intents import Action
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.service.session import BattleSession
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.table_common import MOVE
from tests.tables import game_state, unit


def content(ident, side):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": "tactical"}


def battle(app):
    """Side A's blip ab at (5, 3), side B's trooper b1 at (5, 14): 11" apart, centre to centre."""
    state = game_state(units=[unit("b1", "B", 5, 14), unit("b-far", "B", 30, 30)],
                       blips=[{"id": "ab", "side": "A", "x": 5, "y": 3, "contents": [content("a1", "A")]}])
    session = BattleSession(Game(begin_battle(state, first="A")), SeededDice(1), hotseat=False, viewer="A",
                            autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    scene.select("ab")
    scene.press("activate")
    return scene, session


def test_a_move_ending_within_six_inches_of_an_enemy_is_flagged_and_the_engine_reveals_it(fresh):
    scene, session = battle(fresh)
    scene.set_tool(MOVE)
    far = scene.set_move_path([(5.0, 6.0)])
    assert far is not None and far.legal
    assert not any("WARNING" in line for line in scene.log_lines)
    # (5, 6): 8" centre to centre, 7" edge to edge: no warning (above). (5, 7.5): 5.5" edge to edge.
    near = scene.set_move_path([(5.0, 7.5)])
    assert near is not None and near.legal
    assert scene.log_lines[0] == "WARNING: ab would end within 6\" of b1: it is revealed there [p.18, A15]"
    out = session.attempt(Action("move", "ab", {"x": 5.0, "y": 7.5}))
    assert out.legal and "ab" not in session.state.blips
    assert any("ab is revealed" in e for e in out.outcome.events)
