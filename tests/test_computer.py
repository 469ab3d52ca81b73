"""The computer opponent: it acts only through legal actions, from its own player view, and the peek test catches
a player that is handed one hidden fact."""

from __future__ import annotations

import random

import pytest

from referee.game.players.computer import Computer
from referee.game.players.computer.peek import check, given_decoys, honest, redeal
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.play.legal import legal_actions, to_act
from referee.game.players.seated import ComputerPlayer, RandomPlayer
from referee.game.players.selfplay import play_battle
from referee.game.play.session import Session
from referee.game.play.setup import SetupChoices, new_battle
from referee.game.battle.state import GameState, TurnState, unit_from_contents
from referee.game.views.view import player_view
from referee.rules.scenario import parse_scenario
from tests.battles import OPEN_FIELD


def _battle(seed: int = 3) -> tuple[GameState, SeededDice]:
    table = parse_scenario(OPEN_FIELD, "open field")
    dice = SeededDice(seed)
    state, _ = new_battle(table, SetupChoices(factions={"A": "council-of-zane", "B": "council-of-zane"}), dice)
    return state, dice


def duel(seed: int = 3) -> GameState:
    """Side A's Tactical stands revealed and active between two of B's blips, one holding a unit and one a decoy:
    which one is real is exactly what A may not know."""
    state, _ = _battle(seed)
    s = state.copy()
    a_real = next(b for b in sorted(s.blips.values(), key=lambda b: b.id)
                  if b.side == "A" and any(c.type == "tactical" for c in s.blip_contents(b) or []))
    (contents,) = [c for c in s.blip_contents(a_real) or [] if c.type == "tactical"][:1]
    s.holding["A"].squares[a_real.square] = [c for c in s.blip_contents(a_real) or [] if c.id != contents.id]
    if not s.holding["A"].squares[a_real.square]:
        del s.blips[a_real.id]
    unit = unit_from_contents(contents, 10.0, 18.0, 0.0, False)
    s.units[unit.id] = unit
    b_blips = sorted((b for b in s.blips.values() if b.side == "B"), key=lambda b: b.id)
    real = next(b for b in b_blips if s.blip_contents(b))
    decoy = next(b for b in b_blips if not s.blip_contents(b))
    real.x, real.y = 16.0, 14.0
    decoy.x, decoy.y = 16.0, 22.0
    s.phase = "action"
    s.turn = TurnState(player="A", primary_allowed=1, primary_used=1, active=unit.id, actions_left=2,
                       activation_kind="primary")
    return s


def test_the_computer_returns_one_of_the_legal_actions_with_a_reason():
    state, dice = _battle(4)
    game = Game(state)
    session = Session(game)
    rng = random.Random(4)
    computers = {side: Computer(side, "easy", seed=4) for side in "AB"}
    for _ in range(25):
        side = to_act(game.state)
        assert side is not None
        legal = legal_actions(game.state, side)
        d = computers[side].decide(player_view(game.state, side), legal)
        assert d.reason
        assert any(la.kind == d.action.kind and la.actor == d.action.actor
                   and all(d.action.args.get(k) == v for k, v in la.args.items()) for la in legal)
        out = session.apply(d.action, dice)
        assert out.legal, (d.action.text(), out.reason)
        if game.state.phase != "action":
            break
    del rng


def test_the_computer_refuses_a_view_of_the_other_side():
    state, _ = _battle()
    side = to_act(state)
    assert side is not None
    with pytest.raises(ValueError, match="view"):
        Computer("B" if side == "A" else "A").decide(player_view(state, side), legal_actions(state, side))


def test_a_redeal_keeps_the_deciding_sides_view_and_changes_what_it_cannot_see():
    s = duel()
    other = redeal(s, "A", random.Random(1))
    assert player_view(other, "A") == player_view(s, "A")
    holdings = [[c.id for c in other.blip_contents(b) or []] for b in sorted(other.blips.values(), key=lambda b: b.id)
                if b.side == "B"]
    before = [[c.id for c in s.blip_contents(b) or []] for b in sorted(s.blips.values(), key=lambda b: b.id)
              if b.side == "B"]
    assert holdings != before


def test_peek_test_the_computer_does_not_change_its_decision_when_hidden_facts_are_dealt_again():
    s = duel()
    computer = Computer("A", "normal", seed=2)
    result = check(s, "A", honest(computer.decide), random.Random(5), redeals=4)
    assert result.checked == 4
    assert result.changed == 0, result.examples


def test_peek_test_catches_a_player_given_which_enemy_blips_are_decoys():
    s = duel()
    # A card that pays for kills: under the duel's Deep Strike its Tactical Targets delta, its objective to destroy,
    # whatever the blips hold, and a player given the decoys would decide as an honest one.
    s.missions["A"] = "sweep-and-clear"
    computer = Computer("A", "normal", seed=2)
    result = check(s, "A", given_decoys(computer.decide), random.Random(5), redeals=4)
    assert result.checked == 4
    assert result.changed >= 1, "the peek test missed a player that knows which blips are decoys"


def test_selfplay_seats_the_computer_and_keeps_its_reasons_out_of_the_battle_log():
    state, dice = _battle(6)
    game = Game(state)
    computer = ComputerPlayer(Computer("A", "easy", seed=6))
    play_battle(game, dice, random.Random(6), rounds=1, limit=400,
                players={"A": computer, "B": RandomPlayer(random.Random(6))})
    assert computer.reasons
    log = [e.text for e in game.state.log]
    for _round, _text, reason in computer.reasons[:20]:
        assert reason not in log
    # Replaying the record gives the same battle: the computer only ever chose actions the engine recorded.
    assert game.rebuild().to_data() == game.state.to_data()


def test_the_computer_takes_its_own_set_up_decisions_through_the_legal_actions():
    from referee.game.play.setup import new_game

    game = new_game(parse_scenario(OPEN_FIELD, "open field"), {"A": "council-of-zane", "B": "new-tokyo"})
    computer = ComputerPlayer(Computer("A", "normal", seed=8))
    played = play_battle(game, SeededDice(8), random.Random(8), rounds=1, limit=60,
                         players={"A": computer, "B": RandomPlayer(random.Random(8))})
    assert played.refused == 0
    mine = [e.action for e in game.record if e.action.actor == "A"]
    blips = [a for a in mine if a.kind == "place-blip"]
    assert len(blips) == 16, [a.text() for a in mine]
    assert all({"x", "y", "square"} <= set(a.args) for a in blips)          # chosen, not "placed for me"
    assert any(a.kind == "fill-holding" and a.args.get("squares") for a in mine)
    assert game.state.phase == "action"
    # Real units stand where the computer found cover; the decoys it spread: its reasons say which, privately.
    assert any("where cover is" in r for _round, _text, r in computer.reasons)


def test_an_imagined_world_agrees_with_the_view_it_was_drawn_from():
    from referee.game.players.computer.belief import belief
    from referee.game.players.computer.determinize import sample_state
    from referee.game.players.computer.seen import Seen

    s = duel()
    view = player_view(s, "A")
    seen = Seen(view, "A")
    for seed in range(3):
        world = sample_state(seen, belief(seen), random.Random(seed))
        again = player_view(world, "A")
        for key in ("units", "blips", "objectives", "turn", "round", "phase", "holding"):
            assert again[key] == view[key], key
        # The enemy blips hold units in some worlds and not in others: the world is drawn, not read.
    held = {tuple(bool(w.blip_contents(w.blips[i])) for i in sorted(w.blips) if w.blips[i].side == "B")
            for w in (sample_state(seen, belief(seen), random.Random(k)) for k in range(6))}
    assert len(held) > 1


def test_a_save_names_the_side_the_computer_plays_and_reopens_with_it(tmp_path):
    import json

    from referee.game.players.seated import seat_computer, seated_computer
    from referee.game.records.record import read_save, save_game

    state, dice = _battle(4)
    game = Game(state)
    seat_computer(game, Computer("A", "hard", seed=77))
    path = save_game(game, tmp_path / "battle.json", dice)
    doc = json.loads(path.read_text())
    assert doc["version"] == 4
    assert doc["players"] == {"A": {"kind": "computer", "level": "hard", "seed": 77}}
    again = seated_computer(read_save(path).game)
    assert again is not None and (again.side, again.level.name, again.seed) == ("A", "hard", 77)
    # The same view gives the same decision: the reopened computer plays on as the one that was saved.
    s = duel()
    view, legal = player_view(s, "A"), legal_actions(s, "A")
    assert again.decide(view, legal).action == Computer("A", "hard", seed=77).decide(view, legal).action

    # A format-3 save names no player: both sides were people's, and it reopens as hot-seat.
    doc.pop("players")
    doc["version"] = 3
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    assert seated_computer(read_save(old).game) is None

    # A level the program does not know is refused, naming the item.
    doc["version"] = 4
    doc["players"] = {"A": {"kind": "computer", "level": "expert", "seed": 1}}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(Exception) as caught:
        read_save(bad)
    assert "players" in str(caught.value) and "expert" in str(caught.value)


def test_selfplay_against_itself_opens_to_be_watched_not_played():
    from referee.game.players.seated import seat_computer, seated_computer

    state, _ = _battle(4)
    game = Game(state)
    seat_computer(game, Computer("A", "easy", seed=1))
    seat_computer(game, Computer("B", "normal", seed=1))
    assert seated_computer(game) is None


def test_the_fewest_dice_for_an_inspection_are_those_that_pay_for_it_nine_times_in_ten():
    from referee.game.players.computer.candidates import sure_pool

    # Two dice roll 4 or more 33 times in 36 (92 %), 5 or more 30 times (83 %); three dice roll 6 or less 20 times
    # in 216, so 7 or more 91 %.
    assert (sure_pool(1), sure_pool(2), sure_pool(3)) == (1, 4, 7)


def test_the_computer_names_what_the_best_roll_could_buy_and_the_roll_places_what_it_pays_for():
    from referee.game.players.computer.candidates import target_candidates
    from referee.game.players.computer.seen import Seen
    from referee.game.battle.intents import LegalAction

    s = duel()
    me = next(u for u in s.units.values() if u.side == "A")
    enemy = next(b for b in s.blips.values() if b.side == "B")
    la = LegalAction("target", me.id, {}, {"dice": [1, 3], "assign": {enemy.id: {"price": 2, "eaten": 1}}})
    seen = Seen(player_view(s, "A"), "A")
    named = {(c.action.args["dice"], c.action.args["assign"][enemy.id]) for c in target_candidates(la, seen)}
    # Two dice roll at most 12: 6 counters at 2 points, less the one the terrain eats; three dice 18: 9 less 1.
    assert named == {(2, 5), (3, 8)}
    assert all(c.action.args["up_to"] for c in target_candidates(la, seen))
    # An objective to Inspect is named only the counters its mission still needs.
    obj = LegalAction("target", me.id, {}, {"dice": [1, 3], "assign": {"gamma": {"price": 1, "eaten": 0}}})
    named = {(c.action.args["dice"], c.action.args["assign"]["gamma"]) for c in target_candidates(obj, seen,
                                                                                                 {"gamma": 4})}
    # 4 counters at 1 point: with 2 and 3 dice, and with the fewest that pay 4 points 9 times in 10 (2 dice, 92 %).
    assert named == {(2, 4), (3, 4)}
    # Two objectives to Inspect share one pool of every die: the cheaper counters named first, each up to its need.
    both = LegalAction("target", me.id, {}, {"dice": [1, 3], "assign": {"gamma": {"price": 2, "eaten": 0},
                                                                        "beta": {"price": 1, "eaten": 0}}})
    shared = [c.action.args for c in target_candidates(both, seen, {"gamma": 4, "beta": 3})
              if len(c.action.args["assign"]) == 2]
    assert shared == [{"dice": 3, "assign": {"beta": 3, "gamma": 4}, "up_to": True}]
    assert list(shared[0]["assign"]) == ["beta", "gamma"]


def test_an_action_the_engine_refused_is_not_proposed_again_at_the_same_point():
    s = duel()
    computer = Computer("A", "normal", seed=2)
    view, legal = player_view(s, "A"), legal_actions(s, "A")
    first = computer.decide(view, legal).action
    again = computer.decide(view, legal, frozenset({first.text()})).action
    assert again.text() != first.text()
    assert computer.decide(view, legal).action == first       # nothing else changed


def test_a_missile_is_weighed_by_its_three_outcomes_and_counters_invite_missiles():
    from referee.game.battle.intents import Action
    from referee.game.players.computer.evaluate import _missile_and_cm, _missile_hit
    from referee.game.players.computer.weighing import MissileDice
    from referee.game.play.engine import play

    s = duel()
    shooter = next(u for u in s.units.values() if u.side == "A")
    real = next(b for b in s.blips.values() if b.side == "B" and s.blip_contents(b))
    contents = (s.blip_contents(real) or [])[0]
    target = unit_from_contents(contents, 10.0, 30.0, 270.0, False)
    target.target_counters = 3
    del s.blips[real.id]
    s.units[target.id] = target
    missile = Action("missile", shooter.id, {"target": target.id})
    hit = play(s, missile, MissileDice("hit", random.Random(1)))
    assert hit.legal and target.id not in hit.state.units
    miss = play(s, missile, MissileDice("miss", random.Random(1)))
    assert any("no direct hit" in e.text for e in miss.state.log[len(s.log):])
    assert _missile_and_cm(target.faction, target.rating, target.type)[1] > 0
    down = play(s, missile, MissileDice("down", random.Random(1)))
    assert target.id in down.state.units
    assert any("shoot the missile down" in e.text for e in down.state.log[len(s.log):])
    # Countermeasures 2 fail 4 times in 6, then a die of 3 or less hits: 4/6 x 3/6 [p.21].
    assert _missile_hit(3, 2) == pytest.approx(1 / 3)
    assert _missile_hit(9, 0) == 1.0 and _missile_hit(0, 0) == 0.0


def test_a_deviation_is_weighed_over_eight_that_sweep_every_throw_and_bearing():
    """A missile that misses lands Red Die + die inches away at any bearing [p.21, A29]; the computer weighs that
    miss over eight deviations, each an eighth of the dice's throws, a compass point apart, played by the engine."""
    import re

    from referee.game.battle.intents import Action
    from referee.game.players.computer.weighing import DEVIATION_SUMS, DeviatedDice, deviations
    from referee.game.play.engine import play

    throws = sorted(r + n for r in range(1, 7) for n in range(1, 7))
    # Each sum is the middle throw of its eighth of the 36 throws, in order: 3, 5, 6, 7, 7, 8, 9, 11.
    assert sorted(DEVIATION_SUMS) == [throws[int((k + 0.5) * 36 / 8)] for k in range(8)] == [3, 5, 6, 7, 7, 8, 9, 11]
    spread = deviations(random.Random(4))
    bearings = [b for _, b in spread]
    assert [t for t, _ in spread] == list(DEVIATION_SUMS)
    assert all(abs((b - bearings[0]) % 360.0 - 45.0 * k) < 1e-6 for k, b in enumerate(bearings))
    assert deviations(random.Random(5))[0][1] != bearings[0]          # the compass turned afresh each time
    s = duel()
    shooter = next(u for u in s.units.values() if u.side == "A")
    real = next(b for b in s.blips.values() if b.side == "B" and s.blip_contents(b))
    target = unit_from_contents((s.blip_contents(real) or [])[0], 10.0, 30.0, 270.0, False)
    target.target_counters = 3
    del s.blips[real.id]
    s.units[target.id] = target
    out = play(s, Action("missile", shooter.id, {"target": target.id}), DeviatedDice(9, 112.5, random.Random(1)))
    landed = next(e.text for e in out.state.log[len(s.log):] if "no direct hit" in e.text)
    assert re.search(r'deviates 9(\.0+)?" at 112\.5° to \(6\.56, 38\.31\)', landed), landed


def test_the_opponent_reads_which_objective_it_targets_never_how_many_counters_its_mission_needs():
    from referee.game.battle.intents import Action
    from referee.game.players.computer.candidates import Candidate
    from referee.game.players.computer.levels import level
    from referee.game.players.computer.player import _Think
    from referee.game.players.computer.weighing import _Scored

    s = duel()
    me = next(u for u in s.units.values() if u.side == "A")
    think = _Think(player_view(s, "A"), "A", level("normal"), 1)
    target = _Scored(Candidate(Action("target", me.id, {"dice": 3, "assign": {"gamma": 5}, "up_to": True}), "gamma"),
                     1.0, None)
    decision = Computer("A", "normal", seed=1)._decision(think, target, [target])
    assert "for up to 5 counters" in decision.reason              # its own log: the 5 its card still needs
    assert decision.shown() == "Targets gamma with 3 dice"        # the opponent's: no count to read the card from
