"""Writing data files atomically: a crash half-way leaves the old file whole.

A file meant to be shared (a faction, a campaign, a scenario, a printed sheet) gets the permissions any new file of
the user gets (``0666`` less the umask); only a file that holds secrets (a save, an autosave) stays ``private``, for
its owner alone. ``mkstemp`` makes every temporary file ``0600``, so the mode is set before the file is renamed.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path


# Called with the name of each durable step (a file written, synced, renamed, linked, a folder synced) just before
# it: tests set it to one that raises at the n-th step, to stand for a kill there.
on_step: Callable[[str], None] | None = None


def step(name: str) -> None:
    if on_step is not None:
        on_step(name)


def sync_folder(folder: Path) -> None:
    """Make the renames and removals in ``folder`` durable (a rename is in the folder, not in the file)."""
    step("folder sync")
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return                           # a system that cannot open a folder (Windows) syncs it with its files
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def link_or_copy(source: Path, target: Path) -> None:
    """``target`` names ``source``'s data too: a hard link, or a copy synced where the file system has none."""
    step("link")
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
        with open(target, "rb+") as f:
            os.fsync(f.fileno())


def _umask() -> int:
    # The umask can only be read by setting it; set it straight back (one thread of ours writes files at a time).
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def shared_mode() -> int:
    """The mode of a new file that others may read: what ``open()`` would give it."""
    return 0o666 & ~_umask()


def atomic_write_text(path: Path, text: str, private: bool = False) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), private)


def atomic_write_bytes(path: Path, data: bytes, private: bool = False) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder; ``private`` keeps it ``0600``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            step("write")
            f.write(data)
            f.flush()
            if not private:
                os.fchmod(f.fileno(), shared_mode())
            os.fsync(f.fileno())
        step("rename")
        os.replace(tmp, path)
        sync_folder(path.parent)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_document(path: Path, data: dict) -> None:
    """TOML or JSON by the file's extension."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        atomic_write_text(path, json.dumps(data, indent=2) + "\n")
    else:
        # lazy: only a TOML file written needs the TOML writer; the window's start reads its settings and writes none
        import tomli_w

        atomic_write_text(path, tomli_w.dumps(data))
