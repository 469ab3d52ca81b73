"""A battle joined from its start: the real host on 127.0.0.1 serves a new battle in set-up, this window joins side
A's seat and takes every set-up decision of its side with its own buttons and clicks (the roll, the edge, the
objectives, the cards, the holding area, the blips with their squares); side B decides from its own seat, and the
window follows the host's screens. When set-up is complete the joined battle scene takes over with the same seat;
the window never holds side B's secrets."""

from __future__ import annotations

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from referee import paths  # noqa: E402
from referee.game.battle.action_kinds import Kind  # noqa: E402
from referee.game.battle.dice import SeededDice  # noqa: E402
from referee.net.client import RemoteSeat  # noqa: E402
from referee.net.host import Host  # noqa: E402
from referee.rules.scenario import load_scenario  # noqa: E402
from referee.service.battles import new_session  # noqa: E402
from referee.ui.app import App  # noqa: E402
from referee.ui.joining import join  # noqa: E402
from referee.ui.scenes.dialogs import DiceDialog, Dialog  # noqa: E402
from referee.ui.scenes.holding_setup import HoldingSetupScene  # noqa: E402
from referee.ui.scenes.remote_battle import RemoteBattleScene  # noqa: E402
from referee.ui.scenes.remote_setup import RemoteSetupScene  # noqa: E402

# Side B's decision at each step, from its own seat: the program's draw, as its "for me" buttons leave it.
B_KINDS = {"edge": Kind.CHOOSE_EDGE, "objective": Kind.PLACE_OBJECTIVE, "cards": Kind.DRAW_CARDS,
           "choose-cards": Kind.CHOOSE_CARDS, "holding": Kind.FILL_HOLDING, "blip": Kind.PLACE_BLIP}


@pytest.fixture(scope="module")
def app():
    a = App((1100, 720))
    yield a
    pygame.quit()


def pastoral_host(kept_by: tuple[str, ...] = ()) -> tuple[Host, object]:
    """A new battle as ``seven-seconds host pastoral-hills`` serves it (``--kept-by``: ``kept_by``), its dice seeded."""
    table = load_scenario(paths.table_file("pastoral-hills"))
    session = new_session(table, {"A": "council-of-zane", "B": "new-tokyo"}, autosaving=False)
    session.dice = SeededDice(31)
    return Host.start(session, bind="127.0.0.1", kept_by=kept_by), session


@pytest.fixture
def hosted():
    host, session = pastoral_host()
    yield host, session
    host.stop()


def joined(app, link: str) -> RemoteSetupScene:
    while len(app.stack):
        app.stack.pop()
    scene = join(app, link)
    assert isinstance(scene, RemoteSetupScene), scene
    app.step(1 / 30, events=[])
    return scene


def clear(app) -> None:
    while len(app.stack):
        app.stack.pop()


def follow(app, scene, host) -> None:
    """The window takes the host's newest screen (the other side decided) and shows it."""
    scene.battle.seat.wait_version(host.version)
    app.step(1 / 30, events=[])


def free_point(scene: RemoteSetupScene) -> tuple[float, float]:
    """A point of the placement zone the host's preview allows, found as a player's mouse would find it."""
    zone = scene.zone()
    assert zone is not None
    (x0, x1), (y0, y1) = zone["x"], zone["y"]
    for i in range(1, 8):
        for j in range(1, 8):
            x, y = x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * j / 8
            if scene.placement_word(x, y) == "":
                return x, y
    raise AssertionError("no free point in the zone")


def press_button(app, scene, key: str) -> None:
    """Click the set-up bar's button for ``key`` (the event pygame-gui sends for it)."""
    button = next(b for b, k in scene.bar_buttons.items() if k == key)
    app.step(1 / 30, events=[pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)])


def fill_holding_by_clicks(app, scene: RemoteSetupScene) -> dict[str, list[str]]:
    press_button(app, scene, "arrange")
    holding = app.scene
    assert isinstance(holding, HoldingSetupScene) and holding.side == "A"
    n = 1
    while holding.unplaced():
        rect, _uid = holding.unit_rows()[0]
        holding.click(rect.center)
        holding.click(holding.cell(n).center)
        n += 1
    squares = holding.squares()
    done = next(b for b, k in holding.buttons.items() if k == "done")
    app.step(1 / 30, events=[pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=done)])
    assert app.scene is scene, holding.error
    return squares


def test_a_joined_window_plays_its_sides_whole_set_up_to_round_one(app, hosted, tmp_path):
    host, session = hosted
    scene = joined(app, host.link("A"))
    other = RemoteSeat(host.link("B"))
    battle = scene.battle
    steps_a: list[str] = []
    placed_square: list[tuple[int, tuple[float, float] | None]] = []
    holding_a: dict[str, list[str]] = {}
    try:
        assert session.view(log=False)["phase"] == "setup"
        for _ in range(200):
            if not isinstance(app.scene, RemoteSetupScene):
                break
            d = scene.decision()
            step, side = d["step"], d["side"]
            view = battle.view()
            assert view == battle.seat.screen["view"]
            assert (view.get("holding") or {}).get("B") is None          # B's squares are never sent here
            if side == "B":
                assert scene.waiting_for() == "B" and scene.choices() == []
                assert "Waiting for side B's decision on their device." in [
                    t.text for b in scene.panel_blocks for t in b.items]
                if step == "edge" and "edge-wait" not in steps_a:
                    steps_a.append("edge-wait")
                reply = other.act(B_KINDS[step], "B")
                assert reply["ok"], reply
                follow(app, scene, host)
                continue
            steps_a.append(step)
            if step == "roles":
                pygame.image.save(app.screen, str(tmp_path / "joined-setup-roles.png"))
                press_button(app, scene, "roll")
            elif step == "edge":
                press_button(app, scene, "keep")
            elif step == "objective":
                x, y = free_point(scene)
                assert scene.place_at(x, y), scene.message
            elif step == "cards":
                press_button(app, scene, "draw")
                cards = app.scene
                assert isinstance(cards, Dialog) and "only you see them" in cards.heading
                assert cards.lines and cards.lines != ["no cards yet"]
                cards.choose("ok")
            elif step == "holding":
                holding_a = fill_holding_by_clicks(app, scene)
            elif step == "blip":
                if not placed_square:
                    square = scene.current_square()
                    assert 1 <= square <= 16
                    x, y = free_point(scene)
                    assert scene.place_at(x, y), scene.message
                    placed_square.append((square, (round(x, 2), round(y, 2))))
                elif len(placed_square) == 1:
                    press_button(app, scene, "for-me")
                    placed_square.append((0, None))
                else:
                    press_button(app, scene, "rest")
            else:
                raise AssertionError(f"unexpected set-up step {step}")
            assert "not allowed" not in scene.message, scene.message
            app.step(1 / 30, events=[])
        # Set-up complete: round 1, in the joined battle scene, on the same seat.
        assert session.view(log=False)["phase"] == "action" and session.view(log=False)["round"] == 1
        top = app.scene
        assert isinstance(top, RemoteBattleScene) and top.battle is battle and battle.seat.connected
        assert {"roles", "objective", "cards", "holding", "blip"} <= set(steps_a)
        # The holding area A filled by clicks is the one the host holds; B's is not in A's view.
        truth = json.loads(session.screen("A").to_json())["view"]["holding"]["A"]
        assert {n: sorted(u["id"] for u in units) for n, units in truth.items() if units} == \
            {n: sorted(units) for n, units in holding_a.items()}
        view = battle.view()
        square, at = placed_square[0]
        placed = [b for b in view["blips"] if b["side"] == "A" and (b["x"], b["y"]) == pytest.approx(at)]
        assert len(placed) == 1 and placed[0]["square"] == square          # the counter stands for the square shown
        assert view["holding"].get("B") is None
        assert all("square" not in b or b["square"] is None for b in view["blips"] if b["side"] == "B")
    finally:
        other.close()
        clear(app)


def test_the_other_sides_decision_is_shown_as_the_host_sends_it(app, hosted):
    """Side A waits while side B picks its edge on its own device; B's decision comes as a new screen, and the
    window shows the next decision without a key pressed."""
    host, session = hosted
    scene = joined(app, host.link("A"))
    other = RemoteSeat(host.link("B"))
    try:
        press_button(app, scene, "roll")
        d = scene.decision()
        if d["step"] == "edge" and d["side"] == "B":
            assert scene.waiting_for() == "B" and not scene.bar_buttons
            assert scene.step_title(d) == "Pick their table edge"
            assert not scene.place_at(10, 10) and not scene.for_me()
            assert other.act(Kind.CHOOSE_EDGE, "B", turn=False)["ok"]
            follow(app, scene, host)
        # Whatever the roll gave, the window now shows the host's decision due, and its buttons are this side's only.
        d = scene.decision()
        assert d == json.loads(session.screen("A").to_json())["view"]["setup"] and d["step"] != "roles"
        assert bool(scene.bar_buttons) == (d["side"] == "A")
    finally:
        other.close()
        clear(app)


def test_physical_dice_for_the_roles_are_typed_in_the_joined_window(app):
    table = load_scenario(paths.table_file("pastoral-hills"))
    session = new_session(table, {"A": "council-of-zane", "B": "new-tokyo"}, program_dice=False, autosaving=False)
    host = Host.start(session, bind="127.0.0.1")
    try:
        scene = joined(app, host.link("A"))
        press_button(app, scene, "roll")
        typed = []
        for face in ("5", "2", "6", "1"):
            asked = app.scene
            if not isinstance(asked, DiceDialog):
                break
            asked.choose(face)
            typed.append(face)
        assert typed[:2] == ["5", "2"] and app.scene is scene, scene.message
        assert "not allowed" not in scene.message
        assert session.view(log=False)["setup"]["step"] == "edge"
        assert scene.decision()["step"] == "edge" and scene.decision()["side"] == "B"     # A rolled 5, B 2: B defends
    finally:
        clear(app)
        host.stop()


def test_w_in_a_joined_set_up_serves_nothing_more(app, hosted):
    host, _session = hosted
    scene = joined(app, host.link("A"))
    try:
        app.step(1 / 30, events=[pygame.event.Event(pygame.KEYDOWN, key=pygame.K_w, mod=0, unicode="w", scancode=0)])
        assert app.scene is scene and "served by the computer that hosts it" in scene.message
    finally:
        clear(app)


def test_leaving_a_joined_set_up_closes_its_seat_only(app, hosted):
    host, session = hosted
    clear(app)
    app.open_menu()
    scene = join(app, host.link("A"))
    assert isinstance(scene, RemoteSetupScene)
    other = RemoteSeat(host.link("B"))
    try:
        scene.leave()
        assert app.scene is not scene and not scene.battle.seat.connected
        assert other.ask("screen")["ok"]                  # the host serves on: the seat may join again
        again = joined(app, host.link("A"))
        assert again.decision()["step"] == "roles" and again.bar_buttons
    finally:
        other.close()
        clear(app)
