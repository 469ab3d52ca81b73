"""``seven-seconds schema``: the JSON Schemas of the files a player writes (factions, cards, scenarios), exported
from the very models that check them, so an editor completes and checks a file as the program will.

The schemas ship with the package (``referee/schemas``) and ``schema --out DIR`` writes them anywhere; an editor
with a TOML language server (taplo, Even Better TOML) uses one named on a file's first line:
``#:schema ./faction.schema.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import Field

from ..i18n import _

KINDS = ("faction", "cards", "scenario")


def register(sub) -> None:
    p = sub.add_parser("schema", help=_("write the JSON Schemas of faction, card and scenario files"),
                       description=_("Write the JSON Schema of each file kind (faction, cards, scenario) to a folder, "
                                   "or print one kind's."))
    p.add_argument("kind", nargs="?", choices=KINDS, help=_("print only this kind's schema"))
    p.add_argument("--out", metavar="DIR", help=_("the folder to write KIND.schema.json files in"))
    p.set_defaults(run=run)


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one file kind, from its pydantic model."""
    if kind == "faction":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.factions import Faction

        out = Faction.model_json_schema()
        out["title"] = "7 Seconds faction file"
    elif kind == "scenario":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..rules.scenario import Scenario

        out = Scenario.model_json_schema()
        out["title"] = "7 Seconds scenario (table) file"
    elif kind == "cards":
        out = _card_file_schema()
    else:
        raise ValueError(kind)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **out}


def _card_file_schema() -> dict[str, Any]:

    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..game.battle.cards import DroneCard, DronePrices, MissionCard, TroopCard
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.file_model import StrictModel as Strict

    # A card file holds any of the four sections (``read_cards``); the model exists only to describe that file.
    class CardFile(Strict):
        mission: list[MissionCard] = Field(default=[], description=_("mission cards ([[mission]])"))
        troop: list[TroopCard] = Field(default=[], description=_("troop cards ([[troop]])"))
        drone: list[DroneCard] = Field(default=[], description=_("drone cards ([[drone]])"))
        drone_prices: DronePrices | None = Field(default=None, description=_("the drone price list ([drone_prices])"))

    out = CardFile.model_json_schema()
    out["title"] = "7 Seconds card file"
    # A drone line may be written as a bare list of drones (``DroneLine._bare_list`` reads it before validation).
    defs = out["$defs"]
    defs["DroneLine"] = {"anyOf": [defs["DroneLine"], {"type": "array", "items": {"$ref": "#/$defs/DroneCount"}}],
                         "description": defs["DroneLine"].get("description", "")}
    return out


def schema_text(kind: str) -> str:
    return json.dumps(schema(kind), indent=2, sort_keys=True) + "\n"


def run(args) -> int:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..storage import atomic_write_text

    kinds = (args.kind,) if args.kind else KINDS
    if not args.out:
        if len(kinds) > 1:
            # lazy: loaded only when this command or option runs, so the command line starts fast
            from ..rules.errors import InputError

            raise InputError("schema", "expected a KIND to print (faction, cards or scenario), or --out DIR")
        print(schema_text(kinds[0]), end="")
        return 0
    for kind in kinds:
        path = Path(args.out) / f"{kind}.schema.json"
        atomic_write_text(path, schema_text(kind))
        print(_("Wrote {file}").format(file=path))
    return 0
