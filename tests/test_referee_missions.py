"""Refereeing a physical game, the players may enter their mission cards (and troop and drone cards) so the program
scores the battle. What was entered stays private to its owner until the end; without it, the report says the
mission was kept on the mat."""

from pathlib import Path

from referee.game.battle.intents import Action
from referee.game.records.record import read_save, state_digest
from referee.game.battle.state import cards_data
from referee.game.reports.summary import battle_summary
from referee.game.views.view import player_view, referee_view
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession

SMALL = Path(__file__).parent / "ui" / "small_table.toml"


def session() -> RefereeSession:
    s = RefereeSession.from_scenario(load_scenario(SMALL))
    s.autosaving = False
    return s


def end_battle(s: RefereeSession) -> None:
    """Both sides pass, then agree to stop at the end of round 1; the attacker (A) does not Control the Table."""
    assert s.attempt(Action("end-turn")).legal
    assert s.attempt(Action("end-turn")).legal
    out = s.attempt(Action("end-of-round", "", {"stop": True})).outcome
    assert out.legal, out.reason
    assert s.state.phase == "over" and s.state.result is not None and s.state.result.pending is None, s.state.result


def test_an_entered_mission_is_private_until_the_end_and_then_scored(tmp_path):
    s = session()
    assert s.enter_mission("A", "seize-the-crossing", troop="line-section").legal
    assert s.enter_mission("B", "hold-the-line").legal
    assert s.state.missions == {"A": "seize-the-crossing", "B": "hold-the-line"}
    assert cards_data(s.state.cards["A"]) == {"troop": "line-section", "line": "B"}
    # the owner's view holds it; the other side's view, the public log and the save's summary do not
    assert player_view(s.state, "A")["missions"] == {"A": "seize-the-crossing", "B": None}
    assert player_view(s.state, "B")["missions"] == {"A": None, "B": "hold-the-line"}
    assert player_view(s.state, "B")["cards"]["A"] is None
    public = [e.text for e in s.state.log[-2:]]
    assert public == ["side A enters its mission card and its troop card for the program to score; it stays secret "
                      "until the end of the battle",
                      "side B enters its mission card for the program to score; it stays secret until the end of "
                      "the battle"]
    assert not any(e.private for e in s.state.log[-2:])
    end_battle(s)
    result = s.state.result.to_data()
    # scored by the cards: the explanation names each mission's rules, not "kept on the mat"
    assert not any("kept on the mat" in line for line in result["explain"])
    assert player_view(s.state, "B")["missions"]["A"] == "seize-the-crossing"        # revealed at the end
    summary = battle_summary(referee_view(s.state))
    assert summary.missions == {"A": "Seize the Crossing", "B": "Hold the Line"}
    loaded = read_save(s.save(tmp_path / "ford.json"))
    assert state_digest(loaded.game.state) == state_digest(s.state)


def test_a_mission_kept_on_the_mat_is_said_so():
    s = session()
    assert s.enter_mission("B", "hold-the-line").legal
    end_battle(s)
    assert ("side A's mission card was kept on the mat, not entered: the program cannot score it "
            "[p.~14]") in s.state.result.explain
    text = "\n".join(battle_summary(referee_view(s.state)).lines())
    assert "Side A: New Tokyo; mission kept on the mat (not entered); VP not known" in text
    assert "mission Hold the Line" in text


def test_no_winner_is_named_while_a_mission_is_not_entered(tmp_path, capsys):
    s = session()
    assert s.enter_mission("B", "hold-the-line").legal
    end_battle(s)
    result = s.state.result.to_data()
    b = result["vp"]["B"]
    headline = f"side B {b} VP, side A's mission not entered: no result (enter it to score the battle)"
    assert result["winner"] is None and result["missions_unknown"] == ["A"] and result["headline"] == headline
    assert s.state.log[-1].text == headline and not any("wins" in e.text for e in s.state.log)
    assert battle_summary(referee_view(s.state)).headline() == headline
    from referee.ui.scenes.report import report_lines

    headings = [text for style, text in report_lines(s) if style == "h"]
    assert headline in headings and not any("wins" in h or "draw" in h for h in headings)
    # the command line's report says the same
    from referee.cli.main import main

    path = s.save(tmp_path / "ford.json")
    assert main(["report", str(path), "--summary"]) == 0
    out = capsys.readouterr().out
    assert headline in out and "wins" not in out
    # the missing mission entered after the battle: now the battle is scored and a winner (or a draw) named
    assert s.enter_mission("A", "seize-the-crossing").legal
    result = s.state.result.to_data()
    assert "missions_unknown" not in result and result["level"] != "no result"
    assert s.state.log[-2].text == "side A enters its mission card after the battle: Seize the Crossing"
    assert not s.enter_mission("A", "deep-strike").legal              # once only


def test_a_wrong_or_second_mission_is_refused_and_nothing_changes():
    s = session()
    assert s.enter_mission("A", "seize-the-crossing").legal
    before = s.state.to_data()
    for side, mission, troop, reason in (
            ("A", "deep-strike", None, "side A's mission card is entered already"),
            ("B", "no-such-card", None, "no mission card 'no-such-card' (expected one of"),
            ("B", "hold-the-line", "no-such-troop", "no troop card 'no-such-troop'"),
            ("C", "hold-the-line", None, "side A or B")):
        out = s.enter_mission(side, mission, troop)
        assert not out.legal and reason in out.outcome.reason, out.outcome.reason
        assert s.state.to_data() == before
