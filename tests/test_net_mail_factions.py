"""A battle by e-mail carries its factions (``service/mail_factions.py``): a faction only one player has (made by
them, or a campaign's upgraded copy) is added on the other's computer, one that differs there refuses the file, and a
campaign's battle by e-mail is recorded in the campaign on the computer that began it."""

from __future__ import annotations

import json
import time
import tomllib
from pathlib import Path
from typing import Any, cast

import pygame
import pytest

from referee import paths
from referee.authoring.faction_io import save_faction
from referee.cli.main import main
from referee.net.mail import MailTurn, arrive, new_mail_battle, record_in_campaign
from referee.service.campaigns import look_back_at, mail_note_path
from referee.ui.app import App
from referee.ui.joining import join_by_mail
from referee.ui.scenes.dialogs import Dialog
from referee.ui.scenes.remote_report import RemoteReportScene
from referee.rules.errors import InputError
from referee.rules.factions import forget_factions, get_faction
from referee.rules.scenario import load_scenario

from .test_net_mail import one_turn, play_by_mail


class Computers:
    """Two players' computers: each its own user folder (factions, campaigns) and its own folder of kept secrets."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.homes = {side: tmp_path / f"{side.lower()}-home" for side in "AB"}
        self.disks = {side: self.homes[side] / "kept" for side in "AB"}
        self.monkeypatch = monkeypatch

    def at(self, side: str) -> None:
        """From now on the program runs on ``side``'s computer."""
        self.monkeypatch.setenv("SEVEN_SECONDS_HOME", str(self.homes[side]))
        forget_factions()


@pytest.fixture
def computers(tmp_path, monkeypatch) -> Computers:
    return Computers(tmp_path, monkeypatch)


def raiders() -> Any:
    """A faction of side A's own making: New Tokyo's lines under another name."""
    return get_faction("new-tokyo").model_copy(update={"id": "my-raiders", "name": "My Raiders"})


def in_file(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_faction_only_one_player_has_is_added_on_the_other_computer_and_one_that_differs_is_refused(
        computers, tmp_path):
    path = tmp_path / "battle.json"
    computers.at("A")
    save_faction(raiders())
    new_mail_battle(load_scenario(paths.DEFAULT_SCENARIO), {"A": "my-raiders", "B": "council-of-zane"}, path,
                    folder=computers.disks["A"])
    carried = in_file(path)["factions"]
    assert sorted(carried) == ["council-of-zane", "my-raiders"]
    assert carried["my-raiders"]["created"]["veteran"] == get_faction("new-tokyo").model_dump(
        mode="json", by_alias=True)["created"]["veteran"]
    # On B's computer, which has never seen side A's faction: a look at the file says how to add it, and adds nothing.
    computers.at("B")
    added_to = computers.homes["B"] / "factions" / "my-raiders.toml"
    with pytest.raises(InputError, match="my-raiders is not on this computer; a side's turn at the file"):
        arrive(path, "", None, {})
    assert not added_to.exists()
    # A plays its set-up; B's turn at the file adds the faction to B's factions, and says so.
    computers.at("A")
    one_turn(path, "A", computers.disks, set())
    computers.at("B")
    # A file refused for anything else leaves no faction behind.
    sent = path.read_text(encoding="utf-8")
    doc = json.loads(sent)
    doc["battle"]["dice"]["seed"] += 1
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match="seed is not the one committed"):
        MailTurn(path, "B", folder=computers.disks["B"])
    assert not added_to.exists()
    path.write_text(sent, encoding="utf-8")
    turn = MailTurn(path, "B", folder=computers.disks["B"])
    try:
        assert turn.added == ["the battle's faction My Raiders (my-raiders) was added to your factions "
                              "(my-raiders.toml)"]
        assert turn.host.desk.screen_data("B")["said"].startswith("The battle's faction My Raiders")
    finally:
        turn.close()
    assert tomllib.loads(added_to.read_text(encoding="utf-8"))["name"] == "My Raiders"
    forget_factions()
    assert get_faction("my-raiders") == raiders()
    # The battle goes on between the two computers, each with the same stats.
    computers.at("A")
    one_turn(path, "A", computers.disks, set())
    # A faction changed on the way (two of its Reserve stats swapped: still a faction by the rules) is refused on the
    # computer that has it, naming the lines that differ; nothing is written.
    good = path.read_text(encoding="utf-8")
    doc = json.loads(good)
    line = doc["factions"]["my-raiders"]["created"]["reserve"]
    assert line["sensors"] != line["stealth"]
    line["sensors"], line["stealth"] = line["stealth"], line["sensors"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    computers.at("B")
    before = added_to.read_text(encoding="utf-8")
    with pytest.raises(InputError) as refused:
        MailTurn(path, "B", folder=computers.disks["B"])
    assert "this computer's faction my-raiders" in refused.value.message()
    assert "is not the one the battle is fought with (Reserve" in refused.value.message()
    assert added_to.read_text(encoding="utf-8") == before
    # A faction that breaks the creation rules is refused by them, by its place in the file.
    line["sensors"] = 5
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match=r"factions\.my-raiders: created\.reserve"):
        MailTurn(path, "B", folder=computers.disks["B"])
    # A campaign's parts that are not what they say are refused by their place in the file.
    for part, value, words in (("campaign", {"name": "War", "battle": "two"}, "campaign: expected"),
                               ("purchases", [{"side": "C", "rating": "reserve", "stat": "armour"}],
                                "purchases: expected"),
                               ("bought", [{"side": "B", "rating": "reserve", "stat": "armour"}], "bought: expected")):
        doc = json.loads(good)
        doc[part] = value
        path.write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(InputError, match=words):
            MailTurn(path, "B", folder=computers.disks["B"])
    # The file as A wrote it still opens.
    path.write_text(good, encoding="utf-8")
    MailTurn(path, "B", folder=computers.disks["B"]).close()


def test_a_player_whose_own_faction_of_that_id_differs_is_told_and_nothing_is_written(computers, tmp_path):
    path = tmp_path / "battle.json"
    computers.at("A")
    save_faction(raiders())
    new_mail_battle(load_scenario(paths.DEFAULT_SCENARIO), {"A": "my-raiders", "B": "council-of-zane"}, path,
                    folder=computers.disks["A"])
    one_turn(path, "A", computers.disks, set())
    computers.at("B")
    theirs = get_faction("council-of-zane").model_copy(update={"id": "my-raiders", "name": "My Raiders"})
    mine = save_faction(theirs)
    before = mine.read_text(encoding="utf-8")
    with pytest.raises(InputError) as refused:
        MailTurn(path, "B", folder=computers.disks["B"])
    assert f"this computer's faction my-raiders ({mine})" in refused.value.message()
    assert "here," in refused.value.message() and "in the battle file" in refused.value.message()
    assert mine.read_text(encoding="utf-8") == before
    assert not any(computers.disks["B"].glob("*.mail-seen"))         # B's computer took nothing of the battle
    # A file of the same stats under a name of B's own plays the same: taken, and B's file is left as it is.
    save_faction(raiders().model_copy(update={"name": "Raiders (as B calls them)"}), mine, overwrite=True)
    forget_factions()
    renamed = mine.read_text(encoding="utf-8")
    turn = MailTurn(path, "B", folder=computers.disks["B"])
    turn.close()
    assert turn.added == [] and mine.read_text(encoding="utf-8") == renamed


def asked_in_window(path: Path) -> None:
    """Side B's turn at the finished battle file in the window: its report's Ask for upgrades…, Reserve, Armour."""
    app = App((1100, 720))
    try:
        app.open_menu()
        assert not isinstance(join_by_mail(app, path, "B", lambda said: None), str)
        for _ in range(200):
            app.step(1 / 30, events=[])
            if isinstance(app.scene, RemoteReportScene):
                break
            time.sleep(0.01)
        report = app.scene
        assert isinstance(report, RemoteReportScene)
        assert ("upgrade", "Ask for upgrades…") in report.button_labels()
        report.pressed("upgrade")
        cast(Dialog, app.scene).close("reserve")
        rating = app.scene
        assert isinstance(rating, Dialog) and rating.heading == "Ask for upgrades: Reserve"
        rating.close("armour")
        told = app.scene
        assert isinstance(told, Dialog) and told.lines[0].startswith(
            "Asked in battle.json: side B's Reserve Arm +1 (1 -> 2, 1 tech point at today's stats).")
        told.close("ok")
        app.pop()                      # the report: the battle scene
        app.pop()                      # the battle: the turn ends and the file is written
    finally:
        pygame.quit()


def campaign_with_an_upgrade(tmp_path: Path, capsys) -> Path:
    """A campaign on A's computer: battle 1 typed in (A won, B Controlled the Table), then side B buys +1 Reserve
    sensors with its 2 tech points."""
    campaign = tmp_path / "a-home" / "border-war.toml"
    campaign.parent.mkdir(parents=True, exist_ok=True)
    assert main(["campaign", "new", str(campaign), "--a", "council-of-zane", "--b", "new-tokyo",
                 "--name", "Border War"]) == 0
    assert main(["campaign", "battle", str(campaign), "--winner", "A", "--level", "normal", "--control", "B"]) == 0
    assert main(["campaign", "upgrade", str(campaign), "--side", "B", "--rating", "reserve", "--stat",
                 "sensors"]) == 0
    capsys.readouterr()
    return campaign


def test_a_campaigns_battle_by_mail_is_recorded_on_the_computer_that_began_it_which_buys_the_others_upgrades(
        computers, tmp_path, capsys):
    """Fought with the campaign's upgraded factions and streak bonus; recorded once in the campaign on A's computer
    (which began it); then side B asks for an upgrade in the finished file, in its window, and A's computer buys it in
    the campaign when the file comes back."""
    computers.at("A")
    campaign = campaign_with_an_upgrade(tmp_path, capsys)
    path = tmp_path / "battle.json"
    assert main(["mail", "new", "pastoral-hills", "--campaign", str(campaign), "--out", str(path)]) == 0
    said = capsys.readouterr().out
    upgraded = "new-tokyo-border-war-b2"
    assert f"side A council-of-zane, side B {upgraded}" in said
    assert "It is battle 2 of the campaign Border War: this computer records it there when it ends." in said
    doc = in_file(path)
    assert doc["campaign"] == {"name": "Border War", "battle": 2}
    assert str(tmp_path) not in path.read_text(encoding="utf-8")      # no path of A's computer goes in the file
    assert doc["battle"]["initial"]["setup"]["streak"] == {"A": 1, "B": 0}
    assert doc["factions"][upgraded]["upgrades"] == [{"rating": "reserve", "stat": "sensors", "cost": 2,
                                                      "battle": 1}]
    # The battle goes back and forth; B's computer adds the upgraded faction at its first turn.
    trips = play_by_mail(path, computers.disks, each=lambda trip, side: computers.at(side))
    computers.at("B")
    assert get_faction(upgraded).stats("reserve").sensors == get_faction("new-tokyo").stats("reserve").sensors + 1
    # Over and scored. A's computer records the battle in its campaign as soon as it has the file: at the end of its
    # own turn when the battle ended there, else when A opens the file B sent back.
    computers.at("A")
    battles = tomllib.loads(campaign.read_text(encoding="utf-8"))["battles"]
    last = trips[-1][0]
    assert len(battles) == (2 if last == "A" else 1)
    if last == "B":
        with pytest.raises(InputError, match="side B's secrets for this battle are not on this computer"):
            MailTurn(path, "B", folder=computers.disks["A"])
    turn = MailTurn(path, "A", folder=computers.disks["A"])
    turn.close()
    state = turn.session.game.state
    assert turn.recorded == ([f"Recorded in the campaign {campaign.resolve()} as battle 2."] if last == "B" else [])
    recorded = tomllib.loads(campaign.read_text(encoding="utf-8"))["battles"]
    assert len(recorded) == 2
    second = recorded[1]
    assert state.result is not None and state.result.level
    # The battle as its end-of-battle report has it (a draw has no winner), and where its file is.
    assert (second.get("winner"), second["level"]) == (state.result.winner, state.result.level)
    assert second["vp"] == {"A": state.result.vp["A"], "B": state.result.vp["B"]}
    assert second.get("attacker") == state.attacker and Path(second["save"]) == path
    again = MailTurn(path, "A", folder=computers.disks["A"])
    again.close()
    assert again.recorded == [] and len(tomllib.loads(campaign.read_text(encoding="utf-8"))["battles"]) == 2
    # A campaign file that is not where the note says: the player is told how to record it, and the note is kept for
    # the next turn at the file; back in place, the battle is found recorded already, and so noted.
    note = mail_note_path(turn.battle, computers.disks["A"])
    away = tmp_path / "moved.toml"
    note.write_text(json.dumps({"campaign": str(away)}), encoding="utf-8")
    (told,) = record_in_campaign(path, turn.session, computers.disks["A"], turn.battle)
    assert told.startswith(f"Not recorded in the campaign {away}: ") and told.endswith(
        f"Record it with seven-seconds campaign battle {away} --save {path}")
    assert json.loads(note.read_text(encoding="utf-8")) == {"campaign": str(away)}
    note.write_text(json.dumps({"campaign": str(campaign)}), encoding="utf-8")
    assert record_in_campaign(path, turn.session, computers.disks["A"], turn.battle) == []
    assert json.loads(note.read_text(encoding="utf-8")) == {"campaign": str(campaign), "recorded": True}
    # By hand, the file is refused as the battle already recorded.
    assert main(["campaign", "battle", str(campaign), "--save", str(path)]) != 0
    assert "already recorded in the campaign as battle 2" in capsys.readouterr().err
    # Looked back on from the campaign (the file its record names): the whole battle, resolved again.
    looked = look_back_at(Path(second["save"]))
    assert looked.over and looked.actions == len(in_file(path)["battle"]["record"])
    summary = looked.summary()
    assert summary is not None and looked.truth()["phase"] == "over"
    # The other player's look at the finished file says where it is recorded.
    assert main(["mail", "status", str(path)]) == 0
    assert "It is battle 2 of the campaign Border War" in capsys.readouterr().out

    # ---- the other player asks for upgrades in the finished file; the campaign's computer buys them ----
    # In B's window, the report of B's turn at the file offers the ask: Reserve Armour 1 -> 2, half price (Council
    # of Zane's is higher), 1 tech point, which B has after any battle.
    computers.at("B")
    asked_in_window(path)
    assert in_file(path)["purchases"] == [{"side": "B", "rating": "reserve", "stat": "armour"}]
    # On B's command line: a purchase the rules refuse (Reserve Sensors 3 would pass Veteran's 3) is refused there,
    # and side A's cannot be asked there at all.
    assert main(["mail", "upgrade", str(path), "--side", "B", "--rating", "reserve", "--stat", "sensors"]) == 2
    assert "not allowed: " in capsys.readouterr().err
    assert main(["mail", "upgrade", str(path), "--side", "A", "--rating", "reserve", "--stat", "armour"]) == 2
    assert "side A's secrets for this battle are not on this computer" in capsys.readouterr().err
    # The purchase asked counts: Reserve Armour again would be 3, above Veteran's 2.
    assert main(["mail", "upgrade", str(path), "--side", "B", "--rating", "reserve", "--stat", "armour"]) == 2
    assert "not allowed: " in capsys.readouterr().err
    assert in_file(path)["purchases"] == [{"side": "B", "rating": "reserve", "stat": "armour"}]
    # A purchase for side A written into the file on the way is not made on A's computer.
    doc = in_file(path)
    doc["purchases"].append({"side": "A", "rating": "reserve", "stat": "nuclear"})
    path.write_text(json.dumps(doc), encoding="utf-8")
    # On A's computer, which began the battle, its report offers no such ask (A buys in the campaign itself), and
    # the purchases asked are made when it has the file.
    computers.at("A")
    turn = MailTurn(path, "A", folder=computers.disks["A"])
    assert turn.upgrade_asker() is None
    turn.close()
    assert turn.recorded == [
        "Asked by e-mail, side B's Reserve Arm +1: side B: Reserve Arm raised to 2",
        "Asked by e-mail, side A's Reserve Nuc +1: not made here: side A's purchases are made on this computer, in the "
        "campaign (side A's Reserve Nuc +1)"]
    purchases = tomllib.loads(campaign.read_text(encoding="utf-8"))["purchases"]
    assert [(p["side"], p["rating"], p["stat"], p["after_battle"]) for p in purchases] == [
        ("B", "reserve", "sensors", 1), ("B", "reserve", "armour", 2)]
    sent = in_file(path)
    assert "purchases" not in sent and [p["told"] for p in sent["bought"]] == [
        "side B: Reserve Arm raised to 2", turn.recorded[1].split(": ", 1)[1]]
    # B reads what came of it; a second opening on A's computer buys nothing twice.
    computers.at("B")
    assert main(["mail", "status", str(path)]) == 0
    assert "Bought by e-mail, side B's Reserve Arm +1: side B: Reserve Arm raised to 2" in capsys.readouterr().out
    computers.at("A")
    again = MailTurn(path, "A", folder=computers.disks["A"])
    again.close()
    assert again.recorded == [] and len(tomllib.loads(campaign.read_text(encoding="utf-8"))["purchases"]) == 2
