import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.fixture(autouse=True)
def _private_user_data(tmp_path_factory, monkeypatch):
    """Never read or write the real user's factions, cards or saves during tests."""
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path_factory.mktemp("home")))
    from referee.rules.factions import forget_factions

    forget_factions()
    yield
    forget_factions()
