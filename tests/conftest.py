import gc
import os
import sys

import pytest

from referee.game.records import sealing

# The suite's modules, their asserts rewritten by pytest, are cached in tests/__pycache__ (ignored by git) even where
# PYTHONDONTWRITEBYTECODE asks for no bytecode: without the cache every worker rewrites and compiles them all again,
# 9 s of CPU each, and every command the tests start compiles the program's modules again (1 s each).
sys.dont_write_bytecode = False

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# Hypothesis, when first imported, runs the set-up hooks other installed packages register with it: trio's (no test
# uses trio) imports trio and then walks the whole heap twice to register its random generator, nearly a second of
# CPU in each worker. The fuzz tests need no plug-in.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")

# A side's key costs scrypt at 2^15 (32 MB, about 0.1 s of CPU), once for each side of every battle sealed with PINs:
# the window's battles, the sealed files' and the host's tests seal hundreds over the suite. The tests' keyrings cost
# 2^10 instead, the least a file may state. A file states the cost it was sealed with, and whoever opens it (here or
# in a command a test starts) derives at that cost; tests/test_sealed_files.py holds the program's own cost at 2^15.
TEST_KDF_N = 2 ** 10
sealing.new_key_cost = lambda: TEST_KDF_N


def _no_sync(fd: int) -> None:
    """The program syncs each file it writes before renaming it into place, and each line of the autosave's journal,
    so that a power cut loses nothing acknowledged. No test cuts the power (a kill, which the crash tests make, loses
    nothing the kernel holds), and the window's battles autosave every action: thousands of waits for the disk over
    the suite, a few ms each on an idle disk and tens on a busy one. The tests' own processes skip the wait; the
    commands they start sync as the program does, and a test that makes the sync fail (a full disk) still can."""


os.fsync = _no_sync

# A worker runs a thousand tests in one process, and its heap grows to a gigabyte or two with what the modules keep
# (windows, battles, tables' arrays): the collector's full passes walk all of it, and took a tenth of the window
# tests' CPU. The modules and all that collection made live as long as the process: once collection is done they are
# moved out of the collector's reach, and it runs after 10,000 new objects rather than 700 (so its full passes come
# less often). A test that needs the garbage gone still collects it.
gc.set_threshold(10_000, 10, 10)


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a module's last test (its module fixtures torn down), what is still alive is moved out of the
    collector's reach too: what the modules keep for the whole run (tables, battles, caches) is not walked again by
    every full collection, nor by each ``gc.collect()`` a test makes before measuring memory."""
    yield
    if nextitem is None or nextitem.module is not item.module:
        gc.collect()
        gc.freeze()


@pytest.fixture(scope="session", autouse=True)
def _shared_checked_files(tmp_path_factory):
    """Each test has a home of its own (below), and the cache of checked files was in it: every test read and checked
    the bundled tables, factions and rulings again and wrote them to its own cache, 2 % of the suite. The worker's
    tests share one cache instead (the commands they start too); a kept value is only ever given for the very bytes
    it was checked from, so no test sees another's files. ``test_checked.py`` keeps its cache in its own home."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEVEN_SECONDS_CACHE", str(tmp_path_factory.mktemp("checked-cache")))
        yield


@pytest.fixture(autouse=True)
def _private_user_data(tmp_path_factory, monkeypatch):
    """Never read or write the real user's factions, cards or saves during tests."""
    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path_factory.mktemp("home")))
    from referee.rules.factions import forget_factions

    forget_factions()
    yield
    forget_factions()


@pytest.fixture(autouse=True)
def _keys_released(request):
    """A window shared by a module's tests starts each test with no key held: tests send a key's press without its
    release, and the window drops the repeats of a key held across a change of screen (``App.dispatch``)."""
    for name in ("app", "fresh"):
        if name in request.fixturenames:
            app = request.getfixturevalue(name)
            if hasattr(app, "held_keys"):
                app.held_keys.clear()
                app.spent_keys.clear()
    yield
