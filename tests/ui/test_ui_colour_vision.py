"""Every colour that carries a meaning on the table stays apart from the others of its kind for players with a
colour-vision deficiency: the table is rendered, each meaning's colour is read back from the picture, and every pair
must differ by at least 20 (CIEDE2000) as seen with deuteranopia, protanopia and tritanopia (Machado 2009)."""

from collections import Counter

import numpy as np
import pygame
import pytest

from referee import paths
from referee.ui import theme
from referee.ui.exposure import show_now
from referee.rules.questions import BLOCKED, CLEAR
from referee.ui.scenes.table import TableScene
from referee.ui.scenes.table_common import MOVE
from referee.ui.table_data import load_table

from tests.ui.colour_vision import DEFICIENCIES, closest_pairs, simulate

GOAL = 20.0


@pytest.fixture(scope="module")
def table():
    return load_table(paths.DEFAULT_SCENARIO)


@pytest.fixture
def scene(fresh, table):
    s = fresh.push(TableScene(table))
    yield s
    s.exposure.worker.stop()


def picture(app) -> np.ndarray:
    app.render()
    return pygame.surfarray.array3d(app.screen).reshape(-1, 3)


def drawn(pixels: np.ndarray, colour, tolerance: int = 0, least: int = 20) -> tuple[int, int, int]:
    """The colour as the picture holds it: the commonest pixel within ``tolerance`` of ``colour`` (blending rounds
    by a unit or two), found on at least ``least`` pixels."""
    near = pixels[np.all(np.abs(pixels.astype(int) - np.asarray(colour)) <= tolerance, axis=1)]
    assert len(near) >= least, f"{colour} is not drawn on the table ({len(near)} pixels)"
    value, _count = Counter(map(tuple, near.tolist())).most_common(1)[0]
    return (int(value[0]), int(value[1]), int(value[2]))


def blend(colour, under, alpha: int) -> tuple[int, int, int]:
    return tuple(round(c * alpha / 255 + u * (1 - alpha / 255)) for c, u in zip(colour, under))


def meanings(app, scene) -> dict[str, dict[str, tuple[int, int, int]]]:
    """The meaning-carrying colours, read from renders of the default table."""
    scene.select("a-tactical-1")
    sights = {pair.sight for pair in scene.report.enemies}
    assert {CLEAR, "cover", BLOCKED} <= sights, "the default table should show all three kinds of sight"
    pixels = picture(app)
    groups = {
        "sight": {"clear": drawn(pixels, theme.SIGHT_CLEAR), "cover": drawn(pixels, theme.SIGHT_COVER),
                  "blocked": drawn(pixels, theme.SIGHT_BLOCKED)},
        "sides": {"A": drawn(pixels, theme.SIDE_COLOURS["A"]), "B": drawn(pixels, theme.SIDE_COLOURS["B"])},
    }
    scene.set_tool(MOVE)
    scene.set_move_path([(11.0, 6.5)])
    assert scene.move_result is not None and scene.move_result.legal
    legal = drawn(picture(app), theme.MOVE_LEGAL)
    scene.set_move_path([(14.0, 12.0), (30.0, 30.0)])
    assert scene.move_result is not None and not scene.move_result.legal
    groups["move"] = {"legal": legal, "illegal": drawn(picture(app), theme.MOVE_ILLEGAL)}
    scene.escape()
    assert show_now(scene, "A")
    pixels = picture(app)
    groups["exposure"] = {f"seen by {n}": drawn(pixels, blend(c, theme.CLOTH, theme.EXPOSURE_ALPHA), 3)
                          for n, c in enumerate(theme.EXPOSURE_LEVELS)}
    return groups


def test_meaning_carrying_colours_stay_apart_under_every_simulated_deficiency(fresh, scene):
    groups = meanings(fresh, scene)
    worst = []
    for deficiency in DEFICIENCIES:
        for kind, colours in groups.items():
            d, a, b = closest_pairs(colours, deficiency)[0]
            worst.append((round(d, 1), deficiency, kind, a, b))
    failing = [w for w in worst if w[0] < GOAL]
    assert not failing, f"closer than ΔE {GOAL}: {failing}"


def test_the_old_palette_fails_the_same_measure():
    """The measure tells palettes apart: the green / amber / red rings of before are too close with deuteranopia."""
    old = {"clear": (30, 170, 60), "cover": (235, 150, 20), "blocked": (220, 40, 40)}
    d, a, b = closest_pairs(old, "deuteranopia")[0]
    assert d < GOAL and {a, b} == {"clear", "blocked"}


def test_simulation_matches_machado_for_pure_red():
    """A known value: Machado's deuteranopia matrix (severity 1) maps linear red (1, 0, 0) to (0.367, 0.280,
    -0.012), clipped to (0.367, 0.280, 0): in sRGB (163.2, 144.3, 0), worked out by hand."""
    seen = simulate((255, 0, 0), "deuteranopia")
    assert np.allclose(seen, (163.2, 144.3, 0.0), atol=1.0)
