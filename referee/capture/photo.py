"""A photo of the table read into table inches: corners, perspective, each piece's centre, facing and confidence.

OpenCV finds the markers (``cv2.aruco``, sub-pixel corners). The table-corner markers give the homography from the
photo to the table plane (every printed corner of every corner marker seen, so three corners are enough and a tilted
camera is corrected exactly); each other marker's four corners are carried through it onto the table, where its
centre and its top's direction give the piece's centre and facing. Everything the reading cannot vouch for is a
``Problem`` with a plain sentence: no corners, a marker seen twice, a unit not found (with where it should be in the
photo, to ring it), too blurred, too dark, markers of another table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..rules.errors import InputError
from .plan import DICTIONARY, Marker, MarkerPlan

DARK = 45.0          # mean brightness (0-255) under which a photo is too dark to trust
UPSCALE_BELOW = 2500 # pixels: a photo smaller than this is read at twice its size
BLURRED = 12.0       # variance of the Laplacian under which a photo is too blurred


@dataclass
class PieceReading:
    """Where one piece stands according to the photo."""

    piece: str
    kind: str
    x: float
    y: float
    facing: float | None              # units only: degrees counter-clockwise from +x
    confidence: float                 # 0-1: how square and how big its marker came out
    outline: list[tuple[float, float]] | None = None     # terrain: its polygon as read
    turn: float = 0.0                 # terrain: degrees turned since the table file
    markers: int = 1                  # how many of its markers were read


@dataclass
class Problem:
    """Something the photo does not let the program say; ``at`` is a point of the photo to ring (pixels)."""

    kind: str            # no-corners, twice, not-found, blurred, dark, another-table, unknown-marker
    text: str
    piece: str = ""
    at: tuple[float, float] | None = None


@dataclass
class TableReading:
    pieces: dict[str, PieceReading] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    seen: dict[int, np.ndarray] = field(default_factory=dict)     # marker number -> its 4 corners in the photo
    unknown: list[int] = field(default_factory=list)              # marker numbers no piece of this table has
    to_photo: np.ndarray | None = None                            # homography: table inches -> photo pixels
    size: tuple[int, int] = (0, 0)                                # photo width, height

    @property
    def usable(self) -> bool:
        return self.to_photo is not None

    def in_photo(self, x: float, y: float) -> tuple[float, float] | None:
        if self.to_photo is None:
            return None
        p = cv2.perspectiveTransform(np.array([[[x, y]]], dtype=np.float64), self.to_photo)[0, 0]
        return float(p[0]), float(p[1])


def _detector() -> Any:
    params = cv2.aruco.DetectorParameters()
    # Corners from the lines fitted to each edge's contour: a facing read from a 20-pixel marker within a degree
    # (measured against sub-pixel corners, 2 degrees at p95, and AprilTag's refinement, as good but 4 times slower).
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_CONTOUR
    # A misread id is worse than a missed marker: the players see a missed one ringed, a misread one not at all.
    params.errorCorrectionRate = 0.3
    params.adaptiveThreshWinSizeMax = 53
    params.minMarkerPerimeterRate = 0.008
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY)), params)


def load_photo(path: Path | str) -> np.ndarray:
    """The photo file as a BGR image, or a clear error naming the file."""
    p = Path(path)
    if not p.is_file():
        raise InputError(str(p), "no such photo file")
    data = np.fromfile(str(p), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise InputError(str(p), "not a photo OpenCV can read (expected a JPEG, PNG, BMP, TIFF or WebP image)")
    return image


def webcam_frame(device: int = 0) -> np.ndarray:
    """One frame from a camera OpenCV can open, or a clear error."""
    cam = cv2.VideoCapture(device)
    try:
        if not cam.isOpened():
            raise InputError(f"camera {device}", "no camera could be opened")
        for _ in range(3):            # the first frames of many cameras are dark while the exposure settles
            ok, frame = cam.read()
        if not ok or frame is None:
            raise InputError(f"camera {device}", "the camera gave no picture")
        return np.asarray(frame)
    finally:
        cam.release()


def _quality(grey: np.ndarray) -> tuple[float, float]:
    """Mean brightness and sharpness (variance of the Laplacian) of a photo, on a copy at most 1000 pixels wide."""
    k = max(1, grey.shape[1] // 1000)
    small = grey[::k, ::k]
    return float(small.mean()), float(cv2.Laplacian(small, cv2.CV_64F).var())


def _to_table(points: np.ndarray, h: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2))


def _pose(corners_table: np.ndarray) -> tuple[float, float, float, float]:
    """A printed square on the table: its centre, the bearing of its top, and how far from a square it came out
    (inches: side lengths and diagonals against their mean)."""
    tl, tr, br, bl = corners_table
    cx, cy = corners_table.mean(axis=0)
    up = (tl + tr) / 2 - (bl + br) / 2
    right = (tr + br) / 2 - (tl + bl) / 2
    # The top's bearing, averaged with the right side's turned a quarter back: both edges of the square vote.
    a1 = math.atan2(up[1], up[0])
    a2 = math.atan2(right[1], right[0]) + math.pi / 2
    bearing = math.degrees(math.atan2(math.sin(a1) + math.sin(a2), math.cos(a1) + math.cos(a2))) % 360.0
    sides = [float(np.linalg.norm(corners_table[i] - corners_table[(i + 1) % 4])) for i in range(4)]
    mean = sum(sides) / 4
    skew = max(abs(s - mean) for s in sides)
    return float(cx), float(cy), bearing, skew


def read_photo(image: np.ndarray, plan: MarkerPlan) -> TableReading:
    """Read every piece of ``plan`` a photo shows; problems say what it could not read and why."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    out = TableReading(size=(int(grey.shape[1]), int(grey.shape[0])))
    brightness, sharpness = _quality(grey)
    # A small photo is read at twice its size: a marker across the table spans a dozen pixels there, and the
    # detector's thresholds and corner refinement need more.
    scale = 2.0 if max(grey.shape) < UPSCALE_BELOW else 1.0
    looked = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC) if scale != 1.0 else grey
    found, ids, _ = _detector().detectMarkers(looked)
    found = tuple((np.asarray(c, dtype=np.float64) + 0.5) / scale - 0.5 for c in found)
    numbers = [] if ids is None else [int(i) for i in ids.reshape(-1)]
    by_number: dict[int, list[np.ndarray]] = {}
    for n, c in zip(numbers, found):
        by_number.setdefault(n, []).append(np.asarray(c, dtype=np.float64).reshape(4, 2))
    unknown = out.unknown = sorted(n for n in by_number if n not in plan.markers)
    for n, seen in sorted(by_number.items()):
        if n in plan.markers and len(seen) > 1:
            m = plan.markers[n]
            spots = " and ".join(f"({p[0]:.0f}, {p[1]:.0f})" for p in (s.mean(axis=0) for s in seen))
            out.problems.append(Problem("twice", f"marker {n} ({m.label()}) is seen {len(seen)} times, at pixels "
                                        f"{spots}: a copy is on the table, so {m.piece} is not read from it",
                                        m.piece, tuple(seen[0].mean(axis=0))))
        elif n in plan.markers:
            out.seen[n] = seen[0]
    if len(unknown) >= 3 and len(unknown) > len(out.seen) // 2:
        out.problems.append(Problem("another-table", f"markers {', '.join(map(str, unknown))} belong to no piece of "
                                    f"this table: is this a photo of another table?"))
    corners = [m for m in plan.corners() if m.number in out.seen]
    if len(corners) < 3:
        missing = [m.piece.removeprefix("corner-") for m in plan.corners() if m.number not in out.seen]
        kind, why = "no-corners", ""
        if brightness < DARK:
            kind = "dark"
            why = f" The photo is too dark (mean brightness {brightness:.0f} of 255): light the table or open the aperture."
        elif sharpness < BLURRED:
            kind = "blurred"
            why = f" The photo is too blurred (sharpness {sharpness:.0f}, at least {BLURRED:g} needed): hold still."
        out.problems.append(Problem(kind, f"the table's corners were not found (missing: {', '.join(missing)}; "
                                    f"at least 3 of the 4 corner markers must be in the photo).{why}"))
        return out
    src = np.concatenate([out.seen[m.number] for m in corners])
    dst = np.array([p for m in corners for p in plan.corner_points(m)], dtype=np.float64)
    h, _mask = cv2.findHomography(src, dst, 0)
    if h is None:
        out.problems.append(Problem("no-corners", "the corner markers do not make a table (are they stuck at the "
                                    "table's four corners, their tops towards the far edge?)"))
        return out
    out.to_photo = np.linalg.inv(h)
    for m in corners:
        residual = float(np.abs(_to_table(out.seen[m.number], h) - np.array(plan.corner_points(m))).max())
        if residual > 0.75:             # a lens bends the corners a little; another table's size is inches off
            out.problems.append(Problem("another-table", f"the corner markers are not where a {plan.width:g}\" x "
                                        f"{plan.height:g}\" table puts them ({m.label()} is {residual:.1f}\" off): "
                                        "a photo of another table, or a corner marker moved?"))
            break
    _read_pieces(out, plan, h)
    _not_this_table(out, plan)
    if brightness < DARK:
        out.problems.append(Problem("dark", f"the photo is dark (mean brightness {brightness:.0f} of 255): pieces may "
                                    "be missed"))
    if sharpness < BLURRED:
        out.problems.append(Problem("blurred", f"the photo is blurred (sharpness {sharpness:.0f}): pieces may be "
                                    "missed"))
    return out


def _not_this_table(out: TableReading, plan: MarkerPlan) -> None:
    """Terrain seldom drifts more than an inch: when most pieces read stand far from where the table file has them,
    the photo shows another table laid out with the same marker numbers."""
    drifts = []
    for r in out.pieces.values():
        if r.kind == "terrain" and r.outline:
            then = plan.outlines[r.piece]
            drifts.append(math.hypot(r.x - sum(p[0] for p in then) / len(then), r.y - sum(p[1] for p in then) / len(then)))
    far = [d for d in drifts if d > 3.0]
    if len(drifts) >= 3 and len(far) > len(drifts) / 2 and not any(p.kind == "another-table" for p in out.problems):
        out.problems.append(Problem("another-table", f"{len(far)} of the {len(drifts)} terrain pieces read stand more "
                                    "than 3\" from where this table has them: is this a photo of another table?"))


def _confidence(skew: float, side_px: float, size: float) -> float:
    """1 for a sharp, square marker of many pixels; falls as it comes out skewed or tiny."""
    shape = max(0.0, 1.0 - skew / (0.1 * size))
    pixels = min(1.0, side_px / 18.0)
    return round(shape * pixels, 2)


def _read_pieces(out: TableReading, plan: MarkerPlan, h: np.ndarray) -> None:
    terrain: dict[str, list[tuple[Marker, float, float, float, float]]] = {}
    for n, corners_px in out.seen.items():
        m = plan.markers[n]
        if m.kind == "corner":
            continue
        cx, cy, bearing, skew = _pose(_to_table(corners_px, h))
        side_px = float(np.mean([np.linalg.norm(corners_px[i] - corners_px[(i + 1) % 4]) for i in range(4)]))
        conf = _confidence(skew, side_px, m.size)
        if m.kind == "unit":
            rad = math.radians(bearing)
            x, y = cx + m.tail * math.cos(rad), cy + m.tail * math.sin(rad)
            out.pieces[m.piece] = PieceReading(m.piece, m.kind, x, y, bearing, conf)
        elif m.kind == "terrain":
            terrain.setdefault(m.piece, []).append((m, cx, cy, bearing, conf))
        else:
            out.pieces[m.piece] = PieceReading(m.piece, m.kind, cx, cy, None, conf)
    for piece, seen in terrain.items():
        out.pieces[piece] = _terrain_reading(piece, seen, plan)
    for m in plan.markers.values():
        if m.kind == "corner" or m.piece in out.pieces or any(p.piece == m.piece for p in out.problems):
            continue
        out.problems.append(Problem("not-found", f"{m.piece} was not found (marker {m.number}): is it covered, or "
                                    "off the table?", m.piece))


def _terrain_reading(piece: str, seen: list[tuple[Marker, float, float, float, float]], plan: MarkerPlan) -> PieceReading:
    """A terrain piece is rigid: its markers' turn (each printed top was towards the far edge) and where they went
    give the move of the whole piece: its outline as read, and ``x, y`` that outline's centre (the mean of its corners)."""
    s = sum(math.sin(math.radians(b - 90.0)) for _, _, _, b, _ in seen)
    c = sum(math.cos(math.radians(b - 90.0)) for _, _, _, b, _ in seen)
    if len(seen) == 2:
        (m1, x1, y1, _, _), (m2, x2, y2, _, _) = seen
        # Two markers: the line between them turns with the piece, a finer measure than one marker's edges.
        a_then = math.atan2(m2.y - m1.y, m2.x - m1.x)
        a_now = math.atan2(y2 - y1, x2 - x1)
        s, c = math.sin(a_now - a_then), math.cos(a_now - a_then)
    turn = math.atan2(s, c)
    cos_t, sin_t = math.cos(turn), math.sin(turn)
    # The translation that carries the printed spots, turned, onto where they were seen (their mean).
    tx = sum(x - (cos_t * m.x - sin_t * m.y) for m, x, _, _, _ in seen) / len(seen)
    ty = sum(y - (sin_t * m.x + cos_t * m.y) for m, _, y, _, _ in seen) / len(seen)
    conf = round(min(cf for *_, cf in seen) * (1.0 if len(seen) > 1 else 0.8), 2)
    outline = [(cos_t * x - sin_t * y + tx, sin_t * x + cos_t * y + ty) for x, y in plan.outlines[piece]]
    cx = sum(p[0] for p in outline) / len(outline)
    cy = sum(p[1] for p in outline) / len(outline)
    return PieceReading(piece, "terrain", cx, cy, None, conf, outline=outline, turn=math.degrees(turn),
                        markers=len(seen))
