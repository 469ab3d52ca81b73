"""The dice typed on the command line (``--dice 3,5,6``), read for ``query … do`` on a table and on a save alike, and
the exit status both give an action the rules refuse."""

from __future__ import annotations

from ..rules.errors import InputError

# The exit status of a ``do`` the rules refuse: the answer is printed as usual and nothing changes, but a script
# that chains actions must not read it as done (docs/query.md).
REFUSED = 3


def parse_dice(text: str) -> list[int]:
    if not text.strip():
        return []
    out = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        try:
            v = int(part)
        except ValueError:
            raise InputError("--dice", f"expected faces 1 to 6 separated by commas (got {part!r})") from None
        if not 1 <= v <= 6:
            raise InputError("--dice", f"a die shows 1 to 6 (got {v})")
        out.append(v)
    return out
