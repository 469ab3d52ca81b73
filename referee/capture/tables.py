"""The table a markers sheet or a photo is for: a scenario file (a bundled table by name) or a battle's save."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..game.play.engine import Game
from ..game.battle.state import GameState, state_from_scenario
from ..paths import table_file
from ..rules.catalogue import is_drone_type
from ..rules.scenario import Scenario
from .differences import Difference, differences, still_missing
from .photo import Problem, TableReading, read_photo
from .plan import MarkerPlan, plan_for
from ..game.records.record import read_save
from ..rules.files import read_document
from ..rules.scenario import load_scenario


@dataclass
class CaptureTable:
    """A table as first laid out (what the sheet was printed from) and as it stands now."""

    name: str
    first: GameState
    now: GameState
    game: Game | None = None
    source: Path | None = None

    @property
    def plan(self) -> MarkerPlan:
        return plan_for(self.first, self.now)

    def bases(self) -> dict[str, float]:
        out = {u.id: u.base for u in self.first.units.values()}
        out.update({u.id: u.base for u in self.now.units.values()})
        return out


def plan_of_scenario(scenario: Scenario) -> MarkerPlan:
    """The marker plan of a table file (what ``seven-seconds markers`` prints for it)."""
    return plan_for(state_from_scenario(scenario))


def from_game(game: Game, source: Path | None = None) -> CaptureTable:
    first = game.after_setup()          # a hot-seat battle's pieces are put down during set-up
    return CaptureTable(game.state.name, first, game.state, game, source)


def open_table(text: str) -> CaptureTable:
    """A save (``.json`` with a record) or a scenario file; a bundled table by its name."""

    path = table_file(text)
    if path.suffix.lower() == ".json" and path.is_file() and "record" in read_document(path):
        return from_game(read_save(path).game, path)
    state = state_from_scenario(load_scenario(path))
    return CaptureTable(state.name, state, state, None, path)


@dataclass
class Comparison:
    """A photo read against a table: the reading, what is still missing or wrong with it, and the differences."""

    reading: TableReading
    problems: list[Problem]
    differences: list[Difference]


def compare(table: CaptureTable, image: np.ndarray) -> Comparison:
    """Read ``image`` with the table's markers and, for a battle, list what changed since its last known table."""
    plan = table.plan
    reading = read_photo(image, plan)
    problems = still_missing(table.now, reading)
    found = differences(table.now, reading, plan) if table.game is not None and reading.usable else []
    return Comparison(reading, problems, found)


def placed(scenario: Scenario, reading: TableReading) -> tuple[Scenario, int]:
    """The table file with every piece the photo read put where it stands (troopers turned to their facing, terrain
    to its outline): how the table editor mirrors a whole table from one photo. Also the count of pieces placed."""
    got = reading.pieces
    count = 0

    def at(entry, facing: bool = False):
        nonlocal count
        r = got.get(entry.id)
        if r is None:
            return entry
        count += 1
        update: dict[str, object] = {"x": round(r.x, 2), "y": round(r.y, 2)}
        if facing and r.facing is not None and not is_drone_type(entry.type):
            update["facing"] = round(r.facing, 1)
        return entry.model_copy(update=update)

    units = [at(u, facing=True) for u in scenario.units]
    blips = [at(b) for b in scenario.blips]
    objectives = [at(o) for o in scenario.objectives]
    terrain = []
    for t in scenario.terrain:
        r = got.get(t.id)
        if r is not None and r.outline is not None and t.polygon is not None:
            count += 1
            t = t.model_copy(update={"polygon": [[round(x, 2), round(y, 2)] for x, y in r.outline]})
        terrain.append(t)
    return scenario.model_copy(update={"units": units, "blips": blips, "objectives": objectives,
                                       "terrain": terrain}), count
