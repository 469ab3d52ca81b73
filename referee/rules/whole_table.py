"""The whole-table questions of the query contract, on either engine, with their computing time."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from .battlefield import Battlefield
from .table_sight import PairSight, exposure_reference, sightlines_reference
from .fast_sight import prepare as prepare_fast
from .fast_sight import sightlines_fast
from .fast_sight import exposure_fast

ENGINES = ("fast", "reference")


def _engine(name: str | None) -> str:
    if name in (None, "fast"):
        try:
            from . import fast_sight  # noqa: F401
            return "fast"
        except ImportError:
            return "reference"
    return name


def prepare(bf: Battlefield, engine: str | None = None, exposure_steps: tuple[float, ...] = ()) -> None:
    """Build the fast engine's terrain arrays when a table is loaded, so the first question costs what the
    hundredth does (``elapsed_ms`` times the question, not the loading)."""
    if _engine(engine) == "fast":
        prepare_fast(bf, exposure_steps)


def sightlines(bf: Battlefield, engine: str | None = None) -> dict[str, Any]:
    engine = _engine(engine)
    t0 = time.perf_counter()
    pairs: Sequence[PairSight]
    if engine == "fast":
        pairs = sightlines_fast(bf)
    else:
        pairs = sightlines_reference(bf)
    ms = (time.perf_counter() - t0) * 1000
    return {
        "pairs": [p.as_dict() for p in pairs], "engine": engine, "elapsed_ms": round(ms, 3),
        "explain": [f"{len(pairs)} ordered pairs of units of opposite sides, {engine} engine [p.~6, p.24, A9, A6]",
                    "band: the viewer's Target range band, cover not included [p.19, A2, A3]",
                    "intervening: the terrain along the measuring segment that costs counters or dice, with its length; "
                    "heavy_length: the Heavy part [p.24, A6, A7, A8]",
                    "corridor: who rolls countermeasures against a missile from the viewer at the target, nearest "
                    "the firer first [p.21, A27]"],
    }


def exposure(bf: Battlefield, side: str, step: float = 0.5, engine: str | None = None) -> dict[str, Any]:
    engine = _engine(engine)
    t0 = time.perf_counter()
    if engine == "fast":
        grid = exposure_fast(bf, side, step)
    else:
        grid = exposure_reference(bf, side, step)
    ms = (time.perf_counter() - t0) * 1000
    return {
        "step": grid.step, "columns": grid.columns, "rows": grid.rows, "counts": grid.counts, "prices": grid.prices,
        "engine": engine, "elapsed_ms": round(ms, 3),
        "explain": [f"a unit of side {side} at each point of a {grid.step:g}\" grid; counts of revealed enemy units "
                    f"that could see it (50 % rule) [A9, A10]",
                    "prices: the fewest points an enemy needs to place one Target counter on it there, counters "
                    "eaten by intervening terrain included; null where no enemy can Target it [p.19, p.24, A12, A50]"],
    }
