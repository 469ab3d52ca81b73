"""Faction files: checking one with every problem at once, writing one as TOML, saving it without ever leaving half a file.

A faction file records the lines as created (p.30, ruling A46) and the campaign upgrades bought since (p.31, A45).
``faction_to_toml`` writes the same layout as the bundled files, and what it writes loads back equal with
``load_faction``. ``save_faction`` writes to a temporary file in the target folder, syncs it and renames it over the
target (``storage.atomic_write_text``), so a crash leaves either the old file or the new one.
"""

from __future__ import annotations

import re

from pathlib import Path
from typing import Any

import tomli_w
from pydantic import ValidationError

from .. import paths
from ..rules.errors import InputError, pydantic_problems
from ..rules.factions import Faction, creation_problems, forget_factions
from ..rules.files import read_document
from ..rules.stats import RATINGS, STAT_NAMES
from ..storage import atomic_write_text

HEADER = (
    "# 7 Seconds faction. Stats are 1 to 5, in the order Sen/Stl/Arm/CM/Nuc/Rob. Each created line adds exactly 6\n"
    "# points to the one before it (Reserve to all 1s) [p.30, A46]; upgrades are campaign purchases [p.31, A45].\n"
)


# ----------------------------------------------------------------------------------------------------------------
# Checking


def faction_problems(data: dict, source: str = "faction") -> tuple[Faction | None, list[str]]:
    """The faction, or None with every problem of ``data`` (a parsed faction file), at once.

    Values must have the right type exactly (``sensors = "2"`` is a problem, not 2). When only the header keys are
    wrong (a bad colour, a misspelt key), the stat lines and upgrades are still checked against the rules, so one run
    reports everything.
    """
    try:
        faction = Faction.model_validate(data, strict=True)
    except ValidationError as e:
        problems = pydantic_problems(e)
        bad_keys = {str(err["loc"][0]) for err in e.errors() if err.get("loc")}
        if isinstance(data, dict) and not bad_keys & {"created", "upgrades", "(top level)"}:
            problems.extend(_rule_problems_despite(data, bad_keys))
        return None, problems
    problems = creation_problems(faction)
    return (None, problems) if problems else (faction, [])


def _rule_problems_despite(data: dict, bad_keys: set[str]) -> list[str]:
    """Rule problems of the lines when some header keys are broken: the broken keys are replaced by placeholders."""
    known = set(Faction.model_fields)
    repaired = {k: v for k, v in data.items() if k in known and k not in bad_keys}
    repaired.setdefault("id", "placeholder")
    repaired.setdefault("name", "placeholder")
    try:
        faction = Faction.model_validate(repaired, strict=True)
    except ValidationError:
        return []
    return creation_problems(faction)


def check_faction_file(path: Path | str) -> tuple[Faction | None, list[str]]:
    """A faction file's faction, or None with every problem (an unreadable file gives one problem)."""
    try:
        data = read_document(path)
    except InputError as e:
        return None, e.problems
    return faction_problems(data, str(path))


UNKNOWN_KEY = ": unknown key (not part of the format)"


def _drop(data: Any, item: str) -> bool:
    """Remove the key named by a problem's item ("units[2].colour") from ``data``; False when it is not there."""
    parts = re.findall(r"[^.\[\]]+|\[\d+\]", item)
    here = data
    for part in parts[:-1]:
        if part.startswith("["):
            index = int(part[1:-1])
            if not isinstance(here, list) or index >= len(here):
                return False
            here = here[index]
        elif isinstance(here, dict) and part in here:
            here = here[part]
        else:
            return False
    last = parts[-1] if parts else ""
    if isinstance(here, dict) and last in here:
        del here[last]
        return True
    return False


def check_faction_file_to_fix(path: Path | str) -> tuple[Faction | None, list[str], list[str]]:
    """As ``check_faction_file``, but a file whose only problems are unknown keys (a later version's, a typo) opens
    without them, to be fixed and saved: the faction, its problems (none then) and the keys left out."""
    try:
        data = read_document(path)
    except InputError as e:
        return None, e.problems, []
    faction, problems = faction_problems(data, str(path))
    if faction is not None and not problems:
        return faction, [], []
    unknown = [p[: -len(UNKNOWN_KEY)] for p in problems if p.endswith(UNKNOWN_KEY)]
    if not problems or len(unknown) != len(problems) or not all(_drop(data, item) for item in unknown):
        return faction, problems, []
    faction, problems = faction_problems(data, str(path))
    return faction, problems, unknown


def faction_from_data(data: dict[str, Any], source: str = "faction") -> Faction:
    """The faction described by ``data``; raises InputError naming ``source`` and listing every problem."""
    faction, problems = faction_problems(data, source)
    if problems or faction is None:
        raise InputError(source, problems or ["(top level): expected a faction"])
    return faction


# ----------------------------------------------------------------------------------------------------------------
# Writing


def _toml_value(value) -> str:
    """One TOML value written by tomli_w (strings are escaped correctly)."""
    return tomli_w.dumps({"v": value}).split("=", 1)[1].strip()


def _stat_line(line) -> str:
    return "{ " + ", ".join(f"{s} = {line.get(s)}" for s in STAT_NAMES) + " }"


def faction_to_toml(faction: Faction) -> str:
    """The faction as a TOML document in the bundled files' layout; ``load_faction`` reads it back equal."""
    out = [HEADER]
    out.append(f"id = {_toml_value(faction.id)}")
    out.append(f"name = {_toml_value(faction.name)}")
    out.append(f"lore = {_toml_value(faction.lore)}")
    out.append(f"emblem = {_toml_value(faction.emblem)}")
    out.append(
        f"colours = {{ primary = {_toml_value(faction.colours.primary)}, "
        f"secondary = {_toml_value(faction.colours.secondary)} }}"
    )
    out.append("")
    out.append("[created]")
    width = max(len(r) for r in RATINGS)
    for rating in RATINGS:
        out.append(f"{rating:<{width}} = {_stat_line(faction.created.line(rating))}")
    text = "\n".join(out) + "\n"
    for up in faction.upgrades:
        text += "\n[[upgrades]]\n" + "".join(
            f"{key} = {_toml_value(value)}\n" for key, value in up.model_dump(exclude_none=True).items()
        )
    return text


def default_faction_path(faction: Faction) -> Path:
    """Where a custom faction is saved unless told otherwise: the user's factions folder, named by its id."""
    return paths.user_factions_dir() / f"{faction.id}.toml"


def save_faction(faction: Faction, path: Path | str | None = None, *, overwrite: bool = False) -> Path:
    """Write ``faction`` to ``path`` (default: the user's factions folder, ``<id>.toml``) and return the path.

    The faction must pass the creation and upgrade rules. An existing file holding a different faction (or anything
    that is not this faction) is never replaced unless ``overwrite`` is true; saving the same faction again is fine.
    A file saved in the user's factions folder is listed by ``faction_files()`` straight away.
    """
    target = Path(path) if path is not None else default_faction_path(faction)
    if target.suffix.lower() != ".toml":
        raise InputError(str(target), "expected a file name ending in .toml")
    problems = creation_problems(faction)
    if problems:
        raise InputError(f"faction {faction.id!r}", problems)
    text = faction_to_toml(faction)
    if target.exists() and not overwrite:
        if target.is_dir():
            raise InputError(str(target), "is a folder, expected a faction file name")
        existing, _ = check_faction_file(target)
        if existing != faction:
            what = f"faction {existing.id!r}" if existing is not None else "a file that is not this faction"
            raise InputError(
                str(target),
                f"already exists and holds {what}; not replaced (choose another file, or overwrite it on purpose)",
            )
        if target.read_text(encoding="utf-8") == text:
            return target
    try:
        atomic_write_text(target, text)
    except OSError as e:
        raise InputError(str(target), f"cannot be written ({e.strerror or e})") from None
    forget_factions()
    return target
