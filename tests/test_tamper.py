"""Edits after the fact are caught (issue 32, item 4): a save keeps each side's seal and its salted part digests, and
a save whose record replays to other secrets, or whose dice no longer open their commitments, is flagged on load,
part by part, in the window's report and in ``seven-seconds report``.

Each edit is made as a cheating player would make it on the save file, the ``state_digest`` made again to match
(anyone who can read the file can compute it)."""

from __future__ import annotations

import json
import random
import re
import tempfile
from functools import cache
from pathlib import Path

import pytest

from referee.cli.report import run
from referee.game.records.autosave import autosave_path, read_autosave
from referee.game.play.engine import Game
from referee.game.players.random_play import play_random, random_action
from referee.game.records.record import commit_dice, new_seeded_dice, read_save, save_game, state_digest
from referee.game.play.seal import verify_seal
from referee.game.play.setup import SetupChoices, choice_actions, new_game
from referee.game.views.view_words import short_seal
from referee.rules.errors import InputError
from referee.service.session import BattleSession

from .fixed_draws import os_draws_fixed
from .test_secrets import FACTIONS, TABLE

BATTLES = (1, 2, 3, 4)


def keyed_battle(seed: int) -> tuple[Game, object]:
    """A battle set up as the window sets one up: dice keyed by both sides' committed contributions. What the window
    draws from the operating system is drawn from ``seed`` here, so every run plays the same deals (in a rare deal
    no other card drawn for B replays, and the card cheat cannot be made at all)."""
    with os_draws_fixed(seed):
        game, dice = new_game(TABLE, FACTIONS), new_seeded_dice(seed, private=True)
        assert commit_dice(game, dice)
        while game.state.phase == "setup":
            assert game.play(choice_actions(game.state, SetupChoices(FACTIONS)), dice).legal
        play_random(game, random.Random(seed), 12, dice)
    return game, dice


@cache
def saved_battle(seed: int) -> tuple[str, str]:
    """``keyed_battle(seed)``'s save as written, and B's seal: played once in a test process (every edit test reads
    the same four battles); each test writes its own copy."""
    game, dice = keyed_battle(seed)
    with tempfile.TemporaryDirectory() as folder:
        return save_game(game, Path(folder) / "battle.json", dice).read_text(), game.state.sealed["B"]


def battle_file(folder: Path, seed: int) -> Path:
    path = folder / f"battle-{seed}.json"
    path.write_text(saved_battle(seed)[0])
    return path


def entry(doc: dict, kind: str, actor: str) -> dict:
    return next(e for e in doc["record"] if e["action"]["kind"] == kind and e["action"]["actor"] == actor)


def swap_blips(doc: dict, tried: int = 0) -> None:
    """Two of B's blip counters stand for each other's squares."""
    one, two = [e for e in doc["record"] if e["action"]["kind"] == "place-blip" and e["action"]["actor"] == "B"][:2]
    one["action"]["args"]["square"], two["action"]["args"]["square"] = (two["action"]["args"]["square"],
                                                                        one["action"]["args"]["square"])


def change_draw(*indices: int):
    """Another of B's cards drawn (by the draw's answer in the record, the first of ``indices`` first): ``tried``
    picks which other one."""
    def edit(doc: dict, tried: int) -> None:
        rolls = entry(doc, "draw-cards", "B")["rolls"]
        index, value = [(i, v) for i in indices for v in range(6) if v != rolls[i][2]][tried]
        rolls[index][2] = value
    return edit


def change_seed(doc: dict, tried: int = 0) -> None:
    doc["dice"]["seed"] += 1


EDITS = {"blip": (swap_blips, "blip's contents swapped"), "mission": (change_draw(0), "mission changed"),
         "card": (change_draw(2, 1), "card changed"), "seed": (change_seed, "dice seed")}


def _fit_rolls(doc: dict, problem: str) -> bool:
    """A card drawn instead of another may issue other units: the holding area then takes more or fewer draws, and
    the cheat adds or drops draws until the record replays. True if the record was changed so."""
    more = re.search(r"record\[(\d+)\][^:]*\.rolls: the action needs more rolls", problem)
    fewer = re.search(r"record\[(\d+)\]\.rolls: \d+ rolls recorded .* but the action used (\d+)", problem)
    if more:
        rolls = doc["record"][int(more.group(1))]["rolls"]
        rolls.append([*rolls[-1][:2], 0])
        return True
    if fewer:
        rolls = doc["record"][int(fewer.group(1))]["rolls"]
        del rolls[int(fewer.group(2)):]
        return True
    return False


def edited(path, edit) -> None:
    """The save edited as ``edit`` says, made to replay as a cheat would: the holding area's draws fitted to the
    units a changed card issues, or (failing that) each other card tried in turn."""
    original = path.read_text()
    for tried in range(10):
        doc = json.loads(original)
        edit(doc, tried)
        for _fit in range(40):
            path.write_text(json.dumps(doc))
            try:
                state = read_save(path).game.state
            except InputError as e:
                if _fit_rolls(doc, " ".join(e.problems)):
                    continue
                break
            # The cheat makes the digest match again, as anyone reading the file can.
            doc["state_digest"] = state_digest(state)
            path.write_text(json.dumps(doc))
            return
    raise AssertionError("no edit of this kind replays")


@pytest.mark.parametrize("seed", BATTLES)
def test_a_save_left_alone_is_flagged_for_nothing(tmp_path, seed):
    path = battle_file(tmp_path, seed)
    loaded = read_save(path)
    assert loaded.game.tampered == [] and loaded.warnings == []
    assert json.loads(path.read_text())["seals"]["B"]["seal"] == saved_battle(seed)[1]


@pytest.mark.parametrize("kind", sorted(EDITS))
def test_each_kind_of_edit_is_flagged_in_every_battle(tmp_path, kind):
    edit, words = EDITS[kind]
    caught = 0
    for seed in BATTLES:
        path = battle_file(tmp_path, seed)
        edited(path, edit)
        flags = read_save(path).game.tampered
        caught += any(words in line for line in flags)
    assert caught == len(BATTLES)


def test_the_command_line_report_names_the_edit_first(tmp_path, capsys):
    game, dice = keyed_battle(1)
    path = save_game(game, tmp_path / "battle.json", dice)
    edited(path, change_draw(0))
    run(type("Args", (), {"save": str(path), "summary": False, "dice": True, "png": None, "pdf": None,
                          "side": None})())
    lines = capsys.readouterr().out.splitlines()
    flagged = lines[:next(i for i, line in enumerate(lines) if not line.startswith("TAMPERED"))]
    assert flagged and any("side B" in line and "mission changed" in line for line in flagged), lines[:5]


def test_the_seal_of_a_keyed_battle_covers_its_dice_commitments_and_shows_64_bits():
    game, _ = keyed_battle(2)
    print_ = short_seal(game.state.sealed["A"])
    assert len(print_.replace(" ", "")) * 4 == 64
    again = game.after_setup()
    again.dice_commitments = {**again.dice_commitments, "A": "0" * 64}
    assert not verify_seal(again, "A", game.state.sealed["A"]).matches


def test_a_window_battles_autosave_resumed_is_flagged_for_nothing():
    session = BattleSession(new_game(TABLE, FACTIONS), new_seeded_dice(6, private=True), hotseat=True)
    while session.state.phase == "setup":
        assert session.attempt(choice_actions(session.state, SetupChoices(FACTIONS))).legal
    rng = random.Random(6)
    for _ in range(20):
        session.attempt(random_action(session.state, rng))
    resumed = read_autosave(autosave_path())
    assert resumed.game.tampered == [] and resumed.warnings == []
    assert resumed.dice is not None and resumed.dice.keyed and resumed.dice.unopened() == []
