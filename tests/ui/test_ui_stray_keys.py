"""Stray keys at the hot-seat table: a hand-off (and every dialog guarding a secret) takes only a key pressed while
it is shown, an End turn that would pass is asked first, and the end-of-round dialog hides the table."""

from pathlib import Path

import pygame

from referee.game.battle.intents import Action
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.battle.state import state_from_scenario
from referee.rules.scenario import load_scenario
from referee.service.session import BattleSession
from referee.ui.scenes import dialogs
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog, HandoffScreen

TABLE = Path(__file__).with_name("table.toml")


def battle(app) -> tuple[BattleScene, BattleSession]:
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), SeededDice(3), hotseat=True, viewer="A", autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    return scene, session


def down(k: int, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, unicode=unicode, mod=0)


def up(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYUP, key=k, mod=0)


def test_the_hand_off_ignores_keys_pressed_before_it_appeared_and_held_keys(fresh, monkeypatch):
    scene, session = battle(fresh)
    scene.select("a-eng")
    scene.press("activate")
    scene.press("end-activation")
    assert session.state.turn.player == "A" and session.state.turn.acted
    # Enter held down (it confirmed something), then N ends the turn; Enter's repeats and a fresh Enter typed ahead
    # arrive in the same batch of events, before the hand-off screen was ever drawn.
    fresh.step(1 / 30, events=[down(pygame.K_RETURN, "\r"), down(pygame.K_n, "n"), up(pygame.K_n),
                               down(pygame.K_RETURN, "\r"), down(pygame.K_SPACE, " "), up(pygame.K_SPACE)])
    handoff = fresh.scene
    assert isinstance(handoff, HandoffScreen) and handoff.side == "B"
    assert session.viewer == "A"
    # Drawn now, but a key arriving in its first moments was pressed before anybody could read it.
    fresh.step(1 / 30, events=[down(pygame.K_SPACE, " "), up(pygame.K_SPACE)])
    assert fresh.scene is handoff and session.viewer == "A"
    monkeypatch.setattr(dialogs, "ARM_MS", 0)
    # Enter is still held: its repeats never open the table.
    fresh.step(1 / 30, events=[down(pygame.K_RETURN, "\r"), down(pygame.K_RETURN, "\r")])
    assert fresh.scene is handoff and session.viewer == "A"
    # Released and pressed again by the next player: the table opens, for side B.
    fresh.step(1 / 30, events=[up(pygame.K_RETURN), down(pygame.K_RETURN, "\r")])
    assert fresh.scene is scene and session.viewer == "B"


def test_end_turn_without_an_activation_asks_before_it_passes(fresh, monkeypatch):
    monkeypatch.setattr(dialogs, "ARM_MS", 0)
    scene, session = battle(fresh)
    assert not session.state.turn.acted
    before = session.state.to_data()
    fresh.step(1 / 30, events=[down(pygame.K_n, "n"), down(pygame.K_n, "n"), down(pygame.K_n, "n")])
    ask = fresh.scene
    assert isinstance(ask, Dialog) and ask.heading == "Side A: pass the turn?"
    assert "ending it now is a pass [p.16, A22]" in ask.lines[0]
    assert session.state.to_data() == before                 # N's repeats did nothing
    ask.choose("play")
    assert session.state.to_data() == before and session.state.turn.player == "A"
    scene.press("end-turn")
    fresh.scene.choose("pass")
    assert any(e.text == "side A passes" for e in session.state.log)
    assert session.state.turn.player == "B"


def test_after_an_activation_end_turn_needs_no_confirmation(fresh):
    scene, session = battle(fresh)
    scene.select("a-eng")
    scene.press("activate")
    scene.press("end-activation")
    if session.state.turn.player == "A":
        scene.press("end-turn")
    assert session.state.turn.player == "B"
    assert not any(e.text == "side A passes" for e in session.state.log)


def test_the_end_of_round_dialog_hides_the_players_secret_view(fresh):
    scene, session = battle(fresh)
    scene.press("end-turn")
    fresh.scene.choose("pass")
    fresh.scene.choose("ready")                               # side B takes the screen
    assert session.viewer == "B"
    scene.press("end-turn")
    ask = fresh.scene
    assert isinstance(ask, Dialog) and "a second pass in a row ends the round" in " ".join(ask.lines)
    ask.choose("pass")
    assert session.state.phase == "end-of-round"
    end = fresh.scene
    assert isinstance(end, Dialog) and end.heading.startswith("End of round")
    assert fresh.stack.visible() == [end]                     # side B's view is not drawn under it
    assert end.guards_keys


def test_the_turned_table_is_kept_after_a_resume(fresh):
    """U turns the table for side B's player; a battle resumed afterwards (a crash, Load) is shown turned again."""
    scene, session = battle(fresh)
    fresh.dispatch(down(pygame.K_u, "u"))
    assert scene.own_edge_down
    reopened = BattleSession(session.game, SeededDice(3), hotseat=True, autosaving=False)
    resumed = fresh.push(BattleScene(reopened))
    reopened.hand_to("B")
    resumed.refresh()
    assert resumed.own_edge_down and resumed.view.turned           # side B at the screen: its edge at the bottom
    fresh.dispatch(down(pygame.K_u, "u"))                          # turned back, and remembered so
    again = BattleScene(BattleSession(session.game, SeededDice(3), hotseat=True, viewer="B", autosaving=False))
    assert not again.own_edge_down


def test_after_the_third_extra_blip_move_the_mover_sees_the_result_before_the_hand_off(fresh):
    """The third extra blip activation's move ends the turn by itself: its player reads what it did on their own
    view, then the screen is hidden and handed on."""
    from referee.ui.scenes.dialogs import TurnOverScreen
    from tests.tables import game_state, unit

    def content(ident):
        return {"id": ident, "side": "A", "faction": "council-of-zane", "rating": "veteran", "type": "tactical"}

    state = game_state(units=[unit("a1", "A", 10, 10), unit("b1", "B", 30, 30)],
                       blips=[{"id": f"ab{n}", "side": "A", "x": 3.0 * n, "y": 3, "contents": [content(f"u{n}")]}
                              for n in (1, 2, 3)])
    session = BattleSession(Game(begin_battle(state, first="A")), SeededDice(3), hotseat=True, viewer="A",
                            autosaving=False)
    scene = fresh.push(BattleScene(session))
    fresh.step(1 / 30, events=[])
    scene.do(Action("activate", "a1"))
    scene.do(Action("end-activation"))
    for n in (1, 2, 3):
        scene.do(Action("activate", f"ab{n}", {"extra": True}))
        scene.do(Action("move", f"ab{n}", {"x": 3.0 * n, "y": 5.0}))
    assert session.state.turn.player == "B"
    over = fresh.scene
    assert isinstance(over, TurnOverScreen) and over.side == "B" and session.viewer == "A"
    assert fresh.stack.visible()[-2:] == [scene, over]             # side A's own view, still on the screen
    assert any("ab3" in line for line in over.lines)
    assert over.lines[1:] == session.log(explain=False)[-6:]       # the log's last six entries, as side A reads it
    over.choose("ready")
    handoff = fresh.scene
    assert type(handoff) is HandoffScreen and handoff.side == "B" and fresh.stack.visible() == [handoff]
    handoff.choose("ready")
    assert session.viewer == "B"


def test_every_unit_action_can_end_a_turn_by_itself():
    """The window's list of the actions after which a turn ends by itself holds every action of the Action Table."""
    from referee.game.play.actions import UNIT_ACTIONS
    from referee.ui.scenes.battle_questions import TURN_OVER_BY_ITSELF

    assert set(UNIT_ACTIONS) <= set(TURN_OVER_BY_ITSELF)
