"""No die is rolled twice for one place by putting back an older copy of a battle's files (``roll_book.py``).

The attack: copy the autosave aside, take an action that rolls or draws, dislike the outcome, put the copy back and
resume. The program's dice are keyed by fresh entropy each time a battle is opened, so the same action would roll
afresh. Measured before the note existed: the objective placed by the program's draw stood at 5 different spots in
6 tries from one copy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee import paths
from referee.game.battle.action_kinds import Kind
from referee.game.records import roll_book
from referee.rules.errors import InputError
from referee.rules.scenario import load_scenario
from referee.service.battles import new_session
from referee.service.intents import Action
from referee.service.opening import autosave_file, interrupted_battle, read_battle
from referee.service.session import BattleSession

FACTIONS = {"A": "council-of-zane", "B": "new-tokyo"}


def _rolled_roles() -> BattleSession:
    """A battle whose first action, the roll for attacker and defender, is autosaved."""
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS)
    attempt = session.attempt(Action(Kind.ROLL_ROLES, ""))
    assert attempt.outcome is not None and attempt.outcome.legal
    return session


def _edge_and_draw(session: BattleSession) -> list:
    """The side picking its edge keeps it; then the next set-up decision is left to the program's draw (objective
    delta's spot; in a Chance Encounter, the cards). Returns what it drew."""
    _keep_edge(session)
    decision = session.legal_actions()[0]
    drawn = session.attempt(Action(decision.kind, decision.actor, dict(decision.args)))
    assert drawn.outcome is not None and drawn.outcome.legal and drawn.outcome.rolls, drawn
    return session.game.record[-1].rolls


def _keep_edge(session: BattleSession) -> None:
    kept = session.attempt(Action(Kind.CHOOSE_EDGE, session.to_act(), {"turn": False}))      # no die
    assert kept.outcome is not None and kept.outcome.legal and not kept.outcome.rolls


def _copy_autosave(to: Path) -> None:
    to.mkdir()
    for file in autosave_file().parent.glob("autosave*"):
        shutil.copy2(file, to / file.name)


def _put_back(copy: Path) -> None:
    for file in autosave_file().parent.glob("autosave*"):
        file.unlink()
    for file in copy.iterdir():
        shutil.copy2(file, autosave_file().parent / file.name)


def test_an_older_copy_of_the_autosave_put_back_after_a_draw_is_refused_and_the_newest_goes_on(tmp_path):
    session = _rolled_roles()
    _copy_autosave(tmp_path / "before")
    drawn = _edge_and_draw(session)
    _copy_autosave(tmp_path / "after")
    _put_back(tmp_path / "before")
    older = interrupted_battle()
    assert older is not None and older.summary()
    with pytest.raises(InputError) as refused:
        older.open()
    assert refused.value.message() == (
        f"{autosave_file()}: this file stops at action 1, but this computer has played the battle on to action 3, and "
        "rolled or drew for action 3 after it: it is an older copy of the battle's files. A die is rolled once: open "
        "the battle's newest file (its autosave, from Resume); only a take-back the other side agrees to goes back "
        "[fair Undo]")
    # The newest files open, where the battle stood: with what the draw gave.
    _put_back(tmp_path / "after")
    newest = interrupted_battle()
    assert newest is not None
    resumed = newest.open()
    assert len(resumed.game.record) == 3 and resumed.game.record[-1].rolls == drawn


def test_an_action_that_rolled_nothing_may_be_played_again_from_an_older_copy(tmp_path):
    session = _rolled_roles()
    _copy_autosave(tmp_path / "before")
    _keep_edge(session)
    _put_back(tmp_path / "before")
    older = interrupted_battle()
    assert older is not None and len(older.open().game.record) == 1


def test_a_save_made_before_a_draw_is_refused_once_the_battle_drew_after_it(tmp_path):
    session = _rolled_roles()
    saved = session.save(tmp_path / "before-the-draw.json")
    assert len(read_battle(saved).open().game.record) == 1           # opens while the battle stands there
    _edge_and_draw(session)
    with pytest.raises(InputError) as refused:
        read_battle(saved).open()
    assert "older copy of the battle's files" in refused.value.message()
    assert refused.value.message().startswith(f"{saved}: this file stops at action 1")


def test_the_note_holds_the_battles_public_name_its_length_and_the_places_that_rolled_nothing_else():
    session = _rolled_roles()
    _edge_and_draw(session)
    battle = session.game.initial.dice_commitments["seed"]
    note = json.loads(roll_book.book_path(battle).read_text(encoding="utf-8"))
    # The roll for attacker and defender (action 1) and the draw (action 3) rolled; the edge kept (action 2) did not.
    assert note == {"format": "seven-seconds-rolled/1", "battle": battle, "actions": 3, "rolled": [0, 2]}
    assert roll_book.book_path(battle).parent == paths.user_data_dir() / "rolled"
