"""A battle by e-mail opened from the window (the menu's Join a battle…, given the file's path rather than a link):
the player says which side they play, that side's turn is played in the window, and leaving the battle writes the
file and the menu says whom to send it to."""

from __future__ import annotations

import json
import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from referee import paths  # noqa: E402
from referee.game.records import sealing  # noqa: E402
from referee.net.client import RemoteSeat  # noqa: E402
from referee.net.mail import MailTurn, new_mail_battle  # noqa: E402
from referee.rules.scenario import load_scenario  # noqa: E402
from referee.ui.app import App  # noqa: E402
from referee.ui.joining import join_by_mail  # noqa: E402
from referee.ui.scenes.dialogs import Dialog  # noqa: E402
from referee.ui.scenes.menu import MenuScene  # noqa: E402
from referee.ui.scenes.remote_setup import RemoteSetupScene  # noqa: E402
from referee.ui.scenes.campaign import CampaignScene, CampaignSetupScene  # noqa: E402
from referee.ui.scenes.setup import SetupScene  # noqa: E402
from referee.cli.main import main  # noqa: E402

from .test_net_kept import FACTIONS  # noqa: E402
from .test_window_join_setup import press_button  # noqa: E402


def test_the_menu_opens_a_battle_by_mail_for_the_side_chosen_and_says_where_the_file_goes(tmp_path):
    path = tmp_path / "battle.json"
    new_mail_battle(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS, path)
    app = App((1100, 720))
    try:
        app.open_menu()
        menu = app.scene
        menu.ask_mail_side(path)
        dialog = app.scene
        assert isinstance(dialog, Dialog) and sorted(dialog.buttons.values()) == ["A", "B"]
        dialog.close("A")
        scene = app.scene
        assert isinstance(scene, RemoteSetupScene) and scene.battle.viewer == "A"
        turn = scene.host
        # A's computer sends the commitment to its part of the dice by itself; B's has not come, and A may roll.
        sealed = ("B", "its sealed part of the dice (once, before the first roll)")
        for _ in range(400):
            if turn.waits_for() == [sealed, ("A", "its move")]:
                break
            time.sleep(0.005)
        assert turn.waits_for() == [sealed, ("A", "its move")]
        # A rolls for attacker and defender from the set-up bar: the roll waits for B's part of the dice.
        app.step(1 / 30, events=[])
        press_button(app, scene, "roll")
        scene.battle.seat.wait_for(lambda screen: (screen.get("dice_asked") or {}).get("side") == "B")
        app.step(1 / 30, events=[])
        assert scene.message == ("The dice wait for side B's part by e-mail: close this window and send "
                                 "battle.json to side B")
        assert turn.waits_for() == [sealed]
        # Leaving the battle ends the turn: the file holds A's commitment and its roll waiting, and the menu says
        # where it goes.
        app.pop()
        assert app.scene is menu and menu.error_title == "The battle by e-mail is written"
        assert "The battle waits for side B" in menu.error and f"Send {path} to side B." in menu.error
        sent = json.loads(path.read_text(encoding="utf-8"))
        assert set(sent["battle"]["initial"]["dice_commitments"]) == {"A", "seed"}
        assert sent["waiting"]["seat"] == "A" and sent["waiting"]["action"]["kind"] == "roll-roles"
        # A file that is no battle by e-mail is refused in the menu with the reason, and nothing is opened.
        other = tmp_path / "other.json"
        other.write_text("{}", encoding="utf-8")
        menu.ask_mail_side(other)
        app.scene.close("B")
        assert app.scene is menu and menu.error_title == f"Could not open {other}"
    finally:
        pygame.quit()


def test_a_new_battle_by_mail_is_started_from_the_new_battle_form_for_the_side_chosen():
    app = App((1100, 720))
    try:
        menu = app.push(MenuScene())
        setup = app.push(SetupScene())
        app.step(1 / 30, events=[])
        setup.opponent_label = "By e-mail: I play side B, the other player side A"
        assert setup.start() is None and setup.error == ""
        scene = app.scene
        assert isinstance(scene, RemoteSetupScene) and scene.battle.viewer == "B"
        assert app.stack.find(SetupScene) is None          # the form gave way to the battle
        files = list(paths.saves_dir().glob("by-mail-*.json"))
        assert len(files) == 1
        app.pop()
        assert app.scene is menu and menu.error_title == "The battle by e-mail is written"
        assert str(files[0]) in menu.error
        # Physical dice cannot be rolled by e-mail: refused on the form, with the reason, and nothing written.
        setup = app.push(SetupScene())
        app.step(1 / 30, events=[])
        setup.opponent_label = "By e-mail: I play side A, the other player side B"
        setup.dice_label = "We roll physical dice and type them in"
        assert setup.start() is None and "program's dice" in setup.error
        assert app.scene is setup and len(list(paths.saves_dir().glob("by-mail-*.json"))) == 1
    finally:
        pygame.quit()


def test_a_campaigns_next_battle_started_by_mail_in_the_window_is_the_campaigns(tmp_path, capsys):
    """Started from the campaign's page: its factions as the campaign made them, the streak bonus (A47), the campaign
    named in the file, and this computer's note of which campaign file records it. The page then offers the battle
    by e-mail instead of a next one, and takes its player to their side's turn at it."""
    campaign = tmp_path / "war.toml"
    assert main(["campaign", "new", str(campaign), "--a", "new-tokyo", "--b", "council-of-zane", "--name",
                 "Border War"]) == 0
    assert main(["campaign", "battle", str(campaign), "--winner", "B", "--level", "marginal", "--control", "B"]) == 0
    capsys.readouterr()
    app = App((1100, 720))
    try:
        app.push(MenuScene())
        page = app.push(CampaignScene(campaign))
        app.step(1 / 30, events=[])
        page.press("next")
        setup = app.scene
        assert isinstance(setup, CampaignSetupScene)
        app.step(1 / 30, events=[])
        setup.opponent_label = "By e-mail: I play side A, the other player side B"
        assert setup.start() is None and setup.error == ""
        assert isinstance(app.scene, RemoteSetupScene) and app.scene.battle.viewer == "A"
        app.pop()
        # Back on the campaign's page: told what the battle waits for, the battle listed as played by e-mail, and
        # no second battle 2 offered.
        (path,) = paths.saves_dir().glob("by-mail-*.json")
        app.step(1 / 30, events=[])
        told = app.scene
        assert isinstance(told, Dialog) and told.heading == "The battle by e-mail is written"
        assert any("The battle waits for side B: its sealed part of the dice" in line for line in told.lines)
        told.close("ok")
        assert app.scene is page
        assert ("h", f"Battle 2 is being played by e-mail: {path}") in page.lines()
        keys = [key for key, _label, _enabled in page.button_row()]
        assert "mail" in keys and "next" not in keys
        # No upgrade is bought while battle 2 is under way: the buttons are off, and the page says when [p.31, A45].
        assert [on for key, _label, on in page.button_row() if key.startswith("upgrade-")] == [False, False]
        assert ("dim", "Upgrades are bought between battles: once battle 2 is recorded [p.31, A45].") in page.lines()
        page.press("mail")
        app.scene.close("A")
        assert isinstance(app.scene, RemoteSetupScene) and app.scene.battle.viewer == "A"
        app.pop()
        app.step(1 / 30, events=[])
        assert isinstance(app.scene, Dialog) and any("The battle waits for side" in line for line in app.scene.lines)
    finally:
        pygame.quit()
    sent = json.loads(path.read_text(encoding="utf-8"))
    assert sent["campaign"] == {"name": "Border War", "battle": 2}
    assert sent["battle"]["initial"]["setup"]["streak"] == {"A": 0, "B": 1}
    assert sent["battle"]["initial"]["setup"]["factions"] == {"A": "new-tokyo", "B": "council-of-zane"}
    (note,) = (paths.user_data_dir() / "kept").glob("*.mail-campaign")
    assert json.loads(note.read_text(encoding="utf-8")) == {"campaign": str(campaign.resolve()),
                                                            "file": str(path.resolve()), "battle": 2}
    # The file taken at another path (the other player's file saved elsewhere): the note follows it.
    moved = tmp_path / "from-b.json"
    moved.write_bytes(path.read_bytes())
    MailTurn(moved, "A").close()
    assert json.loads(note.read_text(encoding="utf-8"))["file"] == str(moved.resolve())
    # Begun a second time, on the command line: refused while the battle's file is there.
    assert main(["mail", "new", "pastoral-hills", "--campaign", str(campaign), "--out", str(tmp_path / "b.json")]) != 0
    assert f"battle 2 of this campaign is being played by e-mail in {moved.resolve()}" in capsys.readouterr().err
    moved.unlink()
    assert main(["mail", "new", "pastoral-hills", "--campaign", str(campaign), "--out", str(tmp_path / "b.json")]) == 0


def test_a_turn_opened_in_the_window_opens_the_sides_sealed_file_once(tmp_path, monkeypatch):
    """The turn opens the side's sealed file to check the battle file (its contribution must be on this computer);
    the window's seat takes that keeper, so the file is not opened, nor its key stretched, a second time."""
    path = tmp_path / "battle.json"
    new_mail_battle(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS, path)
    # A's first turn draws its part of the dice and keeps it in A's sealed file, on this computer.
    turn = MailTurn(path, "A")
    seat = RemoteSeat(turn.link, keeper=turn.keeper)
    sealed = ("A", "its sealed part of the dice (once, before the first roll)")
    try:
        for _ in range(400):
            if sealed not in turn.waits_for():
                break
            time.sleep(0.005)
        assert sealed not in turn.waits_for() and seat.keeper is turn.keeper and turn.keeper.dice is not None
    finally:
        seat.close()
        turn.close()
    stretched = []
    derive = sealing.derive
    monkeypatch.setattr(sealing, "derive", lambda *a, **k: stretched.append(a[1]) or derive(*a, **k))
    app = App((1100, 720))
    try:
        app.open_menu()
        scene = join_by_mail(app, path, "A", lambda said: None)
        assert isinstance(scene, RemoteSetupScene), scene
        app.step(1 / 30, events=[])
        assert scene.battle.seat.keeper is scene.host.keeper and scene.host.keeper.dice is not None
        assert len(stretched) == 1, "A's key was stretched once for its sealed file"
        app.pop()
    finally:
        pygame.quit()


def test_a_take_back_by_mail_is_answered_in_the_other_sides_window_and_a_refusal_is_said_to_the_asker(tmp_path):
    """A asked to take back a reveal (``test_net_mail``); B opens the file in the window and is asked at once, on
    its own screen, whether it agrees. It refuses; when A opens the file, A's window says so."""
    from referee.net.keeper import kept_folder
    from referee.ui.scenes.dialogs import ConsentScreen
    from referee.ui.scenes.remote_battle import RemoteBattleScene

    from .test_net_mail import reveal_and_ask_back, to_a_move_in_round_1

    path = tmp_path / "battle.json"
    new_mail_battle(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS, path)
    disks = {"A": kept_folder(), "B": kept_folder()}          # both sides' files on this one computer
    to_a_move_in_round_1(path, disks, set())
    _blip, what, at = reveal_and_ask_back(path, disks)
    app = App((1100, 720))
    try:
        app.open_menu()
        menu = app.scene
        scene = join_by_mail(app, path, "B", menu.mail_said)
        assert isinstance(scene, RemoteBattleScene), scene
        for _ in range(10):
            app.step(1 / 30, events=[])
        asked = app.scene
        assert isinstance(asked, ConsentScreen) and asked.side == "B"
        assert asked.lines[0].startswith(f"Side A asks to take back {what!r}: it revealed 1 blip")
        asked.close("refuse")
        app.step(1 / 30, events=[])
        app.pop()
        assert app.scene is menu and "The battle waits for side A: its move" in menu.error
        sent = json.loads(path.read_text(encoding="utf-8"))
        assert len(sent["battle"]["record"]) == at and sent["take_back_refused"]["what"] == what
        scene = join_by_mail(app, path, "A", menu.mail_said)
        assert isinstance(scene, RemoteBattleScene), scene
        for _ in range(10):
            app.step(1 / 30, events=[])
        # Said in the log panel, as the window says a refusal; the revealed trooper's facing is asked above it.
        assert scene.log_title == "Said to your side" and scene.log_lines == [f"Side B did not agree to take back {what}"]
    finally:
        pygame.quit()
