"""Reading the command line's words: argparse that answers bad arguments like any bad input (with the usage line and
the nearest word to one it does not know), and the numbers a command takes."""

from __future__ import annotations

import argparse
import functools
import math
import re

from ..rules.errors import InputError


class ArgumentError(InputError):
    """Bad arguments: the parser's usage line comes with the message, and a close word when one was mistyped."""

    def __init__(self, source: str, problem: str, usage: str = "") -> None:
        super().__init__(source, problem)
        self.usage = usage


# argparse translates its own words ("options", "show this help message and exit") with gettext, which looks for a
# catalogue in the file system at every call: some fifty calls to build one command's parser, most of its time. The
# language does not change while the program runs, so each word is looked up once.
if callable(getattr(argparse, "_", None)):      # argparse's own name for it: left alone if a Python renames it
    argparse._ = functools.lru_cache(maxsize=None)(argparse._)  # type: ignore[attr-defined]

_INVALID_CHOICE = re.compile(r"invalid choice: '?([^'\s]*)'? \(choose from (.*)\)$")
_UNRECOGNIZED = re.compile(r"unrecognized arguments: (.*)$")


def _closest(word: str, known: list[str]) -> str | None:
    import difflib      # lazy: only a mistyped word needs it, and every command would pay for its import

    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: str, known: list[str]) -> str:
    close = _closest(word, known)
    return f" (did you mean {close!r}?)" if close else ""


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as exit status 2 with a message, like every other bad input: with the
    usage line, and the nearest choice or option to a word it does not know."""

    def error(self, message):
        m = _INVALID_CHOICE.search(message)
        if m:
            choices = [c.strip(" '") for c in m.group(2).split(",")]
            close = _closest(m.group(1), choices)
            if close:
                at = message.rfind(" (choose from ")
                message = f"{message[:at]}: did you mean {close!r}?{message[at:]}"
        m = _UNRECOGNIZED.search(message)
        words = m.group(1).split() if m else []
        if words and words[0].startswith("-"):          # an empty word left over is unrecognized too
            message += did_you_mean(words[0].split("=")[0], self._all_options())
        raise ArgumentError(self.prog, message, self.format_usage())

    def _all_options(self) -> list[str]:
        """Every option of this parser and of its sub-commands' parsers: an unknown option is reported by the
        top parser, whichever command it was meant for."""
        found: list[str] = []
        todo: list[argparse.ArgumentParser] = [self]
        while todo:
            parser = todo.pop()
            for action in parser._actions:
                found.extend(action.option_strings)
                if isinstance(action, argparse._SubParsersAction):
                    todo.extend(action.choices.values())
        return found


def finite_number(text: str) -> float:
    """argparse type for positions, distances and angles: a finite number no larger than a scenario's (not nan)."""
    # lazy: loaded only when this command or option runs, so the command line starts fast
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
