"""Factions: the three rating lines as created (p.30, ruling A46) plus their campaign upgrades (A45)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from .. import paths
from .errors import InputError
from .checked import remembered_file
from .files import load_kept
from .model import Field, Strict, field_validator
from .stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT, Rating, StatLine, StatName
from .files import read_document

STAT_MIN, STAT_MAX = 1, 5
CREATION_POINTS = 6
UPGRADE_COST = {"reserve": 2, "veteran": 4, "spec-ops": 6}
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


COLOUR_PATTERN = re.compile(r"^#[0-9a-fA-F]{6}$")


class Colours(Strict):
    primary: str = "#3c6e9f"
    secondary: str = "#f0f0f0"

    @field_validator("primary", "secondary")
    @classmethod
    def _hex_colour(cls, value: str) -> str:
        if not COLOUR_PATTERN.match(value):
            # lazy: a validator runs only when pydantic checks a file, and pydantic has loaded it then
            from pydantic_core import PydanticCustomError

            raise PydanticCustomError("colour", "expected # and six hex digits, like #3c6e9f")
        return value


class RatingLines(Strict):
    reserve: StatLine
    veteran: StatLine
    spec_ops: StatLine = Field(alias="spec-ops")

    def line(self, rating: str) -> StatLine:
        stats: StatLine = getattr(self, rating.replace("-", "_"))
        return stats


class Upgrade(Strict):
    """One campaign purchase: +1 to one stat of one rating (p.31)."""

    rating: Rating
    stat: StatName
    cost: int = Field(ge=1, description="tech points paid (halved when the opponent's stat was higher)")
    battle: int | None = Field(default=None, ge=1)


class Faction(Strict):
    id: str
    name: str
    lore: str = ""
    # The default colours, made as they are: validating them would build the model's validator on every start.
    colours: Colours = Colours.model_construct()
    emblem: str = "chevron"
    created: RatingLines
    upgrades: list[Upgrade] = []

    @field_validator("name")
    @classmethod
    def _has_a_name(cls, value: str) -> str:
        if not value.strip():
            # lazy: as in Colours._hex_colour
            from pydantic_core import PydanticCustomError

            raise PydanticCustomError("name", "expected a name (not empty or only spaces)")
        return value

    def stats(self, rating: str) -> StatLine:
        """Current stats of a rating: the created line with every upgrade applied."""
        line = self.created.line(rating)
        for up in self.upgrades:
            if up.rating == rating:
                line = line.raised(up.stat)
        return line

    def current(self) -> dict[str, StatLine]:
        return {r: self.stats(r) for r in RATINGS}


EMBLEMS = ("chevron", "star", "circle", "diamond", "cross", "bolt")


def creation_problems(faction: Faction) -> list[str]:
    """Every way the faction breaks the creation rules (p.30, A46) or the upgrade rules (p.31, A45), all at once."""
    problems: list[str] = []
    if not ID_PATTERN.match(faction.id):
        problems.append(f"id: expected lower-case words joined by '-', like 'new-tokyo' (got {faction.id!r})")
    if faction.emblem not in EMBLEMS:
        problems.append(f"emblem: expected one of {', '.join(EMBLEMS)} (got {faction.emblem!r})")
    previous_total = len(STAT_NAMES) * STAT_MIN
    previous = None
    for rating in RATINGS:
        line = faction.created.line(rating)
        key = f"created.{rating}"
        for stat in STAT_NAMES:
            v = line.get(stat)
            if not STAT_MIN <= v <= STAT_MAX:
                problems.append(f"{key}.{stat}: expected {STAT_MIN} to {STAT_MAX} (got {v}) [p.30]")
            if previous is not None and v < previous[1].get(stat):
                problems.append(
                    f"{key}.{stat}: {RATING_TITLES[rating]} {STAT_SHORT[stat]} {v} is below "
                    f"{RATING_TITLES[previous[0]]} {previous[1].get(stat)}; each rating builds on the one before [p.30]"
                )
        spent = line.total() - previous_total
        if spent != CREATION_POINTS:
            base = "all 1s" if previous is None else RATING_TITLES[previous[0]]
            problems.append(
                f"{key}: expected exactly {CREATION_POINTS} points added to {base}, "
                f"this line adds {spent} (sum {line.total()}, expected {previous_total + CREATION_POINTS}) [p.30, A46]"
            )
        previous_total = line.total()
        previous = (rating, line)
    problems.extend(upgrade_problems(faction))
    return problems


def upgrade_problems(faction: Faction) -> list[str]:
    """Replays the upgrade history: each +1 must keep the stat at most 5 and Reserve <= Veteran <= Spec Ops (A45)."""
    problems: list[str] = []
    lines = {r: faction.created.line(r) for r in RATINGS}
    for i, up in enumerate(faction.upgrades):
        key = f"upgrades[{i}]"
        raised = lines[up.rating].raised(up.stat)
        v = raised.get(up.stat)
        full = UPGRADE_COST[up.rating]
        if v > STAT_MAX:
            problems.append(f"{key}: {RATING_TITLES[up.rating]} {STAT_SHORT[up.stat]} would be {v}, the maximum is {STAT_MAX} [p.31, A45]")
        idx = RATINGS.index(up.rating)
        if idx + 1 < len(RATINGS):
            higher = RATINGS[idx + 1]
            if v > lines[higher].get(up.stat):
                problems.append(
                    f"{key}: {RATING_TITLES[up.rating]} {STAT_SHORT[up.stat]} would be {v}, above "
                    f"{RATING_TITLES[higher]} {lines[higher].get(up.stat)} [p.31, A45]"
                )
        if up.cost not in (full, full // 2):
            problems.append(f"{key}.cost: expected {full} (or {full // 2} when halved) for a {RATING_TITLES[up.rating]} stat (got {up.cost}) [p.31]")
        lines[up.rating] = raised
    return problems


def load_faction(path: Path | str) -> Faction:
    faction = load_kept(Faction, path)
    problems = creation_problems(faction)
    if problems:
        raise InputError(str(path), problems)
    return faction


def faction_dirs() -> list[Path]:
    return [paths.DATA_DIR / "factions", paths.user_factions_dir()]


@lru_cache(maxsize=None)
def _load_cached(path: str, mtime_ns: int, size: int) -> Faction:
    return load_faction(path)


def _load_current(p: Path) -> Faction:
    """The faction in ``p`` as the file is now (a file rewritten since is read again)."""
    st = p.stat()
    return _load_cached(str(p), st.st_mtime_ns, st.st_size)


_FILES: dict[str, Path] | None = None


def forget_factions() -> None:
    """Call after a faction file was written, so the next lookup sees it."""
    global _FILES
    _FILES = None
    _load_cached.cache_clear()


def faction_files() -> dict[str, Path]:
    """Faction id -> file, bundled first; a user's file of the same id takes precedence."""
    global _FILES
    if _FILES is None:
        _FILES = _scan_faction_files()
    return dict(_FILES)


def _scan_faction_files() -> dict[str, Path]:
    """Each file under its name (a user's file replaces a bundled one of the same name); a file whose own ``id``
    differs from its name (a hand-made or renamed file) is found by that id too, when no file has it as its name."""
    found: dict[str, Path] = {}
    for d in faction_dirs():
        if d.is_dir():
            for p in sorted(list(d.glob("*.toml")) + list(d.glob("*.json"))):
                found[p.stem] = p
    for p in list(found.values()):
        inner = _inner_id(p)
        if inner and inner != p.stem and inner not in found:
            found[inner] = p
    return found


def _inner_id(p: Path) -> str | None:
    try:
        return remembered_file(p, "faction id", lambda: _read_id(p))
    except (InputError, OSError, AttributeError):
        return None


def _read_id(p: Path) -> str | None:
    value = read_document(p).get("id")
    return value if isinstance(value, str) and ID_PATTERN.match(value) else None


def get_faction(ref: str, base_dir: Path | None = None) -> Faction:
    """A faction by id (bundled or the user's) or by file path (relative to ``base_dir``)."""
    files = faction_files()
    if ref not in files:
        forget_factions()    # a file saved since the last scan (by this or another program)
        files = faction_files()
    if ref in files:
        p = files[ref]
    else:
        p = Path(ref)
        if base_dir is not None and not p.is_absolute():
            p = base_dir / p
        try:
            is_file = p.suffix in (".toml", ".json") and p.is_file()
        except OSError:         # a name the file system refuses (too long, ...): no such faction file
            is_file = False
        if not is_file:
            known = ", ".join(sorted(files)) or "none"
            raise InputError(ref, f"unknown faction {ref!r} (expected one of {known}, or a faction file path)")
    return _load_current(p)


def all_factions() -> list[Faction]:
    return [get_faction(i) for i in faction_files()]


def available_factions() -> list[Faction]:
    """Every usable faction as the folders hold them now: bundled and custom, read fresh (no stale list).

    Call it whenever a faction list is shown (set-up, the editor): a faction saved a moment ago, by this program or
    another, is in it. Ordered by id; a custom file with a bundled id replaces the bundled faction. Files that fail
    the rules are left out; ``unusable_faction_files`` says why.
    """
    forget_factions()
    files = faction_files()
    out = []
    for p in sorted(set(files.values()), key=lambda q: (q.stem, str(q))):
        try:
            faction = _load_current(p)
        except (InputError, OSError):
            continue
        if files.get(faction.id) == p:        # get_faction(faction.id) finds this very file
            out.append(faction)
    return sorted(out, key=lambda f: f.id)


def unusable_faction_files() -> dict[Path, list[str]]:
    """Faction files in the folders that cannot be used, each with every problem (read fresh)."""
    files = _scan_faction_files()
    out = {}
    for p in sorted(set(files.values())):
        try:
            faction = load_faction(p)
        except InputError as e:
            out[p] = list(e.problems)
            continue
        if files.get(faction.id) != p:
            out[p] = [f"id: {faction.id!r} is already the name of {files[faction.id]}; rename one of them"]
    return out
