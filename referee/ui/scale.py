"""The UI scale: the whole window drawn larger, so the text reads from across the table.

Every scene lays itself out and paints on a *logical* picture of the window's size divided by the scale; the window
shows that picture enlarged. Every font, button, panel and mark on the table grows together, and no scene keeps two
sets of sizes. Mouse positions come back divided by the scale, so the scenes see their own coordinates.

The first guess reads the screen's size and pixel density: body text (``theme.BODY_SIZE``) should show its x-height at
``GOAL_ARCMIN`` arcminutes or more from ``VIEW_DISTANCE_MM`` (a player standing at the table), in steps of ``STEP``.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
from typing import NamedTuple

import pygame
from . import theme

MIN_SCALE = 1.0
MAX_SCALE = 2.5
STEP = 0.25
# The smallest window the scenes lay out for: a larger scale on a small window is lowered to keep this much room
# (1280 x 800 at 200 % is exactly this; the table scenes switch to their large-text layout below 800 x 560).
MIN_LOGICAL = (640, 400)
GOAL_ARCMIN = 12.0
VIEW_DISTANCE_MM = 1000.0
ASSUMED_DIAGONAL_IN = 15.6      # a screen whose size is not known is taken for the usual laptop's


def clamp(scale: float) -> float:
    return max(MIN_SCALE, min(MAX_SCALE, float(scale)))


def parse(text: str) -> float:
    """``150``, ``150%`` or ``1.5``: the scale as a factor; ValueError (with what was expected) otherwise."""
    raw = text.strip().rstrip("%").strip()
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"expected a scale from {MIN_SCALE:.0%} to {MAX_SCALE:.0%}, such as 150% or 1.5 "
                         f"(got {text!r})") from None
    if value > 10:                      # a percentage
        value /= 100
    if not MIN_SCALE <= value <= MAX_SCALE:
        raise ValueError(f"expected a scale from {MIN_SCALE:.0%} to {MAX_SCALE:.0%} (got {text!r})")
    return value


def x_height_px(size: int) -> int:
    """The height in pixels of a rendered "x" of the body font at ``size`` (what the eye reads, hinting included)."""

    metrics = theme.font(size).metrics("x")[0]
    return metrics[3] - metrics[2] if metrics is not None else round(size * 0.536)   # Noto Sans: x-height 0.536 em


def arcminutes(height_mm: float, distance_mm: float = VIEW_DISTANCE_MM) -> float:
    return math.degrees(2 * math.atan(height_mm / 2 / distance_mm)) * 60


def pixel_pitch_mm(pixels: tuple[int, int], dpi: float | None) -> float:
    """The size of one pixel; without a density, the screen is taken to be ``ASSUMED_DIAGONAL_IN`` across."""
    if dpi is None or dpi <= 0:
        dpi = math.hypot(*pixels) / ASSUMED_DIAGONAL_IN
    return 25.4 / dpi


def body_arcminutes(scale: float, pixels: tuple[int, int], dpi: float | None) -> float:
    """The x-height of body text at this scale on this screen, in arcminutes from ``VIEW_DISTANCE_MM``."""

    return arcminutes(x_height_px(theme.BODY_SIZE) * scale * pixel_pitch_mm(pixels, dpi))


def first_guess(pixels: tuple[int, int], dpi: float | None) -> float:
    """The smallest scale, in steps of ``STEP``, at which body text reaches the goal (at most ``MAX_SCALE``)."""

    needed_mm = 2 * VIEW_DISTANCE_MM * math.tan(math.radians(GOAL_ARCMIN / 60) / 2)
    needed_px = needed_mm / pixel_pitch_mm(pixels, dpi)
    factor = needed_px / max(1, x_height_px(theme.BODY_SIZE))
    return clamp(math.ceil(factor / STEP - 1e-9) * STEP)


def fitted(scale: float, window: tuple[int, int]) -> float:
    """The scale lowered, when it must be, so the logical window keeps ``MIN_LOGICAL``."""
    most = min(window[0] / MIN_LOGICAL[0], window[1] / MIN_LOGICAL[1])
    return max(MIN_SCALE, min(clamp(scale), most))


class Screen(NamedTuple):
    """The desktop's size and density (a named tuple: a plain value, cheaper than a dataclass for a start)."""

    pixels: tuple[int, int]
    dpi: float | None


def screen() -> Screen:
    """The desktop's size (from SDL) and its density, when the system tells it."""
    if not pygame.display.get_init():
        pygame.display.init()
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        sizes = []
    pixels = sizes[0] if sizes else (1920, 1080)
    return Screen(pixels, _dpi(pixels))


def _dpi(pixels: tuple[int, int]) -> float | None:
    """X11 knows the monitor's size in millimetres (``xrandr``); elsewhere the density stays unknown."""
    if not os.environ.get("DISPLAY") or shutil.which("xrandr") is None:
        return None
    try:
        out = subprocess.run(["xrandr", "--query"], capture_output=True, text=True, timeout=2).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return dpi_from_xrandr(out, pixels)


def dpi_from_xrandr(text: str, pixels: tuple[int, int]) -> float | None:
    """The density of the first connected output of this size, from ``xrandr --query``'s lines such as
    ``eDP-1 connected primary 1920x1080+0+0 (...) 344mm x 194mm``."""
    for m in re.finditer(r" connected (?:primary )?(\d+)x(\d+)\+\d+\+\d+.*?(\d+)mm x (\d+)mm", text):
        w, h, wmm, hmm = (int(g) for g in m.groups())
        if wmm > 0 and hmm > 0 and (w, h) == tuple(pixels):
            return math.hypot(w, h) / (math.hypot(wmm, hmm) / 25.4)
    return None


# ---- the mouse in logical coordinates ----------------------------------------------------------------------------

_current = [1.0]


def current() -> float:
    """The scale the window draws at now (1 without a window)."""
    return _current[0]


def set_current(scale: float) -> None:
    _current[0] = scale


def to_logical(pos: tuple[float, float]) -> tuple[int, int]:
    s = _current[0]
    return (int(pos[0] / s), int(pos[1] / s))


MOUSE_EVENTS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION)


def logical_event(event: pygame.event.Event) -> pygame.event.Event:
    """A mouse event with its position in the scenes' coordinates (other events unchanged)."""
    if _current[0] == 1.0 or event.type not in MOUSE_EVENTS:
        return event
    data = dict(event.dict)
    data["pos"] = to_logical(event.pos)
    if "rel" in data:
        data["rel"] = to_logical(event.rel)
    return pygame.event.Event(event.type, data)
