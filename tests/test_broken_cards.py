"""A broken file in the user's cards folder is left out with its reason, never an error that stops a battle, its
set-up or its resume: the other cards are played if they still make a deck, otherwise the sample deck."""

import shutil

from referee import paths
from referee.game.battle.intents import Action
from referee.game.battle.cards import bundled_folder, playing_deck, user_deck_problems
from referee.game.battle.dice import ScriptedDice
from referee.game.play.engine import play
from referee.game.records.record import read_save, save_game
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession

from .test_terrain_corrections import SMALL

BROKEN = 'this is = not [ a card file\n'


def user_cards():
    folder = paths.user_cards_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_lone_broken_card_file_leaves_the_sample_deck_in_play_and_is_listed():
    (user_cards() / "mine.toml").write_text(BROKEN)
    deck = playing_deck()
    assert deck.folder == bundled_folder() and deck.sample
    problems = user_deck_problems()
    assert problems[0].startswith("mine.toml: ") and "TOML" in problems[0]
    assert len(problems) == 2 and problems[-1].endswith("the sample deck is played")


def test_a_broken_file_beside_a_whole_deck_is_left_out_and_the_other_cards_are_played():
    folder = user_cards()
    for f in bundled_folder().glob("*.toml"):
        shutil.copy(f, folder / f.name)
    (folder / "typo.toml").write_text('[[mission]]\nid = "half-done"\n')
    deck = playing_deck()
    assert deck.folder == folder and "half-done" not in deck.sources
    assert deck.left_out and all(p.startswith("typo.toml: mission[0] 'half-done': ") for p in deck.left_out)
    assert user_deck_problems()[-1].endswith("the files above are left out; the other cards are played")


def test_a_mission_entered_then_a_card_file_broken_still_resumes_and_scores(tmp_path):
    session = RefereeSession.from_scenario(load_scenario(SMALL))
    session.autosaving = False
    assert session.enter_mission("A", "deep-strike", None, None).legal
    path = save_game(session.game, tmp_path / "b.json")
    (user_cards() / "mine.toml").write_text(BROKEN)
    again = read_save(path).game                    # the replay reads the deck again: no error
    assert again.state.missions == {"A": "deep-strike"}
    out = play(again.state, Action("mission", "B", {"mission": "hold-the-line"}), ScriptedDice())
    assert out.legal, out.reason
