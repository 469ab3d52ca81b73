"""The game's fixed tables as data: unit types (A5), rifle weapons (p.20) and the terrain table (p.24)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal, TypeVar

from .. import paths
from .checked import remembered_file
from .files import model_kind, read_document, validate
from .model import Field, Strict
from .stats import StatName

M = TypeVar("M", bound=Strict)

Cover = Literal["none", "light", "heavy"]
COVER_BANDS = {"none": 0, "light": 1, "heavy": 2}


class TrooperType(Strict):
    name: str
    modifiers: dict[StatName, int] = {}
    rifle: Literal["gauss", "plasma"]
    missile: bool
    jump: bool
    command: Literal["any", "drones", "none"] = "none"
    repair: bool = False
    double_rifle_bands: bool = False
    double_target_bands: bool = False
    notes: str = ""


DroneAction = Literal["move", "jump", "fire-rifle", "kamikaze", "toggle-jammer", "target"]


class DroneType(Strict):
    name: str
    actions: list[DroneAction]
    notes: str = ""


class UnitTypes(Strict):
    troopers: dict[str, TrooperType]
    drones: dict[str, DroneType]


class Weapon(Strict):
    name: str
    band: float = Field(gt=0)
    kill_faces: list[int]
    graze_face: int | None = None
    harms_troopers: bool = True


class TerrainColumn(Strict):
    cover: Cover = "none"
    hindering: bool = False
    impassable: bool = False
    landable: bool = True


class TerrainType(Strict):
    name: str
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    blocking: bool = False
    placed_by_program: bool = False
    troopers: TerrainColumn
    drones: TerrainColumn

    def column(self, drone: bool) -> TerrainColumn:
        return self.drones if drone else self.troopers


def _load_table(name: str, model: type[M]) -> dict[str, M]:
    path = paths.DATA_DIR / name
    return remembered_file(path, f"{name} as {model_kind(model)}", lambda: {
        key: validate(model, body, f"{path} [{key}]") for key, body in read_document(path).items()})


@lru_cache(maxsize=1)
def unit_types() -> UnitTypes:
    path = paths.DATA_DIR / "units.toml"
    return remembered_file(path, model_kind(UnitTypes), lambda: validate(UnitTypes, read_document(path), str(path)))


@lru_cache(maxsize=1)
def weapons() -> dict[str, Weapon]:
    return _load_table("weapons.toml", Weapon)


@lru_cache(maxsize=1)
def terrain_types() -> dict[str, TerrainType]:
    return _load_table("terrain.toml", TerrainType)


def is_drone_type(unit_type: str) -> bool:
    return unit_type in unit_types().drones


def unit_type_names() -> list[str]:
    t = unit_types()
    return list(t.troopers) + list(t.drones)


def type_title(unit_type: str) -> str:
    t = unit_types()
    if unit_type in t.troopers:
        return t.troopers[unit_type].name
    return t.drones[unit_type].name
