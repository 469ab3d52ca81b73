"""Set-up on the shared table: the public steps (the roll, the edge, the objectives) taken at the table, the private
ones (cards, holding area, blips) waited for on the hands, the table's pixels the same whatever a side put in its
holding area, and the battle's shared table after it."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from referee.game.battle.dice import SeededDice  # noqa: E402
from referee.game.battle.intents import Action  # noqa: E402
from referee.game.play.setup import new_game  # noqa: E402
from referee.rules.scenario import parse_scenario  # noqa: E402
from referee.service.session import BattleSession  # noqa: E402
from referee.ui.app import App  # noqa: E402
from referee.ui.scenes.dialogs import HandoffScreen  # noqa: E402
from referee.ui.scenes.table_mode import TableModeScene  # noqa: E402
from referee.ui.scenes.table_setup import PRIVATE_STEPS, TableSetupScene  # noqa: E402

TABLE = parse_scenario({"name": "set-up field", "table": {"width": 36, "height": 36}, "terrain": []}, "set-up field")
FACTIONS = {"A": "council-of-zane", "B": "new-tokyo"}
HAND_KINDS = {"cards": "draw-cards", "choose-cards": "choose-cards", "holding": "fill-holding", "blip": "place-blips"}


@pytest.fixture(scope="module")
def app():
    a = App((1100, 720))
    yield a
    pygame.quit()


def fresh(app, seed: int = 3) -> tuple[TableSetupScene, BattleSession]:
    while len(app.stack):
        app.stack.pop()
    session = BattleSession(new_game(TABLE, FACTIONS), SeededDice(seed), autosaving=False)
    scene = app.push(TableSetupScene(session))
    scene.next_step()
    app.step(1 / 30, events=[])
    return scene, session


def pixels(app) -> bytes:
    return pygame.image.tobytes(app.render(), "RGB")


def play_setup(app, scene, session, holding=None) -> dict[str, bytes]:
    """Set-up to its end: the public steps at the table (left to the program there), the private ones as each hand
    sends them; the table's pixels after each side's holding area is filled."""
    shots = {}
    for _ in range(200):
        if session.view(log=False)["phase"] != "setup":
            break
        d = scene.decision()
        step, side = d.get("step"), str(d.get("side") or "")
        assert not any(isinstance(s, HandoffScreen) for s in app.stack.scenes)
        if step in PRIVATE_STEPS:
            assert scene.choices() == [] and scene.waiting() is not None and not scene.for_me()
            args = holding(session, side) if step == "holding" and holding is not None else {}
            assert session.attempt(Action(HAND_KINDS[step], side, args)).outcome.legal   # as the host applies it
            app.step(1 / 30, events=[])
            if step == "holding":
                shots[side] = pixels(app)
        else:
            assert scene.waiting() is None and scene.choices()
            assert scene.for_me(), scene.message
            app.step(1 / 30, events=[])
    return shots


def test_set_up_on_the_table_and_the_hands_ends_on_the_battles_shared_table(app):
    scene, session = fresh(app)
    play_setup(app, scene, session)
    assert session.view(log=False)["phase"] == "action"
    assert isinstance(app.scene, TableModeScene)


def reversed_holding(session, side):
    """The side's units put in the highest squares first: another holding area than the program's."""
    issued = session.view_for(side, log=False)["setup"]["issued"][side]
    squares: dict[str, list[str]] = {}
    for i, unit in enumerate(issued):
        squares.setdefault(str(16 - i // 2), []).append(unit["id"])
    return {"squares": squares}


def test_the_tables_pixels_do_not_tell_what_a_side_put_in_its_holding_area(app):
    scene, session = fresh(app, seed=5)
    first = play_setup(app, scene, session)
    scene, session = fresh(app, seed=5)
    second = play_setup(app, scene, session, holding=reversed_holding)
    assert set(first) == {"A", "B"}
    assert first == second


def test_w_in_a_hot_seat_set_up_serves_it_and_set_up_goes_on_at_the_table(app):
    from referee.ui.scenes.phones import PhonesScene
    from referee.ui.scenes.setup_table import SetupTableScene

    while len(app.stack):
        app.stack.pop()
    session = BattleSession(new_game(TABLE, FACTIONS), SeededDice(3), autosaving=False)
    app.push(SetupTableScene(session)).begin()
    app.step(1 / 30, events=[])
    assert session.hotseat
    app.step(1 / 30, events=[pygame.event.Event(pygame.KEYDOWN, key=pygame.K_w, mod=0, unicode="w", scancode=0)])
    try:
        assert isinstance(app.scene, PhonesScene)
        assert [type(s) for s in app.stack.scenes] == [TableSetupScene, PhonesScene]
        assert not session.hotseat
    finally:
        while len(app.stack):
            app.stack.pop()
