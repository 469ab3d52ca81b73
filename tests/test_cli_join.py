"""``seven-seconds join LINK``: the window opened as one side of a battle served on 127.0.0.1 (saved as a screenshot
here), and a link that opens no seat refused with the reason, as the command line refuses bad input."""

from __future__ import annotations

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from referee.cli.main import main  # noqa: E402
from referee.game.battle.dice import SeededDice  # noqa: E402
from referee.game.play.engine import Game, begin_battle  # noqa: E402
from referee.net.host import Host  # noqa: E402
from referee.service.session import BattleSession  # noqa: E402

from .test_leaks import set_up  # noqa: E402


def test_join_opens_the_sides_window_and_refuses_a_link_without_a_seat(tmp_path, capsys):
    session = BattleSession(Game(begin_battle(set_up(913))), SeededDice(2), autosaving=False, hotseat=False)
    host = Host.start(session, bind="127.0.0.1")
    try:
        shot = tmp_path / "joined.png"
        assert main(["join", host.link("B"), "--screenshot", str(shot)]) == 0
        image = pygame.image.load(str(shot))
        assert image.get_size()[0] >= 800
        for _ in range(100):                             # the window's seat closed with it
            if host.connected()["B"] == 0:
                break
            time.sleep(0.02)
        assert host.connected()["B"] == 0
        assert main(["join", f"{host.url}/join/wrong"]) != 0
        err = capsys.readouterr().err
        assert "the link opens no seat" in err
    finally:
        host.stop()
