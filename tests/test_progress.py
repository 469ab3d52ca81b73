"""Long work shows its progress on a terminal, and nothing of it where the output is read by a program."""

from __future__ import annotations

import io
import random

from referee.cli.main import main
from referee.game.battle.dice import SeededDice
from referee.game.players.selfplay import play_battle
from referee.game.play.setup import new_game
from referee.paths import DEFAULT_SCENARIO
from referee.rules.scenario import load_scenario


def test_a_battle_tells_its_progress_after_every_legal_action():
    game = new_game(load_scenario(DEFAULT_SCENARIO), {"A": "new-tokyo", "B": "council-of-zane"})
    rounds: list[int] = []
    played = play_battle(game, SeededDice(7), random.Random(7), 2, on_action=lambda s: rounds.append(s.round))
    assert len(rounds) == played.actions > 0
    assert rounds == sorted(rounds), "rounds only go forward"
    assert rounds[-1] == 2 and game.state.phase == "over"


def test_selfplay_draws_a_bar_only_on_a_terminal(tmp_path, capsys, monkeypatch):
    assert main(["selfplay", "--seed", "7", "--rounds", "1", "--out", str(tmp_path / "a.json")]) == 0
    captured = capsys.readouterr()
    assert captured.err == "", "no bar when standard error is not a terminal"

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    assert main(["selfplay", "--seed", "7", "--rounds", "1", "--out", str(tmp_path / "b.json")]) == 0
    assert "playing" in screen.getvalue() and "round" in screen.getvalue()
