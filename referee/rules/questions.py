"""The questions the table view asks of a table (the side panel, the hover, the ruler), answered by the rules
functions themselves.

A preview must show the engine's numbers, so nothing in this module computes a rule: it calls ``measure``,
``line_of_sight``, ``cover``, ``target_price``, ``rifle_shot``, ``passive_sensors``, ``move`` and ``jump`` and
keeps their results, explanations included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from .battlefield import Battlefield, Piece
from .explain import Step, inches
from .geometry import closest_points

if TYPE_CHECKING:
    from .movement import MoveResult
    from .rifle import RifleShot
    from .ranges import RangeResult
    from .sensors import PassiveResult
    from .sight import CoverResult, LineOfSight
    from .targeting import TargetPrice

CLEAR, IN_COVER, BLOCKED = "clear", "cover", "blocked"


@dataclass(frozen=True)
class RifleUnavailable:
    """Stands in for a ``RifleShot`` when the rifle cannot be asked (for example the odds module is missing)."""

    reason: str
    allowed: bool = False
    dice: int = 0
    p_kill: float = 0.0
    p_graze: float = 0.0
    explain: tuple[Step, ...] = ()


@dataclass(frozen=True)
class PairReport:
    """Everything the side panel and the hover tooltip say about one actor -> one other piece."""

    actor: str
    other: str
    range: RangeResult
    los: LineOfSight
    cover: CoverResult
    target: TargetPrice
    rifle: RifleShot | RifleUnavailable | None      # None for objectives
    sight_start: tuple[float, float]
    sight_end: tuple[float, float]
    # Written once when the report is made, read as plain values by the side panel and the drawing:
    distance: float = field(init=False)
    distance_text: str = field(init=False)       # as players say it: 12.83"
    sight: str = field(init=False)       # green/amber/red of the sight line: clear, through or into cover, blocked

    def __post_init__(self) -> None:
        object.__setattr__(self, "distance", self.range.distance)
        object.__setattr__(self, "distance_text", inches(self.range.distance))
        if not self.los.visible or self.cover.blocked:
            sight = BLOCKED
        elif self.cover.target_cover != "none" or self.cover.penalty:
            sight = IN_COVER
        else:
            sight = CLEAR
        object.__setattr__(self, "sight", sight)

    def explain(self) -> list[str]:
        out = [f"{self.actor} -> {self.other}"]
        out += ["Range:"] + [f"  {s}" for s in self.range.explain]
        out += ["Sight and cover:"] + [f"  {s}" for s in self.cover.explain]
        out += ["Target price:"] + [f"  {s}" for s in self.target.explain]
        if self.rifle is not None:
            out += ["Fire Rifle:"] + [f"  {s}" for s in self.rifle.explain]
            if isinstance(self.rifle, RifleUnavailable):
                out.append(f"  {self.rifle.reason}")
        return out


def pair_report(bf: Battlefield, actor: Piece, other: Piece) -> PairReport:
    # lazy: the rules asked when a piece is selected load then, not with the window's first frame
    from .ranges import measure
    from .rifle import rifle_shot               # lazy: as the line above
    from .sight import cover, line_of_sight     # lazy: as above
    from .targeting import target_price         # lazy: as above

    los = line_of_sight(bf, actor, other)
    cov = cover(bf, actor, other, los)
    cp = closest_points(actor.x, actor.y, actor.radius, other.x, other.y, other.radius)
    return PairReport(
        actor=actor.id, other=other.id,
        range=measure(bf, actor, other),
        los=los, cover=cov,
        target=target_price(bf, actor, other),
        rifle=None if other.is_objective else rifle_shot(bf, actor, other),
        sight_start=cp.start, sight_end=cp.end,
    )


@dataclass(frozen=True)
class SelectionReport:
    """The questions asked when a piece is selected: every enemy, every objective, passive sensors, band sizes."""

    piece: str
    enemies: tuple[PairReport, ...]
    objectives: tuple[PairReport, ...]
    passive: PassiveResult | None
    sensor_radius: float                   # inches from the base centre: base radius + 6" (scaled)
    target_band: float | None              # band size used when Targeting
    rifle_band: float | None               # band size used when firing the rifle
    weapon: str | None
    # The bands as players say them (8.0"), written once for the side panel; the passive sensors' working as text.
    target_band_text: str = field(init=False)
    rifle_band_text: str = field(init=False)
    passive_lines: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "target_band_text", inches(self.target_band) if self.target_band is not None else "")
        object.__setattr__(self, "rifle_band_text", inches(self.rifle_band) if self.rifle_band is not None else "")
        object.__setattr__(self, "passive_lines",
                           tuple(str(s) for s in self.passive.explain) if self.passive is not None else ())

    def pair(self, other_id: str) -> PairReport | None:
        for r in self.enemies + self.objectives:
            if r.other == other_id:
                return r
        return None


def selection_report(bf: Battlefield, piece: Piece) -> SelectionReport:
    # lazy: as in pair_report
    from .ranges import rifle_band_size, target_band_size
    from .sensors import PASSIVE_RANGE, passive_sensors         # lazy: as in pair_report

    if piece.is_objective:
        return SelectionReport(piece.id, (), (), None, 0.0, None, None, None)
    enemies = sorted(bf.enemies_of(piece.side), key=lambda p: (p.is_blip, p.id))
    reports = tuple(pair_report(bf, piece, e) for e in enemies)
    reports = tuple(sorted(reports, key=lambda r: (r.distance, r.other)))
    objectives = tuple(sorted(
        (pair_report(bf, piece, o) for o in bf.pieces.values() if o.is_objective),
        key=lambda r: (r.distance, r.other),
    ))
    passive = passive_sensors(bf, piece)
    tsize, _ = target_band_size(bf, piece)
    weapon, rsize, _ = rifle_band_size(bf, piece)
    return SelectionReport(piece.id, reports, objectives, passive,
                           piece.radius + bf.distance(PASSIVE_RANGE), tsize, rsize, weapon)


# ---- the ruler ---------------------------------------------------------------------------------------------


class RulerEnd(NamedTuple):
    """One end of the ruler: a piece (measured from its base edge) or a bare point on the table. The ruler's values
    are named tuples: plain values, cheaper than dataclasses for the window's start to define."""

    x: float
    y: float
    piece: str | None = None


class RulerResult(NamedTuple):
    start: tuple[float, float]           # the segment drawn: closest points of the two ends
    end: tuple[float, float]
    distance: float
    band_6: int
    band_12: int
    range: RangeResult | None            # when the ruler starts on a piece: its Target and rifle bands
    explain: tuple[str, ...]


def _as_piece(bf: Battlefield, e: RulerEnd) -> Piece:
    if e.piece is not None:
        return bf.piece(e.piece)
    return Piece(id=f"point ({e.x:.1f}, {e.y:.1f})", kind="objective", x=e.x, y=e.y, radius=0.0)


def ruler(bf: Battlefield, a: RulerEnd, b: RulerEnd) -> RulerResult:
    """Edge to edge between pieces, point to point otherwise; the 6" and 12" bands of that distance."""
    # lazy: the ranges load with the ruler's first use, not with the window's first frame
    from .ranges import band_index, band_rule, measure

    pa, pb = _as_piece(bf, a), _as_piece(bf, b)
    r = measure(bf, pa, pb)
    cp = closest_points(pa.x, pa.y, pa.radius, pb.x, pb.y, pb.radius)
    s6, s12 = bf.distance(6.0), bf.distance(12.0)
    b6, b12 = band_index(bf, r.distance, s6), band_index(bf, r.distance, s12)
    explain = [str(r.explain[0])]
    explain.append(f"{inches(s6)} band {b6}, {inches(s12)} band {b12} ({band_rule(bf)}) [p.~13]")
    if a.piece is not None and not pa.is_objective:
        explain += [str(s) for s in r.explain[1:]]
    return RulerResult(cp.start, cp.end, r.distance, b6, b12, r if a.piece is not None else None, tuple(explain))


# ---- move and jump previews -----------------------------------------------------------------------------------


def preview_move(bf: Battlefield, piece: Piece, path: list[tuple[float, float]]) -> MoveResult:
    # lazy: the movement rules load with the first move previewed, not with the window's first frame
    from .movement import move

    return move(bf, piece, list(path))


def preview_jump(bf: Battlefield, piece: Piece, point: tuple[float, float]) -> MoveResult:
    # lazy: as in preview_move
    from .movement import jump

    return jump(bf, piece, point[0], point[1])
