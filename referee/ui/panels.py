"""The panels around the table: status bar, side panel (legend, selected unit, enemies), log and tooltips.

Panels are laid out as display lists (``widgets.Block``) when what they show changes; drawing replays them.
Every number shown comes from a rules result kept in a ``SelectionReport`` or ``PairReport``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from ..rules.battlefield import Feature, Piece
from ..rules.catalogue import terrain_types, type_title
from ..rules.errors import InputError
from ..rules.stats import RATING_TITLES, STAT_NAMES, STAT_SHORT
from . import theme
from .drawing import SIGHT_COLOURS
from .log_view import log_body
from ..rules.questions import PairReport, RifleUnavailable, SelectionReport
from .table_data import TableData
from .widgets import Block, Box, Dot, Mark, Text, draw_text, ellipsize, line_height, text_width, wrap
from ..rules.factions import get_faction

if TYPE_CHECKING:
    from fractions import Fraction

# A line of a tooltip: plain text, or (text, colour, bold).
TooltipLine = str | tuple[str, theme.Colour, bool]

PAD = 12
HEAD = 15
BODY = 14
SMALL = 13
LOG_BACKGROUND = (33, 36, 42)


def percent(p: float | Fraction) -> str:
    return f"{float(p) * 100:.1f} %"


OUTCOME_WORDS = (("destroyed", "destroyed"), ("damaged_stunned", "Damaged and Stunned"), ("damaged", "Damaged"),
                 ("stunned", "Stunned"), ("unharmed", "unharmed"))


def outcome_line(uid: str, chances: dict[str, float] | None, what: str = "") -> str:
    """One unit's exact chances, as the engine's preview gives them (outcomes with no chance are left out); a unit
    without chances is a blip, revealed first: what it holds is its owner's secret (A32)."""
    if chances is None:
        return f"  {uid}: a blip, revealed first; its units then take the {what or 'attack'} [A32]"
    parts = [f"{word} {percent(chances[key])}" for key, word in OUTCOME_WORDS if chances.get(key)]
    return f"  {uid}: " + ", ".join(parts)


def piece_title(p: Piece, table: TableData | None = None) -> str:
    if p.is_trooper or p.is_drone:
        if table is not None and p.id in table.titles:
            return table.titles[p.id]
        return type_title(p.unit_type) if p.unit_type else p.kind
    if p.is_blip:
        return "blip"
    return "objective"


def faction_name(p: Piece, table: TableData | None = None) -> str:
    if not p.faction:
        return ""
    if table is not None and p.faction in table.faction_names:
        return table.faction_names[p.faction]
    try:

        return get_faction(p.faction).name
    except (InputError, OSError):      # a faction given as a file path that moved: the id will do
        return p.faction


# ---- text of one pair ---------------------------------------------------------------------------------------------


def sight_text(pair: PairReport) -> str:
    los = pair.los
    if los.visible and pair.cover.blocked:         # drawn red like no sight, so it says blocked first
        heavy = [i.terrain for i in pair.cover.intervening if i.blocks]
        return f"blocked: in sight, but more than 3\" of Heavy cover ({', '.join(heavy)}) lies between [A6]"
    if los.visible:
        text = "in sight"
        if los.hidden_fraction > 0:
            text += f" ({percent(los.hidden_fraction)} hidden)"
    else:
        text = "no line of sight"
        if los.blocked_by:
            text += f" ({', '.join(los.blocked_by)})"
    return text


def cover_text(pair: PairReport) -> str:
    cov = pair.cover
    text = f"cover {cov.target_cover}"
    if cov.cover_feature:
        text += f" ({cov.cover_feature})"
    between = [f"{i.terrain} {'blocks' if i.blocks else f'-{i.penalty}'}" for i in cov.intervening]
    if between:
        text += "; between: " + ", ".join(between)
    return text


def target_text(pair: PairReport) -> str:
    t = pair.target
    if not t.allowed:
        return f"Target: not allowed: {t.reason}"
    text = f"Target: {t.price} pt{'s' if t.price != 1 else ''} per counter (band {t.band}"
    text += ", in arc)" if t.in_arc else ", out of arc: doubled)"
    if t.eaten:
        text += f", {t.eaten} eaten"
    return text


def rifle_text(pair: PairReport) -> str | None:
    r = pair.rifle
    if r is None:
        return None
    if isinstance(r, RifleUnavailable):
        return f"Rifle: {r.reason}"
    weapon = {"gauss": "gauss", "plasma": "plasma", "mg": "MG"}.get(r.weapon or "", "rifle")
    if not r.allowed:
        return f"Rifle ({weapon}): not allowed: {r.reason}"
    text = f"Rifle ({weapon}): {r.dice} {'die' if r.dice == 1 else 'dice'}, kill {percent(r.p_kill)}"
    if r.p_graze:
        text += f", graze {percent(r.p_graze)}"
    return text


def pair_lines(pair: PairReport) -> list[str]:
    lines = [f"{sight_text(pair)}; {cover_text(pair)}", target_text(pair)]
    rifle = rifle_text(pair)
    if rifle:
        lines.append(rifle)
    return lines


def tooltip_lines(table: TableData, pair: PairReport) -> list[TooltipLine]:
    other = table.bf.pieces[pair.other]
    head = f"{pair.actor} to {other.id} ({piece_title(other, table)}): {pair.distance_text}"
    out: list[TooltipLine] = [(head, theme.TEXT, True), (sight_text(pair), SIGHT_COLOURS[pair.sight], True), cover_text(pair),
           target_text(pair)]
    rifle = rifle_text(pair)
    if rifle:
        out.append(rifle)
    out.append(("click the row in the side panel for the working", theme.TEXT_FAINT, False))
    return out


def piece_tooltip(table: TableData, p: Piece) -> list[TooltipLine]:
    out: list[TooltipLine] = [(f"{p.id} ({piece_title(p, table)})", theme.TEXT, True)]
    if p.side:
        out.append(f"side {p.side}" + (f", {faction_name(p, table)}" if p.faction else "")
                   + (f", {RATING_TITLES.get(p.rating, p.rating)}" if p.rating else ""))
    if p.is_objective:
        mark = table.objectives.get(p.id)
        if mark is not None:
            out.append("destroyed" if mark.destroyed else
                       ("contested" if mark.control == "contested" else f"secured by side {mark.control}"))
    if not p.is_blip:
        out.append(f"{p.target_counters} Target counter{'s' if p.target_counters != 1 else ''}")
    flags = [f for f, on in (("Damaged", p.damaged), ("Stunned", p.stunned), ("jammer on", p.jammer_on)) if on]
    if p.id in table.activation:
        flags.append("holds its activation counter" if table.activation[p.id] else "activation counter used")
    if flags:
        out.append(", ".join(flags))
    return out


def terrain_tooltip(feature: Feature) -> list[TooltipLine]:
    t = feature.ttype
    out: list[TooltipLine] = [(f"{feature.id} ({t.name})", theme.TEXT, True)]
    for label, col in (("troopers and blips", t.troopers), ("drones", t.drones)):
        bits = [f"{col.cover} cover" if col.cover != "none" else "no cover"]
        if col.hindering:
            bits.append("hindering")
        if col.impassable:
            bits.append("impassable")
        if not col.landable:
            bits.append("no landing")
        out.append(f"{label}: {', '.join(bits)}")
    if t.blocking:
        out.append(("blocks line of sight (hatched)", theme.ACCENT, False))
    return out


# ---- the side panel -----------------------------------------------------------------------------------------------


def _wrapped(items: list, x: int, y: int, text: str, width: int, size: int, bold=False, colour=theme.TEXT,
             indent: int = 2) -> int:
    lh = line_height(size, bold)
    for part in wrap(text, width - x, size, bold, indent):
        items.append(Text(x, y, part, size, bold, colour))
        y += lh
    return y


def legend_blocks(table: TableData, width: int, y: int, shown: bool = True) -> list[Block]:
    types = terrain_types()
    present = table.terrain_types_present()
    note = "hatched: blocks sight" if shown else "click to show"
    items: list = [Text(PAD, 8, "Terrain on this table", HEAD, True, theme.TEXT),
                   Text(width - PAD - text_width(note, SMALL), 10, note, SMALL, False, theme.TEXT_FAINT)]
    if not shown:
        x = PAD + text_width("Terrain on this table", HEAD, True) + 12
        for type_id in present:
            if x + 14 > width - PAD - text_width(note, SMALL) - 8:
                break
            colour = theme.hex_colour(types[type_id].colour)
            items.append(Box(x, 12, 12, 12, colour, theme.darker(colour), 2))
            x += 16
        return [Block("legend", y, 34, tuple(items), theme.PANEL)]
    lh = 23
    col_w = (width - 2 * PAD) // 2
    for i, type_id in enumerate(present):
        t = types[type_id]
        cx = PAD + (i % 2) * col_w
        cy = 34 + (i // 2) * lh
        colour = theme.hex_colour(t.colour)
        edge = theme.darker(colour)
        items.append(Box(cx, cy + 2, 20, 15, colour, edge, 3, edge if t.blocking else None,
                         theme.TERRAIN_PATTERNS.get(type_id)))
        items.append(Text(cx + 27, cy, ellipsize(t.name, col_w - 30, SMALL), SMALL, False, theme.TEXT))
    height = 34 + ((len(present) + 1) // 2) * lh + 6
    return [Block("legend", y, height, tuple(items), theme.PANEL)]


def info_block(table: TableData, p: Piece, report: SelectionReport | None, width: int, y: int) -> Block:
    items: list = []
    side_colour = theme.SIDE_COLOURS.get(p.side or "", theme.TEXT_DIM)
    items.append(Box(0, 0, 5, 10, side_colour))           # stretched below once the height is known
    yy = 8
    items.append(Text(PAD, yy, p.id, 18, True, theme.TEXT))
    items.append(Text(PAD + text_width(p.id, 18, True) + 10, yy + 3, piece_title(p, table), BODY, False, theme.TEXT_DIM))
    yy += 28
    if p.side:
        sub = f"Side {p.side}"
        if p.faction:
            sub += f" · {faction_name(p, table)}"
        if p.rating:
            sub += f" · {RATING_TITLES.get(p.rating, p.rating)}"
        yy = _wrapped(items, PAD, yy, sub, width - PAD, BODY, False, theme.SIDE_LIGHT.get(p.side, theme.TEXT))
    if p.stats is not None:
        if p.is_drone:
            stats = f"Rob {p.stats.robotics} (drones use Robotics for everything)"
        else:
            stats = "   ".join(f"{STAT_SHORT[s]} {getattr(p.stats, s)}" for s in STAT_NAMES[:5])
        yy = _wrapped(items, PAD, yy, stats, width - PAD, BODY, True, theme.TEXT)
    status = []
    if not p.is_blip:
        status.append(f"{p.target_counters} Target counter{'s' if p.target_counters != 1 else ''}")
    if p.id in table.activation:
        status.append("activation counter" if table.activation[p.id] else "no activation counter")
    for flag, on in (("Damaged", p.damaged), ("Stunned", p.stunned), ("jammer on", p.jammer_on)):
        if on:
            status.append(flag)
    if p.is_objective:
        mark = table.objectives.get(p.id)
        if mark is not None:
            status.append("destroyed" if mark.destroyed else
                          ("contested" if mark.control == "contested" else f"secured by side {mark.control}"))
    if status:
        yy = _wrapped(items, PAD, yy, " · ".join(status), width - PAD, BODY, False, theme.TEXT_DIM)
    if report is not None and report.target_band:
        bands = f'Bands: Target {report.target_band_text}'
        if report.weapon and report.rifle_band is not None:
            bands += f', rifle ({report.weapon}) {report.rifle_band_text}'
        yy = _wrapped(items, PAD, yy, bands, width - PAD, BODY, False, theme.TEXT_DIM)
        rings = 'Rings from the base edge: Target bands solid'
        if report.rifle_band and abs(report.rifle_band - report.target_band) > 1e-9:
            rings += ', rifle bands dashed red'
        yy = _wrapped(items, PAD, yy, rings + ', passive sensors dashed teal', width - PAD, SMALL, False,
                      theme.TEXT_FAINT)
    if report is not None and report.passive is not None:
        seen = list(report.passive.detects) + list(report.passive.objectives)
        text = "Passive sensors here: " + (", ".join(seen) if seen else "nothing in range")
        yy = _wrapped(items, PAD, yy, text, width - PAD, BODY, False, theme.SENSOR_RING if seen else theme.TEXT_DIM)
    yy += 8
    items[0] = Box(0, 0, 5, yy, side_colour)
    return Block("info", y, yy, tuple(items), theme.PANEL_ALT)


def pair_block(table: TableData, pair: PairReport, width: int, y: int, expanded: bool) -> Block:
    other = table.bf.pieces[pair.other]
    items: list = []
    colour = SIGHT_COLOURS[pair.sight]
    items.append(Mark(PAD + 6, 17, 6, pair.sight, colour, theme.TEXT))
    items.append(Text(PAD + 18, 6, other.id, HEAD, True, theme.TEXT))
    sub = piece_title(other, table)
    if other.target_counters and not other.is_blip:
        sub += f" · {other.target_counters} TC"
    if other.damaged:
        sub += " · Damaged"
    if other.stunned:
        sub += " · Stunned"
    x_sub = PAD + 18 + text_width(other.id, HEAD, True) + 8
    dist = pair.distance_text
    dist_w = text_width(dist, HEAD, True)
    items.append(Text(x_sub, 8, ellipsize(sub, width - x_sub - dist_w - 60, SMALL), SMALL, False, theme.TEXT_DIM))
    items.append(Text(width - PAD - 26 - dist_w, 6, dist, HEAD, True, theme.TEXT))
    items.append(Box(width - PAD - 18, 8, 18, 18, theme.HEADER, theme.PANEL_EDGE, 3))
    items.append(Text(width - PAD - 13, 6, "−" if expanded else "+", HEAD, True, theme.TEXT))
    yy = 30
    for i, line in enumerate(pair_lines(pair)):
        ink = theme.TEXT if i else theme.TEXT_DIM
        if "not allowed" in line:
            ink = theme.TEXT_FAINT
        yy = _wrapped(items, PAD + 18, yy, line, width - PAD, BODY, False, ink, 4)
    if expanded:
        yy += 4
        for line in pair.explain()[1:]:
            heading = not line.startswith(" ")
            yy = _wrapped(items, PAD + 18 + (0 if heading else 6), yy, line.strip(), width - PAD, SMALL, heading,
                          theme.ACCENT if heading else theme.TEXT_DIM, 4)
    yy += 8
    items.append(Box(PAD, yy - 1, width - 2 * PAD, 1, theme.PANEL_EDGE))
    return Block(f"pair:{pair.other}", y, yy, tuple(items), None)


def table_block(table: TableData, width: int, y: int) -> Block:
    """What is on the table, side by side: units, drones, blips, counters; objectives and who holds them."""
    bf = table.bf
    items: list = [Text(PAD, 8, "On the table", HEAD, True, theme.TEXT)]
    size = f'{bf.width:g}" x {bf.height:g}"' + (f", scale {bf.scale:g}" if bf.scale != 1 else "")
    if bf.attacker:
        size += f" · side {bf.attacker} attacks"
    items.append(Text(width - PAD - text_width(size, SMALL), 10, size, SMALL, False, theme.TEXT_FAINT))
    yy = 34
    for side in ("A", "B"):
        pieces = [p for p in bf.pieces.values() if p.side == side]
        troopers = sum(p.is_trooper for p in pieces)
        drones = sum(p.is_drone for p in pieces)
        blips = sum(p.is_blip for p in pieces)
        counters = sum(p.target_counters for p in pieces if not p.is_blip)
        items.append(Dot(PAD + 6, yy + 10, 6, theme.SIDE_COLOURS[side], theme.BASE_OUTLINE))
        text = (f"Side {side}: {troopers} trooper{'s' if troopers != 1 else ''}, {drones} drone{'s' if drones != 1 else ''}, "
                f"{blips} blip{'s' if blips != 1 else ''}; {counters} Target counter{'s' if counters != 1 else ''}")
        yy = _wrapped(items, PAD + 18, yy, text, width - PAD, BODY, False, theme.TEXT)
        yy += 2
    marks = []
    for o in (p for p in bf.pieces.values() if p.is_objective):
        mark = table.objectives.get(o.id)
        state = "contested"
        if mark is not None:
            state = "destroyed" if mark.destroyed else ("contested" if mark.control == "contested" else f"side {mark.control}")
        marks.append(f"{theme.GREEK.get(o.id, o.id)} {state}")
    if marks:
        yy = _wrapped(items, PAD + 18, yy, "Objectives: " + ", ".join(marks), width - PAD, BODY, False, theme.TEXT_DIM)
    return Block("table", y, yy + 8, tuple(items), theme.PANEL)


def heading_block(text: str, width: int, y: int, note: str = "") -> Block:
    items = [Text(PAD, 8, text, HEAD, True, theme.ACCENT)]
    if note:
        items.append(Text(PAD + text_width(text, HEAD, True) + 10, 10, ellipsize(note, width - 160, SMALL), SMALL,
                          False, theme.TEXT_FAINT))
    return Block(None, y, 32, tuple(items), theme.PANEL)


def side_panel_blocks(table: TableData, selected: str | None, report: SelectionReport | None,
                      expanded: frozenset[str], width: int, legend: bool = True) -> list[Block]:
    blocks: list[Block] = []
    y = 0

    def add(block: Block) -> None:
        nonlocal y
        blocks.append(block)
        y += block.h

    for b in legend_blocks(table, width, y, legend):
        add(b)
    piece = table.bf.pieces.get(selected) if selected else None
    if piece is None:
        add(table_block(table, width, y))
        items: list[Block | Box | Dot | Text] = []
        yy = 10
        for text in ("Click a unit to select it: its arc, sensor ring and range bands show on the table and every "
                     "enemy is listed here with sight, cover, Target price and rifle odds.",
                     "R: ruler   M: move preview   J: jump preview   H: all the keys"):
            yy = _wrapped(items, PAD, yy, text, width - PAD, BODY, False, theme.TEXT_DIM)
            yy += 6
        add(Block(None, y, yy + 6, tuple(items), theme.PANEL_ALT))
        return blocks
    add(info_block(table, piece, report, width, y))
    if report is None:
        return blocks
    if report.enemies:
        add(heading_block(f"Enemies ({len(report.enemies)})", width, y, "nearest first; click for the working"))
        for pair in report.enemies:
            add(pair_block(table, pair, width, y, pair.other in expanded))
    elif not piece.is_objective:
        add(heading_block("No enemies on the table", width, y))
    if report.objectives:
        add(heading_block("Objectives", width, y, "Target counters on objectives"))
        for pair in report.objectives:
            add(pair_block(table, pair, width, y, pair.other in expanded))
    return blocks


# ---- the log ------------------------------------------------------------------------------------------------------


def log_lines(lines: Sequence[str], width: int) -> list[tuple[str, bool]]:
    """The log's text wrapped to ``width``: (line, is_heading)."""
    out: list[tuple[str, bool]] = []
    for line in lines:
        heading = not line.startswith(" ")
        for part in wrap(line, width, SMALL, False, 4):
            out.append((part, heading))
    return out


def draw_log(surface, rect: pygame.Rect, title: str, wrapped: Sequence[tuple[str, bool]], scroll: int) -> None:
    pygame.draw.rect(surface, LOG_BACKGROUND, rect)
    pygame.draw.line(surface, theme.PANEL_EDGE, rect.topleft, rect.topright, 2)
    lh = line_height(SMALL)
    body = pygame.Rect(rect.x, rect.y + 28, rect.w, rect.h - 30)
    visible = max(1, body.h // lh)
    title = title or "Explanation"
    more = ""
    if len(wrapped) > visible:
        more = f"{scroll + 1}-{min(len(wrapped), scroll + visible)} of {len(wrapped)} lines (wheel to scroll)"
        if text_width(title, BODY, True) + text_width(more, SMALL) + 12 > rect.w - 2 * PAD:
            more = f"{scroll + 1}-{min(len(wrapped), scroll + visible)} of {len(wrapped)}"
    # The title gives way to the line counter, so the two never overlap.
    room = rect.w - 2 * PAD - (text_width(more, SMALL) + 12 if more else 0)
    title = ellipsize(title, room, BODY, True)
    draw_text(surface, title, (rect.x + PAD, rect.y + 6), BODY, True, theme.ACCENT)
    if more:
        draw_text(surface, more, (rect.right - PAD, rect.y + 8), SMALL, False, theme.TEXT_FAINT, "topright")
    if not wrapped:
        draw_text(surface, "The working of the last question appears here.", (rect.x + PAD, rect.y + 30), SMALL,
                  False, theme.TEXT_FAINT)
        return
    log_body.draw(surface, body, wrapped[scroll:scroll + visible + 1], rect.x + PAD, SMALL, LOG_BACKGROUND)


# ---- the status bar -----------------------------------------------------------------------------------------------


def draw_status(surface, rect: pygame.Rect, table: TableData, tool: str, zoom: float) -> None:
    pygame.draw.rect(surface, theme.HEADER, rect)
    pygame.draw.line(surface, theme.PANEL_EDGE, rect.bottomleft, rect.bottomright)
    x = rect.x + PAD
    name = ellipsize(table.name, max(120, rect.w // 3), 17, True)
    r = draw_text(surface, name, (x, rect.centery), 17, True, theme.TEXT, "midleft")
    t = table.turn
    dash = "–"
    info = (f"Round {t.round if t.round is not None else dash}    Phase {t.phase or dash}    "
            f"Initiative {t.initiative or dash}    Turn {t.turn or dash}")
    right = f"Tool: {tool}    {zoom:.0f} px/in    H: help"
    room = rect.right - PAD - r.right - 28
    if text_width(info, BODY) + 28 + text_width(right, BODY) > room:
        right = "H: help"            # large text on a small window: the turn matters more than the zoom
    info = ellipsize(info, room - text_width(right, BODY) - 28, BODY)
    draw_text(surface, info, (r.right + 28, rect.centery), BODY, False, theme.TEXT_DIM, "midleft")
    draw_text(surface, right, (rect.right - PAD, rect.centery), BODY, False, theme.TEXT_DIM, "midright")


# ---- the legend ---------------------------------------------------------------------------------------------------

# What the marks on the table mean: drawn beside the keys in the table scenes' help overlay.
LEGEND = ("Marks on the table", [
    ("Blue / orange-red base", "side A (bottom) / side B (top)"),
    ("C T A S E", "Commander, Tactical, Assault, Scout, Engineer"),
    ("Diamond B K H R", "Basic, Kamikaze, Haywire, Recce drone"),
    ("Yellow badge", "Target counters"),
    ("Green dot", "holds its activation counter"),
    ("D / S tag", "Damaged / Stunned"),
    ("Numbered square", "blip counter"),
    ("Greek disc", "objective; ring: dashed contested, side colour secured"),
    ("Hatched terrain", "blocks line of sight"),
    ("Purple circle", "active jammer field (Heavy cover)"),
    ("Solid / dashed / dotted ring", "clear sight (sky blue, full disc) / cover (orange, half disc) / no line of "
                                     "sight (black, cross)"),
    ("Dashed, hatched, crossed", "a move or jump that is not allowed (vermillion; a legal one is solid blue)"),
    ("Waves / reeds", "swamp / marsh"),
    ("Blue to yellow cells", "exposure map: 0, 1, 2-3, 4+ enemies see a unit there (hover: the count)"),
])
