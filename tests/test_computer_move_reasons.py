"""A Move's reason says what it gains and what it risks in the game's words; the opponent reads the risk only."""

from __future__ import annotations

from referee.game.players.computer import Computer
from referee.game.players.computer.candidates import Candidate
from referee.game.players.computer.levels import level
from referee.game.players.computer.player import _Think
from referee.game.players.computer.weighing import _Scored
from referee.game.battle.intents import Action
from referee.game.views.view import player_view
from referee.game.views.view_types import as_data
from tests.test_computer_reasons import _scrambler


def test_a_move_says_what_it_gains_over_its_best_other_action_and_who_could_target_it_there():
    s, ident = _scrambler()
    think = _Think(as_data(player_view(s, "A")), "A", level("normal"), 1)
    move = _Scored(Candidate(Action("move", ident, {"x": 12.0, "y": 18.0}), "cover"), 1.5, None)
    stay = _Scored(Candidate(Action("end-activation", "", {})), 1.2, None)
    computer = Computer("A", "normal", seed=1)
    reason = computer._reason(think, move, [move, stay])
    assert reason.startswith("moves to (12.00, 18.00) into cover: it ends ")
    assert " known enem" in reason or "out of sight of every known enemy" in reason
    assert "saw it where it stood" in reason
    assert reason.endswith("; +0.30 VP over its best other action, ending the activation"), reason
    decision = computer._decision(think, move, [move, stay])
    # The values it weighed read its own secrets (its mission): the opponent reads the move and its risk.
    assert decision.public == reason.rsplit("; ", 1)[0] and "VP" not in decision.public
