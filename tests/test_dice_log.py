"""Every die rolled on the table is in the log, with its face: the players can check each one (issue: every die in
the log). The faces are fixed; each test finds the die, by its name and face, in the log's text."""

from pathlib import Path

from referee.game.battle.intents import Action
from referee.game.play.actions import resolve
from referee.game.battle.dice import ScriptedDice, SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.records.record import read_save, save_game
from referee.game.battle.state import state_from_scenario
from referee.game.views.view import player_view
from referee.game.views.view_words import log_lines
from referee.rules.scenario import load_scenario
from referee.service.session import BattleSession

from .test_damage import blip, content, do, flamer_table, game_state, kamikaze_table, missile_table, rifle_table, unit

TABLE = Path(__file__).parent / "ui" / "table.toml"


def dice_text(out) -> str:
    """The log's text of the action's dice, as side A reads it."""
    return " | ".join(line for line in log_lines(player_view(out.state, "A")) if "dice: " in line)


def test_rifle_and_graze_dice_are_in_the_log():
    # Gauss 2 and 4 at 2 counters: the lowest 2 grazes; the graze rolls Red 4, normal 2.
    out = do(rifle_table(), "rifle", "s", [2, 4, 4, 2], target="e")
    text = dice_text(out)
    assert "Gauss rifle die 1 of 2 at e: 2" in text and "Gauss rifle die 2 of 2 at e: 4" in text
    assert "Red Die for e's graze: 4" in text and "normal die for e's graze: 2" in text


def test_the_damaged_check_before_an_action_is_in_the_log():
    s = game_state(units=[unit("s", "A", 10, 10, type="engineer", facing=0, damaged=True),
                          unit("e", "B", 14, 10, target_counters=2)])
    out = do(s, "rifle", "s", [6], target="e")
    assert out.failed
    assert "Damaged check for s before its rifle: 6" in dice_text(out)


def test_countermeasure_dice_the_damaged_pre_roll_and_the_hit_die_are_in_the_log():
    # b2 is Damaged: pre-roll 5 fails, no CM die; b3 6 and t 6 miss; hit die 1.
    out = do(missile_table(b2_kw={"damaged": True}), "missile", "f", [5, 6, 6, 1], target="t")
    text = dice_text(out)
    assert "Damaged pre-roll for b2's countermeasures: 5" in text
    assert "CM die for b3: 6" in text and "CM die for t: 6" in text
    assert "missile hit die against t: 1" in text


def test_deviation_dice_the_bearing_and_blast_dice_are_in_the_log():
    # Hit 6 misses: Red 2 + normal 1 = 3" at 90°; t and b4 are in the blast (see test_damage).
    s = missile_table(extra=[unit("b4", "B", 20, 16.5)])
    dice = [4, 5, 6, 6, 2, 1, 1, 2, 4, 6, 1, 1, 2, 2, 2, 1, 1, 1]
    out = do(s, "missile", "f", dice, [90.0], target="t")
    text = dice_text(out)
    assert "Red Die for the deviation distance: 2" in text
    assert "normal die for the deviation distance: 1" in text
    assert "deviation bearing" in text and ": 90.0°" in text
    assert "blast die 3 of 3 for t (damage): 4" in text and "blast die 1 of 3 for b4 (damage): 1" in text


def test_flamer_graze_dice_are_in_the_log():
    out = do(flamer_table(), "flamer", "f", [4, 4, 1, 1, 1, 6, 6, 1], x=12.5, y=10)
    text = dice_text(out)
    assert "Red Die for e's graze: 4" in text and "normal die for bt's graze: 6" in text
    assert "Red Die for f's graze: 6" in text


def test_the_kamikaze_contact_roll_is_in_the_log():
    out = do(kamikaze_table(), "kamikaze", "k", [3, 1, 1, 1, 1], x=14, y=10, target="t")
    assert "Kamikaze contact roll against t: 3" in dice_text(out)


def test_the_log_names_the_dice_meaning_and_rule():
    out = do(rifle_table(), "rifle", "s", [2, 4, 4, 2], target="e")
    entry = next(e for e in out.state.log if e.text.startswith("dice: "))
    assert "Red Die for e's graze: 4 (above 3 stuns) [p.20]" in entry.explain
    assert entry.units == ["s", "e"]


def test_a_secret_draw_is_not_in_the_log():
    # Scramble: which square and which blip is real are the owner's secret draws, never listed as dice.
    s = game_state(units=[unit("a", "A", 10, 10)], blips=[blip("x", "B", 30, 30, [content("y", "B")])])
    out = resolve(s, Action("scramble", "a"), ScriptedDice([], draws=[0, 0, 0, 0, 0]))
    assert out.legal, out.reason
    assert not any(e.text.startswith("dice: ") for e in out.state.log)


def test_physical_dice_show_what_was_typed(tmp_path):
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), None, hotseat=True, viewer="A", autosaving=False)
    assert session.attempt(Action("activate", "a-tac-1")).legal
    attempt = session.attempt(Action("target", "a-tac-1", {"dice": 2, "assign": {}}))
    assert attempt.pending is not None
    attempt = session.answer(attempt.pending, 5)
    attempt = session.answer(attempt.pending, 3)
    assert attempt.legal
    assert "dice: sensor die 1 of 2 for a-tac-1: 5; sensor die 2 of 2 for a-tac-1: 3" in session.log(explain=False)[-1]
    # The save replays the same log in a new game.
    saved = save_game(session.game, tmp_path / "typed.json")
    assert read_save(saved).game.state.log[-1].text == session.state.log[-1].text


def test_program_dice_are_logged_as_rolled():
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = BattleSession(Game(state), SeededDice(4), hotseat=True, viewer="A", autosaving=False)
    session.attempt(Action("activate", "a-tac-1"))
    session.attempt(Action("target", "a-tac-1", {"dice": 1, "assign": {}}))
    face = int(session.game.record[-1].rolls[0].value)
    assert session.state.log[-1].text == f"dice: sensor die 1 of 1 for a-tac-1: {face}"
