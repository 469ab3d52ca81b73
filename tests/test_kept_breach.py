"""Two of a kept side's counters committed to one square (A59), met during play: the second opens as a decoy and is
removed at its reveal, the breach recorded; the battle goes on (docs/network.md, "A side that keeps its secrets")."""

from __future__ import annotations

from referee.game.battle.action_kinds import Kind
from referee.game.battle.commit import UNIT_KEYS, battle_id, blip_commitment, square_commitment
from referee.game.battle.intents import Action
from referee.game.play.corrections import tell_contents
from referee.game.play.effects import Ctx, reveal_blip

from .tables import game_state, unit

SALT = {n: f"{n:064x}" for n in range(1, 40)}
TACTICAL = {"id": "a-tac-1", "side": "A", "faction": "council-of-zane", "rating": "veteran", "type": "tactical"}


def cheating_table():
    """Side A kept on its own computer: square 1 holds a trooper, square 2 is a decoy; both of its counters were
    committed to square 1."""
    s = game_state(units=[unit("foe", "B", 30, 30)],
                   blips=[{"id": "a-blip-1", "side": "A", "x": 5, "y": 5, "contents": [TACTICAL], "square": 1},
                          {"id": "a-blip-2", "side": "A", "x": 10, "y": 5, "contents": [], "square": 2}])
    s.dice_commitments = {"seed": "c" * 64}
    battle = battle_id(s.dice_commitments)
    s.square_commitments = {"A": {"1": square_commitment(battle, "A", 1, [TACTICAL], SALT[1]),
                                  "2": square_commitment(battle, "A", 2, [], SALT[2]),
                                  **{str(n): "e" * 64 for n in range(3, 17)}}}
    s.issued_kept = {"A": [{k: TACTICAL[k] for k in UNIT_KEYS}]}
    s.blip_commitments = {"A": {"a-blip-1": blip_commitment(battle, "A", 1, SALT[21]),
                                "a-blip-2": blip_commitment(battle, "A", 1, SALT[22])}}
    for n in (1, 2):
        s.holding["A"].squares[n] = None
    return s


def test_the_second_counter_on_a_square_shown_already_is_a_decoy_and_the_breach_is_recorded():
    s = cheating_table()
    ctx = Ctx(s)
    tell_contents(ctx, Action(Kind.CONTENTS, "a-blip-1", {"contents": [TACTICAL], "salt": SALT[1], "square": 1,
                                                          "square_salt": SALT[21]}))
    assert reveal_blip(ctx, "a-blip-1") == ["a-tac-1"]
    # The second counter's commitment opens too, to square 1 already shown: no refusal, the battle goes on.
    tell_contents(ctx, Action(Kind.CONTENTS, "a-blip-2", {"contents": [TACTICAL], "salt": SALT[1], "square": 1,
                                                          "square_salt": SALT[22]}))
    assert len(s.breaches) == 1 and "a-blip-2 to square 1" in s.breaches[0]
    assert reveal_blip(ctx, "a-blip-2") == []                 # opened as a decoy, removed
    assert "a-blip-2" not in s.blips and list(s.units) == ["foe", "a-tac-1"]
    # Square 2, which no counter stood for, stays unknown: its contents are never asked for.
    assert s.holding["A"].squares[2] is None
    assert any(e.text == s.breaches[0] for e in s.log)
