"""Campaigns (p.31, A44, A45, A47): battles won, campaign points, the winning streak, tech points and upgrades.

A campaign file records what happened (battles and purchases); every total is derived from it, so the file can
never disagree with itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from ...rules.campaign_upgrades import check_upgrade, tech_points_after_battle
from ...rules.errors import InputError
from ...rules.factions import Faction, Upgrade, get_faction
from ...rules.files import load
from ...rules.file_model import StrictModel as Strict
from ...rules.stats import RATING_TITLES, STAT_SHORT, Rating, StatName

TARGETS = {"short": 6, "medium": 10, "long": 20}
CAMPAIGN_POINTS = {"marginal": 1, "normal": 2, "decisive": 3}
STREAK_TO_WIN = 4
STREAK_EFFECTS = {
    0: "no bonus",
    1: "+1 on the attacker/defender roll",
    2: "+2 on the attacker/defender roll; draw an extra Troop card and choose",
    3: "+3 on the attacker/defender roll; draw an extra Mission card and an extra Troop card and choose",
}


class Player(Strict):
    name: str = ""
    faction: str


class BattleRecord(Strict):
    winner: Literal["A", "B"] | None = None            # None: a draw (A44)
    level: Literal["marginal", "normal", "decisive", "draw"] = "draw"
    control: Literal["A", "B"] | None = None             # who Controlled the Table
    save: str | None = None
    note: str = ""
    # Taken from the battle itself when it was played with the program (absent for a typed result):
    vp: dict[Literal["A", "B"], int] | None = None
    margin: int | None = None
    attacker: Literal["A", "B"] | None = None            # None: a Chance Encounter
    objectives: dict[str, str] | None = None              # objective id -> "A", "B", "contested" or "destroyed"
    missions: dict[Literal["A", "B"], str] | None = None
    # Which battle it was (``campaign_battle.battle_fingerprint``), so that the same battle is never recorded twice
    battle: str | None = Field(default=None, pattern=r"^[0-9a-f]{16}$")


class Purchase(Strict):
    side: Literal["A", "B"]
    rating: Rating
    stat: StatName
    after_battle: int = Field(ge=1)


class Campaign(Strict):
    name: str = "Campaign"
    length: Literal["short", "medium", "long"] = "short"
    players: dict[Literal["A", "B"], Player]
    battles: list[BattleRecord] = []
    purchases: list[Purchase] = []


@dataclass
class SideStatus:
    campaign_points: int = 0
    streak: int = 0
    tech_points: int = 0
    faction: Faction | None = None
    explain: list[str] = field(default_factory=list)

    def the_faction(self) -> Faction:
        """The side's faction (a campaign whose factions cannot be read is refused before anyone asks)."""
        if self.faction is None:
            raise ValueError("this side's faction was not read")
        return self.faction


@dataclass
class CampaignStatus:
    sides: dict[str, SideStatus]
    winner: str | None
    why_won: str
    explain: list[str]

    def streak_bonus(self, side: str) -> int:
        return min(self.sides[side].streak, 3)


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def status(c: Campaign, base_dir: Path | None = None, source: str = "campaign") -> CampaignStatus:
    """Replays the campaign: after each battle the points, streaks and tech points, then that battle's purchases."""
    sides: dict[str, SideStatus] = {}
    problems = []
    for s in ("A", "B"):
        if s not in c.players:
            problems.append(f"players.{s}: required key is missing (side {s}'s player and faction)")
            continue
        try:
            sides[s] = SideStatus(faction=get_faction(c.players[s].faction, base_dir))
        except InputError as e:
            problems.extend(f"players.{s}.faction: {p}" for p in e.problems)
    if problems:
        raise InputError(source, problems)
    explain: list[str] = []
    winner, why = None, ""
    target = TARGETS[c.length]
    explain.append(f"{c.length} campaign: the first to {target} campaign points, or a winning streak of {STREAK_TO_WIN}, wins [p.31]")
    for n, b in enumerate(c.battles, start=1):
        if winner:
            problems.append(f"battles[{n - 1}]: the campaign was already won by side {winner} after an earlier battle")
            break
        if (b.winner is None) != (b.level == "draw"):
            problems.append(f"battles[{n - 1}]: a winner needs a level (marginal, normal, decisive); a draw has no winner")
            continue
        if b.winner:
            cp = CAMPAIGN_POINTS[b.level]
            w, l = sides[b.winner], sides[other(b.winner)]
            w.campaign_points += cp
            w.streak += 1
            l.streak = 0
            explain.append(f"battle {n}: side {b.winner} wins ({b.level}): +{cp} campaign points, streak {w.streak}; "
                           f"side {other(b.winner)}'s streak resets [p.31]")
        else:
            explain.append(f"battle {n}: a draw: no campaign points, streaks unchanged [A44]")
        for s in ("A", "B"):
            pts, _ = tech_points_after_battle(b.control == s)
            sides[s].tech_points += pts
        explain.append(f"battle {n}: tech points +1 each for taking part" +
                       (f", +1 to side {b.control} for Controlling the Table" if b.control else "") + " [p.31]")
        for i, p in enumerate(c.purchases):
            if p.after_battle != n:
                continue
            me, them = sides[p.side], sides[other(p.side)]
            if me.faction is None:          # both sides' factions were read above, or the campaign was refused
                raise ValueError(f"side {p.side} has no faction")
            check = check_upgrade(me.faction, p.rating, p.stat, them.faction, me.tech_points)
            if not check.allowed:
                problems.append(f"purchases[{i}]: {check.reason}")
                continue
            me.tech_points -= check.cost
            me.faction = me.faction.model_copy(update={"upgrades": [*me.faction.upgrades, Upgrade(
                rating=p.rating, stat=p.stat, cost=check.cost, battle=n)]})
            explain.append(f"after battle {n}: side {p.side} raises {RATING_TITLES[p.rating]} {STAT_SHORT[p.stat]} to "
                           f"{check.raised_to} for {check.cost} tech points ({me.tech_points} left) [p.31, A45]")
        for s in ("A", "B"):
            if sides[s].campaign_points >= target:
                winner, why = s, f"side {s} reaches {sides[s].campaign_points} campaign points (target {target}) [p.31]"
            elif sides[s].streak >= STREAK_TO_WIN:
                winner, why = s, f"side {s} wins {STREAK_TO_WIN} battles in a row [p.31]"
    for i, p in enumerate(c.purchases):
        if p.after_battle > len(c.battles):
            problems.append(f"purchases[{i}].after_battle: only {len(c.battles)} battles are recorded")
    if problems:
        raise InputError(source, problems)
    if winner:
        explain.append(f"the campaign is won: {why}")
    return CampaignStatus(sides, winner, why, explain)


def load_campaign(path: Path | str) -> tuple[Campaign, CampaignStatus]:
    path = Path(path)
    c = load(Campaign, path)
    return c, status(c, path.parent, str(path))


def campaign_data(c: Campaign) -> dict[str, Any]:
    return c.model_dump(mode="json", exclude_none=True, exclude_defaults=False)
