"""The table a markers sheet or a photo is for: a scenario file (a bundled table by name) or a battle's save."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..game.engine import Game
from ..game.state import GameState, state_from_scenario
from ..paths import table_file
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
