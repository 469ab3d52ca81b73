"""Battle play in the window, driven headless: every action goes through the engine, previews quote the engine's
numbers, physical dice are asked one by one, and a hand-off never shows one player the other's secrets."""

import random
from pathlib import Path

import pygame
import pytest

from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice, SeededDice
from referee.game.play.engine import Game, begin_battle, play
from referee.game.players.random_play import random_action
from referee.game.records.autosave import autosave_path
from referee.game.records.record import read_save, state_digest
from referee.game.records.sealing import Keyring
from referee.game.battle.state import state_from_scenario
from referee.game.views.view import referee_view
from referee.rules.rifle import rifle_shot
from referee.rules.scenario import load_scenario
from referee.ui import log_view, widgets
from referee.ui.app import App
from referee.service.session import BattleSession
from referee.ui.panels import percent
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog, DiceDialog, HandoffScreen
from referee.ui.scenes.menu import MenuScene
from referee.ui.scenes.report import ReportScene
from referee.ui.scenes.table_common import MOVE as MOVE_TOOL
from referee.ui.scenes.setup import SetupScene

from tests.ui.setup_helpers import finish_setup
from tests.ui.setup_helpers import answer_pins
from tests.ui.setup_helpers import DRAWN, reopened

TABLE = Path(__file__).with_name("table.toml")


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def table_battle(app, dice=None) -> tuple[BattleScene, BattleSession]:
    """The test table with every unit revealed, side A to play, dice typed in by hand unless given."""
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), dice, hotseat=True, viewer="A")
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    return scene, session


def answer_dice(app, faces) -> list[int]:
    """Answer every die the window asks for with the next face; returns the faces used."""
    used = []
    faces = list(faces)
    while isinstance(app.scene, DiceDialog):
        face = faces.pop(0)
        used.append(face)
        app.scene.choose(str(face))
    return used


def click(app, scene, piece_id: str, button: int = 1) -> None:
    p = scene.table.bf.pieces[piece_id]
    pos = tuple(round(v) for v in scene.view.to_screen(p.x, p.y))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def key(app, k: int, unicode: str = "", mod: int = 0) -> None:
    """A key pressed and released, as a player presses it (a key held down repeats only on the screen it acted on)."""
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, unicode=unicode, mod=mod))
    app.dispatch(pygame.event.Event(pygame.KEYUP, key=k, mod=mod))


def test_the_action_bar_offers_what_the_engine_accepts(app):
    scene, session = table_battle(app)
    scene.select("a-tac-1")
    assert scene.offered("activate") and not scene.offered("rifle")
    assert not scene.offered("end-activation")
    key(app, pygame.K_a, "a")
    assert session.state.turn.active == "a-tac-1"
    # Buttons follow the engine's legal actions: no enemy is a legal rifle target for a-tac-1 (hidden, too many
    # dice lost, or holding no counter), while a missile has targets.
    assert scene.offered("missile") and scene.offered("target") and not scene.offered("kamikaze")
    assert not scene.offered("rifle")
    scene.press("rifle")
    assert "no target the engine accepts" in " ".join(scene.log_lines)
    assert not scene.offered("end-turn")           # the activation is still going on
    before = session.state.to_data()
    scene.press("end-turn")
    assert "still being activated" in " ".join(scene.log_lines)
    assert session.state.to_data() == before


def test_a_rifle_shot_shows_the_engines_odds_then_resolves_exactly_as_the_engine(app):
    scene, session = table_battle(app)
    scene.select("a-asl")
    scene.press("activate")
    target = next(r.other for r in scene.report.enemies if getattr(r.rifle, "allowed", False))
    before = session.state.copy()
    engine_bf = before.battlefield()
    shot = rifle_shot(engine_bf, engine_bf.piece("a-asl"), engine_bf.piece(target))
    scene.press("rifle")
    scene.choices.pick(target)
    confirm = app.scene
    assert isinstance(confirm, Dialog)
    text = " ".join(confirm.lines)
    assert percent(shot.p_kill) in text and f"{shot.dice} dice" in text
    confirm.choose("go")
    faces = answer_dice(app, [3, 3, 3, 3, 3, 3])
    assert len(faces) >= shot.dice
    expected = play(before, Action("rifle", "a-asl", {"target": target}), ScriptedDice(faces))
    assert expected.legal
    assert session.state.to_data() == expected.state.to_data()
    assert session.game.record[-1].action == Action("rifle", "a-asl", {"target": target})


def test_cancelling_a_physical_die_changes_nothing(app):
    scene, session = table_battle(app)
    scene.select("a-asl")
    scene.press("activate")
    target = next(r.other for r in scene.report.enemies if getattr(r.rifle, "allowed", False))
    before = session.state.to_data()
    entries = len(session.game.record)
    scene.press("rifle")
    scene.choices.pick(target)
    app.scene.choose("go")
    assert isinstance(app.scene, DiceDialog)
    app.scene.choose("cancel")
    assert session.state.to_data() == before and len(session.game.record) == entries
    assert "cancelled" in scene.log_title


def test_target_rolls_the_pool_first_then_places_counters_by_clicks(app):
    scene, session = table_battle(app)
    scene.select("a-tac-1")
    scene.press("activate")
    target = min((r for r in scene.report.enemies if r.target.allowed), key=lambda r: r.target.cost(1)).other
    assert scene.report.pair(target).target.cost(1) <= 12
    before = session.state.copy()
    scene.press("target")
    key(app, pygame.K_2, "2")
    assert scene.target.dice == 2
    key(app, pygame.K_RETURN)
    assert answer_dice(app, [6, 6]) == [6, 6]
    assert scene.target.pool is not None
    click(app, scene, target)
    assert scene.target.assign == {target: 1}
    key(app, pygame.K_RETURN)
    # The pool was recorded when it was rolled (``game/play/pool.py``); the Target then spent its dice.
    pooled = play(before, Action("sensor-pool", "a-tac-1", {"dice": 2}), ScriptedDice([6, 6]))
    expected = play(pooled.state, Action("target", "a-tac-1", {"dice": 2, "assign": {target: 1}}), ScriptedDice())
    assert expected.legal
    assert session.state.to_data() == expected.state.to_data()
    assert session.state.units["a-tac-1"].target_counters == before.units["a-tac-1"].target_counters + 2


def test_a_counter_the_pool_cannot_pay_for_is_refused_in_the_window(app):
    scene, session = table_battle(app)
    scene.select("a-tac-1")
    scene.press("activate")
    target = next(r.other for r in scene.report.enemies if r.target.allowed)
    scene.press("target")
    key(app, pygame.K_1, "1")
    key(app, pygame.K_RETURN)
    answer_dice(app, [1])
    for _ in range(5):
        click(app, scene, target)
    assert scene.target.cost() <= 1
    assert scene.log_title == "Target: not enough points"


def test_an_illegal_move_is_not_sent_and_changes_nothing(app):
    scene, session = table_battle(app)
    scene.select("a-eng")
    scene.press("activate")
    before = session.state.to_data()
    scene.set_tool("move")
    scene.set_move_path([(3.5, 22.5)])             # into the lake: impassable
    scene.confirm()
    assert session.state.to_data() == before
    assert "not" in scene.log_title.lower()
    # The refused path stays, drawn as refused, and the log says how to mend it or clear it.
    assert scene.waypoints == [(3.5, 22.5)] and not scene.move_result.legal
    assert scene.log_lines[1] == "Backspace removes the last waypoint; Esc clears the path."
    scene.set_tool("move")                         # M again (or Esc) leaves the tool: the path goes with it
    assert scene.waypoints == [] and scene.tool != "move"


def test_undo_in_the_window_takes_back_the_last_action(app):
    scene, session = table_battle(app)
    before = session.state.to_data()
    scene.select("a-eng")
    scene.press("activate")
    assert session.state.turn.active == "a-eng"
    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    assert session.state.to_data() == before


def secrets_of(state, side: str) -> set[str]:
    """What side ``side`` keeps secret from its opponent now: hidden unit ids and the mission card."""
    truth = referee_view(state)
    hidden = set()
    for contents in (truth["holding"][side] or {}).values():
        for c in contents or []:
            if c["id"] not in state.units:
                hidden.add(c["id"])
    if state.missions.get(side):
        hidden.add(state.missions[side])
    return hidden


def drawn_texts(app, monkeypatch) -> list[str]:
    """Every string the window asks the font renderer for in one frame, and the log lines it shows (the log panel
    and the tooltips keep pictures between frames: the tooltip's is made afresh here)."""
    seen: list[str] = []
    original = widgets.text_surface

    def recording(text, *args, **kwargs):
        seen.append(str(text))
        return original(text, *args, **kwargs)

    monkeypatch.setattr(widgets, "text_surface", recording)
    widgets._tooltip_picture.cache_clear()
    app.render()
    monkeypatch.setattr(widgets, "text_surface", original)
    return seen + [text for text, _ in log_view.log_body.shown]


def audit_screen(app, scene, session, monkeypatch) -> int:
    """Select and hover every opponent piece and check nothing drawn names the opponent's secrets."""
    viewer = session.viewer
    opponent = "B" if viewer == "A" else "A"
    secrets = secrets_of(session.state, opponent)
    assert secrets, "the opponent should have something secret in this test"
    checked = 0
    opponent_pieces = [p.id for p in scene.table.bf.pieces.values() if p.side == opponent]
    for pid in opponent_pieces[:6] + [None]:
        scene.select(pid)
        if pid is not None:
            p = scene.table.bf.pieces[pid]
            scene.hover = pid
            scene.mouse = tuple(round(v) for v in scene.view.to_screen(p.x, p.y))
        for text in drawn_texts(app, monkeypatch) + list(scene.log_lines):
            leaked = [s for s in secrets if s in text]
            assert not leaked, f"side {viewer}'s screen shows {leaked} in {text!r}"
            checked += 1
    return checked


def start_hotseat(app, seed: int) -> tuple[BattleScene, BattleSession]:
    app.push(MenuScene())
    setup = app.push(SetupScene())
    app.step(1 / 30, events=[])
    setup.widgets["seed"].set_text(str(seed))
    session = setup.start()
    answer_pins(app)
    assert session is not None, setup.error
    finish_setup(app)
    return app.stack.find(BattleScene), session


def test_the_hand_off_hides_the_table_and_each_side_sees_only_its_own_secrets(app, monkeypatch):
    scene, session = start_hotseat(app, seed=11)
    first = session.to_act()
    handoff = app.scene
    assert isinstance(handoff, HandoffScreen) and handoff.side == first
    assert app.stack.visible() == [handoff]            # nothing of the table is drawn under it
    handoff.choose("ready")
    assert session.viewer == first
    assert audit_screen(app, scene, session, monkeypatch) > 0
    scene.select(None)
    scene.press("end-turn")                            # a pass, asked first: the other side is to act
    app.scene.choose("pass")
    second = session.to_act()
    assert second != first
    assert isinstance(app.scene, HandoffScreen) and app.scene.side == second
    assert app.stack.visible() == [app.scene]
    app.scene.choose("ready")
    assert session.viewer == second
    assert audit_screen(app, scene, session, monkeypatch) > 0


def settle(app, scene, rounds_before_stop: int = 2) -> None:
    """Answer whatever the window asks between actions: hand-offs, the end of a round, objectives."""
    for _ in range(20):
        top = app.scene
        if isinstance(top, HandoffScreen):
            top.choose("ready")
        elif isinstance(top, DiceDialog):
            top.choose("4")
        elif isinstance(top, Dialog) and any(k == "next" for k, _ in top.choices):
            top.choose("next" if scene.session.state.round < rounds_before_stop else "stop")
        elif isinstance(top, Dialog) and any(k == "secured" for k, _ in top.choices):
            top.choose("secured")
        elif isinstance(top, Dialog) and any(k == "allow" for k, _ in top.choices):
            top.choose("allow")
        elif isinstance(top, Dialog) and any(k == "keep" for k, _ in top.choices):
            top.choose("keep")            # a revealed trooper keeps its default facing (A13)
        else:
            return


def test_a_whole_hotseat_battle_to_the_report_then_save_and_load(app, tmp_path):
    scene, session = start_hotseat(app, seed=5)
    rng = random.Random(3)
    settle(app, scene)
    for _ in range(3000):
        if isinstance(app.scene, ReportScene):
            break
        action = random_action(session.state, rng)
        if action.kind == "end-of-round" or action.kind == "objectives":
            action = None
        if action is not None:
            if action.kind == "target":
                # The window rolls the pool before the counters are placed; the random player assigns blind.
                action = Action("target", action.actor, {"dice": action.args["dice"], "assign": {}})
            scene.do(action)
        settle(app, scene)
        if isinstance(app.scene, Dialog) and not isinstance(app.scene, (HandoffScreen, DiceDialog)):
            settle(app, scene)
        if session.state.phase == "end-of-round" and not isinstance(app.scene, Dialog):
            scene.questions.end_of_round()
            settle(app, scene)
    assert isinstance(app.scene, ReportScene), f"the battle did not end (phase {session.state.phase})"
    report = app.scene
    assert session.over and set(session.state.result.vp) == {"A", "B"}
    seals = [text for style, text in report.lines if style in ("ok", "bad")]
    assert len(seals) == 2 and all("matches" in t for t in seals)
    path = session.save(tmp_path / "battle.json")
    again = read_save(path, Keyring(dict(DRAWN)))                # sealed for its players: opened with their PINs
    assert state_digest(again.game.state) == state_digest(session.state)
    menu = MenuScene()
    app.push(menu)
    loaded = reopened(app, menu.load_battle(path))
    assert isinstance(loaded, BattleScene)
    assert state_digest(loaded.session.state) == state_digest(session.state)


def test_every_action_is_autosaved_and_the_menu_offers_to_resume_it(app):
    scene, session = table_battle(app, dice=SeededDice(3))
    scene.select("a-eng")
    scene.press("activate")
    assert autosave_path().is_file()
    menu = MenuScene()
    app.push(menu)
    assert menu.interrupted is not None
    assert "resume" in menu.widgets
    resumed = reopened(app, menu.open_battle(menu.interrupted))
    assert resumed.session.state.to_data() == session.state.to_data()
    assert (resumed.session.dice.seed, resumed.session.dice.moment, resumed.session.dice.counts) == \
        (session.dice.seed, session.dice.moment, session.dice.counts)


def test_a_save_that_will_not_load_is_reported_in_the_menu_and_kept(app, tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "seven-seconds-save", "version": 1, "record": [')
    menu = app.push(MenuScene())
    assert menu.load_battle(bad) is None
    assert "broken.json" in menu.error_title and menu.error
    assert bad.read_text() == '{"format": "seven-seconds-save", "version": 1, "record": ['
    app.render()                                        # the error is drawn, the program goes on


def test_saving_never_overwrites_a_file_that_is_not_this_battle(app, tmp_path):
    scene, session = table_battle(app, dice=SeededDice(1))
    other = tmp_path / "notes.json"
    other.write_text("my notes")
    with pytest.raises(Exception) as e:
        session.save(other)
    assert "not overwritten" in str(getattr(e.value, "message", lambda: e.value)())
    assert other.read_text() == "my notes"


def test_settings_switch_a_ruling_for_new_battles(app):
    from referee.ui.scenes.settings import SettingsScene, group_rulings

    settings = app.push(SettingsScene())
    assert settings.chosen["A1"] == "A"
    settings.next_option("A1")
    settings.save()
    assert group_rulings() == {"A1": "B"}
    app.pop()
    scene, session = start_hotseat(app, seed=2)
    assert session.state.rulings.get("A1") == "B"
    assert "A1" in session.state.rulings_in_force().label("A1")


def test_a_damaged_autosave_is_reported_at_start_and_kept(app):
    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": "seven-seconds-save", "vers')
    menu = app.push(MenuScene())
    assert menu.interrupted is None and "resume" not in menu.widgets
    assert "cannot be resumed" in menu.error_title and "autosave.json" in menu.error + menu.error_title
    app.render()
    assert path.read_text() == '{"format": "seven-seconds-save", "vers'


def test_the_report_shows_the_sealed_documents_whose_hashes_are_the_seals(app):
    import hashlib

    from referee.ui.scenes.report import report_lines

    scene, session = start_hotseat(app, seed=8)
    settle(app, scene)
    scene.do(Action("end-turn"))
    settle(app, scene)
    scene.do(Action("end-turn"))
    while session.state.phase != "over":
        settle(app, scene)
        if session.state.phase == "end-of-round":
            scene.do(Action("end-of-round", "", {"stop": True}))
        elif session.state.phase == "action":
            scene.do(Action("end-turn"))
    settle(app, scene)
    lines = report_lines(session)
    documents = [text for style, text in lines if text.startswith("{")]
    assert len(documents) == 2
    hashes = {hashlib.sha256(d.encode("utf-8")).hexdigest() for d in documents}
    assert hashes == set(session.state.sealed.values())


def small_battle(app, scenario) -> tuple[BattleScene, BattleSession]:
    state = begin_battle(state_from_scenario(scenario), first="A")
    session = BattleSession(Game(state), None, hotseat=True, viewer="A")
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    return scene, session


def test_the_window_moves_onto_a_destroyed_objectives_spot_as_the_engine_does(app):
    from tests.tables import scenario, unit

    s = scenario(units=[unit("a1", "A", 10, 14, facing=90), unit("b1", "B", 30, 30)],
                 objectives=[{"id": "alpha", "x": 10, "y": 10, "destroyed": True}])
    scene, session = small_battle(app, s)
    assert "alpha" not in scene.table.bf.pieces and [w.id for w in scene.table.wrecks] == ["alpha"]
    scene.select("a1")
    scene.press("activate")
    scene.set_tool(MOVE_TOOL)
    result = scene.set_move_path([(10.0, 10.0)])
    assert result is not None and result.legal, result.reason
    assert session.check(Action("move", "a1", {"x": 10.0, "y": 10.0})).legal


@pytest.mark.parametrize("scale, rulings, under", [
    (0.5, {}, ["b1", "a2"]),                   # A56: the 5" smoke is 2.5" across at scale 0.5; b2 stays outside
    (1.0, {"A36": "B"}, ["b1", "b2"]),         # A36 option B: enemies only, the friend a2 is spared
])
def test_the_flamer_preview_lists_the_units_the_engine_burns(app, scale, rulings, under):
    from tests.tables import scenario, unit

    s = scenario(units=[unit("a1", "A", 10, 10, facing=0), unit("a2", "A", 12, 11.2),
                        unit("b1", "B", 13, 10), unit("b2", "B", 14, 10)], rulings=rulings, scale=scale)
    scene, session = small_battle(app, s)
    scene.select("a1")
    scene.press("activate")
    scene.press("flamer")
    scene.choices.place_smoke((12.0, 10.0))
    confirm = app.scene
    assert isinstance(confirm, Dialog)
    listed = next(line for line in confirm.lines if line.startswith("under the smoke"))
    assert listed == "under the smoke: " + ", ".join(under)


def test_the_player_handed_the_screen_may_give_back_the_turn_the_other_side_ended(app):
    """Fair Undo across a hand-off: side B, now at the screen, offers side A back the turn it ended; side A answers
    on its own screen behind a hand-off (B never agrees with itself). Refused, the screen goes back to B and nothing
    changes; taken, A plays on and the log names A as the side that took it back, with B's consent."""
    from referee.ui.scenes.dialogs import ConsentScreen

    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), SeededDice(3), hotseat=True, viewer="A", autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    scene.select("a-eng")
    scene.press("activate")
    scene.press("end-activation")
    if session.state.turn.player == "A":
        scene.press("end-turn")
    if isinstance(app.scene, HandoffScreen):
        app.scene.choose("ready")
    assert session.viewer == "B" and session.state.turn.player == "B"
    ended = session.state.to_data()

    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    assert isinstance(app.scene, HandoffScreen) and app.scene.side == "A"     # the answer is side A's
    app.scene.choose("ready")
    assert isinstance(app.scene, ConsentScreen) and app.scene.side == "A"
    assert app.stack.visible() == [app.scene]                                # the table stays hidden
    app.scene.choose("refuse")
    assert session.state.to_data() == ended
    assert isinstance(app.scene, HandoffScreen) and app.scene.side == "B"     # back to B, behind a hand-off
    app.scene.choose("ready")
    assert session.viewer == "B"

    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    app.scene.choose("ready")
    assert isinstance(app.scene, ConsentScreen) and app.scene.side == "A"
    app.scene.choose("allow")
    assert session.state.turn.player == "A" and session.viewer == "A"
    assert session.game.record[-1].action.kind == "taken-back"
    assert session.state.log[-1].text == "side A took back 'end-turn' (it passed the turn to side B, across a " \
                                         "hand-off) with side B's consent"


def test_a_take_back_of_ones_own_dice_is_agreed_by_the_other_player_behind_a_hand_off(app):
    """Side A's own action that rolled a die needs side B's consent: the screen is handed to B first, and the
    asker's table is never under the question."""
    from referee.ui.scenes.dialogs import ConsentScreen

    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), SeededDice(3), hotseat=True, viewer="A", autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    scene.select("a-tac-1")
    scene.press("activate")
    scene.do(Action("target", "a-tac-1", {"dice": 2, "assign": {}}))
    assert session.game.record[-1].action.kind == "target"
    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    assert isinstance(app.scene, HandoffScreen) and app.scene.side == "B"
    app.scene.choose("ready")
    consent = app.scene
    assert isinstance(consent, ConsentScreen) and consent.side == "B"
    assert "Side A asks to take back" in consent.lines[0]
    consent.choose("allow")
    assert session.game.record[-1].action.kind == "taken-back"
    assert "side A took back" in session.state.log[-1].text and "side B's consent" in session.state.log[-1].text
    assert isinstance(app.scene, HandoffScreen) and app.scene.side == "A"


def test_typed_dice_go_on_with_one_resolution_instead_of_starting_again(app, monkeypatch):
    """Each die typed in answers the suspended resolution: the state is copied once for the action, not once per
    die, and the outcome is the engine's with the same dice."""
    from referee.game.battle.state import GameState

    scene, session = table_battle(app)
    scene.select("a-asl")
    scene.press("activate")
    target = next(a.args["target"] for a in session.legal_for("rifle", "a-asl"))
    before = session.state.copy()
    copies = []
    real_copy = GameState.copy
    monkeypatch.setattr(GameState, "copy", lambda self: copies.append(1) or real_copy(self))
    attempt = session.attempt(Action("rifle", "a-asl", {"target": target}))
    faces = []
    while attempt.pending is not None:
        faces.append(3)
        attempt = session.answer(attempt.pending, 3)
    assert len(faces) >= 2 and len(copies) == 1
    expected = play(before, Action("rifle", "a-asl", {"target": target}), ScriptedDice(faces))
    assert attempt.outcome.legal and session.state.to_data() == expected.state.to_data()


def test_a_die_answered_twice_starts_the_action_again_from_the_dice_given(app):
    """A pending die answered a second time (the window asked twice) is not taken by the resolution that already
    went on: the action is resolved from its start with the dice given to that request, as before."""
    scene, session = table_battle(app)
    scene.select("a-asl")
    scene.press("activate")
    target = next(a.args["target"] for a in session.legal_for("rifle", "a-asl"))
    first = session.attempt(Action("rifle", "a-asl", {"target": target}))
    assert first.pending is not None
    again = session.answer(first.pending, 4)
    retry = session.answer(first.pending, 4)
    assert again.pending is not None and retry.pending is not None
    assert again.pending.resolving is not retry.pending.resolving
    assert (again.pending.given, again.pending.request.label) == (retry.pending.given, retry.pending.request.label)


def test_enabling_the_buttons_copies_no_state(app, monkeypatch):
    from referee.game.battle.state import GameState

    scene, session = table_battle(app)
    scene.select("a-asl")
    copies = []
    real_copy = GameState.copy
    monkeypatch.setattr(GameState, "copy", lambda self: copies.append(1) or real_copy(self))
    scene.press("activate")                 # one action, then every button of the bar enabled from the legal list
    assert len(copies) == 1 and scene.offered("rifle") and not scene.offered("activate")
