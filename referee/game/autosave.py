"""The autosave: a snapshot of the battle, then a journal with one line per action since, so that saving an action
costs the same in round 200 as in round 1.

``autosave.json`` is an ordinary save (``record.py``) written whole when a battle starts being autosaved (the first
action of a session, after a resume, after a take-back). Every later action is one line appended to
``autosave.journal`` and flushed to the disk: nothing is re-read, re-validated or rewritten. A take-back appends a
``back_to`` line. Reading the autosave (``read_autosave``) adds the journal's entries to the snapshot's record and
validates and replays the whole like any save; a last line cut short by a kill is the action being written, and is
left out.

A kill during a snapshot leaves a hidden temporary file holding every secret: ``remove_leftovers`` deletes such files
when the program starts.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

from .. import paths
from ..rules.errors import InputError
from .dice import SeededDice
from .engine import Game, RecordEntry
from .record import AUTOSAVE_NAME, Save, _read, not_same_game, save_from_document, save_game

JOURNAL_SUFFIX = ".journal"
MAX_JOURNAL_BYTES = 64 * 1024 * 1024


def journal_path(path: Path) -> Path:
    return path.with_suffix(JOURNAL_SUFFIX)


def keep_other_autosave(path: Path) -> Path:
    """Rename the autosave of another game (and its journal) to ``autosave-<time>.json``; never overwrite it."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    keep = path.with_name(f"{path.stem}-{stamp}.json")
    n = 1
    while keep.exists():
        n += 1
        keep = path.with_name(f"{path.stem}-{stamp}-{n}.json")
    os.replace(path, keep)
    journal = journal_path(path)
    if journal.exists():
        os.replace(journal, journal_path(keep))
    return keep


def remove_leftovers(folder: Path) -> list[Path]:
    """Delete the temporary files an interrupted atomic write left in ``folder`` (``.<name>.<random>.tmp``)."""
    gone: list[Path] = []
    try:
        names = list(folder.iterdir()) if folder.is_dir() else []
    except OSError:
        return gone
    for p in names:
        if p.name.startswith(".") and p.name.endswith(".tmp") and p.is_file():
            try:
                p.unlink()
                gone.append(p)
            except OSError:
                pass
    return gone


class Autosaver:
    """Autosaves one battle: a snapshot first, then one journal line per action (see the module note).

    It remembers which record entries it has written (the entries themselves, not copies), so it never reads its
    own files back."""

    def __init__(self, path: Path | None = None) -> None:

        self.path = Path(path) if path is not None else autosave_path()
        self.game: Game | None = None
        self.written: list[RecordEntry] = []

    def save(self, game: Game, dice: SeededDice | None = None) -> Path:
        if self.game is not game or self.game.initial is not game.initial:
            return self._snapshot(game, dice)
        record = game.record
        common = min(len(self.written), len(record))
        # Actions only ever append; a take-back shortens the record by one (and may add its public entry).
        while common and record[common - 1] is not self.written[common - 1]:
            common -= 1
        lines = []
        if common < len(self.written):
            lines.append(json.dumps({"back_to": common}))
            del self.written[common:]
        for entry in record[common:]:
            lines.append(json.dumps({"entry": entry.to_data()}, ensure_ascii=False, allow_nan=False))
            self.written.append(entry)
        if lines:
            self._append("".join(line + "\n" for line in lines))
        return self.path

    def _snapshot(self, game: Game, dice: SeededDice | None) -> Path:

        written = autosave(game, dice)
        self.game = game
        self.written = list(game.record)
        return written

    def _append(self, text: str) -> None:
        data = text.encode("utf-8")
        fd = os.open(journal_path(self.path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)


def read_autosave(path: Path) -> Save:
    """The autosaved battle: the snapshot with the journal's actions added, validated and replayed as one save."""

    path = Path(path)
    doc = _read(path)
    journal = journal_path(path)
    if not journal.exists():
        return save_from_document(doc, path)
    try:
        if journal.stat().st_size > MAX_JOURNAL_BYTES:
            raise InputError(str(journal), f"larger than {MAX_JOURNAL_BYTES // (1024 * 1024)} MB: not an autosave "
                                           "journal this program wrote")
        raw = journal.read_bytes()
    except OSError as e:
        raise InputError(str(journal), f"cannot be read ({e.strerror or e})") from None
    record = doc.get("record")
    if not isinstance(record, list):
        return save_from_document(doc, path)          # the snapshot's own problem is reported
    lines = raw.split(b"\n")
    complete, last = lines[:-1], lines[-1]            # a last line without its newline was cut short by a kill
    for i, line in enumerate(complete):
        try:
            item = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise InputError(str(journal), f"line {i + 1}: not an action this program wrote") from None
        if isinstance(item, dict) and isinstance(item.get("back_to"), int) and 0 <= item["back_to"] <= len(record):
            del record[item["back_to"]:]
        elif isinstance(item, dict) and isinstance(item.get("entry"), dict):
            record.append(item["entry"])
        else:
            raise InputError(str(journal), f"line {i + 1}: expected an action or a take-back")
    del last
    if complete:
        doc["state_digest"] = None            # the snapshot's digest is of the battle before the journal
    return save_from_document(doc, path)


# ---- autosave ---------------------------------------------------------------------------------------------------


def autosave_path() -> Path:
    return paths.saves_dir() / AUTOSAVE_NAME


def autosave(game: Game, dice: SeededDice | None = None) -> Path:
    """Write the autosave of ``game`` whole (a snapshot; ``autosave.py`` appends each action after it). An autosave
    of another game (or a damaged one) is kept: it is renamed ``autosave-<time>.json`` first, never overwritten."""
    path = autosave_path()
    if path.exists() and not_same_game(path, game):
        keep_other_autosave(path)
    journal = journal_path(path)
    written = save_game(game, path, dice, overwrite=True)
    if journal.exists():
        journal.unlink()
    return written


def find_interrupted() -> Save | None:
    """The autosaved battle that is not over, for the window to offer resuming; ``None`` if there is none.

    A damaged autosave is left alone (the next autosave keeps it under another name) and is not offered. Temporary
    files a killed write left behind (they hold every secret) are removed first.
    """
    path = autosave_path()
    remove_leftovers(path.parent)
    if not path.is_file():
        return None
    try:
        save = read_autosave(path)
    except InputError:
        return None
    if save.game.state.phase == "over":
        return None
    return save


def damaged_autosave() -> str | None:
    """Why the autosave cannot be opened, for the window to say so at start (``None`` when there is no autosave or it
    opens). The file is left as it is; the next autosave keeps it under another name."""
    path = autosave_path()
    if not path.exists():
        return None
    try:
        read_autosave(path)
    except InputError as e:
        return (f"{e.message()}\nThe interrupted battle cannot be resumed; the file is kept as it is "
                f"(the next autosave renames it autosave-<date>-<time>.json).")
    return None
