"""The one-page summary of a finished battle (text and PNG) and the ``report`` command."""

import pygame
import pytest

from referee.cli.main import main
from referee.game.records.record import save_game
from referee.game.play.setup import SetupChoices
from referee.game.reports.summary import battle_summary
from referee.game.views.view import player_view, referee_view
from referee.rules.errors import InputError

from .battles import finished_battle
from .test_record import example_game

CHOICES = SetupChoices(factions={"A": "new-tokyo", "B": "council-of-zane"})


def test_the_summary_names_sides_missions_margin_losses_and_turning_points():
    # Seed 1 over four rounds: b-tactical-3's gauss kills a-engineer-1 in round 3 (see the dice report test), the
    # kamikaze drones blow up, and a-tactical-1's missile kills b-tactical-3 in round 4.
    game, _ = finished_battle(CHOICES, seed=1, rounds=4, withdraw="A")
    s = game.state
    summary = battle_summary(referee_view(s))
    assert summary.factions == {"A": "New Tokyo", "B": "Council of Zane"}
    assert summary.vp == s.result.vp and summary.margin == s.result.margin
    assert summary.lost["A"] == ["Engineer (a-engineer-1, round 3)", "Kamikaze drone (a-kamikaze-drone-1, round 3)"]
    assert summary.lost["B"] == ["Kamikaze drone (b-kamikaze-drone-1, round 3)", "Tactical (b-tactical-3, round 4)"]
    kills = [text for _, kind, text in summary.turning_points if kind == "kill"]
    assert kills[0] == "a-engineer-1 is destroyed (killed by b-tactical-3's gauss rifle)" and len(kills) == 4
    assert kills[-1] == "b-tactical-3 is destroyed (direct missile hit from a-tactical-1)"
    assert all("decoy" not in text for _, _, text in summary.turning_points)
    text = "\n".join(summary.lines())
    assert summary.headline() in text and "Turning points:" in text
    # Once the battle is over each player's view holds everything the summary shows: the same summary.
    assert battle_summary(player_view(s, "A")).lines() == summary.lines()


def test_no_summary_before_the_end():
    with pytest.raises(InputError, match="once the battle is over"):
        battle_summary(referee_view(example_game().state))


def test_the_report_command_draws_the_summary_and_prints_the_dice(tmp_path, capsys):
    game, dice = finished_battle(CHOICES, seed=1, rounds=4, withdraw="A")
    save = save_game(game, tmp_path / "battle.json", dice)
    png = tmp_path / "summary.png"
    assert main(["report", str(save), "--png", str(png)]) == 0
    assert pygame.image.load(str(png)).get_size() == (1400, 900)
    assert main(["report", str(save)]) == 0
    out = capsys.readouterr().out
    assert "Turning points:" in out and "side A: luck" in out and "gauss rifle at a-engineer-1" in out


def test_the_report_of_a_battle_in_progress_has_dice_but_no_summary(tmp_path, capsys):
    save = save_game(example_game(), tmp_path / "battle.json")
    assert main(["report", str(save), "--summary"]) == 2
    assert "not over" in capsys.readouterr().err
    assert main(["report", str(save), "--dice", "--side", "B"]) == 0
    out = capsys.readouterr().out
    assert "b-tac tries to stand" in out and "a-tac's gauss" not in out
