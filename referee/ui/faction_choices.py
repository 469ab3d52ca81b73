"""Faction files that cannot be used, said wherever factions are chosen (battle set-up, faction editor, table
editor), and card files left out, said where cards are drawn or entered, so a broken file is never silently missing
from a list (no pygame here)."""

from __future__ import annotations

from pathlib import Path

from ..rules.factions import unusable_faction_files
from ..game.battle.cards import user_deck_problems


def left_out() -> dict[Path, str]:
    """Each unusable faction file with the reason, in one line: its first problem (and how many more)."""
    try:
        files = unusable_faction_files()
    except OSError as e:               # an unreadable folder is itself the reason
        return {Path(e.filename or "factions"): f"cannot be read ({e.strerror or e})"}
    out = {}
    for path, problems in files.items():
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        out[path] = (problems[0] if problems else "cannot be used") + more
    return out


def left_out_lines() -> list[str]:
    return [f"{path.name}: {why}" for path, why in left_out().items()]


def card_problem_lines() -> list[str]:
    """The user's card files that are left out, each with its reason, and what is played instead: said where cards
    are drawn or entered, so a broken card file never closes the window nor hides a card silently."""

    try:
        problems = user_deck_problems()
    except OSError as e:
        return [f"{e.filename or 'cards'}: cannot be read ({e.strerror or e})"]
    return [p.replace(str(Path.home()), "~") for p in problems]
