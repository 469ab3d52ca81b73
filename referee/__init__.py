"""Referee assistant for the miniatures wargame 7 Seconds (playtest rules v0.81)."""

__version__ = "0.1.0"
