"""The referee mode served to phones from its own screen (Phones): the window becomes the referee's shared table, the
host on 127.0.0.1. A Target taken at the table reveals side B's blip: the table waits for side B's hand, which says
what it holds, and the Target goes on; the table never shows the word before the reveal. The dice an action taken at
the table rolls are typed in the dialog here or on the hand of the side taking it, whichever first."""

from pathlib import Path

import pygame

from referee.net.client import RemoteSeat
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession
from referee.ui.scenes.dialogs import DiceDialog
from referee.ui.scenes.phones import PhonesScene
from referee.ui.scenes.referee import RefereeScene
from referee.ui.scenes.referee_table import RefereeTableScene

from tests.ui.test_ui_referee import click, key, type_dice

SMALL = Path(__file__).with_name("small_table.toml")


def served(app):
    session = RefereeSession.from_scenario(load_scenario(SMALL))
    session.autosaving = False
    assert session.correct("b-blip-1", x=8.0, y=18.0).legal                # in the open, in sight of a-tactical-1
    scene = app.push(RefereeScene(session))
    app.step(1 / 30, events=[])
    assert scene.offered("phones")
    scene.press("phones")                     # serves on this computer's address: bound to 127.0.0.1 below instead
    return session


def test_the_referee_table_asks_the_blips_owner_on_its_hand_and_takes_dice_here_or_there(fresh, monkeypatch):
    from referee.ui import hosting

    serve = hosting.serve
    monkeypatch.setattr(hosting, "serve", lambda app, session, replacing=True, bind=None:
                        serve(app, session, replacing, "127.0.0.1"))
    session = served(fresh)
    assert isinstance(fresh.scene, PhonesScene)
    # The codes' screen speaks of the hands as the players' mats; no side is played from this window.
    assert fresh.scene.refereed and fresh.scene.on_side is None
    fresh.pop()
    table = fresh.scene
    assert isinstance(table, RefereeTableScene)
    host = table.public.host
    b = RemoteSeat(host.link("B"))
    a = RemoteSeat(host.link("A"))
    try:
        click(fresh, table, "a-tactical-1")
        table.press("activate")
        table.press("target")
        key(fresh, pygame.K_3, "3")
        key(fresh, pygame.K_RETURN)
        type_dice(fresh, [6, 6, 6])            # the sensor pool, typed here: the table places its counters next
        for _ in range(3):
            click(fresh, table, "b-blip-1")
        key(fresh, pygame.K_RETURN)
        # The reveal waits for side B's word, on its hand; the table shows only whose word it waits for.
        told = b.wait_for(lambda s: "tell_contents" in s)
        assert told["tell_contents"]["blip"] == "b-blip-1"
        assert table.waiting is not None and table.waiting[0] == "side B's hand"
        assert "b-blip-1" in table.waiting[1] and "tactical" not in table.waiting[1]
        assert "b-blip-1" in session.state.blips
        fresh.step(1 / 30, events=[])
        assert table.waiting is not None and table.banner_text().startswith("Waiting for side B's hand")
        assert b.send({"kind": "contents", "blip": "b-blip-1",
                       "contents": [{"rating": "veteran", "type": "tactical"}]})["ok"]
        fresh.step(1 / 30, events=[])
        assert "b-blip-1" not in session.state.blips and session.state.units["b-tactical-3"].type == "tactical"
        assert session.state.units["b-tactical-3"].target_counters == 3
        assert any(u["id"] == "b-tactical-3" for u in table.public.view(log=False)["units"])
        # B faces its trooper just revealed on its hand (A13); then A's rifle, its first die typed on A's hand: the
        # dialog here closes itself; the next one is asked of the hand.
        assert b.act("face", "b-tactical-3", facing=270.0)["ok"]
        fresh.step(1 / 30, events=[])
        table.press("rifle")
        click(fresh, table, "b-tactical-3")
        fresh.scene.choose("go")
        assert isinstance(fresh.scene, DiceDialog)
        a.wait_for(lambda s: "pending" in s)
        assert a.send({"kind": "answer", "value": 5})["ok"]
        fresh.step(1 / 30, events=[])
        assert not isinstance(fresh.scene, DiceDialog)
        # Missions: entered on the hands; the table says whose.
        table.press("mission")
        assert any("side B: not entered" in line for line in table.log_lines)
    finally:
        a.close()
        b.close()
        while len(fresh.stack):
            fresh.pop()
