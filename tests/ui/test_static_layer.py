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
