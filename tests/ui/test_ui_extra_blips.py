"""Extra blip activations in the window: X on another blip while the activated one has no action left ends that
activation first (nothing of it is lost), instead of refusing until Q is pressed."""

from referee.game.battle.intents import Action
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.service.session import BattleSession
from referee.ui.scenes.battle import BattleScene
from tests.tables import game_state, unit


def content(ident):
    return {"id": ident, "side": "A", "faction": "council-of-zane", "rating": "veteran", "type": "tactical"}


def battle(app):
    state = game_state(units=[unit("b1", "B", 30, 30)],
                       blips=[{"id": "ab", "side": "A", "x": 5, "y": 3, "contents": [content("a2")]},
                              {"id": "ac", "side": "A", "x": 8, "y": 3, "contents": [content("a3")]}])
    session = BattleSession(Game(begin_battle(state, first="A")), SeededDice(1), hotseat=False, viewer="A",
                            autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    return scene, session


def test_x_after_the_main_blips_last_action_starts_the_extra_activation(fresh):
    scene, session = battle(fresh)
    scene.do(Action("activate", "ab"))
    scene.do(Action("move", "ab", {"x": 5.0, "y": 5.0}))
    t = session.state.turn
    assert t.active == "ab" and t.actions_left == 0
    scene.select("ac")
    scene.press("extra")
    t = session.state.turn
    assert t.active == "ac" and t.activation_kind == "extra" and t.extra_blips_used == 1
    kinds = [e.action.kind for e in session.game.record]
    assert kinds == ["activate", "move", "end-activation", "activate"]


def test_x_while_the_main_blip_still_has_an_action_is_refused_with_the_rule(fresh):
    scene, session = battle(fresh)
    scene.do(Action("activate", "ab"))
    scene.select("ac")
    scene.press("extra")
    assert session.state.turn.active == "ab" and len(session.game.record) == 1
    assert "still being activated" in " ".join(scene.log_lines)
