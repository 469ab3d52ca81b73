"""The set-up in the window (A60): the players make every decision, the zones are drawn from the engine's legal
actions, every refusal shows its rule and distance, the secret steps sit behind hand-offs, and a save made after
set-up replays set-up and battle exactly in a new process."""

import json
import os
import subprocess
import sys

import pygame

from referee.game.records.record import state_digest
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog, HandoffScreen
from referee.ui.scenes.holding_setup import HoldingSetupScene
from referee.ui.scenes.setup import SetupScene
from referee.ui.scenes.setup_table import SetupTableScene
from tests.ui.setup_helpers import answer_pins
from tests.ui.setup_helpers import reopened

SHOTS = os.environ.get("SETUP_SCREENSHOTS")     # a folder: the README's set-up pictures are written there


def _hand_over(app, scene: SetupTableScene) -> None:
    """Answer the hand-off the set-up scene put up, as the next player does."""
    while isinstance(app.scene, HandoffScreen):
        assert app.stack.visible() == [app.scene], "the hand-off hides the table"
        app.scene.choose("ready")
    assert app.scene is scene


def _shot(app, name: str, mouse_away: bool = True) -> None:
    if SHOTS:
        if mouse_away:
            app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=(1000, 700), rel=(0, 0), buttons=(0, 0, 0)))
        app.screenshot(os.path.join(SHOTS, name))


def _click_table(app, scene: SetupTableScene, x: float, y: float) -> None:
    pos = tuple(round(v) for v in scene.view.to_screen(x, y))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def set_up_begun(app, seed: str = "21"):
    """A new hot-seat battle from the form (the seed typed), each player's PIN drawn: its session and set-up scene."""
    setup = app.push(SetupScene())
    app.step(1 / 30, events=[])
    setup.widgets["seed"].set_text(seed)
    session = setup.start()
    answer_pins(app)
    return session, app.scene


def test_a_hot_seat_set_up_made_by_the_players_then_saved_and_replayed(fresh, tmp_path):
    setup = fresh.push(SetupScene())
    fresh.step(1 / 30, events=[])
    setup.widgets["seed"].set_text("21")
    session = setup.start()
    pins = answer_pins(fresh)
    assert sorted(pins) == ["A", "B"]
    assert session is not None, setup.error
    scene = fresh.scene
    assert isinstance(scene, SetupTableScene) and session.state.phase == "setup"
    assert [k for _, k in scene.bar_buttons.items()] == ["roll"]
    scene.press("roll")
    s = session.state
    attacker, defender = s.attacker, ("B" if s.attacker == "A" else "A")
    assert attacker in ("A", "B"), "seed 21 gives an Attack/Defence battle"
    _hand_over(fresh, scene)
    assert session.viewer == defender and scene.decision()["step"] == "edge"
    scene.press("keep")
    # The hand-off tells the attacker, by name, what it is to do.
    assert isinstance(fresh.scene, HandoffScreen) and fresh.scene.side == attacker
    assert fresh.scene.lines[0] == f"Set-up, side {attacker}: place objective delta."
    _hand_over(fresh, scene)
    assert session.viewer == attacker and scene.decision()["objective"] == "delta"
    zone = scene.zone()
    assert zone is not None and zone["x"][0] == 6.5, "the zone drawn is the engine's"
    # A click outside the defender's 25 %: refused with the rule, nothing placed.
    wrong_y = 18.0
    _click_table(fresh, scene, 18, wrong_y)
    assert "not allowed" in scene.message and "A55" in scene.message and "25 %" in scene.message
    assert session.state.objectives == {}
    # A click in the zone places delta where the player clicked.
    (x0, x1), (y0, y1) = zone["x"], zone["y"]
    _click_table(fresh, scene, (x0 + x1) / 2, (y0 + y1) / 2)
    delta = session.state.objectives["delta"]
    assert abs(delta.x - (x0 + x1) / 2) < 0.2 and abs(delta.y - (y0 + y1) / 2) < 0.2
    # Epsilon too near delta: the distance that fails is shown.
    assert not scene.place_at(delta.x + 3, delta.y)
    assert "from delta; at least 8\"" in scene.message
    pos = tuple(round(v) for v in scene.view.to_screen(delta.x + 3, delta.y))
    fresh.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    assert scene._hover is not None and "from delta; at least 8\"" in scene._hover[1], "the spot under the mouse"
    _shot(fresh, "setup-objectives.png", mouse_away=False)
    assert scene.for_me()                                   # epsilon, for me
    _hand_over(fresh, scene)
    for _ in range(3):
        assert scene.for_me()
    # Cards: side A draws behind its hand-off and sees them alone.
    _hand_over(fresh, scene)
    assert session.viewer == "A" and scene.decision()["step"] == "cards"
    scene.press("draw")
    cards = fresh.scene
    assert isinstance(cards, Dialog) and "only you see them" in cards.heading
    assert any(line.startswith("Mission:") for line in cards.lines)
    assert any(line.startswith("Troop card:") for line in cards.lines)
    cards.choose("ok")
    _hand_over(fresh, scene)
    scene.press("draw")
    fresh.scene.choose("ok")
    # The holding area: side A arranges it; three units in one square are refused with the rule.
    _hand_over(fresh, scene)
    assert session.viewer == "A" and scene.decision()["step"] == "holding"
    scene.press("arrange")
    holding = fresh.scene
    assert isinstance(holding, HoldingSetupScene)
    units = [u["id"] for u in holding.issued]
    assert holding.put(units[0], 1) and holding.put(units[1], 1)
    # The third is refused at once, with the rule, and stays in the list: not only at Done.
    assert not holding.put(units[2], 1)
    assert holding.error == "not allowed: square 1 holds 3 units; at most 2 [p.~10]"
    assert units[2] in holding.unplaced() and holding.squares()["1"] == units[:2]
    for i, uid in enumerate(units):
        holding.put(uid, 16 - i // 2)
    _shot(fresh, "setup-holding.png")
    assert holding.finish()
    arranged = session.state.holding["A"].squares
    assert [u.id for u in arranged[16]] == units[:2]
    _hand_over(fresh, scene)
    assert scene.for_me()                                   # B fills its area, for me
    # Blips: the defender first; one placed by a click for the square the player picked, the rest for me.
    _hand_over(fresh, scene)
    assert session.viewer == defender and scene.decision()["step"] == "blip"
    scene.press("square")
    square = scene.current_square()
    zone = scene.zone()
    (x0, x1), (y0, y1) = zone["x"], zone["y"]
    _click_table(fresh, scene, 3.3, (y0 + y1) / 2)
    placed = [b for b in session.state.blips.values() if b.side == defender]
    assert len(placed) == 1 and placed[0].square == square, scene.message
    for _ in range(5):
        assert scene.for_me()
    _shot(fresh, "setup-blips.png")
    scene.press("rest")
    _hand_over(fresh, scene)
    assert session.viewer == attacker
    scene.press("rest")
    battle = fresh.stack.find(BattleScene)
    assert battle is not None and session.state.phase == "action"
    assert session.state.turn.player == attacker, "round 1: the attacker holds the Initiative"
    kinds = [e.action.kind for e in session.game.record]
    assert kinds[:3] == ["roll-roles", "choose-edge", "place-objective"] and "fill-holding" in kinds
    path = session.save(tmp_path / "battle.json")
    # Sealed for its players: replayed whole with both PINs.
    env = {**os.environ, "SEVEN_SECONDS_PIN_A": pins["A"], "SEVEN_SECONDS_PIN_B": pins["B"]}
    out = subprocess.run([sys.executable, "-m", "referee", "replay", str(path), "--json"], capture_output=True,
                         text=True, check=True, env=env)
    assert json.loads(out.stdout)["save"]["state_digest"] == state_digest(session.state)


def test_physical_dice_are_asked_for_each_set_up_roll(fresh):
    from referee.ui.scenes.dialogs import DiceDialog
    from referee.ui.scenes.setup import DICE_CHOICES

    setup = fresh.push(SetupScene())
    fresh.step(1 / 30, events=[])
    setup.dice_label = next(k for k, v in DICE_CHOICES.items() if v == "by-hand")
    session = setup.start()
    answer_pins(fresh)
    scene = fresh.scene
    scene.press("roll")
    for face, side in ((6, "A"), (2, "B")):
        dialog = fresh.scene
        assert isinstance(dialog, DiceDialog) and dialog.request.label == f"attacker/defender roll for side {side}"
        dialog.choose(str(face))
    assert session.state.attacker == "A" and [r.value for r in session.game.record[0].rolls] == [6, 2]


def test_a_battle_saved_during_set_up_opens_at_its_next_decision(fresh, tmp_path):
    from referee.ui.scenes.menu import MenuScene

    session, scene = set_up_begun(fresh)
    scene.press("roll")
    path = session.save(tmp_path / "half-set-up.json")
    while len(fresh.stack):
        fresh.stack.pop()
    menu = fresh.push(MenuScene())
    opened = reopened(fresh, menu.load_battle(path))
    assert isinstance(opened, SetupTableScene) and opened.session.state.phase == "setup"
    assert isinstance(fresh.scene, HandoffScreen), "the next decision is the defender's, behind its hand-off"
    fresh.scene.choose("ready")
    assert opened.decision()["step"] == "edge"


def test_a_winning_streak_offers_the_extra_troop_card_to_choose_a47(fresh):
    from referee import paths
    from referee.game.battle.dice import SeededDice
    from referee.game.play.setup import new_game
    from referee.rules.scenario import load_scenario
    from referee.service.session import BattleSession

    game = new_game(load_scenario(paths.DEFAULT_SCENARIO), {"A": "new-tokyo", "B": "council-of-zane"}, {"A": 2, "B": 0})
    session = BattleSession(game, SeededDice(8), hotseat=True, autosaving=False)
    scene = fresh.push(SetupTableScene(session))
    scene.begin()
    while scene.decision().get("step") != "cards":
        assert scene.for_me(), scene.message
        _hand_over(fresh, scene)
    assert session.viewer == "A"
    scene.press("draw")
    assert scene.decision()["step"] == "choose-cards" and isinstance(fresh.scene, SetupTableScene)
    offered = scene.decision()["offered"]["A"]
    assert len(offered["troop"]) == 2 and scene.decision()["offered"]["B"] is None
    scene.press("choose")
    dialog = fresh.scene
    assert isinstance(dialog, Dialog) and len(dialog.choices) == 2
    key = dialog.choices[1][0]
    dialog.choose(key)
    assert session.state.cards["A"].troop == key.split("|")[1]
    assert isinstance(fresh.scene, Dialog) and "only you see them" in fresh.scene.heading


def test_u_turns_the_table_for_side_b_and_a_click_still_lands_where_it_points(fresh):
    from referee import paths
    from referee.game.battle.intents import Action
    from referee.game.battle.dice import ScriptedDice
    from referee.game.play.setup import new_game
    from referee.rules.scenario import load_scenario
    from referee.service.session import BattleSession

    game = new_game(load_scenario(paths.DEFAULT_SCENARIO), {"A": "new-tokyo", "B": "council-of-zane"})
    session = BattleSession(game, None, hotseat=True, autosaving=False)
    game.play(Action("roll-roles"), ScriptedDice([2, 6]))
    scene = fresh.push(SetupTableScene(session))
    scene.begin()
    _hand_over(fresh, scene)
    assert session.viewer == "A", "B attacks: A, the defender, picks the edge"
    scene.press("keep")
    _hand_over(fresh, scene)
    assert session.viewer == "B" and scene.decision()["objective"] == "delta"
    fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u, mod=0, unicode="u"))
    assert scene.view.turned, "side B's player sees its own edge at the bottom"
    zone = scene.zone()
    (x0, x1), (y0, y1) = zone["x"], zone["y"]
    _click_table(fresh, scene, (x0 + x1) / 2, (y0 + y1) / 2)
    delta = session.state.objectives["delta"]
    assert abs(delta.x - (x0 + x1) / 2) < 0.2 and abs(delta.y - (y0 + y1) / 2) < 0.2, scene.message
    if SHOTS:
        fresh.screenshot(os.path.join(SHOTS, "setup-turned.png"))


def test_the_header_names_no_initiative_before_the_battle_begins(fresh):
    """Nobody holds the Initiative during set-up (it is rolled, or the attacker's, when round 1 begins): the header
    shows a dash, not "Initiative A"."""
    from referee.ui.scenes.battle import BattleScene
    from tests.ui.setup_helpers import finish_setup

    setup = fresh.push(SetupScene())
    fresh.step(1 / 30, events=[])
    setup.widgets["seed"].set_text("21")
    session = setup.start()
    answer_pins(fresh)
    scene = fresh.scene
    assert isinstance(scene, SetupTableScene) and session.state.phase == "setup"
    assert scene.table.turn.initiative is None and scene.table.turn.round is None
    battle = finish_setup(fresh)
    assert isinstance(battle, BattleScene)
    assert battle.table.turn.initiative == session.state.initiative in ("A", "B")
    assert battle.table.turn.round == 1


def test_the_blip_step_offers_a_square_drawn_at_random_not_the_lowest_free_one(fresh):
    """The order the counters go down in must tell the opponent nothing: the square offered first is drawn at
    random among the free ones (A59)."""
    from referee.ui.scenes.dialogs import Dialog

    setup = fresh.push(SetupScene())
    fresh.step(1 / 30, events=[])
    setup.widgets["seed"].set_text("21")
    assert setup.start() is not None, setup.error
    answer_pins(fresh)
    scene = fresh.scene
    for _ in range(200):
        top = fresh.scene
        if top is scene and scene.decision().get("step") == "blip":
            break
        if isinstance(top, HandoffScreen):
            top.choose("ready")
        elif isinstance(top, Dialog):
            top.choose(top.choices[0][0])
        else:
            assert scene.for_me(), scene.message
    assert scene.decision().get("step") == "blip"
    left = scene.squares_left()
    offered = set()
    for _ in range(40):
        scene.square = 0                       # as when the step opens
        offered.add(scene.current_square())
    assert offered <= set(left) and len(offered) > 1 and offered != {min(left)}


def test_the_set_up_panel_is_reached_from_the_keyboard_with_ctrl_tab(fresh):
    """Tab is the table's next unit, so Ctrl+Tab moves through the panel's buttons and Enter presses the one in
    yellow: the set-up's first step is made with no mouse (it could not be)."""
    session, scene = set_up_begun(fresh)
    assert isinstance(scene, SetupTableScene) and not session.game.record
    fresh.step(1 / 30, events=[])

    def key(k: int, mod: int = 0) -> None:
        fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))
        fresh.dispatch(pygame.event.Event(pygame.KEYUP, key=k, mod=mod))

    roll = next(button for button, k in scene.bar_buttons.items() if k == "roll")
    for _ in range(20):
        key(pygame.K_TAB, pygame.KMOD_CTRL)
        if roll.is_selected:
            break
    assert roll.is_selected
    key(pygame.K_RETURN)
    assert [e.action.kind for e in session.game.record] == ["roll-roles"]
    assert not roll.is_selected                      # pressed once, the focus goes: Enter is the table's again
