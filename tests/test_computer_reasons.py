"""The computer's one-line reasons say what it did: a decoy it reveals is called a decoy, not units that can act; a
Move names the point as the log does, to the hundredth of an inch."""

from __future__ import annotations

from referee.game.battle.intents import Action
from referee.game.players.computer import Computer
from referee.game.players.computer.candidates import Candidate
from referee.game.players.computer.levels import level
from referee.game.players.computer.player import _Think
from referee.game.players.computer.weighing import _Scored
from referee.game.views.view import player_view
from referee.game.views.view_types import as_data
from tests.test_computer import _battle


def _reason(action: Action, side: str, state) -> str:
    think = _Think(as_data(player_view(state, side)), side, level("normal"), 1)
    best = _Scored(Candidate(action), 0.0, None)
    return Computer(side, "normal", seed=1)._reason(think, best, [best])


def _reveal_reason(blip_id: str, side: str, state) -> str:
    return _reason(Action("reveal", blip_id, {}), side, state)


def test_the_reason_for_revealing_a_decoy_says_it_is_a_decoy_and_a_real_blip_says_its_units_act():
    state, _ = _battle(5)
    blips = sorted((b for b in state.blips.values() if b.side == "B"), key=lambda b: b.id)
    decoy = next(b for b in blips if not state.blip_contents(b))
    real = next(b for b in blips if state.blip_contents(b))
    assert _reveal_reason(decoy.id, "B", state) == "reveals a decoy: it leaves the table"
    assert _reveal_reason(real.id, "B", state) == "reveals: its units can act this activation"


def test_the_reason_for_a_move_names_the_point_as_the_log_does():
    state, _ = _battle(5)
    blip = min((b for b in state.blips.values() if b.side == "B"), key=lambda b: b.id)
    reason = _reason(Action("move", blip.id, {"x": 18.099, "y": 31.8814}), "B", state)
    assert reason.startswith("moves to (18.10, 31.88): "), reason


def _scrambler(seed: int = 3):
    """Side A's Tactical revealed and active, with three of A's decoys off the table: it may Scramble [p.22, A23]."""
    from tests.test_computer import duel

    s = duel(seed)
    for b in sorted((b for b in s.blips.values() if b.side == "A" and not s.blip_contents(b)), key=lambda b: b.id)[:3]:
        del s.blips[b.id]
    unit = next(u for u in s.units.values() if u.side == "A")
    return s, unit.id


def test_the_reason_for_a_scramble_says_what_scrambles_and_why():
    s, ident = _scrambler()
    think = _Think(as_data(player_view(s, "A")), "A", level("normal"), 1)
    scramble = _Scored(Candidate(Action("scramble", ident, {})), 1.5, None)
    move = _Scored(Candidate(Action("move", ident, {"x": 12.0, "y": 18.0})), 1.2, None)
    reason = Computer("A", "normal", seed=1)._reason(think, scramble, [scramble, move])
    assert reason.startswith(f"Scrambles {ident}: it leaves the table and three blips take its place, two of them "
                             "decoys [p.22, A23]; "), reason
    assert "known enem" in reason and "could see it where it stood" in reason
    assert reason.endswith("; +0.30 VP over its best other action, move to (12.00, 18.00)"), reason


def test_the_public_reason_for_a_scramble_keeps_the_values_it_weighed_to_itself():
    s, ident = _scrambler()
    think = _Think(as_data(player_view(s, "A")), "A", level("normal"), 1)
    scramble = _Scored(Candidate(Action("scramble", ident, {})), 1.5, None)
    move = _Scored(Candidate(Action("move", ident, {"x": 12.0, "y": 18.0})), 1.2, None)
    d = Computer("A", "normal", seed=1)._decision(think, scramble, [scramble, move])
    assert "VP" in d.reason and "VP" not in d.shown()
    assert d.shown().startswith(f"Scrambles {ident}: it leaves the table")


def test_the_end_of_a_turn_says_how_much_of_the_turn_was_used_and_why_no_extra_blip_moved():
    from referee.game.play.legal import legal_actions
    from referee.game.battle.state import TurnState

    state, _ = _battle(5)
    s = state.copy()
    s.phase = "action"
    s.turn = TurnState(player="B", primary_allowed=2, primary_used=2, extra_blips_used=1)
    legal = legal_actions(s, "B")
    think = _Think(as_data(player_view(s, "B")), "B", level("normal"), 1)
    d = Computer("B", "normal", seed=1)._turn_end(think, legal, [0.01, -0.25, 0.03])
    assert d.action.kind == "end-turn"
    assert d.reason == ("ends its turn after 2 of 2 activations and 1 of 3 extra blip activations: the best of the 3 "
                        "blip Moves it weighed gains +0.03 VP, under the 0.05 it asks of one")
    assert d.shown() == "ends its turn after 2 of 2 activations and 1 of 3 extra blip activations"


def test_an_activation_that_gains_nothing_says_so_instead_of_holding_still():
    # Every first action weighed at a loss: the reason says the activation is spent rather than the turn passed,
    # where it said "nothing better than holding still" and then moved the blip.
    from referee.game.play.legal import legal_actions
    from referee.game.battle.state import TurnState

    state, _ = _battle(5)
    s = state.copy()
    s.phase = "action"
    s.turn = TurnState(player="B", primary_allowed=1, primary_used=0)
    computer = Computer("B", "normal", seed=1)
    computer._gain = lambda think, la: (-0.2, "nothing better than holding still")      # type: ignore[method-assign]
    d = computer.decide(player_view(s, "B"), legal_actions(s, "B"))
    assert d.action.kind == "activate"
    assert d.reason.endswith("(its activation): nothing it weighed gains by acting (best -0.20 VP); it spends the "
                             "activation rather than pass"), d.reason


def test_with_units_to_face_the_next_activation_is_chosen_and_explained_as_any():
    # Units its blip's Move revealed may be turned (A13) while the next activation waits: the reason read
    # "activate", the action's bare name.
    from referee.game.play.legal import legal_actions
    from referee.game.battle.state import TurnState

    state, _ = _battle(5)
    s = state.copy()
    s.phase = "action"
    s.turn = TurnState(player="B", primary_allowed=2, primary_used=1)
    blip = min((b for b in s.blips.values() if b.side == "B" and s.blip_contents(b)), key=lambda b: b.id)
    from referee.game.battle.state import unit_from_contents

    unit = unit_from_contents(s.blip_contents(blip)[0], blip.x, blip.y, 0.0, False)
    s.units[unit.id] = unit
    s.to_face = [unit.id]
    legal = legal_actions(s, "B")
    assert {la.kind for la in legal} >= {"face", "activate", "end-turn"}
    d = Computer("B", "normal", seed=1).decide(player_view(s, "B"), legal)
    assert d.action.kind in ("activate", "end-turn")
    assert d.reason.startswith("activates ") or d.reason.startswith("ends its turn after "), d.reason


def test_a_spent_activation_names_the_unit_whose_activation_ends():
    from referee.game.play.legal import legal_actions
    from referee.game.battle.state import TurnState

    state, _ = _battle(5)
    s = state.copy()
    s.phase = "action"
    blip = min(b.id for b in s.blips.values() if b.side == "B")
    s.turn = TurnState(player="B", primary_allowed=1, primary_used=1, active=blip, actions_left=0,
                       activation_kind="primary", acted=True)
    d = Computer("B", "normal", seed=1).decide(player_view(s, "B"), legal_actions(s, "B"))
    assert d.action.kind == "end-activation"
    assert d.reason == f"ends {blip}'s activation: it has no action left"


def test_drawing_its_cards_says_what_is_drawn():
    import random

    from referee.game.players.computer.seen import Seen
    from referee.game.players.computer.setup import setup_decision
    from referee.game.battle.intents import LegalAction

    state, _ = _battle(5)
    seen = Seen(as_data(player_view(state, "B")), "B")
    _, reason = setup_decision(seen, [LegalAction("draw-cards", "B", {}, {})], random.Random(1))
    assert reason == "draws a mission, a troop card and a drone card, which only it sees [p.~9, A42]"


def test_the_end_of_a_turn_with_one_blip_move_weighed_says_so():
    from referee.game.play.legal import legal_actions
    from referee.game.battle.state import TurnState

    state, _ = _battle(5)
    s = state.copy()
    s.phase = "action"
    s.turn = TurnState(player="B", primary_allowed=1, primary_used=1)
    think = _Think(as_data(player_view(s, "B")), "B", level("normal"), 1)
    d = Computer("B", "normal", seed=1)._turn_end(think, legal_actions(s, "B"), [0.0])
    assert d.reason == ("ends its turn after 1 of 1 activation and 0 of 3 extra blip activations: the one blip Move "
                        "it weighed gains +0.00 VP, under the 0.05 it asks of one")
