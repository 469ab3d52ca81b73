"""Mirroring a physical table (ui.editing): every edit is checked by the scenario model; saving round-trips."""

import math

import pytest

from referee import paths
from referee.rules.errors import InputError
from referee.rules.scenario import Scenario, load_scenario, scenario_problems
from referee.ui.editing import CORNER_GAP, PolygonDraft, TableEditor, default_facing, name_items, placeable_terrain

WOOD = [(10.0, 10.0), (16.0, 10.0), (16.0, 18.0), (10.0, 18.0)]


def unit(editor, side="A", x=4.0, y=4.0, unit_type="tactical", faction="council-of-zane", rating="veteran"):
    return editor.place_unit(side, faction, rating, unit_type, x, y)


def test_draw_a_polygon_save_and_load_gives_the_same_terrain(tmp_path):
    ed = TableEditor.empty(48, 48, "Garden")
    edit = ed.add_polygon("woods", WOOD)
    assert edit.ok and edit.item == "woods-1"
    assert ed.add_circle("crater", 30, 30, 2.5).ok
    assert ed.dirty

    path = tmp_path / "garden.toml"
    saved = ed.save(path)
    assert saved.ok, saved.message
    assert not ed.dirty and ed.source == path

    loaded = load_scenario(path)
    assert loaded.name == "Garden"
    assert (loaded.table.width, loaded.table.height) == (48, 48)
    assert [(t.id, t.type) for t in loaded.terrain] == [("woods-1", "woods"), ("crater-1", "crater")]
    assert [tuple(p) for p in loaded.terrain[0].polygon] == WOOD
    c = loaded.terrain[1].circle
    assert (c.x, c.y, c.r) == (30, 30, 2.5)
    assert loaded == ed.scenario


def test_json_save_is_the_same_table(tmp_path):
    ed = TableEditor.empty()
    ed.add_polygon("hills", WOOD)
    unit(ed)
    assert ed.save(tmp_path / "t.json").ok
    assert load_scenario(tmp_path / "t.json") == ed.scenario


def test_a_bundled_scenario_survives_the_editor_unchanged(tmp_path):
    source = paths.SCENARIO_DIR / "cover-example.toml"
    ed = TableEditor.open(source)
    assert ed.save(tmp_path / "copy.toml").ok
    assert load_scenario(tmp_path / "copy.toml") == load_scenario(source)


def test_overlapping_units_are_refused_with_the_rule_and_nothing_changes():
    ed = TableEditor.empty()
    assert unit(ed, "A", 4, 4).ok
    before, rev = ed.scenario, ed.revision
    edit = unit(ed, "B", 4.6, 4.0, "assault")
    assert not edit.ok
    assert "overlaps" in edit.message and "[p.18, A51]" in edit.message
    assert "b-assault-1" in edit.message and "a-tactical-1" in edit.message
    assert ed.scenario is before and ed.revision == rev
    # touching is allowed (A51)
    assert unit(ed, "B", 5.0, 4.0, "assault").ok


def test_moving_onto_another_base_is_refused_and_the_piece_stays():
    ed = TableEditor.empty()
    unit(ed, "A", 4, 4)
    ed.place_blip("B", 10, 10)
    edit = ed.move("b-blip-1", 4.3, 4.2)
    assert not edit.ok and "overlaps" in edit.message
    b = ed.entry("b-blip-1")
    assert (b.x, b.y) == (10, 10)
    assert ed.move("b-blip-1", 12, 11).ok
    assert (ed.entry("b-blip-1").x, ed.entry("b-blip-1").y) == (12, 11)


def test_off_the_table_is_refused_by_the_loader_rule():
    ed = TableEditor.empty(36, 36)
    edit = unit(ed, "A", 40, 4)
    assert not edit.ok and "off the 36\" x 36\" table" in edit.message


def test_a_self_intersecting_polygon_is_refused_with_the_loaders_message():
    ed = TableEditor.empty()
    bowtie = [(10, 10), (16, 18), (16, 10), (10, 18)]
    edit = ed.add_polygon("woods", bowtie)
    assert not edit.ok
    assert "woods-1" in edit.message and "edges do not cross" in edit.message
    # Where, in the table's words (the bowtie's edges cross at its middle), not the geometry library's.
    assert "(its edges cross at (13, 14))" in edit.message and "Self-intersection" not in edit.message
    assert ed.scenario.terrain == []
    # the same words as the scenario model's own check of that polygon
    candidate = Scenario(terrain=[{"id": "woods-1", "type": "woods", "polygon": [list(p) for p in bowtie]}])
    assert scenario_problems(candidate)[0].split(": ", 1)[1] in edit.message


@pytest.mark.parametrize("corners, words", [
    ([(1, 1), (5, 5)], "at least 3 points"),
    ([(1, 1), (3, 3), (5, 5)], "edges do not cross"),      # in a line: no area
])
def test_too_small_polygons_are_refused(corners, words):
    ed = TableEditor.empty()
    edit = ed.add_polygon("bush", corners)
    assert not edit.ok and words in edit.message and not ed.scenario.terrain


def test_a_circle_needs_a_radius_and_a_known_type():
    ed = TableEditor.empty()
    edit = ed.add_circle("smoke", 10, 10, 0)
    assert not edit.ok and "smoke-1" in edit.message and "greater than 0" in edit.message
    assert not ed.add_circle("jammer-field", 10, 10, 3).ok          # placed by the program only
    assert "jammer-field" not in placeable_terrain()
    assert not ed.add_polygon("lava", WOOD).ok


def test_ids_count_up_per_type_and_side():
    ed = TableEditor.empty()
    ed.add_polygon("woods", WOOD)
    ed.add_polygon("woods", [(20, 20), (24, 20), (22, 24)])
    unit(ed, "A", 2, 2)
    unit(ed, "A", 4, 2)
    unit(ed, "B", 2, 30)
    ed.place_blip("B", 6, 30)
    ed.place_objective(None, 18, 18)
    ed.place_objective("delta", 20, 18)
    assert [t.id for t in ed.scenario.terrain] == ["woods-1", "woods-2"]
    assert [u.id for u in ed.scenario.units] == ["a-tactical-1", "a-tactical-2", "b-tactical-1"]
    assert [o.id for o in ed.scenario.objectives] == ["alpha", "delta"]
    assert not ed.place_objective("delta", 30, 30).ok
    assert ed.free_objectives() == ["beta", "gamma", "epsilon"]


def test_facing_counters_damaged_stunned():
    ed = TableEditor.empty()
    unit(ed, "A", 4, 4)
    unit(ed, "B", 10, 30, "basic-drone")
    t = "a-tactical-1"
    assert ed.entry(t).facing == default_facing("A") == 90
    assert ed.entry("b-basic-drone-1").facing == 0
    assert ed.rotate(t, 15).ok and ed.entry(t).facing == 105
    assert ed.rotate(t, -120).ok and ed.entry(t).facing == 345
    assert not ed.rotate("b-basic-drone-1", 15).ok
    assert ed.add_counters(t, 2).ok and ed.entry(t).target_counters == 2
    assert ed.add_counters(t, -1).ok and ed.entry(t).target_counters == 1
    ed.add_counters(t, -1)
    assert not ed.add_counters(t, -1).ok
    assert ed.toggle(t, "damaged").ok and ed.entry(t).damaged
    assert ed.toggle(t, "stunned").ok and ed.entry(t).stunned
    edit = ed.toggle("b-basic-drone-1", "damaged")
    assert not edit.ok and "drones are never Damaged" in edit.message and "b-basic-drone-1" in edit.message
    ed.place_blip("A", 20, 4)
    assert not ed.add_counters("a-blip-1", 1).ok
    ed.place_objective(None, 18, 18)
    assert ed.add_counters("alpha", 1).ok and ed.entry("alpha").target_counters == 1


def test_terrain_type_move_and_delete_and_undo():
    ed = TableEditor.empty()
    ed.add_polygon("woods", WOOD)
    assert ed.set_terrain_type("woods-1", "hills").ok and ed.entry("woods-1").type == "hills"
    assert ed.move("woods-1", 20, 20).ok
    assert ed.terrain_centre("woods-1") == (20, 20)
    assert ed.delete("woods-1").ok and ed.kind_of("woods-1") is None
    assert ed.undo().ok and ed.terrain_centre("woods-1") == (20, 20)
    assert ed.undo().ok and ed.terrain_centre("woods-1") == (13, 14)
    assert ed.undo().ok and ed.entry("woods-1").type == "woods"
    assert ed.undo().ok and ed.scenario.terrain == []
    assert not ed.undo().ok


def test_refused_save_writes_nothing_and_keeps_the_table(tmp_path):
    ed = TableEditor.empty()
    ed.add_polygon("woods", WOOD)
    assert not ed.save(tmp_path / "table.txt").ok
    assert not ed.save(tmp_path).ok                         # a folder
    blocker = tmp_path / "file"
    blocker.write_text("x")
    edit = ed.save(blocker / "table.toml")                  # a file where a folder should be
    assert not edit.ok and "cannot be written" in edit.message
    assert ed.dirty and len(ed.scenario.terrain) == 1
    assert list(tmp_path.iterdir()) == [blocker]


def test_a_unit_of_an_unknown_faction_is_refused_naming_it():
    ed = TableEditor.empty()
    edit = unit(ed, faction="nobody-we-know")
    assert not edit.ok and "a-tactical-1" in edit.message and "nobody-we-know" in edit.message


def test_table_sizes():
    assert TableEditor.empty(72, 48).width == 72
    with pytest.raises(InputError):
        TableEditor.empty(0, 36)
    with pytest.raises(InputError):
        TableEditor.empty(math.inf, 36)


def test_polygon_draft_clamps_to_the_table_and_ignores_a_double_click():
    d = PolygonDraft(36, 36)
    assert d.add(-2, 5).ok and d.corners[-1] == (0, 5)
    assert not d.add(CORNER_GAP / 3, 5).ok and len(d) == 1
    assert d.add(10, 40).ok and d.corners[-1] == (10, 36)
    assert d.remove_last().ok and len(d) == 1
    assert not d.add(math.nan, 1).ok


def test_name_items_adds_ids():
    s = Scenario(units=[{"id": "u", "side": "A", "faction": "new-tokyo", "rating": "veteran", "type": "scout",
                         "x": 1, "y": 1}])
    assert name_items("units[0].type: bad", s) == "u.type: bad"
    assert name_items("blips[0]: base of 'b' overlaps 'u' (units[0]) by 1", s) == "blips[0]: base of 'b' overlaps 'u' by 1"


def test_refusals_are_in_the_editors_words_not_the_libraries():
    ed = TableEditor.empty()
    assert ed.place_unit("A", "new-tokyo", "veteran", "tactical", 10, 10).ok
    edit = ed.set_exact("a-tactical-1", {"x": "ten"})
    assert not edit.ok and edit.message == "a-tactical-1 not changed: x: expected a number of inches (got 'ten')"
    edit = ed.add_circle("woods", 5, 5, -1)
    assert not edit.ok and "expected greater than 0" in edit.message and "Input should" not in edit.message
