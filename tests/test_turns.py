"""Rounds, turns and activations (p.16, p.25; A19-A22, A38, A43) played through the engine with fixed dice."""

import pytest

from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice
from referee.game.play.engine import Game, begin_battle

from .tables import game_state, unit


def blip(ident, side, x, y, contents, **kw):
    return {"id": ident, "side": side, "x": x, "y": y, "contents": contents, **kw}


def content(ident, side, type="tactical", **kw):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type, **kw}


def game(units=(), blips=(), attacker="A"):
    return Game(begin_battle(game_state(units=list(units), blips=list(blips), attacker=attacker)))


def act(g, kind, actor="", dice=(), **args):
    out = g.play(Action(kind, actor, args), ScriptedDice(list(dice)))
    assert out.legal, out.reason
    assert len(out.rolls) == len(dice), f"expected {len(dice)} dice, used {[r.label for r in out.rolls]}"
    return out


def no(g, kind, actor="", dice=(), **args):
    before = g.state.to_data()
    out = g.play(Action(kind, actor, args), ScriptedDice(list(dice)))
    assert not out.legal and out.reason
    assert g.state.to_data() == before
    return out


# ---- stun recovery (p.25) ------------------------------------------------------------------------------------------


def test_a_stunned_trooper_stands_on_one_or_two():
    g = game([unit("a", "A", 5, 5, stunned=True), unit("b", "B", 30, 30)])
    act(g, "activate", "a", dice=[2])
    assert not g.state.units["a"].stunned
    assert g.state.turn.active == "a" and g.state.turn.actions_left == 2


def test_a_stunned_trooper_that_fails_spends_its_activation():
    g = game([unit("a", "A", 5, 5, stunned=True), unit("b", "B", 30, 30)])
    act(g, "activate", "a", dice=[3])
    assert g.state.units["a"].stunned and not g.state.units["a"].activation
    assert g.state.turn.player == "B", "A has nothing left to activate: B's turn"


def test_a_stunned_and_damaged_trooper_rolls_recovery_then_the_damaged_check():
    g = game([unit("a", "A", 5, 5, facing=90, stunned=True, damaged=True), unit("b", "B", 30, 30)])
    act(g, "activate", "a", dice=[1])
    out = act(g, "move", "a", dice=[5], x=5, y=8)
    assert out.failed and (g.state.units["a"].x, g.state.units["a"].y) == (5, 5)
    assert g.state.turn.actions_left == 1
    act(g, "move", "a", dice=[4], x=5, y=8)
    assert g.state.units["a"].y == 8


def test_a_commanded_stunned_trooper_gets_another_recovery_roll():
    g = game([unit("a", "A", 5, 5, stunned=True), unit("cmd", "A", 10, 5, type="commander"),
              unit("b", "B", 30, 30), unit("b2", "B", 30, 25)])
    act(g, "activate", "a", dice=[6])
    # B (2 counters against 1) activates both its units.
    assert g.state.turn.player == "B" and g.state.turn.primary_allowed == 2
    for b in ("b", "b2"):
        act(g, "activate", b)
        act(g, "end-activation")
    act(g, "activate", "cmd")
    act(g, "command", "cmd", target="a")
    act(g, "end-activation")
    # B has no counters left, so A (1 against 0) may activate 3 units: a tries again.
    assert g.state.turn.player == "A"
    act(g, "activate", "a", dice=[2])
    assert not g.state.units["a"].stunned


# ---- multiple activations (p.16, A21) ------------------------------------------------------------------------------


def side_a(troopers, blips_n):
    units = [unit(f"a{i}", "A", 2 + 2 * i, 2) for i in range(troopers)]
    bl = [blip(f"ab{i}", "A", 2 + 2 * i, 6, [content(f"ab{i}-u", "A")] if i % 2 else []) for i in range(blips_n)]
    return units, bl


@pytest.mark.parametrize("troopers, blips_n, allowed", [
    (1, 2, 1),   # 3 against 2
    (2, 2, 2),   # 4 against 2: exactly double
    (3, 2, 2),   # 5 against 2
    (2, 4, 3),   # 6 against 2: triple, decoys counted
    (4, 5, 3),   # 9 against 2: the cap is 3
])
def test_multiple_activations_count_every_unit_and_blip(troopers, blips_n, allowed):
    units, bl = side_a(troopers, blips_n)
    g = game(units + [unit("b1", "B", 30, 30), unit("b2", "B", 30, 26)], bl)
    assert g.state.turn.player == "A" and g.state.turn.primary_allowed == allowed


def test_a_second_activation_is_allowed_only_at_double():
    units, bl = side_a(2, 2)
    g = game(units + [unit("b1", "B", 30, 30), unit("b2", "B", 30, 26)], bl)
    act(g, "activate", "a0")
    act(g, "end-activation")
    act(g, "activate", "a1")
    act(g, "end-activation")
    assert "used its 2 activations" in no(g, "activate", "ab0").reason


def test_the_opponent_with_no_counters_gives_three():
    g2 = Game(begin_battle(game_state(units=[unit("a1", "A", 2, 2), unit("a2", "A", 6, 2),
                                             unit("b1", "B", 30, 30)], attacker="B")))
    assert g2.state.turn.primary_allowed == 1
    act(g2, "activate", "b1")
    act(g2, "end-activation")
    # Now A has 2 counters, B none: A may activate 3 units (it only has 2).
    assert g2.state.turn.player == "A" and g2.state.turn.primary_allowed == 3


# ---- extra blip activations (p.16, A19, A21) ------------------------------------------------------------------------


def blip_table():
    units = [unit("a", "A", 5, 2, facing=90), unit("b", "B", 30, 34, facing=270)]
    bl = [blip(f"x{i}", "A", 4 + 4 * i, 8, [content(f"x{i}-u", "A")]) for i in range(5)]
    return game(units, bl)


def test_extra_blip_activations_come_after_the_primary_and_are_three_at_most():
    g = blip_table()
    assert "after the turn's activation" in no(g, "activate", "x0", extra=True).reason
    # 6 counters against 1: three primaries are allowed, but the player uses one and goes on to the extras.
    act(g, "activate", "a")
    act(g, "end-activation")
    for i in range(3):
        act(g, "activate", f"x{i}", extra=True)
        act(g, "move", f"x{i}", x=4 + 4 * i, y=10)
    # The third extra activation closes the turn: x3 and x4 keep their counters for a later turn.
    assert g.state.turn.player == "B"
    assert g.state.blips["x3"].activation and g.state.blips["x4"].activation


def test_an_extra_blip_activation_is_a_move_without_a_voluntary_reveal():
    g = blip_table()
    act(g, "activate", "a")
    act(g, "end-activation")
    act(g, "activate", "x0", extra=True)
    assert "no voluntary reveal" in no(g, "reveal", "x0").reason
    assert "may only Move" in no(g, "rifle", "x0", target="b").reason
    act(g, "move", "x0", x=4, y=11)
    assert g.state.blips["x0"].y == 11
    # No further primary activation once the extras have begun.
    assert "extra blip activations have begun" in no(g, "activate", "x1").reason


def test_a_trooper_cannot_take_an_extra_activation():
    units = [unit("a", "A", 5, 2, facing=90), unit("a2", "A", 9, 2), unit("b", "B", 30, 34, facing=270)]
    g = game(units, [blip("x0", "A", 4, 8, [])])
    act(g, "activate", "a")
    act(g, "end-activation")
    assert "only blips" in no(g, "activate", "a2", extra=True).reason


# ---- passing, the end of the action phase (p.16, A22) ---------------------------------------------------------------


def test_both_players_passing_in_succession_ends_the_round():
    g = game([unit("a", "A", 5, 5), unit("b", "B", 30, 30)])
    act(g, "end-turn")
    assert g.state.turn.player == "B" and g.state.passes_in_row == 1
    act(g, "end-turn")
    assert g.state.phase == "end-of-round"
    assert g.state.units["a"].activation and g.state.units["b"].activation


def test_a_pass_is_not_final():
    g = game([unit("a", "A", 5, 5), unit("b", "B", 30, 30)])
    act(g, "end-turn")                 # A passes
    act(g, "activate", "b")            # B acts: the passes start again
    act(g, "end-activation")
    assert g.state.phase == "action" and g.state.turn.player == "A"
    act(g, "activate", "a")
    act(g, "end-activation")
    assert g.state.phase == "end-of-round"


def test_a_player_without_counters_passes_and_the_other_keeps_going():
    g = game([unit("a1", "A", 5, 5), unit("a2", "A", 9, 5), unit("a3", "A", 13, 5), unit("b", "B", 30, 30)],
             attacker="B")
    act(g, "activate", "b")
    act(g, "end-activation")
    # B has no counters left; A (3 against 0) activates up to 3.
    assert g.state.turn.player == "A" and g.state.turn.primary_allowed == 3
    for u in ("a1", "a2", "a3"):
        act(g, "activate", u)
        act(g, "end-activation")
    assert g.state.phase == "end-of-round"


# ---- end of round, next round (p.16, A43) ---------------------------------------------------------------------------


def round_over(units=None):
    g = game(units or [unit("a", "A", 5, 5), unit("b", "B", 30, 30)],
             [blip("ab", "A", 5, 10, []), blip("bb", "B", 30, 20, [])])
    act(g, "end-turn")
    act(g, "end-turn")
    assert g.state.phase == "end-of-round"
    return g


def test_next_round_refreshes_every_counter_and_rolls_for_initiative():
    g = game([unit("a", "A", 5, 5), unit("b", "B", 30, 30)], [blip("ab", "A", 5, 10, []), blip("bb", "B", 30, 20, [])])
    # One activation a side each turn (2 against 2); each turn could go on with extra blip activations, so the
    # player ends it.
    for ident in ("a", "b"):
        act(g, "activate", ident)
        act(g, "end-activation")
        act(g, "end-turn")
    for ident in ("ab", "bb"):
        act(g, "activate", ident)
        act(g, "end-activation")
    assert g.state.phase == "end-of-round"
    act(g, "end-of-round", dice=[2, 5])
    st = g.state
    assert st.round == 2 and st.phase == "action"
    assert all(u.activation for u in st.units.values()) and all(b.activation for b in st.blips.values())
    assert st.initiative == "B" and st.turn.player == "B"


def test_initiative_higher_roll_takes_it():
    g = round_over()
    act(g, "end-of-round", dice=[6, 1])
    assert g.state.initiative == "A"


def test_withdraw_allowed_gives_the_opponent_control():
    g = round_over()
    act(g, "end-of-round", withdraw="A", answer="allow")
    assert g.state.phase == "over" and g.state.control == "B"


def test_withdraw_pursued_plays_one_more_round_then_contested():
    g = round_over()
    act(g, "end-of-round", dice=[3, 4], withdraw="B", answer="pursue")
    assert g.state.phase == "action" and g.state.round == 2 and g.state.pursuit == "B"
    act(g, "end-turn")
    act(g, "end-turn")
    act(g, "end-of-round")
    assert g.state.phase == "over" and g.state.control is None


def at_the_round_limit():
    """Round 6 is over and side A's mission (Eyes On) ends the battle after round 6 (A43)."""
    g = round_over()
    g.state.missions["A"], g.state.missions["B"] = "eyes-on", "hold-the-line"
    g.state.round = 6
    return g


def test_a_withdraw_pursued_at_the_missions_round_limit_has_no_round_to_pursue_in():
    # The card's limit stands (A43): no round 7 is played; as after a pursuit round with troopers on both sides,
    # the table is Contested (p.16), and the log says why the pursuit was cut short.
    g = at_the_round_limit()
    act(g, "end-of-round", withdraw="A", answer="pursue")
    s = g.state
    assert s.phase == "over" and s.round == 6 and s.control is None and s.pursuit is None
    texts = [e.text for e in s.log]
    assert any("side B pursues, but the mission's round limit of 6 is reached: no round is left to pursue in" in t
               for t in texts)
    assert any("the table is Contested (a pursuit cut short by the mission's round limit" in t for t in texts)


def test_a_withdraw_allowed_at_the_missions_round_limit_still_gives_the_table():
    g = at_the_round_limit()
    act(g, "end-of-round", withdraw="B", answer="allow")
    assert g.state.phase == "over" and g.state.control == "A"


def test_both_agree_to_stop_is_contested():
    g = round_over()
    act(g, "end-of-round", stop=True)
    assert g.state.phase == "over" and g.state.control is None


def test_an_offer_to_stop_not_agreed_is_logged_and_the_battle_goes_on():
    g = round_over()
    before = len(g.state.log)
    act(g, "end-of-round", dice=[4, 2], offered="B")
    assert g.state.phase == "action" and g.state.round == 2
    texts = [e.text for e in g.state.log[before:]]
    assert texts[0] == "side B offers to stop; side A does not agree: the battle goes on [p.16, A43]"


def test_an_offer_to_stop_declined_goes_with_no_stop_nor_withdraw():
    g = round_over()
    no(g, "end-of-round", offered="A", stop=True)
    no(g, "end-of-round", offered="A", withdraw="B", answer="allow")
    assert g.state.phase == "end-of-round"


def test_only_one_side_with_troopers_controls_the_table():
    # B has only a drone left: drones do not count (p.16).
    g = round_over([unit("a", "A", 5, 5), unit("bd", "B", 30, 30, type="basic-drone")])
    act(g, "end-of-round")
    assert g.state.phase == "over" and g.state.control == "A"


def test_no_end_of_round_checks_during_the_action_phase():
    g = game([unit("a", "A", 5, 5), unit("b", "B", 30, 30)])
    no(g, "end-of-round", withdraw="A")


# ---- the jamming field at the end of a unit's own activation (p.23, A38) --------------------------------------------


def jam_table(a_kw=None, blips=()):
    """B's haywire drone h at (10, 10) has its field on; A's trooper a stands 1" from its base edge."""
    return game([unit("a", "A", 12, 10, facing=90, **(a_kw or {})), unit("h", "B", 10, 10, type="haywire-drone",
                                                                        jammer_on=True),
                 unit("b", "B", 30, 30)], blips)


def test_a_trooper_tests_once_when_its_activation_ends_in_the_field():
    g = jam_table()
    act(g, "activate", "a")
    act(g, "move", "a", x=12, y=11)             # no test after the first action
    act(g, "move", "a", x=12, y=12, dice=[4])   # 4 > Arm 3: Damaged
    assert g.state.units["a"].damaged


def test_a_damaged_trooper_failing_the_jammer_test_is_destroyed():
    g = jam_table({"damaged": True})
    act(g, "activate", "a")
    act(g, "end-activation", dice=[6])
    assert "a" not in g.state.units


def test_passing_the_jammer_test():
    g = jam_table()
    act(g, "activate", "a")
    act(g, "end-activation", dice=[3])
    assert not g.state.units["a"].damaged


def test_a_stunned_trooper_failing_recovery_in_the_field_still_tests():
    g = jam_table({"stunned": True})
    act(g, "activate", "a", dice=[5, 4])
    assert g.state.units["a"].damaged and g.state.units["a"].stunned


def test_a_drone_ending_its_activation_in_another_drones_field_is_destroyed():
    g = game([unit("ad", "A", 12, 10, type="basic-drone"), unit("h", "B", 10, 10, type="haywire-drone",
                                                               jammer_on=True), unit("b", "B", 30, 30)])
    act(g, "activate", "ad")
    act(g, "move", "ad", x=12, y=11)
    assert "ad" not in g.state.units


def test_switching_a_field_on_tests_nobody_else():
    g = game([unit("h", "A", 10, 10, type="haywire-drone"), unit("b", "B", 12, 10), unit("a", "A", 30, 30)])
    act(g, "activate", "h")
    act(g, "jammer", "h")
    assert g.state.units["h"].jammer_on and not g.state.units["b"].damaged


def test_a_blip_ending_its_activation_in_the_field_is_revealed_and_its_units_tested():
    # The blip belongs to B, like the haywire drone, so no passive sensors reveal it: the field does.
    g = game([unit("a", "A", 30, 2), unit("h", "B", 10, 10, type="haywire-drone", jammer_on=True)],
             [blip("bb", "B", 12, 16, [content("bt", "B"), content("bd", "B", type="basic-drone")])])
    act(g, "activate", "a")
    act(g, "end-activation")
    act(g, "activate", "bb")
    act(g, "move", "bb", x=12, y=12)
    act(g, "end-activation", dice=[5])
    assert "bb" not in g.state.blips
    assert g.state.units["bt"].damaged and "bd" not in g.state.units


def test_a_blip_revealed_by_its_own_move_into_an_enemy_field_is_tested():
    # A's blip ends 1" from B's active haywire drone: passive sensors reveal it (h is an enemy within 6"), and its
    # activation ends there, so the revealed trooper takes the jammer test (A38).
    g = game([unit("h", "B", 10, 10, type="haywire-drone", jammer_on=True), unit("b", "B", 30, 30)],
             [blip("ab", "A", 12, 16, [content("at", "A")])])
    act(g, "activate", "ab")
    act(g, "move", "ab", x=12, y=12, dice=[6])
    assert g.state.units["at"].damaged
    assert g.state.turn.player == "B"


def test_a_blip_revealed_by_its_owner_after_moving_into_the_field_is_tested():
    g = game([unit("h", "A", 10, 10, type="haywire-drone", jammer_on=True), unit("a", "A", 30, 2),
              unit("b", "B", 30, 34)],
             [blip("ab", "A", 12, 16, [content("at", "A")])])
    act(g, "activate", "ab")
    act(g, "move", "ab", x=12, y=12)
    act(g, "reveal", "ab", dice=[4])
    assert g.state.units["at"].damaged


# ---- actions that end an activation early ---------------------------------------------------------------------------


def test_a_scramble_loses_the_remaining_action():
    g = game([unit("a", "A", 5, 5), unit("a2", "A", 9, 5), unit("b", "B", 30, 30), unit("b2", "B", 30, 26)])
    act(g, "activate", "a")
    # The owner's square and the secret draws (which corner is real, three labels) are the program's, not dice.
    assert g.play(Action("scramble", "a", {"square": 4}), ScriptedDice(draws=[2, 0, 0, 0])).legal
    st = g.state
    assert "a" not in st.units and st.turn.active is None
    assert sorted(b.activation for b in st.blips.values()) == [False, False, False]
    # A (1 counter left against 2) has used its activation, and the new blips have no counters for extras.
    assert st.turn.player == "B"


def test_a_kamikaze_ends_the_drones_activation():
    g = game([unit("k", "A", 5, 5, type="kamikaze-drone"), unit("a", "A", 20, 2), unit("b", "B", 30, 30),
              unit("b2", "B", 30, 26)])
    act(g, "activate", "k")
    act(g, "kamikaze", "k", x=8, y=5)
    assert "k" not in g.state.units and g.state.turn.player == "B"
    assert [t.type for t in g.state.terrain] == ["crater"]


def test_revealed_units_that_give_up_their_actions_in_the_field_are_tested_too():
    # B's blip is revealed before acting, 1" from B's own active field (A38: friendly fields count). The player
    # ends the activation for both units at once: bt (active) tests first, then bt2, which was waiting.
    g = game([unit("a", "A", 30, 2), unit("h", "B", 10, 10, type="haywire-drone", jammer_on=True)],
             [blip("bb", "B", 12, 12, [content("bt", "B"), content("bt2", "B")])])
    act(g, "activate", "a")
    act(g, "end-activation")
    act(g, "activate", "bb")
    act(g, "reveal", "bb")
    assert g.state.turn.active == "bt" and g.state.turn.queue == ["bt2"]
    act(g, "end-activation", dice=[4, 2], all=True)
    assert g.state.units["bt"].damaged and not g.state.units["bt2"].damaged
    assert g.state.turn.active is None and g.state.turn.queue == []
