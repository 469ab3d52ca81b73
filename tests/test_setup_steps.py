"""Set-up as the players' decisions (p.~14-15, A47, A55, A60): each step an action, previewed, refused with the rule
and the distance that fails, recorded and replayed."""

import json
import random
import subprocess
import sys


from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice, SeededDice
from referee.game.play.engine import Game
from referee.game.play.legal import legal_actions, to_act
from referee.game.records.record import read_save, save_game, state_digest
from referee.game.play.seal import seal_report
from referee.game.players.selfplay import play_battle
from referee.game.play.session import Session
from referee.game.play import setup_steps
from referee.game.play.setup import new_game
from referee.game.play.setup_steps import _free_spots, _grid, blip_problems, deployment_zone
from referee.game.views.view import player_view
from referee import paths
from referee.rules.scenario import load_scenario, parse_scenario

TABLE = parse_scenario({"name": "open field", "table": {"width": 36, "height": 36},
                        "terrain": [{"id": "w1", "type": "woods", "polygon": [[2, 2], [8, 2], [8, 8], [2, 8]]},
                                    {"id": "lake", "type": "lake", "circle": {"x": 30, "y": 30, "r": 2}}]}, "open")
FACTIONS = {"A": "new-tokyo", "B": "council-of-zane"}


def _play(game: Game, action: Action, dice=None):
    out = game.play(action, dice if dice is not None else ScriptedDice())
    assert out.legal, out.reason
    return out


def attack_defence(streak=None) -> Game:
    """A rolls 6, B rolls 2: A attacks, B defends (its half is y 18 to 36)."""
    game = new_game(TABLE, FACTIONS, streak)
    _play(game, Action("roll-roles"), ScriptedDice([6, 2]))
    assert game.state.attacker == "A"
    return game


def test_roles_then_the_defender_picks_its_edge():
    game = attack_defence()
    assert to_act(game.state) == "B"
    [legal] = legal_actions(game.state, "B")
    assert (legal.kind, legal.actor, legal.free) == ("choose-edge", "B", {"turn": [False, True]})
    assert legal_actions(game.state, "A") == []
    # Side A may not decide for the defender.
    refused = game.play(Action("choose-edge", "A", {"turn": True}), ScriptedDice())
    assert not refused.legal and "side B" in refused.reason and "A60" in refused.reason
    _play(game, Action("choose-edge", "B", {"turn": True}))
    lake = next(t for t in game.state.terrain if t.id == "lake")
    assert (lake.circle.x, lake.circle.y) == (6, 6), "the far edge turns the terrain about the table's centre"
    woods = next(t for t in game.state.terrain if t.id == "w1")
    assert woods.polygon == [[34, 34], [28, 34], [28, 28], [34, 28]]


def _to_objectives(game: Game) -> None:
    _play(game, Action("choose-edge", "B", {"turn": False}))


def test_each_a55_zone_rule_is_refused_with_the_distance_that_fails():
    game = attack_defence()
    _to_objectives(game)
    session = Session(game)
    [legal] = legal_actions(game.state, "A")
    assert legal.kind == "place-objective" and legal.args == {"objective": "delta"}
    assert legal.free["x, y"]["y"] == [27, 29.5], "delta: the defender's 25 %, 6\" clear of the far edge"
    # Outside the defender's 25 %.
    p = session.preview(Action("place-objective", "A", {"x": 18, "y": 20}))
    assert not p.legal and "defender's 25 % (y from 27 to 36)" in p.reason and "A55" in p.reason
    # 4.5" from the side edge (the base's edge, 0.5" from its centre).
    p = session.preview(Action("place-objective", "A", {"x": 5, "y": 28}))
    assert not p.legal and "4.50\" from a table edge; at least 6\"" in p.reason
    _play(game, Action("place-objective", "A", {"objective": "delta", "x": 12, "y": 28}))
    # Epsilon 5" (centre to centre 6") from delta: less than 8" apart.
    p = session.preview(Action("place-objective", "A", {"x": 18, "y": 28}))
    assert not p.legal and "epsilon is 5.00\" from delta; at least 8\"" in p.reason
    _play(game, Action("place-objective", "A", {"x": 24, "y": 28}))
    # Alpha: the defender's half; the attacker may not place it.
    assert to_act(game.state) == "B"
    p = session.preview(Action("place-objective", "B", {"x": 18, "y": 12}))
    assert not p.legal and "alpha must stand in the defender's half (y from 18 to 36)" in p.reason
    p = session.preview(Action("place-objective", "B", {"x": 12, "y": 20}))
    assert not p.legal and "alpha is 7.00\" from delta; at least 8\"" in p.reason
    p = session.preview(Action("place-objective", "B", {"x": 30, "y": 29.5}))
    assert not p.legal and "impassable" in p.reason
    assert session.preview(Action("place-objective", "B", {"x": 18, "y": 19})).legal
    before = game.state.to_data()
    refused = game.play(Action("place-objective", "B", {"x": 12, "y": 20}), ScriptedDice())
    assert not refused.legal and game.state.to_data() == before, "a refused placement changes nothing"


def test_place_for_me_is_a_recorded_draw_never_forced():
    game = attack_defence()
    _to_objectives(game)
    p = Session(game).preview(Action("place-objective", "A"))
    assert p.legal and p.first_roll is not None and p.first_roll.kind == "draw"
    out = _play(game, Action("place-objective", "A"), ScriptedDice(draws=[0]))
    delta = game.state.objectives["delta"]
    assert [r.kind for r in out.rolls] == ["draw"]
    assert (delta.x, delta.y) == (6.5, 27.0), "the first spot of the zone, as the draw of 0 picks"


def test_a_placings_draw_offers_its_spots_worded_as_a_player_choosing_by_hand_reads_them():
    game = attack_defence()
    _to_objectives(game)
    request = Session(game).preview(Action("place-objective", "A")).first_roll
    assert request is not None and request.kind == "draw"
    spots = request.options
    # The first spot is the one a draw of 0 picks (above); every spot is worded as the dialog's buttons show it.
    assert spots[0] == "(6.5, 27)" and len(spots) > 50
    worded = [spots[i] for i in range(len(spots))]
    assert list(spots) == worded and spots[-2:] == tuple(worded[-2:])
    assert all(w.startswith("(") and w.endswith(")") and w.count(", ") == 1 for w in worded)
    # Compared and hashed as the tuple of its words, as the options of any other draw are.
    assert spots == tuple(worded) and hash(spots) == hash(tuple(worded)) and spots != tuple(worded[1:])


def test_the_spots_a_blip_is_drawn_from_are_every_spot_of_the_zone_the_rules_allow():
    """The draw of a blip's spot measures the whole grid at once (and keeps which spots terrain closes): each spot it
    offers is one where a blip placed by hand is allowed, and each it leaves out is refused by the same rules."""
    checked = {"offered": 0, "closed": 0}

    def check(state) -> None:
        if state.phase != "setup" or not state.objectives:
            return
        for side in ("A", "B"):
            lo, hi = deployment_zone(state, side)
            grid = _grid(1, state.width - 1, lo + 0.75, hi - 0.75, 1.5)
            offered = set(_free_spots(state, grid))
            for x, y in grid:
                problems = blip_problems(state, side, x, y)
                assert ((x, y) in offered) == (not problems), (side, x, y, problems)
                checked["offered" if not problems else "closed"] += 1

    for seed, table in ((1, TABLE), (2, load_scenario(paths.DEFAULT_SCENARIO))):    # the first: a lake in a zone
        game = new_game(table, FACTIONS)
        play_battle(game, SeededDice(seed), random.Random(seed), rounds=1, on_action=check)
    assert checked["offered"] > 1000 and checked["closed"] > 100, checked


def test_the_points_terrain_closes_are_kept_for_a_few_grids_and_stay_right_past_them():
    game = new_game(TABLE, FACTIONS)
    impassable = [f for f in game.state.battlefield().terrain if f.column(False).impassable]
    assert impassable, "the table has a lake"
    grids = [setup_steps._grid(1, 35, lo, lo + 3, 0.5) for lo in range(0, 32)] * 3      # 96 asks of 32 grids
    for grid in grids + [setup_steps._grid(0.5 + k / 10, 35, 0, 36, 1.0) for k in range(setup_steps.CLEAR_KEPT + 8)]:
        clear = setup_steps._clear_of(impassable, grid)
        assert clear == [not any(f.holds(x, y) for f in impassable) for x, y in grid]
        assert len(setup_steps._CLEAR) <= setup_steps.CLEAR_KEPT
    assert not all(setup_steps._clear_of(impassable, setup_steps._grid(1, 35, 28, 32, 0.5)))   # the lake's rows


def _through_cards(game: Game) -> None:
    _to_objectives(game)
    for oid, side, x, y in (("delta", "A", 12, 28), ("epsilon", "A", 24, 28), ("alpha", "B", 8, 19),
                            ("beta", "B", 18, 19), ("gamma", "B", 28, 19)):
        _play(game, Action("place-objective", side, {"objective": oid, "x": x, "y": y}))


def test_the_streak_draws_extra_cards_and_the_side_chooses_a47():
    game = attack_defence({"A": 3, "B": 2})
    _through_cards(game)
    # A, streak 3: mission, troop, drone, then an extra troop card and an extra mission card.
    out = _play(game, Action("draw-cards", "A"), ScriptedDice(draws=[0, 0, 0, 0, 0]))
    assert [r.label for r in out.rolls][-2:] == ["side A draws an extra troop card", "side A draws an extra mission card"]
    offered = game.state.setup.offered["A"]
    assert len(offered["mission"]) == 2 and len(offered["troop"]) == 2
    [legal] = legal_actions(game.state, "A")
    assert legal.kind == "choose-cards" and legal.free == {"mission": offered["mission"], "troop": offered["troop"]}
    # The opponent sees neither the cards nor the choice.
    view_b = player_view(game.state, "B")
    assert view_b["setup"]["offered"]["A"] is None
    assert all(offered["troop"][1] not in json.dumps(line) for line in view_b["log"])
    bad = game.play(Action("choose-cards", "A", {"troop": "no-such-card"}), ScriptedDice())
    assert not bad.legal and "one of the cards drawn" in bad.reason
    _play(game, Action("choose-cards", "A", {"mission": offered["mission"][1], "troop": offered["troop"][1]}))
    assert game.state.missions["A"] == offered["mission"][1]
    assert game.state.cards["A"].troop == offered["troop"][1]
    # B, streak 2: an extra troop card only.
    out = _play(game, Action("draw-cards", "B"), ScriptedDice(draws=[0, 0, 0, 0]))
    assert len(out.rolls) == 4
    offered = game.state.setup.offered["B"]
    assert len(offered["mission"]) == 1 and len(offered["troop"]) == 2
    _play(game, Action("choose-cards", "B", {"troop": offered["troop"][0]}))
    assert game.state.cards["B"].troop == offered["troop"][0]


def _through_holding(game: Game) -> None:
    _through_cards(game)
    for side in "AB":
        _play(game, Action("draw-cards", side), ScriptedDice(draws=[0, 0, 0]))


def test_two_units_per_square_and_every_issued_unit_once():
    game = attack_defence()
    _through_holding(game)
    units = [u["id"] for u in game.state.setup.issued["A"]]
    assert len(units) >= 4
    [legal] = legal_actions(game.state, "A")
    assert legal.free["squares"] == {"squares": [1, 16], "per_square": 2, "units": units}
    three = {"1": units[:3], **{str(i + 2): [u] for i, u in enumerate(units[3:])}}
    out = game.play(Action("fill-holding", "A", {"squares": three}), ScriptedDice())
    assert not out.legal and "square 1 holds 3 units; at most 2 [p.~10]" in out.reason
    missing = {str(i + 1): [u] for i, u in enumerate(units[1:])}
    out = game.play(Action("fill-holding", "A", {"squares": missing}), ScriptedDice())
    assert not out.legal and f"{units[0]} left" in out.reason
    arranged = {"16": units[:2], **{str(i + 1): [u] for i, u in enumerate(units[2:])}}
    _play(game, Action("fill-holding", "A", {"squares": arranged}))
    assert [u.id for u in game.state.holding["A"].squares[16]] == units[:2]
    assert "a-" not in json.dumps(player_view(game.state, "B")["log"][-1])


def _through_blips(game: Game) -> None:
    _through_holding(game)
    for side in "AB":
        _play(game, Action("fill-holding", side), ScriptedDice(draws=[0] * 32))


def test_blip_zones_are_refused_with_the_distance_that_fails():
    game = attack_defence()
    _through_blips(game)
    session = Session(game)
    assert to_act(game.state) == "B", "the defender places its blips first"
    p = session.preview(Action("place-blip", "B", {"x": 10, "y": 15, "square": 1}))
    assert not p.legal and "anywhere in its half (y from 18 to 36)" in p.reason and "3.00\" beyond" in p.reason
    p = session.preview(Action("place-blip", "B", {"x": 18, "y": 19, "square": 1}))
    assert not p.legal and "overlaps beta" in p.reason
    p = session.preview(Action("place-blip", "B", {"x": 30, "y": 30, "square": 1}))
    assert not p.legal and "impassable terrain (lake)" in p.reason
    _play(game, Action("place-blip", "B", {"x": 10, "y": 30, "square": 7}), ScriptedDice(draws=[0]))
    [blip] = game.state.blips.values()
    assert blip.square == 7 and (blip.x, blip.y) == (10, 30)
    p = session.preview(Action("place-blip", "B", {"x": 14, "y": 30, "square": 7}))
    assert not p.legal and "no blip stands for yet" in p.reason
    # The rest for me, then the attacker: within 6" of its edge.
    _play(game, Action("place-blips", "B"), SeededDice(3))
    assert sum(1 for b in game.state.blips.values() if b.side == "B") == 16
    assert to_act(game.state) == "A"
    p = session.preview(Action("place-blip", "A", {"x": 18, "y": 8.5}))
    assert not p.legal and "within 6\" of its edge (y = 0)" in p.reason
    assert "is 8.00\" from it at its closest point [p.~15, A61]" in p.reason
    # measured from the base's closest point (A61): a centre 6.5" from the edge is within 6" of it
    assert session.preview(Action("place-blip", "A", {"x": 18, "y": 6.5, "square": 1})).legal
    assert not session.preview(Action("place-blip", "A", {"x": 18, "y": 6.6, "square": 1})).legal


def test_round_one_the_attacker_holds_the_initiative_without_a_roll():
    game = attack_defence()
    _through_blips(game)
    _play(game, Action("place-blips", "B"), SeededDice(3))
    out = _play(game, Action("place-blips", "A"), SeededDice(4))
    assert all(r.kind == "draw" for r in out.rolls), "no die is rolled for the first round's Initiative"
    s = game.state
    assert s.phase == "action" and s.round == 1 and s.initiative == "A" and s.turn.player == "A"
    assert s.setup is None and s.sealed["A"] and s.sealed["B"]
    assert any("takes the Initiative counter (no roll)" in e for e in out.events)


def test_a_chance_encounter_places_blips_four_at_a_time_first_player_first():
    game = new_game(TABLE, FACTIONS)
    _play(game, Action("roll-roles"), ScriptedDice([4, 4, 2, 5]))
    s = game.state
    assert s.mode == "chance-encounter" and s.initiative == "B" and s.objectives == {}
    assert to_act(s) == "A", "the second player picks the edge"
    _play(game, Action("choose-edge", "A", {"turn": False}))
    for side in "AB":
        _play(game, Action("draw-cards", side), ScriptedDice(draws=[0, 0, 0]))
    for side in "AB":
        _play(game, Action("fill-holding", side), ScriptedDice(draws=[0] * 32))
    order = []
    dice = SeededDice(9)
    while game.state.phase == "setup":
        side = to_act(game.state)
        order.append(side)
        _play(game, Action("place-blip", side), dice)
    assert order == (["B"] * 4 + ["A"] * 4) * 4
    assert game.state.turn.player == "B"


def test_a_whole_setup_by_actions_then_a_battle_saved_and_replayed_in_a_new_process(tmp_path):
    game = new_game(TABLE, FACTIONS)
    dice = SeededDice(2024)
    play_battle(game, dice, random.Random(5), rounds=2)
    kinds = [e.action.kind for e in game.record]
    for kind in ("roll-roles", "choose-edge", "draw-cards", "fill-holding", "place-blip"):
        assert kind in kinds
    assert game.initial.phase == "setup" and game.state.phase in ("over", "end-of-round")
    assert all(r["matches"] for r in seal_report(game).values()), "the seals are checked against set-up's end"
    path = save_game(game, tmp_path / "battle.json", dice)
    half = Game(game.initial, game.record[:3], game.rebuild(3))
    assert "set-up, side " in read_save(save_game(half, tmp_path / "half.json")).summary()
    doc = json.loads(path.read_text())
    assert doc["version"] >= 3 and doc["initial"]["phase"] == "setup" and "setup" in doc["initial"]
    out = subprocess.run([sys.executable, "-m", "referee", "replay", str(path), "--json"], capture_output=True,
                         text=True, check=True)
    assert json.loads(out.stdout)["save"]["state_digest"] == state_digest(game.state)
    assert read_save(path).game.state.to_data() == game.state.to_data()


def test_set_up_is_its_own_phase_no_battle_action_before_it_ends():
    game = new_game(TABLE, FACTIONS)
    out = game.play(Action("end-turn"), ScriptedDice())
    assert not out.legal and "set-up is not finished" in out.reason
    [legal] = legal_actions(game.state, "A")
    assert legal.kind == "roll-roles"


def test_the_command_line_builds_set_up_step_by_step_and_the_battle_begins(tmp_path, capsys):
    from referee.cli.main import main

    save = str(tmp_path / "b.json")

    def do(*argv):
        code = main(["query", save, "do", *argv, "--out", save, "--json"])
        answer = json.loads(capsys.readouterr().out)
        assert code == (0 if answer["legal"] else 3)        # a refused action has its own exit status
        return answer

    assert main(["query", "pastoral-hills", "do", "new-battle", "--factions", "new-tokyo,council-of-zane",
                 "--out", save]) == 0
    capsys.readouterr()
    assert do("roll-roles", "--dice", "2,5")["to_act"] == "A", "B attacks: A, the defender, picks the edge"
    do("choose-edge", "A", "--args", '{"turn": false}')
    refused = do("place-objective", "B", "--args", '{"x": 18, "y": 3}')
    assert not refused["legal"] and "delta is 2.50\" from a table edge; at least 6\"" in refused["reason"]
    for oid, side in (("delta", "B"), ("epsilon", "B"), ("alpha", "A"), ("beta", "A"), ("gamma", "A")):
        assert do("place-objective", side, "--args", json.dumps({"objective": oid}))["legal"]
    for kind, side in (("draw-cards", "A"), ("draw-cards", "B"), ("fill-holding", "A"), ("fill-holding", "B")):
        assert do(kind, side)["legal"]
    placed = do("place-blip", "A", "--args", '{"x": 10, "y": 12, "square": 3}')
    assert placed["legal"], placed.get("reason")
    assert do("place-blips", "A")["to_act"] == "B"
    last = do("place-blips", "B")
    assert last["phase"] == "action" and last["to_act"] == "B", "round 1: the attacker holds the Initiative"
    assert all(kind == "draw" for _, kind, _ in last["rolls"]), "and no die is rolled for it"
    state = read_save(save).game.state
    blip = next(b for b in state.blips.values() if b.side == "A" and b.square == 3)
    assert (blip.x, blip.y) == (10, 12)


def test_an_objective_that_would_leave_the_next_no_legal_place_is_refused_a55():
    """Alpha and beta placed where gamma could stand nowhere stopped the set-up for good: every later placement was
    refused, and the battle never began. Such a spot is refused as it is placed, naming what it would block."""
    game = attack_defence()
    _to_objectives(game)
    _play(game, Action("place-objective", "A", {"objective": "delta", "x": 12, "y": 28}))
    _play(game, Action("place-objective", "A", {"x": 24, "y": 28}))
    session = Session(game)
    # Alpha 1" right of delta's column: no two spots 8" apart are left for beta and gamma in B's half.
    p = session.preview(Action("place-objective", "B", {"x": 13, "y": 19}))
    assert not p.legal and "would leave no legal place for beta, gamma" in p.reason and "A55" in p.reason
    _play(game, Action("place-objective", "B", {"x": 8, "y": 19}))
    # Beta 9.2" from epsilon is a legal spot by itself, but gamma would then have none (x from 31 on is off-zone).
    before = game.state.to_data()
    refused = game.play(Action("place-objective", "B", {"x": 22, "y": 19}), ScriptedDice())
    assert not refused.legal and "would leave no legal place for gamma" in refused.reason
    assert game.state.to_data() == before, "a refused placement changes nothing"
    _play(game, Action("place-objective", "B", {"x": 18, "y": 19}))
    _play(game, Action("place-objective", "B", {"x": 28, "y": 19}))
    assert set(game.state.objectives) == {"alpha", "beta", "gamma", "delta", "epsilon"}


def _labels(game: Game, side: str) -> set[str]:
    """Every label a counter of ``side`` bore in the battle: on the table now, or named by the log."""
    prefix = f"{side.lower()}-blip-"
    named = set(game.state.blips) | {u for e in game.state.log for u in e.units}
    return {ident[len(prefix):] for ident in named if ident.startswith(prefix)}


def test_no_blip_label_is_on_both_sides_counters_in_a_new_battle():
    shared = []
    for seed in range(1, 7):
        game = new_game(TABLE, FACTIONS, labels_apart=True)     # as the service starts a players' battle
        assert game.state.labels_apart
        play_battle(game, SeededDice(seed), random.Random(seed), rounds=2)
        a, b = _labels(game, "A"), _labels(game, "B")
        assert len(a) >= 8 and len(b) >= 8
        shared += sorted(a & b)
    assert shared == [], "a label names a counter of each side"


def test_a_battle_begun_before_keeps_its_labels_and_its_digest():
    game = new_game(TABLE, FACTIONS, labels_apart=True)
    data = game.state.to_data()
    assert data["labels_apart"] is True
    older = {k: v for k, v in data.items() if k != "labels_apart"}
    from referee.game.battle.state import GameState

    again = GameState.from_data(older)
    assert again.labels_apart is False and "labels_apart" not in again.to_data()


def test_the_battles_the_service_starts_draw_their_labels_apart(tmp_path):
    from referee.service.battles import new_battle as service_new_battle
    from referee.service.new_battle import start_battle

    assert start_battle(TABLE, FACTIONS, {}, seed=7).game.state.labels_apart
    written = service_new_battle(TABLE, FACTIONS, {}, tmp_path / "new.json")
    assert read_save(written.written).game.state.labels_apart
