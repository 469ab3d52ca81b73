"""Colour-vision deficiency, simulated as Machado, Oliveira & Fernandes (2009) model it, and colour differences
(CIEDE2000), both from colour-science: what the window's colour test and the deuteranopia picture of the README use."""

from __future__ import annotations

import functools
import itertools
import warnings

import numpy as np

DEFICIENCIES = {"deuteranopia": "Deuteranomaly", "protanopia": "Protanomaly", "tritanopia": "Tritanomaly"}


@functools.cache
def _colour():
    """colour-science, imported when the colours are first measured."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # colour-science notes that SciPy and Matplotlib are absent: not needed
        # Lazy: colour-science takes about 2 s of CPU to import; at module level every test worker paid it while
        # collecting the suite, for the one test that measures colours.
        import colour
    return colour


def simulate(rgb, deficiency: str) -> np.ndarray:
    """sRGB colours (0-255, any shape ending in 3) as a person with this deficiency (severity 1: the -opia) sees
    them, in sRGB 0-255. Machado's matrices act on linear light."""
    colour = _colour()
    matrix = colour.blindness.matrix_cvd_Machado2009(DEFICIENCIES[deficiency], 1.0)
    linear = colour.models.eotf_sRGB(np.asarray(rgb, dtype=float) / 255)
    seen = np.clip(linear @ matrix.T, 0, 1)
    return colour.models.eotf_inverse_sRGB(seen) * 255


def lab(rgb) -> np.ndarray:
    colour = _colour()
    linear = colour.models.eotf_sRGB(np.asarray(rgb, dtype=float) / 255)
    return colour.XYZ_to_Lab(colour.RGB_to_XYZ(linear, colour.RGB_COLOURSPACES["sRGB"], apply_cctf_decoding=False))


def delta_e(a, b) -> float:
    return float(_colour().delta_E(lab(a), lab(b), method="CIE 2000"))


def closest_pairs(colours: dict[str, tuple[int, int, int]], deficiency: str | None):
    """Every pair of named colours with its CIEDE2000 difference as seen with ``deficiency`` (None: as drawn),
    smallest first."""
    seen = {k: (simulate(c, deficiency) if deficiency else np.asarray(c, dtype=float)) for k, c in colours.items()}
    pairs = [(delta_e(seen[a], seen[b]), a, b) for a, b in itertools.combinations(seen, 2)]
    return sorted(pairs)
