"""Colours, sizes and fonts of the table view: one place to tune how the program looks.

Colours that carry a meaning (the sides, sight, a legal or illegal move, the exposure map, a good or bad die) come
from the Okabe–Ito set and the cividis ramp, chosen so that they stay apart under deuteranopia, protanopia and
tritanopia (``tests/ui/test_ui_colour_vision.py`` measures them); each also has a second cue (ring style, glyph,
hatching, sign). ``apply(name)`` switches to another theme of ``THEMES`` (the high-contrast one) before the window
opens.
"""

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

# Okabe & Ito (2008), "Color Universal Design": eight colours told apart with every common colour-vision deficiency.
OKABE_ITO: dict[str, Colour] = {
    "black": (0, 0, 0), "orange": (230, 159, 0), "sky blue": (86, 180, 233), "bluish green": (0, 158, 115),
    "yellow": (240, 228, 66), "blue": (0, 114, 178), "vermillion": (213, 94, 0), "reddish purple": (204, 121, 167),
}
# Cividis (Nuñez, Anderton & Renslow 2018), sampled at six points: a ramp even in lightness, read the same with
# red-green deficiencies.
CIVIDIS: tuple[Colour, ...] = ((0, 34, 78), (53, 69, 108), (102, 105, 112), (148, 142, 119), (200, 184, 102),
                               (254, 232, 56))


def cividis(t: float) -> Colour:
    """The cividis ramp at ``t`` (0-1)."""
    x = max(0.0, min(1.0, t)) * (len(CIVIDIS) - 1)
    i = min(len(CIVIDIS) - 2, int(x))
    f = x - i
    a, b = CIVIDIS[i], CIVIDIS[i + 1]
    return (round(a[0] + (b[0] - a[0]) * f), round(a[1] + (b[1] - a[1]) * f), round(a[2] + (b[2] - a[2]) * f))


# Sides (A at the bottom of the screen, B at the top) and the marks on a base.
SIDE_COLOURS: dict[str, Colour] = {"A": OKABE_ITO["blue"], "B": OKABE_ITO["vermillion"]}
SIDE_LIGHT: dict[str, Colour] = {"A": (140, 200, 240), "B": (245, 170, 120)}
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
# Sight: clear is a solid ring, cover a dashed one, blocked a dotted one with a cross (``drawing.sight_ring``).
SIGHT_CLEAR: Colour = OKABE_ITO["sky blue"]
SIGHT_COVER: Colour = OKABE_ITO["orange"]
SIGHT_BLOCKED: Colour = OKABE_ITO["black"]
RULER: Colour = (20, 20, 20)
RULER_LABEL_BG: Colour = (255, 252, 235)
MOVE_LEGAL: Colour = OKABE_ITO["blue"]          # an illegal move is also hatched and crossed (``drawing.draw_move``)
MOVE_ILLEGAL: Colour = OKABE_ITO["vermillion"]
GOOD_TEXT: Colour = OKABE_ITO["sky blue"]       # a good line on a dark panel; a bad one is in ERROR
SIGNS = {"ok": "+ ", "bad": "− "}                 # before a good or bad line (dice report, seal checks)
# The exposure map: a point seen by 0, 1, 2-3, 4 or more enemies (``exposure.BANDS``), on the cividis ramp at points spaced so that
# neighbours differ by at least 20 (CIEDE2000) under every simulated deficiency; drawn nearly opaque.
EXPOSURE_LEVELS: tuple[Colour, ...] = (cividis(0.0), cividis(0.34), cividis(0.61), cividis(1.0))
EXPOSURE_ALPHA = 230

# Body text: the panels' and the log's size (``ui/scale.py`` chooses the scale that makes it readable).
BODY_SIZE = 14

# Layout (pixels at the default 1280 x 800 window).
STATUS_HEIGHT = 36
SIDE_PANEL_WIDTH = 440
LOG_HEIGHT = 250
TABLE_MARGINS = (34, 30, 18, 46)      # left, top, right, bottom: inch marks and the sides' edge labels

# Terrain told apart by more than its colour (swamp and marsh are two greens): a pattern over the fill.
TERRAIN_PATTERNS: dict[str, str] = {"swamp": "waves", "marsh": "reeds"}

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


GUI_COLOURS: dict[str, str] = {
    "normal_bg": "#3a4049", "hovered_bg": "#4a5260", "disabled_bg": "#2a2e34",
    "selected_bg": "#8a6d1c", "active_bg": "#8a6d1c", "dark_bg": "#23272d",
    "normal_text": "#e8eaed", "hovered_text": "#ffffff", "disabled_text": "#7a8088",
    "selected_text": "#ffffff", "active_text": "#ffffff",
    "normal_border": "#5a616c", "hovered_border": "#8a93a0", "disabled_border": "#3a3e44",
    "selected_border": "#f2c440", "active_border": "#f2c440",
    "text_cursor": "#ffffff",
}
LABEL_TEXT = "#a5abb4"

# The high-contrast theme: black panels, white text and edges, the table's cloth lighter and its marks heavier.
HIGH_CONTRAST: dict[str, object] = {
    "BACKGROUND": (0, 0, 0), "PANEL": (0, 0, 0), "PANEL_ALT": (18, 18, 18), "PANEL_EDGE": (255, 255, 255),
    "HEADER": (40, 40, 40), "TEXT": (255, 255, 255), "TEXT_DIM": (235, 235, 235), "TEXT_FAINT": (210, 210, 210),
    "ACCENT": OKABE_ITO["yellow"], "ERROR": (255, 140, 90), "CLOTH": (236, 232, 220), "CLOTH_EDGE": (0, 0, 0),
    "GRID": (60, 56, 48), "GRID_ALPHA": 110, "SELECTION": OKABE_ITO["yellow"],
    "GUI_COLOURS": {
        "normal_bg": "#000000", "hovered_bg": "#333333", "disabled_bg": "#000000",
        "selected_bg": "#5a4f00", "active_bg": "#5a4f00", "dark_bg": "#000000",
        "normal_text": "#ffffff", "hovered_text": "#ffffff", "disabled_text": "#9a9a9a",
        "selected_text": "#ffffff", "active_text": "#ffffff",
        "normal_border": "#ffffff", "hovered_border": "#f0e442", "disabled_border": "#777777",
        "selected_border": "#f0e442", "active_border": "#f0e442",
        "text_cursor": "#ffffff",
    },
    "LABEL_TEXT": "#ffffff",
}
THEMES: dict[str, dict[str, object]] = {"standard": {}, "high-contrast": HIGH_CONTRAST}
_STANDARD: dict[str, object] = {}
current_theme = ["standard"]


def apply(name: str) -> None:
    """Switch every colour of this module to the theme ``name`` (before scenes lay themselves out)."""
    if name not in THEMES:
        raise ValueError(f"no theme called {name!r} (known: {', '.join(THEMES)})")
    here = globals()
    if not _STANDARD:
        _STANDARD.update({k: here[k] for t in THEMES.values() for k in t})
    here.update(_STANDARD)
    here.update(THEMES[name])
    current_theme[0] = name


def gui_theme() -> dict:
    """pygame_gui theme: the same dark panels and Noto Sans as the hand-drawn parts."""
    font = {"name": "noto_sans", "size": "15", "bold": "0"}
    bold = {"name": "noto_sans", "size": "15", "bold": "1"}
    return {
        "defaults": {"colours": dict(GUI_COLOURS)},
        "button": {"font": bold, "misc": {"shape": "rounded_rectangle", "shape_corner_radius": "4",
                                          "border_width": "1", "shadow_width": "0"}},
        "label": {"font": font, "colours": {"normal_text": LABEL_TEXT}, "misc": {"text_horiz_alignment": "left"}},
        "text_entry_line": {"font": font},
        "text_box": {"font": font},
        "window": {"font": font},
        "file_dialog": {"font": font},
        "tool_tip": {"font": {"name": "noto_sans", "size": "13", "bold": "0"}},
    }
