"""The ``seven-seconds`` command: one sub-command module per job, each with ``register(subparsers)``."""

from __future__ import annotations

import argparse
import importlib
import math
import sys

from ..rules.errors import InputError

# Each module defines register(subparsers); its parser sets ``run`` to a function(args) -> exit status. Only the
# command given is imported: the others are listed (for ``--help`` and for argparse's choices) with their help line
# alone, so that a query does not pay for the window, nor ``--help`` for the rules engine.
COMMAND_MODULES = ("play", "query", "validate", "replay", "selfplay", "faction", "cards", "campaign", "report")
COMMAND_HELP = {
    "play": "open the table view (default command)",
    "query": "answer one referee question about a scenario",
    "validate": "check faction, card and scenario files",
    "replay": "replay a saved battle and show the resulting table",
    "selfplay": "play a whole battle between two computer players and save it",
    "faction": "create, check, show, upgrade and print factions",
    "cards": "list or validate mission, troop and drone cards",
    "campaign": "keep a campaign: battles, campaign points, streaks, tech upgrades",
    "report": "look back on a saved battle: summary (text or PNG) and dice report",
}


class ArgumentError(InputError):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as exit status 2 with a message, like every other bad input."""

    def error(self, message):
        raise ArgumentError(self.prog, message)


def finite_number(text: str) -> float:
    """argparse type for positions, distances and angles: a finite number no larger than a scenario's (not nan)."""
    from ..rules.scenario import LIMIT

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number (got {text!r})") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number (got {text!r})")
    if abs(value) > LIMIT:
        raise argparse.ArgumentTypeError(f"expected a number from {-LIMIT:g} to {LIMIT:g} (got {text!r})")
    return value


def build_parser(commands: tuple[str, ...] = COMMAND_MODULES) -> argparse.ArgumentParser:
    """The command line's parser, with the full parsers of ``commands`` (the others listed by their help line)."""
    parser = _Parser(prog="seven-seconds", description="Referee assistant for 7 Seconds (playtest rules v0.81).")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name in COMMAND_MODULES:
        if name not in commands:
            sub.add_parser(name, help=COMMAND_HELP[name])
            continue
        try:
            module = importlib.import_module(f"referee.cli.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"referee.cli.{name}":
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        argv = argv if argv else ["play"]
        parser = build_parser((argv[0],) if argv[0] in COMMAND_MODULES else ())
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return 0
        return int(args.run(args) or 0)
    except InputError as e:
        print(f"seven-seconds: {e.message()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into a program that stopped reading (``| head``): not an error of ours.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        # A path given on the command line that the system refuses (a name too long, a folder where a file should
        # be, no permission): bad input like any other, never a traceback.
        where = f"{e.filename}: " if e.filename else ""
        print(f"seven-seconds: {where}cannot be used ({e.strerror or e})", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
