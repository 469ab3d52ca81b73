"""Files checked before: the value a sound file was read and validated into, kept on disk between runs.

Reading a file as TOML and checking it against its model (which first builds the model's validators, and loads
pydantic) costs a one-shot command more than its answer, and every start reads the bundled unit, weapon, terrain and
rulings tables, the factions and a table. A file of the very bytes this very program checked before gives the value
kept then, found under a key of its bytes, how they are read, the rules' code and the validation library's; any other
file (changed, new or broken) is read and checked as always. Only a sound file's value is ever kept, so a broken file
still gets its clear error naming the file, the item and what was expected; the checks that look at other files (a
table's factions, a faction's points, the rulings a table chooses) are made on every load, never kept. A kept value
that cannot be read is checked again and written anew; the folder may be deleted at any time
(``paths.user_cache_dir``).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
from pathlib import Path
from typing import Callable, TypeVar

from .. import paths

T = TypeVar("T")

KEEP = 400            # files kept; beyond it the oldest are dropped
FOLDER = "checked"
LARGEST = 16 * 1024 * 1024     # bytes: a larger file is left to the reading, which refuses it (files.py)

# What reading back a kept value that was cut short, or written by a program whose classes differ, can raise.
UNREADABLE = (pickle.UnpicklingError, EOFError, OSError, ValueError, TypeError, AttributeError, ImportError,
              IndexError, KeyError, MemoryError)

_code: bytes | None = None


def code_fingerprint() -> bytes:
    """What the checked values depend on besides the files: the rules' models and the validation library, as
    their files are (size and time of change: a new version installed, or the source edited)."""
    global _code
    if _code is None:
        package = Path(__file__).resolve().parent.parent
        files = sorted(package.glob("rules/*.py"))
        for library, module in (("pydantic", "version.py"), ("pydantic_core", "__init__.py")):
            for entry in sys.path:
                found = Path(entry or ".", library, module)
                if found.is_file():
                    files.append(found)
                    break
        parts = [sys.version]
        for f in files:
            try:
                st = f.stat()
            except OSError:
                continue
            parts.append(f"{f}:{st.st_size}:{st.st_mtime_ns}")
        _code = "\n".join(parts).encode("utf-8", "surrogatepass")
    return _code


def file_key(kind: str, name: str, content: bytes) -> str:
    """The key of a file's very bytes read as ``kind`` (its suffix says how they are read: TOML or JSON)."""
    return _key(f"{kind} file {name.rsplit('.', 1)[-1].lower()}", content)


def _key(kind: str, content: bytes) -> str:
    h = hashlib.sha256(code_fingerprint())
    h.update(b"\0" + kind.encode("utf-8") + b"\0")
    h.update(content)
    return h.hexdigest()


def _folder() -> Path:
    return paths.user_cache_dir() / FOLDER


def remembered_file(path: Path, kind: str, check: Callable[[], T]) -> T:
    """``check()``, reading and checking the file at ``path`` as ``kind``, or the value it gave when a file of these
    very bytes was checked before: neither read as TOML or JSON nor checked again. A file that cannot be read is
    left to ``check``, which says why; ``check`` raises for a broken file, and then nothing is kept."""
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode) or st.st_size > LARGEST:
            return check()
        content = path.read_bytes()
    except OSError:
        return check()
    return _remembered(lambda: file_key(kind, path.name, content), check)


def _remembered(key: Callable[[], str], check: Callable[[], T]) -> T:
    try:
        path = _folder() / f"{key()}.pickle"
    except (OSError, RuntimeError):        # no home folder to keep anything in: check as always
        return check()
    try:
        with open(path, "rb") as f:
            kept: T = pickle.load(f)
        return kept
    except FileNotFoundError:
        pass
    except UNREADABLE:     # a kept value cut short or unreadable: checked again below
        pass
    value = check()
    _keep(path, value)
    return value


def _keep(path: Path, value: object) -> None:
    """Write ``value`` at ``path`` whole or not at all; a folder that cannot be written only costs the next start."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # lazy: a start that reads its files back writes nothing, and tempfile brings shutil and random with it
        import tempfile

        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        _prune(path.parent)
    except (OSError, pickle.PicklingError):
        pass


def _prune(folder: Path) -> None:
    kept = [e for e in os.scandir(folder) if e.name.endswith(".pickle")]
    if len(kept) <= KEEP:
        return
    kept.sort(key=lambda e: e.stat().st_mtime_ns)
    for e in kept[: len(kept) - KEEP]:
        try:
            os.unlink(e.path)
        except OSError:
            pass
