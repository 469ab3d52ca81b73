import os
import sys

import pytest

# The suite's modules, their asserts rewritten by pytest, are cached in tests/__pycache__ (ignored by git) even where
# PYTHONDONTWRITEBYTECODE asks for no bytecode: without the cache every worker rewrites and compiles them all again,
# 9 s of CPU each, and every command the tests start compiles the program's modules again (1 s each).
sys.dont_write_bytecode = False

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
