"""Whole-table questions, reference engine: every sight line between opposite sides, and the exposure grid."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .battlefield import Battlefield, Piece
from .geometry import edge_range
from .sight import cover, line_of_sight


@dataclass(frozen=True)
class PairSight:
    viewer: str
    target: str
    distance: float
    visible: bool
    hidden_fraction: float
    target_cover: str
    blocked: bool

    def as_dict(self) -> dict:
        return {
            "from": self.viewer, "to": self.target, "distance": round(self.distance, 6),
            "visible": self.visible, "hidden_fraction": round(self.hidden_fraction, 6),
            "target_cover": self.target_cover, "blocked": self.blocked,
        }


def opposing_pairs(bf: Battlefield) -> list[tuple[Piece, Piece]]:
    units = sorted((p for p in bf.units() if p.side is not None), key=lambda p: p.id)
    return [(a, b) for a in units for b in units if a.side != b.side]


def sightlines_reference(bf: Battlefield) -> list[PairSight]:
    out = []
    for a, b in opposing_pairs(bf):
        los = line_of_sight(bf, a, b)
        cov = cover(bf, a, b, los)
        out.append(PairSight(a.id, b.id, edge_range(a, b), los.visible, los.hidden_fraction, cov.target_cover, cov.blocked))
    return out


@dataclass(frozen=True)
class ExposureGrid:
    step: float
    columns: int
    rows: int
    counts: list[list[int]]     # row 0 at y = step / 2


def grid_shape(bf: Battlefield, step: float) -> tuple[int, int]:
    return int(math.floor(bf.width / step + 1e-9)), int(math.floor(bf.height / step + 1e-9))


def watchers(bf: Battlefield, side: str) -> list[Piece]:
    """The known enemies of ``side``: revealed troopers and drones of the other side (blips have no eyes to show)."""
    return sorted((p for p in bf.pieces.values() if (p.is_trooper or p.is_drone) and p.side != side), key=lambda p: p.id)


def exposure_reference(bf: Battlefield, side: str, step: float = 0.5, radius: float = 0.5) -> ExposureGrid:
    cols, rows = grid_shape(bf, step)
    enemies = watchers(bf, side)
    counts = []
    for j in range(rows):
        y = (j + 0.5) * step
        row = []
        for i in range(cols):
            x = (i + 0.5) * step
            probe = Piece(id="(probe)", kind="trooper", x=x, y=y, radius=radius, side=side)
            row.append(sum(1 for e in enemies if line_of_sight(bf, e, probe).visible))
        counts.append(row)
    return ExposureGrid(step, cols, rows, counts)
