"""Photos of known tables, rendered: the markers as printed, seen by a tilted camera, with the faults of real photos.

``render(state, plan, spec)`` draws the table top as the markers sheet says to lay it out (corner markers, a paper
tail under each unit's base, a marker on each blip and objective counter, two on each terrain piece), then looks at
it through a pinhole camera tilted up to 35 degrees from vertical and turned any way round, at 1080p or 4000 pixels,
and adds what a real photo brings: blur, sensor noise, uneven light and a hand over part of the table. It returns the
photo and the truth: every piece's centre and facing, and which markers the hand covers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.capture.plan import DICTIONARY, Marker, MarkerPlan
from referee.game.battle.state import GameState

CLOTH = (60, 110, 70)            # BGR
FLOOR = (40, 50, 70)
TERRAIN_COLOURS = {"woods": (40, 90, 40), "hills": (80, 140, 150), "building": (110, 110, 120),
                   "stream": (160, 110, 60), "swamp": (90, 100, 70), "marsh": (90, 130, 100)}


@dataclass
class PhotoSpec:
    width: int = 1920
    height: int = 1080
    tilt: float = 0.0               # degrees from vertical
    turn: float = 0.0               # degrees: the camera's bearing round the table
    blur: float = 0.0               # Gaussian sigma, in pixels of a 4000-pixel photo (a lens's blur is an angle:
    #                                 the same photo at 1920 pixels is blurred over 1920/4000 as many pixels)
    noise: float = 0.0              # sensor noise, standard deviation (0-255)
    light: float = 0.0              # 0: even; 0.5: one side half as bright as the other
    hand: bool = False              # a hand over part of one marker
    dark: float = 1.0               # overall exposure (0.1 is far too dark)
    seed: int = 0


@dataclass
class Truth:
    pieces: dict[str, tuple[float, float, float | None]] = field(default_factory=dict)   # id -> x, y, facing
    outlines: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    covered: set[int] = field(default_factory=set)          # marker numbers the hand covers
    overlapped: set[int] = field(default_factory=set)       # markers a base or another marker touches (margin too)
    outside: set[int] = field(default_factory=set)          # marker numbers not wholly in the photo
    to_photo: np.ndarray | None = None


def _bitmap(number: int, cells_px: int) -> np.ndarray:
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    return np.asarray(cv2.aruco.generateImageMarker(d, number, 6 * cells_px))


def marker_corners(cx: float, cy: float, size: float, bearing: float) -> np.ndarray:
    """A printed square's corners on the table (top-left, top-right, bottom-right, bottom-left), its top along
    ``bearing``."""
    t = np.array([math.cos(math.radians(bearing)), math.sin(math.radians(bearing))])
    r = np.array([t[1], -t[0]])
    c = np.array([cx, cy])
    h = size / 2
    return np.array([c + h * t - h * r, c + h * t + h * r, c - h * t + h * r, c - h * t - h * r])


class Canvas:
    """The table top seen from straight above, ``ppi`` pixels an inch."""

    def __init__(self, width: float, height: float, ppi: float) -> None:
        self.ppi, self.width, self.height = ppi, width, height
        self.image = np.full((int(round(height * ppi)), int(round(width * ppi)), 3), CLOTH, np.uint8)
        # Which marker each pixel shows (-1: none), so that a marker a later base or marker overlaps is known.
        self.labels = np.full(self.image.shape[:2], -1, np.int16)
        self.areas: dict[int, int] = {}

    def px(self, pts: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        return np.stack([pts[:, 0] * self.ppi, (self.height - pts[:, 1]) * self.ppi], axis=1)

    def polygon(self, pts, colour) -> None:
        cv2.fillPoly(self.image, [np.round(self.px(pts) * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)

    def disc(self, x, y, r, colour) -> None:
        c = self.px([[x, y]])[0]
        centre, radius = (int(round(c[0] * 16)), int(round(c[1] * 16))), int(round(r * self.ppi * 16))
        cv2.circle(self.image, centre, radius, colour, -1, cv2.LINE_AA, shift=4)
        cv2.circle(self.labels, centre, radius, -1, -1, cv2.LINE_8, shift=4)

    def overlapped(self, below: float) -> set[int]:
        """The markers of which nothing drawn later covers the share ``below`` (with their margins): the pixels each
        still shows are counted in one pass over the labels, rather than one pass a marker."""
        counts = np.bincount((self.labels.ravel().astype(np.int64) + 1))
        return {n for n, area in self.areas.items()
                if float(counts[n + 1] if n + 1 < len(counts) else 0) / max(1, area) < below}

    def marker(self, number: int, cx: float, cy: float, size: float, bearing: float, margin: float) -> None:
        """A marker printed with a white margin, its top along ``bearing``."""
        outline = marker_corners(cx, cy, size + 2 * margin, bearing)
        self.polygon(outline, (235, 235, 235))
        cv2.fillPoly(self.labels, [np.round(self.px(outline) * 16).astype(np.int32)], number, cv2.LINE_8, shift=4)
        self.areas[number] = int(np.count_nonzero(self.labels == number))
        cells = max(4, int(math.ceil(size * self.ppi / 6)))
        bitmap = _bitmap(number, cells)
        n = bitmap.shape[0]
        dst = self.px(marker_corners(cx, cy, size, bearing)).astype(np.float32)
        src = np.array([[0, 0], [n, 0], [n, n], [0, n]], dtype=np.float32)
        x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.image.shape[1]), min(y1, self.image.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        m = cv2.getAffineTransform(src[:3], (dst - [x0, y0]).astype(np.float32)[:3])
        patch = cv2.warpAffine(bitmap, m, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA, borderValue=255)
        ink = (patch.astype(np.float32) / 255.0)[..., None]
        roi = self.image[y0:y1, x0:x1].astype(np.float32)
        mask = cv2.warpAffine(np.ones_like(bitmap, np.float32), m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)[..., None]
        white = np.full_like(roi, 235.0)
        self.image[y0:y1, x0:x1] = (roi * (1 - mask) + (white * ink + 20 * (1 - ink)) * mask).astype(np.uint8)


def table_top(state: GameState, plan: MarkerPlan, ppi: float, moved: dict[str, tuple[float, float, float]] | None = None
              ) -> tuple[Canvas, Truth]:
    """The table top: terrain (``moved`` carries a piece by (dx, dy, turn about the origin, degrees) from where the
    plan printed its markers), units on their bases with tails, counters, and the four corner markers."""
    canvas, truth = Canvas(state.width, state.height, ppi), Truth()
    moved = moved or {}
    for t in state.terrain:
        if t.id not in plan.outlines:
            continue
        dx, dy, turn = moved.get(t.id, (0.0, 0.0, 0.0))
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        outline = [(c * x - s * y + dx, s * x + c * y + dy) for x, y in plan.outlines[t.id]]
        truth.outlines[t.id] = outline
        canvas.polygon(outline, TERRAIN_COLOURS.get(t.type, (90, 90, 90)))
        cx = sum(p[0] for p in outline) / len(outline)
        cy = sum(p[1] for p in outline) / len(outline)
        truth.pieces[t.id] = (cx, cy, None)
    for t in state.terrain:
        if t.id not in plan.outlines:
            continue
        dx, dy, turn = moved.get(t.id, (0.0, 0.0, 0.0))
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        for m in plan.of_piece(t.id):
            canvas.marker(m.number, c * m.x - s * m.y + dx, s * m.x + c * m.y + dy, m.size, 90.0 + turn, 0.12)
    for m in plan.corners():
        canvas.marker(m.number, m.x, m.y, m.size, 90.0, 0.15)
    for o in state.objectives.values():
        if o.destroyed or not plan.of_piece(o.id):
            continue
        canvas.disc(o.x, o.y, o.base / 2 + 0.1, (30, 30, 160))
        canvas.marker(plan.of_piece(o.id)[0].number, o.x, o.y, plan.of_piece(o.id)[0].size, 90.0, 0.08)
        truth.pieces[o.id] = (o.x, o.y, None)
    for b in state.blips.values():
        if not plan.of_piece(b.id):
            continue
        canvas.disc(b.x, b.y, b.base / 2, (20, 20, 20))
        canvas.marker(plan.of_piece(b.id)[0].number, b.x, b.y, plan.of_piece(b.id)[0].size, 90.0 + 7 * len(b.id), 0.08)
        truth.pieces[b.id] = (b.x, b.y, None)
    for u in state.units.values():
        ms = plan.of_piece(u.id)
        if not ms:
            continue
        m: Marker = ms[0]
        back = (u.x - m.tail * math.cos(math.radians(u.facing)), u.y - m.tail * math.sin(math.radians(u.facing)))
        canvas.marker(m.number, back[0], back[1], m.size, u.facing, 0.06)
        canvas.disc(u.x, u.y, u.base / 2, (25, 25, 25))
        canvas.disc(u.x, u.y, u.base * 0.3, (120, 140, 150) if u.side == "A" else (150, 120, 110))
        truth.pieces[u.id] = (u.x, u.y, u.facing % 360.0)
    truth.overlapped = canvas.overlapped(0.995)
    return canvas, truth


def camera(spec: PhotoSpec, width: float, height: float) -> np.ndarray:
    """The homography from table inches to photo pixels of a pinhole camera aimed at the table's centre."""
    th, ps = math.radians(spec.tilt), math.radians(spec.turn)
    rz = np.array([[math.cos(ps), -math.sin(ps), 0], [math.sin(ps), math.cos(ps), 0], [0, 0, 1]])
    r0 = np.diag([1.0, -1.0, -1.0])                   # straight down: the photo's rows run down the table
    rx = np.array([[1, 0, 0], [0, math.cos(th), -math.sin(th)], [0, math.sin(th), math.cos(th)]])
    r = rx @ r0 @ rz
    dist = 1.6 * math.hypot(width, height)
    shift = np.array([[1, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1]])
    base = np.column_stack([r[:, 0], r[:, 1], [0, 0, dist]]) @ shift
    corners = np.array([[0, 0, 1], [width, 0, 1], [width, height, 1], [0, height, 1]], dtype=np.float64).T
    p = base @ corners
    uv = p[:2] / p[2]
    lo, hi = uv.min(axis=1), uv.max(axis=1)
    f = 0.92 * min(spec.width / (hi[0] - lo[0]), spec.height / (hi[1] - lo[1]))
    cx = spec.width / 2 - f * (lo[0] + hi[0]) / 2
    cy = spec.height / 2 - f * (lo[1] + hi[1]) / 2
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]])
    return k @ base


def render(state: GameState, plan: MarkerPlan, spec: PhotoSpec,
           moved: dict[str, tuple[float, float, float]] | None = None) -> tuple[np.ndarray, Truth]:
    rng = np.random.default_rng(spec.seed)
    h = camera(spec, state.width, state.height)
    # Draw the table top at about the photo's own resolution there (never coarser), then look at it.
    table_px = np.linalg.norm((h @ [state.width, 0, 1])[:2] / (h @ [state.width, 0, 1])[2]
                              - (h @ [0, 0, 1])[:2] / (h @ [0, 0, 1])[2])
    ppi = max(24.0, min(130.0, 1.5 * table_px / state.width))
    canvas, truth = table_top(state, plan, ppi, moved)
    from_canvas = h @ np.array([[1 / ppi, 0, 0], [0, -1 / ppi, state.height], [0, 0, 1]])
    photo = cv2.warpPerspective(canvas.image, from_canvas, (spec.width, spec.height), flags=cv2.INTER_AREA,
                                borderValue=FLOOR)
    truth.to_photo = h
    for m in plan.markers.values():
        pts = _marker_in_photo(m, state, truth, h)
        if pts is None or pts.min() < 0 or (pts[:, 0] >= spec.width).any() or (pts[:, 1] >= spec.height).any():
            truth.outside.add(m.number)
    img = photo.astype(np.float32)
    if spec.hand:
        _hand(img, plan, state, truth, h, rng)
    if spec.light:
        a = rng.uniform(0, 2 * math.pi)
        across = np.float32(np.cos(a)) * (np.arange(spec.width, dtype=np.float32) / spec.width - 0.5)
        down = np.float32(np.sin(a)) * (np.arange(spec.height, dtype=np.float32) / spec.height - 0.5)
        img *= (1.0 - spec.light * (across[None, :] + down[:, None] + 0.5))[..., None]
    if spec.dark != 1.0:
        img *= spec.dark
    if spec.blur:
        img = cv2.GaussianBlur(img, (0, 0), spec.blur * max(spec.width, spec.height) / 4000)
    if spec.noise:
        img += np.float32(spec.noise) * rng.standard_normal(img.shape, dtype=np.float32)
    return np.clip(img, 0, 255).astype(np.uint8), truth


def _marker_in_photo(m: Marker, state: GameState, truth: Truth, h: np.ndarray) -> np.ndarray | None:
    if m.kind in ("corner",):
        pts = marker_corners(m.x, m.y, m.size, 90.0)
    elif m.piece in state.units:
        u = state.units[m.piece]
        f = math.radians(u.facing)
        pts = marker_corners(u.x - m.tail * math.cos(f), u.y - m.tail * math.sin(f), m.size, u.facing)
    elif m.kind == "terrain" or m.piece not in truth.pieces:
        x, y, _ = truth.pieces.get(m.piece, (m.x, m.y, None))
        pts = marker_corners(m.x, m.y, m.size, 90.0) if m.kind == "terrain" else marker_corners(x, y, m.size, 90.0)
    else:
        x, y, _ = truth.pieces[m.piece]
        pts = marker_corners(x, y, m.size, 90.0)
    p = cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)
    return np.asarray(p)


def _hand(img: np.ndarray, plan: MarkerPlan, state: GameState, truth: Truth, h: np.ndarray,
          rng: np.random.Generator) -> None:
    """A hand (a skin-coloured blob) over a third of one unit's marker, reaching in from the photo's edge."""
    units = [m for m in plan.markers.values() if m.kind == "unit" and m.piece in state.units]
    if not units:
        return
    m = units[int(rng.integers(len(units)))]
    pts = _marker_in_photo(m, state, truth, h)
    if pts is None:
        return
    centre = pts.mean(axis=0)
    side = float(np.linalg.norm(pts[0] - pts[1]))
    tip = centre + rng.normal(0, 0.15 * side, 2)
    edge = np.array([img.shape[1] * rng.uniform(0.2, 0.8), img.shape[0] + 50.0])
    width = max(6.0, 0.9 * side)
    d = tip - edge
    n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
    poly = np.array([edge + n * width * 3, tip + n * width / 2, tip - n * width / 2, edge - n * width * 3])
    cv2.fillPoly(img, [np.round(poly).astype(np.int32)], (120, 150, 200), cv2.LINE_AA)
    # Every marker the hand or its arm lies over, not only the one it reaches for.
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
    for other in plan.markers.values():
        quad = _marker_in_photo(other, state, truth, h)
        if quad is None:
            continue
        x0, y0 = np.floor(quad.min(axis=0)).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        x0, y0 = max(x0, 0), max(y0, 0)
        if x1 <= x0 or y1 <= y0 or not mask[y0:y1, x0:x1].any():
            continue
        box = np.zeros_like(mask[y0:y1, x0:x1])
        cv2.fillPoly(box, [np.round(quad - [x0, y0]).astype(np.int32)], 1)
        if (box & mask[y0:y1, x0:x1]).any():
            truth.covered.add(other.number)
