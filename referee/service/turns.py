"""Turn files for play by e-mail: a battle's public part and one side's sealed part, nothing else.

``turn_file(save, side)`` is made from a sealed save without any PIN: it copies the public part and the side's
sealed part as they are, and leaves out the other side's part and the record (which opens with both PINs only).
A turn file given to the opponent gives them the public battle, which they see anyway, and a part they cannot open;
its own player opens their part with their PIN (``read_turn``). Each part stays bound to its battle and to the
point of the record it was written at, so a part cannot be carried into another battle's file unnoticed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..game.records.record import _read
from ..game.records.sealing import SEALED_VERSION, Keyring, is_sealed
from ..game.battle.sides import SIDES
from ..rules.errors import InputError
from ..storage import atomic_write_text
from .keys import SealedView, sealed_view

TURN_FORMAT = "seven-seconds-turn"


@dataclass(frozen=True)
class TurnFile:
    path: Path
    side: str
    actions: int


def write_turn(save: Path | str, side: str, out: Path | str) -> TurnFile:
    """The turn file of ``side`` from the sealed save ``save``, written to ``out``."""
    save, out = Path(save), Path(out)
    if side not in SIDES:
        raise InputError("--side", f"expected 'A' or 'B' (got {side!r})")
    doc = _read(save)
    if not is_sealed(doc):
        raise InputError(str(save), "not sealed for its players (format 5): a turn file is made from a battle saved "
                                    "with both players' PINs")
    turn: dict[str, object] = {k: doc[k] for k in ("program", "saved_at", "battle", "kdf", "public") if k in doc}
    turn["format"], turn["version"], turn["side"] = TURN_FORMAT, SEALED_VERSION, side
    turn["sides"] = {side: doc["sides"][side]}
    atomic_write_text(out, json.dumps(turn, indent=1, ensure_ascii=False) + "\n")
    return TurnFile(out, side, int(doc["public"]["actions"]))


def read_turn(path: Path | str, keys: Keyring | None) -> tuple[str, SealedView]:
    """Whose turn file it is, and the battle it shows with the keys given (its side's PIN opens its part; the other
    side's opens nothing in it)."""
    path = Path(path)
    doc = _read(path)
    if doc.get("format") != TURN_FORMAT or doc.get("side") not in SIDES:
        raise InputError(str(path), f"format: expected a turn file ({TURN_FORMAT!r}) naming its side")
    side = str(doc["side"])
    if keys is not None:
        keys = Keyring({side: keys.pins[side]}) if keys.has(side) else None
    return side, sealed_view(path, keys, as_save=False)
