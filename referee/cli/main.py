"""The ``seven-seconds`` command: one sub-command module per job, each with ``register(subparsers)``."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys

from ..i18n import N_, _
from ..about import PROG, version
from ..rules.errors import InputError
from .parsing import ArgumentError as ArgumentError
from .parsing import _Parser

# Each module defines register(subparsers); its parser sets ``run`` to a function(args) -> exit status. Only the
# command given is imported: the others are listed (for ``--help`` and for argparse's choices) with their help line
# alone, so that a query does not pay for the window, nor ``--help`` for the rules engine.
COMMAND_MODULES = ("play", "query", "validate", "replay", "turn", "selfplay", "faction", "cards", "campaign", "report",
                   "mat", "markers", "capture", "schema", "completion", "host", "join", "mail")
COMMAND_HELP = {
    "play": N_("open the table view (default command)"),
    "query": N_("answer one referee question about a scenario"),
    "validate": N_("check faction, card and scenario files"),
    "replay": N_("replay a saved battle and show the resulting table"),
    "turn": N_("turn files for play by e-mail: one side's sealed part and the public battle"),
    "selfplay": N_("play a whole battle between two computer players and save it"),
    "faction": N_("create, check, show, upgrade and print factions"),
    "cards": N_("list or validate mission, troop and drone cards"),
    "campaign": N_("keep a campaign: battles, campaign points, streaks, tech upgrades"),
    "report": N_("look back on a saved battle: summary (text or PNG), dice report, the whole report as a PDF"),
    "mat": N_("print a player's mat for a physical game (PDF)"),
    "markers": N_("write the printable PDF of markers for reading the table from a photo"),
    "capture": N_("read the table from a photo of its printed markers"),
    "schema": N_("write the JSON Schemas of faction, card and scenario files"),
    "completion": N_("print the shell completion script (bash, zsh or tcsh)"),
    "host": N_("serve a battle on the local network: each player's hand on their phone"),
    "join": N_("play one side of a battle hosted on another computer"),
    "mail": N_("play a battle by e-mail: one file sent back and forth"),
}



_from_shell = False      # started by ``entry``: the collector is off until the command's modules are loaded


def build_parser(commands: tuple[str, ...] = COMMAND_MODULES) -> argparse.ArgumentParser:
    """The command line's parser, with the full parsers of ``commands`` (the others listed by their help line)."""
    parser = _Parser(prog=PROG, description=_("Referee assistant for 7 Seconds (playtest rules v0.81)."))
    parser.add_argument("--version", action="store_true", help=_("print the program's version and exit"))
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name in COMMAND_MODULES:
        if name not in commands:
            sub.add_parser(name, help=_(COMMAND_HELP[name]))
            continue
        try:
            module = importlib.import_module(f"referee.cli.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"referee.cli.{name}":
                continue
            raise
        module.register(sub)
    return parser


def error_text(e: InputError) -> str:
    """The message of a bad input, with one ``seven-seconds`` at its start (a source may already begin with the
    program's name, as a parser's does)."""
    text = e.message()
    return text if text.startswith(PROG) else f"{PROG}: {text}"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        argv = argv if argv else ["play"]
        if argv[0] == "query":
            # lazy: loaded only when this command or option runs, so the command line starts fast
            from .query import question_help

            text = question_help(argv[1:])
            if text:
                print(text, end="")
                return 0
        parser = build_parser((argv[0],) if argv[0] in COMMAND_MODULES else ())
        args = parser.parse_args(argv)
        if _from_shell and not getattr(args, "loads_when_run", False):
            _started()
        if args.version:
            print(f"{PROG} {version()}")
            return 0
        if not getattr(args, "run", None):
            parser.print_help()
            return 0
        return int(args.run(args) or 0)
    except ArgumentError as e:
        print(e.usage + error_text(e), file=sys.stderr)
        return 2
    except InputError as e:
        print(error_text(e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into a program that stopped reading (``| head``): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        # A path given on the command line that the system refuses (a name too long, a folder where a file should
        # be, no permission): bad input like any other, never a traceback.
        where = f"{e.filename}: " if e.filename else ""
        print(f"seven-seconds: {where}cannot be used ({e.strerror or e})", file=sys.stderr)
        return 2


def _started() -> None:
    """The command's own modules are loaded: what start-up made lives as long as the process, so the collector
    need never look at it again; it works from here on."""
    gc.freeze()
    gc.enable()


def modules_loaded() -> None:
    """Called by a command that loads its heavy modules when it runs (the window: ``loads_when_run`` set on its
    parser) once they are loaded; nothing when the program was not started from the shell."""
    if _from_shell and not gc.isenabled():
        _started()


def entry() -> None:
    """The program as started from the shell (``seven-seconds``, ``python -m referee``): ``main`` with a cheap
    start and a fast exit, which a call of ``main`` inside another program (the tests) must not get."""
    # The rules engine multiplies no matrices; the BLAS thread pool that numpy starts on import is pure start-up
    # cost. A value the user set is kept.
    global _from_shell
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # The file models are checked by pydantic, which looks through every installed package's entry points for
    # plugins of its own when it makes its first validator; the program uses none, so the search is start-up cost
    # alone (a few milliseconds of a query). A value the user set is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # Importing the command's modules makes hundreds of thousands of objects and no garbage: collecting during it
    # only walks them over and over. ``main`` turns the collector back on once they are loaded.
    _from_shell = True
    gc.disable()
    code = main()
    # Nothing is left to do but free memory the system frees anyway: flush what was printed and leave without
    # tearing every module down (a tenth of a one-shot command's time). Files are written and closed by then:
    # saves are atomic and complete when their call returns.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    except OSError:
        code = code or 1
    os._exit(code)


if __name__ == "__main__":
    entry()
