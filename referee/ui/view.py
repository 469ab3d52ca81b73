"""Table inches <-> screen pixels: zoom, pan and fit. Side A's edge (y = 0) is at the bottom of the screen."""

from __future__ import annotations

from dataclasses import dataclass

MIN_SCALE = 2.0       # pixels per inch
MAX_SCALE = 240.0


@dataclass
class ViewTransform:
    """``scale`` pixels per inch; the table corner (0, height) -- side B's left -- is drawn at (``ox``, ``oy``).

    Table y grows toward side B, screen y grows downward, so y is flipped.
    """

    table_width: float
    table_height: float
    scale: float = 20.0
    ox: float = 0.0
    oy: float = 0.0

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return (self.ox + x * self.scale, self.oy + (self.table_height - y) * self.scale)

    def to_table(self, sx: float, sy: float) -> tuple[float, float]:
        return ((sx - self.ox) / self.scale, self.table_height - (sy - self.oy) / self.scale)

    def px(self, x: float, y: float) -> tuple[int, int]:
        sx, sy = self.to_screen(x, y)
        return (round(sx), round(sy))

    def length(self, inches: float) -> float:
        return inches * self.scale

    def direction(self, dx: float, dy: float) -> tuple[float, float]:
        """A table direction as a screen direction (y flipped)."""
        return (dx, -dy)

    def fit(self, rect: tuple[int, int, int, int], margin: float | tuple[float, float, float, float] = 30.0) -> None:
        """Show the whole table centred in ``rect`` (x, y, w, h), ``margin`` pixels (or left, top, right, bottom)
        around it."""
        x, y, w, h = rect
        left, top, right, bottom = (margin,) * 4 if isinstance(margin, (int, float)) else margin
        avail_w = max(1.0, w - left - right)
        avail_h = max(1.0, h - top - bottom)
        self.scale = min(MAX_SCALE, max(MIN_SCALE, min(avail_w / self.table_width, avail_h / self.table_height)))
        self.ox = x + left + (avail_w - self.table_width * self.scale) / 2
        self.oy = y + top + (avail_h - self.table_height * self.scale) / 2

    def zoom_at(self, factor: float, sx: float, sy: float) -> None:
        """Zoom by ``factor`` keeping the table point under the screen point (sx, sy) where it is."""
        tx, ty = self.to_table(sx, sy)
        self.scale = min(MAX_SCALE, max(MIN_SCALE, self.scale * factor))
        self.ox = sx - tx * self.scale
        self.oy = sy - (self.table_height - ty) * self.scale

    def pan(self, dx: float, dy: float) -> None:
        self.ox += dx
        self.oy += dy

    def copy(self) -> "ViewTransform":
        return ViewTransform(self.table_width, self.table_height, self.scale, self.ox, self.oy)
