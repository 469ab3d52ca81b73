"""Where a revealed figure stands (A66), asked in the window: the owner, on their own screen, picks one of the spots
the engine offers touching the first unit, clicks it on the table or types it (a refused typed spot keeps its dialog
open with the reason), then faces it (A13); the log says where it stands."""

import math

import pygame

from referee.game.battle.intents import Action
from referee.game.play.engine import Game, begin_battle
from referee.service.session import BattleSession
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.battle_placing import PLACE
from referee.ui.scenes.dialogs import Dialog, HandoffScreen, TextDialog
from tests.tables import game_state, unit


def content(ident, side):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": "tactical"}


def revealed(app, hotseat: bool = True) -> tuple[BattleScene, BattleSession]:
    """Side A's a1 Targets B's blip bb (two tacticals) at (15, 10): bb is revealed, b1 on the counter."""
    state = game_state(units=[unit("a1", "A", 10, 10, facing=0), unit("b-far", "B", 30, 30)],
                       blips=[{"id": "bb", "side": "B", "x": 15, "y": 10,
                               "contents": [content("b1", "B"), content("b2", "B")]}])
    session = BattleSession(Game(begin_battle(state, first="A")), None, hotseat=hotseat, viewer="A",
                            autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    scene.do(Action("activate", "a1"))
    scene.do(Action("target", "a1", {"dice": 2, "assign": {"bb": 1}}), "Target", given=[6, 6])
    assert "b2" in session.state.to_place
    return scene, session


def test_the_owner_is_asked_where_the_second_figure_stands_behind_a_hand_off(fresh):
    scene, session = revealed(fresh)
    handoff = fresh.scene
    assert isinstance(handoff, HandoffScreen) and handoff.side == "B"      # side B's question, B's screen
    handoff.choose("ready")
    ask = fresh.scene
    assert isinstance(ask, Dialog) and ask.heading == "Place b2"
    assert "[p.17, A66]" in ask.lines[0]
    labels = dict(ask.choices)
    right = next(k for k, label in ask.choices if label.startswith("3 o'clock"))
    assert labels[right] == "3 o'clock (16.00, 10.00)"          # to the right of b1 as side B sees the table
    assert {"click", "type", "keep"} <= set(labels)
    ask.choose(right)
    b2 = session.state.units["b2"]
    assert (b2.x, b2.y) == (16.0, 10.0)
    assert any(e.text == "side B places b2 at (16.00, 10.00), touching b1" for e in session.state.log)
    # Then its owner faces the troopers just revealed (A13).
    face = fresh.scene
    assert isinstance(face, Dialog) and face.heading.startswith("Face b")


def test_a_click_is_carried_to_the_touching_spot_and_a_typed_spot_is_checked_before_the_dialog_closes(fresh):
    scene, session = revealed(fresh, hotseat=False)
    ask = fresh.scene
    assert isinstance(ask, Dialog) and ask.heading == "Place b2"
    ask.choose("type")
    typed = fresh.scene
    assert isinstance(typed, TextDialog)
    typed.entry.set_text("20 10")
    typed.choose("ok")
    assert fresh.scene is typed and "from touching b1" in typed.error           # kept open, with the reason
    typed.entry.set_text("east")
    typed.choose("ok")
    assert fresh.scene is typed and "two numbers" in typed.error
    typed.choose("cancel")                                                      # back to the question
    ask = fresh.scene
    assert isinstance(ask, Dialog) and ask.heading == "Place b2"
    ask.choose("click")
    assert scene.tool == PLACE and fresh.scene is scene
    fresh.step(1 / 30, events=[])
    pos = tuple(round(v) for v in scene.view.to_screen(15.3, 12.5))            # above b1, not touching it
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    b1, b2 = session.state.units["b1"], session.state.units["b2"]
    assert abs(math.hypot(b2.x - b1.x, b2.y - b1.y) - 1.0) < 1e-3 and b2.y > 10.9
    assert "b2" not in session.state.to_place


def test_the_typed_spot_places_it(fresh):
    scene, session = revealed(fresh, hotseat=False)
    fresh.scene.choose("type")
    typed = fresh.scene
    typed.entry.set_text("15, 9")
    typed.choose("ok")
    assert (session.state.units["b2"].x, session.state.units["b2"].y) == (15.0, 9.0)
