"""What the window shows before the dice: the engine's chances for every unit under a flamer or in a blast, the
Target pool's counters for every dice count, and a Target that never goes off by accident."""


import pygame
import pytest

from referee.game.battle.intents import Action
from referee.game.play.engine import Game, begin_battle
from referee.game.battle.state import state_from_scenario
from referee.rules import odds
from referee.ui.app import App
from referee.service.session import BattleSession
from referee.ui.panels import outcome_line
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.dialogs import Dialog, DiceDialog


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def battle(app, units, terrain=(), dice=None) -> tuple[BattleScene, BattleSession]:
    from tests.tables import scenario

    state = begin_battle(state_from_scenario(scenario(units=units, terrain=list(terrain))), first="A")
    session = BattleSession(Game(state), dice, hotseat=True, viewer="A", autosaving=False)
    scene = app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    return scene, session


def key(app, k: int, mod: int = 0) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, unicode="", mod=mod))
    app.dispatch(pygame.event.Event(pygame.KEYUP, key=k, mod=mod))


def test_the_flamer_confirmation_shows_each_units_graze_chances(app):
    from tests.tables import unit

    scene, session = battle(app, [unit("a1", "A", 10, 10, facing=0), unit("b1", "B", 13, 10),
                                  unit("bd", "B", 12.5, 12, type="basic-drone"), unit("far", "B", 30, 30)])
    scene.select("a1")
    scene.press("activate")
    scene.press("flamer")
    scene.choices.place_smoke((12.5, 10.0))
    confirm = app.scene
    assert isinstance(confirm, Dialog)
    figures = session.preview(Action("flamer", "a1", {"x": 12.5, "y": 10.0})).figures
    for uid in figures["under"]:
        assert outcome_line(uid, figures["odds"].get(uid), "graze") in confirm.lines
    # By hand: Arm 3, the Red Die and the normal die each exceed it on 4-6 (1/2): a quarter for each outcome.
    assert "  b1: Damaged and Stunned 25.0 %, Damaged 25.0 %, Stunned 25.0 %, unharmed 25.0 %" in confirm.lines
    assert "  bd: destroyed 100.0 %" in confirm.lines


def test_the_missile_confirmation_lists_the_blast_and_its_chances(app):
    from tests.tables import unit

    scene, session = battle(app, [unit("a1", "A", 2, 10, facing=0), unit("t", "B", 20, 10, target_counters=2),
                                  unit("b5", "B", 22.5, 10)])
    scene.select("a1")
    scene.press("activate")
    scene.press("missile")
    scene.choices.pick("t")
    confirm = app.scene
    assert isinstance(confirm, Dialog)
    b = session.figures(Action("missile", "a1", {"target": "t"}))["blast"]
    assert b["catches"] == ["b5"]
    # Nuc 3 dice against Arm 3: h = 7/8; destroyed h^3 = 343/512 = 67.0 %, unharmed 1/8 = 12.5 %.
    assert outcome_line("b5", b["odds"]["b5"], "blast") in confirm.lines
    b5 = outcome_line("b5", b["odds"]["b5"])
    assert "destroyed 67.0 %" in b5 and "unharmed 12.5 %" in b5
    assert confirm.lines[-1].startswith("= direct hit ")


def test_the_missile_confirmation_gives_the_deviated_blasts_chances(app):
    """A miss deviates Red Die + die inches at any bearing (p.21, A29): the preview gives each unit's chance to be
    caught by that blast, and what the blast then does, from the engine's figures."""
    import math

    from tests.tables import unit

    scene, session = battle(app, [unit("a1", "A", 2, 10, facing=0), unit("t", "B", 20, 10, target_counters=2),
                                  unit("b5", "B", 22.5, 10), unit("far", "B", 33, 33)])
    scene.select("a1")
    scene.press("activate")
    scene.press("missile")
    scene.choices.pick("t")
    confirm = app.scene
    f = session.figures(Action("missile", "a1", {"target": "t"}))
    d = f["deviated"]
    assert d["p_deviates"] == pytest.approx(1 - f["p_direct_hit"] - f["p_shot_down"])
    # The target itself (the 3" blast reaches 3.5" to its base's edge): caught only on a deviation of 2 or 3, 3/36.
    assert d["catches"]["t"] == pytest.approx(3 / 36)
    # b5, 2.5" beyond it: counted by hand over 3600 bearings for each of the 36 throws.
    hits = 0
    for red in range(1, 7):
        for die in range(1, 7):
            for k in range(3600):
                a = math.radians(k / 10)
                x, y = 20 + (red + die) * math.cos(a), 10 + (red + die) * math.sin(a)
                hits += math.hypot(x - 22.5, y - 10) - 0.5 <= 3.0
    assert d["catches"]["b5"] == pytest.approx(hits / (36 * 3600), abs=5e-4)
    assert "far" not in d["catches"]
    line = next(x for x in confirm.lines if x.startswith("if it misses"))
    assert "b5 9.3 %" in line and "t 8.3 %" in line
    assert outcome_line("t", d["odds"]["t"], "blast") in confirm.lines


def test_the_target_hint_shows_the_counters_for_every_dice_count(app):
    from tests.tables import unit

    scene, session = battle(app, [unit("a1", "A", 10, 10, facing=90), unit("b1", "B", 10, 16)])
    scene.select("a1")
    scene.press("activate")
    scene.press("target")
    offer = scene.target.offer()
    price = offer["assign"]["b1"]
    line = next(x for x in scene.log_lines if x.strip().startswith("b1 ("))
    for k in range(1, offer["dice"][1] + 1):
        c = odds.target_counters_distribution(k, price["price"], price["eaten"], eaten_price=price["eaten_price"])
        assert f"{k}d {float(c.expected):.2f} ({100 * float(1 - c.p_none):.1f} %)" in line
    # By hand: b1 is 5" away (edge to edge), in the arc, in open ground: 1 point a counter, so the pool is the
    # counters: one die places 3.5 on average and always at least one, two dice 7, three 10.5.
    assert price == {"price": 1, "eaten": 0, "eaten_price": 1}
    assert "1d 3.50 (100.0 %)" in line and "2d 7.00 (100.0 %)" in line and "*3d 10.50 (100.0 %)" in line


def test_enter_never_commits_a_target_without_counters_placed(app):
    from tests.tables import unit

    scene, session = battle(app, [unit("a1", "A", 10, 10, facing=90), unit("b1", "B", 10, 16)])
    scene.select("a1")
    scene.press("activate")
    scene.press("target")
    scene.target.dice = 2
    entries = len(session.game.record)
    key(app, pygame.K_RETURN)                 # rolls the pool
    while isinstance(app.scene, DiceDialog):
        app.scene.choose("6")
    assert scene.target.pool is not None
    key(app, pygame.K_RETURN)                 # nothing placed: refused, the action is not taken
    assert len(session.game.record) == entries + 1 and "no counters placed" in scene.log_title
    key(app, pygame.K_RETURN, pygame.KMOD_SHIFT)        # Shift+Enter: placing none on purpose
    while isinstance(app.scene, DiceDialog):
        app.scene.choose("6")
    assert len(session.game.record) == entries + 2          # the pool, recorded when rolled, then the Target
    assert session.game.record[-1].action.args["assign"] == {}


def test_target_counters_are_placed_from_the_keyboard_tab_chooses_the_piece_and_plus_places(app):
    """After the roll the counters need no mouse: Tab chooses among the pieces the engine lets the Targeter price,
    + puts a counter on it and - takes one off; Enter places them."""
    from tests.tables import unit

    scene, session = battle(app, [unit("a1", "A", 10, 10, facing=90), unit("b1", "B", 10, 16),
                                  unit("b2", "B", 14, 16)])
    scene.select("a1")
    scene.press("activate")
    scene.press("target")
    scene.target.dice = 1
    key(app, pygame.K_RETURN)                 # rolls the pool: a 6
    while isinstance(app.scene, DiceDialog):
        app.scene.choose("6")
    key(app, pygame.K_PLUS)
    assert scene.target.assign == {} and "Tab chooses the piece first" in " ".join(scene.log_lines)
    key(app, pygame.K_TAB)
    assert scene.target.pointed == "b1" and scene.selected == "a1"
    key(app, pygame.K_TAB)
    assert scene.target.pointed == "b2"
    key(app, pygame.K_TAB, pygame.KMOD_SHIFT)
    assert scene.target.pointed == "b1"
    for _ in range(3):
        key(app, pygame.K_PLUS)
    key(app, pygame.K_MINUS)
    assert scene.target.assign == {"b1": 2}
    key(app, pygame.K_RETURN)
    assert session.game.record[-1].action.args["assign"] == {"b1": 2}
    assert session.state.units["b1"].target_counters == 2


def test_a_rifle_target_is_chosen_from_the_keyboard_tab_shows_its_numbers_and_enter_takes_it(app):
    """G, then Tab through the targets the engine allows (a friend is never offered), each with the engine's
    numbers and odds, and Enter: the confirmation, as a click on it gives."""
    from referee.ui.scenes.dialogs import Dialog
    from tests.tables import unit

    scene, session = battle(app, [unit("a1", "A", 10, 10, facing=90), unit("a2", "A", 14, 10, facing=90),
                                  unit("b1", "B", 10, 16, target_counters=2),
                                  unit("b2", "B", 13, 17, target_counters=2)])
    scene.select("a1")
    scene.press("activate")
    key(app, pygame.K_g)
    assert scene.choices.allowed_picks() == ["b1", "b2"]
    key(app, pygame.K_TAB)
    assert scene.choices.pointed == "b1" and scene.selected == "a1"
    assert scene.log_title.startswith("Rifle: a1 at b1?") and any("kill" in line for line in scene.log_lines)
    key(app, pygame.K_TAB)
    key(app, pygame.K_TAB)
    assert scene.choices.pointed == "b1"
    key(app, pygame.K_RETURN)
    confirm = app.scene
    assert isinstance(confirm, Dialog) and confirm.heading == "Rifle: a1 at b1"
    entries = len(session.game.record)
    confirm.choose("go")
    while isinstance(app.scene, DiceDialog):
        app.scene.choose("3")
    assert len(session.game.record) == entries + 1
    assert session.game.record[-1].action.to_data()["args"] == {"target": "b1"}


def test_a_targeter_with_nothing_in_sight_is_warned_before_rolling(app):
    from tests.tables import rect, unit

    # A large building across the table hides b1 from the recce drone: nothing can be Targeted.
    scene, session = battle(app, [unit("a1", "A", 10, 10, type="recce-drone"), unit("b1", "B", 30, 30)],
                            terrain=[rect("bld", "large-building", 14, 0, 16, 36)])
    scene.select("a1")
    scene.press("activate")
    scene.press("target")
    assert scene.target.offer()["assign"] == {}
    assert any(line.startswith("WARNING: no target in sight") for line in scene.log_lines)
    key(app, pygame.K_RETURN)
    assert scene.target.pool is None and not isinstance(app.scene, DiceDialog)
    assert scene.log_title == "Target: no target in sight"
    key(app, pygame.K_RETURN)                 # again: rolls anyway
    assert isinstance(app.scene, DiceDialog)
