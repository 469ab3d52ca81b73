"""Python's cycle collector held back while a burst of many small objects is made that can form no cycle."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycle_collection_held() -> Iterator[None]:
    """The collector off for the block: it would stop every few hundred new objects to scan all the young ones (and
    now and then every object of the program), though what the block makes is freed as it is let go. Used where that
    scanning was a tenth of the work: the fast sight lines' records at 64 units a side, the computer's decision over
    thousands of imagined states. Left as it was found: a caller that has it off keeps it off."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
