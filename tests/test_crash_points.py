"""Crash windows closed (issue 32): a kill before any of the saves' durable steps -- every journal line, every
write, rename, link and folder sync of a battle autosaved through a take-back, a resume, a save by hand and a new
campaign battle started over the unfinished one -- loses no acknowledged action and leaves no battle refused."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from referee import paths
from referee.game.records.autosave import autosave, autosave_path
from referee.game.records.sealing import Keyring
from referee.game.play.setup import SetupChoices

from .battles import finished_battle
from .crash_points import kill_points, recover


def test_a_kill_at_any_step_loses_no_acknowledged_action_and_refuses_no_battle(tmp_path):
    # The copies of the folders at each step go to memory where the system has it (/dev/shm): 200 copies.
    shm = Path("/dev/shm")
    copies = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path / "copies"
    try:
        run, points = kill_points([paths.saves_dir(), tmp_path / "campaign"], copies)
        lost, refused = 0, []
        for point in points:
            outcome = recover(point, run.pins)
            lost += outcome.lost
            refused += outcome.refused
    finally:
        shutil.rmtree(copies, ignore_errors=True)
    assert len(points) >= 200
    assert {"journal append", "journal synced", "write", "rename", "folder sync", "link"} <= {p.step for p in points}
    assert len(run.acknowledged) == 2 and min(len(r) for r in run.acknowledged.values()) >= 30
    assert (lost, refused) == (0, [])


def test_a_finished_battle_in_clear_is_not_kept_beside_a_new_one_and_a_sealed_one_is():
    game, dice = finished_battle(SetupChoices({"A": "council-of-zane", "B": "new-tokyo"}))
    autosave(game, dice)                                   # written in clear, as before PINs
    other, other_dice = finished_battle(SetupChoices({"A": "council-of-zane", "B": "new-tokyo"}), seed=6)
    other.keys = Keyring({"A": "aaaa", "B": "bbbb"}, cost=2 ** 10)
    autosave(other, other_dice)
    folder = autosave_path().parent
    assert sorted(p.name for p in folder.iterdir()) == ["autosave.journal", "autosave.json"]
    third, third_dice = finished_battle(SetupChoices({"A": "council-of-zane", "B": "new-tokyo"}), seed=7)
    autosave(third, third_dice)
    kept = sorted(p.name for p in folder.iterdir() if p.name.startswith("autosave-"))
    assert len(kept) == 2 and all('"both"' in (folder / k).read_text() for k in kept if k.endswith(".json"))
