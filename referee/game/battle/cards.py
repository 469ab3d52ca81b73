"""Mission, Troop and Drone cards as validated data files, and decks of them (p.~9, p.~15, ruling A42).

The rulebook describes the three card types but lists none of them, so cards are data: a deck is a folder of TOML or
JSON files holding ``[[mission]]``, ``[[troop]]`` and ``[[drone]]`` cards and one ``[drone_prices]`` table (the
Chance Encounter purchase costs). The program ships an unofficial sample deck in ``data/cards/``; a group that owns
the official cards types them into the user's cards folder and plays with those instead.

Every problem in a deck is reported at once, each naming the file, the card and what was expected.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Iterable, Literal, Mapping, TypeVar

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from ... import paths
from ...rules.catalogue import type_title, unit_types
from ...rules.errors import InputError, pydantic_problems
from ...rules.files import read_document
from ...rules.file_model import StrictModel as Strict
from ...rules.scenario import OBJECTIVE_IDS
from ...rules.stats import RATING_TITLES, Rating

MissionKind = Literal["offence", "defence", "chance-encounter"]
MISSION_KINDS: tuple[str, ...] = ("offence", "defence", "chance-encounter")
KIND_TITLES = {"offence": "Offence", "defence": "Defence", "chance-encounter": "Chance Encounter"}
TroopLineId = Literal["A", "B", "C"]
DroneLineId = Literal["X", "Y", "Z"]
TROOP_LINES = ("A", "B", "C")
DRONE_LINES = ("X", "Y", "Z")

ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# Figures per player needed "to play all missions" [p.~6]; no card line may ask for more.
FIGURE_POOL: dict[str, int] = {
    "commander": 1, "tactical": 4, "scout": 2, "assault": 2, "engineer": 1,
    "basic-drone": 5, "kamikaze-drone": 4, "haywire-drone": 4, "recce-drone": 3,
}
HOLDING_SQUARES = 16          # the Holding Area mat [p.~10]
UNITS_PER_SQUARE = 2
HOLDING_AREA_UNITS = HOLDING_SQUARES * UNITS_PER_SQUARE

DEFAULT_INSPECTED_COUNTERS = 10   # "Inspected (10 Target Counters on each)" [p.16, A41]

# Objectives of an attack/defence game [p.~8, p.~15]: red ones are placed by the defender, blue by the attacker.
OBJECTIVE_GROUPS = {"red": ("alpha", "beta", "gamma"), "blue": ("delta", "epsilon")}
OBJECTIVE_SYMBOLS = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε"}


def _error(message: str) -> PydanticCustomError:
    return PydanticCustomError("card", message)


def _trooper_types() -> list[str]:
    return list(unit_types().troopers)


def _drone_types() -> list[str]:
    return list(unit_types().drones)


def objective_ids(ref: str | None) -> tuple[str, ...]:
    """The objectives a scoring rule's ``objective`` names: one id, a colour group, or (None) all five."""
    if ref is None:
        return OBJECTIVE_IDS
    if ref in OBJECTIVE_GROUPS:
        return OBJECTIVE_GROUPS[ref]
    return (ref,)


def objective_name(ref: str | None) -> str:
    if ref is None:
        return "objective"
    if ref in OBJECTIVE_GROUPS:
        return f"{ref} objective ({', '.join(OBJECTIVE_GROUPS[ref])})"
    return f"objective {ref} ({OBJECTIVE_SYMBOLS.get(ref, ref)})"


# ---- scoring conditions ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    """One kind of machine-scorable victory condition.

    ``counts`` says what is counted: ``objective`` (each matching objective), ``unit`` (each matching unit) or
    ``once`` (the condition holds or not). ``unit_kind`` says which unit types ``unit_type`` may name.
    """

    name: str
    counts: Literal["objective", "unit", "once"]
    meaning: str
    phrase: str                 # completes "N VP per <item> ..." or "N VP if ..."
    sources: tuple[str, ...]
    unit_kind: Literal["trooper", "drone"] | None = None
    needs_objectives: bool = False


CONDITIONS: dict[str, Condition] = {c.name: c for c in (
    Condition("objective-secured", "objective",
              "each matching objective that is not destroyed and is Secured by the scoring side at the end",
              "Secured by you", ("p.~12", "p.16", "A41"), needs_objectives=True),
    Condition("objective-destroyed", "objective",
              "each matching objective that was destroyed (missile direct hit or Kamikaze contact, or chosen by an "
              "attacker who Controls the Table)",
              "Destroyed", ("p.16", "A41"), needs_objectives=True),
    Condition("objective-inspected", "objective",
              "each matching objective that is not destroyed and carries at least the card's inspected_counters "
              "Target Counters (10 unless the card says otherwise)",
              "Inspected", ("p.16", "A41"), needs_objectives=True),
    Condition("objective-uninspected", "objective",
              "each matching objective that is not destroyed and carries fewer Target Counters than the card's "
              "inspected_counters",
              "neither destroyed nor Inspected", ("p.16", "A41"), needs_objectives=True),
    Condition("objective-intact", "objective",
              "each matching objective that is not destroyed at the end, whoever holds it",
              "not destroyed", ("p.16", "A41"), needs_objectives=True),
    Condition("enemy-trooper-destroyed", "unit",
              "each enemy trooper destroyed during the battle (only troopers of unit_type, if given)",
              "enemy {unit} destroyed", ("p.16",), unit_kind="trooper"),
    Condition("enemy-drone-destroyed", "unit",
              "each enemy drone destroyed during the battle (only drones of unit_type, if given)",
              "enemy {unit} destroyed", ("p.16",), unit_kind="drone"),
    Condition("enemy-commander-destroyed", "once",
              "the enemy Commander was destroyed during the battle",
              "the enemy Commander is destroyed", ("p.16",)),
    Condition("own-trooper-survives", "unit",
              "each of the scoring side's troopers alive at the end, on the table or in the Holding Area "
              "(only troopers of unit_type, if given)",
              "{unit} of yours surviving", ("p.16",), unit_kind="trooper"),
    Condition("own-trooper-destroyed", "unit",
              "each of the scoring side's troopers destroyed during the battle (only troopers of unit_type, if given); "
              "usually a negative vp, the 'pseudo-morale' of the designer's notes",
              "{unit} of yours destroyed", ("p.16",), unit_kind="trooper"),
    Condition("no-own-losses", "once",
              "none of the scoring side's troopers was destroyed (drones do not count)",
              "you lose no trooper", ("p.16",)),
    Condition("control-table", "once",
              "the scoring side Controls the Table at the end",
              "you Control the Table", ("p.16",)),
    Condition("table-contested", "once",
              "the battle ends with the Table Contested (neither side Controls it)",
              "the Table is Contested", ("p.16",)),
)}


class ScoringRule(Strict):
    """One line of a mission card's Victory Points list: ``{ condition = "...", vp = N, ... }``."""

    condition: str
    vp: int = Field(strict=True)
    objective: str | None = None
    unit_type: str | None = None
    max_count: int | None = Field(default=None, strict=True, ge=1)
    text: str = ""

    @field_validator("condition")
    @classmethod
    def _known_condition(cls, v: str) -> str:
        if v not in CONDITIONS:
            raise _error(f"unknown condition; expected one of {', '.join(CONDITIONS)}")
        return v

    @field_validator("vp")
    @classmethod
    def _non_zero(cls, v: int) -> int:
        if v == 0:
            raise _error("expected a whole number of victory points other than 0 (negative for a penalty)")
        return v

    @model_validator(mode="after")
    def _parameters_fit(self) -> "ScoringRule":
        cond = CONDITIONS[self.condition]
        problems = []
        if self.objective is not None:
            if cond.counts != "objective":
                problems.append(f"'objective' does not apply to condition {self.condition!r} (only to objective-...)")
            elif self.objective not in OBJECTIVE_IDS and self.objective not in OBJECTIVE_GROUPS:
                problems.append(
                    f"objective {self.objective!r}: expected one of {', '.join(OBJECTIVE_IDS)}, 'red' "
                    f"(alpha, beta, gamma) or 'blue' (delta, epsilon)"
                )
        if self.unit_type is not None:
            if cond.unit_kind is None:
                problems.append(f"'unit_type' does not apply to condition {self.condition!r}")
            else:
                allowed = _trooper_types() if cond.unit_kind == "trooper" else _drone_types()
                if self.unit_type not in allowed:
                    problems.append(
                        f"unit_type {self.unit_type!r}: condition {self.condition!r} counts "
                        f"{cond.unit_kind}s, expected one of {', '.join(allowed)}"
                    )
        if self.max_count is not None and cond.counts == "once":
            problems.append(f"'max_count' does not apply to condition {self.condition!r}, which scores once")
        if problems:
            raise _error("; ".join(problems))
        return self

    @property
    def spec(self) -> Condition:
        return CONDITIONS[self.condition]

    def describe(self) -> str:
        """The rule as a card would print it: ``+8 VP per blue objective (delta, epsilon) Destroyed``."""
        if self.text:
            return self.text
        cond = self.spec
        unit = "trooper" if cond.unit_kind == "trooper" else "drone"
        if self.unit_type is not None:
            unit = type_title(self.unit_type)
        phrase = cond.phrase.format(unit=unit)
        if cond.counts == "objective":
            name = objective_name(self.objective)
            if self.objective in OBJECTIVE_IDS:
                return f"{self.vp:+d} VP if {name} is {phrase}"
            phrase = f"{name} {phrase}"
        if cond.counts == "once":
            return f"{self.vp:+d} VP if {phrase}"
        limit = f" (at most {self.max_count})" if self.max_count is not None else ""
        return f"{self.vp:+d} VP per {phrase}{limit}"


# ---- the cards ------------------------------------------------------------------------------------------------


class _CardBase(Strict):
    id: str
    title: str = Field(min_length=1)

    @field_validator("id")
    @classmethod
    def _id_pattern(cls, v: str) -> str:
        if not ID_PATTERN.match(v):
            raise _error("expected lower-case words joined by '-', like 'night-raid'")
        return v


class MissionCard(_CardBase):
    """Title, flavour text, the Troop Line to use and the Victory Points list [p.~9]. Hidden until the end."""

    flavour: str
    kind: MissionKind
    troop_line: TroopLineId
    vp_rules: list[ScoringRule] = Field(min_length=1)
    round_limit: int | None = Field(default=None, strict=True, ge=1, description="A43: no limit unless set")
    inspected_counters: int = Field(default=DEFAULT_INSPECTED_COUNTERS, strict=True, ge=1)
    sample: bool = False

    @model_validator(mode="after")
    def _fits_kind(self) -> "MissionCard":
        if self.kind == "chance-encounter":
            bad = [f"vp_rules[{i}] ({r.condition})" for i, r in enumerate(self.vp_rules) if r.spec.needs_objectives]
            if bad:
                raise _error(
                    f"a Chance Encounter uses no objectives [p.~12], so {', '.join(bad)} can never score; "
                    "expected unit or table conditions"
                )
        return self

    def short(self) -> str:
        return f"{self.title} ({KIND_TITLES[self.kind]}, Troop line {self.troop_line})"

    def inspection_note(self, oid: str, was: int, now: int) -> str | None:
        """The word to this card's side that objective ``oid``'s Target counters, going from ``was`` to ``now``,
        have just reached the number this card counts it Inspected (or not) from (A41); None when this card does not
        count ``oid`` so, or the number was not reached now. The engine says it for a side whose card it holds
        (``missions.inspection_notes``); a side that keeps its card on its own computer says it there."""
        counts = any(r.condition in ("objective-inspected", "objective-uninspected") and oid in objective_ids(r.objective)
                     for r in self.vp_rules)
        if not counts or not was < self.inspected_counters <= now:
            return None
        return (f"objective {oid} now has {now} Target counters: Inspected for your mission ({self.title}), which "
                f"counts it so from {self.inspected_counters} [A41]")


class TrooperCount(Strict):
    type: str
    count: int = Field(strict=True, ge=1)

    @field_validator("type")
    @classmethod
    def _trooper(cls, v: str) -> str:
        if v not in _trooper_types():
            drone = " (drones come from the Drone card)" if v in _drone_types() else ""
            raise _error(f"expected a trooper type: {', '.join(_trooper_types())}{drone}")
        return v


class DroneCount(Strict):
    type: str
    count: int = Field(strict=True, ge=1)

    @field_validator("type")
    @classmethod
    def _drone(cls, v: str) -> str:
        if v not in _drone_types():
            raise _error(f"expected a drone type: {', '.join(_drone_types())}")
        return v


def units_text(units: Iterable[TrooperCount | DroneCount]) -> str:
    """``1 Commander, 4 Tactical`` / ``3 Basic drones``."""
    parts = []
    for u in units:
        title = type_title(u.type)
        parts.append(f"{u.count} {title}{'s' if u.count > 1 and title.endswith('drone') else ''}")
    return ", ".join(parts)


def _totals(units: Iterable[TrooperCount | DroneCount]) -> Counter[str]:
    totals: Counter[str] = Counter()
    for u in units:
        totals[u.type] += u.count
    return totals


def pool_problems(totals: Mapping[str, int]) -> list[str]:
    """Counts beyond one player's figure pool [p.~6] or the Holding Area's 16 squares x 2 units [p.~10]."""
    problems = []
    for unit_type, n in totals.items():
        limit = FIGURE_POOL.get(unit_type)
        if limit is not None and n > limit:
            problems.append(f"{n} x {type_title(unit_type)}, but a player's figure pool has {limit} [p.~6]")
    total = sum(totals.values())
    if total > HOLDING_AREA_UNITS:
        problems.append(
            f"{total} units do not fit the Holding Area ({HOLDING_SQUARES} squares x {UNITS_PER_SQUARE} units "
            f"= {HOLDING_AREA_UNITS}) [p.~10]"
        )
    return problems


class TroopLine(Strict):
    """One squad configuration of a Troop card [p.~9]: its rating, its troopers and the Drone card line to use."""

    rating: Rating
    units: list[TrooperCount] = Field(min_length=1)
    drone_line: DroneLineId
    drone_points: int = Field(strict=True, ge=0, description="Chance Encounter drone budget [p.~15, A42]")

    @model_validator(mode="after")
    def _fits_pool(self) -> "TroopLine":
        problems = pool_problems(self.totals())
        if problems:
            raise _error("; ".join(problems))
        return self

    def totals(self) -> Counter[str]:
        return _totals(self.units)

    def trooper_count(self) -> int:
        return sum(u.count for u in self.units)

    def describe(self) -> str:
        return units_text(self.units)


class TroopLines(Strict):
    A: TroopLine
    B: TroopLine
    C: TroopLine


class TroopCard(_CardBase):
    """Three squad configurations A/B/C; the mission card's Troop Line picks one [p.~9]."""

    lines: TroopLines
    note: str = ""
    sample: bool = False

    def line(self, letter: str) -> TroopLine:
        line: TroopLine = getattr(self.lines, letter)
        return line


class DroneLine(Strict):
    """One drone configuration. Written either as a bare list of ``{type, count}`` or as a table with ``units`` and
    an optional ``rating``; without one the drones use the force's rating (A48)."""

    rating: Rating | None = None
    units: list[DroneCount] = []

    @model_validator(mode="before")
    @classmethod
    def _bare_list(cls, data: object) -> object:
        if isinstance(data, list):
            return {"units": data}
        return data

    @model_validator(mode="after")
    def _fits_pool(self) -> "DroneLine":
        problems = pool_problems(self.totals())
        if problems:
            raise _error("; ".join(problems))
        return self

    def totals(self) -> Counter[str]:
        return _totals(self.units)

    def drone_count(self) -> int:
        return sum(u.count for u in self.units)

    def describe(self) -> str:
        text = units_text(self.units) or "no drones"
        if self.rating:
            text += f" ({RATING_TITLES[self.rating]})"
        return text


class DroneLines(Strict):
    X: DroneLine
    Y: DroneLine
    Z: DroneLine


class DroneCard(_CardBase):
    """Three drone configurations X/Y/Z; the Troop line names which one is issued [p.~9]."""

    lines: DroneLines
    note: str = ""
    sample: bool = False

    def line(self, letter: str) -> DroneLine:
        line: DroneLine = getattr(self.lines, letter)
        return line


class DronePrices(Strict):
    """Point cost of each drone type for Chance Encounter purchases (A42): the rulebook gives none."""

    title: str = "Drone price list"
    costs: dict[str, Annotated[int, Field(strict=True, ge=1)]]
    note: str = ""
    sample: bool = False

    @field_validator("costs")
    @classmethod
    def _every_drone_priced(cls, v: dict[str, int]) -> dict[str, int]:
        problems = []
        drones = _drone_types()
        for name in v:
            if name not in drones:
                problems.append(f"{name!r} is not a drone type (expected {', '.join(drones)})")
        missing = [d for d in drones if d not in v]
        if missing:
            problems.append(f"no price for {', '.join(missing)} (every drone type needs one)")
        if problems:
            raise _error("; ".join(problems))
        return v

    def cost(self, purchase: Mapping[str, int]) -> int:
        return sum(self.costs[t] * n for t, n in purchase.items())


Card = MissionCard | TroopCard | DroneCard
CARD_SECTIONS: dict[str, type[MissionCard] | type[TroopCard] | type[DroneCard]] = {
    "mission": MissionCard, "troop": TroopCard, "drone": DroneCard}
CardT = TypeVar("CardT", bound=_CardBase)
PRICES_SECTION = "drone_prices"


# ---- forces issued by the cards ------------------------------------------------------------------------------


@dataclass(frozen=True)
class IssuedUnit:
    type: str
    rating: Rating
    is_drone: bool


@dataclass(frozen=True)
class Force:
    """What a player's cards give him to put in the Holding Area: troopers of the line's rating, drones of the Drone
    card line (at their card rating or the force's, A48) or bought with the line's drone points (Chance Encounter)."""

    troop_card: str
    troop_line: str
    drone_card: str
    drone_line: str
    rating: Rating
    drone_points: int
    troopers: tuple[IssuedUnit, ...]
    drones: tuple[IssuedUnit, ...]

    @property
    def units(self) -> tuple[IssuedUnit, ...]:
        return self.troopers + self.drones


def purchase_problems(prices: DronePrices, line: TroopLine, purchase: Mapping[str, int]) -> list[str]:
    """Why a Chance Encounter drone purchase is not allowed: unknown types, over budget, beyond the figure pool
    or the Holding Area (A42, p.~6, p.~10). Empty when it is fine."""
    problems = []
    for t, n in purchase.items():
        if t not in prices.costs:
            problems.append(f"{t!r} is not a drone type (expected {', '.join(prices.costs)})")
        elif not isinstance(n, int) or isinstance(n, bool) or n < 0:
            problems.append(f"{t}: expected a whole number of drones, 0 or more (got {n!r})")
    if problems:
        return problems
    cost = prices.cost(purchase)
    if cost > line.drone_points:
        problems.append(f"the drones cost {cost} points, the troop line allows {line.drone_points} [p.~15, A42]")
    totals = line.totals() + Counter({t: n for t, n in purchase.items() if n})
    problems.extend(pool_problems(totals))
    return problems


def issue_force(
    troop: TroopCard,
    line: str,
    drone: DroneCard,
    prices: DronePrices | None = None,
    purchase: Mapping[str, int] | None = None,
) -> Force:
    """The units a Troop card line and a Drone card give (p.~9, A48). With ``purchase`` (a Chance Encounter, p.~15)
    the bought drones replace the Drone card line, which is the default purchase (A42)."""
    tl = troop.line(line)
    dl = drone.line(tl.drone_line)
    troopers = tuple(IssuedUnit(u.type, tl.rating, False) for u in tl.units for _ in range(u.count))
    if purchase is None:
        drone_rating = dl.rating or tl.rating
        drones = tuple(IssuedUnit(u.type, drone_rating, True) for u in dl.units for _ in range(u.count))
    else:
        if prices is None:
            raise ValueError("a drone purchase needs the deck's price list")
        problems = purchase_problems(prices, tl, purchase)
        if problems:
            raise InputError("drone purchase", problems)
        drones = tuple(IssuedUnit(t, tl.rating, True) for t, n in purchase.items() for _ in range(n))
    return Force(troop.id, line, drone.id, tl.drone_line, tl.rating, tl.drone_points, troopers, drones)


# ---- decks ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    """Every card of one folder. ``sources`` names where each card id was read (``file: mission[2]``)."""

    folder: Path
    mission_cards: tuple[MissionCard, ...]
    troop_cards: tuple[TroopCard, ...]
    drone_cards: tuple[DroneCard, ...]
    prices: DronePrices
    sources: Mapping[str, str]
    # the problems of the files left out of a deck loaded with ``leave_out_broken`` (each names its file)
    left_out: tuple[str, ...] = ()

    def missions(self, kind: str | None = None) -> tuple[MissionCard, ...]:
        """The mission cards of one kind (offence, defence or chance-encounter), or all of them."""
        if kind is not None and kind not in MISSION_KINDS:
            raise ValueError(f"unknown mission kind {kind!r} (expected {', '.join(MISSION_KINDS)})")
        return tuple(m for m in self.mission_cards if kind is None or m.kind == kind)

    @property
    def sample(self) -> bool:
        """True when every card is an unofficial sample card."""
        cards: tuple[Card, ...] = (*self.mission_cards, *self.troop_cards, *self.drone_cards)
        return all(c.sample for c in cards) and self.prices.sample

    def _find(self, cards: Iterable[CardT], card_id: str, what: str) -> CardT:
        cards = tuple(cards)
        for c in cards:
            if c.id == card_id:
                return c
        known = ", ".join(c.id for c in cards) or "none"
        what = f"{what} card" if what else "card"
        raise InputError(str(self.folder), f"no {what} {card_id!r} in this deck (expected one of {known})")

    def mission(self, card_id: str) -> MissionCard:
        return self._find(self.mission_cards, card_id, "mission")

    def troop(self, card_id: str) -> TroopCard:
        return self._find(self.troop_cards, card_id, "troop")

    def drone(self, card_id: str) -> DroneCard:
        return self._find(self.drone_cards, card_id, "drone")

    def card(self, card_id: str) -> Card:
        cards: tuple[Card, ...] = (*self.mission_cards, *self.troop_cards, *self.drone_cards)
        return self._find(cards, card_id, "")


def card_files(folder: Path | str) -> list[Path]:
    """The .toml and .json files of a deck folder and its sub-folders, in a stable order."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in (".toml", ".json"))


def _item(section: str, index: int | None, raw: object) -> str:
    where = section if index is None else f"{section}[{index}]"
    if isinstance(raw, dict) and isinstance(raw.get("id"), str):
        where += f" {raw['id']!r}"
    return where


def _inner(problem: str) -> str:
    """A problem with a whole card needs no "(top level)" once the card is named."""
    return problem.removeprefix("(top level): ")


def read_cards(path: Path, name: str | None = None) -> tuple[list[tuple[str, Card]], list[DronePrices], list[str]]:
    """One card file: its cards (each with the item that names it), its price lists, and every problem found."""
    name = name or str(path)
    cards: list[tuple[str, Card]] = []
    prices: list[DronePrices] = []
    problems: list[str] = []
    try:
        data = read_document(path)
    except InputError as e:
        return cards, prices, [f"{name}: {p}" for p in e.problems]
    if not data:
        problems.append(f"{name}: no cards (expected [[mission]], [[troop]], [[drone]] or [drone_prices])")
    for key, body in data.items():
        if key in CARD_SECTIONS:
            model = CARD_SECTIONS[key]
            entries: list[tuple[int | None, object]]
            if isinstance(body, dict):          # a single [mission] table instead of [[mission]]
                entries = [(None, body)]
            elif isinstance(body, list):
                entries = list(enumerate(body))
            else:
                problems.append(f"{name}: {key}: expected a list of {key} cards ([[{key}]] tables)")
                continue
            for index, raw in entries:
                item = _item(key, index, raw)
                if not isinstance(raw, dict):
                    problems.append(f"{name}: {item}: expected a table of keys (a {key} card)")
                    continue
                try:
                    cards.append((item, model.model_validate(raw)))
                except ValidationError as e:
                    problems.extend(f"{name}: {item}: {_inner(p)}" for p in pydantic_problems(e))
        elif key == PRICES_SECTION:
            if not isinstance(body, dict):
                problems.append(f"{name}: {key}: expected a table ([{key}]) with costs")
                continue
            try:
                prices.append(DronePrices.model_validate(body))
            except ValidationError as e:
                problems.extend(f"{name}: {key}: {_inner(p)}" for p in pydantic_problems(e))
        else:
            problems.append(
                f"{name}: {key}: unknown key (not part of the format); expected mission, troop, drone "
                f"or {PRICES_SECTION}"
            )
    return cards, prices, problems


def load_card_file(path: Path | str) -> list[Card]:
    """The cards of one file (``seven-seconds validate``); an InputError lists every problem in it."""
    path = Path(path)
    found, prices, problems = read_cards(path, path.name)
    if problems:
        raise InputError(str(path), problems)
    return [card for _, card in found]


def load_deck(folder: Path | str, *, leave_out_broken: bool = False) -> Deck:
    """Every card file in ``folder``, validated. Raises one InputError listing every problem: each bad card (file,
    item, what was expected), duplicate ids, and what a playable deck still lacks. ``leave_out_broken``: a file with
    a problem is left out instead (its problems kept in ``Deck.left_out``), and the other files make the deck."""
    folder = Path(folder)
    try:
        is_folder = folder.is_dir()
    except OSError as e:        # a name the file system refuses (too long, ...)
        raise InputError(str(folder), f"cannot be read ({e.strerror or e})") from None
    if not is_folder:
        raise InputError(str(folder), "card folder not found")
    files = card_files(folder)
    if not files:
        raise InputError(str(folder), "no card files (expected .toml or .json files of cards)")
    problems: list[str] = []
    left_out: list[str] = []
    found: list[tuple[str, str, Card]] = []
    price_lists: list[tuple[str, DronePrices]] = []
    for path in files:
        name = path.relative_to(folder).as_posix()
        cards, prices, file_problems = read_cards(path, name)
        if file_problems and leave_out_broken:
            left_out.extend(file_problems)
            continue
        problems.extend(file_problems)
        found.extend((name, item, card) for item, card in cards)
        price_lists.extend((name, p) for p in prices)

    sources: dict[str, str] = {}
    for name, item, card in found:
        where = f"{name}: {item}"
        if card.id in sources:
            problems.append(f"{where}: duplicate card id {card.id!r}, already used by {sources[card.id]}")
        else:
            sources[card.id] = where

    missions = tuple(c for _, _, c in found if isinstance(c, MissionCard))
    troops = tuple(c for _, _, c in found if isinstance(c, TroopCard))
    drones = tuple(c for _, _, c in found if isinstance(c, DroneCard))
    for kind in MISSION_KINDS:
        if not any(m.kind == kind for m in missions):
            problems.append(f"the deck has no {KIND_TITLES[kind]} mission card (kind = {kind!r}); a deck needs "
                            "at least one of each kind [p.~15]")
    if not troops:
        problems.append("the deck has no Troop card ([[troop]]); a deck needs at least one [p.~9]")
    if not drones:
        problems.append("the deck has no Drone card ([[drone]]); a deck needs at least one [p.~9]")
    if not price_lists:
        problems.append(f"the deck has no drone price list ([{PRICES_SECTION}]), needed for Chance Encounter "
                        "drone purchases [p.~15, A42]")
    elif len(price_lists) > 1:
        problems.append(f"the deck has {len(price_lists)} drone price lists ({', '.join(n for n, _ in price_lists)}); "
                        "expected exactly one")
    if problems:
        raise InputError(str(folder), left_out + problems)
    return Deck(folder, missions, troops, drones, price_lists[0][1], dict(sources), tuple(left_out))


def bundled_folder() -> Path:
    return paths.DATA_DIR / "cards"


@lru_cache(maxsize=1)
def bundled_deck() -> Deck:
    """The unofficial sample deck shipped in ``data/cards/``."""
    return load_deck(bundled_folder())


def user_deck() -> Deck | None:
    """The user's own deck (the official cards typed in), or None when the user's cards folder holds no card files.
    A broken file is left out (``Deck.left_out``) rather than stopping a battle, its set-up or its resume; if what is
    left is not a whole deck, None as well: the sample deck is played, and ``user_deck_problems`` says why."""
    folder = paths.user_cards_dir()
    if not card_files(folder):
        return None
    try:
        return load_deck(folder, leave_out_broken=True)
    except InputError:
        return None


def user_deck_problems() -> list[str]:
    """Every problem of the user's cards folder, each naming its file and what was expected, then what the program
    does about it: what the window lists beside the cards, as it lists a broken faction. Empty when all is well."""
    folder = paths.user_cards_dir()
    if not card_files(folder):
        return []
    try:
        deck = load_deck(folder, leave_out_broken=True)
    except InputError as e:
        broken = [p for path in card_files(folder) for p in read_cards(path, path.relative_to(folder).as_posix())[2]]
        lacking = [p for p in e.problems if p not in broken]
        why = "not a whole deck without them" if broken else f"not a whole deck ({'; '.join(lacking)})"
        return [*broken, f"{folder}: {why}, so the sample deck is played"]
    if deck.left_out:
        return [*deck.left_out, f"{folder}: the files above are left out; the other cards are played"]
    return []


def playing_deck() -> Deck:
    """The deck a game uses: the user's own cards when there are any, otherwise the sample deck."""
    return user_deck() or bundled_deck()


# ---- listing ------------------------------------------------------------------------------------------------


def _wrap(text: str, indent: str, width: int = 100) -> list[str]:
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(indent) + len(line) + 1 + len(w) > width:
            lines.append(indent + line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    if line:
        lines.append(indent + line)
    return lines


def mission_listing(m: MissionCard) -> list[str]:
    tag = "  [unofficial sample]" if m.sample else ""
    out = [f"{m.id}: {m.title}  (Troop line {m.troop_line}){tag}"]
    out += _wrap(f'"{m.flavour.strip()}"', "    ") if m.flavour.strip() else []
    extras = []
    if m.round_limit is not None:
        extras.append(f"round limit {m.round_limit}")
    if m.inspected_counters != DEFAULT_INSPECTED_COUNTERS:
        extras.append(f"Inspected at {m.inspected_counters} Target Counters")
    if extras:
        out.append("    " + "; ".join(extras))
    out.append("    Victory Points:")
    out += [f"      {r.describe()}" for r in m.vp_rules]
    return out


def troop_listing(t: TroopCard) -> list[str]:
    tag = "  [unofficial sample]" if t.sample else ""
    out = [f"{t.id}: {t.title}{tag}"]
    if t.note:
        out += _wrap(t.note, "    ")
    for letter in TROOP_LINES:
        line = t.line(letter)
        out.append(
            f"    {letter}  {RATING_TITLES[line.rating]}: {line.describe()} ({line.trooper_count()} troopers); "
            f"Drone line {line.drone_line}; {line.drone_points} drone points"
        )
    return out


def drone_listing(d: DroneCard) -> list[str]:
    tag = "  [unofficial sample]" if d.sample else ""
    out = [f"{d.id}: {d.title}{tag}"]
    if d.note:
        out += _wrap(d.note, "    ")
    for letter in DRONE_LINES:
        out.append(f"    {letter}  {d.line(letter).describe()}")
    return out


def deck_listing(deck: Deck) -> str:
    """Every card of the deck as readable text (``seven-seconds cards list``)."""
    out: list[str] = []
    if deck.sample:
        out += ["UNOFFICIAL SAMPLE DECK: cards made up for this program, not the official 7 Seconds cards.", ""]
    for kind in MISSION_KINDS:
        missions = deck.missions(kind)
        out.append(f"{KIND_TITLES[kind]} missions ({len(missions)})")
        for m in missions:
            out += ["  " + s for s in mission_listing(m)]
        out.append("")
    out.append(f"Troop cards ({len(deck.troop_cards)})")
    for troop in deck.troop_cards:
        out += ["  " + s for s in troop_listing(troop)]
    out.append("")
    out.append(f"Drone cards ({len(deck.drone_cards)})")
    for d in deck.drone_cards:
        out += ["  " + s for s in drone_listing(d)]
    out.append("")
    tag = "  [unofficial sample]" if deck.prices.sample else ""
    out.append(f"{deck.prices.title} (Chance Encounter purchases){tag}")
    for t, cost in deck.prices.costs.items():
        out.append(f"  {type_title(t)}: {cost} points")
    if deck.prices.note:
        out += _wrap(deck.prices.note, "  ")
    return "\n".join(out)
