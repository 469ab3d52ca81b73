"""Colours, sizes and fonts of the table view: one place to tune how the program looks."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import pygame

Colour = tuple[int, int, int]

# Window chrome: dark panels around a light table, so the table is what the eye finds first.
BACKGROUND: Colour = (30, 33, 38)
PANEL: Colour = (40, 44, 51)
PANEL_ALT: Colour = (47, 52, 60)
PANEL_EDGE: Colour = (74, 80, 90)
HEADER: Colour = (56, 62, 72)
TEXT: Colour = (232, 234, 237)
TEXT_DIM: Colour = (165, 171, 180)
TEXT_FAINT: Colour = (120, 126, 136)
ACCENT: Colour = (242, 196, 64)
ERROR: Colour = (255, 120, 110)

# The table.
CLOTH: Colour = (201, 196, 178)
CLOTH_EDGE: Colour = (92, 86, 74)
GRID: Colour = (120, 112, 96)
GRID_ALPHA = 70
TERRAIN_OUTLINE_DARKEN = 0.55

# Sides (A at the bottom of the screen, B at the top) and the marks on a base.
SIDE_COLOURS: dict[str, Colour] = {"A": (46, 104, 206), "B": (200, 52, 44)}
SIDE_LIGHT: dict[str, Colour] = {"A": (140, 180, 255), "B": (255, 150, 140)}
BASE_OUTLINE: Colour = (20, 20, 24)
COUNTER_BADGE: Colour = (250, 204, 40)
COUNTER_TEXT: Colour = (30, 24, 0)
ACTIVATION_MARK: Colour = (70, 220, 110)
DAMAGED_MARK: Colour = (255, 140, 20)
STUNNED_MARK: Colour = (170, 110, 255)
JAMMER: Colour = (176, 92, 200)
BLIP_FILL: Colour = (58, 58, 64)
DECOY_MARK: Colour = (150, 150, 158)     # the cross on a player's own decoy blip (seen by its owner only)
OBJECTIVE_RED: Colour = (196, 40, 40)       # alpha, beta, gamma: placed by the defender
OBJECTIVE_BLUE: Colour = (40, 80, 196)      # delta, epsilon: placed by the attacker
CONTESTED: Colour = (245, 245, 245)

# Overlays of the tools.
SELECTION: Colour = (255, 236, 120)
OUT_OF_ARC = (40, 36, 60, 60)       # shade over the half of the table behind a trooper
SENSOR_RING: Colour = (20, 150, 170)
BAND_RING: Colour = (60, 60, 60)
RIFLE_RING: Colour = (150, 40, 40)
SIGHT_CLEAR: Colour = (30, 170, 60)
SIGHT_COVER: Colour = (235, 150, 20)
SIGHT_BLOCKED: Colour = (220, 40, 40)
RULER: Colour = (20, 20, 20)
RULER_LABEL_BG: Colour = (255, 252, 235)
MOVE_LEGAL: Colour = (20, 140, 60)
MOVE_ILLEGAL: Colour = (210, 40, 40)

# Layout (pixels at the default 1280 x 800 window).
STATUS_HEIGHT = 36
SIDE_PANEL_WIDTH = 440
LOG_HEIGHT = 250
TABLE_MARGINS = (34, 30, 18, 46)      # left, top, right, bottom: inch marks and the sides' edge labels

GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε"}
TROOPER_LETTERS = {"commander": "C", "tactical": "T", "assault": "A", "scout": "S", "engineer": "E"}
DRONE_LETTERS = {"basic-drone": "B", "kamikaze-drone": "K", "haywire-drone": "H", "recce-drone": "R"}


def hex_colour(value: str) -> Colour:
    value = value.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def darker(c: Colour, factor: float = TERRAIN_OUTLINE_DARKEN) -> Colour:
    return (int(c[0] * factor), int(c[1] * factor), int(c[2] * factor))


def lighter(c: Colour, amount: float = 0.5) -> Colour:
    r, g, b = c[:3]
    return int(r + (255 - r) * amount), int(g + (255 - g) * amount), int(b + (255 - b) * amount)


def text_on(c: Colour) -> Colour:
    """Black or white, whichever reads better on ``c``."""
    luminance = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
    return (20, 20, 20) if luminance > 150 else (250, 250, 250)


def _font_file(bold: bool) -> str | None:
    """Noto Sans ships with pygame_gui and has Greek letters and the degree sign; fall back to pygame's own."""
    name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
    try:
        path = resources.files("pygame_gui.data") / name
        if path.is_file():
            return str(path)
    except (ModuleNotFoundError, FileNotFoundError):
        pass
    return None


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(_font_file(bold), max(6, int(size)))


def gui_theme() -> dict:
    """pygame_gui theme: the same dark panels and Noto Sans as the hand-drawn parts."""
    font = {"name": "noto_sans", "size": "15", "bold": "0"}
    bold = {"name": "noto_sans", "size": "15", "bold": "1"}
    return {
        "defaults": {
            "colours": {
                "normal_bg": "#3a4049", "hovered_bg": "#4a5260", "disabled_bg": "#2a2e34",
                "selected_bg": "#8a6d1c", "active_bg": "#8a6d1c", "dark_bg": "#23272d",
                "normal_text": "#e8eaed", "hovered_text": "#ffffff", "disabled_text": "#7a8088",
                "selected_text": "#ffffff", "active_text": "#ffffff",
                "normal_border": "#5a616c", "hovered_border": "#8a93a0", "disabled_border": "#3a3e44",
                "selected_border": "#f2c440", "active_border": "#f2c440",
                "text_cursor": "#ffffff",
            }
        },
        "button": {"font": bold, "misc": {"shape": "rounded_rectangle", "shape_corner_radius": "4",
                                          "border_width": "1", "shadow_width": "0"}},
        "label": {"font": font, "colours": {"normal_text": "#a5abb4"}, "misc": {"text_horiz_alignment": "left"}},
        "text_entry_line": {"font": font},
        "text_box": {"font": font},
        "window": {"font": font},
        "file_dialog": {"font": font},
        "tool_tip": {"font": {"name": "noto_sans", "size": "13", "bold": "0"}},
    }
