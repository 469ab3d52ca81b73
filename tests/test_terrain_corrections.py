"""The table drifts, terrain included: smoke laid or cleared, a crater added, a wood moved, turned or lifted off.
Each is a logged correction that says what changed and replays from the save; a piece that would cross its own
edges or leave the table is refused with the reason and nothing changes."""

from pathlib import Path

import pytest

from referee.game.battle.intents import Action
from referee.game.records.record import read_save, state_digest
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession

SMALL = Path(__file__).parent / "ui" / "small_table.toml"


@pytest.fixture
def session() -> RefereeSession:
    s = RefereeSession.from_scenario(load_scenario(SMALL))
    s.autosaving = False
    return s


def terrain(s: RefereeSession, ident: str):
    return next(t for t in s.state.terrain if t.id == ident)


def test_a_wood_moved_and_turned_says_what_changed(session):
    assert session.correct_terrain("woods-1", move=(2, -1)).legal
    assert terrain(session, "woods-1").polygon == [[16, 13], [22, 13], [22, 18], [16, 18]]
    assert session.state.log[-1].text == ('correction: woods-1 (woods) moved +2" across, -1" up: '
                                          '4 corners about (17.0, 16.5) -> 4 corners about (19.0, 15.5)')
    assert session.correct_terrain("woods-1", turn=90).legal
    # turned a quarter counter-clockwise about its centre (19, 15.5): 6" wide, 5" deep becomes 5" wide, 6" deep
    assert terrain(session, "woods-1").polygon == [[21.5, 12.5], [21.5, 18.5], [16.5, 18.5], [16.5, 12.5]]
    assert "turned 90°" in session.state.log[-1].text


def test_smoke_and_a_crater_added_then_the_smoke_cleared(session):
    assert session.add_terrain("smoke", circle={"x": 10, "y": 12, "r": 2.5}).legal
    assert session.add_terrain("crater", circle={"x": 28, "y": 14, "r": 1.5}).legal
    kinds = {t.id: t.type for t in session.state.terrain}
    assert kinds == {"woods-1": "woods", "hill-1": "hills", "smoke-1": "smoke", "crater-1": "crater"}
    assert session.state.log[-1].text == 'correction: crater-1 (crater, 3" across at (28, 14)) added to the table'
    # the rules see the new pieces: the smoke is Light cover, the crater Heavy
    bf = session.state.battlefield()
    cover = {f.id: f.column(drone=False).cover for f in bf.terrain}
    assert (cover["smoke-1"], cover["crater-1"]) == ("light", "heavy")
    assert session.remove("smoke-1").legal
    assert [t.id for t in session.state.terrain] == ["woods-1", "hill-1", "crater-1"]
    assert session.state.log[-1].text == 'correction: smoke-1 (smoke, 5" across at (10, 12)) removed from the table'


@pytest.mark.parametrize("change, reason", [
    ({"polygon": [[14, 14], [20, 19], [20, 14], [14, 19]]}, "woods-1: terrain[0].polygon: expected a simple polygon "
                                                           "whose edges do not cross"),
    ({"move": (20, 0)}, 'woods-1 would leave the 36" x 36" table: a corner at (40, 14)'),
    ({"turn": 30, "bearing": 4}, "a correction may move it (move), turn it (turn)"),
    ({"move": "north"}, "woods-1.move: expected [dx, dy] in inches"),
    ({"move": (0, 0)}, "woods-1: the correction changes nothing"),
])
def test_a_bad_terrain_correction_is_refused_with_its_reason_and_nothing_changes(session, change, reason):
    before = session.state.to_data()
    out = session.correct_terrain("woods-1", **change)
    assert not out.legal and reason in out.outcome.reason
    assert session.state.to_data() == before


def test_a_new_piece_must_be_terrain_on_the_table(session):
    before = session.state.to_data()
    for kind, shape, reason in (
            ("lava", {"circle": {"x": 5, "y": 5, "r": 1}}, "terrain[2].type: expected one of"),
            ("smoke", {"circle": {"x": 40, "y": 5, "r": 2.5}}, "its centre at (40, 5)"),
            ("crater", {"circle": {"x": 5, "y": 5, "r": -1}}, "crater-1: circle.r")):
        out = session.add_terrain(kind, **shape)
        assert not out.legal and reason in out.outcome.reason, out.outcome.reason
    out = session.attempt(Action("correct", "hill-1", {"add": {"type": "woods", "circle": {"x": 5, "y": 5, "r": 1}}}))
    assert not out.legal and "'hill-1' is already on the table" in out.outcome.reason
    assert session.state.to_data() == before


def test_terrain_corrections_replay_from_the_save_in_a_new_battle(session, tmp_path):
    assert session.attempt(Action("activate", "a-tactical-1")).legal
    assert session.correct_terrain("woods-1", move=(1.5, 0), turn=15).legal
    assert session.add_terrain("smoke", circle={"x": 10, "y": 12, "r": 2.5}).legal
    assert session.remove("hill-1").legal
    loaded = read_save(session.save(tmp_path / "drift.json"))
    assert state_digest(loaded.game.state) == state_digest(session.state)
    assert [t.id for t in loaded.game.state.terrain] == ["woods-1", "smoke-1"]
    assert [e.action.kind for e in loaded.game.record][-3:] == ["correct"] * 3
