"""Hard's weighed set-up (``computer/setup_search.py``): its blips holding units start where its mission wants them."""

from __future__ import annotations

import copy
import math
import random
from dataclasses import replace

from referee.game.players.computer import Computer
from referee.game.players.computer.peek import check, honest
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.play.legal import legal_actions, to_act
from referee.game.players.seated import ComputerPlayer, RandomPlayer
from referee.game.players.selfplay import play_battle
from referee.game.play.setup import new_game
from referee.game.views.view import player_view
from referee.rules.scenario import parse_scenario
from tests.battles import OPEN_FIELD

# A wood in the left-hand corner of each half, the rest open.
CORNER_WOODS = {"name": "corner woods", "table": {"width": 36, "height": 36},
                "terrain": [{"id": "w1", "type": "woods", "polygon": [[1, 1], [7, 1], [7, 7], [1, 7]]},
                            {"id": "w2", "type": "woods", "polygon": [[1, 29], [7, 29], [7, 35], [1, 35]]}]}


def weighing(side: str, seed: int) -> Computer:
    """Hard, its set-up weighed (``Level.plan_setup``)."""
    computer = Computer(side, "hard", seed=seed)
    computer.level = replace(computer.level, plan_setup=True)
    return computer


def _first_blip(seed: int = 4, attacker: bool = False) -> tuple[Game, str]:
    """Set-up played by normal up to the first blip of the defender (or of the attacker, after the defender's 16)."""
    game = new_game(parse_scenario(CORNER_WOODS, "corner woods"), {"A": "council-of-zane", "B": "new-tokyo"})
    dice = SeededDice(seed)
    computers = {side: Computer(side, "normal", seed=seed) for side in "AB"}
    while True:
        s = game.state
        side = to_act(s) or s.initiative
        legal = legal_actions(s, side)
        if any(la.kind == "place-blip" for la in legal) and (side == s.attacker) == attacker:
            return game, side
        out = game.play(computers[side].decide(player_view(s, side), legal).action, dice)
        assert out.legal, out.reason


def test_hard_starts_its_units_by_the_objective_its_mission_holds_where_the_fixed_set_up_takes_the_wood():
    game, side = _first_blip()
    s = game.state
    assert s.attacker is not None and side != s.attacker
    # The defender's card holds beta alone (Protect the Relay); beta stands on the right of its half, across the
    # table from the wood in its left-hand corner.
    s.missions[side] = "protect-the-relay"
    deep = 26.5 if side == "B" else 9.5
    beta = s.objectives["beta"]
    beta.x, beta.y = 29.5, deep
    view, legal = player_view(s, side), legal_actions(s, side)
    normal = Computer(side, "normal", seed=4).decide(view, legal)
    hard = weighing(side, 4).decide(view, legal)

    def to_beta(d) -> float:   # type: ignore[no-untyped-def]
        return math.hypot(d.action.args["x"] - 29.5, d.action.args["y"] - deep)

    assert "where cover is" in normal.reason and to_beta(normal) > 20
    # Hard's first blip holding units starts within a Move of beta, and says why.
    assert to_beta(hard) <= 6, hard.reason
    assert "from beta, which its mission holds" in hard.reason
    assert "VP better than the best-covered spot" in hard.reason
    # What the opponent may read names the spot, not why: it would tell a blip holding units from a decoy.
    assert hard.public.startswith("places a blip at (") and "beta" not in hard.public and "cover" not in hard.public
    out = game.play(hard.action, SeededDice(1))
    assert out.legal, out.reason


def test_where_a_weighed_blip_goes_does_not_depend_on_which_squares_hold_units():
    # A player watching the blips go down must not learn from their spots which hold units: the spot is weighed as if
    # every blip held units, so dealing its own units into other squares moves no blip.
    game, side = _first_blip()
    s = game.state
    spots = []
    for order in (list(range(1, 17)), list(range(16, 0, -1))):
        t = copy.deepcopy(s)
        squares = t.holding[side].squares
        contents = [squares[n] for n in sorted(squares)]
        t.holding[side].squares = {n: contents[i - 1] for n, i in zip(sorted(squares), order)}
        for _ in range(3):     # three blips down: a covered spot, a spread one and a covered one weighed again
            d = weighing(side, 4).decide(player_view(t, side), legal_actions(t, side))
            t = _placed(t, d.action)
        spots.append([(b.x, b.y) for b in t.blips.values() if b.side == side])
    assert spots[0] == spots[1]


def _placed(state, action):      # type: ignore[no-untyped-def]
    game = Game(copy.deepcopy(state))
    out = game.play(action, SeededDice(1))
    assert out.legal, out.reason
    return game.state


def test_hard_places_its_spread_blips_as_the_fixed_set_up_does_and_plays_its_set_up_through():
    game = new_game(parse_scenario(OPEN_FIELD, "open field"), {"A": "council-of-zane", "B": "new-tokyo"})
    hard = ComputerPlayer(weighing("A", 8))
    refused: list[str] = []
    hard.refused = lambda session, action: refused.append(action.text())     # type: ignore[method-assign]
    play_battle(game, SeededDice(8), random.Random(8), rounds=1, limit=60,
                players={"A": hard, "B": RandomPlayer(random.Random(8))})
    assert refused == []            # none of its own actions refused (random play's may be)
    blips = [e.action for e in game.record if e.action.actor == "A" and e.action.kind == "place-blip"]
    assert len(blips) == 16
    assert game.state.phase == "action"
    reasons = [r for _round, _text, r in hard.reasons if r.startswith("places a blip")]
    assert sum("spread across its zone" in r for r in reasons) == 16 - sum("seen from" in r for r in reasons)
    assert any("seen from" in r for r in reasons)


def test_peek_test_hards_weighed_blip_does_not_change_when_the_defenders_hidden_set_up_is_dealt_again():
    # The attacker places its blips after the defender's 16 are down: which of them hold units, and the defender's
    # mission and cards, are dealt again; where hard puts its blip must not move.
    game, side = _first_blip(attacker=True)
    assert side == game.state.attacker and len([b for b in game.state.blips.values() if b.side != side]) == 16
    computer = weighing(side, 4)
    assert "seen from" in computer.decide(player_view(game.state, side), legal_actions(game.state, side)).reason
    result = check(game.state, side, honest(computer.decide), random.Random(5), redeals=4)
    assert result.checked == 4
    assert result.changed == 0, result.examples
