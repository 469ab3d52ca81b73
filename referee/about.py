"""The program's name and version as installed (the package metadata, read only when asked)."""

from __future__ import annotations

PROG = "seven-seconds"
DISTRIBUTION = "seven-seconds-referee"


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:          # run from a source tree that was never installed
        return "unknown (not installed)"
