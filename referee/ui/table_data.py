"""What the table view shows: the battlefield the rules use plus the marks a player sees on the table.

The view reads a ``TableData`` and never changes it. For now it is built from a scenario file; the game engine's
player view will build the same thing from a battle in progress.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import NamedTuple
from pathlib import Path

from ..game.views.view_table import battlefield_from_view
from ..game.views.view_types import PlayerView
from ..rules.battlefield import Battlefield, Piece, battlefield_from_scenario
from ..rules.scenario import Scenario, load_scenario


class TurnInfo(NamedTuple):
    """Where the battle stands (shown in the status bar); ``None`` fields are shown as a dash. A named tuple, as
    ``ObjectiveMark``: a plain value, cheaper than a dataclass for the window's start to make."""

    round: int | None = None
    phase: str | None = None
    initiative: str | None = None
    turn: str | None = None


class ObjectiveMark(NamedTuple):
    control: str            # "contested", "A" or "B"
    destroyed: bool


@dataclass(frozen=True)
class TableData:
    name: str
    battlefield: Battlefield
    source: Path | None = None
    activation: dict[str, bool] = field(default_factory=dict)     # unit or blip id -> holds an activation counter
    blip_numbers: dict[str, str] = field(default_factory=dict)    # blip id -> what is printed on the counter
    objectives: dict[str, ObjectiveMark] = field(default_factory=dict)
    turn: TurnInfo = TurnInfo()
    wrecks: tuple[Piece, ...] = ()        # destroyed objectives: drawn, but no longer pieces the rules know (p.~12)
    # The viewer's own blips that the player view says are decoys (an empty square): marked for their owner only.
    decoys: frozenset[str] = frozenset()
    # The names the side panel gives the pieces, when the battle's screen brought them (else the panel asks the
    # rules): piece id -> its type's title, faction id -> its name.
    titles: Mapping[str, str] = field(default_factory=dict)
    faction_names: Mapping[str, str] = field(default_factory=dict)

    @property
    def bf(self) -> Battlefield:
        return self.battlefield

    def terrain_types_present(self) -> list[str]:
        seen: list[str] = []
        bf = self.battlefield
        for f in bf.terrain + bf.jammer_fields:     # the fields already made when the rules read the table
            if f.type_id not in seen:
                seen.append(f.type_id)
        return seen


def _blip_numbers(blips) -> dict[str, str]:
    """What is printed on each blip counter: its square to its owner, who knows it; otherwise its label, the end
    of its id (``b-blip-KX``: KX), which stays the same as long as the counter is on the table and says nothing of
    its square (A59)."""
    return {b.id: str(b.square) if b.square is not None else b.id.rsplit("-", 1)[-1] for b in blips}


def _wrecks(objectives) -> tuple[Piece, ...]:
    return tuple(Piece(id=o.id, kind="objective", x=o.x, y=o.y, radius=o.base / 2) for o in objectives if o.destroyed)


def table_from_scenario(scenario: Scenario, source: Path | None = None) -> TableData:
    base_dir = source.parent if source is not None else None
    bf = battlefield_from_scenario(scenario, base_dir)
    activation = {u.id: u.activation for u in scenario.units}
    activation.update({b.id: b.activation for b in scenario.blips})
    marks: dict[str, ObjectiveMark] = {o.id: ObjectiveMark(o.control, o.destroyed) for o in scenario.objectives}
    return TableData(scenario.name, bf, source, activation, _blip_numbers(scenario.blips), marks,
                     wrecks=_wrecks(scenario.objectives))


def load_table(path: Path | str) -> TableData:
    """Load a scenario file for viewing; raises ``InputError`` (a ``ValueError``) naming what is wrong."""
    path = Path(path)
    return table_from_scenario(load_scenario(path), path)


def table_from_view(view: PlayerView, bf: Battlefield | None = None, titles: Mapping[str, str] | None = None,
                    faction_names: Mapping[str, str] | None = None,
                    wrecks: tuple[Piece, ...] | None = None) -> TableData:
    """What one player may see of a battle (``game.view.player_view``) as a table to draw and ask questions of.

    Only the view is read, and its battlefield is made by the engine's own builder: the opponent's blips arrive as
    anonymous counters, so nothing secret can reach the drawing or a preview, and what the window measures on is
    what the engine resolves on. ``bf``, ``titles``, ``faction_names``, ``wrecks``: that battlefield, the pieces'
    names and the destroyed objectives, when the service sent them with the view (the battle's screen), so the
    window builds none.
    """
    if bf is None:
        bf = battlefield_from_view(view)
    activation = {u["id"]: u.get("activation", True) for u in view.get("units", [])}
    activation.update({b["id"]: b.get("activation", True) for b in view.get("blips", [])})
    blips = [SimpleNamespace(id=b["id"], side=b["side"], square=b.get("square")) for b in view.get("blips", [])]
    objectives = [SimpleNamespace(**{"base": 1.0, "destroyed": False, "control": "contested", **o})
                  for o in view.get("objectives", [])]
    marks = {o.id: ObjectiveMark(o.control, o.destroyed) for o in objectives}
    turn = view.get("turn")
    # Nobody holds the Initiative during set-up: it is rolled (or given to the attacker) when round 1 begins.
    setting_up = view.get("phase") == "setup"
    info = TurnInfo(None if setting_up else view.get("round"), view.get("phase"),
                    None if setting_up else view.get("initiative"), turn["player"] if turn else None)
    # Only a blip whose contents the view gives (the viewer's own) can be known to be a decoy.
    decoys = frozenset(b["id"] for b in view.get("blips", []) if b.get("contents") == [])
    return TableData(view.get("name", "battle"), bf, None, activation, _blip_numbers(blips), marks, info,
                     _wrecks(objectives) if wrecks is None else wrecks, decoys, dict(titles or {}), dict(faction_names or {}))
