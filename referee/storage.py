"""Writing data files atomically: a crash half-way leaves the old file whole."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import tomli_w


def atomic_write_text(path: Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """``atomic_write_text`` for a binary file (a PDF, a picture)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
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
        atomic_write_text(path, tomli_w.dumps(data))
