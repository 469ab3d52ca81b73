"""The computer's one-line reasons say what it did: a decoy it reveals is called a decoy, not units that can act; a
Move names the point as the log does, to the hundredth of an inch."""

from __future__ import annotations

from referee.game.actions import Action
from referee.game.computer import Computer
from referee.game.computer.candidates import Candidate
from referee.game.computer.levels import level
from referee.game.computer.player import _Scored, _Think
from referee.game.view import player_view
from referee.game.view_types import as_data
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
