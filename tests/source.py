"""The package's own source files, each read and parsed once per test process.

Several tests scan every module of the package (the import rules, the action kinds, the lazy imports, the scene
parts); parsing the ~280 files costs about a second, so the scans share one parse.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import referee

PACKAGE = Path(referee.__file__).resolve().parent


@cache
def source_files() -> tuple[Path, ...]:
    """Every module of the package, in a fixed order."""
    return tuple(sorted(PACKAGE.rglob("*.py")))


@cache
def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@cache
def tree_of(path: Path) -> ast.Module:
    """The module's syntax tree. Shared: a scan must not change it."""
    return ast.parse(text_of(path))
