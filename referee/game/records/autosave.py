"""The autosave: a snapshot of the battle, then a journal with one line per action since, so that saving an action
costs the same in round 200 as in round 1.

``autosave.json`` is an ordinary save (``record.py``) written whole when a battle starts being autosaved (the first
action of a session, after a resume, after a take-back). Every later action is one line appended to
``autosave.journal`` and flushed to the disk: nothing is re-read, re-validated or rewritten. A take-back appends a
``back_to`` line. Reading the autosave (``read_autosave``) adds the journal's entries to the snapshot's record and
validates and replays the whole like any save; a last line cut short by a kill is the action being written, and is
left out.

A kill during a snapshot leaves a hidden temporary file: ``remove_leftovers`` deletes such files when the program
starts (a battle with keys is sealed before it is written, so even that file holds no secret in clear).

The journal names the snapshot it extends (its first line, ``{"extends": id}``; the snapshot holds the same
``snapshot`` id) and each action line its index in the record: a journal left from an older snapshot (a kill after
the new snapshot's rename, before the new journal replaced it) is not added, and an action the snapshot already holds
is skipped. A new snapshot replaces the journal atomically with one naming it. An autosave of another battle is set
aside by links first (journal, then snapshot, then the folder synced): at every moment the battle is whole under one
name or the other. Every rename is followed by a sync of the folder (``storage.sync_folder``).
"""

from __future__ import annotations

import json
import os
import secrets
from datetime import datetime, timezone
from pathlib import Path

from ... import paths, storage
from ...rules.errors import InputError
from ..battle.dice import SeededDice
from ..play.engine import Game, RecordEntry
from . import roll_book
from .record import AUTOSAVE_NAME, Save, _read, not_same_game, save_from_document, save_game
from .sealing import Keyring, Locked, is_sealed, open_document, open_entry, seal_entry

JOURNAL_SUFFIX = ".journal"
MAX_JOURNAL_BYTES = 64 * 1024 * 1024


def journal_path(path: Path) -> Path:
    return path.with_suffix(JOURNAL_SUFFIX)


def keep_other_autosave(path: Path) -> Path | None:
    """Set the autosave of another game (and its journal) aside as ``autosave-<time>.json``; never overwrite it.

    Links, not renames: the journal first, then the snapshot, then the folder synced, so that a kill at any point
    leaves the battle whole under its old name (the new snapshot replaces that name only afterwards). A battle that
    is over and was written in clear (an older version) is not kept: its copy would be every secret in clear."""
    if _finished_in_clear(path):
        return None
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    keep = path.with_name(f"{path.stem}-{stamp}.json")
    n = 1
    while keep.exists() or journal_path(keep).exists():
        n += 1
        keep = path.with_name(f"{path.stem}-{stamp}-{n}.json")
    journal = journal_path(path)
    if journal.exists():
        storage.link_or_copy(journal, journal_path(keep))
    storage.link_or_copy(path, keep)
    storage.sync_folder(path.parent)
    return keep


def _finished_in_clear(path: Path) -> bool:
    try:
        doc = _read(path)
    except InputError:
        return False
    if is_sealed(doc):
        return False
    try:
        return read_autosave(path).game.state.phase == "over"
    except InputError:
        return False


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
    for p in names:
        # A kept journal whose snapshot was never linked beside it (a kill while an autosave was set aside): the
        # battle is whole in the autosave it was linked from.
        if p.name.startswith(f"{Path(AUTOSAVE_NAME).stem}-") and p.suffix == JOURNAL_SUFFIX \
                and not p.with_suffix(".json").exists():
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

    def __init__(self, path: Path | None = None, writer: str = "", opened_at: int = -1) -> None:
        self.path = Path(path) if path is not None else autosave_path()
        # Whose writes these are (a session of a window) and where it opened the battle: another window that has
        # played the battle on since is not written over (``roll_book.claim``).
        self.writer, self.opened_at = writer, opened_at
        self.note = roll_book.Note(writer)
        self.game: Game | None = None
        self.written: list[RecordEntry] = []
        self.snapshot = ""

    def save(self, game: Game, dice: SeededDice | None = None) -> Path:
        roll_book.claim(game, self.writer, self.opened_at, str(self.path))
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
            index = len(self.written)
            line = {"entry": entry.to_data(), "index": index} if game.keys is None \
                else {**seal_entry(game.keys, index, entry.to_data(with_why=True)), "at": where_now(game)}
            lines.append(json.dumps(line, ensure_ascii=False, allow_nan=False))
            self.written.append(entry)
        if lines:
            self._append("".join(line + "\n" for line in lines))
            self.note.write(game)
        return self.path

    def _snapshot(self, game: Game, dice: SeededDice | None) -> Path:

        self.snapshot = secrets.token_hex(8)
        written = autosave(game, dice, self.path, self.snapshot)
        self.game = game
        self.written = list(game.record)
        self.note.write(game)           # after the autosave: a stop between the two leaves the note behind it
        return written

    def _append(self, text: str) -> None:
        data = text.encode("utf-8")
        fd = os.open(journal_path(self.path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            storage.step("journal append")
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
            storage.step("journal synced")
        finally:
            os.close(fd)


def where_now(game: Game) -> dict[str, object]:
    """Where the battle stands after an action, as every player sees it (its round, its phase, whose turn): a sealed
    journal line carries it in clear, so that the battle offered for resuming is named as it stands."""
    s = game.state
    return {"round": s.round, "phase": s.phase, "player": s.turn.player if s.turn is not None else None}


def journal_public(path: Path, snapshot: str, actions: int) -> tuple[int, dict[str, object] | None, float | None]:
    """A sealed autosave's journal read for what anyone may read of it: the battle's number of actions after it (the
    snapshot held ``actions``), where the battle stood after its last action, and when that was written (None: no
    journal line of this snapshot). Nothing sealed is opened; a journal that cannot be read adds nothing."""
    journal = journal_path(path)
    try:
        if not journal.is_file() or journal.stat().st_size > MAX_JOURNAL_BYTES:
            return actions, None, None
        raw, when = journal.read_bytes(), journal.stat().st_mtime
    except OSError:
        return actions, None, None
    at: dict[str, object] | None = None
    added = False
    for i, line in enumerate(raw.split(b"\n")[:-1]):
        try:
            item = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            break
        if not isinstance(item, dict):
            break
        if i == 0 and "extends" in item:
            if item["extends"] != snapshot:
                break
            continue
        if isinstance(item.get("back_to"), int) and 0 <= item["back_to"] <= actions:
            actions, added = item["back_to"], True
        elif isinstance(item.get("index"), int) and item["index"] >= actions:
            actions, added = item["index"] + 1, True
            at = item.get("at") if isinstance(item.get("at"), dict) else None
    return actions, at, when if added else None


def read_autosave(path: Path, keys: Keyring | None = None) -> Save:
    """The autosaved battle: the snapshot with the journal's actions added, validated and replayed as one save.
    A sealed autosave needs both sides' keys (``sealing.Locked`` names those missing)."""

    path = Path(path)
    doc = _read(path)
    if is_sealed(doc):
        doc = open_document(doc, keys, str(path))
    journal = journal_path(path)
    if not journal.exists():
        return save_from_document(doc, path, keys)
    try:
        if journal.stat().st_size > MAX_JOURNAL_BYTES:
            raise InputError(str(journal), f"larger than {MAX_JOURNAL_BYTES // (1024 * 1024)} MB: not an autosave "
                                           "journal this program wrote")
        raw = journal.read_bytes()
    except OSError as e:
        raise InputError(str(journal), f"cannot be read ({e.strerror or e})") from None
    record = doc.get("record")
    if not isinstance(record, list):
        return save_from_document(doc, path, keys)          # the snapshot's own problem is reported
    lines = raw.split(b"\n")
    complete, last = lines[:-1], lines[-1]            # a last line without its newline was cut short by a kill
    added = False
    for i, line in enumerate(complete):
        try:
            item = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise InputError(str(journal), f"line {i + 1}: not an action this program wrote") from None
        if i == 0 and isinstance(item, dict) and "extends" in item:
            if item["extends"] != doc.get("snapshot"):
                break                     # a journal of an older snapshot: the snapshot holds all it did
            continue
        if i == 0 and doc.get("snapshot"):
            break                         # a journal naming no snapshot is not this snapshot's
        if isinstance(item, dict) and isinstance(item.get("back_to"), int) and 0 <= item["back_to"] <= len(record):
            del record[item["back_to"]:]
            added = True
            continue
        if isinstance(item, dict) and isinstance(item.get("index"), int) and item["index"] < len(record):
            continue                      # already in the snapshot
        if isinstance(item, dict) and "both" in item and keys is not None:
            record.append(open_entry(keys, item, str(journal), f"line {i + 1}"))
        elif isinstance(item, dict) and isinstance(item.get("entry"), dict):
            record.append(item["entry"])
        else:
            raise InputError(str(journal), f"line {i + 1}: expected an action or a take-back")
        added = True
    del last
    if added:
        doc["state_digest"] = None            # the snapshot's digest is of the battle before the journal
        # Saved when its last action was: the journal's last line, not the snapshot written at its start.
        try:
            doc["saved_at"] = datetime.fromtimestamp(journal.stat().st_mtime, timezone.utc).isoformat(
                timespec="seconds")
        except OSError:
            pass
    return save_from_document(doc, path, keys)


# ---- autosave ---------------------------------------------------------------------------------------------------


def autosave_path() -> Path:
    return paths.saves_dir() / AUTOSAVE_NAME


def autosave(game: Game, dice: SeededDice | None = None, path: Path | None = None, snapshot: str | None = None) -> Path:
    """Write the autosave of ``game`` whole (a snapshot; ``autosave.py`` appends each action after it), then a fresh
    journal naming it. An autosave of another game (or a damaged one) is kept: it is set aside as
    ``autosave-<time>.json`` first, never overwritten."""
    path = autosave_path() if path is None else path
    snapshot = snapshot or secrets.token_hex(8)
    if path.exists() and not_same_game(path, game):
        keep_other_autosave(path)
    written = save_game(game, path, dice, overwrite=True, snapshot=snapshot)
    # Replaced, not removed then created: a kill between the two would leave the old journal to be appended to.
    storage.atomic_write_text(journal_path(path), json.dumps({"extends": snapshot}) + "\n", private=True)
    return written


def find_interrupted(keys: Keyring | None = None) -> Save | None:
    """The autosaved battle that is not over, for the window to offer resuming; ``None`` if there is none.

    A damaged autosave is left alone (the next autosave keeps it under another name) and is not offered. Temporary
    files a killed write left behind (they hold every secret) are removed first.
    """
    path = autosave_path()
    remove_leftovers(path.parent)
    if not path.is_file():
        return None
    try:
        save = read_autosave(path, keys)
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
    except Locked:
        return None                        # sealed: whole, and opened once the players give their PINs
    except InputError as e:
        return (f"{e.message()}\nThe interrupted battle cannot be resumed; the file is kept as it is "
                f"(the next autosave renames it autosave-<date>-<time>.json).")
    return None
