"""``seven-seconds host TABLE --campaign FILE``: a campaign's next battle served to the players' own devices, with the
factions as the campaign made them (upgrades and all) and its streak bonus (A47), recorded in the campaign when it
ends; stopped, it goes on with ``host --campaign FILE`` from its own save beside the campaign."""

from __future__ import annotations

import json
import random
import signal

import pytest

from referee.cli import host
from referee.cli.main import build_parser, main
from referee.game.campaigns.campaign import load_campaign
from referee.net.client import RemoteSeat
from referee.service.intents import Action

from .battles import OPEN_FIELD, ThroughSession, finish, play_rounds
from .test_net_cli import host_process


@pytest.fixture
def campaign(tmp_path, monkeypatch, capsys):
    """A campaign whose first battle side A won, and side B's upgrade bought with its tech point: battle 2 is fought
    with B's upgraded faction, and A's streak of 1 adds to its attacker/defender roll (A47)."""
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path / "home"))
    path = tmp_path / "war.json"
    assert main(["campaign", "new", str(path), "--a", "new-tokyo", "--b", "council-of-zane", "--name",
                 "Border War"]) == 0
    assert main(["campaign", "battle", str(path), "--winner", "A", "--level", "decisive"]) == 0
    assert main(["campaign", "upgrade", str(path), "--side", "B", "--rating", "reserve", "--stat", "stealth"]) == 0
    capsys.readouterr()
    return path


def _served(args: list[str]):
    """The session ``seven-seconds host ARGS`` would serve, and whether it is a new battle."""
    return host._session(build_parser().parse_args(["host", *args]))


def _set_up(session) -> None:
    """Every set-up decision left to the program's draw, as a player taking the offered choice would."""
    while session.state.phase == "setup":
        decision = session.legal_actions()[0]
        done = session.attempt(Action(decision.kind, decision.actor, dict(decision.args)))
        assert done.outcome is not None and done.outcome.legal, done


def test_the_campaigns_next_battle_is_served_with_its_factions_and_streak_and_recorded_when_it_ends(campaign, tmp_path):
    table = tmp_path / "field.json"
    table.write_text(json.dumps(OPEN_FIELD))
    session, new = _served([str(table), "--campaign", str(campaign)])
    assert new and session.campaign == campaign and not session.hotseat
    saved = tmp_path / "war-battle-2.json"
    assert session.save_path == saved and saved.is_file()            # beside the campaign from its start
    _set_up(session)
    assert session.state.log[0].text.startswith("A rolls ") and "+ 1 for its winning streak" in session.state.log[0].text
    factions = {u.faction for u in session.state.units.values() if u.side == "B"}
    factions |= {c.faction for contents in session.state.holding["B"].squares.values() for c in contents or []}
    assert factions == {"council-of-zane-border-war-b2"}             # B's faction with its upgrade
    through = ThroughSession(session)
    play_rounds(through, None, random.Random(3), 1)
    finish(through, None, "A")
    assert session.over and session.campaign_recorded[0].startswith(
        "recorded in the campaign Border War (war.json) as battle 2; the battle is saved beside it as war-battle-2.json")
    c, _st = load_campaign(campaign)
    assert len(c.battles) == 2 and c.battles[1].save == "war-battle-2.json" and c.battles[1].control == "B"


def test_a_campaign_battle_under_way_goes_on_without_a_table_and_is_not_begun_again(campaign, tmp_path, capsys):
    session, _new = _served(["pastoral-hills", "--campaign", str(campaign)])
    _set_up(session)
    session.save_campaign_battle()
    played = len(session.game.record)
    assert main(["host", "pastoral-hills", "--campaign", str(campaign)]) == 2
    err = capsys.readouterr().err
    assert (f"the campaign's next battle was started and is not over ({tmp_path / 'war-battle-2.json'}): continue it "
            f"with seven-seconds host --campaign {campaign}, with no table") in err
    again, new = _served(["--campaign", str(campaign)])
    assert not new and again.campaign == campaign and not again.hotseat
    assert len(again.game.record) == played and again.state.phase == "action"


@pytest.mark.parametrize("args, said", [
    (["pastoral-hills", "--factions", "new-tokyo,new-tokyo"], "--factions: a campaign's battle is fought by the "
                                                              "program with the factions as the campaign made them"),
    (["pastoral-hills", "--referee"], "--referee: a campaign's battle is fought by the program"),
    ([], "--campaign: the campaign's next battle needs a table: seven-seconds host TABLE --campaign"),
])
def test_what_a_campaign_battle_cannot_be_given_is_refused_and_nothing_is_written(campaign, tmp_path, capsys,
                                                                                   args, said):
    before = campaign.read_bytes()
    assert main(["host", *args, "--campaign", str(campaign)]) == 2
    assert said in capsys.readouterr().err
    assert campaign.read_bytes() == before and not (tmp_path / "war-battle-2.json").exists()


def test_a_hosted_campaign_battle_stopped_is_continued_by_host_campaign_with_the_same_record(campaign, tmp_path):
    proc, links, lines = host_process(["pastoral-hills", "--campaign", str(campaign), "--no-qr"], tmp_path / "home")
    try:
        assert any("battle of the campaign" in line for line in lines), lines
        a = RemoteSeat(links["A"])
        assert a.act("roll-roles")["ok"]
        log = a.ask("log", **{"from": 0})["result"]["entries"]
        assert "+ 1 for its winning streak" in log[0]["text"]
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0, out
    assert f"seven-seconds host --campaign {campaign}" in out           # how to go on with it
    proc, links, _lines = host_process(["--campaign", str(campaign), "--no-qr"], tmp_path / "home")
    try:
        again = RemoteSeat(links["A"]).ask("log", **{"from": 0})["result"]["entries"]
        assert again == log
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
