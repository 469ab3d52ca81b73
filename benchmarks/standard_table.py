"""The standard benchmark table: 36" x 36", 30 terrain pieces of mixed types, 16 units a side, fixed seed."""

from __future__ import annotations

import math
import random

import shapely

from referee.rules.battlefield import Battlefield, battlefield_from_scenario
from referee.rules.scenario import Scenario, parse_scenario

SEED = 7
WIDTH = HEIGHT = 36.0

# 30 pieces: (type, how many); blocking hills, buildings and rocks among them.
TERRAIN_MIX = [
    ("hills", 5), ("large-building", 3), ("rock-formation", 2), ("woods", 6), ("bush", 4),
    ("civilian-building", 3), ("broken-ground", 2), ("swamp", 1), ("marsh", 1), ("stream", 1), ("crater", 2),
]
TROOPERS = ["commander", "tactical", "tactical", "tactical", "assault", "assault", "scout", "scout",
            "engineer", "tactical", "assault", "scout"]
DRONES = ["basic-drone", "recce-drone", "kamikaze-drone", "haywire-drone"]
FACTIONS = {"A": "council-of-zane", "B": "new-tokyo"}


def _polygon(rng: random.Random, cx: float, cy: float, size: float, concave: bool) -> list[list[float]]:
    """A random star-shaped polygon around (cx, cy): convex-ish, or with notches when ``concave``."""
    n = rng.randint(5, 9)
    angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(n))
    pts = []
    for k, a in enumerate(angles):
        r = size * rng.uniform(0.65, 1.0)
        if concave and k % 2 == 1:
            r *= 0.5
        pts.append([round(cx + r * math.cos(a), 3), round(cy + r * math.sin(a), 3)])
    return pts


def standard_scenario(seed: int = SEED) -> Scenario:
    rng = random.Random(seed)
    terrain, shapes = [], []
    kinds = [t for t, k in TERRAIN_MIX for _ in range(k)]
    for i, kind in enumerate(kinds):
        for _ in range(200):
            cx, cy = rng.uniform(3, WIDTH - 3), rng.uniform(4, HEIGHT - 4)
            if kind == "crater":
                r = round(rng.uniform(0.8, 1.5), 3)
                entry = {"id": f"{kind}-{i}", "type": kind, "circle": {"x": round(cx, 3), "y": round(cy, 3), "r": r}}
                geom = shapely.Point(cx, cy).buffer(r)
            else:
                size = rng.uniform(1.5, 3.2)
                pts = _polygon(rng, cx, cy, size, concave=rng.random() < 0.35)
                geom = shapely.Polygon(pts)
                if not geom.is_valid or geom.area < 1.0:
                    continue
                entry = {"id": f"{kind}-{i}", "type": kind, "polygon": pts}
            if any(geom.distance(g) < 0.3 for g in shapes):
                continue
            terrain.append(entry)
            shapes.append(geom)
            break
    blocking = [g for g, t in zip(shapes, terrain) if t["type"] in ("hills", "large-building", "rock-formation")]
    units, placed = [], []
    for side, (y0, y1) in (("A", (1.0, 14.0)), ("B", (22.0, 35.0))):
        types = TROOPERS + DRONES
        for k, utype in enumerate(types):
            for _ in range(500):
                x, y = rng.uniform(1, WIDTH - 1), rng.uniform(y0, y1)
                if any(math.hypot(x - px, y - py) < 1.2 for px, py in placed):
                    continue
                if any(g.distance(shapely.Point(x, y)) < 0.6 for g in blocking):
                    continue
                break
            placed.append((x, y))
            u = {"id": f"{side.lower()}-{k + 1:02d}-{utype}", "side": side, "faction": FACTIONS[side],
                 "rating": rng.choice(["spec-ops", "veteran", "reserve"]), "type": utype,
                 "x": round(x, 3), "y": round(y, 3)}
            if utype in TROOPERS:
                u["facing"] = 90.0 if side == "A" else 270.0
            if utype == "haywire-drone" and side == "B":
                u["jammer_on"] = True
            units.append(u)
    data = {"name": "Standard benchmark table", "table": {"width": WIDTH, "height": HEIGHT},
            "terrain": terrain, "units": units}
    return parse_scenario(data, "standard-table")


def standard_table(seed: int = SEED) -> Battlefield:
    """The standard table as a Battlefield (30 terrain pieces, 32 units)."""
    return battlefield_from_scenario(standard_scenario(seed))


if __name__ == "__main__":
    bf = standard_table()
    print(f"{len(bf.terrain)} terrain pieces ({sum(f.blocking for f in bf.terrain)} blocking), "
          f"{sum(1 for _ in bf.units())} units")
