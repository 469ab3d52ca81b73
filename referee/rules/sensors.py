"""Passive sensors (p.18, A15, A16): what a unit detects within 6\" where it stands."""

from __future__ import annotations

from dataclasses import dataclass

from .battlefield import Battlefield, Piece
from .explain import Step, Working, inches
from .geometry import edge_range
from .numbers import at_most
from .sight import cover, line_of_sight

PASSIVE_RANGE = 6.0


def enemies_in_passive_range(bf: Battlefield, mover: Piece) -> list[Piece]:
    """The enemy pieces ``mover`` is linked to by passive sensors where it stands: a blip ending a Move or Jump with
    any is revealed first (p.18, A15). The engine and the Move preview both ask this."""
    return [p for p in bf.enemies_of(mover.side) if sensor_link(bf, mover, p)]


@dataclass(frozen=True)
class PassiveResult:
    detects: tuple[str, ...]
    objectives: tuple[str, ...]
    explain: tuple[Step, ...]


def sensor_link(bf: Battlefield, a: Piece, b: Piece, why: Working | None = None) -> bool:
    """Within 6\" edge to edge (inclusive) and not separated by blocking terrain (A15, 50 % rule A9)."""
    limit = bf.distance(PASSIVE_RANGE)
    d = edge_range(a, b)
    if not at_most(d, limit):
        return False
    los = line_of_sight(bf, a, b)
    if not los.visible:
        if why is not None:
            why.add(f"{b.id} at {inches(d)} is behind blocking terrain ({', '.join(los.blocked_by)})", "p.18", "A15")
        return False
    if bf.rulings.reads("A15", "B"):
        cov = cover(bf, a, b, los)
        if cov.blocked:
            if why is not None:
                why.add(f"{b.id} at {inches(d)} is behind more than 3\" of Heavy cover", bf.rulings.label("A15"))
            return False
    if why is not None:
        why.add(f"{b.id} at {inches(d)}: within {inches(limit)}", "p.18", "A15")
    return True


def passive_sensors(bf: Battlefield, mover: Piece) -> PassiveResult:
    why = Working()
    why.add(f"passive sensors reach {inches(bf.distance(PASSIVE_RANGE))} edge to edge; only blocking terrain breaks them", "p.18", bf.rulings.label("A15"))
    detects = []
    for other in sorted(bf.enemies_of(mover.side), key=lambda p: (edge_range(mover, p), p.id)):
        if sensor_link(bf, mover, other, why):
            detects.append(other.id)
    objectives = []
    for obj in sorted((p for p in bf.pieces.values() if p.is_objective), key=lambda p: (edge_range(mover, p), p.id)):
        if sensor_link(bf, mover, obj, why):
            objectives.append(obj.id)
    if not detects and not objectives:
        why.add("nothing within range", "p.18")
    return PassiveResult(tuple(detects), tuple(objectives), why.freeze())
