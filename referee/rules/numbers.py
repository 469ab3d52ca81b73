"""Rule boundaries in floating point (ruling A58): within EPS of a boundary counts as exactly on it."""

from __future__ import annotations

import math

EPS = 1e-6


def at_most(value: float, limit: float) -> bool:
    """``value <= limit`` with the boundary inclusive: "within 6\"", "up to 3\"", the blast radius."""
    return value <= limit + EPS


def more_than(value: float, limit: float) -> bool:
    """``value > limit`` beyond the tolerance: "more than half", "more than 3\"."""
    return value > limit + EPS


def band(distance: float, band_size: float) -> int:
    """Range band, ``floor(d / S) + 1`` (ruling A2): exactly 6.0" is band 2 with 6" bands.

    A distance within EPS of a multiple counts as on it (A58), so 5.9999999 is band 2 as well.
    """
    if distance <= 0:
        return 1
    q = distance / band_size
    nearest = round(q)
    if abs(distance - nearest * band_size) <= EPS:
        q = nearest
    return int(math.floor(q)) + 1


def band_ceil(distance: float, band_size: float) -> int:
    """The other reading of A2: ``max(1, ceil(d / S))``, so 6.0" is still band 1."""
    q = distance / band_size
    nearest = round(q)
    if abs(distance - nearest * band_size) <= EPS:
        q = nearest
    return max(1, int(math.ceil(q)))
