"""The user's folders found without platformdirs (``paths._xdg_folder``) are the folders platformdirs names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from referee import paths

FOLDERS = [(paths.user_data_dir, platformdirs.user_data_dir), (paths.user_config_dir, platformdirs.user_config_dir),
           (paths.user_cache_dir, platformdirs.user_cache_dir), (paths.user_log_dir, platformdirs.user_log_dir)]
XDG = ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")


@pytest.mark.parametrize("home, xdg", [
    ("/home/player", None),
    ("/home/player/", None),
    ("/home/player", "/srv/xdg"),
    ("/home/player", "relative/xdg"),        # a relative XDG folder is not used
    ("/home/player", "~/xdg"),
    ("relative-home", None),                 # left to platformdirs
])
def test_each_user_folder_is_the_one_platformdirs_names(monkeypatch, home, xdg):
    monkeypatch.delenv("SEVEN_SECONDS_HOME", raising=False)
    monkeypatch.setenv("HOME", home)
    for name in XDG:
        if xdg is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, f"{xdg}/{name.lower()}")
    for ours, theirs in FOLDERS:
        try:
            expected = Path(theirs("seven-seconds", appauthor=False))
        except RuntimeError:         # no home platformdirs can use: ours defers to it and says the same
            with pytest.raises(RuntimeError):
                ours()
            continue
        assert ours() == expected


@pytest.mark.skipif(sys.platform != "linux", reason="the folders are found without platformdirs on Linux alone")
def test_the_user_folders_are_found_without_importing_platformdirs(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SEVEN_SECONDS_HOME"}
    env.update(XDG_CACHE_HOME=str(tmp_path), HOME="/home/player")
    probe = ("import sys\nfrom referee import paths\n"
             "print(paths.user_cache_dir(), paths.settings_file().parent, 'platformdirs' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env)
    assert run.stdout.split() == [str(tmp_path / "seven-seconds"), "/home/player/.config/seven-seconds", "False"]
