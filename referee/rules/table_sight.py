"""Whole-table questions, reference engine: every sight line between opposite sides, and the exposure grid."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from .battlefield import Battlefield, Piece
from .geometry import edge_range
from .sight import CoverResult, cover, line_of_sight
from .ranges import band_index, target_band_size
from .missile import flight_path_units
from .targeting import can_target, target_price


class PairSight(NamedTuple):
    """One ordered pair of units of opposite sides: what the viewer sees of the target.

    A named tuple rather than a dataclass: the fast engine makes one per ordered pair (8,000 at 64 units a side), and
    a tuple is one object to build and for the cycle collector to scan, where a dataclass is two (it and its dict)."""

    viewer: str
    target: str
    distance: float
    visible: bool
    hidden_fraction: float
    target_cover: str
    blocked: bool
    band: int = 1                                       # the viewer's Target range band (cover not included)
    intervening: tuple[tuple[str, float], ...] = ()     # (terrain, length inside it) as ``sight.cover`` counts them
    heavy_length: float = 0.0                           # the Heavy part of it, summed
    corridor: tuple[str, ...] = ()                      # who rolls CM against a missile viewer -> target (A27)

    def as_dict(self) -> dict[str, object]:
        return {
            "from": self.viewer, "to": self.target, "distance": round(self.distance, 6),
            "visible": self.visible, "hidden_fraction": round(self.hidden_fraction, 6),
            "target_cover": self.target_cover, "blocked": self.blocked, "band": self.band,
            "intervening": [{"terrain": t, "length": round(length, 6)} for t, length in self.intervening],
            "heavy_length": round(self.heavy_length, 6), "corridor": list(self.corridor),
        }


def opposing_pairs(bf: Battlefield) -> list[tuple[Piece, Piece]]:
    units = sorted((p for p in bf.units() if p.side is not None), key=lambda p: p.id)
    return [(a, b) for a in units for b in units if a.side != b.side]


def pair_band(bf: Battlefield, viewer: Piece, target: Piece) -> int:
    """The range band the viewer Targets the target in (``targeting.target_price`` before cover)."""

    return band_index(bf, edge_range(viewer, target), target_band_size(bf, viewer)[0])


def pair_intervening(cov: CoverResult) -> tuple[tuple[tuple[str, float], ...], float]:
    """(terrain, length) of each intervening feature of a ``CoverResult``, and the Heavy length summed."""
    return (tuple((i.terrain, i.length) for i in cov.intervening),
            sum(i.length for i in cov.intervening if i.cover == "heavy"))


def sightlines_reference(bf: Battlefield) -> list[PairSight]:
    """Every ordered pair of units of opposite sides, one pair at a time with the rules' own functions."""

    out = []
    for a, b in opposing_pairs(bf):
        los = line_of_sight(bf, a, b)
        cov = cover(bf, a, b, los)
        intervening, heavy = pair_intervening(cov)
        corridor = tuple(p.id for p in flight_path_units(bf, a, b))
        out.append(PairSight(a.id, b.id, edge_range(a, b), los.visible, los.hidden_fraction, cov.target_cover,
                             cov.blocked, pair_band(bf, a, b), intervening, heavy, corridor))
    return out


@dataclass(frozen=True)
class ExposureGrid:
    step: float
    columns: int
    rows: int
    counts: list[list[int]]     # row 0 at y = step / 2
    # The cheapest Target counter an enemy could place on a unit there: the points one net counter costs, counters
    # eaten by intervening terrain included (``TargetPrice.cost(1)``); None where no enemy can Target it.
    prices: list[list[int | None]] | None = None

    def fetch(self, i0: int, i1: int, j0: int, j1: int) -> None:
        """Every point is worked out already (``ExposureMap.fetch``)."""

    def fetch_regions(self, regions: list[tuple[int, int, int, int]]) -> None:
        """Every point is worked out already (``ExposureMap.fetch_regions``)."""

    def count(self, i: int, j: int) -> int:
        return self.counts[j][i]

    def price(self, i: int, j: int) -> int | None:
        return None if self.prices is None else self.prices[j][i]


class ExposureMap(Protocol):
    """An exposure grid read point by point: the whole grid (``ExposureGrid``), or one worked out a tile at a time
    as its points are asked for (``fast_sight.ExposureTiles``), with the same figures at every point."""

    @property
    def step(self) -> float: ...
    @property
    def columns(self) -> int: ...
    @property
    def rows(self) -> int: ...

    def fetch(self, i0: int, i1: int, j0: int, j1: int) -> None:
        """Works out the points of columns ``i0 .. i1 - 1`` and rows ``j0 .. j1 - 1`` that are not yet, together:
        the points about to be read, each asked for alone, would cost a call each."""

    def fetch_regions(self, regions: list[tuple[int, int, int, int]]) -> None:
        """``fetch`` for several regions (``i0, i1, j0, j1`` each), together."""

    def count(self, i: int, j: int) -> int:
        """How many watchers could see a unit at column ``i``, row ``j``."""

    def price(self, i: int, j: int) -> int | None:
        """The cheapest Target counter a watcher could place on it there (None: none can Target it)."""


def grid_shape(bf: Battlefield, step: float) -> tuple[int, int]:
    return int(math.floor(bf.width / step + 1e-9)), int(math.floor(bf.height / step + 1e-9))


def watchers(bf: Battlefield, side: str) -> list[Piece]:
    """The known enemies of ``side``: revealed troopers and drones of the other side (blips have no eyes to show)."""
    return sorted((p for p in bf.pieces.values() if (p.is_trooper or p.is_drone) and p.side != side), key=lambda p: p.id)


def exposure_probe(side: str, x: float, y: float, radius: float = 0.5) -> Piece:
    """The unit imagined at one grid point: a trooper of ``side`` on a ``radius`` base."""
    return Piece(id="(probe)", kind="trooper", x=x, y=y, radius=radius, side=side)


def exposure_reference(bf: Battlefield, side: str, step: float = 0.5, radius: float = 0.5) -> ExposureGrid:
    """For a unit of ``side`` at each grid point: how many ``watchers`` could see it (50 % rule), and the cheapest
    Target counter any of them could place on it (``targeting.target_price``, one pair at a time)."""

    cols, rows = grid_shape(bf, step)
    enemies = watchers(bf, side)
    targeters = {e.id for e in enemies if can_target(e)[0]}
    counts, prices = [], []
    for j in range(rows):
        y = (j + 0.5) * step
        row, row_price = [], []
        for i in range(cols):
            probe = exposure_probe(side, (i + 0.5) * step, y, radius)
            seen, cheapest = 0, None
            for e in enemies:
                if e.id in targeters:
                    tp = target_price(bf, e, probe)
                    seen += tp.cover.los.visible
                    if tp.allowed:
                        cost = tp.cost(1)
                        cheapest = cost if cheapest is None else min(cheapest, cost)
                else:
                    seen += line_of_sight(bf, e, probe).visible
            row.append(seen)
            row_price.append(cheapest)
        counts.append(row)
        prices.append(row_price)
    return ExposureGrid(step, cols, rows, counts, prices)
