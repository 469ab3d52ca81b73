"""Table inches <-> screen pixels: zoom, pan, fit and turn. Side A's edge (y = 0) is at the bottom of the screen, or
at the top once the table is turned (side B's player sees its own edge at the bottom); nothing else changes."""

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
    turned: bool = False          # turned half round: side B's edge at the bottom, x growing to the left

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        if self.turned:
            return (self.ox + (self.table_width - x) * self.scale, self.oy + y * self.scale)
        return (self.ox + x * self.scale, self.oy + (self.table_height - y) * self.scale)

    def to_table(self, sx: float, sy: float) -> tuple[float, float]:
        if self.turned:
            return (self.table_width - (sx - self.ox) / self.scale, (sy - self.oy) / self.scale)
        return ((sx - self.ox) / self.scale, self.table_height - (sy - self.oy) / self.scale)

    def table_box(self) -> tuple[int, int, int, int]:
        """The table's rectangle on the screen (x, y, w, h), whichever way it is turned."""
        (x0, y0), (x1, y1) = self.to_screen(0, 0), self.to_screen(self.table_width, self.table_height)
        left, top = round(min(x0, x1)), round(min(y0, y1))
        return left, top, round(max(x0, x1)) - left, round(max(y0, y1)) - top

    @property
    def bottom_y(self) -> float:
        """The table y of the edge drawn at the bottom of the screen (0: side A's; the height: side B's)."""
        return self.table_height if self.turned else 0.0

    @property
    def left_x(self) -> float:
        """The table x of the edge drawn on the left of the screen."""
        return self.table_width if self.turned else 0.0

    def px(self, x: float, y: float) -> tuple[int, int]:
        sx, sy = self.to_screen(x, y)
        return (round(sx), round(sy))

    def length(self, inches: float) -> float:
        return inches * self.scale

    def direction(self, dx: float, dy: float) -> tuple[float, float]:
        """A table direction as a screen direction (y flipped; x flipped instead when the table is turned)."""
        return (-dx, dy) if self.turned else (dx, -dy)

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
        if self.turned:
            self.ox = sx - (self.table_width - tx) * self.scale
            self.oy = sy - ty * self.scale
        else:
            self.ox = sx - tx * self.scale
            self.oy = sy - (self.table_height - ty) * self.scale

    def turn(self, turned: bool) -> None:
        """Turn the table half round (or back) about its centre: the same part of the window shows it."""
        if turned == self.turned:
            return
        cx, cy = self.to_screen(self.table_width / 2, self.table_height / 2)
        self.turned = turned
        nx, ny = self.to_screen(self.table_width / 2, self.table_height / 2)
        self.ox += cx - nx
        self.oy += cy - ny

    def pan(self, dx: float, dy: float) -> None:
        self.ox += dx
        self.oy += dy

    def copy(self) -> "ViewTransform":
        return ViewTransform(self.table_width, self.table_height, self.scale, self.ox, self.oy, self.turned)
