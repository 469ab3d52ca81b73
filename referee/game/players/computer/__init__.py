"""A computer opponent that plays from its own player view only (``player.Computer``); see ``docs/computer.md``."""

from .levels import LEVELS, Level
from .player import Computer, Decision

__all__ = ["Computer", "Decision", "LEVELS", "Level"]
