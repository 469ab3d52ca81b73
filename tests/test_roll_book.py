"""No die is rolled twice for one place, by putting back an older copy of a battle's files or by a second window
(``roll_book.py``).

The attack: copy the autosave aside, take an action that rolls or draws, dislike the outcome, put the copy back and
resume (or resume the battle in two windows and roll in each). The program's dice are keyed by fresh entropy each
time a battle is opened, so the same action would roll afresh. Measured before the note existed: the objective
placed by the program's draw stood at 5 different spots in 6 tries from one copy.
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


def test_a_second_window_opened_at_the_same_point_may_not_roll_the_same_action_again():
    first = _rolled_roles()
    _keep_edge(first)
    # Two windows resume the battle at the same point (action 2); the first plays on and draws.
    windows = [interrupted_battle(), interrupted_battle()]
    assert all(w is not None for w in windows)
    one, two = (w.open() for w in windows)
    decision = one.legal_actions()[0]
    assert one.attempt(Action(decision.kind, decision.actor, dict(decision.args))).outcome.legal
    assert not one.messages
    # The second tries the same action: its autosave is refused with the reason, and the first one's stands.
    before = autosave_file().read_bytes(), autosave_file().with_suffix(".journal").read_bytes()
    drawn = two.attempt(Action(decision.kind, decision.actor, dict(decision.args)))
    assert drawn.outcome.legal
    assert two.messages == [
        f"not autosaved: {autosave_file()}: another window of the "
        "program has played this battle on to action 3 since this one opened it at action 2: this window's actions "
        "are not autosaved. Close this window and go on in the other (a die is rolled once) [fair Undo]"]
    assert (autosave_file().read_bytes(), autosave_file().with_suffix(".journal").read_bytes()) == before
    # The newest files are the first window's.
    resumed = interrupted_battle()
    assert resumed is not None and resumed.open().game.record[-1].rolls == one.game.record[-1].rolls


def test_a_file_whose_dice_on_the_table_differ_from_the_ones_rolled_here_is_refused(tmp_path):
    session = _rolled_roles()
    saved = session.save(tmp_path / "battle.json")
    doc = json.loads(saved.read_text(encoding="utf-8"))
    faces = [r[2] for r in doc["record"][0]["rolls"] if r[1] == "d6"]
    assert len(faces) >= 2                      # each side's die (and again, on a tie)
    assert read_battle(saved).open()            # the file as it was rolled opens
    # The same battle with the roll for attacker and defender turned round, as a copy played elsewhere would hold it.
    session.game.record[0].rolls[:] = [type(r)(r.label, r.kind, 7 - r.value) if r.kind == "d6" else r
                                       for r in session.game.record[0].rolls]
    with pytest.raises(InputError) as refused:
        roll_book.check(session.game, "elsewhere.json")
    worded = ", ".join(f"{f:g}" for f in faces)
    turned = ", ".join(f"{7 - f:g}" for f in faces)
    assert refused.value.message().startswith(
        f"elsewhere.json: action 1 of this file rolled {turned}, where this computer rolled {worded} for it: the "
        "battle was played on another way elsewhere")


def test_the_note_holds_the_battles_public_name_its_length_the_places_that_rolled_and_the_tables_dice():
    session = _rolled_roles()
    _edge_and_draw(session)
    battle = session.game.initial.dice_commitments["seed"]
    note = json.loads(roll_book.book_path(battle).read_text(encoding="utf-8"))
    # The roll for attacker and defender (action 1) and the draw (action 3) rolled; the edge kept (action 2) did not.
    # Of them, only the roll is dice on the table, as the log shows them; the draw is a spot (or secret cards).
    rolled_here = [r.value for r in session.game.record[0].rolls]
    assert note == {"format": "seven-seconds-rolled/1", "battle": battle, "actions": 3, "rolled": [0, 2],
                    "writer": session._writer, "dice": {"0": rolled_here}}
    assert roll_book.book_path(battle).parent == paths.user_data_dir() / "rolled"


def test_the_note_kept_by_the_autosave_follows_the_record_back_and_forth_as_a_whole_note_would():
    session = _rolled_roles()
    _edge_and_draw(session)
    game = session.game
    battle = game.initial.dice_commitments["seed"]
    note = roll_book.Note("writer")

    def written() -> dict:
        return json.loads(roll_book.book_path(battle).read_text(encoding="utf-8"))

    note.write(game)
    last = game.record.pop()                    # a take-back shortens the record
    note.write(game)
    assert written()["actions"] == 2 and written()["rolled"] == [0] and list(written()["dice"]) == ["0"]
    game.record.append(last)
    note.write(game)
    assert written() == {"format": "seven-seconds-rolled/1", "battle": battle, "actions": 3, "writer": "writer",
                         "rolled": [0, 2], "dice": {"0": [r.value for r in game.record[0].rolls]}}


def test_a_campaign_battles_older_save_put_back_is_refused_by_the_campaigns_continue(tmp_path):
    """A campaign's battle is continued from its save beside the campaign: that save, copied aside and put back after
    the battle drew, is an older copy like any other."""
    from referee.cli.main import main
    from referee.service.campaigns import begin_campaign_battle, continue_battle, unfinished_in

    campaign = tmp_path / "war.json"
    assert main(["campaign", "new", str(campaign), "--a", "council-of-zane", "--b", "new-tokyo"]) == 0
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS)
    begin_campaign_battle(session, campaign, 1)
    assert session.attempt(Action(Kind.ROLL_ROLES, "")).outcome.legal
    session.save_campaign_battle()
    saved = tmp_path / "war-battle-1.json"
    copy = saved.read_bytes()
    _edge_and_draw(session)
    session.save_campaign_battle()
    assert len(continue_battle(campaign, unfinished_in(campaign)).game.record) == 3     # the newest save opens
    saved.write_bytes(copy)
    with pytest.raises(InputError) as refused:
        continue_battle(campaign, unfinished_in(campaign))
    assert refused.value.message().startswith(f"{saved}: this file stops at action 1, but this computer has played "
                                              "the battle on to action 3")
