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
