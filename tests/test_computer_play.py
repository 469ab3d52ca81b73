"""How normal plays: each test builds a small battle, asks the computer for one decision from its own view and the
legal actions, and checks what it does (a decoy revealed only where a blip of units would be, no Move that goes
nowhere)."""

from __future__ import annotations

import math

import pytest

from referee.game.players.computer import Computer
from referee.game.players.computer.player import _Think
from referee.game.players.computer.table_words import instruction
from referee.game.battle.dice import SeededDice
from referee.game.battle.intents import Action
from referee.game.play.engine import play
from referee.game.play.legal import legal_actions
from referee.game.play.setup import SetupChoices, new_battle
from referee.game.battle.state import GameState, TurnState, UnitState
from referee.game.views.view import player_view
from referee.rules.scenario import parse_scenario
from tests.battles import OPEN_FIELD


def _battle(seed: int = 3) -> GameState:
    table = parse_scenario(OPEN_FIELD, "open field")
    state, _ = new_battle(table, SetupChoices(factions={"A": "council-of-zane", "B": "council-of-zane"}),
                          SeededDice(seed))
    return state


def _activating(s: GameState, ident: str, actions: int = 1) -> GameState:
    s.phase = "action"
    s.turn = TurnState(player=s.blips[ident].side if ident in s.blips else s.units[ident].side, primary_allowed=1,
                       primary_used=1, active=ident, actions_left=actions, activation_kind="primary")
    return s


def test_a_decoy_shows_itself_where_a_blip_of_units_would_be_revealed_and_says_so():
    # Attacking on the clock (Deep Strike), every blip of units in its own activation is revealed to act at once:
    # a decoy that stayed hidden there would mark itself, so it is revealed too, an enemy beside it or not.
    s = _battle(3)
    assert s.attacker == "A" and s.missions["A"] == "deep-strike"
    real = sorted(b.id for b in s.blips.values() if b.side == "A" and s.blip_contents(b))
    decoys = sorted(b.id for b in s.blips.values() if b.side == "A" and not s.blip_contents(b))
    assert real and decoys
    for seed, ident in enumerate(real[:3]):
        t = _activating(s.copy(), ident)
        assert Computer("A", "normal", seed=seed).decide(player_view(t, "A"), legal_actions(t, "A")).action.kind \
            == "reveal"
    for seed, ident in enumerate(decoys[:4] + decoys[:1]):
        t = _activating(s.copy(), ident)
        if seed == 4:
            enemy = next(b for b in t.blips.values() if b.side == "B")
            enemy.x, enemy.y = t.blips[ident].x + 3.0, t.blips[ident].y + 3.0
        d = Computer("A", "normal", seed=seed % 4).decide(player_view(t, "A"), legal_actions(t, "A"))
        assert d.action == Action("reveal", ident, d.action.args), d.reason
        assert d.reason.startswith(f"reveals its decoy {ident}: a blip of units standing here would be revealed")
        assert d.shown() == f"reveals {ident}"      # the log says it was a decoy; the reason's figures stay sealed
        out = play(t, d.action, SeededDice(1))
        assert out.legal and ident not in out.state.blips


def test_a_decoy_far_from_the_enemy_off_the_clock_stays_hidden_as_a_blip_of_units_does():
    s = _battle(7)
    s.attacker, s.missions = "B", {"A": "hold-the-line", "B": "sabotage"}     # no round limit on either side
    mine = sorted(b.id for b in s.blips.values() if b.side == "A")
    decoys = [i for i in mine if not s.blip_contents(s.blips[i])]
    for ident in mine[:10]:
        t = _activating(s.copy(), ident)
        d = Computer("A", "normal", seed=2).decide(player_view(t, "A"), legal_actions(t, "A"))
        assert d.action.kind != "reveal", (ident, d.reason)
    assert set(decoys) & set(mine[:10])


def test_no_move_the_computer_tries_ends_where_the_unit_stands():
    from referee.game.players.computer.candidates import expand
    from referee.game.players.computer.seen import Seen

    s = _battle(5)
    ident = sorted(b.id for b in s.blips.values() if b.side == "A" and s.blip_contents(b))[0]
    t = _activating(s.copy(), ident)
    b = t.blips[ident]
    # The enemy it hunts stands nearer than the 7" it stops short of: heading for it was a Move of nothing.
    enemy = next(x for x in t.blips.values() if x.side == "B")
    enemy.x, enemy.y = b.x + 2.0, b.y + 2.0
    seen = Seen(player_view(t, "A"), "A")
    moves = [c for c in expand(legal_actions(t, "A"), seen, (), (), None, 8, 0.3, {enemy.id: 1.0})
             if c.action.kind == "move"]
    assert len(moves) == 8                                  # the ring's points; the hunt's would be a Move of 0"
    assert all(math.hypot(c.action.args["x"] - b.x, c.action.args["y"] - b.y) >= 0.5 for c in moves)


def _eyes_on(counters: int, at: tuple[float, float]) -> GameState:
    """Side A attacks under Eyes On (8 VP an objective carrying 8 Target counters, 6 rounds): its Tactical stands
    revealed and active with both actions, objective gamma at ``at`` with ``counters`` counters already."""
    from referee.game.battle.state import ObjectiveState
    from tests.test_computer import duel

    s = duel()
    s.attacker = "A"
    s.missions = {"A": "eyes-on", "B": "hold-the-line"}
    s.objectives = {"gamma": ObjectiveState("gamma", at[0], at[1], target_counters=counters)}
    return s


def test_under_eyes_on_it_targets_an_objective_for_the_counters_it_still_needs():
    s = _eyes_on(5, (13.0, 21.0))
    d = Computer("A", "normal", seed=1).decide(player_view(s, "A"), legal_actions(s, "A"))
    assert d.action.kind == "target", d.reason
    # 3 more make 8, the card's threshold; a counter beyond pays nothing, and every die puts one on the Tactical.
    assert d.action.args["assign"] == {"gamma": 3}, d.reason
    assert d.action.args["dice"] == 2, d.reason        # 1 point a counter in the first band: 2 dice roll 3 or more


def test_under_eyes_on_it_heads_for_an_objective_it_has_not_inspected():
    s = _eyes_on(0, (30.0, 31.0))
    me = next(u for u in s.units.values() if u.side == "A")
    before = math.hypot(30.0 - me.x, 31.0 - me.y)
    d = Computer("A", "normal", seed=1).decide(player_view(s, "A"), legal_actions(s, "A"))
    # No enemy missile is in sight, so the counters a Target puts on its Tactical cost little (``evaluate.threat``):
    # it may begin the Inspection from afar, or close in first. Either is a step toward gamma; standing still is not.
    assert d.action.kind in ("move", "target"), d.reason
    if d.action.kind == "target":
        assert list(d.action.args["assign"]) == ["gamma"], d.reason
    else:
        after = math.hypot(30.0 - d.action.args["x"], 31.0 - d.action.args["y"])
        assert after < before - 4.0, d.reason


def test_a_drone_its_mission_pays_for_is_worth_shooting_at():
    from referee.game.players.computer.evaluate import Aims, _value
    from referee.game.players.computer.seen import mission_card

    counter_intelligence = Aims.of(mission_card("counter-intelligence"))     # 4 VP a Recce drone destroyed
    hold_the_line = Aims.of(mission_card("hold-the-line"))                   # nothing for drones
    assert _value("recce-drone", counter_intelligence, False) == _value("recce-drone", hold_the_line, False) + 4.0
    assert _value("basic-drone", counter_intelligence, False) == _value("basic-drone", hold_the_line, False)
    assert _value("recce-drone", counter_intelligence, True) == _value("recce-drone", hold_the_line, True)


def test_eyes_on_counts_counters_only_up_to_its_threshold():
    from referee.game.players.computer.evaluate import Aims
    from referee.game.players.computer.seen import mission_card

    eyes_on = Aims.of(mission_card("eyes-on"))
    assert (eyes_on.inspect_vp, eyes_on.inspect_at) == (8.0, 8)
    assert eyes_on.wanted_counters({"alpha": 3, "beta": 8, "gamma": 11}) == {"alpha": 5}


def test_counters_short_of_the_threshold_count_for_less_as_eyes_on_runs_out_of_rounds():
    from referee.game.players.computer.evaluate import Aims, inspection
    from referee.game.players.computer.seen import mission_card

    aims = Aims.of(mission_card("eyes-on"))          # 6 rounds, Inspected at 8
    s = _eyes_on(4, (13.0, 21.0))
    near = [(12.0, 20.0)]                               # a trooper beside gamma: no pull left
    worth = {}
    for r in (1, 5, 6):
        s.round = r
        short = inspection(s, aims, near)
        s.objectives["gamma"].target_counters = 0
        worth[r] = short - inspection(s, aims, near)
        s.objectives["gamma"].target_counters = 4
    # 4 counters of 8: 0.7 VP a counter with rounds to spare, half that in round 5, nothing in round 6.
    assert worth[1] == pytest.approx(4 * 0.7)
    assert worth[5] == pytest.approx(4 * 0.35)
    assert worth[6] == 0.0


def test_on_the_clock_a_blip_holding_units_is_revealed_to_act_at_once():
    from referee.game.battle.state import ObjectiveState

    s = _battle(5)
    ident = sorted(b.id for b in s.blips.values() if b.side == "A" and s.blip_contents(b))[0]
    t = _activating(s.copy(), ident)
    t.objectives = {"gamma": ObjectiveState("gamma", 18.0, 30.0)}
    b = t.blips[ident]
    for e in (x for x in t.blips.values() if x.side == "B"):
        e.x, e.y = b.x + 20.0 if b.x < 16 else b.x - 20.0, 34.0        # the enemy far off
    t.attacker = "A"
    t.missions = {"A": "eyes-on", "B": "hold-the-line"}          # 6 rounds to Inspect in
    d = Computer("A", "normal", seed=1).decide(player_view(t, "A"), legal_actions(t, "A"))
    assert d.action.kind == "reveal", d.reason
    # Defending with no round limit, the same blip keeps its secret so far from the enemy.
    t.attacker = "B"
    t.missions = {"A": "hold-the-line", "B": "sabotage"}
    d = Computer("A", "normal", seed=1).decide(player_view(t, "A"), legal_actions(t, "A"))
    assert d.action.kind != "reveal", d.reason


def test_the_attackers_objectives_leave_the_defender_room_for_its_three():
    from referee.game.players.computer.setup import objective
    from referee.game.players.computer.seen import Seen
    from referee.game.battle.intents import LegalAction
    from referee.game.battle.state import ObjectiveState

    s = _battle(3)
    s.attacker, s.objectives = "B", {}
    # A's 25 % of the 36" table, 6" from every edge (A55); delta first, then epsilon 8" (edge to edge) from it.
    box = {"x": [6.5, 29.5], "y": [6.5, 9.0], "apart": {}, "not_in": []}
    placed: dict[str, tuple[float, float]] = {}
    for oid in ("delta", "epsilon"):
        box["apart"] = {o: {"centre": list(p), "radius": 9.0} for o, p in placed.items()}
        la = LegalAction("place-objective", "B", {"objective": oid}, {"x, y": box})
        action, _ = objective(Seen(player_view(s, "B"), "B"), la)
        placed[oid] = (action.args["x"], action.args["y"])
        s.objectives[oid] = ObjectiveState(oid, *placed[oid])
    # Wherever the defender then puts alpha and beta in its half (9" between centres, A55), gamma still finds a
    # spot. In the middle of the strip, at (17.5, 8.5) and (26.5, 8.5), alpha at (27, 17.5) and beta at (10, 14.5)
    # left it none and the set-up stopped there.
    half = [(6.5 + 2 * i, y) for i in range(12) for y in [6.5 + 2 * j for j in range(6)] + [18.0]]
    half += [(29.5, 18.0), (27.0, 17.5), (10.0, 14.5)]
    spots = [(6.5 + i / 2, 6.5 + j / 2) for i in range(47) for j in range(24)]

    def free(p: tuple[float, float], taken: list[tuple[float, float]]) -> bool:
        return all(math.hypot(p[0] - a, p[1] - b) >= 9.0 for a, b in taken)

    mine = list(placed.values())
    assert mine[0][0] < 12 < 24 < mine[1][0] or mine[1][0] < 12 < 24 < mine[0][0], placed
    for alpha in half:
        if not free(alpha, mine):
            continue
        for beta in half:
            if free(beta, [*mine, alpha]):
                assert any(free(g, [*mine, alpha, beta]) for g in spots), (placed, alpha, beta)


def _facing_fire() -> GameState:
    """An assault of A with 3 Target counters 10" from an enemy assault with none, no blips."""
    s = _battle(3)
    s.blips.clear()
    s.units = {"a-assault-9": UnitState("a-assault-9", "A", "council-of-zane", "veteran", "assault", 10.0, 10.0,
                                        target_counters=3),
               "b-assault-9": UnitState("b-assault-9", "B", "council-of-zane", "veteran", "assault", 20.0, 10.0)}
    return s


def test_easy_does_not_heed_the_fire_its_own_units_stand_in():
    from referee.game.players.computer.belief import belief
    from referee.game.players.computer.evaluate import Aims, position, threat
    from referee.game.players.computer.levels import level
    from referee.game.players.computer.seen import Seen

    s = _facing_fire()
    aims, b = Aims.of(None), belief(Seen(player_view(s, "A"), "A"))
    # Normal weighs the enemy's next shot at its marked assault; easy (a beginner) does not see the danger.
    assert threat(s, "A", aims, b) < 0.0 and threat(s, "A", aims, b, careful=False) == 0.0
    # Its counters are priced by the shots they invite (``threat``), at no flat price besides.
    assert position(s, "A", aims, b, careful=False) == position(s, "A", aims, b)
    # What it does see is its own chances: the counters on the enemy count alike at both levels.
    s.units["a-assault-9"].target_counters, s.units["b-assault-9"].target_counters = 0, 3
    assert threat(s, "A", aims, b, careful=False) == threat(s, "A", aims, b) > 0.0
    assert not level("easy").heeds_danger and level("normal").heeds_danger and level("hard").heeds_danger


def test_an_enemy_that_has_used_its_activation_shoots_only_next_round():
    """A shot is weighed at full odds only from a unit that can still take it this round: one that holds its
    activation, or is acting now with an action left. One that has used its activation fires next round, by when
    the target may have moved (``LATER_SHOT``): weighed at full odds, the computer Targeted twice with a trooper and
    left it standing, counters and all, before an enemy that had yet to act (issue 37)."""
    from referee.game.players.computer.belief import belief
    from referee.game.players.computer.evaluate import Aims, threat
    from referee.game.players.computer.seen import Seen

    s = _facing_fire()
    s.units["a-assault-9"].activation = False             # the marked assault cannot move off, whoever acts next
    aims, b = Aims.of(None), belief(Seen(player_view(s, "A"), "A"))
    holds = threat(s, "A", aims, b)                        # the enemy assault holds its activation
    s.units["b-assault-9"].activation = False
    spent = threat(s, "A", aims, b)
    assert holds < spent < 0.0
    # Acting now with an action left, it can still shoot this activation; with none left it cannot.
    _activating(s, "b-assault-9", actions=1)
    assert threat(s, "A", aims, b) == holds
    _activating(s, "b-assault-9", actions=0)
    assert threat(s, "A", aims, b) == spent
    # The same holds for its own shots: a marked enemy is worth less to a rifleman of its own that has acted.
    s.turn = None
    s.units["a-assault-9"].activation = s.units["b-assault-9"].activation = True
    s.units["a-assault-9"].target_counters, s.units["b-assault-9"].target_counters = 0, 3
    ready = threat(s, "A", aims, b)
    s.units["a-assault-9"].activation = False
    assert ready > threat(s, "A", aims, b) > 0.0


def test_a_marked_unit_whose_side_acts_first_may_move_off_before_the_enemy_shoots():
    """A marked unit that still holds its activation, on the side that acts next, may move out of sight or reach
    before the enemy's next shot: its risk is counted at ``LATER_SHOT``. Where the enemy acts first, its shot comes
    before the unit can move, at full odds (issue 37)."""
    from referee.game.players.computer.belief import belief
    from referee.game.players.computer.evaluate import Aims, threat
    from referee.game.players.computer.seen import Seen

    s = _facing_fire()                                     # both assaults hold their activations
    aims, b = Aims.of(None), belief(Seen(player_view(s, "A"), "A"))
    _activating(s, "b-assault-9", actions=2)               # the enemy assault acts now
    enemy_first = threat(s, "A", aims, b)
    s.turn = TurnState(player="A", primary_allowed=1)      # A's turn, its activation still to take
    mine_first = threat(s, "A", aims, b)
    assert enemy_first < mine_first < 0.0
    # Once it has used its activation it can move off no more, whichever side acts next.
    s.units["a-assault-9"].activation = False
    assert threat(s, "A", aims, b) == enemy_first


def test_normal_and_hard_price_the_ground_a_move_ends_on_by_the_enemies_that_could_see_it():
    """Each enemy that could see where a trooper's Move ends may Target it there: normal and hard take
    ``EXPOSURE_COST`` off the Move for each (docs/computer.md, "Levels"); easy, a beginner, walks on."""
    from referee.game.battle.intents import Action
    from referee.game.players.computer.levels import level
    from referee.game.players.computer.player import EXPOSURE_COST
    from referee.game.battle.dice import ScriptedDice
    from referee.game.play.engine import play
    from referee.game.views.view_types import as_data

    s = _activating(_facing_fire(), "a-assault-9")
    move = Action("move", "a-assault-9", {"x": 13.0, "y": 10.0})
    out = play(s, move, ScriptedDice([]))
    assert out.legal, out
    view = as_data(player_view(s, "A"))
    easy, normal, hard = (_Think(view, "A", level(name), 1) for name in ("easy", "normal", "hard"))
    assert hard.grid is not None
    # The enemy assault 7" away sees the end point across the open field: one enemy's price.
    assert hard._shaping(move, out) == normal._shaping(move, out) == -EXPOSURE_COST
    assert easy._shaping(move, out) == 0.0


def test_a_blip_revealed_where_its_move_ends_pays_for_the_ground_its_trooper_stands_on():
    """A blip that ends its Move within 6" of an enemy is revealed there (p.18) and its trooper stands in the enemy's
    sight: the Move pays for that ground as a trooper's Move would. A blip that stays hidden pays nothing. In the
    benchmark's seed 3013 a blip moved as a free extra activation beside an enemy Engineer, showed the Commander,
    and the Commander was Targeted and killed by a missile in the enemy's next activation."""
    from referee.game.battle.intents import Action
    from referee.game.battle.state import UnitState
    from referee.game.players.computer.levels import level
    from referee.game.players.computer.player import EXPOSURE_COST
    from referee.game.battle.dice import ScriptedDice
    from referee.game.play.engine import play
    from referee.game.views.view_types import as_data

    s = _battle(3)
    blip = next(b for b in s.blips.values() if b.side == "A" and len(s.blip_contents(b) or []) == 1
                and not s.blip_contents(b)[0].type.endswith("-drone"))
    s.blips = {blip.id: blip}
    blip.x, blip.y = 10.0, 10.0
    s.units = {"b-assault-9": UnitState("b-assault-9", "B", "council-of-zane", "veteran", "assault", 20.0, 10.0)}
    s = _activating(s, blip.id)
    view = as_data(player_view(s, "A"))
    normal = _Think(view, "A", level("normal"), 1)
    near = Action("move", blip.id, {"x": 14.5, "y": 10.0})
    out = play(s, near, ScriptedDice([]))
    assert out.legal and blip.id in out.revealed and blip.id not in out.state.blips, out.reason
    assert normal._shaping(near, out) == -EXPOSURE_COST
    far = Action("move", blip.id, {"x": 12.0, "y": 10.0})
    out = play(s, far, ScriptedDice([]))
    assert out.legal and blip.id in out.state.blips, out.reason
    assert normal._shaping(far, out) == 0.0


def test_the_defenders_objectives_leave_gamma_a_spot_off_the_buildings():
    """On Blasted Urban, with delta and epsilon where the attacker put them in a benchmark battle, the defender put
    alpha and beta where the only spots left for gamma were inside buildings (impassable, p.24): the set-up stopped
    and the battle was scored 0-0. Each of its three placements must now be taken as it is (A55)."""
    from referee import paths
    from referee.game.battle.intents import Action
    from referee.game.battle.dice import ScriptedDice
    from referee.game.play.setup import new_game
    from referee.rules.scenario import load_scenario

    game = new_game(load_scenario(paths.table_file("blasted-urban")),
                    {"A": "peoples-utopian-collective", "B": "new-tokyo"})
    computer = Computer("A", "normal", seed=48)

    def computer_acts() -> Action:
        d = computer.decide(player_view(game.state, "A"), legal_actions(game.state, "A"))
        out = game.play(d.action, ScriptedDice())
        assert out.legal, (d.action.text(), out.reason)
        return d.action

    assert game.play(Action("roll-roles"), ScriptedDice([2, 4])).legal and game.state.attacker == "B"
    assert computer_acts().args == {"turn": True}
    for oid, x, y in (("delta", 14.5, 6.5), ("epsilon", 29.5, 7.5)):
        assert game.play(Action("place-objective", "B", {"objective": oid, "x": x, "y": y}), ScriptedDice()).legal
    placed = [computer_acts() for _ in range(3)]
    assert [a.args["objective"] for a in placed] == ["alpha", "beta", "gamma"]
    assert all("x" in a.args for a in placed), "each spot the computer's own choice, none left to the program"


def _withdrawn(attacker: str | None, missions: dict[str, str]) -> GameState:
    s = _battle(3)
    s.phase, s.turn, s.attacker, s.missions = "end-of-round", None, attacker, missions
    return s


def test_a_withdraw_that_would_end_the_battle_level_is_pursued():
    """Under Attrition (only kills pay) the opponent withdraws in round 1, no unit lost: allowing ends the battle
    0 VP for it against the opponent's mission, which may pay for its troopers surviving (Scavengers, Break
    Contact). Allowing was its only answer, and benchmark battles ended 0-0 or lost that way; a round more of
    fighting is its chance, so it pursues (p.16, A43)."""
    s = _withdrawn(None, {"A": "attrition", "B": "scavengers"})
    answer, reason = Computer("A", "normal", seed=1).withdraw_answer(player_view(s, "A"))
    assert answer == "pursue", reason
    assert "A43" in reason


def test_an_attacker_allows_a_withdraw_that_hands_it_the_objectives():
    """Under Sabotage, Controlling the Table lets the attacker set every objective as it pays most (p.16, A41):
    red Destroyed is +12 VP each, far more than any defence card can score, so it allows."""
    s = _withdrawn("A", {"A": "sabotage", "B": "hold-the-line"})
    answer, reason = Computer("A", "normal", seed=1).withdraw_answer(player_view(s, "A"))
    assert answer == "allow", reason


def test_a_defence_card_that_ends_the_battle_counts_more_as_its_round_limit_nears():
    """The attacker does not know the defender's card. Delaying Action ends the battle after round 6 (A43), where
    the other defence cards let it go on: in round 6 the table as it stands is the one Delaying Action is scored on,
    so that card counts 4 times as much as each other in the average margin, and in round 1 the same as the rest."""
    from referee.game.players.computer.evaluate import clock_weight, mission_margin, outcome_now
    from referee.game.players.computer.seen import deck, mission_card
    from referee.game.battle.scoring import score_mission

    theirs = deck().missions("defence")
    delaying = mission_card("delaying-action")
    assert delaying in theirs and delaying.round_limit == 6
    assert [clock_weight(delaying, r) for r in (1, 6, 9)] == [1.0, 4.0, 4.0]
    assert all(clock_weight(m, 6) == 1.0 for m in theirs if m.id != "delaying-action")
    s = _battle(3)
    s.attacker, s.missions = "A", {"A": "decapitation", "B": "delaying-action"}
    mine = mission_card("decapitation")
    vp = {m.id: score_mission(m, "B", outcome_now(s)).vp for m in theirs}
    assert vp["delaying-action"] != sum(vp.values()) / len(vp), "the table must score Delaying Action apart"
    s.round = 1
    assert mission_margin(s, "A", mine, theirs) == pytest.approx(-sum(vp.values()) / len(vp))
    s.round = 6
    assert mission_margin(s, "A", mine, theirs) == pytest.approx(
        -(sum(vp.values()) + 3 * vp["delaying-action"]) / (len(vp) + 3))


def _end_of_round_word(level: str, s: GameState) -> tuple[dict[str, object], str]:
    d = Computer("A", level, seed=1).decide(player_view(s, "A"), legal_actions(s, "A"))
    if d.action.args.get("withdraw"):
        # What the opponent reads: that it withdraws, not how its own card weighed it.
        assert d.shown() == "withdraws at the end of the round [p.16, A43]"
    return d.action.args, d.reason


def test_hard_withdraws_when_the_battle_so_ended_wins_whatever_the_answer():
    """Break Contact pays 4 VP for each trooper that survives and 8 for a Contested table. In round 1 with no unit
    lost, its five troopers' 20 VP beat what any chance-encounter card pays for Control of the Table (at most 12), so
    a Withdraw wins allowed, and pursued (a round more, the table Contested, even losing a trooper in it), against
    four of the six cards the opponent may hold (not Scavengers nor Break Contact, which pay for the opponent's own
    survivors): hard withdraws (p.16, A43). Normal plays on, as before."""
    from referee.game.players.computer.seen import deck

    s = _withdrawn(None, {"A": "break-contact", "B": "attrition"})
    troopers = s.troopers_left("A")
    most_for_control = max(r.vp for m in deck().missions("chance-encounter") for r in m.vp_rules
                           if r.condition == "control-table")
    assert 4 * troopers > most_for_control, "the test needs a force that outscores any card's Control of the Table"
    args, reason = _end_of_round_word("hard", s)
    assert args.get("withdraw") == "A", reason
    assert "withdraws" in reason and "67%" in reason and "A43" in reason
    args, _ = _end_of_round_word("normal", s)
    assert args.get("withdraw") is None
    # Allowed, the engine ends the battle with B in Control of the Table: A's five survivors against B's Attrition.
    from referee.game.battle.intents import Action
    from referee.game.battle.dice import ScriptedDice
    from referee.game.play.engine import play

    out = play(s, Action("end-of-round", "", {"withdraw": "A", "answer": "allow"}), ScriptedDice())
    assert out.legal and out.state.result is not None
    assert out.state.result.vp == {"A": 4 * troopers, "B": 0}


def test_hard_plays_on_when_a_withdraw_could_lose():
    """Under Attrition only kills pay: withdrawn with none made, the battle stands 0 VP for it against whatever the
    opponent's card pays for its Control of the Table or its survivors, so hard does not withdraw."""
    s = _withdrawn(None, {"A": "attrition", "B": "scavengers"})
    args, reason = _end_of_round_word("hard", s)
    assert args.get("withdraw") is None, reason


def test_hard_defending_withdraws_only_when_it_wins_against_every_card():
    """Delaying Action in round 1, nothing lost: a Withdraw would win against four of the six offence cards, but an
    attacker allowed it Controls the Table and sets every objective as its card pays most (p.16): Eyes On Inspects
    all five, Sabotage destroys the red ones, and those win. In a Chance Encounter two cards in three would do; in
    a defence hard plays on."""
    s = _withdrawn("B", {"A": "delaying-action", "B": "eyes-on"})
    assert len(s.objectives) == 5
    computer = Computer("A", "hard", seed=1)
    think = _Think(player_view(s, "A"), "A", computer.level, computer.seed)
    assert computer._withdraw_odds(think) == pytest.approx(4 / 6)
    args, reason = _end_of_round_word("hard", s)
    assert args.get("withdraw") is None, reason


def test_hard_defending_withdraws_once_the_attackers_troopers_rule_out_the_cards_that_beat_it():
    """The same Delaying Action defence, but one of the attacker's blips revealed a veteran Engineer: no line C of
    any Troop card issues one, so the attacker holds none of the line C cards, Eyes On and Sabotage, against which
    a Withdraw loses (``Seen.their_missions``). Against each of the four cards left the Withdraw wins, and hard withdraws."""
    from referee.game.battle.intents import Action
    from referee.game.players.computer.seen import Seen
    from referee.game.battle.dice import ScriptedDice
    from referee.game.play.engine import play

    s = _withdrawn("B", {"A": "delaying-action", "B": "eyes-on"})
    blip = next(b for b in s.blips.values() if [(u.type, u.rating) for u in s.blip_contents(b)] == [
        ("engineer", "veteran")])
    out = play(_activating(s.copy(), blip.id), Action("reveal", blip.id, {}), ScriptedDice())
    assert out.legal, out.reason
    shown = out.state
    shown.phase, shown.turn = "end-of-round", None
    assert {m.id for m in Seen(player_view(shown, "A"), "A").their_missions} == {
        "deep-strike", "decapitation", "seize-the-crossing", "sweep-and-clear"}
    computer = Computer("A", "hard", seed=1)
    think = _Think(player_view(shown, "A"), "A", computer.level, computer.seed)
    assert computer._withdraw_odds(think) == 1.0
    args, reason = _end_of_round_word("hard", shown)
    assert args.get("withdraw") == "A", reason


def test_hard_defending_counts_the_objectives_an_attacker_in_control_would_destroy(monkeypatch: pytest.MonkeyPatch):
    """Last Stand pays 8 VP for each objective left intact; Sweep and Clear pays nothing for any. An attacker allowed
    the Withdraw Controls the Table and sets the objectives (p.16, A41), the defender's card shown by then, so it
    destroys all five: the defender is left its 5 survivors' 10 VP against the attacker's 15 for the table. Counted
    as the setting that pays the attacker's own card most, every setting paid Sweep and Clear alike and the first,
    all Secured, was taken: the Withdraw won on paper, and hard withdrew from a battle the objectives then lost it
    (benchmark seed 1033)."""
    from referee.game.battle.intents import Action
    from referee.game.battle.dice import ScriptedDice
    from referee.game.play.engine import play
    from referee.game.players.computer.seen import Seen, mission_card

    sweep = mission_card("sweep-and-clear")
    # The attacker's card narrowed to Sweep and Clear, as the troopers it shows narrow it (``Seen.their_missions``).
    monkeypatch.setattr(Seen, "their_missions", property(lambda self: (sweep,)))
    s = _withdrawn("B", {"A": "last-stand", "B": "sweep-and-clear"})
    assert s.troopers_left("A") == 5 and len(s.objectives) == 5
    computer = Computer("A", "hard", seed=1)
    think = _Think(player_view(s, "A"), "A", computer.level, computer.seed)
    assert computer._withdraw_odds(think) == 0.0
    args, reason = _end_of_round_word("hard", s)
    assert args.get("withdraw") is None, reason
    # What it would have met: allowed, the attacker sets every objective Destroyed and wins 15 to 10.
    allowed = play(s, Action("end-of-round", "", {"withdraw": "A", "answer": "allow"}), ScriptedDice())
    assert allowed.legal and allowed.state.result is not None and allowed.state.result.pending == "objectives"
    setting, = [la for la in legal_actions(allowed.state, "B") if la.kind == "objectives"]
    out = play(allowed.state, setting.action(**{oid: "destroyed" for oid in setting.free}), ScriptedDice())
    assert out.legal, out.reason
    assert out.state.result is not None and out.state.result.vp == {"A": 10, "B": 15}


def test_an_attacker_the_defenders_card_may_beat_at_the_round_limit_hunts_three_times_as_hard():
    """The defender's card may win a stalemate at round 6 (Delaying Action, A43): an attacker whose own card pays
    for no Inspection closes on the enemy three times as hard. It had spent activations standing still until the
    clock ran out. A defender, and an attacker under Eyes On (whose counters on objectives are its clock's work),
    pull as before."""
    from referee.game.players.computer.belief import belief
    from referee.game.players.computer.evaluate import Aims, position, weights
    from referee.game.players.computer.levels import level
    from referee.game.players.computer.seen import Seen

    s = _facing_fire()
    s.attacker, s.missions = "A", {"A": "sweep-and-clear", "B": "delaying-action"}
    think = _Think(player_view(s, "A"), "A", level("normal"), 1)
    assert think.haste and think.aims.hunt == weights().clock_hunt
    closer = s.copy()
    closer.units["a-assault-9"].x = 14.0            # 4" nearer the enemy assault
    b, plain = belief(Seen(player_view(s, "A"), "A")), Aims.of(think.seen.my_mission)
    usual = position(closer, "A", plain, b) - position(s, "A", plain, b)
    assert usual > 0.0
    assert position(closer, "A", think.aims, b) - position(s, "A", think.aims, b) == pytest.approx(weights().clock_hunt * usual)
    s.missions = {"A": "eyes-on", "B": "delaying-action"}
    assert _Think(player_view(s, "A"), "A", level("normal"), 1).aims.hunt == 1.0
    s.attacker, s.missions = "B", {"A": "delaying-action", "B": "sweep-and-clear"}
    assert _Think(player_view(s, "A"), "A", level("normal"), 1).aims.hunt == 1.0


def _kamikaze_facing(gap: float, counters: int) -> GameState:
    """A kamikaze drone of A's, activated, ``gap``" from an enemy tactical carrying ``counters`` Target counters."""
    s = _battle(3)
    s.blips.clear()
    s.units = {"a-kamikaze-drone-9": UnitState("a-kamikaze-drone-9", "A", "council-of-zane", "veteran",
                                               "kamikaze-drone", 10.0, 10.0),
               "a-tactical-9": UnitState("a-tactical-9", "A", "council-of-zane", "veteran", "tactical", 4.0, 4.0),
               "b-tactical-9": UnitState("b-tactical-9", "B", "council-of-zane", "veteran", "tactical", 10.0 + gap,
                                         10.0, target_counters=counters)}
    return _activating(s, "a-kamikaze-drone-9")


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_kamikaze_drone_closes_on_the_enemy_and_explodes_where_a_jump_reaches(level):
    # Out of reach it goes toward the enemy, and does not spend itself on an objective where no contact can succeed
    # (no counters on it): once the drone was worth nothing alive, an explosion anywhere cost nothing.
    s = _kamikaze_facing(20.0, 0)
    d = Computer("A", level, seed=1).decide(player_view(s, "A"), legal_actions(s, "A"))
    assert d.action.kind in ("move", "jump"), d.reason
    assert math.hypot(d.action.args["x"] - 30.0, d.action.args["y"] - 10.0) < 20.0 - 3.0
    # 8" away a Move falls short and a Jump (9") reaches: it jumps and explodes against the marked tactical.
    s = _kamikaze_facing(8.0, 5)
    d = Computer("A", level, seed=1).decide(player_view(s, "A"), legal_actions(s, "A"))
    assert d.action.kind == "kamikaze" and d.action.args["target"] == "b-tactical-9" and d.action.args.get("jump")
    assert d.reason.startswith("jumps 6.9\" and explodes against b-tactical-9: a die under its 5 Target counters")
    assert " VP over " in d.reason and " VP over " not in d.shown()      # its weighing reads its own secrets
    # At a physical table the instruction says to Jump it, not Move it (p.22).
    assert instruction(player_view(s, "A"), d.action).startswith(
        "Jump a-kamikaze-drone-9 at (10, 10) 6.9\" toward the right edge to (16.9, 10) and explode it against "
        "b-tactical-9")
    out = play(s, d.action, SeededDice(1))
    assert out.legal and "a-kamikaze-drone-9" not in out.state.units
