"""A refereed battle's save (typed dice, a blip's contents told at its reveal, corrections of the table) replays in
the engine, in ``read_save`` and in the dice report, to the same battle."""

from pathlib import Path

from referee.cli.main import main
from referee.game.battle.intents import Action
from referee.game.reports.dice_report import dice_report
from referee.game.records.record import read_save, state_digest
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession

SMALL = Path(__file__).parent / "ui" / "small_table.toml"


def refereed_battle() -> RefereeSession:
    s = RefereeSession.from_scenario(load_scenario(SMALL))
    s.autosaving = False
    assert s.attempt(Action("activate", "a-tactical-1")).legal
    assert s.attempt(Action("target", "a-tactical-1", {"dice": 3, "assign": {"b-tactical-1": 4}}), [6, 6, 6]).legal
    assert s.attempt(Action("rifle", "a-tactical-1", {"target": "b-tactical-1"}), [5, 2, 6, 1]).legal
    assert s.attempt(Action("activate", "b-blip-1")).legal
    assert s.attempt(Action("reveal", "b-blip-1")).needs.blip == "b-blip-1"
    assert s.tell("b-blip-1", [{"faction": "new-tokyo", "rating": "veteran", "type": "tactical"}]).legal
    assert s.attempt(Action("reveal", "b-blip-1")).legal
    assert s.correct("a-tactical-1", x=9.5, facing=75.0).legal
    assert s.add_unit("a-scout-9", side="A", faction="new-tokyo", rating="veteran", type="scout", x=3.0, y=3.0).legal
    return s


def test_a_refereed_save_replays_everywhere(tmp_path, capsys):
    s = refereed_battle()
    path = s.save(tmp_path / "ford.json")
    loaded = read_save(path)
    assert loaded.game.refereed and state_digest(loaded.game.state) == state_digest(s.state)
    assert [e.action.kind for e in loaded.game.record][-4:] == ["contents", "reveal", "correct", "correct"]
    report = dice_report(loaded.game)
    assert report is not None
    assert main(["report", str(path)]) == 0
    assert "a-tactical-1's gauss rifle at b-tactical-1, 2 dice: rolled 5 2 -> graze" in capsys.readouterr().out


def test_a_correction_refused_by_the_table_changes_nothing():
    s = refereed_battle()
    before = s.state.to_data()
    out = s.correct("a-tactical-1", x=26.0, y=6.0)                       # onto a-assault-1's base
    assert not out.legal and "overlap" in out.outcome.reason and s.state.to_data() == before
    out = s.correct("b-tactical-3", facing=10.0, stunned="maybe")
    assert not out.legal and "expected yes or no" in out.outcome.reason and s.state.to_data() == before
    out = s.tell("a-tactical-1", [])
    assert not out.legal and "no blip" in out.outcome.reason
