"""Bad input is reported with the file, the item and what was expected; never a traceback."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


class InputError(ValueError):
    """A file or argument the program cannot use.

    ``problems`` lists every problem found, each already phrased as ``item: what was expected``.
    """

    def __init__(self, source: str, problems: list[str] | str):
        if isinstance(problems, str):
            problems = [problems]
        self.source = source
        self.problems = list(problems)
        super().__init__(self.message())

    def message(self) -> str:
        if len(self.problems) == 1:
            return f"{self.source}: {self.problems[0]}"
        return f"{self.source}: {len(self.problems)} problems\n" + "\n".join(
            f"  - {p}" for p in self.problems
        )


def pydantic_problems(error: ValidationError) -> list[str]:
    """Turn a pydantic ValidationError into ``item: message`` lines such as ``units[3].rating: ...``."""
    problems = []
    for e in error.errors():
        item = ""
        for part in e.get("loc", ()):
            if isinstance(part, int):
                item += f"[{part}]"
            else:
                item += ("." if item else "") + str(part)
        msg = e.get("msg", "invalid")
        if e.get("type") == "extra_forbidden":
            msg = "unknown key (not part of the format)"
        elif e.get("type") == "missing":
            msg = "required key is missing"
        given = e.get("input")
        if e.get("type") not in ("missing", "extra_forbidden") and isinstance(given, (str, int, float, bool)):
            msg += f" (got {given!r})"
        problems.append(f"{item or '(top level)'}: {msg}")
    return problems
