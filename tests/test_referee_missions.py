"""Refereeing a physical game, the players may enter their mission cards (and troop and drone cards) so the program
scores the battle. What was entered stays private to its owner until the end; without it, the report says the
mission was kept on the mat."""

from pathlib import Path

from referee.game.intents import Action
from referee.game.record import read_save, state_digest
from referee.game.state import cards_data
from referee.game.summary import battle_summary
from referee.game.view import player_view, referee_view
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
    assert s.state.phase == "over" and "winner" in (s.state.result or {}), s.state.result


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
    result = s.state.result
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
    assert ("side A's mission card was kept on the mat, not entered: the program does not score it (0 VP here) "
            "[p.~14]") in s.state.result["explain"]
    text = "\n".join(battle_summary(referee_view(s.state)).lines())
    assert "Side A: New Tokyo; mission kept on the mat (not entered)" in text
    assert "mission Hold the Line" in text


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
