"""The program's name and version as installed (the package metadata, read only when asked)."""

from __future__ import annotations

PROG = "seven-seconds"
DISTRIBUTION = "seven-seconds-referee"


def version() -> str:
    # lazy: importlib.metadata is slow to load, and only the version asks it
    from importlib.metadata import PackageNotFoundError
    # lazy: importlib.metadata is slow to load, and only the version asks it
    from importlib.metadata import version as installed

    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:          # run from a source tree that was never installed
        return "unknown (not installed)"
