"""The exposure overlay of the table view: where a unit of one side would be seen, and how cheaply Targeted.

For a unit of the shown side standing at each point of the 0.5" grid, the map counts the known enemies that could
see it (the 50 % rule) and gives the cheapest Target counter one of them could place on it. The numbers come from
``rules.whole_table.exposure``, the very function behind ``seven-seconds query SCENARIO exposure SIDE``.

The map is computed off the drawing thread. ``ExposureOverlay.follow`` is called once per frame: when the table
changes (or, with the Move or Jump preview, the selected unit stands somewhere else) it asks the worker thread for
a new map. A request waiting for the worker is replaced by a newer one; a computation already running finishes
and is shown until the newer one is ready. ``draw`` only reads the last finished map and never takes a lock.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Callable, NamedTuple

import numpy as np
import pygame

from ..game.battle.action_kinds import Kind
from ..rules.battlefield import Battlefield
from . import theme
from .view import ViewTransform
from .widgets import draw_text, line_height, panel, text_width
from ..logs import failure

STEP = 0.5
# The colour of a point by how many enemies see it (``theme.EXPOSURE_LEVELS``: cividis, told apart with every
# colour-vision deficiency), drawn nearly opaque so that the terrain under it does not blur the levels together.
HEAT: tuple[tuple[int, int, int], ...] = theme.EXPOSURE_LEVELS
ALPHA = theme.EXPOSURE_ALPHA
# The fewest enemies of each colour's band: 0, 1, 2-3, 4 or more (four colours are all the ramp can keep apart for
# every reader; the hovered cell's own count is in the key).
BANDS: tuple[int, ...] = (0, 1, 2, 4)


def band_labels() -> list[str]:
    out = []
    for i, low in enumerate(BANDS):
        high = BANDS[i + 1] - 1 if i + 1 < len(BANDS) else None
        out.append(f"{low}+" if high is None else str(low) if high == low else f"{low}-{high}")
    return out


def bands(counts: np.ndarray) -> np.ndarray:
    """Each count's colour band (an index into ``HEAT``)."""
    return np.searchsorted(np.asarray(BANDS), counts, side="right") - 1
IDLE_SECONDS = 5.0          # the worker thread ends after this long without a request

HELP = (
    "Each cell: how many known enemies could see a unit of this side standing there (50 % rule) [A9, A10]; "
    "hover a cell for the cheapest Target counter an enemy could place on it [p.19, p.24].",
    "The map follows the Move and Jump previews of the selected unit; Shift+E chooses the side.",
)

Compute = Callable[[Battlefield, str, float], dict]


def _compute(bf: Battlefield, side: str, step: float) -> dict:
    # lazy: the whole-table arrays (numpy) load when the exposure map is first asked for
    from ..rules.whole_table import exposure

    return exposure(bf, side, step, engine="fast")


def prepare_terrain(bf: Battlefield) -> threading.Thread:
    """Build the fast engine's terrain arrays for this table on a background thread, as soon as a table opens, so
    that neither the first preview nor the first exposure map pays for them (they wait for it if it is running)."""

    def run() -> None:
        # lazy: the whole-table arrays (numpy) load when the exposure map is first asked for
        from ..rules.whole_table import prepare

        try:
            prepare(bf, "fast", (STEP,))
        except Exception:  # noqa: BLE001 -- printed, and the computations report any problem themselves when they run
            failure("preparing the exposure map failed")

    thread = threading.Thread(target=run, name="terrain-arrays", daemon=True)
    thread.start()
    return thread


class ExposureMap(NamedTuple):
    """One finished map: ``counts[j, i]`` and ``prices[j, i]`` (-1: no enemy can Target) for the point
    ``((i + 0.5) * step, (j + 0.5) * step)``, row 0 at the bottom (side A's edge) as in the query's answer. A named
    tuple: a plain value, cheaper than a dataclass for the window's start to define."""

    key: tuple
    side: str
    step: float
    counts: np.ndarray
    prices: np.ndarray
    elapsed_ms: float
    error: str = ""

    @property
    def columns(self) -> int:
        return self.counts.shape[1]

    @property
    def rows(self) -> int:
        return self.counts.shape[0]

    def cell(self, x: float, y: float) -> tuple[int, int] | None:
        i, j = int(x // self.step), int(y // self.step)
        if 0 <= i < self.columns and 0 <= j < self.rows and x >= 0 and y >= 0:
            return i, j
        return None

    def at(self, x: float, y: float) -> tuple[int, int | None] | None:
        """(enemies that could see a unit here, cheapest Target counter or None) at the grid cell of (x, y)."""
        c = self.cell(x, y)
        if c is None:
            return None
        i, j = c
        price = int(self.prices[j, i])
        return int(self.counts[j, i]), (None if price < 0 else price)


def table_key(bf: Battlefield, side: str, step: float) -> tuple:
    """Everything the map depends on: terrain, the enemies' troopers and drones and every active jammer field where
    they stand, the rulings, the side and the step (a friendly unit dragged about changes nothing else)."""
    pieces = tuple((p.id, p.kind, p.side, p.unit_type, p.x, p.y, p.radius, p.facing, p.jammer_on)
                   for p in bf.pieces.values()
                   if p.jammer_on or ((p.is_trooper or p.is_drone) and p.side != side))
    return (side, step, bf.width, bf.height, bf.scale, tuple(map(id, bf.terrain)), pieces,
            tuple(sorted(bf.rulings.choices.items())))


def moved(bf: Battlefield, piece_id: str, end: tuple[float, float], facing: float | None) -> Battlefield:
    """The battlefield with one piece standing at ``end`` (a preview: the battle itself is not touched)."""
    p = bf.pieces[piece_id]
    pieces = dict(bf.pieces)
    pieces[piece_id] = dataclasses.replace(p, x=float(end[0]), y=float(end[1]),
                                           facing=p.facing if facing is None else float(facing) % 360.0)
    return dataclasses.replace(bf, pieces=pieces)


def _view_key(view: ViewTransform, area: pygame.Rect) -> tuple:
    return (view.scale, view.ox, view.oy, view.turned, tuple(area))


class ExposureWorker:
    """One daemon thread computing maps, newest request first; the last finished map is ``result``."""

    def __init__(self, compute: Compute | None = None) -> None:
        self.compute = compute or _compute
        self._cond = threading.Condition()
        self._pending: tuple | None = None        # (key, bf, side, step), not started yet
        self._wanted: tuple | None = None         # key of the newest request
        self._running: tuple | None = None
        self._thread: threading.Thread | None = None
        self._stop = False
        self.result: ExposureMap | None = None     # replaced whole, never changed: readers need no lock
        self.finished = 0                          # maps computed
        self.dropped = 0                           # requests replaced before they started

    @property
    def wanted(self) -> tuple | None:
        return self._wanted

    @property
    def busy(self) -> bool:
        return self._pending is not None or self._running is not None

    def request(self, key: tuple, bf: Battlefield, side: str, step: float) -> bool:
        """Ask for the map of ``key`` unless it is the newest asked for already; returns whether it was new."""
        with self._cond:
            if key == self._wanted:
                return False
            if self._pending is not None:
                self.dropped += 1
            self._wanted = key
            self._pending = (key, bf, side, step)
            if self._thread is None or not self._thread.is_alive():
                self._stop = False
                self._thread = threading.Thread(target=self._run, name="exposure-map", daemon=True)
                self._thread.start()
            self._cond.notify_all()
        return True

    def forget(self) -> None:
        """Drop the waiting request and the wanted key (the next request starts afresh)."""
        with self._cond:
            self._pending = None
            self._wanted = None

    def stop(self) -> None:
        with self._cond:
            self._stop = True
            self._pending = None
            self._cond.notify_all()

    def wait(self, timeout: float = 10.0) -> bool:
        """Block until nothing is waiting or running (tests and screenshots only; never from ``draw``)."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._pending is not None or self._running is not None:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._pending is None and not self._stop:
                    self._cond.wait(IDLE_SECONDS)
                if self._stop or self._pending is None:
                    self._thread = None          # idle: the thread ends; the next request starts another
                    return
                key, bf, side, step = self._running = self._pending
                self._pending = None
            result = self._one(key, bf, side, step)
            with self._cond:
                self.result = result
                self.finished += 1
                self._running = None
                self._cond.notify_all()

    def _one(self, key, bf, side, step) -> ExposureMap:
        try:
            out = self.compute(bf, side, step)
            counts = np.array(out["counts"], dtype=np.int16).reshape(out["rows"], out["columns"])
            prices = np.array([[-1 if v is None else v for v in row] for row in out["prices"]],
                              dtype=np.int32).reshape(out["rows"], out["columns"])
            return ExposureMap(key, side, out["step"], counts, prices, float(out.get("elapsed_ms", 0.0)))
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: a rules error must not kill the thread: the overlay says so
            failure(f"the exposure map of side {side} failed")
            empty = np.zeros((0, 0), dtype=np.int16)
            return ExposureMap(key, side, step, empty, empty.astype(np.int32), 0.0, f"{type(e).__name__}: {e}")


class ExposureOverlay:
    """The overlay's state in the table view: on or off, which side, the worker, and the picture of the last map."""

    def __init__(self, compute: Compute | None = None, step: float = STEP) -> None:
        self.enabled = False
        self.chosen_side: str | None = None        # None: the selected unit's side (side A with nothing selected)
        self.step = step
        self.worker = ExposureWorker(compute)
        self.side = "A"
        self._picture: tuple | None = None         # (map, view key, (surface, topleft) or None)

    # ---- switching ------------------------------------------------------------------------------------------------
    def on_key(self, shift: bool) -> tuple[str, list[str]]:
        """E switches the overlay on and off; Shift+E switches it on and steps through the sides. Returns what the
        table view's log should say."""
        if shift:
            self.enabled = True
            side = self.cycle_side()
            which = f"side {side}" if side else "the selected unit's side"
            return "Exposure map", [f"showing {which}", *HELP]
        on = self.toggle()
        return "Exposure map", ([f"on: side {self.side}", *HELP] if on else ["off (E shows it again)"])

    def toggle(self) -> bool:
        self.enabled = not self.enabled
        if not self.enabled:
            self.worker.forget()
        return self.enabled

    def cycle_side(self) -> str | None:
        """The selected unit's side -> A -> B -> the selected unit's side ..."""
        order = [None, "A", "B"]
        self.chosen_side = order[(order.index(self.chosen_side) + 1) % len(order)]
        return self.chosen_side

    def side_for(self, selected) -> str:
        if self.chosen_side is not None:
            return self.chosen_side
        if selected is not None and selected.side in ("A", "B"):
            return selected.side
        return "A"

    # ---- following the table ------------------------------------------------------------------------------------
    def follow(self, scene) -> None:
        """Once per frame (``update``): ask for the map of what the table view shows, the previewed move or jump
        included, and get the picture of the last finished map ready for ``draw``."""
        if not self.enabled:
            return
        self._ask(scene)
        m = self.worker.result
        if m is not None:
            self._picture = self._make_picture(m, scene.view, scene.layout.table)

    def _ask(self, scene) -> None:
        bf = scene.table.bf
        sel = scene.selected_piece
        self.side = self.side_for(sel)
        preview = self.preview_of(scene)
        if preview is not None:
            bf = moved(bf, sel.id, *preview)      # where the preview puts it (a copy: the battle is untouched)
        key = table_key(bf, self.side, self.step)
        if key != self.worker.wanted:
            self.worker.request(key, bf, self.side, self.step)

    @staticmethod
    def preview_of(scene) -> tuple[tuple[float, float], float | None] | None:
        """Where the Move or Jump preview puts the selected unit (the cursor's end first), or None."""
        sel = scene.selected_piece
        tool = getattr(scene, "tool", None)
        if sel is None or tool not in (Kind.MOVE, Kind.JUMP):
            return None
        result = getattr(scene, "cursor_result", None) if getattr(scene, "cursor", None) is not None else None
        if tool == "move":
            result = result or getattr(scene, "move_result", None)
        elif getattr(scene, "jump_point", None) is not None:
            result = getattr(scene, "jump_result", None)
        if result is None or not result.legal:
            return None
        end = (round(float(result.end[0]), 6), round(float(result.end[1]), 6))
        if end == (sel.x, sel.y) and result.facing in (None, sel.facing):
            return None
        return end, result.facing

    @property
    def current(self) -> ExposureMap | None:
        return self.worker.result

    @property
    def up_to_date(self) -> bool:
        m = self.worker.result
        return m is not None and m.key == self.worker.wanted and not self.worker.busy

    # ---- drawing ------------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, view: ViewTransform, area: pygame.Rect) -> None:
        """The last finished map over the table (under the pieces). Never waits, never changes the overlay."""
        if not self.enabled:
            return
        m = self.worker.result
        if m is None or m.error or not m.columns or not m.rows:
            return
        picture = self._picture
        if picture is None or picture[0] is not m or picture[1] != _view_key(view, area):
            picture = self._make_picture(m, view, area)          # not ready yet (no update since): a one-off
        if picture[2] is not None:
            surface.blit(*picture[2])

    def drawn(self) -> tuple:
        """What ``draw`` would draw, by identity: a new map or picture makes a new tuple of objects."""
        return (self.enabled or None, self.worker.result, self._picture)

    def draw_key(self, surface: pygame.Surface, view: ViewTransform, area: pygame.Rect, mouse=None) -> None:
        """The key in the table's bottom-left corner (over the pieces): the side, the state of the map, the cell
        under the mouse."""
        if self.enabled:
            self._draw_key(surface, view, area, self.worker.result, mouse)

    def _make_picture(self, m: ExposureMap, view: ViewTransform, area: pygame.Rect) -> tuple:
        """(map, view key, (surface, topleft) or None): the heat cells of the visible part of the table, scaled to
        the screen; made again only when the map or the view changes."""
        vkey = _view_key(view, area)
        if self._picture is not None and self._picture[0] is m and self._picture[1] == vkey:
            return self._picture
        picture = None
        if m.error or not m.columns or not m.rows:
            return (m, vkey, None)
        cell = m.step * view.scale
        # The visible cells: columns i0..i1, rows j0..j1 (row 0 at the bottom of the table).
        x0, y1 = view.to_table(area.left, area.top)
        x1, y0 = view.to_table(area.right, area.bottom)
        i0, i1 = max(0, int(x0 // m.step)), min(m.columns, int(x1 // m.step) + 1)
        j0, j1 = max(0, int(y0 // m.step)), min(m.rows, int(y1 // m.step) + 1)
        if i1 > i0 and j1 > j0 and cell > 0:
            colours = np.array(HEAT, dtype=np.uint8)
            part = m.counts[j0:j1, i0:i1]
            rgb = colours[bands(part)]                                # (rows, cols, 3), row 0 at the bottom
            small = pygame.surfarray.make_surface(np.ascontiguousarray(rgb[::-1].transpose(1, 0, 2)))
            left, top = view.to_screen(i0 * m.step, j1 * m.step)
            right, bottom = view.to_screen(i1 * m.step, j0 * m.step)
            size = (max(1, round(right) - round(left)), max(1, round(bottom) - round(top)))
            # Per-pixel alpha: blitting it costs less than a surface-wide alpha on the usual 32-bit screens.
            big = pygame.transform.scale(small, size).convert_alpha() if pygame.display.get_surface() \
                else pygame.transform.scale(small, size).convert(32, pygame.SRCALPHA)
            big.fill((255, 255, 255, ALPHA), special_flags=pygame.BLEND_RGBA_MULT)
            picture = (big, (round(left), round(top)))
        return (m, vkey, picture)

    def hover_lines(self, view: ViewTransform, mouse) -> list[str] | None:
        m = self.worker.result
        if m is None or m.error or mouse is None:
            return None
        x, y = view.to_table(*mouse)
        found = m.at(x, y)
        if found is None:
            return None
        count, price = found
        cell = m.cell(x, y)
        if cell is None:
            return None
        i, j = cell
        where = f"({(i + 0.5) * m.step:.2f}, {(j + 0.5) * m.step:.2f})"
        seen = f"seen by {count} {'enemy' if count == 1 else 'enemies'}" if count else "seen by no enemy"
        cost = f"cheapest Target counter {price} pt{'s' if price != 1 else ''}" if price is not None \
            else "no enemy can Target it"
        return [f"a side {m.side} unit at {where}: {seen}", cost]

    def _draw_key(self, surface, view, area: pygame.Rect, m: ExposureMap | None, mouse) -> None:
        size = 13
        lh = line_height(size) + 2
        if m is None:
            status = "computing..."
        elif m.error:
            status = f"could not compute: {m.error}"
        elif m.side != self.side or not self.up_to_date:
            status = "updating..."
        else:
            status = f"{m.elapsed_ms:.0f} ms"
        title = f"Exposure of side {self.side}"
        hover = self.hover_lines(view, mouse) if mouse is not None and area.collidepoint(mouse) else None
        lines = hover or ["hover a cell: who sees it, its Target price"]
        swatch = 22
        key_w = len(HEAT) * (swatch + 2) + text_width("enemies see it", size) + 8
        head_w = text_width(title, size, True) + text_width(status, size) + 12
        w = max([head_w, key_w] + [text_width(t, size, True) for t in lines]) + 20
        h = lh * (len(lines) + 2) + 12
        box = pygame.Rect(area.left + 8, area.bottom - h - 8, w, h)
        panel(surface, box, theme.PANEL, theme.ACCENT, 6)
        y = box.y + 6
        draw_text(surface, title, (box.x + 10, y), size, True, theme.TEXT)
        draw_text(surface, status, (box.right - 10, y), size, False, theme.TEXT_FAINT, "topright")
        y += lh
        x = box.x + 10
        for colour, label in zip(HEAT, band_labels()):
            rect = pygame.Rect(x, y + 1, swatch, swatch)
            pygame.draw.rect(surface, colour, rect)
            draw_text(surface, label, rect.center, 10, True, theme.text_on(colour), "center")
            x += swatch + 2
        draw_text(surface, "enemies see it", (x + 6, y), size, False, theme.TEXT_DIM)
        y += lh
        for t in lines:
            draw_text(surface, t, (box.x + 10, y), size, hover is not None, theme.TEXT if hover else theme.TEXT_FAINT)
            y += lh

def show_now(scene, side: str | None = None, timeout: float = 60.0) -> bool:
    """Switch the scene's overlay on for ``side`` (None or "auto": the selected unit's side) and wait for its map
    (screenshots and tests; the table view itself never waits). Returns whether the map arrived in time."""
    overlay = scene.exposure
    overlay.enabled = True
    overlay.chosen_side = None if side in (None, "auto") else side
    overlay.follow(scene)
    done = overlay.worker.wait(timeout)
    overlay.follow(scene)
    return done
