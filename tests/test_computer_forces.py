"""The Troop line the opponent's shown troopers could come from narrows the missions it may hold (p.~9)."""

from __future__ import annotations

from referee.game.players.computer.seen import Seen, deck


def _seen(units: list[tuple[str, str]], lost: tuple[str, ...] = ()) -> Seen:
    """Side A's view of a defence, side B attacking, with B's troopers shown as (type, rating) and lost by type."""
    view = {
        "units": [{"id": f"b-{t}-{i}", "side": "B", "type": t, "rating": r, "x": 1.0, "y": 1.0}
                  for i, (t, r) in enumerate(units)],
        "blips": [], "objectives": [], "mode": "table", "attacker": "B", "missions": {},
        "destroyed": [{"id": f"b-lost-{i}", "side": "B", "type": t} for i, t in enumerate(lost)],
    }
    return Seen(view, "A")


def test_nothing_shown_leaves_every_line_and_every_card():
    seen = _seen([])
    assert seen.shown_lines == frozenset("ABC")
    assert seen.their_missions == deck().missions("offence")
    assert len(seen.their_missions) == 6


def test_a_reserve_trooper_comes_from_a_line_c_or_the_garrison_reserves_line_b():
    # Reserve lines of the sample Troop cards: every card's C but the reinforced squad's, and the garrison's B.
    seen = _seen([("tactical", "reserve")])
    assert seen.shown_lines == frozenset("BC")
    assert {m.id for m in seen.their_missions} == {"eyes-on", "sabotage", "seize-the-crossing", "sweep-and-clear"}


def test_a_spec_ops_commander_and_a_lost_assault_trooper_leave_line_a_and_the_reinforced_squads_b():
    seen = _seen([("commander", "spec-ops")], lost=("assault",))
    assert seen.shown_lines == frozenset("AB")


def test_two_veteran_scouts_and_a_lost_engineer_can_only_be_recon_detachment_line_b():
    seen = _seen([("scout", "veteran"), ("scout", "veteran")], lost=("engineer",))
    assert seen.shown_lines == frozenset("B")
    assert {m.id for m in seen.their_missions} == {"seize-the-crossing", "sweep-and-clear"}


def test_a_force_no_card_issues_narrows_nothing():
    # Three assault troopers: no sample line has more than two.
    seen = _seen([("assault", "veteran")] * 3)
    assert seen.shown_lines == frozenset()
    assert seen.their_missions == deck().missions("offence")


def test_an_attacker_stops_hurrying_for_delaying_actions_round_limit_once_the_defender_shows_no_line_c():
    """Attacking, the computer is on the clock while the defender may hold Delaying Action (line C, the battle ends
    after round 6, A43). A veteran Engineer shown by the defender comes from no line C of any Troop card, so only
    the line A and B defence cards stay, none with a round limit, and speed no longer counts more than secrecy."""
    from referee.game.players.computer.player import on_the_clock

    def attacking(units: list[tuple[str, str]]) -> Seen:
        view = {
            "units": [{"id": f"b-{t}-{i}", "side": "B", "type": t, "rating": r, "x": 1.0, "y": 1.0}
                      for i, (t, r) in enumerate(units)],
            "blips": [], "objectives": [], "mode": "table", "attacker": "A",
            "missions": {"A": "sweep-and-clear"}, "destroyed": [],
        }
        return Seen(view, "A")

    unseen = attacking([])
    assert "delaying-action" in {m.id for m in unseen.their_missions}
    assert on_the_clock(unseen)
    shown = attacking([("engineer", "veteran")])
    assert "C" not in shown.shown_lines
    assert {m.id for m in shown.their_missions} == {"hold-the-line", "killing-ground", "counter-intelligence",
                                                     "protect-the-relay"}
    assert not on_the_clock(shown)
