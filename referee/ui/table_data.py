"""What the table view shows: the battlefield the rules use plus the marks a player sees on the table.

The view reads a ``TableData`` and never changes it. For now it is built from a scenario file; the game engine's
player view will build the same thing from a battle in progress.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..rules.battlefield import Battlefield, battlefield_from_scenario
from ..rules.scenario import Scenario, load_scenario


@dataclass(frozen=True)
class TurnInfo:
    """Where the battle stands (shown in the status bar); ``None`` fields are shown as a dash."""

    round: int | None = None
    phase: str | None = None
    initiative: str | None = None
    turn: str | None = None


@dataclass(frozen=True)
class ObjectiveMark:
    control: str            # "contested", "A" or "B"
    destroyed: bool


@dataclass(frozen=True)
class TableData:
    name: str
    battlefield: Battlefield
    source: Path | None = None
    activation: dict[str, bool] = field(default_factory=dict)     # unit or blip id -> holds an activation counter
    blip_numbers: dict[str, int] = field(default_factory=dict)    # blip id -> the number printed on the counter
    objectives: dict[str, ObjectiveMark] = field(default_factory=dict)
    turn: TurnInfo = TurnInfo()

    @property
    def bf(self) -> Battlefield:
        return self.battlefield

    def terrain_types_present(self) -> list[str]:
        seen: list[str] = []
        for f in self.battlefield.features:
            if f.type_id not in seen:
                seen.append(f.type_id)
        return seen


def table_from_scenario(scenario: Scenario, source: Path | None = None) -> TableData:
    base_dir = source.parent if source is not None else None
    bf = battlefield_from_scenario(scenario, base_dir)
    activation = {u.id: u.activation for u in scenario.units}
    activation.update({b.id: b.activation for b in scenario.blips})
    numbers: dict[str, int] = {}
    for side in ("A", "B"):
        used = {b.square for b in scenario.blips if b.side == side and b.square is not None}
        free = (n for n in range(1, 1000) if n not in used)
        for b in scenario.blips:
            if b.side == side:
                numbers[b.id] = b.square if b.square is not None else next(free)
    marks: dict[str, ObjectiveMark] = {o.id: ObjectiveMark(o.control, o.destroyed) for o in scenario.objectives}
    return TableData(scenario.name, bf, source, activation, numbers, marks)


def load_table(path: Path | str) -> TableData:
    """Load a scenario file for viewing; raises ``InputError`` (a ``ValueError``) naming what is wrong."""
    path = Path(path)
    return table_from_scenario(load_scenario(path), path)


def table_from_view(view: dict) -> TableData:
    """What one player may see of a battle (``game.view.player_view``) as a table to draw and ask questions of.

    Only the view is read: the opponent's blips arrive as anonymous counters, so nothing secret can reach the
    drawing or a preview.
    """
    from ..game.view import scenario_part
    from ..rules.files import validate

    data = scenario_part(view)
    for b in data.get("blips", []):
        b.pop("contents", None)        # the side's own blip contents are shown by the holding area, not the table
    scenario = validate(Scenario, data, f"view of {view.get('name', 'the battle')}")
    table = table_from_scenario(scenario)
    turn = view.get("turn") or {}
    info = TurnInfo(view.get("round"), view.get("phase"), view.get("initiative"), turn.get("player"))
    return TableData(table.name, table.battlefield, None, table.activation, table.blip_numbers, table.objectives, info)
