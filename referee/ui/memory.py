"""Keeping the window's memory flat over a long battle.

The window makes and drops large pictures all the time (a table layer after each action, a dialog's shade, rendered
text). glibc's allocator serves a freed block's size from the heap from then on (its mmap threshold rises with every
large block freed), so those pictures end up scattered among small long-lived objects and the heap keeps pages it no
longer uses: over 200 rounds the window grew past 300 MB while Python itself held under 30 MB. Fixing the threshold
keeps large pictures in blocks of their own that go back to the system when freed. ``malloc_trim`` after an action
returns whatever free pages the heap still holds. Elsewhere (macOS, Windows, musl) there is nothing to call and
nothing is done.
"""

from __future__ import annotations

import ctypes
import sys

M_MMAP_THRESHOLD = -3                 # glibc's mallopt parameter
# Bytes. Window-sized pictures (a 1280x800 layer is 4 MB) are larger; rendered text, and the engine's work arrays at
# the usual table sizes (which the sight engine keeps in the heap, ``fast_sight._keep_work_arrays_in_heap``), are
# smaller. 128 KB, glibc's starting value, gave the same memory but mapped and unmapped the engine's arrays.
LARGE_BLOCK = 1024 * 1024


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim, libc.mallopt                # noqa: B018 (present only in glibc)
    except (OSError, AttributeError):                 # not glibc
        return None
    return libc


_LIBC = _glibc()


def keep_large_blocks_apart() -> bool:
    """Serve every block of ``LARGE_BLOCK`` bytes or more from memory of its own, given back when it is freed;
    whether there was a way to do so."""
    if _LIBC is None:
        return False
    return bool(_LIBC.mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK))


def give_back_free_memory() -> bool:
    """Return the heap's free pages to the system; whether there was a way to do so. About 0.5 ms a call."""
    if _LIBC is None:
        return False
    _LIBC.malloc_trim(0)
    return True


# Actions between two trims. A trim walks the whole heap, which grows with the battle's record and log (0.1 ms a
# call in round 1, 0.3 ms in round 200); the pages a few actions free are a few hundred KB.
TRIM_EVERY = 10


class AfterActions:
    """Gives the heap's free pages back every ``TRIM_EVERY`` actions (``after_action``)."""

    def __init__(self) -> None:
        self.actions = 0

    def after_action(self) -> bool:
        """Count an action; whether the free pages were given back now."""
        self.actions += 1
        return self.actions % TRIM_EVERY == 0 and give_back_free_memory()
