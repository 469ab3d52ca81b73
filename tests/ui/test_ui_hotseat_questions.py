"""Hot-seat: each question is asked on the screen of the player it belongs to, behind a hand-off."""

from tests.ui.setup_helpers import answer_pins


import pygame
import pytest

from pathlib import Path

from referee.game.battle.intents import Action
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.battle.state import state_from_scenario
from referee.rules.scenario import load_scenario
from referee.ui.app import App
from referee.service.session import BattleSession
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog, HandoffScreen

TABLE = Path(__file__).with_name("table.toml")


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def table_battle(app, dice=None) -> tuple[BattleScene, BattleSession]:
    """The test table with every unit revealed, side A to play."""
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), dice, hotseat=True, viewer="A", autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    return scene, session


def to_end_of_round(app, scene, session) -> None:
    """Both sides pass until the round ends, each hand-off answered by the player it names."""
    while session.state.phase == "action":
        if isinstance(app.scene, HandoffScreen):
            app.scene.choose("ready")
        scene.do(Action("end-turn"))
    while isinstance(app.scene, HandoffScreen):
        app.scene.choose("ready")


@pytest.mark.parametrize("withdrawing", ["A", "B"])
def test_the_allow_or_pursue_question_goes_to_the_opponent_behind_a_hand_off(app, withdrawing):
    scene, session = table_battle(app, dice=SeededDice(2))
    to_end_of_round(app, scene, session)
    assert session.state.phase == "end-of-round"
    at_screen = session.viewer
    opponent = "B" if withdrawing == "A" else "A"
    scene.questions.end_of_round()
    app.scene.choose(withdrawing)
    if at_screen != opponent:
        # The opponent's question never appears on this screen: the table is hidden and the screen is passed.
        handoff = app.scene
        assert isinstance(handoff, HandoffScreen) and handoff.side == opponent
        assert app.stack.visible() == [handoff]
        assert session.viewer == at_screen
        handoff.choose("ready")
    question = app.scene
    assert isinstance(question, Dialog) and [k for k, _ in question.choices] == ["allow", "pursue"]
    assert session.viewer == opponent
    assert f"Side {opponent}: allow the Withdraw" in question.lines[0]
    question.choose("pursue")
    assert session.state.pursuit or session.state.phase != "end-of-round"


def test_at_the_pursuers_last_round_the_question_says_a_pursuit_has_no_round_left(app):
    scene, session = table_battle(app, dice=SeededDice(2))
    to_end_of_round(app, scene, session)
    s = session.state
    opponent = "B" if session.viewer == "A" else "A"
    s.missions[opponent], s.missions[session.viewer] = "delaying-action", "deep-strike"   # 6 rounds; no limit
    s.round = 6
    scene.questions.end_of_round()
    app.scene.choose(session.viewer)
    while isinstance(app.scene, HandoffScreen):
        app.scene.choose("ready")
    question = app.scene
    assert isinstance(question, Dialog) and [k for k, _ in question.choices] == ["allow", "pursue"]
    assert any(f"Your mission (side {opponent}) ends the battle after this round: a pursuit has no round left"
               in line for line in question.lines)
    question.choose("pursue")
    assert session.over and session.state.round == 6 and session.state.control is None


def test_the_holding_screen_shows_the_viewers_own_mission_and_cards(app):
    from referee.game.views.view import player_view
    from referee.game.views.view_words import card_lines
    from referee.ui.scenes.holding import HoldingScene
    from referee.ui.scenes.menu import MenuScene
    from referee.ui.scenes.setup import SetupScene

    app.push(MenuScene())
    setup = app.push(SetupScene())
    app.step(1 / 30, events=[])
    setup.widgets["seed"].set_text("5")
    session = setup.start()
    answer_pins(app)
    from tests.ui.setup_helpers import finish_setup

    scene = finish_setup(app)
    while isinstance(app.scene, HandoffScreen):
        app.scene.choose("ready")
    key_o = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_o, unicode="o", mod=0)
    app.dispatch(key_o)
    holding = app.scene
    assert isinstance(holding, HoldingScene) and scene.session is session
    me = session.viewer
    assert holding.cards == card_lines(player_view(session.state, me), me)
    assert holding.cards[0].startswith("Mission: ") and "Victory Points:" in holding.cards
    app.render()


def blip_battle(app) -> tuple[BattleScene, BattleSession]:
    """A's a1 faces B's blip bb (a tactical, b1) 4" away; side A to play, dice typed by hand."""
    from tests.tables import scenario, unit

    contents = [{"id": "b1", "side": "B", "faction": "council-of-zane", "rating": "veteran", "type": "tactical"}]
    table = scenario(units=[unit("a1", "A", 10, 10, facing=0), unit("b-far", "B", 30, 30)],
                     blips=[{"id": "bb", "side": "B", "x": 15, "y": 10, "contents": contents}])
    session = BattleSession(Game(begin_battle(state_from_scenario(table), first="A")), None, hotseat=True,
                            viewer="A", autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    return scene, session


def test_the_owner_faces_a_trooper_revealed_in_the_opponents_turn_behind_a_hand_off(app):
    from referee.ui.scenes.dialogs import DiceDialog

    scene, session = blip_battle(app)
    scene.do(Action("activate", "a1"))
    scene.do(Action("target", "a1", {"dice": 2, "assign": {"bb": 1}}))
    while isinstance(app.scene, DiceDialog):
        app.scene.choose("6")
    assert session.state.to_face == ["b1"]
    # Side B's question: the screen is handed to B first, the table hidden.
    handoff = app.scene
    assert isinstance(handoff, HandoffScreen) and handoff.side == "B"
    assert app.stack.visible() == [handoff]
    handoff.choose("ready")
    assert session.viewer == "B"
    question = app.scene
    assert isinstance(question, Dialog) and "[A13]" in question.lines[0]
    assert ("90", "90° up, to B's edge") in question.choices and question.choices[-1] == ("keep", "Keep 270°")
    question.choose("225")
    assert session.state.units["b1"].facing == 225.0
    assert session.game.record[-1].action == Action("face", "b1", {"facing": 225.0})
    # Then the screen goes back to side A, whose activation goes on.
    back = app.scene
    assert isinstance(back, HandoffScreen) and back.side == "A"
    back.choose("ready")
    assert session.viewer == "A" and session.state.turn.active == "a1"


def test_keep_leaves_the_default_facing_and_asks_no_more(app):
    from referee.ui.scenes.dialogs import DiceDialog

    scene, session = blip_battle(app)
    scene.do(Action("activate", "a1"))
    scene.do(Action("target", "a1", {"dice": 2, "assign": {"bb": 1}}))
    while isinstance(app.scene, DiceDialog):
        app.scene.choose("6")
    app.scene.choose("ready")
    app.scene.choose("keep")
    assert session.state.units["b1"].facing == 270.0
    assert isinstance(app.scene, HandoffScreen) and app.scene.side == "A"
    app.scene.choose("ready")
    assert not isinstance(app.scene, Dialog)
    scene.do(Action("end-activation"))
    assert session.state.to_face == []


def test_own_decoys_are_marked_for_their_owner_only():
    from tests.battles import OPEN_FIELD

    from referee.game.play.setup import SetupChoices, new_battle
    from referee.game.views.view import player_view
    from referee.rules.scenario import parse_scenario
    from referee.ui.table_data import table_from_view

    state, _ = new_battle(parse_scenario(OPEN_FIELD, "open field"),
                          SetupChoices({"A": "council-of-zane", "B": "new-tokyo"}), SeededDice(7))
    for side in ("A", "B"):
        decoys = {b.id for b in state.blips.values() if b.side == side and state.blip_contents(b) == []}
        assert decoys, "set-up leaves some squares empty"
        table = table_from_view(player_view(state, side))
        assert table.decoys == decoys                 # every own decoy, and not one of the opponent's blips


def test_the_table_turns_for_side_b_only_as_a_drawing(app):
    from referee.ui.view import ViewTransform

    scene, session = blip_battle(app)
    before = {pid: scene.view.to_screen(p.x, p.y) for pid, p in scene.table.bf.pieces.items()}
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u, unicode="u", mod=0))
    assert scene.own_edge_down and not scene.view.turned          # side A at the screen: its edge already down
    session.hand_to("B")
    scene.refresh()
    assert scene.view.turned
    a1 = scene.table.bf.pieces["a1"]
    sx, sy = scene.view.to_screen(a1.x, a1.y)
    assert (sx, sy) != before["a1"]
    # Side A's unit (y = 10) is now above the centre of the table, side B's edge (y = 36) at the bottom.
    assert sy < scene.view.to_screen(a1.x, 18)[1] < scene.view.to_screen(a1.x, 36)[1]
    # A click still finds the piece under it: the table's coordinates are unchanged.
    assert scene.piece_at((round(sx), round(sy))) == "a1"
    app.render()
    session.hand_to("A")
    scene.refresh()
    assert not scene.view.turned
    v = ViewTransform(36, 36, 10, 5, 7, turned=True)
    assert v.to_table(*v.to_screen(3.5, 30.25)) == pytest.approx((3.5, 30.25))
    assert v.direction(1, 0) == (-1, 0) and v.direction(0, 1) == (0, 1)


def test_the_computers_revealed_troopers_keep_their_default_facing(app):
    from referee.game.players.computer import Computer
    from referee.ui.scenes.dialogs import DiceDialog

    scene, session = blip_battle(app)
    session.computer = Computer("B")
    scene.do(Action("activate", "a1"))
    scene.do(Action("target", "a1", {"dice": 2, "assign": {"bb": 1}}))
    while isinstance(app.scene, DiceDialog):
        app.scene.choose("6")
    assert session.state.to_face == ["b1"]
    assert not scene.questions.facing_due()
    assert not isinstance(app.scene, (Dialog, HandoffScreen))     # nobody is asked for the computer's trooper
