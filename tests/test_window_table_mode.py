"""Table mode: the window as the shared table while each player's secrets are on their own phone.

The strongest check is a re-deal on what the window draws: deal both sides' secrets again (which blip holds what,
the missions) and the table's drawn screen must be the very same pixels, whatever is selected, whatever key is held
down, at every step of a battle. Anything the table could let slip about a secret would differ between two deals.
The default suite compares the first states of each battle; the soak run (``pytest -m soak``) the rest of them.
"""

from __future__ import annotations

import functools
import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from referee.game.battle.dice import SeededDice  # noqa: E402
from referee.game.play.engine import Game, begin_battle  # noqa: E402
from referee.game.battle.intents import Action  # noqa: E402
from referee.game.players.random_play import random_action  # noqa: E402
from referee.game.battle.state import GameState  # noqa: E402
from referee.service.session import BattleSession  # noqa: E402
from referee.ui.app import App  # noqa: E402
from referee.ui.scenes.dialogs import HandoffScreen  # noqa: E402
from referee.ui.scenes.holding import HoldingScene  # noqa: E402
from referee.ui.scenes.table_mode import PublicTable, TableModeScene  # noqa: E402

from .test_leaks import set_up  # noqa: E402
from .test_service_screens import redeal  # noqa: E402

SIZE = (1100, 720)
BATTLES = 3
STATES_PER_BATTLE = 5
IN_DEFAULT_SUITE = 2            # each battle's first states; the soak run compares the other three


@pytest.fixture(scope="module")
def app():
    a = App(SIZE)
    yield a
    pygame.quit()


def both_redealt(state: GameState, rng: random.Random) -> GameState:
    return redeal(redeal(state, "A", rng), "B", rng)


def drawn(app: App, state: GameState, select: str | None = None, events=()) -> bytes:
    """The table-mode window's pixels for ``state``: the scene alone on the stack, ``events`` sent to it."""
    while len(app.stack):
        app.stack.pop()
    session = BattleSession(Game(state.copy()), SeededDice(1), autosaving=False, hotseat=True)
    scene = app.push(TableModeScene(session))
    app.step(1 / 30, events=[])
    if select is not None:
        scene.select(select)
    for event in events:
        app.step(1 / 30, events=[event])
    app.step(1 / 30, events=[])
    assert not any(isinstance(s, (HoldingScene, HandoffScreen)) for s in app.stack.scenes)
    return pygame.image.tobytes(app.render(), "RGB")


@functools.cache
def mid_battle_states(battle: int) -> tuple[GameState, ...]:
    """The states a seeded battle passes through (played once a module: every test copies what it changes)."""
    rng, dice = random.Random(battle), SeededDice(battle)
    game = Game(begin_battle(set_up(900 + battle)))
    states = []
    while len(states) < STATES_PER_BATTLE and game.state.phase != "over":
        for _ in range(rng.randint(2, 6)):
            if game.state.phase == "over":
                break
            game.play(random_action(game.state, rng), dice)
        states.append(game.state)
    return tuple(states)


def own_pieces(state: GameState) -> list[str]:
    """The side to act's blips and units on the table: the pieces its player would select."""
    side = state.turn.player if state.turn is not None else "A"
    blips = sorted(b.id for b in state.blips.values() if b.side == side)[:2]
    units = sorted(u.id for u in state.units.values() if u.side == side)[:1]
    return blips + units


def same_under_two_deals(app: App, battle: int, states: slice) -> None:
    for i, state in list(enumerate(mid_battle_states(battle)))[states]:
        dealt = both_redealt(state, random.Random(f"{battle}|{i}"))
        assert drawn(app, state) == drawn(app, dealt), f"battle {battle}, state {i}"
        for piece in own_pieces(state):
            assert drawn(app, state, piece) == drawn(app, dealt, piece), f"battle {battle}, state {i}, {piece}"


@pytest.mark.parametrize("battle", range(BATTLES))
def test_the_tables_drawn_screen_is_the_same_under_two_deals_of_both_sides_secrets(app, battle):
    same_under_two_deals(app, battle, slice(None, IN_DEFAULT_SUITE))


@pytest.mark.soak
@pytest.mark.parametrize("battle", range(BATTLES))
def test_the_tables_drawn_screen_is_the_same_under_two_deals_at_the_later_states_too(app, battle):
    same_under_two_deals(app, battle, slice(IN_DEFAULT_SUITE, None))


def test_the_redeal_changes_what_a_sides_own_screen_would_draw(app):
    """The differential is able to see a secret: side A's own (hot-seat) battle screen differs between the deals."""
    from referee.ui.scenes.battle import BattleScene

    state = mid_battle_states(0)[0]
    dealt = both_redealt(state, random.Random("0|0"))

    def own(s: GameState) -> bytes:
        while len(app.stack):
            app.stack.pop()
        app.push(BattleScene(BattleSession(Game(s.copy()), SeededDice(1), autosaving=False, viewer="A"),
                             own_edge_down=False))
        app.step(1 / 30, events=[])
        return pygame.image.tobytes(app.render(), "RGB")

    assert own(state) != own(dealt)


def key(k: int, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=unicode, scancode=0)


HELD = [key(pygame.K_RETURN, "\r")] * 8 + [key(pygame.K_o, "o")] * 4 + [key(pygame.K_u, "u")] * 3 + \
       [key(pygame.K_SPACE, " ")] * 4 + [key(pygame.K_TAB, "\t")] * 2 + [key(pygame.K_RETURN, "\r")] * 8


def held_keys_reveal_nothing(app: App, states: slice) -> None:
    for i, state in list(enumerate(mid_battle_states(1)[:3]))[states]:
        dealt = both_redealt(state, random.Random(f"held|{i}"))
        for cut in (4, 12, len(HELD)):
            assert drawn(app, state, events=HELD[:cut]) == drawn(app, dealt, events=HELD[:cut]), (i, cut)


def test_a_held_or_repeated_key_reveals_nothing(app):
    """Enter held down (its repeats), the holding area's key, the table's turn, Tab: the table draws the same for
    both deals after each of them, and no holding area nor hand-off screen ever opens."""
    held_keys_reveal_nothing(app, slice(None, 1))


@pytest.mark.soak
def test_a_held_or_repeated_key_reveals_nothing_at_the_later_states_too(app):
    held_keys_reveal_nothing(app, slice(1, None))


def test_a_facing_after_a_reveal_is_waited_for_on_the_owners_hand(app):
    state = next(s for b in range(BATTLES) for s in mid_battle_states(b) if s.units and s.phase == "action").copy()
    unit = sorted(state.units.values(), key=lambda u: u.id)[0]
    side = unit.side
    state.to_face = (unit.id,)
    while len(app.stack):
        app.stack.pop()
    scene = app.push(TableModeScene(BattleSession(Game(state), SeededDice(1), autosaving=False)))
    scene.next_step()
    app.step(1 / 30, events=[])
    assert app.scene is scene                    # no question on the table
    assert scene.waiting is not None and scene.waiting[0] == f"side {side}'s hand"
    assert f"Waiting for side {side}'s hand" in scene.banner_text()


def test_a_change_made_elsewhere_is_shown_and_the_table_goes_on(app):
    """A phone's intent changes the session under the host's lock; the table notices it on its next frame."""
    state = mid_battle_states(2)[0]
    while len(app.stack):
        app.stack.pop()
    session = BattleSession(Game(state.copy()), SeededDice(3), autosaving=False)
    scene = app.push(TableModeScene(session))
    app.step(1 / 30, events=[])
    before = scene.seen
    side = session.to_act()
    legal = session.screen(side).legal
    end = next(a for a in legal if a.kind in ("end-turn", "end-activation"))
    assert session.attempt(Action(end.kind)).outcome.legal       # as the host applies a hand's intent
    app.step(1 / 30, events=[])
    assert scene.seen != before
    assert scene.public.view(log=False) == session.view_for("spectator", log=False)


def test_the_end_of_round_is_waited_for_on_the_hands_over_the_public_view(app):
    """The end of a round is each side's word on its own hand (``service/privacy.py``): the table shows the public view
    with whom it waits for, no side's mission or round limit, no dialog a key could open."""
    state = mid_battle_states(0)[0]
    while len(app.stack):
        app.stack.pop()
    session = BattleSession(Game(state.copy()), SeededDice(2), autosaving=False)
    scene = app.push(TableModeScene(session))
    table = PublicTable(session)
    while session.view(log=False)["phase"] == "action":
        kind = "end-turn" if session.offers("end-turn") else "end-activation"
        assert table.attempt(Action(kind)).outcome.legal
    assert session.view(log=False)["phase"] == "end-of-round"
    app.step(1 / 30, events=[key(pygame.K_RETURN, "\r")] * 3 + [key(pygame.K_n, "n")])
    assert app.stack.visible() == [scene]
    assert scene.waiting is not None and scene.waiting[0] == "the hands"
    assert "ends the battle after" not in scene.waiting[1]
    # Side B's hand announces its Withdraw and side A's pursues: the table shows the next round.
    assert session.attempt(Action("end-of-round", "", {"withdraw": "B", "answer": "pursue"})).outcome.legal
    app.step(1 / 30, events=[])
    assert session.view(log=False)["phase"] != "end-of-round" and scene.waiting is None


def test_the_side_at_the_tables_controls_takes_back_its_own_action_there(app):
    """An action that rolled nothing is taken back at the table by the side that took it, whoever the session's side
    at the screen was; nothing else changes."""
    while len(app.stack):
        app.stack.pop()
    session = BattleSession(Game(begin_battle(set_up(905))), SeededDice(3), autosaving=False)
    side = session.to_act()
    session.hand_to("B" if side == "A" else "A")         # the session's side at the screen is the other one
    scene = app.push(TableModeScene(session))
    app.step(1 / 30, events=[])
    actor = next(a.actor for a in session.screen(side).legal if a.kind == "activate")
    before = session.actions_taken()
    scene.do(Action("activate", actor))
    assert session.actions_taken() == before + 1
    scene.questions.undo()
    assert session.actions_taken() == before
    assert scene.log_title == "Undone"
