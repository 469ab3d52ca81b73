"""The operating system's draws made from a seed, for a test that must play the same battle on every run.

A battle at the window takes its sides' dice contributions, the salt of their secret draws, the computer's seed and
the fresh entropy of the table's dice from the operating system, so nobody at the table can draw them again at home.
A test fixes them instead: each draw still differs from the one before, but the run is the same every time."""

from __future__ import annotations

import random
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Iterator
from unittest import mock

DICE_DRAWS = "referee.game.battle.dice._os_random"


def seeded_os_draws(seed: int) -> SimpleNamespace:
    """Stands for the ``secrets`` module the dice draw from."""
    fixed = random.Random(seed)
    return SimpleNamespace(randbits=fixed.getrandbits, token_bytes=fixed.randbytes,
                           token_hex=lambda n: fixed.randbytes(n).hex())


@contextmanager
def os_draws_fixed(seed: int) -> Iterator[None]:
    with mock.patch(DICE_DRAWS, seeded_os_draws(seed)):
        yield
