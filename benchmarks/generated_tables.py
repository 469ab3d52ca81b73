"""Generated tables unlike the standard one, for the scaling figures: star-shaped woods of 10-28 vertices, rotated
ellipse hills, rectangular buildings at any angle, bushes and craters, with any number of units a side.

``generated_scenario(units_a_side, pieces, seed)`` is deterministic for its arguments. The table grows with the
number of units so that they still fit their deployment zones (36" x 36" up to 16 a side, 48" x 48" beyond).
"""

from __future__ import annotations

import math
import random

import shapely

from referee.rules.battlefield import Battlefield, battlefield_from_scenario
from referee.rules.scenario import Scenario, parse_scenario

from .standard_table import DRONES, FACTIONS, TROOPERS

# Kinds of terrain and their share of the pieces; the blocking ones are hills, buildings and rocks.
MIX = [("woods", 4), ("hills", 3), ("large-building", 2), ("civilian-building", 1), ("bush", 2), ("crater", 1),
       ("rock-formation", 1)]


def table_size(units_a_side: int) -> float:
    return 36.0 if units_a_side <= 16 else 48.0


def _star(rng: random.Random, cx: float, cy: float, size: float) -> list[list[float]]:
    """A star-shaped wood: 10-28 vertices at irregular radii around (cx, cy)."""
    n = rng.randint(10, 28)
    step = 2 * math.pi / n
    turn = rng.uniform(0, 2 * math.pi)
    pts = []
    for k in range(n):
        a = turn + k * step + rng.uniform(-0.3, 0.3) * step
        r = size * (rng.uniform(0.75, 1.0) if k % 2 == 0 else rng.uniform(0.35, 0.7))
        pts.append([round(cx + r * math.cos(a), 3), round(cy + r * math.sin(a), 3)])
    return pts


def _ellipse(rng: random.Random, cx: float, cy: float, size: float) -> list[list[float]]:
    """A hill: an ellipse of 20-32 vertices, rotated by any angle."""
    n = rng.randint(20, 32)
    a, b = size, size * rng.uniform(0.45, 0.8)
    turn = rng.uniform(0, math.pi)
    c, s = math.cos(turn), math.sin(turn)
    pts = []
    for k in range(n):
        t = 2 * math.pi * k / n
        x, y = a * math.cos(t), b * math.sin(t)
        pts.append([round(cx + x * c - y * s, 3), round(cy + x * s + y * c, 3)])
    return pts


def _rectangle(rng: random.Random, cx: float, cy: float, size: float) -> list[list[float]]:
    """A building: a rectangle at any angle."""
    w, h = size * rng.uniform(0.6, 1.0), size * rng.uniform(0.4, 0.8)
    turn = rng.uniform(0, math.pi)
    c, s = math.cos(turn), math.sin(turn)
    return [[round(cx + x * c - y * s, 3), round(cy + x * s + y * c, 3)]
            for x, y in ((-w, -h), (w, -h), (w, h), (-w, h))]


def _terrain(rng: random.Random, pieces: int, width: float, height: float) -> tuple[list[dict], list]:
    kinds = [k for k, share in MIX for _ in range(share)]
    size = min(3.5, max(1.0, 0.3 * math.sqrt(width * height / max(pieces, 1))))
    terrain, shapes = [], []
    for i in range(pieces):
        kind = kinds[i % len(kinds)]
        for _ in range(300):
            cx, cy = rng.uniform(2, width - 2), rng.uniform(2, height - 2)
            s = size * rng.uniform(0.7, 1.2)
            if kind == "crater":
                r = round(min(s * 0.5, 1.5), 3)
                entry = {"id": f"{kind}-{i}", "type": kind, "circle": {"x": round(cx, 3), "y": round(cy, 3), "r": r}}
                geom = shapely.Point(cx, cy).buffer(r)
            else:
                make = {"woods": _star, "bush": _star, "hills": _ellipse, "rock-formation": _ellipse}.get(kind, _rectangle)
                pts = make(rng, cx, cy, s)
                geom = shapely.Polygon(pts)
                if not geom.is_valid or geom.area < 0.5:
                    continue
                entry = {"id": f"{kind}-{i}", "type": kind, "polygon": pts}
            if any(geom.distance(g) < 0.3 for g in shapes):
                continue
            terrain.append(entry)
            shapes.append(geom)
            break
    return terrain, shapes


def generated_scenario(units_a_side: int = 16, pieces: int = 30, seed: int = 1) -> Scenario:
    rng = random.Random(f"{seed}-{units_a_side}-{pieces}")
    width = height = table_size(units_a_side)
    terrain, shapes = _terrain(rng, pieces, width, height)
    blocking = [g for g, t in zip(shapes, terrain) if t["type"] in ("hills", "large-building", "rock-formation")]
    zone = height * 0.4
    types = TROOPERS + DRONES
    units, placed = [], []
    for side, (y0, y1) in (("A", (1.0, zone)), ("B", (height - zone, height - 1.0))):
        for k in range(units_a_side):
            utype = types[k % len(types)]
            for _ in range(1000):
                x, y = rng.uniform(1, width - 1), rng.uniform(y0, y1)
                if any(math.hypot(x - px, y - py) < 1.2 for px, py in placed):
                    continue
                if any(g.distance(shapely.Point(x, y)) < 0.6 for g in blocking):
                    continue
                break
            placed.append((x, y))
            u = {"id": f"{side.lower()}-{k + 1:03d}-{utype}", "side": side, "faction": FACTIONS[side],
                 "rating": rng.choice(["spec-ops", "veteran", "reserve"]), "type": utype,
                 "x": round(x, 3), "y": round(y, 3)}
            if utype in TROOPERS:
                u["facing"] = round(rng.uniform(0, 360), 1)
            units.append(u)
    data = {"name": f"Generated table ({units_a_side} a side, {pieces} pieces)",
            "table": {"width": width, "height": height}, "terrain": terrain, "units": units}
    return parse_scenario(data, f"generated-{units_a_side}-{pieces}-{seed}")


def generated_table(units_a_side: int = 16, pieces: int = 30, seed: int = 1) -> Battlefield:
    return battlefield_from_scenario(generated_scenario(units_a_side, pieces, seed))
