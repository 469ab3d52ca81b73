"""A faction being made or upgraded: the state behind the faction editor, in plain Python (no pygame).

The created lines are held the way the rulebook builds them (p.30): Reserve is all 1s plus the points added to it,
Veteran is Reserve plus its points, Spec Ops is Veteran plus its points. So a stat raised in Reserve is raised in the
lines above it too, Reserve <= Veteran <= Spec Ops holds by construction, and the points left in each line are
``6 - points added`` (ruling A46). A change the rules forbid (a seventh point, a stat above 5, a line below the one
before) is refused with the rule, and the draft stays as it was.

Whether the draft is a valid faction is decided by the same checker the ``faction`` command uses
(``faction_io.faction_problems``); campaign purchases by ``campaign_upgrades.check_upgrade`` (p.31, A45). This module
adds no rule of its own beyond refusing the edits those checkers would reject.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..rules.campaign_upgrades import UpgradeCheck, apply_upgrade, check_upgrade
from ..rules.catalogue import unit_types
from ..rules.factions import (CREATION_POINTS, EMBLEMS, STAT_MAX, STAT_MIN, Colours, Faction, Upgrade,
                              creation_problems)
from ..rules.stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT
from .faction_io import faction_problems
from ..rules.units import unit_stats

TROOPER_STATS = STAT_NAMES[:5]          # troopers use the first five stats; drones only Robotics [p.~11]


def _no_points() -> dict[str, dict[str, int]]:
    return {r: {s: 0 for s in STAT_NAMES} for r in RATINGS}


@dataclass
class FactionDraft:
    """Header fields as typed, the points added per rating and stat, and the campaign upgrades bought."""

    id: str = ""
    name: str = ""
    lore: str = ""
    primary: str = Colours().primary
    secondary: str = Colours().secondary
    emblem: str = EMBLEMS[0]
    added: dict[str, dict[str, int]] = field(default_factory=_no_points)
    upgrades: list[Upgrade] = field(default_factory=list)

    # ---- making one -------------------------------------------------------------------------------------------
    @classmethod
    def from_faction(cls, faction: Faction) -> "FactionDraft":
        added = {}
        below = {s: STAT_MIN for s in STAT_NAMES}
        for rating in RATINGS:
            line = faction.created.line(rating)
            added[rating] = {s: line.get(s) - below[s] for s in STAT_NAMES}
            below = {s: line.get(s) for s in STAT_NAMES}
        return cls(id=faction.id, name=faction.name, lore=faction.lore, primary=faction.colours.primary,
                   secondary=faction.colours.secondary, emblem=faction.emblem, added=added,
                   upgrades=list(faction.upgrades))

    # ---- the created lines --------------------------------------------------------------------------------------
    def value(self, rating: str, stat: str) -> int:
        """The created value: 1 plus the points added in this rating and every rating below it."""
        upto = RATINGS.index(rating) + 1
        return STAT_MIN + sum(self.added[r][stat] for r in RATINGS[:upto])

    def line(self, rating: str) -> dict[str, int]:
        return {s: self.value(rating, s) for s in STAT_NAMES}

    def points_added(self, rating: str) -> int:
        return sum(self.added[rating].values())

    def points_left(self, rating: str) -> int:
        """Points still to add in this rating (negative when too many were added, which only a file can do)."""
        return CREATION_POINTS - self.points_added(rating)

    def locked_reason(self) -> str:
        if self.upgrades:
            n = len(self.upgrades)
            return (f"the created lines are fixed once campaign upgrades are bought ({n} here); change the stats "
                    f"with upgrades, or undo the upgrades first [A46, A45]")
        return ""

    def raise_refusal(self, rating: str, stat: str) -> str:
        """Why +1 to ``stat`` in ``rating`` is not allowed ('' when it is)."""
        if self.locked_reason():
            return self.locked_reason()
        title = RATING_TITLES[rating]
        if self.points_left(rating) <= 0:
            return f"{title} has no points left: each rating adds exactly {CREATION_POINTS} [p.30, A46]"
        for r in RATINGS[RATINGS.index(rating):]:
            if self.value(r, stat) + 1 > STAT_MAX:
                carried = "" if r == rating else f" (a point added to {title} is carried up to {RATING_TITLES[r]})"
                return (f"{RATING_TITLES[r]} {STAT_SHORT[stat]} would be {self.value(r, stat) + 1}; no stat may be "
                        f"above {STAT_MAX}{carried} [p.30]")
        return ""

    def lower_refusal(self, rating: str, stat: str) -> str:
        """Why -1 to ``stat`` in ``rating`` is not allowed ('' when it is)."""
        if self.locked_reason():
            return self.locked_reason()
        if self.added[rating][stat] <= 0:
            title = f"{RATING_TITLES[rating]} {STAT_SHORT[stat]}"
            if rating == RATINGS[0]:
                return f"{title} is {self.value(rating, stat)}: every stat starts at {STAT_MIN} [p.30]"
            below = RATINGS[RATINGS.index(rating) - 1]
            return (f"{title} is already the {RATING_TITLES[below]} value {self.value(rating, stat)}: a rating "
                    f"starts from the one before [p.30]")
        return ""

    def raise_stat(self, rating: str, stat: str) -> str:
        """Add a point; returns '' when done, else the rule that refused it (the draft is unchanged)."""
        refusal = self.raise_refusal(rating, stat)
        if not refusal:
            self.added[rating][stat] += 1
        return refusal

    def lower_stat(self, rating: str, stat: str) -> str:
        refusal = self.lower_refusal(rating, stat)
        if not refusal:
            self.added[rating][stat] -= 1
        return refusal

    # ---- as a faction ----------------------------------------------------------------------------------------
    def data(self) -> dict[str, Any]:
        """The draft as a faction file's data (what ``faction validate`` would read)."""
        data: dict[str, Any] = {"id": self.id, "name": self.name, "lore": self.lore, "emblem": self.emblem,
                "colours": {"primary": self.primary, "secondary": self.secondary},
                "created": {r: self.line(r) for r in RATINGS}}
        if self.upgrades:
            data["upgrades"] = [u.model_dump(exclude_none=True) for u in self.upgrades]
        return data

    def check(self) -> tuple[Faction | None, list[str]]:
        """The faction, or None and every problem, from the checker ``faction validate`` uses."""
        return faction_problems(self.data(), "faction editor")

    def preview(self) -> Faction | None:
        """A faction to show derived stats and the emblem with, even while a header field is still wrong."""
        data = self.data()
        data["id"] = "preview"
        data["name"] = self.name if self.name.strip() else "Unnamed"
        if self.emblem not in EMBLEMS:
            data["emblem"] = EMBLEMS[0]
        for key, default in (("primary", Colours().primary), ("secondary", Colours().secondary)):
            try:
                Colours(**{key: data["colours"][key]})
            except ValueError:
                data["colours"][key] = default
        try:
            return Faction.model_validate(data, strict=True)
        except ValueError:
            return None

    def current(self, rating: str, stat: str) -> int:
        """The stat with the campaign upgrades applied."""
        return self.value(rating, stat) + sum(1 for u in self.upgrades if u.rating == rating and u.stat == stat)

    # ---- campaign upgrades (p.31, A45) ----------------------------------------------------------------------------
    def upgrade_blocker(self) -> str:
        """Why no upgrade can be bought yet ('' when the created lines are valid)."""
        faction = self.preview()
        if faction is None:
            return "the faction cannot be read yet"
        if any(p.startswith("created.") for p in creation_problems(faction)):
            return "finish the created lines first: upgrades are bought for a valid faction [p.31, A46]"
        return ""

    def check_purchase(self, rating: str, stat: str, opponent: Faction | None = None,
                       tech_points: int | None = None) -> UpgradeCheck | str:
        """The campaign rules' verdict on +1 (cost, halving, caps, points left), or why nothing can be bought."""
        blocker = self.upgrade_blocker()
        if blocker:
            return blocker
        faction = self.preview()
        if faction is None:                 # upgrade_blocker says so first
            return "the faction cannot be read yet"
        return check_upgrade(faction, rating, stat, opponent, tech_points)

    def buy(self, rating: str, stat: str, opponent: Faction | None = None, tech_points: int | None = None,
            battle: int | None = None) -> UpgradeCheck | str:
        """Buy +1 if the campaign rules allow it; returns the check (``allowed`` says whether it was recorded)."""
        check = self.check_purchase(rating, stat, opponent, tech_points)
        if isinstance(check, str) or not check.allowed:
            return check
        faction = self.preview()
        if faction is None:
            return "the faction cannot be read yet"
        bought = apply_upgrade(faction, rating, stat, opponent, tech_points, battle)
        self.upgrades.append(bought.upgrades[-1])
        return check

    def undo_upgrade(self) -> Upgrade | None:
        """Take back the last purchase (it is removed from the record); None when there is none."""
        return self.upgrades.pop() if self.upgrades else None


# ----------------------------------------------------------------------------------------------------------------
# The derived unit stats (ruling A5)


def unit_rows(faction: Faction) -> list[tuple[str, dict[str, list[str]]]]:
    """(unit name, rating -> shown values) for each trooper type and the drones, via ``unit_stats`` (A5).

    Troopers show Sen/Stl/Arm/CM/Nuc ('-' for the Nuc of a type with no missile); the drones row shows Robotics.
    """

    types = unit_types()
    rows = []
    for key, trooper in types.troopers.items():
        per = {}
        for rating in RATINGS:
            st = unit_stats(faction, rating, key).stats
            per[rating] = [("-" if s == "nuclear" and not trooper.missile else str(st.get(s))) for s in TROOPER_STATS]
        rows.append((trooper.name, per))
    first_drone = next(iter(types.drones))
    rows.append(("Drones (Rob)", {r: [str(unit_stats(faction, r, first_drone).stats.robotics)] for r in RATINGS}))
    return rows


def modified_stats() -> dict[str, set[str]]:
    """Unit name -> the stats its type raises (A5), to mark them in tables."""
    return {t.name: set(t.modifiers) for t in unit_types().troopers.values()}


def modifier_note() -> str:
    parts = []
    for trooper in unit_types().troopers.values():
        if trooper.modifiers:
            parts.append(f"{trooper.name} " + ", ".join(f"{v:+d} {STAT_SHORT[s]}" for s, v in trooper.modifiers.items()))
    return "; ".join(parts)
