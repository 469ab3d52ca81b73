"""Range bands (p.~13, p.19, p.20): who uses 6\" or 12\" bands, and the band index (A1, A2, A3, A57)."""

from __future__ import annotations

from typing import NamedTuple

from .battlefield import Battlefield, Piece
from .catalogue import weapons
from .explain import Step, Working, inches
from .geometry import edge_range
from .numbers import band, band_ceil

PLASMA_B_BAND = 8.0


class RangeResult(NamedTuple):
    """A named tuple, as ``sight``'s results: a plain value, cheaper than a dataclass for a start to define."""

    distance: float
    target_band: int
    target_band_size: float
    rifle_band: int | None
    rifle_band_size: float | None
    weapon: str | None
    explain: tuple[Step, ...]


def weapon_of(piece: Piece) -> str | None:
    """Assault troopers carry plasma, other troopers gauss, drones a machine gun (p.20)."""
    if piece.is_trooper:
        return piece.trooper_type().rifle
    if piece.is_drone:
        return "mg"
    return None


def band_index(bf: Battlefield, distance: float, size: float) -> int:
    return band_ceil(distance, size) if bf.rulings.reads("A2", "B") else band(distance, size)


def band_rule(bf: Battlefield) -> str:
    if bf.rulings.reads("A2", "B"):
        return f"band = max(1, ceil(d / S)) [{bf.rulings.label('A2')}]"
    return "band = floor(d / S) + 1 [A2]"


def target_band_size(bf: Battlefield, actor: Piece) -> tuple[float, Step]:
    size = target_band_inches(bf, actor)
    if actor.is_trooper and actor.trooper_type().double_target_bands:
        return size, Step(f"Scouts double their range bands when Targeting: {inches(size)} bands", "p.~12, A3")
    return size, Step(f"Targeting uses {inches(size)} bands", "p.19")


def target_band_inches(bf: Battlefield, actor: Piece) -> float:
    """The size of ``actor``'s Target range bands alone (``target_band_size`` without its explanation, for the
    whole-table engine, which asks it of every unit on every call)."""
    double = actor.is_trooper and actor.trooper_type().double_target_bands
    return bf.distance(12.0 if double else 6.0)


def rifle_band_size(bf: Battlefield, actor: Piece) -> tuple[str | None, float | None, list[Step]]:
    weapon = weapon_of(actor)
    if weapon is None:
        return None, None, [Step(f"{actor.id} carries no rifle", "p.20")]
    steps: list[Step] = []
    w = weapons()[weapon]
    size = w.band
    if weapon == "plasma" and bf.rulings.reads("A1", "B"):
        size = PLASMA_B_BAND
        steps.append(Step(f"plasma rifles use {inches(size)} bands", bf.rulings.label("A1")))
    elif weapon == "plasma":
        steps.append(Step(f"plasma rifles use {inches(size)} bands", "p.20, A1"))
    elif weapon == "mg":
        steps.append(Step(f"drone machine guns use {inches(size)} bands", "A57"))
    else:
        steps.append(Step(f"gauss rifles use {inches(size)} bands", "p.20"))
    if actor.is_trooper:
        ttype = actor.trooper_type()
        if ttype.double_rifle_bands:
            size *= 2
            steps.append(Step(f"Tacticals double their range bands when firing rifles: {inches(size)}", "p.~12"))
        elif ttype.double_target_bands and bf.rulings.reads("A3", "A"):
            size *= 2
            steps.append(Step(f"Scouts double their range bands when firing too: {inches(size)}", bf.rulings.label("A3")))
    if bf.scale != 1.0:
        size = bf.distance(size)
        steps.append(Step(f"small figures: bands scaled by {bf.scale:g} to {inches(size)}", "p.~6, A56"))
    return weapon, size, steps


def measure(bf: Battlefield, a: Piece, b: Piece) -> RangeResult:
    why = Working()
    d = edge_range(a, b)
    why.add(f"range {a.id} to {b.id}: {inches(d)} between the closest edges of the bases", "p.~6")
    tsize, tstep = target_band_size(bf, a)
    why.extend([tstep])
    tband = band_index(bf, d, tsize)
    why.add(f"targeting band {tband} ({band_rule(bf)} with S = {inches(tsize)})", "p.~13")
    weapon, rsize, rsteps = rifle_band_size(bf, a)
    why.extend(rsteps)
    rband = None
    if weapon is not None and rsize is not None:
        rband = band_index(bf, d, rsize)
        why.add(f"rifle band {rband} with S = {inches(rsize)}", "p.20")
    return RangeResult(d, tband, tsize, rband, rsize, weapon, why.freeze())
