"""What this computer has rolled in each battle it autosaves, so that no die is rolled twice for one place.

The program's dice are keyed by fresh entropy drawn when a battle starts or is opened, which no file holds
(``dice.py``): nothing on disk foretells a die. But a battle opened again from an older copy of its files (the
autosave copied aside before a roll and put back after it, or a save made before the roll) would roll that action's
dice afresh: a re-roll that nobody agreed to, where a take-back with the other side's consent is the only way back
(``undo.py``).

So each autosave write also notes, outside the saves folder, how far the battle stands and which of its actions
rolled or drew anything (``rolled/<battle>.json`` in the user's data folder: counts and places only, nothing secret).
A file of that battle that stops before an action this computer has rolled for is refused when it is opened, with
the reason. The battle is named by the commitment to its dice seed (``commit.battle_id``), drawn afresh for every
battle; a battle whose players roll real dice has none, and needs none.

The note is written after the autosave itself, so a stop between the two leaves the note behind the battle, never
ahead of it. It is not synced to the disk: a note lost to a power cut only lets an older copy open, as before. What
it does not stop: the account's owner putting back an older copy of the note too, or deleting it, or two windows
opened on the battle at one point, each rolling the same action (the note is read when a file is opened).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Final

from ... import paths
from ...rules.errors import InputError
from ..battle.commit import battle_id, is_digest
from ..play.engine import Game
from ..play.turns import TAKE_BACK_RULE

BOOK_FORMAT: Final = "seven-seconds-rolled/1"


def book_path(battle: str) -> Path:
    return paths.user_data_dir() / "rolled" / f"{battle[:32]}.json"


def _battle(game: Game) -> str:
    battle = battle_id(game.initial.dice_commitments)
    return battle if is_digest(battle) else ""


def note(game: Game) -> None:
    """After an autosave write of ``game``: how far it stands, and the places of its actions that rolled or drew."""
    battle = _battle(game)
    if not battle:
        return
    path = book_path(battle)
    doc = {"format": BOOK_FORMAT, "battle": battle, "actions": len(game.record),
           "rolled": [i for i, entry in enumerate(game.record) if entry.rolls]}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_text(json.dumps(doc) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass                # a note that cannot be written only lets an older copy open, as before


def check(game: Game, source: str) -> None:
    """Refuse ``game``, read from ``source``, when this computer has played its battle further and rolled for an
    action after the place where the file stops."""
    battle = _battle(game)
    if not battle:
        return
    try:
        doc = json.loads(book_path(battle).read_text(encoding="utf-8"))
        actions, rolled = int(doc["actions"]), [int(i) for i in doc["rolled"]]
    except (OSError, ValueError, KeyError, TypeError):
        return              # no note (a battle from another computer), or one that cannot be read
    if doc.get("battle") != battle:
        return
    here = len(game.record)
    later = [i + 1 for i in rolled if i >= here]
    if actions <= here or not later:
        return
    raise InputError(source, f"this file stops at action {here}, but this computer has played the battle on to action "
                             f"{actions}, and rolled or drew for action {later[0]} after it: it is an older copy of "
                             f"the battle's files. A die is rolled once: open the battle's newest file (its autosave, "
                             f"from Resume); only a take-back the other side agrees to goes back [{TAKE_BACK_RULE}]")
