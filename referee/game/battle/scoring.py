"""Victory Points from a mission card and the battle's final state, and the victory level (p.16, p.~14, A41, A44).

The game engine fills a ``BattleOutcome`` when the battle ends (after the end-of-game objective states of p.16 have
been settled). ``score_mission`` totals one side's own mission card against it: "each player receives Victory Points
only from their own mission card" [p.16]. ``victory`` compares the two totals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, Mapping, Sequence

from ...rules.catalogue import type_title
from ...rules.explain import Step, Working
from .cards import KIND_TITLES, MissionCard, ScoringRule, objective_ids

Side = Literal["A", "B"]
SIDES = ("A", "B")
Control = Literal["contested", "A", "B"]
VictoryLevel = Literal["draw", "marginal", "normal", "decisive"]

MARGINAL_MAX = 5       # "Winning by 5 or fewer Victory Points is a marginal victory" [p.~14]
DECISIVE_MIN = 20      # "Winning by 20 or more points is a decisive victory" [p.~14]
CAMPAIGN_POINTS = {"draw": 0, "marginal": 1, "normal": 2, "decisive": 3}   # p.31, A44


def other(side: str) -> str:
    return "B" if side == "A" else "A"


@dataclass(frozen=True)
class ObjectiveOutcome:
    """An objective's final state (A41): who holds it, whether it was destroyed, its Target Counters."""

    control: Control = "contested"
    destroyed: bool = False
    target_counters: int = 0

    def __post_init__(self) -> None:
        if self.control not in ("contested", "A", "B"):
            raise ValueError(f"objective control must be 'contested', 'A' or 'B' (got {self.control!r})")
        if self.target_counters < 0:
            raise ValueError(f"target_counters cannot be negative (got {self.target_counters})")


@dataclass(frozen=True)
class BattleOutcome:
    """What scoring needs from a finished battle.

    * ``objectives``: objective id -> final state (empty in a Chance Encounter);
    * ``table_control``: the side that Controls the Table, or None when the Table is Contested;
    * ``attacker``: the attacking side, or None in a Chance Encounter;
    * ``destroyed_enemies``: side -> the opponent's units destroyed during the battle, whoever destroyed them, as
      ``(unit_type, is_drone)``;
    * ``surviving_troopers``: side -> the unit types of that side's own troopers alive at the end, on the table or
      in the Holding Area.
    """

    objectives: Mapping[str, ObjectiveOutcome] = field(default_factory=dict)
    table_control: Side | None = None
    attacker: Side | None = None
    destroyed_enemies: Mapping[str, Sequence[tuple[str, bool]]] = field(default_factory=dict)
    surviving_troopers: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("table_control", "attacker"):
            v = getattr(self, name)
            if v is not None and v not in SIDES:
                raise ValueError(f"{name} must be 'A', 'B' or None (got {v!r})")
        objectives = {}
        for oid, o in self.objectives.items():
            objectives[oid] = o if isinstance(o, ObjectiveOutcome) else ObjectiveOutcome(**o)
        for name in ("destroyed_enemies", "surviving_troopers"):
            for side in getattr(self, name):
                if side not in SIDES:
                    raise ValueError(f"{name} keys must be 'A' or 'B' (got {side!r})")
        object.__setattr__(self, "objectives", MappingProxyType(objectives))
        object.__setattr__(self, "destroyed_enemies", MappingProxyType({
            s: tuple((str(t), bool(d)) for t, d in self.destroyed_enemies.get(s, ())) for s in SIDES}))
        object.__setattr__(self, "surviving_troopers", MappingProxyType({
            s: tuple(self.surviving_troopers.get(s, ())) for s in SIDES}))

    def enemy_troopers_destroyed(self, side: str) -> tuple[str, ...]:
        return tuple(t for t, is_drone in self.destroyed_enemies[side] if not is_drone)

    def enemy_drones_destroyed(self, side: str) -> tuple[str, ...]:
        return tuple(t for t, is_drone in self.destroyed_enemies[side] if is_drone)

    def own_troopers_destroyed(self, side: str) -> tuple[str, ...]:
        """A side's own losses are the units its opponent counts as destroyed enemies."""
        return self.enemy_troopers_destroyed(other(side))


@dataclass(frozen=True)
class RuleScore:
    """One Victory Points rule of the card, as scored: how many times it was met and the VP it gave."""

    number: int           # 1-based, as the rule is listed on the card
    rule: ScoringRule
    count: int
    vp: int


@dataclass(frozen=True)
class ScoreResult:
    side: str
    mission: str
    vp: int
    rules: tuple[RuleScore, ...]
    explain: tuple[Step, ...]


def _listing(names: Sequence[str]) -> str:
    return ", ".join(names) if names else "none"


def _unit_names(types: Sequence[str]) -> list[str]:
    return [type_title(t) for t in types]


def _count_rule(mission: MissionCard, rule: ScoringRule, side: str, outcome: BattleOutcome) -> tuple[int, str]:
    """How many times the rule is met, and what was seen (for the explanation)."""
    enemy = other(side)
    cond = rule.condition
    if rule.spec.counts == "objective":
        wanted = objective_ids(rule.objective)
        present = [o for o in wanted if o in outcome.objectives]
        if not present:
            return 0, f"no {', '.join(wanted)} objective on the table"
        threshold = mission.inspected_counters
        met: list[str] = []
        for oid in present:
            o = outcome.objectives[oid]
            if cond == "objective-secured":
                ok = not o.destroyed and o.control == side
            elif cond == "objective-destroyed":
                ok = o.destroyed
            elif cond == "objective-inspected":
                ok = not o.destroyed and o.target_counters >= threshold
            elif cond == "objective-uninspected":
                ok = not o.destroyed and o.target_counters < threshold
            elif cond == "objective-intact":
                ok = not o.destroyed
            else:  # pragma: no cover - the condition set is closed
                raise AssertionError(cond)
            if ok:
                met.append(oid)
        detail = f"{_listing(met)} of {', '.join(present)}"
        if cond in ("objective-inspected", "objective-uninspected"):
            tcs = ", ".join(f"{oid} {outcome.objectives[oid].target_counters}" for oid in present)
            detail += f" (Target Counters: {tcs}; Inspected at {threshold})"
        return len(met), detail
    if rule.spec.counts == "unit":
        if cond == "enemy-trooper-destroyed":
            pool = outcome.enemy_troopers_destroyed(side)
            seen = "enemy troopers destroyed"
        elif cond == "enemy-drone-destroyed":
            pool = outcome.enemy_drones_destroyed(side)
            seen = "enemy drones destroyed"
        elif cond == "own-trooper-survives":
            pool = tuple(outcome.surviving_troopers[side])
            seen = "own troopers surviving"
        elif cond == "own-trooper-destroyed":
            pool = outcome.own_troopers_destroyed(side)
            seen = "own troopers destroyed"
        else:  # pragma: no cover
            raise AssertionError(cond)
        matching = [t for t in pool if rule.unit_type is None or t == rule.unit_type]
        detail = f"{seen}: {_listing(_unit_names(pool))}"
        if rule.unit_type is not None:
            detail += f"; {type_title(rule.unit_type)}: {len(matching)}"
        return len(matching), detail
    # once
    if cond == "enemy-commander-destroyed":
        hit = "commander" in outcome.enemy_troopers_destroyed(side)
        return int(hit), "the enemy Commander was destroyed" if hit else "the enemy Commander was not destroyed"
    if cond == "no-own-losses":
        lost = outcome.own_troopers_destroyed(side)
        return int(not lost), ("no trooper of yours was destroyed" if not lost
                               else f"troopers of yours destroyed: {_listing(_unit_names(lost))}")
    if cond == "control-table":
        ctrl = outcome.table_control
        return int(ctrl == side), ("you Control the Table" if ctrl == side else
                                   "the Table is Contested" if ctrl is None else f"side {enemy} Controls the Table")
    if cond == "table-contested":
        ctrl = outcome.table_control
        return int(ctrl is None), ("the Table is Contested" if ctrl is None else f"side {ctrl} Controls the Table")
    raise AssertionError(cond)  # pragma: no cover


def mission_vp(mission: MissionCard, side: str, outcome: BattleOutcome) -> int:
    """The Victory Points ``side`` earns from its own mission card, as ``score_mission`` counts them, without the
    working: the computer weighs every mission the opponent may hold in every state it imagines."""
    total = 0
    for rule in mission.vp_rules:
        count, _ = _count_rule(mission, rule, side, outcome)
        if rule.max_count is not None and count > rule.max_count:
            count = rule.max_count
        total += count * rule.vp
    return total


def score_mission(mission: MissionCard, side: str, outcome: BattleOutcome) -> ScoreResult:
    """The Victory Points ``side`` earns from its own mission card (p.16), rule by rule, with the working."""
    if side not in SIDES:
        raise ValueError(f"side must be 'A' or 'B' (got {side!r})")
    why = Working()
    why.add(f"side {side} reveals mission '{mission.title}' ({KIND_TITLES[mission.kind]}, Troop line "
            f"{mission.troop_line}) and scores only from its own card", "p.16")
    expected_role = {"offence": "attacker", "defence": "defender"}.get(mission.kind)
    actual_role = (None if outcome.attacker is None else "attacker" if outcome.attacker == side else "defender")
    if expected_role != actual_role:
        role = "the battle had no attacker" if actual_role is None else f"side {side} was the {actual_role}"
        article = "an" if mission.kind == "offence" else "a"
        why.add(f"warning: {role}, but this is {article} {KIND_TITLES[mission.kind]} mission", "p.~15")
    rules: list[RuleScore] = []
    total = 0
    for n, rule in enumerate(mission.vp_rules, start=1):
        count, detail = _count_rule(mission, rule, side, outcome)
        capped = ""
        if rule.max_count is not None and count > rule.max_count:
            capped = f", counted up to {rule.max_count}"
            count = rule.max_count
        vp = count * rule.vp
        total += vp
        rules.append(RuleScore(n, rule, count, vp))
        if rule.spec.counts == "once":
            sums = f"{rule.vp:+d} VP" if count else "0 VP"
        else:
            sums = f"{count} x {rule.vp:+d} = {vp:+d} VP"
        why.add(f'rule {n} "{rule.describe()}": {detail}{capped} -> {sums}',
                f"{mission.id} rule {n}", *rule.spec.sources)
    why.add(f"side {side} total: {total} VP", "p.16")
    return ScoreResult(side, mission.id, total, tuple(rules), why.freeze())


@dataclass(frozen=True)
class VictoryResult:
    winner: Side | None       # None on a tie
    margin: int
    level: VictoryLevel
    explain: tuple[Step, ...]

    @property
    def campaign_points(self) -> int:
        """Campaign Points for the winner: marginal 1, normal 2, decisive 3 (p.31); a draw gives none (A44)."""
        return CAMPAIGN_POINTS[self.level]


def victory_level(margin: int) -> VictoryLevel:
    margin = abs(margin)
    if margin == 0:
        return "draw"
    if margin <= MARGINAL_MAX:
        return "marginal"
    if margin < DECISIVE_MIN:
        return "normal"
    return "decisive"


def victory(vp_a: int, vp_b: int) -> VictoryResult:
    """Who won and how well: the highest VP wins; by 1-5 marginal, 6-19 normal, 20+ decisive [p.~14]; equal VP is
    a draw (A44)."""
    why = Working()
    margin = abs(vp_a - vp_b)
    why.add(f"side A {vp_a} VP, side B {vp_b} VP: the highest total wins", "p.~14")
    level = victory_level(margin)
    if level == "draw":
        why.add("equal totals (margin 0) are not covered by the rules: the battle is a draw, no Campaign Points, "
                "both winning streaks unchanged", "A44")
        return VictoryResult(None, 0, "draw", why.freeze())
    winner: Side = "A" if vp_a > vp_b else "B"
    band = {"marginal": f"{MARGINAL_MAX} or fewer", "normal": f"6-{DECISIVE_MIN - 1}",
            "decisive": f"{DECISIVE_MIN} or more"}[level]
    why.add(f"side {winner} wins by {margin} VP; winning by {band} is a {level} victory", "p.~14")
    return VictoryResult(winner, margin, level, why.freeze())


@dataclass(frozen=True)
class BattleScore:
    scores: Mapping[str, ScoreResult]     # side -> its own mission's score
    victory: VictoryResult

    @property
    def explain(self) -> tuple[Step, ...]:
        return (*self.scores["A"].explain, *self.scores["B"].explain, *self.victory.explain)


def score_battle(mission_a: MissionCard, mission_b: MissionCard, outcome: BattleOutcome) -> BattleScore:
    """Both sides' missions scored against the same outcome, then the victory level (p.16, p.~14)."""
    a = score_mission(mission_a, "A", outcome)
    b = score_mission(mission_b, "B", outcome)
    return BattleScore(MappingProxyType({"A": a, "B": b}), victory(a.vp, b.vp))
