"""``seven-seconds host``: a new battle served with each seat's link and QR code; the host process killed outright
(SIGKILL) and started again on the autosave keeps the same links, and the intent sent again is applied once."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import uuid
import json


from referee.cli.main import main
from referee.game.records.sealing import is_sealed
from referee.net.client import RemoteSeat
from referee.net.host import Host

LINK = re.compile(r"(side A's hand|side B's hand|the table \(spectators\)): (http://\S+)")


def host_process(args: list[str], home) -> tuple[subprocess.Popen, dict[str, str], list[str]]:
    """``seven-seconds host ARGS`` on this computer only, with ``home`` as its data folder: the process, each seat's
    link (``A``, ``B``, ``spectator``) and what it printed up to the last link."""
    env = {**os.environ, "SEVEN_SECONDS_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "referee", "host", *args, "--bind", "127.0.0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    links: dict[str, str] = {}
    lines = []
    assert proc.stdout is not None
    while len(links) < 3:
        line = proc.stdout.readline()
        assert line, "".join(lines)
        lines.append(line)
        found = LINK.search(line)
        if found:
            links[found.group(1).split("'")[0].replace("side ", "")[:1] if "hand" in found.group(1)
                  else "spectator"] = found.group(2)
    return proc, links, lines


def _host(args: list[str], home) -> tuple[subprocess.Popen, dict[str, str]]:
    proc, links, _ = host_process(args, home)
    return proc, links


def test_a_host_killed_outright_comes_back_on_the_autosave_with_the_same_links(tmp_path):
    proc, links = _host(["pastoral-hills", "--factions", "council-of-zane,new-tokyo"], tmp_path)
    port = links["A"].split(":")[2].split("/")[0]
    try:
        a = RemoteSeat(links["A"])
        assert a.screen["seat"] == "A" and a.screen["acting"]
        assert a.act("roll-roles")["ok"]                        # the first action: the autosave begins
        screen = a.ask("screen")["result"]["screen"]
        seat = "A" if screen["acting"] else "B"
        client = a if seat == "A" else RemoteSeat(links["B"])
        legal = client.ask("screen")["result"]["screen"]["legal"][0]
        intent = {"kind": "action", "action": {"kind": legal["kind"], "actor": legal["actor"], "args": {}}}
        ident = uuid.uuid4().hex
        first = client.send(intent, ident=ident)
        assert first["ok"] and "events" in first["result"], first
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        autosave = tmp_path / "saves" / "autosave.json"
        assert autosave.is_file(), sorted(p.name for p in tmp_path.rglob("*"))
        # Started again with no port asked: the port it was served on (a phone keeps its side's secrets under it).
        proc, again_links = _host([str(autosave)], tmp_path)
        assert again_links == links and f":{port}/" in again_links["B"]     # the phones' links still open their seats
        client.reconnect()
        again = client.send(intent, ident=ident)
        assert again["ok"] and again.get("again") is True and again["result"] == first["result"]
        log = client.ask("log", **{"from": 0})["result"]["entries"]
        assert sum(1 for e in log if e["text"] == first["result"]["events"][0]) <= 1
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
        assert proc.returncode == 0, out
        assert "autosave" in out


def test_a_battle_hosted_with_its_players_pins_is_sealed_and_resumes_only_with_them(tmp_path):
    pins = tmp_path / "pins.txt"
    pins.write_text("A: 482913\nB: 730155\n")
    proc, links = _host(["pastoral-hills", "--factions", "council-of-zane,new-tokyo", "--pin-file", str(pins)],
                        tmp_path)
    try:
        a = RemoteSeat(links["A"])
        assert a.act("roll-roles")["ok"]                        # the first action: the autosave begins
        rolled = a.ask("screen")["result"]["screen"]["view"]
        a.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    # A tie is a Chance Encounter (p.~15): no attacker, but the mode says the roll was made.
    assert rolled["mode"] in ("attack-defence", "chance-encounter")
    assert (rolled["attacker"] is None) == (rolled["mode"] == "chance-encounter")
    autosave = tmp_path / "saves" / "autosave.json"
    doc = json.loads(autosave.read_text())
    assert is_sealed(doc)                                      # each side's part under its own PIN (format 5)
    assert not any(doc["public"]["state"]["holding"].values())  # no holding area in clear
    # Without the PINs the host refuses the sealed battle with the reason, and no traceback.
    env = {**os.environ, "SEVEN_SECONDS_HOME": str(tmp_path)}
    env.pop("SEVEN_SECONDS_PIN_A", None)
    env.pop("SEVEN_SECONDS_PIN_B", None)
    refused = subprocess.run([sys.executable, "-m", "referee", "host", str(autosave), "--bind", "127.0.0.1"],
                             capture_output=True, text=True, env=env, timeout=60)
    assert refused.returncode != 0
    assert "sealed for its players" in refused.stderr + refused.stdout
    assert "Traceback" not in refused.stderr
    # With them it serves the same battle again.
    proc, again = _host([str(autosave), "--pin-file", str(pins)], tmp_path)
    try:
        tokens = {seat: link.split("/join/")[1] for seat, link in links.items()}
        assert {seat: link.split("/join/")[1] for seat, link in again.items()} == tokens   # the same seats' links
        b = RemoteSeat(again["B"])
        assert b.screen["seat"] == "B"
        assert (b.screen["view"]["mode"], b.screen["view"]["attacker"]) == (rolled["mode"], rolled["attacker"])
        b.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
        assert proc.returncode == 0, out


def test_a_battle_hosted_against_the_computer_offers_the_players_seat_and_the_computer_decides_its_own(tmp_path):
    env = {**os.environ, "SEVEN_SECONDS_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "referee", "host", "pastoral-hills", "--factions",
                             "council-of-zane,new-tokyo", "--computer", "B:easy", "--no-qr", "--bind", "127.0.0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        while not any("the table (spectators)" in line for line in lines):
            line = proc.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        said = "".join(lines)
        assert "The computer plays side B (easy)" in said
        assert "side A's hand" in said and "side B's hand" not in said      # no link for the computer's side
        link = LINK.search(next(line for line in lines if "side A's hand" in line)).group(2)
        a = RemoteSeat(link)
        assert a.act("roll-roles")["ok"]
        # Whoever attacks, the set-up goes on to a decision of side A's: the computer took each of B's at once.
        screen = a.ask("screen")["result"]["screen"]
        assert screen["view"]["phase"] == "setup" and screen["acting"]
        assert screen["view"]["setup"]["side"] == "A"
        a.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    # Its secrets are sealed in the autosave (the player's key kept by the program: no PIN was given).
    autosave = tmp_path / "saves" / "autosave.json"
    doc = json.loads(autosave.read_text())
    assert is_sealed(doc) and not any(doc["public"]["state"]["holding"].values())
    # Served again from the autosave with no PIN asked: both keys are the program's.
    again = subprocess.Popen([sys.executable, "-m", "referee", "host", str(autosave), "--no-qr", "--bind", "127.0.0.1"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert again.stdout is not None
    lines = []
    try:
        while not any("the table (spectators)" in line for line in lines):
            line = again.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        link = LINK.search(next(line for line in lines if "side A's hand" in line)).group(2)
        a = RemoteSeat(link)
        assert a.screen["view"]["setup"]["side"] == "A"
        a.close()
    finally:
        again.send_signal(signal.SIGTERM)
        again.communicate(timeout=20)


def host_refused(args: list[str], capsys, monkeypatch) -> str:
    """``seven-seconds host ARGS`` run in this process (a command refused before it serves needs no process of its
    own): it refuses, with no traceback (an exception ``main`` did not turn into a message would fail the test), and
    never starts a host; what it printed."""
    def started(*_args, **_kwargs):
        raise AssertionError(f"seven-seconds host {' '.join(args)} started a host instead of refusing")

    monkeypatch.setattr(Host, "start", started)
    capsys.readouterr()
    code = main(["host", *args, "--no-qr", "--bind", "127.0.0.1"])
    out, err = capsys.readouterr()
    assert code != 0, out + err
    return out + err


def test_host_refuses_a_computer_it_cannot_seat(capsys, monkeypatch):
    for args, why in ((["--computer", "C:normal"], "expected A or B, a colon and one of easy, normal, hard"),
                      (["--computer", "B:normal", "--referee"], "played at the window")):
        assert why in host_refused(["pastoral-hills", *args], capsys, monkeypatch)
