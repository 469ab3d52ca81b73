"""Blip counters of older saves, relabelled so that no label names its square (A59, A23).

Saves in format 1, written before blips took two-letter labels, call them ``b-blip-3``, and the number is the counter's
holding-area square, which the rulebook keeps on the counter's reverse side. Such a save is read with every counter
renamed to a free two-letter label (``b-blip-KX``), in the whole document at once (the state, the record's actions,
the log), so the battle replays exactly as it was played. A refereed game's save is left as it is: its counters
carry the names the players gave them at the table.

Which label a counter gets is drawn from the owner's secret (the seal's salt, or failing that its holding area):
nothing a player sees (the other labels, the order of the counters, the number of blips) tells which counter had
which square. ``back`` turns data of the relabelled battle into the old names, so the digest the old program wrote
can still be checked.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable

from .state import BLIP_LABELS, SIDES, Data, blip_id

SQUARE_NAMED = re.compile(r"\b([ab])-blip-(\d+)\b")


def _secret(initial: Data, side: str) -> str:
    salt = (initial.get("salts") or {}).get(side)
    if isinstance(salt, str) and salt:
        return salt
    holding = (initial.get("holding") or {}).get(side)
    return json.dumps(holding, sort_keys=True, default=str)


def _key(secret: str, name: str) -> str:
    return hashlib.sha256(f"{secret}|{name}".encode("utf-8")).hexdigest()


def _set_up_by_square(initial: Data) -> bool:
    """Did the set-up name the counters by their squares (the earlier programs' way): some blip ``x-blip-N`` stands
    on square N."""
    blips = initial.get("blips")
    entries = blips.values() if isinstance(blips, dict) else blips if isinstance(blips, list) else []
    for b in entries:
        if isinstance(b, dict):
            m = SQUARE_NAMED.fullmatch(str(b.get("id", "")))
            if m and b.get("square") == int(m.group(2)):
                return True
    return False


def relabel_square_named(doc: Data) -> tuple[Data, Callable[[Data], Data] | None]:
    """``doc`` (a save document) with its square-named blip counters relabelled, and the function that names them
    back in any JSON data; ``(doc, None)`` when no counter is named by its square."""
    found = doc.get("initial")
    initial: Data = found if isinstance(found, dict) else {}
    if doc.get("refereed") or not _set_up_by_square(initial):
        # A physical game's counters carry the names the players gave them, and the program knows no squares.
        return doc, None
    text = json.dumps(doc)
    named = sorted(set(m.group(0) for m in SQUARE_NAMED.finditer(text)))
    mapping: dict[str, str] = {}
    for side in SIDES:
        olds = [n for n in named if n.startswith(f"{side.lower()}-")]
        if not olds:
            continue
        secret = _secret(initial, side)
        free = [label for label in BLIP_LABELS if blip_id(side, label) not in text]
        olds.sort(key=lambda n: _key(secret, n))
        free.sort(key=lambda label: _key(secret, label))
        mapping.update({old: blip_id(side, label) for old, label in zip(olds, free)})
    back_map = {new: old for old, new in mapping.items()}
    new_name = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in back_map) + r")\b")

    def back(data: Data) -> Data:
        restored: Data = json.loads(new_name.sub(lambda m: back_map[m.group(0)], json.dumps(data)))
        return restored

    relabelled: Data = json.loads(SQUARE_NAMED.sub(lambda m: mapping.get(m.group(0), m.group(0)), text))
    return relabelled, back
