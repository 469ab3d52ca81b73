"""The end of a round at which only one side has troopers left ends the battle whatever the players announce (p.16):
the end-of-round dialog says so and offers that alone. At a physical table a blip whose contents were never entered
may hold troopers: its side is not counted out."""

from pathlib import Path

from referee.game.battle.intents import Action
from referee.game.play.victory import end_of_round_lines, ends_whatever_is_announced
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession

SMALL = Path(__file__).parent / "ui" / "small_table.toml"


def side_b_down_to_its_blip() -> RefereeSession:
    s = RefereeSession.from_scenario(load_scenario(SMALL))
    s.autosaving = False
    for ident in ("b-tactical-1", "b-tactical-2"):
        assert s.remove(ident).legal
    assert s.attempt(Action("end-turn")).legal
    assert s.attempt(Action("end-turn")).legal
    assert s.state.phase == "end-of-round"
    return s


def test_a_blip_whose_contents_are_not_entered_keeps_its_side_in_the_battle():
    s = side_b_down_to_its_blip()
    assert ends_whatever_is_announced(s.state) == ""
    out = s.attempt(Action("end-of-round"), [5, 2]).outcome                     # the Initiative roll-off
    assert out.legal and s.state.phase == "action" and s.state.round == 2       # not over: b-blip-1 may hold troopers


def test_with_no_trooper_left_on_one_side_the_end_of_round_ends_the_battle_and_says_so():
    s = side_b_down_to_its_blip()
    assert s.tell("b-blip-1", []).legal                                         # its owner says: a decoy
    why = "only side A has troopers left: it Controls the Table [p.16]"
    assert ends_whatever_is_announced(s.state) == why
    assert end_of_round_lines(s.state, "B") == [f"Round 1 is over and the battle ends: {why}."]
    out = s.attempt(Action("end-of-round")).outcome
    assert out.legal and s.state.phase == "over" and s.state.control == "A"
