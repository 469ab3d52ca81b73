"""The one-page summary of a finished battle as a picture: the final table beside the summary's text.

Draws ``game.summary.Summary`` and the end-of-battle view it was made from; it computes nothing of the rules.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from ..authoring.sheet import wrap
from ..game.reports.summary import Summary
from ..game.views.view_types import PlayerView
from ..rules.catalogue import terrain_types
from ..rules.errors import InputError
from . import theme

PAGE = (1400, 900)
PAPER = (250, 248, 242)
INK = (30, 30, 34)
DIM = (100, 100, 108)
MAP_BOX = pygame.Rect(30, 120, 620, 620)
TEXT_LEFT = 690
KIND_COLOURS = {"kill": (190, 40, 40), "objective": (30, 110, 60), "reveal": (70, 70, 150)}


def _draw_table(page: pygame.Surface, view: PlayerView) -> None:
    w, h = view["table"]["width"], view["table"]["height"]
    scale = min(MAP_BOX.w / w, MAP_BOX.h / h)
    left, top = MAP_BOX.x, MAP_BOX.y

    def at(x: float, y: float) -> tuple[int, int]:
        # Side A's edge (y = 0) at the bottom, as in the table view.
        return int(left + x * scale), int(top + (h - y) * scale)

    pygame.draw.rect(page, theme.CLOTH, (left, top, int(w * scale), int(h * scale)))
    page.set_clip(pygame.Rect(left, top, int(w * scale), int(h * scale)))
    types = terrain_types()
    for t in view.get("terrain", []):
        colour = theme.hex_colour(types[t["type"]].colour) if t["type"] in types else (150, 150, 150)
        if "polygon" in t:
            points = [at(x, y) for x, y in t["polygon"]]
            pygame.draw.polygon(page, colour, points)
            pygame.draw.polygon(page, theme.darker(colour), points, 2)
        else:
            c = t["circle"]
            pygame.draw.circle(page, colour, at(c["x"], c["y"]), max(2, int(c["r"] * scale)))
    for o in view.get("objectives", []):
        pos = at(o["x"], o["y"])
        if o.get("destroyed"):
            pygame.draw.line(page, INK, (pos[0] - 7, pos[1] - 7), (pos[0] + 7, pos[1] + 7), 3)
            pygame.draw.line(page, INK, (pos[0] - 7, pos[1] + 7), (pos[0] + 7, pos[1] - 7), 3)
        else:
            fill = theme.SIDE_COLOURS.get(o.get("control"), theme.CONTESTED)
            diamond = [(pos[0], pos[1] - 10), (pos[0] + 10, pos[1]), (pos[0], pos[1] + 10), (pos[0] - 10, pos[1])]
            pygame.draw.polygon(page, fill, diamond)
            pygame.draw.polygon(page, INK, diamond, 2)
        label = theme.font(14, True).render(theme.GREEK.get(o["id"], o["id"]), True, INK)
        page.blit(label, (pos[0] + 11, pos[1] - 9))
    for u in view.get("units", []):
        pos = at(u["x"], u["y"])
        pygame.draw.circle(page, theme.SIDE_COLOURS[u["side"]], pos, max(4, int(u.get("base", 1) * scale / 2)))
        pygame.draw.circle(page, theme.BASE_OUTLINE, pos, max(4, int(u.get("base", 1) * scale / 2)), 1)
    for b in view.get("blips", []):
        pos = at(b["x"], b["y"])
        pygame.draw.circle(page, theme.SIDE_LIGHT[b["side"]], pos, 4)
    page.set_clip(None)
    pygame.draw.rect(page, theme.CLOTH_EDGE, (left, top, int(w * scale), int(h * scale)), 2)
    small = theme.font(14)
    page.blit(small.render("side A's edge", True, DIM), (left, top + int(h * scale) + 4))
    page.blit(small.render("side B's edge", True, DIM), (left, top - 18))
    legend = ("at the end: circles are units, small dots blips; diamonds are objectives in the colour of the side "
              "holding them (white: Contested, a cross: destroyed)")
    y = top + int(h * scale) + 24
    for part in wrap(small, legend, MAP_BOX.w):
        page.blit(small.render(part, True, DIM), (left, y))
        y += small.get_linesize()


def render_summary(summary: Summary, view: PlayerView) -> pygame.Surface:
    if not pygame.font.get_init():
        pygame.font.init()
    page = pygame.Surface(PAGE)
    page.fill(PAPER)
    title = theme.font(30, True)
    body = theme.font(17)
    bold = theme.font(17, True)
    page.blit(title.render(summary.name, True, INK), (30, 20))
    page.blit(theme.font(20, True).render(summary.headline(), True, INK), (30, 56))
    _draw_table(page, view)
    width = PAGE[0] - TEXT_LEFT - 30
    y = 120

    def line(text: str, font=body, colour=INK, indent: int = 0) -> None:
        nonlocal y
        for part in wrap(font, text, width - indent):
            page.blit(font.render(part, True, colour), (TEXT_LEFT + indent, y))
            y += font.get_linesize()

    roles = ("a Chance Encounter" if summary.attacker is None else
             f"side {summary.attacker} attacks")
    line(f"{summary.rounds} rounds, {roles}; Table "
         + ("Contested" if summary.control is None else f"Controlled by side {summary.control}"), body, DIM)
    y += 8
    for side in ("A", "B"):
        pygame.draw.rect(page, theme.SIDE_COLOURS[side], (TEXT_LEFT - 14, y + 4, 8, 16))
        line(f"Side {side}: {summary.factions[side]}, {summary.vp[side]} VP", bold)
        line(f"Mission: {summary.missions.get(side, 'none')}", body, INK, 8)
        line("Lost: " + (", ".join(summary.lost[side]) or "none"), body, INK, 8)
        y += 6
    y += 6
    line("Turning points", bold)
    points = summary.turning_points
    if not points:
        line("none: no unit destroyed, no blip revealed, no objective taken", body, DIM, 8)
    bottom = PAGE[1] - 20 - body.get_linesize()

    def height(text: str) -> int:
        return len(wrap(body, text, width - 8)) * body.get_linesize()

    # Kills and objectives first, then reveals, as far as the page has room; shown in the order they happened.
    order = sorted(range(len(points)), key=lambda i: (points[i][1] == "reveal", i))
    room, keep = bottom - y, set()
    for i in order:
        need = height(f"round {points[i][0]}: {points[i][2]}")
        if need > room:
            break
        keep.add(i)
        room -= need
    for i, (rnd, kind, text) in enumerate(points):
        if i in keep:
            line(f"round {rnd}: {text}", body, KIND_COLOURS.get(kind, INK), 8)
    if len(keep) < len(points):
        line(f"... and {len(points) - len(keep)} more (the text summary lists them all)", body, DIM, 8)
    return page


def save_summary_png(summary: Summary, view: PlayerView, path: Path | str) -> Path:
    path = Path(path)
    page = render_summary(summary, view)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(page, str(path))
    except (OSError, pygame.error) as e:
        raise InputError(str(path), f"cannot be written ({e})") from None
    return path
