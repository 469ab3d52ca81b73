"""The end of a hosted battle at a seat on another computer: once the battle is over the host hands each seat the
end-of-battle report the rules allow it (both missions and holding areas, the score with its explanation, the seals
checked; a spectator's seat the public report) and a side's seat the finished battle's record, which the joined
window or ``seven-seconds join --save`` writes to the player's saves folder; before the end both are refused with
the reason. The battle (seeded, set up by the program) is brought to its end by a Withdraw allowed."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from referee import paths  # noqa: E402
from referee.cli.main import main  # noqa: E402
from referee.game.records.sealing import Keyring  # noqa: E402
from referee.net.client import RemoteSeat  # noqa: E402
from referee.net.desk import Desk  # noqa: E402
from referee.net.host import Host  # noqa: E402
from referee.rules.errors import InputError  # noqa: E402
from referee.service.battles import open_save  # noqa: E402
from referee.service.look_back import LookBack  # noqa: E402
from referee.service.seat_report import NOT_A_SIDE, NOT_OVER_RECORD, NOT_OVER_REPORT  # noqa: E402
from referee.ui.app import App  # noqa: E402
from referee.ui.joining import join  # noqa: E402
from referee.ui.remote import RemoteBattle  # noqa: E402
from referee.ui.scenes.remote_battle import RemoteBattleScene  # noqa: E402
from referee.ui.scenes.remote_report import RemoteReportScene  # noqa: E402

from .net_support import battle_state, session_of  # noqa: E402
from .test_net_desk import _act, _to_the_end_of_round  # noqa: E402


def end_the_battle(desk: Desk) -> None:
    """To the end of round 1, where side A withdraws and side B allows it: side B Controls the Table."""
    _to_the_end_of_round(desk)
    assert _act(desk, "A", "end-of-round", withdraw="A").ok
    assert _act(desk, "B", "end-of-round", answer="allow").ok
    assert desk.session.over, "seed 701 has no attacker to set objectives: the battle is over at once"


@pytest.fixture
def hosted():
    session = session_of(battle_state())
    host = Host.start(session, bind="127.0.0.1")
    yield host, session
    host.stop()


def finish_at_the_host(host: Host) -> None:
    """The battle played to its end at the host (as its window does: under the lock, then every seat told)."""
    with host.lock:
        end_the_battle(host.desk)
    host.changed()


def test_the_report_and_the_record_wait_for_the_end_of_the_battle():
    session = session_of(battle_state())
    desk = Desk(session)
    for seat in ("A", "B", "spectator"):
        refused = desk.ask(seat, {"question": "report"})
        assert not refused.ok and refused.reason == NOT_OVER_REPORT
    refused = desk.ask("A", {"question": "record"})
    assert not refused.ok and refused.reason == NOT_OVER_RECORD
    end_the_battle(desk)
    truth = session.revealed()
    for seat in ("A", "B"):
        reply = desk.ask(seat, {"question": "report"})
        assert reply.ok, reply.reason
        report = reply.result["report"]
        view = report["view"]
        # Both sides' secrets, as the end reveals them: missions, holding areas, the score and why.
        assert view["missions"] == truth["missions"] and None not in view["missions"].values()
        assert view["holding"] == truth["holding"]
        assert view["control"] == "B"
        assert view["result"]["winner"] == truth["result"]["winner"]
        assert view["result"]["vp"] == truth["result"]["vp"] and view["result"]["explain"]
        assert any("[" in line for line in view["result"]["explain"])          # the explanation's page tags
        assert {c["side"] for c in report["seals"]} == {"A", "B"} and all(c["matches"] for c in report["seals"])
        assert report["sealed_documents"]
    public = desk.ask("spectator", {"question": "report"})
    assert public.ok
    report = public.result["report"]
    assert report["view"]["result"]["vp"] == truth["result"]["vp"] and report["view"]["control"] == "B"
    assert report["sealed_documents"] == [] and report["computer_reasons"] == []
    refused = desk.ask("spectator", {"question": "record"})
    assert not refused.ok and refused.reason == NOT_A_SIDE


def test_a_battle_sealed_with_its_players_pins_is_handed_in_clear_once_over(tmp_path):
    """The end revealed every secret the record holds: the player opens it alone, without the other side's PIN."""
    session = session_of(battle_state())
    session.game.keys = Keyring({"A": "pin-of-a-4821", "B": "pin-of-b-7390"}, cost=2 ** 10)
    desk = Desk(session)
    end_the_battle(desk)
    reply = desk.ask("B", {"question": "record"})
    assert reply.ok, reply.reason
    text = reply.result["record"]
    assert "pin-of-a-4821" not in text and "pin-of-b-7390" not in text
    path = tmp_path / "kept.json"
    path.write_text(text, encoding="utf-8")
    opened = open_save(path)
    assert opened.session.over and opened.session.actions_taken() == session.actions_taken()


def test_a_remote_seat_saves_the_finished_battle_and_the_save_loads(hosted, tmp_path):
    host, session = hosted
    seat = RemoteSeat(host.link("A"))
    try:
        battle = RemoteBattle(seat)
        with pytest.raises(InputError) as refused:
            battle.save(tmp_path / "early.json")
        assert NOT_OVER_RECORD in refused.value.problems
        assert not (tmp_path / "early.json").exists()
        finish_at_the_host(host)
        seat.wait_for(lambda screen: bool(screen.get("over")))
        assert battle.over
        report = battle.report()
        assert set(report["view"]["missions"]) == {"A", "B"} and report["view"]["result"]["winner"] == "B"
        written = battle.save()                              # the player's saves folder
        assert written.parent == paths.saves_dir() and written.exists()
        assert oct(written.stat().st_mode & 0o777) == "0o600"           # it holds both sides' secrets
        opened = open_save(written)
        assert opened.session.over and opened.session.actions_taken() == session.actions_taken()
        assert opened.session.revealed()["missions"] == session.revealed()["missions"]
        assert LookBack.of_save(written).summary() is not None
        # Saved again to the same file: replaced; a file this window did not write is never overwritten.
        assert battle.save(written) == written
        other = tmp_path / "other.json"
        other.write_text("{}", encoding="utf-8")
        with pytest.raises(InputError, match="not overwritten"):
            battle.save(other)
        assert other.read_text(encoding="utf-8") == "{}"
    finally:
        seat.close()


@pytest.fixture(scope="module")
def app():
    a = App((1100, 720))
    yield a
    pygame.quit()


def test_the_joined_window_shows_the_end_of_battle_report_and_saves_it(app, hosted, tmp_path):
    host, session = hosted
    while len(app.stack):
        app.stack.pop()
    scene = join(app, host.link("B"))
    assert isinstance(scene, RemoteBattleScene)
    try:
        app.step(1 / 30, events=[])
        # While the battle runs, Save says why not: the host keeps it.
        scene.questions.save()
        assert scene.log_title == "Not saved" and app.scene is scene
        assert NOT_OVER_RECORD in scene.log_lines
        finish_at_the_host(host)
        scene.battle.seat.wait_for(lambda screen: bool(screen.get("over")))
        app.step(1 / 30, events=[])
        report = app.scene
        assert isinstance(report, RemoteReportScene)
        texts = [text for _style, text in report.lines]
        assert "The table is Controlled by side B" in texts
        assert any(text.startswith("Side B wins") for text in texts)
        assert any(text.startswith("Side A: mission ") and "none" not in text for text in texts)
        assert any(text.startswith("Side B: mission ") and "none" not in text for text in texts)
        app.step(1 / 30, events=[])
        shot = tmp_path / "report.png"
        pygame.image.save(app.screen, str(shot))
        assert shot.stat().st_size > 0
        written = scene.battle.save(tmp_path / "kept.json")
        assert open_save(written).session.over
        looked = report.look_back()
        assert looked is not None and app.scene is looked
    finally:
        while len(app.stack):
            app.stack.pop()
        scene.battle.close()


def test_seven_seconds_join_prints_the_report_and_saves_the_battle(hosted, tmp_path, capsys):
    host, session = hosted
    link = host.link("A")
    assert main(["join", link, "--save", str(tmp_path / "early.json")]) == 2
    assert NOT_OVER_RECORD in capsys.readouterr().err and not (tmp_path / "early.json").exists()
    assert main(["join", link, "--report"]) == 2
    assert NOT_OVER_REPORT in capsys.readouterr().err
    finish_at_the_host(host)
    assert main(["join", link, "--report"]) == 0
    out = capsys.readouterr().out
    assert "The table is Controlled by side B" in out and "Side A: mission " in out and "Side B: mission " in out
    assert main(["join", link, "--save", str(tmp_path / "kept.json")]) == 0
    assert str(tmp_path / "kept.json") in capsys.readouterr().out
    assert open_save(tmp_path / "kept.json").session.over
    assert main(["join", link, "--save"]) == 0
    assert list(paths.saves_dir().glob("*-side-A-*.json"))
