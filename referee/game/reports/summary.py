"""A finished battle on one page: sides, missions, the margin, the units lost and the turning points.

Built from the end-of-battle view (``view.referee_view`` of a battle that is over, which is also what each player
sees then), so it can hold nothing a player could not already see in the end-of-battle report. ``summary_lines``
is the text; ``ui/summary_page.py`` draws the same summary as a PNG.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...rules.catalogue import type_title
from ...rules.errors import InputError
from ...rules.factions import get_faction
from ..battle.sides import SIDES
from ..views.view_types import PlayerView
from ..battle.cards import bundled_deck, playing_deck

# Log events that change the course of a battle: a unit destroyed, a blip revealed, an objective taken or lost.
TURNING = (
    ("kill", re.compile(r"^(\S+) is destroyed \((.+)\)$")),
    ("objective", re.compile(r"^objective (\S+) is (Secured by side [AB]|destroyed).*$")),
    ("reveal", re.compile(r"^(\S+) is revealed (?!.*: a decoy, removed).*$")),
)


@dataclass
class Summary:
    name: str
    rounds: int
    mode: str
    attacker: str | None
    factions: dict[str, str]
    missions: dict[str, str]
    vp: dict[str, int]
    winner: str | None
    level: str
    margin: int
    control: str | None
    lost: dict[str, list[str]]
    turning_points: list[tuple[int, str, str]] = field(default_factory=list)   # (round, kind, text)
    no_result: str = ""         # a mission kept on the mat and never entered: the VP known, no winner named
    unknown: tuple[str, ...] = ()     # the sides whose mission was never entered

    def headline(self) -> str:
        if self.no_result:
            return self.no_result
        if self.winner is None:
            return f"A draw, {self.vp['A']} VP each (A44)"
        return (f"Side {self.winner} ({self.factions[self.winner]}) wins, {self.vp['A']} VP to {self.vp['B']}: "
                f"a {self.level} victory by {self.margin} [p.~14]")

    def lines(self) -> list[str]:
        roles = ("Chance Encounter" if self.attacker is None else
                 f"side {self.attacker} attacks, side {'B' if self.attacker == 'A' else 'A'} defends")
        out = [f"{self.name}: {self.rounds} round{'s' if self.rounds != 1 else ''}, {roles}", self.headline(),
               "Table: " + ("Contested" if self.control is None else f"Controlled by side {self.control}"), ""]
        for side in SIDES:
            lost = ", ".join(self.lost[side]) or "none"
            kept = "kept on the mat (not entered)" if self.mode == "table" else "none"
            vp = "VP not known" if side in self.unknown else f"{self.vp[side]} VP"
            out.append(f"Side {side}: {self.factions[side]}; mission {self.missions.get(side, kept)}; "
                       f"{vp}; lost {lost}")
        out.append("")
        out.append("Turning points:")
        if not self.turning_points:
            out.append("  none: no unit destroyed, no blip revealed, no objective taken")
        for rnd, _, text in self.turning_points:
            out.append(f"  round {rnd}: {text}")
        return out


def _mission_title(ident: str | None) -> str:
    if not ident:
        return "none"

    for deck in (playing_deck(), bundled_deck()):
        try:
            return deck.mission(ident).title
        except InputError:          # not in this deck: the other one, or the id itself
            continue
    return ident


def _faction_names(view: PlayerView) -> dict[str, str]:
    ids: dict[str, set[str]] = {s: set() for s in SIDES}
    for u in view.get("units", []):
        ids[u["side"]].add(u["faction"])
    for side, squares in (view.get("holding") or {}).items():
        for contents in (squares or {}).values():
            for c in contents or []:
                ids[side].add(c["faction"])
    names = {}
    for side in SIDES:
        found = []
        for ident in sorted(ids[side]):
            try:
                found.append(get_faction(ident).name)
            except InputError:
                found.append(ident)
        names[side] = ", ".join(found) or f"side {side}"
    return names


def battle_summary(view: PlayerView) -> Summary:
    """The summary of a finished battle from its end-of-battle view."""
    result = view.get("result") or {}
    if view.get("phase") != "over" or "winner" not in result:
        raise InputError(view.get("name", "battle"), "a summary is made once the battle is over and scored [p.16]")
    lost: dict[str, list[str]] = {s: [] for s in SIDES}
    for d in view.get("destroyed", []):
        lost[d["side"]].append(f"{type_title(d['type'])} ({d['id']}, round {d.get('round', '?')})")
    turning = []
    for e in view.get("log", []):
        text = e["text"]
        for kind, pattern in TURNING:
            if pattern.match(text):
                turning.append((int(e.get("round", 0)), kind, text))
                break
    missions = {s: _mission_title(m) for s, m in (view.get("missions") or {}).items() if m}
    return Summary(
        name=view.get("name", "battle"), rounds=int(view.get("round", 1)), mode=view.get("mode", ""),
        attacker=view.get("attacker"), factions=_faction_names(view), missions=missions,
        vp={s: int(result["vp"][s]) for s in SIDES}, winner=result["winner"], level=result["level"],
        margin=int(result["margin"]), control=result.get("control"), lost=lost, turning_points=turning,
        no_result=str(result.get("headline") or "") if result.get("missions_unknown") else "",
        unknown=tuple(result.get("missions_unknown") or ()),
    )
