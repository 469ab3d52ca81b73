"""The computer running one side of a physical game in the referee mode: it tells the human what to do with its
miniatures in table coordinates, the human confirms and types the dice rolled for it, and what its blips hold
stays hidden from the human, who is its opponent."""

import random
from pathlib import Path

from referee.game.players.computer import Computer
from referee.game.records.record import read_save
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession
from referee.ui.scenes.dialogs import Dialog, DiceDialog, TextDialog
from referee.ui.scenes.referee import RefereeScene

SMALL = Path(__file__).with_name("small_table.toml")


def test_the_computer_tells_the_human_what_to_do_and_keeps_its_blips_secret(fresh, tmp_path):
    session = RefereeSession.from_scenario(load_scenario(SMALL), first="B", computer=Computer("B", "normal", 3))
    s = session.state
    # Its blip's contents were never told: the program dealt them to it, as its secret.
    held = s.blip_contents(s.blips["b-blip-1"])
    assert held is not None
    secret_words = {c.type for c in held} | {c.id for c in held}
    assert session.viewer == "A" and not session.needs_handoff()
    scene = fresh.push(RefereeScene(session))
    fresh.step(1 / 30, events=[])
    rng = random.Random(4)
    told: list[str] = []
    for _ in range(60):
        if not session.computer_to_act():
            break
        if isinstance(fresh.scene, DiceDialog):
            fresh.scene.choose(str(rng.randint(1, 6))) if fresh.scene.request.kind == "d6" else (
                fresh.scene.entry.set_text("90"), fresh.scene.choose("ok"))
            continue
        if isinstance(fresh.scene, TextDialog):           # the human's blip revealed: its owner says what it holds
            fresh.scene.entry.set_text("decoy")
            fresh.scene.choose("ok")
            continue
        if isinstance(fresh.scene, Dialog) and fresh.scene.heading.endswith("on the table now"):
            told.extend(fresh.scene.lines)              # what its action changed: shown to the human too
            fresh.scene.choose("done")
            continue
        if isinstance(fresh.scene, Dialog) and fresh.scene.heading.startswith("The computer"):
            told.append(fresh.scene.lines[0])
            before = len(session.game.record)
            fresh.scene.choose("done")
            assert len(session.game.record) > before or isinstance(fresh.scene, (DiceDialog, TextDialog))
            continue
        if isinstance(fresh.scene, Dialog):
            keys = [k for k, _ in fresh.scene.choices]
            fresh.scene.choose("keep" if "keep" in keys else keys[0])
            continue
        scene.computer.step()
    assert told, "the computer told the human nothing"
    assert any("(" in t and ")" in t for t in told), told          # table coordinates
    assert all(t.endswith(".") for t in told)
    # The screen stays with the human, and nothing the human reads names what the computer's blip holds while it
    # stands unrevealed.
    assert session.viewer == "A"
    if "b-blip-1" in session.state.blips:
        shown = " ".join(told) + " " + " ".join(str(line) for line in scene.log_lines)
        assert not any(w in shown for w in secret_words), shown
        assert all("contents" not in b for b in session.view()["blips"] if b["side"] == "B")
    # Saved and reopened, the computer still runs side B.
    again = read_save(session.save(tmp_path / "ford.json"))
    assert again.game.refereed and again.game.players["B"]["level"] == "normal"
    reopened = RefereeSession(again.game, None)
    assert reopened.computer is not None and reopened.computer.side == "B" and reopened.viewer == "A"


def test_play_referee_with_the_computer_from_the_command_line(tmp_path, capsys):
    from referee.cli.main import main

    out = tmp_path / "shot.png"
    assert main(["play", str(SMALL), "--referee", "--computer", "B:easy", "--screenshot", str(out)]) == 0
    assert out.is_file()
    assert main(["play", str(SMALL), "--referee", "--computer", "C:hard", "--screenshot", str(out)]) == 2
    assert "--computer" in capsys.readouterr().err
    assert main(["play", str(SMALL), "--computer", "B", "--screenshot", str(out)]) == 2
    assert "--referee" in capsys.readouterr().err

