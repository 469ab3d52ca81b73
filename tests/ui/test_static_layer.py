"""The picture of the cloth, terrain and grid is drawn again when the terrain or the view changes, not when the
battle makes a new table after an action on the same terrain."""

from dataclasses import replace
from pathlib import Path

from referee.rules.battlefield import disc_feature
from referee.ui import theme
from referee.ui.scenes.table import TableScene
from referee.ui.table_data import load_table

TABLE = Path(__file__).with_name("table.toml")


def test_the_static_picture_follows_the_terrain_not_the_table_object(fresh, monkeypatch):
    scene = fresh.push(TableScene(load_table(TABLE)))
    drawn = []
    real = scene._draw_static
    monkeypatch.setattr(scene, "_draw_static", lambda surface: drawn.append(1) or real(surface))
    fresh.step(1 / 30, events=[])
    fresh.step(1 / 30, events=[])
    assert len(drawn) == 1
    scene.table = load_table(TABLE)                 # a new table, the same terrain (as after a move)
    fresh.step(1 / 30, events=[])
    assert len(drawn) == 1
    smoke = disc_feature("smoke-1", "smoke", 10.0, 10.0, 2.5)       # a flamer's smoke: new terrain
    scene.table.bf.terrain.append(smoke)
    scene.table = replace(scene.table)
    fresh.step(1 / 30, events=[])
    assert len(drawn) == 2
    x, y = scene.view.to_screen(10.0, 10.0)
    assert scene._static[1].get_at((round(x), round(y)))[:3] == theme.hex_colour(smoke.ttype.colour)[:3]


def test_terrain_off_the_table_is_not_drawn_over_the_margin(fresh):
    """A missile deviating off the table leaves its crater there (A29): the margin beside the table stays bare."""
    scene = fresh.push(TableScene(load_table(TABLE)))
    crater = disc_feature("crater-1", "crater", -4.0, 5.0, 1.5)
    scene.table.bf.terrain.append(crater)
    scene.table = replace(scene.table)
    fresh.step(1 / 30, events=[])
    x, y = scene.view.to_screen(-4.0, 5.0)
    assert not scene.cloth_rect().collidepoint(x, y) and scene.layout.table.collidepoint(x, y)
    assert scene._static[1].get_at((round(x), round(y)))[:3] == theme.BACKGROUND[:3]
    inside = disc_feature("crater-2", "crater", 1.0, 5.0, 1.5)          # half on the table: its half is drawn
    scene.table.bf.terrain.append(inside)
    scene.table = replace(scene.table)
    fresh.step(1 / 30, events=[])
    x, y = scene.view.to_screen(1.5, 5.0)
    assert scene._static[1].get_at((round(x), round(y)))[:3] == theme.hex_colour(inside.ttype.colour)[:3]
