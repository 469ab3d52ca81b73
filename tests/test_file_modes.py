"""Files meant to be shared are written as any new file of the user is (0666 less the umask); a file holding both
sides' secrets is the user's alone."""

from __future__ import annotations

import os
import stat

import pytest

from referee.storage import atomic_write_bytes, atomic_write_text, write_document


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_shared_files_follow_the_umask_and_private_ones_do_not(tmp_path, umask_022):
    write_document(tmp_path / "iron-league.toml", {"id": "iron-league"})
    atomic_write_text(tmp_path / "campaign.json", "{}")
    atomic_write_bytes(tmp_path / "sheet.pdf", b"%PDF-1.4")
    atomic_write_text(tmp_path / "battle.json", "{}", private=True)
    assert mode(tmp_path / "iron-league.toml") == 0o644
    assert mode(tmp_path / "campaign.json") == 0o644
    assert mode(tmp_path / "sheet.pdf") == 0o644
    assert mode(tmp_path / "battle.json") == 0o600
    os.umask(0o077)
    atomic_write_text(tmp_path / "iron-league.toml", "id = 'iron-league'\n")
    assert mode(tmp_path / "iron-league.toml") == 0o600, "a user who keeps everything private still does"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
