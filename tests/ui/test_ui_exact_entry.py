"""Exact entry in the battle: a Move's waypoint or a Jump's landing point typed as x and y (D), checked by the rules
before its dialog closes (a refused entry keeps the dialog open with the reason), and a clicked point snapped to the
tenth of an inch, so that the point previewed is the point the engine is sent."""

import pygame

from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.service.session import BattleSession
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import TextDialog
from referee.ui.scenes.table_common import JUMP, MOVE
from tests.tables import game_state, unit


def battle(app, kind: str = "tactical") -> tuple[BattleScene, BattleSession]:
    state = game_state(units=[unit("a1", "A", 10, 10, type=kind, facing=90), unit("b1", "B", 30, 30)])
    session = BattleSession(Game(begin_battle(state, first="A")), SeededDice(2), hotseat=False, viewer="A",
                            autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    scene.select("a1")
    scene.press("activate")
    return scene, session


def key(app, k: int, unicode: str = "") -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, unicode=unicode, mod=0))
    app.dispatch(pygame.event.Event(pygame.KEYUP, key=k, mod=0))


def test_a_typed_move_destination_is_checked_previewed_and_sent_exactly(fresh):
    scene, session = battle(fresh)
    scene.set_tool(MOVE)
    key(fresh, pygame.K_d, "d")
    typed = fresh.scene
    assert isinstance(typed, TextDialog)
    typed.entry.set_text("10 30")                                  # 20" away: more than a Move allows
    typed.choose("ok")
    assert fresh.scene is typed and typed.error.startswith("not allowed: the path costs")
    typed.entry.set_text("ten, 12")
    typed.choose("ok")
    assert fresh.scene is typed and "two numbers" in typed.error
    typed.entry.set_text("10.25, 13.75")
    typed.choose("ok")
    assert fresh.scene is scene
    assert scene.waypoints == [(10.25, 13.75)]
    assert scene.log_lines[0] == "typed: (10.25, 13.75); Enter sends it"
    key(fresh, pygame.K_RETURN, "\r")
    a1 = session.state.units["a1"]
    assert (a1.x, a1.y) == (10.25, 13.75)
    assert any("(10.25, 13.75)" in e.text for e in session.state.log)


def test_a_typed_jump_landing_point(fresh):
    scene, session = battle(fresh, "scout")
    scene.set_tool(JUMP)
    key(fresh, pygame.K_d, "d")
    typed = fresh.scene
    typed.entry.set_text("12.5 15")
    typed.choose("ok")
    assert scene.jump_point == (12.5, 15.0) and scene.jump_result.legal


def test_a_clicked_waypoint_is_snapped_to_a_tenth_of_an_inch(fresh):
    scene, session = battle(fresh)
    scene.set_tool(MOVE)
    pos = tuple(round(v) for v in scene.view.to_screen(12.337, 11.861))
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    (x, y), = scene.waypoints
    assert abs(x * 10 - round(x * 10)) < 1e-9 and abs(y * 10 - round(y * 10)) < 1e-9
    assert abs(x - 12.337) < 0.2 and abs(y - 11.861) < 0.2
    key(fresh, pygame.K_RETURN, "\r")
    a1 = session.state.units["a1"]
    assert (a1.x, a1.y) == (x, y)


def test_enter_held_down_in_the_box_previews_the_point_and_sends_nothing_until_pressed_again(fresh, monkeypatch):
    """The player types the point and holds Enter: its first press closes the box on the preview; its repeats act on
    nothing (they sent the Move, unseen, and a blip ending within 6" of an enemy is revealed by it)."""
    from referee.ui.scenes import dialogs

    monkeypatch.setattr(dialogs, "ARM_MS", 0)
    scene, session = battle(fresh)
    scene.set_tool(MOVE)
    key(fresh, pygame.K_d, "d")
    typed = fresh.scene
    assert isinstance(typed, TextDialog)
    fresh.step(1 / 30, events=[])
    typed.entry.set_text("10.25, 13.75")
    pygame.event.clear()
    down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, unicode="\r", mod=0, scancode=40)
    pygame.event.post(down)
    fresh.step(1 / 30)                                     # the box's text entry says it is finished: read next
    fresh.step(1 / 30)
    assert fresh.scene is scene and scene.waypoints == [(10.25, 13.75)]
    for _ in range(5):                                     # the key's own repeats, held down
        pygame.event.post(down)
        fresh.step(1 / 30)
    a1 = session.state.units["a1"]
    assert (a1.x, a1.y) == (10.0, 10.0) and scene.waypoints == [(10.25, 13.75)]
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, scancode=40))
    pygame.event.post(down)                                # pressed again: sent
    fresh.step(1 / 30)
    a1 = session.state.units["a1"]
    assert (a1.x, a1.y) == (10.25, 13.75)
