"""The table a markers sheet or a photo is for: a scenario file (a bundled table by name) or a battle's save."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..game.engine import Game
from ..game.state import GameState, state_from_scenario
from ..paths import table_file
from .differences import Difference, differences, still_missing
from .photo import Problem, TableReading, read_photo
from .plan import MarkerPlan, plan_for


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


def from_game(game: Game, source: Path | None = None) -> CaptureTable:
    first = game.after_setup()          # a hot-seat battle's pieces are put down during set-up
    return CaptureTable(game.state.name, first, game.state, game, source)


def open_table(text: str) -> CaptureTable:
    """A save (``.json`` with a record) or a scenario file; a bundled table by its name."""
    from ..game.record import read_save
    from ..rules.files import read_document
    from ..rules.scenario import load_scenario

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
