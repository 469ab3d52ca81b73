"""The program's log: a file under the user's log folder (``paths.user_log_dir``), so that a window started from an
icon, whose standard error nobody reads, leaves a report of what failed, its traceback included.

``start_log_file()`` is called once by the window; ``failure(what)`` records the exception being handled. Before the
file is started (a command, a test) a failure still reaches standard error through Python's last-resort handler.
"""

from __future__ import annotations

import logging
from pathlib import Path

from . import paths

LOGGER = logging.getLogger("referee")
LOG_NAME = "seven-seconds.log"
_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_file() -> Path:
    return paths.user_log_dir() / LOG_NAME


def start_log_file() -> Path | None:
    """Send the program's log to its file (rotated at 1 MB, three kept) and to standard error; the file's path, or
    None when it cannot be written (the log then goes to standard error alone: a log is never a reason not to
    start)."""
    path = log_file()
    for handler in LOGGER.handlers:
        if isinstance(handler, logging.FileHandler) and Path(handler.baseFilename) == path.resolve():
            return path
    LOGGER.setLevel(logging.INFO)
    if not any(type(h) is logging.StreamHandler for h in LOGGER.handlers):
        console = logging.StreamHandler()
        console.setLevel(logging.WARNING)
        console.setFormatter(logging.Formatter("seven-seconds: %(message)s"))
        LOGGER.addHandler(console)
    # lazy: the rotating handler's module (sockets, queues, threads) serves only a window that keeps its log file
    from logging.handlers import RotatingFileHandler

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    except OSError as e:
        LOGGER.warning("the log file %s cannot be written (%s)", path, e.strerror or e)
        return None
    handler.setFormatter(logging.Formatter(_FORMAT))
    LOGGER.addHandler(handler)
    return path


def stop_log_file() -> None:
    """Close the log's handlers (the end of the window; tests that start one)."""
    for handler in list(LOGGER.handlers):
        LOGGER.removeHandler(handler)
        handler.close()


def failure(what: str) -> None:
    """Record the exception being handled, with its traceback: ``what`` says what was being done."""
    LOGGER.error(what, exc_info=True)
