"""Hard's look at the opponent's reply (``game/players/computer/reply.py``): the blasts of the enemy's next missiles, from
the computer's own imagined worlds only."""

from __future__ import annotations

import dataclasses
import math

from referee.game.players.computer import Computer
from referee.game.battle.intents import Action
from referee.game.players.computer import evaluate, levels
from referee.game.players.computer.evaluate import DRONE_VALUE, Aims, weights
from referee.game.players.computer.reply import blast_loss
from referee.game.play.legal import legal_actions
from referee.game.battle.state import GameState, unit_from_contents
from referee.game.views.view import player_view
from tests.test_computer_search import enemy_in_the_open


def with_scout(counters: int, actions_left: int) -> GameState:
    """B's Veteran Tactical (Nuc 3, missiles) revealed 10" south of A's Tactical, which carries ``counters`` Target
    counters; A's Scout taken out of its blip and standing revealed 1.5" east of the Tactical."""
    s = enemy_in_the_open(0, actions_left=actions_left)
    blip = s.blips["a-blip-KT"]
    (scout,) = s.blip_contents(blip) or []
    s.holding["A"].squares[blip.square] = []
    del s.blips[blip.id]
    s.units[scout.id] = unit_from_contents(scout, 11.5, 18.0, 90.0, False)
    s.units["a-tactical-2"].target_counters = counters
    return s


def struck(s: GameState) -> GameState:
    """``s`` with the objectives A's Deep Strike pays to destroy (delta, epsilon) destroyed already: with them
    standing, its Tactical Targets delta for the missile its counters make sure (``evaluate.position``), wherever
    the enemy stands, and what these tests weigh is its own ground."""
    for oid in ("delta", "epsilon"):
        s.objectives[oid].destroyed = True
    return s


def test_a_drone_beside_an_objective_with_counters_is_counted_lost_to_the_missile_aimed_at_it():
    # A's drone stands on objective alpha, which carries 3 counters; B's Tactical (Nuc 3) can fire a missile at it.
    # A direct hit (3 in 6: a die at most the counters, p.21) bursts on the drone, which a blast destroys; a
    # deviation lands 2-12" away (the Red Die plus a normal die), still within the 3.5" that catches the drone (Nuc 3
    # plus half its base, A30) when the dice make 2 or 3: 3 rolls in 36.
    s = enemy_in_the_open(0)
    blip = s.blips["a-blip-NV"]
    (drone,) = s.blip_contents(blip) or []
    del s.blips[blip.id]
    del s.units["a-tactical-2"]
    alpha = s.objectives["alpha"]
    s.units[drone.id] = unit_from_contents(drone, alpha.x, alpha.y, 0.0, False)
    alpha.target_counters = 3
    assert math.isclose(blast_loss(s, "A", Aims()), weights().threat * DRONE_VALUE * (3 / 6 + 3 / 6 * 3 / 36))
    alpha.target_counters = 0
    assert blast_loss(s, "A", Aims()) == 0.0                  # no counters, no aim [p.21, A28]


def test_units_standing_together_beside_a_marked_one_risk_more_than_units_apart():
    s = with_scout(4, 1)
    together = blast_loss(s, "A", Aims())
    s.units["a-scout-1"].x = 24.0
    apart = blast_loss(s, "A", Aims())
    assert together > apart > 0.0
    s.units["a-tactical-2"].target_counters = 0
    assert blast_loss(s, "A", Aims()) == 0.0
    s.units["a-tactical-2"].target_counters = 4
    del s.units["b-tactical-1"]                                  # no enemy that fires missiles
    assert blast_loss(s, "A", Aims()) == 0.0


def test_the_enemys_next_blast_moves_hard_away_from_its_own_scout(monkeypatch):
    # A's Tactical (2 counters, one action left) stands 1.5" from its own Scout. Counting the enemy missile's blast
    # (a direct hit on the Tactical would catch the Scout too), hard moves it farther from the Scout than it would
    # without. A attacks, and the defender's unseen card may end the battle at round 6: its hunt on the clock is
    # left at the usual pull, which both choices share, so the Move toward the enemy does not outweigh the blast.
    monkeypatch.setattr("referee.game.players.computer.evaluate.WEIGHTS",
                        dataclasses.replace(evaluate.WEIGHTS, clock_hunt=1.0))
    s = struck(with_scout(2, 1))
    legal = legal_actions(s, "A")
    view = player_view(s, "A")
    blind = Computer("A", "hard", seed=1)
    blind.level = dataclasses.replace(levels.level("hard"), blasts=False)
    with_reply = Computer("A", "hard", seed=1).decide(view, legal).action
    without = blind.decide(view, legal).action
    assert with_reply.kind == without.kind == "move"
    scout = s.units["a-scout-1"]

    def apart(a: Action) -> float:
        return math.hypot(float(a.args["x"]) - scout.x, float(a.args["y"]) - scout.y)

    assert apart(with_reply) > apart(without)


def test_a_blip_holding_units_counts_as_its_units_where_it_stands():
    # A blast reveals a blip before it hurts the units it holds (A32): A's blip holding its Scout, 1.5" from the
    # marked Tactical, is at risk; a blip that is a decoy is not.
    s = enemy_in_the_open(0)
    s.units["a-tactical-2"].target_counters = 4
    alone = blast_loss(s, "A", Aims())
    for blip_id, x in (("a-blip-KT", 11.5), ("a-blip-DC", 30.0)):
        s.blips[blip_id].x, s.blips[blip_id].y = x, 18.0
    beside = blast_loss(s, "A", Aims())
    s.blips["a-blip-KT"].x, s.blips["a-blip-DC"].x = 30.0, 11.5       # the decoy beside it, the Scout's blip away
    decoy_beside = blast_loss(s, "A", Aims())
    assert beside > alone
    assert math.isclose(decoy_beside, alone)
