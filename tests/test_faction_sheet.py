"""The printable faction sheet: written headless, A4-sized, and not blank."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from referee import paths  # noqa: E402
from referee.authoring.sheet import SHEET_SIZE, draw_emblem, hex_colour, render_sheet, save_sheet  # noqa: E402
from referee.cli.main import main  # noqa: E402
from referee.rules.campaign_upgrades import apply_upgrade  # noqa: E402
from referee.rules.errors import InputError  # noqa: E402
from referee.rules.factions import EMBLEMS, load_faction  # noqa: E402

SAMPLES = ("new-tokyo", "peoples-utopian-collective", "council-of-zane")


def sample(name):
    return load_faction(paths.DATA_DIR / "factions" / f"{name}.toml")


def pixels(path):
    return pygame.surfarray.array3d(pygame.image.load(str(path)))


@pytest.mark.parametrize("name", SAMPLES)
def test_sheet_png_is_a4_and_not_blank(tmp_path, name):
    faction = sample(name)
    out = save_sheet(faction, tmp_path / f"{name}.png")
    assert out.is_file() and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = pixels(out)
    assert img.shape[:2] == SHEET_SIZE == (1240, 1754)
    colours = np.unique(img[::7, ::7].reshape(-1, 3), axis=0)
    assert len(colours) > 50                                   # text, tables, emblem: many shades
    grey = img.mean(axis=2)
    assert (grey < 80).mean() > 0.01                           # plenty of dark ink (text)
    assert (grey > 240).mean() > 0.4                           # mostly white paper
    assert tuple(img[600, 20]) == hex_colour(faction.colours.primary)   # the header band in the faction colour
    assert [p.name for p in tmp_path.iterdir()] == [f"{name}.png"]      # no temporary file left


def test_sheet_shows_upgrades_and_differs(tmp_path):
    nt = sample("new-tokyo")
    up = apply_upgrade(nt, "veteran", "armour", sample("peoples-utopian-collective"), battle=2)
    a = pygame.surfarray.array3d(render_sheet(nt))
    b = pygame.surfarray.array3d(render_sheet(up))
    assert (a != b).any(axis=2).sum() > 200


def test_every_emblem_draws_something():
    for emblem in EMBLEMS:
        surface = pygame.Surface((220, 220))
        surface.fill((255, 255, 255))
        draw_emblem(surface, emblem, (110, 110), 100, (200, 40, 40), (250, 250, 240))
        img = pygame.surfarray.array3d(surface)
        assert tuple(img[110, 110]) != (255, 255, 255), emblem        # the badge covers the centre
        assert len(np.unique(img.reshape(-1, 3), axis=0)) > 10, emblem


def test_sheet_rejects_a_non_png_name(tmp_path):
    with pytest.raises(InputError) as err:
        save_sheet(sample("new-tokyo"), tmp_path / "sheet.jpg")
    assert "expected a file name ending in .png" in err.value.message()


def test_sheet_command(tmp_path, capsys):
    out = tmp_path / "zane.png"
    status = main(["faction", "sheet", "council-of-zane", "--out", str(out)])
    printed = capsys.readouterr().out
    assert status == 0 and f"Wrote {out}" in printed and "1240x1754" in printed
    assert pixels(out).shape[:2] == (1240, 1754)
