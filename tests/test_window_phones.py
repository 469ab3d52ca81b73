"""Phones and remote play from the window: the battle served by the real host on 127.0.0.1, the window turned into
the shared table, a QR code per seat that a QR reader (OpenCV's) reads back as the seat's link, who is connected,
a hand's intent shown on the table, and the host stopped with the table."""

from __future__ import annotations

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from referee.game.battle.dice import Contribution, SeededDice  # noqa: E402
from referee.game.play.engine import Game, begin_battle  # noqa: E402
from referee.net.client import RemoteSeat  # noqa: E402
from referee.service.session import BattleSession  # noqa: E402
from referee.ui import hosting  # noqa: E402
from referee.ui.app import App  # noqa: E402
from referee.ui.qr import qr_surface  # noqa: E402
from referee.ui.scenes.battle import BattleScene  # noqa: E402
from referee.ui.scenes.dialogs import Dialog  # noqa: E402
from referee.ui.scenes.phones import PhonesScene  # noqa: E402
from referee.ui.scenes.remote_battle import RemoteBattleScene  # noqa: E402
from referee.ui.scenes.table_mode import TableModeScene  # noqa: E402

from .test_leaks import set_up  # noqa: E402


@pytest.fixture(scope="module")
def app():
    a = App((1100, 720))
    yield a
    pygame.quit()


def read_qr(surface: pygame.Surface) -> str:
    """The text a QR reader reads from the drawn code: OpenCV's reader, then its ArUco-based one (the first alone
    misses about 1 code in 100 of these links, whatever draws them)."""
    pixels = np.ascontiguousarray(pygame.surfarray.array3d(surface).swapaxes(0, 1))
    grey = cv2.copyMakeBorder(cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY), 40, 40, 40, 40, cv2.BORDER_CONSTANT,
                              value=255)
    text = cv2.QRCodeDetector().detectAndDecode(grey)[0]
    return str(text or cv2.QRCodeDetectorAruco().detectAndDecode(grey)[0])


def test_a_qr_code_drawn_for_the_window_reads_back_as_its_link():
    link = "http://192.168.1.20:40123/join/Zq8b0m3-x1Lw9kPq2Rt5Yv7Nc4Hd6Fj0"
    surface = qr_surface(link, 300)
    assert surface.get_width() <= 300
    assert read_qr(surface) == link


def served(app) -> tuple[TableModeScene, BattleSession]:
    while len(app.stack):
        app.stack.pop()
    session = BattleSession(Game(begin_battle(set_up(905))), SeededDice(4), autosaving=False, hotseat=True)
    app.push(BattleScene(session))
    app.step(1 / 30, events=[])
    table = hosting.serve(app, session, bind="127.0.0.1")
    assert isinstance(table, TableModeScene), table
    return table, session


def test_serving_a_battle_turns_the_window_into_the_table_with_a_code_per_seat(app):
    table, session = served(app)
    host = table.public.host
    try:
        phones = app.scene
        assert isinstance(phones, PhonesScene)
        assert [type(s) for s in app.stack.scenes] == [TableModeScene, PhonesScene]
        for seat in ("A", "B", "spectator"):
            assert read_qr(phones.codes[seat]) == host.link(seat)
        hand = RemoteSeat(host.link("B"))
        try:
            app.step(1.0, events=[])
            assert phones.counts["B"] == 1 and phones.counts["A"] == 0
        finally:
            hand.close()
        app.step(1 / 30, events=[pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r",
                                                    scancode=0)])
        assert app.scene is table
        app.step(1 / 30, events=[pygame.event.Event(pygame.KEYDOWN, key=pygame.K_w, mod=0, unicode="w",
                                                    scancode=0)])
        assert isinstance(app.scene, PhonesScene)
        app.pop()
    finally:
        while len(app.stack):
            app.stack.pop()
    with pytest.raises(OSError):
        RemoteSeat(host.link("A"))                     # stopped with the table


def test_a_hands_intent_is_shown_on_the_table_and_the_tables_action_reaches_the_hands(app):
    table, session = served(app)
    host = table.public.host
    app.pop()                                           # the codes' screen
    side = session.to_act()
    hand = RemoteSeat(host.link(side))
    try:
        before = hand.version
        reply = hand.act("end-turn")
        assert reply["ok"], reply
        app.step(1 / 30, events=[])
        assert table.public.viewer != side               # the table follows the turn the hand passed
        assert table.seen == table.public.moment_key()
        # The table ends the other side's turn: the hand gets a fresh screen.
        table.press("end-turn")
        asked = app.scene
        assert isinstance(asked, Dialog) and asked.choices[0][0] == "pass"     # a pass is asked first (p.16, A22)
        asked.choose("pass")
        assert app.scene is table
        hand.wait_version(before + 2)
        assert hand.screen["to_act"] == session.to_act()
    finally:
        hand.close()
        while len(app.stack):
            app.stack.pop()


def test_this_window_plays_one_side_through_its_own_host_while_the_other_plays_from_afar(app):
    table, session = served(app)
    host = table.public.host
    side = session.to_act()
    other = "B" if side == "A" else "A"
    letter = pygame.K_a if other == "A" else pygame.K_b
    app.step(1 / 30, events=[pygame.event.Event(pygame.KEYDOWN, key=letter, mod=0, unicode=other.lower(), scancode=0)])
    mine = app.scene
    assert isinstance(mine, RemoteBattleScene) and mine.battle.viewer == other
    assert table not in app.stack.scenes
    far = RemoteSeat(host.link(side))                    # the other side, from a phone or another computer
    try:
        before = mine.battle.version
        assert far.act("end-turn")["ok"]
        mine.battle.seat.wait_version(before + 1)
        app.step(1 / 30, events=[])
        assert mine.seen == mine.battle.version and mine.battle.to_act() == other
    finally:
        far.close()
        while len(app.stack):
            app.stack.pop()
    with pytest.raises(OSError):
        RemoteSeat(host.link(side))                      # stopped with the side's screen


def test_physical_dice_of_an_action_taken_at_the_table_are_typed_on_that_sides_hand(app):
    """With physical dice, the rifle shot taken at the table waits for side A's hand, which types each die; the
    table shows the shot once the last die is in."""
    from pathlib import Path

    from referee.game.battle.intents import Action
    from referee.game.battle.state import state_from_scenario
    from referee.rules.scenario import load_scenario

    while len(app.stack):
        app.stack.pop()
    table_file = Path(__file__).parent / "ui" / "table.toml"
    session = BattleSession(Game(begin_battle(state_from_scenario(load_scenario(table_file)), first="A")), None,
                            autosaving=False)
    app.push(BattleScene(session))
    table = hosting.serve(app, session, bind="127.0.0.1")
    assert isinstance(table, TableModeScene)
    app.pop()                                            # the codes' screen
    hand = RemoteSeat(table.public.host.link("A"))
    try:
        table.do(Action("activate", "a-sct"))
        before = session.actions_taken()
        table.do(Action("rifle", "a-sct", {"target": "b-tac-2"}))
        assert app.scene is table                        # no dice dialog on the table
        assert table.waiting is not None and table.waiting[0] == "side A's hand"
        typed = 0
        while session.actions_taken() == before:
            screen = hand.wait_for(lambda s: "pending" in s or session.actions_taken() > before)
            if "pending" not in screen:
                break
            version = hand.version
            assert hand.send({"kind": "answer", "value": 4})["ok"]
            hand.wait_version(version + 1)                # the screen after this die
            typed += 1
        assert typed >= 1 and session.actions_taken() == before + 1
        app.step(1 / 30, events=[])
        assert table.waiting is None and table.seen == table.public.moment_key()
    finally:
        hand.close()
        while len(app.stack):
            app.stack.pop()


def new_battle_for_phones(app, monkeypatch, tmp_path, secrets: str | None = None):
    """The menu's "Phones and remote play" with nothing to resume: the new-battle form (its secrets kept as
    ``secrets`` says, else as it offers first), started; the session."""
    # Lazy: the menu and the set-up form only for these tests.
    from referee.ui.scenes.menu import MenuScene
    from referee.ui.scenes.setup import SetupScene

    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path))
    real = hosting.serve
    monkeypatch.setattr(hosting, "serve", lambda app_, session, **k: real(app_, session, **{**k, "bind": "127.0.0.1"}))
    while len(app.stack):
        app.stack.pop()
    menu = app.push(MenuScene())
    app.step(1 / 30, events=[])
    assert menu.interrupted is None
    menu.serve_to_phones()
    form = app.scene
    assert isinstance(form, SetupScene) and form.to_phones
    app.step(1 / 30, events=[])
    if secrets is not None:
        form.secrets_label = secrets
    return form.start()


def test_phones_from_the_menu_with_no_battle_starts_a_new_one_and_serves_it(app, monkeypatch, tmp_path):
    """The menu's "Phones and remote play" with nothing to resume, the secrets kept on this computer: the new-battle
    form, then the battle served once its players have set their PINs, the window the shared table (it said "start a
    battle, then press W")."""
    # Lazy: the set-up scenes only for this test.
    from referee.ui.scenes.setup import SECRETS
    from referee.ui.scenes.table_setup import TableSetupScene

    from tests.ui.setup_helpers import type_pins

    on_this_computer = next(label for label, on_phones in SECRETS.items() if not on_phones)
    session = new_battle_for_phones(app, monkeypatch, tmp_path, on_this_computer)
    assert session is not None
    type_pins(app, {"A": "4711", "B": "0815"})
    try:
        assert isinstance(app.scene, PhonesScene)            # the codes over the shared table
        table = app.stack.find(TableSetupScene)
        assert table is not None and session.sealed
        hand = RemoteSeat(table.public.host.link("A"))
        try:
            assert hand.screen["seat"] == "A" and hand.screen["view"]["phase"] == "setup"
        finally:
            hand.close()
    finally:
        while len(app.stack):
            app.stack.pop()


def test_a_new_battle_for_phones_keeps_each_players_secrets_on_their_phone_by_default(app, monkeypatch, tmp_path):
    """Offered first: each player's secrets on their own phone. No PIN is asked (this computer holds none of them to
    seal); the battle is served with both sides kept (``--kept-by A --kept-by B``), each hand told so, and a side
    joined from another computer keeps its own (``net/keeper.py``)."""
    # Lazy: the set-up scenes only for this test.
    from referee.ui.scenes.table_setup import TableSetupScene

    session = new_battle_for_phones(app, monkeypatch, tmp_path)
    try:
        assert session is not None and not session.sealed
        assert isinstance(app.scene, PhonesScene)            # the codes over the shared table, no PIN asked
        table = app.stack.find(TableSetupScene)
        assert table is not None
        host = table.public.host
        assert host.desk.kept_by == {"A", "B"} and session.kept_dice() == ("A", "B")
        a = RemoteSeat(host.link("A"), kept_folder=tmp_path / "a-computer")
        try:
            assert a.screen["keep_secrets"] is True and a.screen["kept_by"] == ["A", "B"]
            # A's computer drew its dice contribution and sent only its commitment, which the host holds.
            a.wait_for(lambda s: a.keeper is not None and a.keeper.dice is not None)
            value, salt = a.keeper.dice
            for _ in range(500):
                with host.lock:
                    held = session.dice_commitment("A")
                if held is not None:
                    break
                time.sleep(0.01)
            assert held == Contribution("A", value, salt).commitment
        finally:
            a.close()
    finally:
        while len(app.stack):
            app.stack.pop()
