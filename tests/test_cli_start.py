"""The command line imports only the command it runs; ``--help`` lists every command without importing any."""

import subprocess
import sys

from referee.cli.main import COMMAND_MODULES, build_parser, main


def _helps(parser) -> dict[str, str]:
    sub = next(a for a in parser._actions if a.dest == "command")
    return {a.dest: a.help for a in sub._choices_actions}


def test_the_listed_help_of_each_command_is_its_own():
    assert _helps(build_parser(())) == _helps(build_parser(COMMAND_MODULES))
    assert list(_helps(build_parser(()))) == list(COMMAND_MODULES)


def test_help_lists_every_command(capsys):
    try:
        main(["--help"])
    except SystemExit as e:
        assert e.code == 0
    out = capsys.readouterr().out
    for name in COMMAND_MODULES:
        assert name in out


def test_a_command_loads_its_own_module_only():
    code = ("import sys; from referee.cli.main import main; main(['validate', '--help'])")
    run = subprocess.run([sys.executable, "-c", code + "\n"], capture_output=True, text=True, timeout=120)
    assert "Check faction, card and scenario files" in run.stdout
    probe = ("import sys\n"
             "from referee.cli.main import main\n"
             "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith(('referee.game', 'referee.ui', 'pygame', 'numpy'))))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert run.stdout.strip().splitlines()[-1] == "[]"


NOT_FOR_A_QUERY = ("pygame", "pygame_gui", "referee.ui", "referee.game", "referee.authoring", "referee.storage",
                   "numpy.ma", "numpy.random", "numpy.polynomial", "numpy.fft", "tomli_w", "pydantic.v1",
                   "pydantic.type_adapter", "pydantic.root_model")


def test_a_query_loads_neither_the_window_nor_the_battle_nor_modules_it_does_not_use():
    probe = ("import contextlib, io, json, sys\n"
             "from referee.cli.main import main\n"
             "out = io.StringIO()\n"
             "with contextlib.redirect_stdout(out):\n"
             "    code = main(['query', 'pastoral-hills', 'sightlines', '--json'])\n"
             "print(code, len(json.loads(out.getvalue())['pairs']))\n"
             f"print(sorted(m for m in sys.modules if any(m == n or m.startswith(n + '.') for n in {NOT_FOR_A_QUERY!r})))\n")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    answered, loaded = run.stdout.strip().splitlines()[-2:]
    code, pairs = answered.split()
    assert code == "0" and int(pairs) > 0
    assert loaded == "[]"


def _shell(*args: str, **env: str) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **env))


def test_the_command_prints_all_its_answer_before_its_fast_exit():
    import json

    run = _shell("query", "pastoral-hills", "sightlines", "--json")
    assert run.returncode == 0 and run.stderr == ""
    answer = json.loads(run.stdout)          # piped, so buffered: the whole answer was flushed before the exit
    assert answer["engine"] == "fast" and len(answer["pairs"]) > 0


def test_the_command_still_refuses_bad_input_with_status_2_and_no_traceback():
    run = _shell("query", "no-such-table.toml", "sightlines")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("seven-seconds: no-such-table.toml") and "Traceback" not in run.stderr


def test_from_the_shell_the_collector_is_off_while_loading_and_on_for_the_command():
    # What ``entry`` does before ``main``, then a command that reports the collector's state while it runs.
    probe = ("import gc, sys\n"
             "import referee.cli.main as cli\n"
             "import referee.cli.validate as validate\n"
             "seen = []\n"
             "validate.run = lambda args: seen.append((gc.isenabled(), gc.get_freeze_count() > 0)) or 0\n"
             "cli._from_shell = True\n"
             "gc.disable()\n"
             "print(cli.main(['validate', 'pastoral-hills']), seen)\n")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert run.stdout.strip().splitlines()[-1] == "0 [(True, True)]"


def test_help_loads_neither_the_file_models_nor_the_user_folders_library():
    # pydantic (the file models) and platformdirs (where the user's files live) are loaded by a command that reads a
    # file or asks for the user's folders, never by one that lists the commands.
    probe = ("import sys\n"
             "from referee.cli.main import main\n"
             "import referee.paths\n"
             "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'platformdirs', 'difflib')))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert run.stdout.strip().splitlines()[-1] == "[]"


def test_a_mistyped_command_is_still_answered_with_the_nearest_one():
    run = _shell("qeury", "pastoral-hills", "sightlines")
    assert run.returncode == 2 and "did you mean 'query'?" in run.stderr and "Traceback" not in run.stderr


def test_from_the_shell_pydantic_does_not_search_the_installed_packages_for_plugins():
    # ``entry`` turns pydantic's plugin search off (the program uses no plugin); a setting of the user's is kept.
    probe = ("import os\n"
             "import referee.cli.main as cli\n"
             "cli.main = lambda: print(os.environ.get('PYDANTIC_DISABLE_PLUGINS')) or 0\n"
             "cli.entry()\n")
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0 and run.stdout.strip() == "__all__"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                         env=dict(env, PYDANTIC_DISABLE_PLUGINS="logfire"))
    assert run.stdout.strip() == "logfire"


def test_a_query_on_a_table_checked_before_loads_no_pydantic(tmp_path):
    # The first query checks the bundled tables, the factions and the table, and keeps what they gave; the next one
    # reads them back (referee/rules/checked.py), and the rules' values are plain objects (referee/rules/model.py).
    probe = ("import contextlib, io, sys\n"
             "from referee.cli.main import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             "    code = main(['query', 'cover-example', 'cover', 'green', 'target-a', '--json'])\n"
             "print(code, sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'pydantic_core'}))\n")
    # The cache in this test's own home, empty at first (not the suite's shared one, conftest.py).
    env = {k: v for k, v in __import__("os").environ.items() if k != "SEVEN_SECONDS_CACHE"}
    env["SEVEN_SECONDS_HOME"] = str(tmp_path)
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env)
            for _ in range(2)]
    assert runs[0].stdout.strip().splitlines()[-1] == "0 ['pydantic', 'pydantic_core']"
    assert runs[1].stdout.strip().splitlines()[-1] == "0 []"


def test_from_the_shell_the_collector_stays_off_until_the_windows_modules_are_loaded(tmp_path):
    # What start-up makes is frozen out of the collector's sight once the command's modules are loaded; the window
    # loads its own when it opens, so it says when (main.modules_loaded), not the parsing of its command line.
    probe = ("import sys\n"
             f"sys.argv = ['seven-seconds', 'play', 'pastoral-hills', '--screenshot', {str(tmp_path / 'shot.png')!r}]\n"
             "import referee.cli.main as cli\n"
             "started = cli._started\n"
             "def spy():\n"
             "    print('window loaded:', 'pygame_gui' in sys.modules and 'referee.ui.scenes.table' in sys.modules)\n"
             "    started()\n"
             "cli._started = spy\n"
             "cli.entry()\n")
    env = dict(__import__("os").environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               SEVEN_SECONDS_HOME=str(tmp_path / "home"))
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    assert "window loaded: True" in run.stdout.splitlines()
