"""Drawing the table: a pure function of what the table holds, the view and the tools' answers.

Nothing here changes anything; nothing here computes a rule. Sizes come from the pieces and the battlefield,
numbers from the results the rules functions returned.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame
import shapely

from ..rules.battlefield import Feature, Piece
from ..rules.explain import inches
from . import theme
from ..rules.questions import BLOCKED, CLEAR, PairReport, RulerResult, SelectionReport
from .table_data import TableData
from .theme import Colour
from .view import ViewTransform
from .widgets import circle_visible, dashed_circle, dashed_line, draw_pattern, draw_text, sight_glyph, text_width

if TYPE_CHECKING:
    from ..rules.movement import MoveResult     # the movement rules load with the first move previewed

SIGHT_COLOURS = {CLEAR: theme.SIGHT_CLEAR, "cover": theme.SIGHT_COVER, BLOCKED: theme.SIGHT_BLOCKED}
GRID_STEP = 6.0


def _overlay(area: pygame.Rect) -> pygame.Surface:
    return pygame.Surface(area.size, pygame.SRCALPHA)


def _shift(points, area: pygame.Rect):
    return [(x - area.x, y - area.y) for x, y in points]


def feature_points(view: ViewTransform, f: Feature) -> list[tuple[float, float]]:
    geom = f.geometry
    if geom.geom_type == "Polygon":
        coords = list(geom.exterior.coords)[:-1]
    else:
        coords = list(shapely.convex_hull(geom).exterior.coords)[:-1]
    return [view.to_screen(x, y) for x, y in coords]


def piece_radius(view: ViewTransform, p: Piece) -> float:
    """Bases are drawn to scale, but never smaller than a few pixels."""
    return max(5.0, p.radius * view.scale)


# ---- the table itself ---------------------------------------------------------------------------------------------


def draw_cloth(surface, table: TableData, view: ViewTransform, area: pygame.Rect) -> pygame.Rect:
    rect = pygame.Rect(view.table_box())
    pygame.draw.rect(surface, theme.CLOTH, rect)
    return rect


def _hatch(surface, points, colour: Colour, area: pygame.Rect, spacing: int = 9, kind: str = "hatch") -> None:
    """Diagonal hatching inside a polygon: the mark of blocking terrain (or another ``widgets.draw_pattern``)."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    box = pygame.Rect(math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs) - min(xs)) + 2,
                      math.ceil(max(ys) - min(ys)) + 2).clip(area)
    if box.w <= 0 or box.h <= 0:
        return
    lines = pygame.Surface(box.size, pygame.SRCALPHA)
    if kind == "hatch":
        for k in range(-box.h, box.w, spacing):
            pygame.draw.line(lines, (*colour, 110), (k, box.h), (k + box.h, 0), 2)
    else:
        draw_pattern(lines, lines.get_rect(), kind, (*colour, 170), (box.x, box.y))
    mask = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.polygon(mask, (255, 255, 255, 255), [(x - box.x, y - box.y) for x, y in points])
    lines.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    surface.blit(lines, box.topleft)


def draw_terrain(surface, table: TableData, view: ViewTransform, area: pygame.Rect, labels: bool = True) -> None:
    for f in table.bf.terrain:
        colour = theme.hex_colour(f.ttype.colour)
        edge = theme.darker(colour)
        if f.circle is not None:
            x, y, r = f.circle
            c = view.to_screen(x, y)
            rad = max(1.0, r * view.scale)
            pygame.draw.circle(surface, colour, c, rad)
            pygame.draw.circle(surface, edge, c, rad, 2)
            points = None
        else:
            points = feature_points(view, f)
            pygame.draw.polygon(surface, colour, points)
            pygame.draw.polygon(surface, edge, points, 2)
        pattern = theme.TERRAIN_PATTERNS.get(f.type_id)
        if f.blocking or pattern:
            if points is None:
                points = feature_points(view, f)
            _hatch(surface, points, edge, area, kind="hatch" if f.blocking else pattern or "hatch")
    if labels and view.scale >= 12:
        size = 12 if view.scale < 30 else 14
        for f in table.bf.terrain:
            colour = theme.hex_colour(f.ttype.colour)
            p = f.geometry.centroid
            if not f.geometry.contains(p):
                p = f.geometry.representative_point()
            half_w = (text_width(f.id, size) + 6) / 2 / view.scale
            half_h = (size + 2) / 2 / view.scale
            label = shapely.box(p.x - half_w, p.y - half_h, p.x + half_w, p.y + half_h)
            if f.geometry.contains(label):
                draw_text(surface, f.id, view.to_screen(p.x, p.y), size, False, theme.text_on(colour), "center")


def draw_grid(surface, table: TableData, view: ViewTransform, area: pygame.Rect) -> None:
    bf = table.bf
    layer = _overlay(area)
    colour = (*theme.GRID, theme.GRID_ALPHA)
    x = GRID_STEP
    while x < bf.width - 1e-9:
        a, b = view.to_screen(x, 0), view.to_screen(x, bf.height)
        pygame.draw.line(layer, colour, _shift([a], area)[0], _shift([b], area)[0], 1)
        x += GRID_STEP
    y = GRID_STEP
    while y < bf.height - 1e-9:
        a, b = view.to_screen(0, y), view.to_screen(bf.width, y)
        pygame.draw.line(layer, colour, _shift([a], area)[0], _shift([b], area)[0], 1)
        y += GRID_STEP
    surface.blit(layer, area.topleft)


def draw_edges(surface, table: TableData, view: ViewTransform, cloth: pygame.Rect) -> None:
    """The table's border, inch marks every 6\" and the two sides' edges (A at the bottom)."""
    bf = table.bf
    pygame.draw.rect(surface, theme.CLOTH_EDGE, cloth.inflate(4, 4), 2)
    size = 12
    v = 0.0
    while v <= bf.width + 1e-9:
        sx, sy = view.to_screen(v, view.bottom_y)
        pygame.draw.line(surface, theme.TEXT_FAINT, (sx, sy + 2), (sx, sy + 6))
        draw_text(surface, f"{v:g}", (sx, sy + 7), size, False, theme.TEXT_FAINT, "midtop")
        v += GRID_STEP
    v = 0.0
    while v <= bf.height + 1e-9:
        sx, sy = view.to_screen(view.left_x, v)
        pygame.draw.line(surface, theme.TEXT_FAINT, (sx - 6, sy), (sx - 2, sy))
        draw_text(surface, f"{v:g}", (sx - 8, sy), size, False, theme.TEXT_FAINT, "midright")
        v += GRID_STEP
    near, far = ("B", "A") if view.turned else ("A", "B")      # the edge at the bottom, the one at the top
    bottom = view.to_screen(bf.width / 2, view.bottom_y)
    top = view.to_screen(bf.width / 2, bf.height - view.bottom_y)
    draw_text(surface, f"Side {near} edge", (bottom[0], bottom[1] + 24), 13, True, theme.SIDE_LIGHT[near], "midtop")
    draw_text(surface, f"Side {far} edge", (top[0], top[1] - 5), 13, True, theme.SIDE_LIGHT[far], "midbottom")


# ---- pieces -------------------------------------------------------------------------------------------------------


def _badge(surface, centre, radius: float, text: str, fill: Colour, ink: Colour, size: int) -> None:
    pygame.draw.circle(surface, fill, centre, radius)
    pygame.draw.circle(surface, theme.BASE_OUTLINE, centre, radius, 1)
    draw_text(surface, text, centre, size, True, ink, "center")


def _tag(surface, pos, text: str, fill: Colour, size: int) -> None:
    w = text_width(text, size, True) + 6
    h = size + 4
    rect = pygame.Rect(0, 0, w, h)
    rect.center = (round(pos[0]), round(pos[1]))
    pygame.draw.rect(surface, fill, rect, border_radius=3)
    pygame.draw.rect(surface, theme.BASE_OUTLINE, rect, 1, border_radius=3)
    draw_text(surface, text, rect.center, size, True, (255, 255, 255), "center")


def _marks(surface, p: Piece, c, R: float, table: TableData) -> None:
    """Counter badge (upper right), activation dot (lower left), Damaged and Stunned tags."""
    small = max(9, min(14, int(R * 0.9)))
    if p.target_counters:
        br = max(7.0, R * 0.55)
        _badge(surface, (c[0] + R * 0.8, c[1] - R * 0.8), br, str(p.target_counters), theme.COUNTER_BADGE,
               theme.COUNTER_TEXT, small)
    if table.activation.get(p.id, False):
        ar = max(3.5, R * 0.24)
        pos = (c[0] - R * 0.78, c[1] + R * 0.78)
        pygame.draw.circle(surface, theme.ACTIVATION_MARK, pos, ar)
        pygame.draw.circle(surface, theme.BASE_OUTLINE, pos, ar, 1)
    if p.damaged:
        _tag(surface, (c[0] + R * 0.95, c[1] + R * 0.85), "D", theme.DAMAGED_MARK, small)
    if p.stunned:
        _tag(surface, (c[0] - R * 0.95, c[1] - R * 0.85), "S", theme.STUNNED_MARK, small)


def _letter_size(R: float) -> int:
    return max(9, min(28, int(R * 1.15)))


def draw_trooper(surface, view: ViewTransform, p: Piece, table: TableData) -> None:
    c = view.to_screen(p.x, p.y)
    R = piece_radius(view, p)
    fill = theme.SIDE_COLOURS.get(p.side or "", (120, 120, 120))
    # facing notch: a wedge pointing out of the base edge
    a = math.radians(p.facing)
    dx, dy = view.direction(math.cos(a), math.sin(a))
    px_, py_ = -dy, dx
    tip = (c[0] + dx * (R + max(5, R * 0.55)), c[1] + dy * (R + max(5, R * 0.55)))
    half = max(3.5, R * 0.42)
    left = (c[0] + dx * R * 0.55 + px_ * half, c[1] + dy * R * 0.55 + py_ * half)
    right = (c[0] + dx * R * 0.55 - px_ * half, c[1] + dy * R * 0.55 - py_ * half)
    pygame.draw.polygon(surface, (250, 250, 250), [tip, left, right])
    pygame.draw.polygon(surface, theme.BASE_OUTLINE, [tip, left, right], 1)
    pygame.draw.circle(surface, fill, c, R)
    pygame.draw.circle(surface, theme.BASE_OUTLINE, c, R, 2)
    letter = theme.TROOPER_LETTERS.get(p.unit_type or "", "?")
    draw_text(surface, letter, c, _letter_size(R), True, (255, 255, 255), "center")
    _marks(surface, p, c, R, table)


def draw_drone(surface, view: ViewTransform, p: Piece, table: TableData) -> None:
    c = view.to_screen(p.x, p.y)
    R = piece_radius(view, p)
    fill = theme.SIDE_COLOURS.get(p.side or "", (120, 120, 120))
    pygame.draw.circle(surface, theme.lighter(fill, 0.55), c, R)
    pygame.draw.circle(surface, theme.BASE_OUTLINE, c, R, 1)
    k = R * 0.98
    diamond = [(c[0], c[1] - k), (c[0] + k, c[1]), (c[0], c[1] + k), (c[0] - k, c[1])]
    pygame.draw.polygon(surface, fill, diamond)
    pygame.draw.polygon(surface, theme.BASE_OUTLINE, diamond, 2)
    letter = theme.DRONE_LETTERS.get(p.unit_type or "", "?")
    draw_text(surface, letter, c, max(8, _letter_size(R) - 2), True, (255, 255, 255), "center")
    _marks(surface, p, c, R, table)


def draw_blip(surface, view: ViewTransform, p: Piece, table: TableData) -> None:
    c = view.to_screen(p.x, p.y)
    R = piece_radius(view, p)
    side = theme.SIDE_COLOURS.get(p.side or "", (120, 120, 120))
    rect = pygame.Rect(0, 0, round(2 * R * 0.9), round(2 * R * 0.9))
    rect.center = (round(c[0]), round(c[1]))
    pygame.draw.circle(surface, theme.lighter(side, 0.6), c, R)
    pygame.draw.rect(surface, theme.BLIP_FILL, rect, border_radius=max(2, round(R * 0.3)))
    pygame.draw.rect(surface, side, rect, 2, border_radius=max(2, round(R * 0.3)))
    if p.id in table.decoys:
        # The owner's own decoy, at a glance: struck through corner to corner (its hover text says "a decoy").
        inner = rect.inflate(-4, -4)
        pygame.draw.line(surface, theme.DECOY_MARK, inner.topleft, inner.bottomright, max(2, round(R * 0.15)))
        pygame.draw.line(surface, theme.DECOY_MARK, inner.bottomleft, inner.topright, max(2, round(R * 0.15)))
    number = table.blip_numbers.get(p.id)
    draw_text(surface, number if number is not None else "?", c, max(8, _letter_size(R) - 2), True,
              (255, 255, 255), "center")
    _marks(surface, p, c, R, table)


def draw_objective(surface, view: ViewTransform, p: Piece, table: TableData) -> None:
    c = view.to_screen(p.x, p.y)
    R = piece_radius(view, p)
    mark = table.objectives.get(p.id)
    fill = theme.OBJECTIVE_RED if p.id in ("alpha", "beta", "gamma") else theme.OBJECTIVE_BLUE
    if mark is not None and mark.destroyed:
        fill = (110, 110, 110)
    ring_w = max(2, round(R * 0.22))
    if mark is None or mark.control == "contested":
        dashed_circle(surface, theme.CONTESTED, c, R + ring_w + 1, ring_w, dash=5, gap=4)
    else:
        pygame.draw.circle(surface, theme.SIDE_LIGHT[mark.control], c, R + ring_w + 1, ring_w)
        pygame.draw.circle(surface, theme.BASE_OUTLINE, c, R + 2 * ring_w + 1, 1)
    pygame.draw.circle(surface, fill, c, R)
    pygame.draw.circle(surface, theme.BASE_OUTLINE, c, R, 1)
    draw_text(surface, theme.GREEK.get(p.id, p.id[:1]), c, _letter_size(R), True, (255, 255, 255), "center")
    if mark is not None and mark.destroyed:
        k = R * 0.8
        pygame.draw.line(surface, (20, 20, 20), (c[0] - k, c[1] - k), (c[0] + k, c[1] + k), 3)
        pygame.draw.line(surface, (20, 20, 20), (c[0] - k, c[1] + k), (c[0] + k, c[1] - k), 3)
    _marks(surface, p, c, R, table)


# Translucent layers kept between frames (they change only with the view or what they show): key -> layer.
_LAYERS: dict[str, tuple] = {}


def _cached_layer(name: str, key: tuple, make):
    """What ``make`` returns, made once per ``key`` (a translucent layer cropped to what it shows, so that blitting
    it every frame costs only its own pixels)."""
    kept = _LAYERS.get(name)
    if kept is None or kept[0] != key:
        kept = (key, make())
        _LAYERS[name] = kept
    return kept[1]


def _cropped(layer: pygame.Surface, area: pygame.Rect) -> tuple[pygame.Surface, tuple[int, int]] | None:
    box = layer.get_bounding_rect()
    if box.w == 0 or box.h == 0:
        return None
    return layer.subsurface(box).copy(), (area.x + box.x, area.y + box.y)


def _view_key(view: ViewTransform, area: pygame.Rect) -> tuple:
    return (view.scale, view.ox, view.oy, view.turned, view.table_width, view.table_height, tuple(area))


def draw_jammer_fields(surface, table: TableData, view: ViewTransform, area: pygame.Rect) -> None:
    fields = table.bf.jammer_fields
    if not fields:
        return

    def make():
        layer = _overlay(area)
        for f in fields:
            x, y, r = f.circle
            c = view.to_screen(x, y)
            pygame.draw.circle(layer, (*theme.JAMMER, 48), (c[0] - area.x, c[1] - area.y), r * view.scale)
        return _cropped(layer, area)

    layer = _cached_layer("jammer", (_view_key(view, area), tuple(f.circle for f in fields)), make)
    if layer is not None:
        surface.blit(*layer)
    for f in fields:
        if f.circle is None:            # a jammer field is always a disc
            continue
        x, y, r = f.circle
        dashed_circle(surface, theme.JAMMER, view.to_screen(x, y), r * view.scale, 2)


def draw_ground(surface, view: ViewTransform, p: Piece, table: TableData) -> None:
    """A patch of ground holding Target counters (p.19, A54): a cross on the point, its counters in a badge."""
    c = view.to_screen(p.x, p.y)
    R = max(9.0, 0.5 * view.scale)
    for colour, width in ((theme.BASE_OUTLINE, 5), (theme.COUNTER_BADGE, 2)):     # a dark edge keeps it legible
        pygame.draw.line(surface, colour, (c[0] - R, c[1]), (c[0] + R, c[1]), width)
        pygame.draw.line(surface, colour, (c[0], c[1] - R), (c[0], c[1] + R), width)
    dashed_circle(surface, theme.COUNTER_BADGE, c, R, 2, dash=3, gap=3)
    _marks(surface, p, c, R * 1.3, table)


def draw_pieces(surface, table: TableData, view: ViewTransform, area: pygame.Rect) -> None:
    draw_jammer_fields(surface, table, view, area)
    pieces = table.bf.pieces.values()
    for p in table.wrecks:
        draw_objective(surface, view, p, table)
    for p in table.bf.ground.values():
        draw_ground(surface, view, p, table)
    for p in pieces:
        if p.is_objective:
            draw_objective(surface, view, p, table)
    for p in pieces:
        if p.is_blip:
            draw_blip(surface, view, p, table)
    for p in pieces:
        if p.is_trooper:
            draw_trooper(surface, view, p, table)
        elif p.is_drone:
            draw_drone(surface, view, p, table)


def draw_ring(surface, view: ViewTransform, p: Piece, colour: Colour, gap: float = 4, width: int = 3) -> None:
    R = piece_radius(view, p)
    extra = 6 if p.is_objective else 0
    pygame.draw.circle(surface, colour, view.to_screen(p.x, p.y), R + gap + extra, width)


# ---- the selected unit: arc, sensor ring, range bands -----------------------------------------------------------------


def draw_arc(surface, table: TableData, view: ViewTransform, area: pygame.Rect, p: Piece) -> None:
    """A trooper's 180° arc: the half of the table behind it is shaded, and the arc's edge is dashed."""
    bf = table.bf

    def make():
        big = 2 * math.hypot(bf.width, bf.height)
        board = shapely.box(0, 0, bf.width, bf.height)
        angles = [p.facing + 90 + 180 * i / 36 for i in range(37)]          # the half behind the facing
        pts = [(p.x, p.y)] + [(p.x + big * math.cos(math.radians(a)), p.y + big * math.sin(math.radians(a)))
                               for a in angles]
        behind = shapely.Polygon(pts).intersection(board)
        layer = _overlay(area)
        for poly in getattr(behind, "geoms", [behind]):
            if poly.is_empty or poly.geom_type != "Polygon":
                continue
            screen = [view.to_screen(x, y) for x, y in list(poly.exterior.coords)[:-1]]
            pygame.draw.polygon(layer, theme.OUT_OF_ARC, _shift(screen, area))
        a = math.radians(p.facing + 90)
        d = (math.cos(a), math.sin(a))
        edge = shapely.LineString([(p.x - big * d[0], p.y - big * d[1]), (p.x + big * d[0], p.y + big * d[1])])
        edge = edge.intersection(board)
        ends = None
        if not edge.is_empty and edge.geom_type == "LineString":
            (x0, y0), (x1, y1) = list(edge.coords)[0], list(edge.coords)[-1]
            ends = (view.to_screen(x0, y0), view.to_screen(x1, y1))
        return _cropped(layer, area), ends

    layer, ends = _cached_layer("arc", (_view_key(view, area), p.x, p.y, p.facing, bf.width, bf.height), make)
    if layer is not None:
        surface.blit(*layer)
    if ends is not None:
        dashed_line(surface, (70, 64, 40), ends[0], ends[1], 2, 10, 7)


def draw_selection_rings(surface, view: ViewTransform, area: pygame.Rect, p: Piece, report: SelectionReport,
                         table_rect: pygame.Rect) -> None:
    """Range-band rings from the base edge (Targeting bands solid, rifle bands dashed red when their size differs)
    and the passive-sensor ring. Only drawn on the table."""
    c = view.to_screen(p.x, p.y)
    clip = area.clip(table_rect)
    old = surface.get_clip()
    surface.set_clip(clip)
    reach = 1.5 * math.hypot(view.table_width, view.table_height)
    label_dir = view.direction(math.cos(math.radians(58)), math.sin(math.radians(58)))
    labelled: set[float] = set()

    def rings(size: float, colour: Colour, dashed: bool) -> None:
        k = 1
        while k * size <= reach:
            d = k * size
            rad = (p.radius + d) * view.scale
            if circle_visible(c, rad, clip):
                if dashed:
                    dashed_circle(surface, colour, c, rad, 2, 8, 6)
                else:
                    pygame.draw.circle(surface, colour, c, rad, 1)
                key = round(d, 6)
                lx, ly = c[0] + label_dir[0] * rad, c[1] + label_dir[1] * rad
                if key not in labelled and clip.collidepoint(lx, ly):
                    labelled.add(key)
                    draw_text(surface, f'{d:g}"', (lx + 4, ly), 11, True, colour, "midleft")
            k += 1

    if report.target_band:
        rings(report.target_band, theme.BAND_RING, False)
    if report.rifle_band and report.target_band and abs(report.rifle_band - report.target_band) > 1e-9:
        rings(report.rifle_band, theme.RIFLE_RING, True)
    if report.sensor_radius:
        rad = report.sensor_radius * view.scale
        dashed_circle(surface, theme.SENSOR_RING, c, rad, 3, 12, 6)
        draw_text(surface, "passive sensors", (c[0], c[1] + rad + 2), 11, True, theme.SENSOR_RING, "midtop")
    surface.set_clip(old)


def sight_colour(pair: PairReport) -> Colour:
    return SIGHT_COLOURS[pair.sight]


def draw_sight_marks(surface, table: TableData, view: ViewTransform, report: SelectionReport) -> None:
    """A ring round every enemy in the colour of its sight line, and in its style, so that the colour is never the
    only cue: solid clear, dashed cover, dotted with a cross when there is no line of sight."""
    for pair in report.enemies:
        p = table.bf.pieces.get(pair.other)
        if p is not None:
            sight_ring(surface, view.to_screen(p.x, p.y), piece_radius(view, p) + 3 + (6 if p.is_objective else 0),
                       pair.sight, sight_colour(pair))


def sight_ring(surface, centre, radius: float, sight: str, colour: Colour) -> None:
    """Clear: a solid ring; cover: dashed; blocked: dotted, with a cross on its upper right."""
    halo = (255, 255, 255) if sum(colour) < 200 else (20, 20, 20)
    if sight == CLEAR:
        pygame.draw.circle(surface, colour, centre, radius, 3)
    elif sight == BLOCKED:
        dashed_circle(surface, colour, centre, radius, 3, 2.5, 4.5)
        sight_glyph(surface, (centre[0] + radius * 0.75, centre[1] - radius * 0.75), 5, sight, colour, halo)
    else:
        dashed_circle(surface, colour, centre, radius, 3, 7, 5)


def draw_sight_line(surface, view: ViewTransform, pair: PairReport) -> None:
    a = view.to_screen(*pair.sight_start)
    b = view.to_screen(*pair.sight_end)
    colour = sight_colour(pair)
    pygame.draw.line(surface, (255, 255, 255), a, b, 7)
    if pair.sight == BLOCKED:
        pygame.draw.line(surface, colour, a, b, 3)
        dashed_line(surface, (60, 0, 0), a, b, 1, 6, 6)
    else:
        pygame.draw.line(surface, colour, a, b, 4)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    _label(surface, mid, pair.distance_text, colour)


def _label(surface, pos, text: str, ink: Colour = theme.RULER, size: int = 13) -> None:
    w = text_width(text, size, True) + 10
    rect = pygame.Rect(0, 0, w, size + 8)
    rect.center = (round(pos[0]), round(pos[1]))
    pygame.draw.rect(surface, theme.RULER_LABEL_BG, rect, border_radius=4)
    pygame.draw.rect(surface, ink, rect, 1, border_radius=4)
    draw_text(surface, text, rect.center, size, True, ink if sum(ink) < 500 else theme.RULER, "center")


# ---- the tools ----------------------------------------------------------------------------------------------------


def draw_ruler(surface, view: ViewTransform, result: RulerResult) -> None:
    a = view.to_screen(*result.start)
    b = view.to_screen(*result.end)
    pygame.draw.line(surface, (255, 255, 255), a, b, 5)
    pygame.draw.line(surface, theme.RULER, a, b, 2)
    for pt in (a, b):
        pygame.draw.circle(surface, theme.RULER, pt, 4)
        pygame.draw.circle(surface, (255, 255, 255), pt, 4, 1)
    text = f'{inches(result.distance)}   6" band {result.band_6}   12" band {result.band_12}'
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - 18)
    _label(surface, mid, text)


def draw_ghost(surface, view: ViewTransform, p: Piece, end, facing: float | None, colour: Colour,
               illegal: bool = False) -> None:
    c = view.to_screen(*end)
    R = piece_radius(view, p)
    layer = pygame.Surface((round(2 * R + 4), round(2 * R + 4)), pygame.SRCALPHA)
    pygame.draw.circle(layer, (*colour, 90), (R + 2, R + 2), R)
    if illegal:
        # Hatched and crossed: an illegal end reads as such without its colour.
        lines = pygame.Surface(layer.get_size(), pygame.SRCALPHA)
        draw_pattern(lines, lines.get_rect(), "hatch", (*colour, 230))
        mask = pygame.Surface(layer.get_size(), pygame.SRCALPHA)
        pygame.draw.circle(mask, (255, 255, 255, 255), (R + 2, R + 2), R)
        lines.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        layer.blit(lines, (0, 0))
    surface.blit(layer, (c[0] - R - 2, c[1] - R - 2))
    pygame.draw.circle(surface, colour, c, R, 2)
    if facing is not None:
        a = math.radians(facing)
        dx, dy = view.direction(math.cos(a), math.sin(a))
        pygame.draw.line(surface, colour, c, (c[0] + dx * (R + 7), c[1] + dy * (R + 7)), 3)


def move_label(result: MoveResult, jump: bool = False) -> str:
    if not result.legal:
        reason = result.reason.split(" [")[0].split(";")[0].split(", more than")[0]
        return "not allowed: " + (reason if len(reason) <= 44 else reason[:42] + "…")
    verb = "jump" if jump else "cost"
    text = f'{verb} {inches(result.cost)} of {inches(result.allowance)}'
    if result.removes:
        text += f"   removes {result.removes}"
    if result.adds:
        text += f"   +{result.adds}"
    return text


def draw_move(surface, view: ViewTransform, p: Piece, path, result: MoveResult | None, rubber=None,
              rubber_result: MoveResult | None = None, jump: bool = False) -> None:
    start = view.to_screen(p.x, p.y)
    if rubber is not None and rubber_result is not None:
        last = view.to_screen(*path[-1]) if path else start
        colour = theme.MOVE_LEGAL if rubber_result.legal else theme.MOVE_ILLEGAL
        dashed_line(surface, colour, last, view.to_screen(*rubber), 2 if rubber_result.legal else 4, 6, 5)
    if result is None or not path:
        return
    colour = theme.MOVE_LEGAL if result.legal else theme.MOVE_ILLEGAL
    pts = [start] + [view.to_screen(*q) for q in path]
    if jump:
        pygame.draw.line(surface, (255, 255, 255), pts[0], pts[-1], 6)
        dashed_line(surface, colour, pts[0], pts[-1], 3, 10, 6)
    elif not result.legal:
        # An illegal path is dashed (a legal one solid) and its end hatched and crossed.
        pygame.draw.lines(surface, (255, 255, 255), False, pts, 6)
        for a, b in zip(pts, pts[1:]):
            dashed_line(surface, colour, a, b, 4, 7, 5)
    else:
        pygame.draw.lines(surface, (255, 255, 255), False, pts, 6)
        pygame.draw.lines(surface, colour, False, pts, 3)
    if not jump:
        for q in pts[1:-1]:
            pygame.draw.circle(surface, colour, q, 5)
            pygame.draw.circle(surface, (255, 255, 255), q, 5, 1)
    draw_ghost(surface, view, p, result.end, result.facing, colour, illegal=not result.legal)
    end = view.to_screen(*result.end)
    if not result.legal:
        sight_glyph(surface, end, max(5.0, piece_radius(view, p) * 0.6), BLOCKED, colour, (255, 255, 255))
    _label(surface, (end[0], end[1] - piece_radius(view, p) - 16), move_label(result, jump), colour)
