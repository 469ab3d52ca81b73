"""What a player view holds (``view.player_view``), typed, so that the checker reads every use of a view against it.

The pieces carry the fields of the battle's models (``rules/pieces.py``) as JSON data; what a view leaves out is
marked ``NotRequired``: a drone's facing (A12 option A), an opponent's blip's square and contents, an objective's
``destroyed`` while it stands, a log line's private note.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

Data = dict[str, Any]


class TerrainView(TypedDict):
    id: str
    type: str
    polygon: NotRequired[list[list[float]]]
    circle: NotRequired[dict[str, float]]


class UnitView(TypedDict):
    id: str
    side: str
    faction: str
    rating: str
    type: str
    x: float
    y: float
    facing: NotRequired[float]
    base: float
    target_counters: int
    damaged: bool
    stunned: bool
    jammer_on: bool
    activation: bool


class BlipView(TypedDict):
    """A blip counter: anyone sees the counter; only its owner (or everyone once the battle is over) its square and
    contents (``None``: the referee was not told)."""

    id: str
    side: str
    x: float
    y: float
    base: float
    activation: bool
    square: NotRequired[int]
    contents: NotRequired[list[Data] | None]


class ObjectiveView(TypedDict):
    id: str
    x: float
    y: float
    base: float
    target_counters: int
    control: str
    destroyed: NotRequired[bool]


class TurnView(TypedDict):
    player: str
    primary_allowed: int
    primary_used: int
    extra_blips_used: int
    active: str | None
    actions_left: int
    queue: list[str]
    activation_kind: str
    acted: bool


class LogLine(TypedDict):
    round: int
    text: str
    explain: list[str]
    units: list[str]
    private: NotRequired[dict[str, str]]      # the referee's view only
    note: NotRequired[str]                    # a player's view: the private text meant for that side


class SetupView(TypedDict):
    step: str | None
    side: str | None
    objective: str | None
    factions: dict[str, str]
    streak: dict[str, int]
    blips_to_place: dict[str, int]
    issued: dict[str, Any]
    offered: dict[str, Any]


class GroundView(TypedDict):
    """A patch of ground holding Target counters (p.19, A54): public, like every counter on the table."""

    id: str
    x: float
    y: float
    target_counters: int


class PlayerView(TypedDict):
    view: int
    viewer: str                               # "A", "B", "referee" (the whole truth) or "spectator"
    name: str
    table: dict[str, float]
    rulings: dict[str, Any]
    scale: float
    attacker: str | None
    mode: str
    terrain: list[TerrainView]
    units: list[UnitView]
    blips: list[BlipView]
    objectives: list[ObjectiveView]
    ground: list[GroundView]
    round: int
    phase: str
    initiative: str
    turn: TurnView | None
    passes_in_row: int
    pursuit: str | None
    control: str | None
    destroyed: list[Data]
    result: Data | None
    holding: dict[str, dict[str, list[Data] | None] | None]
    missions: dict[str, str | None]
    cards: dict[str, dict[str, str | None] | None]
    sealed: dict[str, str | None]
    to_face: list[str]
    to_place: dict[str, str]                  # a unit just revealed -> the unit it stands touching (A66)
    dice_commitments: dict[str, str]          # commitments to the sides' dice contributions and the seed (dice.py)
    square_commitments: dict[str, dict[str, str]]   # a side's holding squares kept on its own computer (commit.py)
    issued_kept: dict[str, list[Data] | None]   # a side's issued units its computer has not opened yet (its own)
    blip_commitments: dict[str, dict[str, str] | None]   # which square each counter stands for, committed (its own)
    breaches: list[str]                       # rule breaches a kept side's computer was caught in (commit.py)
    card_commitments: dict[str, Data]         # a side's cards drawn on its own computer, committed (kept_cards.py)
    pool: Data | None                         # a Target's sensor pool waiting for its counters (p.19)
    labels_apart: bool                        # no blip label names a counter of both sides (state.py)
    salts: dict[str, str | None]
    log: list[LogLine]
    setup: SetupView | None


def as_data(view: PlayerView) -> Data:
    """The view as plain JSON data, for code that reads any view generically (the computer player's belief and
    fingerprint): the same object, no copy."""
    return cast(Data, view)
