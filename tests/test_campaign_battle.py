"""A campaign's battles played with the program (p.31, A44, A45, A47): set-up under the campaign's rules and the
result read from the finished battle, by the command line and by the same function the window uses."""

import tomllib

import pytest

from referee import paths
from referee.cli.main import main
from referee.net.mail_campaign import buy_asked
from referee.service.campaigns import buy_upgrade, note_mail_battle, note_recorded
from referee.ui.scenes.faction_campaign import CampaignUpgradeScene
from referee.game.campaigns.campaign import load_campaign
from referee.game.campaigns.campaign_battle import (
    battle_choices,
    battle_save_path,
    played_streak,
    record_battle,
    record_from_state,
)
from referee.game.battle.dice import ScriptedDice
from referee.game.battle.intents import Action
from referee.game.play.engine import play
from referee.game.records.record import save_game
from referee.game.play.setup import SetupChoices, blank_state
from referee.rules.errors import InputError
from referee.rules.factions import get_faction
from referee.rules.scenario import parse_scenario

from .battles import OPEN_FIELD, finished_battle


def new_campaign(tmp_path, name="war.toml"):
    f = tmp_path / name
    assert main(["campaign", "new", str(f), "--a", "new-tokyo", "--b", "council-of-zane", "--name", "Border War"]) == 0
    return f


def test_a_battle_is_recorded_from_its_save_alone(tmp_path, capsys):
    f = new_campaign(tmp_path)
    c, st = load_campaign(f)
    # Seed 11, side A withdraws and B allows it: B Controls the Table; A's mission scores 48 VP, B's 0.
    game, dice = finished_battle(battle_choices(f, c, st), seed=11, withdraw="A")
    save = save_game(game, tmp_path / "battle-1.json", dice)
    assert main(["campaign", "battle", str(f), "--save", str(save)]) == 0
    data = tomllib.loads(f.read_text())
    b = data["battles"][0]
    assert (b["winner"], b["level"], b["control"], b["vp"], b["margin"]) == ("A", "decisive", "B", {"A": 48, "B": 0}, 48)
    assert b["save"] == "battle-1.json" and b["attacker"] == "B"
    assert set(b["objectives"]) == {"alpha", "beta", "gamma", "delta", "epsilon"}
    _, st = load_campaign(f)
    # A decisive win: 3 campaign points and a streak of 1; tech points: 1 each for taking part, +1 to B for control.
    assert (st.sides["A"].campaign_points, st.sides["A"].streak, st.sides["A"].tech_points) == (3, 1, 1)
    assert (st.sides["B"].campaign_points, st.sides["B"].streak, st.sides["B"].tech_points) == (0, 0, 2)
    assert "decisive" in capsys.readouterr().out


def test_the_command_line_and_the_window_write_the_same_campaign_file(tmp_path):
    by_hand, by_window = new_campaign(tmp_path, "one.toml"), new_campaign(tmp_path, "two.toml")
    c, st = load_campaign(by_hand)
    game, dice = finished_battle(battle_choices(by_hand, c, st), seed=7, withdraw="stop")
    save = save_game(game, tmp_path / "battle.json", dice)
    assert main(["campaign", "battle", str(by_hand), "--save", str(save)]) == 0
    record_battle(by_window, game.state, save)          # what the window calls when the battle ends
    assert by_hand.read_bytes() == by_window.read_bytes()


def test_a_battle_not_over_is_refused_and_the_file_is_unchanged(tmp_path):
    f = new_campaign(tmp_path)
    before = f.read_bytes()
    c, st = load_campaign(f)
    game, dice = finished_battle(battle_choices(f, c, st), seed=5, withdraw="A")
    game.undo(2)                                        # back before the end of the last round
    save = save_game(game, tmp_path / "unfinished.json", dice)
    assert main(["campaign", "battle", str(f), "--save", str(save)]) == 2
    assert f.read_bytes() == before
    with pytest.raises(InputError, match="not over"):
        record_from_state(game.state)


def test_a_save_and_a_typed_result_together_are_refused(tmp_path, capsys):
    f = new_campaign(tmp_path)
    assert main(["campaign", "battle", str(f), "--save", "x.json", "--winner", "A", "--level", "normal"]) == 2
    assert "from the save alone" in capsys.readouterr().err
    assert main(["campaign", "battle", str(f)]) == 2


def test_a_battle_fought_by_other_factions_is_refused(tmp_path):
    f = new_campaign(tmp_path)
    game, _ = finished_battle(SetupChoices(factions={"A": "new-tokyo", "B": "peoples-utopian-collective"}), seed=3)
    with pytest.raises(InputError, match="side B fought as peoples-utopian-collective"):
        record_battle(f, game.state, None)
    assert "battles" not in tomllib.loads(f.read_text()) or not tomllib.loads(f.read_text())["battles"]


def test_the_next_battle_uses_the_upgrades_and_the_streak(tmp_path):
    f = new_campaign(tmp_path)
    c, st = load_campaign(f)
    game, dice = finished_battle(battle_choices(f, c, st), seed=11, withdraw="A")
    record_battle(f, game.state, None)
    # B Controlled the Table: 2 tech points. Zane's Reserve Stealth 2 is below New Tokyo's 3: halved to 1 [p.31, A45].
    assert main(["campaign", "upgrade", str(f), "--side", "B", "--rating", "reserve", "--stat", "stealth"]) == 0
    c, st = load_campaign(f)
    choices = battle_choices(f, c, st)
    assert choices.factions["A"] == "new-tokyo"
    assert choices.factions["B"] == "council-of-zane-border-war-b2"
    assert choices.streak == {"A": 1, "B": 0}
    game2, _ = finished_battle(choices, seed=1, rounds=1)
    b_units = [c for contents in game2.state.holding["B"].squares.values() for c in contents or []]
    b_units += [u for u in game2.state.units.values() if u.side == "B"]
    assert b_units and {u.faction for u in b_units} == {"council-of-zane-border-war-b2"}
    assert get_faction("council-of-zane-border-war-b2").stats("reserve").stealth == 3
    assert get_faction("council-of-zane").stats("reserve").stealth == 2
    # The battle's save records the upgraded faction's id, and the campaign accepts the battle.
    record_battle(f, game2.state, None)
    assert len(load_campaign(f)[0].battles) == 2


def test_no_upgrade_is_bought_while_the_next_battle_is_under_way_in_the_window_or_by_mail(tmp_path, capsys):
    """Upgrades are bought between battles (p.31, A45): battle 2, begun with the factions as they stood, is fought
    without a purchase made during it, so the command line, the window's upgrade editor and a purchase asked by
    e-mail are each refused until it is recorded, and the campaign file is left as it was."""
    f = new_campaign(tmp_path)
    c, st = load_campaign(f)
    game, dice = finished_battle(battle_choices(f, c, st), seed=11, withdraw="A")
    record_battle(f, game.state, None)
    upgrade = ["campaign", "upgrade", str(f), "--side", "B", "--rating", "reserve", "--stat", "stealth"]
    # Battle 2 begun in the window: its save beside the campaign, not over.
    c, st = load_campaign(f)
    second, dice2 = finished_battle(battle_choices(f, c, st), seed=1, rounds=1)
    second.undo(2)
    save_game(second, battle_save_path(f, 2), dice2)
    before = f.read_bytes()
    capsys.readouterr()
    assert main(upgrade) == 2
    err = capsys.readouterr().err
    assert "not now: battle 2 is under way" in err and "once battle 2 is recorded [p.31, A45]" in err
    with pytest.raises(InputError, match="battle 2 is under way"):
        CampaignUpgradeScene(f, "B")
    assert buy_upgrade(f, "B", "reserve", "stealth").allowed is False
    assert f.read_bytes() == before
    # Battle 2 by e-mail from this computer instead (its note in this computer's folder of kept secrets).
    battle_save_path(f, 2).unlink()
    mailed = tmp_path / "battle-2-by-mail.json"
    assert main(["mail", "new", "pastoral-hills", "--campaign", str(f), "--out", str(mailed)]) == 0
    capsys.readouterr()
    assert main(upgrade) == 2
    assert f"battle 2 is being played by e-mail in {mailed}" in capsys.readouterr().err
    # B's purchase asked in battle 1's file (had battle 1 been played by e-mail too) reaches this computer only now.
    first = "1f" * 32
    note_mail_battle(f, mailed, 1, first)
    note_recorded(first)
    made = buy_asked([{"side": "B", "rating": "reserve", "stat": "stealth"}], "A", paths.kept_dir(), first)
    assert made is not None
    assert made[0][0]["told"].startswith("not now: battle 2 is being played by e-mail")
    assert f.read_bytes() == before
    # Once the file is gone (the battle given up), the purchase is made.
    mailed.unlink()
    assert main(upgrade) == 0
    assert len(load_campaign(f)[0].purchases) == 1


def test_the_streak_bonus_decides_the_attacker_a47():
    # A rolls 3 + 1 for its streak = 4 against B's 4: a tie after the bonus is a Chance Encounter [A47].
    # The Chance Encounter's Initiative roll-off follows in the same action: A 5, B 2.
    state = blank_state(parse_scenario(OPEN_FIELD, "open field"), streak={"A": 1, "B": 0})
    outcome = play(state, Action("roll-roles"), ScriptedDice([3, 4, 5, 2]))
    assert outcome.legal, outcome.reason
    assert outcome.state.mode == "chance-encounter"
    assert outcome.state.initiative == "A"


def battle_with_its_setup(choices, seed, withdraw="B"):
    """A finished battle whose record holds its set-up, as the window and selfplay save one."""
    import random

    from referee.game.battle.dice import SeededDice
    from referee.game.play.setup import setup_game

    from .battles import finish, play_rounds

    dice = SeededDice(seed)
    game = setup_game(parse_scenario(OPEN_FIELD, "open field"), choices, dice)
    play_rounds(game, dice, random.Random(seed), 2)
    finish(game, dice, withdraw)
    return game, dice


def test_a_battle_is_recorded_once_by_the_window_then_the_command_line(tmp_path, capsys):
    f = new_campaign(tmp_path)
    c, st = load_campaign(f)
    game, dice = finished_battle(battle_choices(f, c, st), seed=11, withdraw="A")
    save = save_game(game, tmp_path / "battle-1.json", dice)
    record_battle(f, game.state, save, setup_streak=played_streak(game))       # the window, as the battle ends
    before = f.read_bytes()
    capsys.readouterr()
    assert main(["campaign", "battle", str(f), "--save", str(save)]) == 2
    assert "already recorded in the campaign as battle 1; a battle is recorded once" in capsys.readouterr().err
    assert f.read_bytes() == before
    # the same battle under another file name is the same battle
    copy = tmp_path / "copy.json"
    copy.write_bytes(save.read_bytes())
    assert main(["campaign", "battle", str(f), "--save", str(copy)]) == 2
    assert len(load_campaign(f)[0].battles) == 1


def test_a_battle_not_set_up_under_the_campaigns_streaks_is_refused(tmp_path, capsys):
    f = new_campaign(tmp_path)
    c, st = load_campaign(f)
    game, dice = finished_battle(battle_choices(f, c, st), seed=11, withdraw="A")
    record_battle(f, game.state, None, setup_streak=played_streak(game))
    # A won battle 1: the next battle gives A a streak of 1; one set up with no streak is not that battle
    other = SetupChoices(factions={"A": "new-tokyo", "B": "council-of-zane"}, streak={"A": 0, "B": 0})
    game2, dice2 = battle_with_its_setup(other, seed=4)
    assert played_streak(game2) == {"A": 0, "B": 0}
    save = save_game(game2, tmp_path / "stray.json", dice2)
    before = f.read_bytes()
    assert main(["campaign", "battle", str(f), "--save", str(save)]) == 2
    err = capsys.readouterr().err
    assert "set up with winning streaks A 0, B 0, but the campaign's next battle is played with A 1, B 0" in err
    assert f.read_bytes() == before
