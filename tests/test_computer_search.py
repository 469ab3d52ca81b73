"""Hard's look-ahead (``game/players/computer/search.py``): the rest of a unit's activation played out in the imagined
worlds, from the computer's own view only."""

from __future__ import annotations

import math
import random

from referee.game.players.computer import Computer
from referee.game.players.computer.levels import level
from referee.game.players.computer.peek import check, honest
from referee.game.players.computer.player import _Think
from referee.game.players.computer.candidates import Candidate
from referee.game.players.computer.search import InWorld, acting, candidates, play_out
from referee.game.play.legal import legal_actions
from referee.game.battle.intents import Action
from referee.game.battle.state import GameState, unit_from_contents
from referee.game.views.view import player_view
from tests.test_computer import duel


def enemy_in_the_open(counters: int, actions_left: int = 2) -> GameState:
    """The duel, with one of B's troopers taken out of its blip and standing revealed 10" south of A's Tactical,
    in the open and facing it, with ``counters`` Target counters on it."""
    s = duel()
    real = next(b for b in sorted(s.blips.values(), key=lambda b: b.id)
                if b.side == "B" and any(not c.type.endswith("drone") for c in s.blip_contents(b) or []))
    contents = next(c for c in s.blip_contents(real) or [] if not c.type.endswith("drone"))
    s.holding["B"].squares[real.square] = [c for c in s.blip_contents(real) or [] if c.id != contents.id]
    if not s.holding["B"].squares[real.square]:
        del s.blips[real.id]
    enemy = unit_from_contents(contents, 10.0, 28.0, 270.0, True)
    enemy.target_counters = counters
    s.units[enemy.id] = enemy
    assert s.turn is not None
    s.turn.actions_left = actions_left
    return s


def _think(s: GameState) -> _Think:
    return _Think(player_view(s, "A"), "A", level("hard"), 1)


def test_hard_is_peek_free_its_decision_unchanged_when_hidden_facts_are_dealt_again():
    result = check(duel(), "A", honest(Computer("A", "hard", seed=2).decide), random.Random(5), redeals=2)
    assert result.checked == 2
    assert result.changed == 0, result.examples


def test_an_imagined_world_shows_the_computer_where_its_own_unit_stands_after_its_first_action():
    s = enemy_in_the_open(0)
    think = _think(s)
    world = think.worlds[0].copy()
    world.units["a-tactical-2"].x = 13.5
    seen = InWorld(think.seen.view, "A", world)
    assert seen.piece("a-tactical-2")["x"] == 13.5             # its own unit: where the imagined action left it
    assert seen.piece("b-tactical-1")["y"] == 28.0             # the enemy: only what the view shows
    assert think.seen.piece("a-tactical-2")["x"] == 10.0


def test_the_last_action_played_out_is_the_shot_the_counters_made_possible():
    # B's Tactical carries 5 counters 10" away in the open: A's Tactical, one action left, has a shot worth more
    # than standing still (5 dice with 12" bands, 60 % to kill).
    s = enemy_in_the_open(5, actions_left=1)
    think = _think(s)
    world = think.worlds[0]
    assert acting(world, "A") == "a-tactical-2"
    value, first = play_out(think, world)
    assert first is not None and first.action.kind in ("rifle", "missile")
    assert first.action.args["target"] == "b-tactical-1"
    assert value > think.value(world)


def test_hard_activates_its_unit_for_the_shot_it_can_take():
    # A's blips are taken off: its Tactical, 10" from B's Tactical carrying 5 counters, is its one unit to activate.
    s = enemy_in_the_open(5)
    assert s.turn is not None
    s.turn.primary_used, s.turn.active, s.turn.actions_left, s.turn.activation_kind = 0, None, 0, ""
    s.units["a-tactical-2"].activation = True
    for bid in [b.id for b in s.blips.values() if b.side == "A"]:
        del s.blips[bid]
    legal = legal_actions(s, "A")
    decision = Computer("A", "hard", seed=1).decide(player_view(s, "A"), legal)
    assert decision.action.kind == "activate" and decision.action.actor == "a-tactical-2"
    assert "at b-tactical-1" in decision.reason                # its first action: a shot at the enemy


def _played_out_step(counters: int, at: tuple[float, float]) -> list[Candidate]:
    """What a played-out step of hard's tries for A's Tactical under Eyes On, objective gamma at ``at`` carrying
    ``counters`` counters (``test_computer_play._eyes_on``)."""
    from tests.test_computer_play import _eyes_on

    think = _think(_eyes_on(counters, at))
    world = think.worlds[0]
    actor = acting(world, "A")
    assert actor is not None
    return candidates(think, world, actor)


def test_a_played_out_step_under_eyes_on_names_only_the_counters_its_mission_still_needs():
    # Objective gamma carries 5 of the 8 counters Eyes On pays for, 3" from A's Tactical: every Target on it
    # within the played-out activation names at most the 3 still needed, as the first action's do (a counter
    # beyond pays nothing, and each die puts one on the Tactical), and 2 dice are tried, the fewest that pay
    # for 3 counters nine times in ten.
    on_gamma = [c.action for c in _played_out_step(5, (13.0, 21.0))
                if c.action.kind == "target" and "gamma" in c.action.args["assign"]]
    assert on_gamma
    assert {a.args["assign"]["gamma"] for a in on_gamma} == {3}
    assert 2 in {a.args["dice"] for a in on_gamma}


def test_a_played_out_step_under_eyes_on_tries_a_move_toward_the_objective_still_short():
    # Gamma, with no counter yet, stands far from A's Tactical: among the Moves a played-out step tries is one
    # aimed at it, as far toward it as the Move reaches (its passive sensors add a counter within 6", p.18, A16).
    cands = _played_out_step(0, (30.0, 31.0))
    aimed = [c.action for c in cands if c.action.kind == "move" and c.aim == "objective gamma"]
    assert len(aimed) == 1
    others = [c.action for c in cands if c.action.kind == "move" and c.aim != "objective gamma"]
    def gap(a: Action) -> float:
        return math.hypot(30.0 - a.args["x"], 31.0 - a.args["y"])

    assert gap(aimed[0]) <= min(gap(a) for a in others)
