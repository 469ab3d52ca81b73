"""A battle joined from another window: the real host on 127.0.0.1 serves a battle, this window joins one side's
seat with its link and plays it through the battle scene; a legal action is applied at the host, an illegal one is
refused with the reason and changes nothing; the window holds only its seat's screen."""

from __future__ import annotations

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from referee.game.battle.dice import SeededDice  # noqa: E402
from referee.game.play.engine import Game, begin_battle  # noqa: E402
from referee.game.battle.intents import Action  # noqa: E402
from referee.net.host import Host  # noqa: E402
from referee.service.session import BattleSession  # noqa: E402
from referee.ui.app import App  # noqa: E402
from referee.ui.joining import join  # noqa: E402
from referee.ui.scenes.remote_battle import RemoteBattleScene  # noqa: E402

from .test_leaks import set_up  # noqa: E402


@pytest.fixture(scope="module")
def app():
    a = App((1100, 720))
    yield a
    pygame.quit()


@pytest.fixture
def hosted():
    session = BattleSession(Game(begin_battle(set_up(911))), SeededDice(6), autosaving=False, hotseat=False)
    host = Host.start(session, bind="127.0.0.1")
    yield host, session
    host.stop()


def seat_view(session: BattleSession, seat: str) -> dict:
    """The seat's view as the host sends it (JSON)."""
    return json.loads(session.screen(seat).to_json())["view"]


def joined(app, link: str) -> RemoteBattleScene:
    while len(app.stack):
        app.stack.pop()
    scene = join(app, link)
    assert isinstance(scene, RemoteBattleScene), scene
    app.step(1 / 30, events=[])
    return scene


def test_a_joined_window_plays_a_legal_action_and_the_host_applies_it(app, hosted):
    host, session = hosted
    side = session.to_act()
    scene = joined(app, host.link(side))
    try:
        assert scene.battle.viewer == side and scene.battle.view() == seat_view(session, side)
        legal = scene.battle.legal_for("activate")[0]
        before = session.actions_taken()
        scene.do(Action("activate", legal.actor))
        assert session.actions_taken() == before + 1
        assert session.view(log=False)["turn"]["active"] == legal.actor
        assert "not allowed" not in scene.log_title
        # The screen that followed is this seat's, and nothing else.
        assert scene.battle.view() == seat_view(session, side)
    finally:
        while len(app.stack):
            app.stack.pop()


def test_an_illegal_action_is_refused_with_the_reason_and_changes_nothing(app, hosted):
    host, session = hosted
    side = session.to_act()
    other = "B" if side == "A" else "A"
    scene = joined(app, host.link(other))
    try:
        before = session.actions_taken()
        scene.do(Action("end-turn"))
        assert session.actions_taken() == before
        assert scene.log_title == "end-turn: not allowed"
        assert scene.log_lines[0] == f"not allowed: it is not seat {other}'s decision now (the battle waits for side {side})"
        assert not scene.offered("end-turn")
        enemy = next(u["id"] for u in scene.battle.view(log=False)["blips"] if u["side"] == side)
        preview = scene.battle.preview(Action("move", enemy, {"x": 1.0, "y": 1.0}))
        assert not preview.legal and "not seat" in preview.reason
    finally:
        while len(app.stack):
            app.stack.pop()


def test_a_move_previewed_by_the_host_from_the_seats_own_view(app, hosted):
    host, session = hosted
    side = session.to_act()
    scene = joined(app, host.link(side))
    try:
        blip = scene.battle.legal_for("activate")[0].actor
        scene.do(Action("activate", blip))
        me = next(b for b in scene.battle.view(log=False)["blips"] if b["id"] == blip)
        moves = [Action("move", blip, {"x": round(me["x"] + dx, 1), "y": round(me["y"] + dy, 1)})
                 for dx, dy in ((0, 1.5), (0, -1.5), (1.5, 0), (-1.5, 0), (1, 1), (-1, -1), (1, -1), (-1, 1))]
        previews = [(a, scene.battle.preview(a)) for a in moves]
        legal = [(a, p) for a, p in previews if p.legal]
        assert legal, [p.reason for _, p in previews]
        action, preview = legal[0]
        assert preview.figures == json.loads(json.dumps(session.preview(action).figures))
        refused = [(a, p) for a, p in previews if not p.legal]
        for a, p in refused:
            assert p.reason == session.preview(a).reason          # the engine's own words, from the host
    finally:
        while len(app.stack):
            app.stack.pop()


def test_a_link_that_opens_no_seat_is_refused_with_the_reason(app, hosted):
    host, _session = hosted
    why = join(app, f"{host.url}/join/not-a-credential")
    assert isinstance(why, str) and why.startswith("the link opens no seat")
    why = join(app, "ftp://nowhere")
    assert isinstance(why, str) and "http://" in why


def test_a_joined_window_types_its_physical_dice_one_by_one(app):
    """Physical dice: the host asks the joined side for each die of its own action, and the action is resolved once
    the last is typed."""
    from pathlib import Path

    from referee.game.battle.state import state_from_scenario
    from referee.rules.scenario import load_scenario

    table = Path(__file__).parent / "ui" / "table.toml"
    state = begin_battle(state_from_scenario(load_scenario(table)), first="A")
    session = BattleSession(Game(state), None, autosaving=False, hotseat=False)
    host = Host.start(session, bind="127.0.0.1")
    try:
        scene = joined(app, host.link("A"))
        battle = scene.battle
        assert battle.attempt(Action("activate", "a-sct")).legal       # the scout has a rifle shot at b-tac-2
        rifle = next(a for a in battle.legal() if a.kind == "rifle")
        action = rifle.action()
        before = session.actions_taken()
        attempt = battle.attempt(action)
        typed = 0
        while attempt.pending is not None:
            assert attempt.pending.request.label          # the host names the die it asks for
            attempt = battle.answer(attempt.pending, 4.0)
            typed += 1
        assert typed >= 1 and attempt.outcome is not None and attempt.outcome.legal, attempt.outcome
        assert session.actions_taken() == before + 1
    finally:
        while len(app.stack):
            app.stack.pop()
        host.stop()


def to_end_of_round(host, session) -> None:
    """Both sides pass until the round ends (at the host, under its lock), the seats told."""
    with host.lock:
        while session.view(log=False)["phase"] == "action":
            kind = "end-turn" if session.offers("end-turn") else "end-activation"
            assert session.attempt(Action(kind)).outcome.legal
    host.changed()


def test_the_end_of_a_round_is_each_sides_word_from_its_own_window(app, hosted):
    from referee.net.client import RemoteSeat
    from referee.ui.scenes.dialogs import Dialog

    host, session = hosted
    scene = joined(app, host.link("A"))
    other = RemoteSeat(host.link("B"))
    try:
        to_end_of_round(host, session)
        # The host may push more than one screen on the way: wait for the one at the end of the round.
        scene.battle.seat.wait_for(lambda s: s["view"]["phase"] == "end-of-round")
        app.step(1 / 30, events=[])
        word = app.scene
        assert isinstance(word, Dialog) and [k for k, _ in word.choices] == ["next", "withdraw", "stop"]
        assert "side A" in word.heading
        word.choose("withdraw")                          # side A announces its Withdraw from its window
        assert session.view(log=False)["phase"] == "end-of-round"
        assert scene.waiting == "the other side's word at the end of the round"
        assert other.wait_for(lambda s: (s.get("round_words") or {}).get("withdraw_asked") == "A")
        assert other.act("end-of-round", answer="pursue")["ok"]
        scene.battle.seat.wait_for(lambda s: s["view"]["phase"] == "action")   # (it may have come already)
        app.step(1 / 30, events=[])
        assert session.view(log=False)["phase"] == "action" and session.view(log=False)["pursuit"]
    finally:
        other.close()
        while len(app.stack):
            app.stack.pop()


def test_the_other_sides_withdraw_is_answered_in_this_window(app, hosted):
    from referee.net.client import RemoteSeat
    from referee.ui.scenes.dialogs import Dialog

    host, session = hosted
    scene = joined(app, host.link("A"))
    other = RemoteSeat(host.link("B"))
    try:
        to_end_of_round(host, session)
        other.wait_for(lambda s: s["view"]["phase"] == "end-of-round")
        assert other.act("end-of-round", withdraw="B")["ok"]
        scene.battle.seat.wait_for(lambda s: (s.get("round_words") or {}).get("withdraw_asked") == "B")
        app.step(1 / 30, events=[])
        question = app.scene
        assert isinstance(question, Dialog) and [k for k, _ in question.choices] == ["allow", "pursue"]
        question.choose("allow")
        assert session.view(log=False)["phase"] != "end-of-round"
    finally:
        other.close()
        while len(app.stack):
            app.stack.pop()


def test_w_in_a_joined_window_serves_nothing_more(app, hosted):
    host, _session = hosted
    scene = joined(app, host.link("A"))
    try:
        app.step(1 / 30, events=[pygame.event.Event(pygame.KEYDOWN, key=pygame.K_w, mod=0, unicode="w", scancode=0)])
        assert app.scene is scene and scene.log_title == "Phones and remote play"
    finally:
        while len(app.stack):
            app.stack.pop()


def test_a_joined_window_rolls_a_targets_pool_at_the_host_and_spends_it(app):
    from .test_undo import battle

    session = battle(5)                       # side A's revealed tactical a-tac, to act
    session.hotseat = False
    host = Host.start(session, bind="127.0.0.1")
    scene = joined(app, host.link("A"))
    try:
        remote = scene.battle
        scene.do(Action("activate", "a-tac"))
        assert remote.offers("target", "a-tac")
        out = remote.roll_pool("a-tac", 2)
        assert out.legal, out.outcome.reason if out.outcome else out
        pool = session.state.pool
        assert pool is not None and pool["actor"] == "a-tac" and len(pool["rolls"]) == 2   # rolled at the host
        remote.seat.wait_for(lambda s: s["view"].get("pool") is not None)
        assert remote.pool() == pool                                     # and shown on this seat's screen
        assert not remote.offers("move", "a-tac")                        # only its Target now
        spent = remote.attempt(Action("target", "a-tac", {"dice": 2, "assign": {}}))
        assert spent.legal and session.state.pool is None
    finally:
        while len(app.stack):
            app.stack.pop()
        host.stop()


def test_a_unit_revealed_in_the_other_sides_turn_is_placed_in_its_owners_joined_window_alone(app):
    """A blip of A's that held two units was revealed in B's turn: the second stands where A chooses (A66). A's
    joined window asks A, offering the engine's spots as the host sends them; B's window asks nothing (it opened on
    a crash before, reading a spot the remote seat never had) and B waits until A has placed it."""
    from pathlib import Path

    from referee.game.battle.state import state_from_scenario
    from referee.rules.scenario import load_scenario
    from referee.ui.scenes.dialogs import Dialog

    state = begin_battle(state_from_scenario(load_scenario(Path(__file__).parent / "ui" / "small_table.toml")))
    first = state.units["a-tactical-1"]
    second = state.units["a-assault-1"]
    second.x, second.y = first.x + (first.base + second.base) / 2, first.y
    state.turn.player = "B"
    state.to_place = {"a-assault-1": "a-tactical-1"}
    session = BattleSession(Game(state), SeededDice(6), autosaving=False, hotseat=False)
    host = Host.start(session, bind="127.0.0.1")
    try:
        b = joined(app, host.link("B"))
        app.step(1 / 30, events=[])
        assert app.scene is b and b.placing.owed() == ()
        a = joined(app, host.link("A"))
        app.step(1 / 30, events=[])
        asked = app.scene
        assert isinstance(asked, Dialog) and asked.heading == "Place a-assault-1", asked
        with host.lock:
            spots = session.revealed_spots("a-assault-1")
        offered = [key for key in asked.buttons.values() if key.isdigit()]
        assert offered and all(spots[int(key)] != (second.x, second.y) for key in offered)
        asked.choose(offered[0])
        for _ in range(3):
            app.step(1 / 30, events=[])
        a.battle.seat.wait_for(lambda s: not s["view"]["to_place"])
        with host.lock:
            placed = session.state.units["a-assault-1"]
            assert (placed.x, placed.y) == tuple(round(v, 3) for v in spots[int(offered[0])])
            assert session.state.to_place == {}
    finally:
        while len(app.stack):
            app.stack.pop()
        host.stop()


def test_keeping_the_default_facing_in_a_joined_window_is_said_to_the_host_so_the_other_side_plays_on(app):
    """A's trooper revealed in B's turn: B waits for A's word (A13). A keeps the default facing: the host is told
    (before, the window kept it to itself, and B would have waited for ever)."""
    from pathlib import Path

    from referee.game.battle.state import state_from_scenario
    from referee.rules.scenario import load_scenario
    from referee.ui.scenes.dialogs import Dialog

    state = begin_battle(state_from_scenario(load_scenario(Path(__file__).parent / "ui" / "small_table.toml")))
    state.turn.player = "B"
    state.to_face = ["a-tactical-1"]
    facing = state.units["a-tactical-1"].facing
    session = BattleSession(Game(state), SeededDice(6), autosaving=False, hotseat=False)
    host = Host.start(session, bind="127.0.0.1")
    try:
        a = joined(app, host.link("A"))
        app.step(1 / 30, events=[])
        asked = app.scene
        assert isinstance(asked, Dialog) and asked.heading == "Face a-tactical-1", asked
        asked.choose("keep")
        for _ in range(3):
            app.step(1 / 30, events=[])
        a.battle.seat.wait_for(lambda s: not s["view"]["to_face"])
        with host.lock:
            assert session.state.to_face == [] and session.state.units["a-tactical-1"].facing == facing
            assert host.desk.owed_by_other("B") == ""
    finally:
        while len(app.stack):
            app.stack.pop()
        host.stop()
