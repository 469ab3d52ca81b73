"""What this computer has rolled in each battle it autosaves, so that no die is rolled twice for one place.

The program's dice are keyed by fresh entropy drawn when a battle starts or is opened, which no file holds
(``dice.py``): nothing on disk foretells a die. But a battle opened again from an older copy of its files (the
autosave copied aside before a roll and put back after it, or a save made before the roll), or opened in a second
window before the first rolled, would roll that action's dice afresh: a re-roll that nobody agreed to, where a
take-back with the other side's consent is the only way back (``undo.py``).

So each autosave write also notes, outside the saves folder, how far the battle stands, which of its actions rolled
or drew anything, the dice rolled on the table at each (public, as the log shows them) and which session of the
program wrote it (``rolled/<battle>.json`` in the user's data folder; nothing secret). Then:

* a file of that battle that stops before an action this computer has rolled for, or whose dice on the table differ
  from the ones this computer rolled for one of its actions, is refused when it is opened, with the reason
  (``check``);
* a session whose battle another session (a second window) has autosaved further since it opened it is not let
  write over it (``claim``): its autosave fails with the reason, and a file it saves by hand is refused when opened.

The battle is named by the commitment to its dice seed (``commit.battle_id``), drawn afresh for every battle; a
battle whose players roll real dice has none, and needs none.

The note is written after the autosave itself, so a stop between the two leaves the note behind the battle, never
ahead of it. It is not synced to the disk: a note lost to a power cut only lets an older copy open, as before. What
it does not stop: the account's owner putting back an older copy of the note too, or deleting it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Final

from ... import paths
from ...rules.errors import InputError
from ..battle.commit import battle_id, is_digest
from ..play.engine import Game, RecordEntry
from ..play.turns import TAKE_BACK_RULE

BOOK_FORMAT: Final = "seven-seconds-rolled/1"


class PlayedElsewhere(InputError):
    """Another window of the program has autosaved this battle further since this one opened it (``claim``)."""


def book_path(battle: str) -> Path:
    return paths.user_data_dir() / "rolled" / f"{battle[:32]}.json"


def _battle(game: Game) -> str:
    battle = battle_id(game.initial.dice_commitments)
    return battle if is_digest(battle) else ""


def _faces_of(entry: RecordEntry) -> list[float]:
    return [r.value for r in entry.rolls if r.kind in ("d6", "bearing")]


def _dice(game: Game) -> dict[str, list[float]]:
    """The dice rolled on the table at each place (``d6`` and bearings: public, as the log shows them)."""
    return {str(i): faces for i, entry in enumerate(game.record) if (faces := _faces_of(entry))}


def _read(battle: str) -> dict[str, Any] | None:
    """The note of ``battle``, or None: there is none (a battle from another computer), or it cannot be read."""
    try:
        doc = json.loads(book_path(battle).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    whole = (isinstance(doc, dict) and doc.get("battle") == battle and type(doc.get("actions")) is int
             and isinstance(doc.get("rolled"), list) and all(type(i) is int for i in doc["rolled"])
             and isinstance(doc.get("dice", {}), dict))
    return doc if whole else None


class Note:
    """The note one autosaver keeps of its battle, brought up to date with the record's new entries only (as the
    journal is): an autosave costs the same in round 200 as in round 1."""

    def __init__(self, writer: str = "") -> None:
        self.writer = writer
        self.entries: list[RecordEntry] = []
        self.rolled: list[int] = []
        self.dice: dict[str, list[float]] = {}

    def write(self, game: Game) -> None:
        """After an autosave write of ``game``: how far it stands, the places of its actions that rolled or drew,
        and the dice rolled on the table at each."""
        battle = _battle(game)
        if not battle:
            return
        record = game.record
        common = min(len(self.entries), len(record))
        while common and record[common - 1] is not self.entries[common - 1]:
            common -= 1
        if common < len(self.entries):          # taken back, or another battle's entries: forget past ``common``
            del self.entries[common:]
            self.rolled = [i for i in self.rolled if i < common]
            for place in [p for p in self.dice if int(p) >= common]:
                del self.dice[place]
        for i in range(common, len(record)):
            entry = record[i]
            self.entries.append(entry)
            if entry.rolls:
                self.rolled.append(i)
            faces = _faces_of(entry)
            if faces:
                self.dice[str(i)] = faces
        doc = {"format": BOOK_FORMAT, "battle": battle, "actions": len(record), "writer": self.writer,
               "rolled": self.rolled, "dice": self.dice}
        path = book_path(battle)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(f".{path.name}.tmp")
            temporary.write_text(json.dumps(doc) + "\n", encoding="utf-8")
            os.replace(temporary, path)
        except OSError:
            pass            # a note that cannot be written only lets an older copy open, as before


def claim(game: Game, writer: str, opened_at: int, source: str) -> None:
    """Before ``writer`` (a session that opened the battle at ``opened_at`` actions) autosaves ``game``: refused when
    another session, a second window of the program, has written the battle further since this one opened it.
    Both could otherwise roll the same action, and the player keep the outcome they liked."""
    battle = _battle(game)
    if not battle or not writer:
        return
    doc = _read(battle)
    if doc is None or doc.get("writer") in (None, "", writer) or int(doc["actions"]) <= opened_at:
        return
    raise PlayedElsewhere(source, f"another window of the program has played this battle on to action "
                                  f"{doc['actions']} since this one opened it at action {opened_at}: this window's "
                                  f"actions are not autosaved. Close this window and go on in the other (a die is "
                                  f"rolled once) [{TAKE_BACK_RULE}]")


def check(game: Game, source: str) -> None:
    """Refuse ``game``, read from ``source``, when this computer has played its battle further and rolled for an
    action after the place where the file stops, or rolled other dice on the table for one of its actions."""
    battle = _battle(game)
    if not battle:
        return
    doc = _read(battle)
    if doc is None:
        return
    actions, rolled = int(doc["actions"]), [int(i) for i in doc["rolled"]]
    here = len(game.record)
    for place, faces in _dice(game).items():            # in the record's order
        noted = (doc.get("dice") or {}).get(place)
        if noted is not None and noted != faces:
            raise InputError(source, f"action {int(place) + 1} of this file rolled {_faces(faces)}, where this computer "
                                     f"rolled {_faces(noted)} for it: the battle was played on another way elsewhere "
                                     f"(a second window, or a copy). A die is rolled once: open the battle's newest "
                                     f"file (its autosave, from Resume) [{TAKE_BACK_RULE}]")
    later = [i + 1 for i in rolled if i >= here]
    if actions <= here or not later:
        return
    raise InputError(source, f"this file stops at action {here}, but this computer has played the battle on to action "
                             f"{actions}, and rolled or drew for action {later[0]} after it: it is an older copy of "
                             f"the battle's files. A die is rolled once: open the battle's newest file (its autosave, "
                             f"from Resume); only a take-back the other side agrees to goes back [{TAKE_BACK_RULE}]")


def _faces(faces: list[Any]) -> str:
    return ", ".join(f"{f:g}" if isinstance(f, float) else str(f) for f in faces)
