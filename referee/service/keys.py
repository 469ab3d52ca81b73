"""The players' PINs for a battle's files, as the clients hand them to the service (``game/records/sealing.py`` seals with
them), and a sealed file shown with the PINs given: the public battle, and a side's secrets only with its PIN.

The computer's key: a battle against the computer seals the computer's side under a key drawn for it, which the
program keeps in a file of its own outside the saves folder (``user_data_dir()/keys``, for its owner alone), so a
crash can still be resumed. The human's account can read that file: the README says what that gives away. A human
who sets no PIN against the computer gets a key kept the same way: the computer's secrets are sealed all the same.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..game.records.record import _read
from ..game.records.sealing import Keyring, Locked, WrongKey, check_pin, generated_pin, is_sealed, public_battle
from ..game.battle.sides import SIDES
from ..game.battle.state import GameState
from ..game.views.view import player_view, public_view, referee_view
from ..game.views.view_types import PlayerView
from ..rules.errors import InputError
from ..storage import atomic_write_text

__all__ = ["Keyring", "Locked", "WrongKey", "check_pin", "generated_pin", "keyring", "pins_from_file",
           "pins_from_environment", "SealedView", "sealed_view", "is_sealed_file", "computer_pin", "kept_pin",
           "has_kept_pin"]

ENVIRONMENT = {side: f"SEVEN_SECONDS_PIN_{side}" for side in SIDES}


def keyring(pins: Mapping[str, str]) -> Keyring:
    """A battle's keys from the PINs given (each checked: at least four characters)."""
    return Keyring({side: check_pin(pin) for side, pin in pins.items()})


def pins_from_file(path: Path | str) -> dict[str, str]:
    """``A: PIN`` and ``B: PIN`` lines (either or both; blank lines and ``#`` comments skipped)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(str(path), f"cannot be read ({e.strerror or e})") from None
    pins: dict[str, str] = {}
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        side, sep, pin = line.partition(":")
        if not sep or side.strip() not in SIDES:
            raise InputError(str(path), f"line {n}: expected 'A: PIN' or 'B: PIN'")
        try:
            pins[side.strip()] = check_pin(pin)
        except InputError as e:
            raise InputError(str(path), f"line {n}: {'; '.join(e.problems)}") from None
    return pins


def pins_from_environment(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    return {side: environ[name] for side, name in ENVIRONMENT.items() if environ.get(name)}


def is_sealed_file(path: Path | str) -> bool:
    try:
        return is_sealed(_read(Path(path)))
    except InputError:
        return False


@dataclass(frozen=True)
class SealedView:
    """A sealed battle as the PINs given show it: a side's view when one side's PIN opened its part, else the
    public view (everyone's)."""

    view: PlayerView
    actions: int
    opened: tuple[str, ...]
    saved_at: str
    program: str
    computer_levels: dict[str, str]


def sealed_view(path: Path | str, keys: Keyring | None, as_save: bool = True) -> SealedView:
    """The battle in a sealed file as it stood when written, shown with the keys given (a wrong PIN: ``WrongKey``).
    ``as_save``: the file must be a sealed save (else a turn file, ``turns.py``)."""
    path = Path(path)
    doc = _read(path)
    if as_save and not is_sealed(doc):
        raise InputError(str(path), "not a save sealed for its players")
    # A side whose player let the program keep its key (against the computer) opens with it; the computer's own
    # key is never used here, so its secrets stay sealed until the rules reveal them.
    battle_id = str(doc.get("battle", ""))
    kept = {side: kept_pin(battle_id, side) for side in SIDES
            if has_kept_pin(battle_id, side) and (keys is None or not keys.has(side))}
    if kept:
        keys = keyring({**(keys.pins if keys is not None else {}), **kept})
    battle = public_battle(doc, keys, str(path))
    data = dict(battle.state)
    # The sides not opened: no holding area (their blips stand for square 0), as the view never shows them.
    data["holding"] = {side: dict((data.get("holding") or {}).get(side, {})) for side in SIDES}
    try:
        state = GameState.from_data(data)
    except (LookupError, TypeError, ValueError) as e:
        raise InputError(str(path), f"public: not a battle ({type(e).__name__}: {e})") from None
    if len(battle.opened) == len(SIDES):
        view = referee_view(state)          # a finished battle: both sides revealed, as its report reveals them
    elif len(battle.opened) == 1:
        view = player_view(state, battle.opened[0])
    else:
        view = public_view(state)
    levels = {side: str(p.get("level")) for side, p in sorted(battle.players.items()) if p.get("kind") == "computer"}
    return SealedView(view, battle.actions, battle.opened, str(doc.get("saved_at", "")), str(doc.get("program", "")),
                      levels)


def _keys_folder() -> Path:
    return paths.user_data_dir() / "keys"


def kept_pin(battle: str, side: str) -> str:
    """The key of a side whose player set no PIN in a battle against the computer: drawn once and kept as the
    computer's is, so the computer's secrets are still sealed in every file and the battle resumes without asking."""
    if not battle.isalnum() or side not in SIDES:
        raise InputError("battle", "expected the battle's id and a side")
    return _kept(_keys_folder() / f"{battle}-{side}.key")


def has_kept_pin(battle: str, side: str) -> bool:
    """Does the program keep ``side``'s key for battle ``battle`` (its player set no PIN)?"""
    return battle.isalnum() and side in SIDES and (_keys_folder() / f"{battle}-{side}.key").is_file()


def _kept(path: Path) -> str:
    try:
        return str(json.loads(path.read_text(encoding="utf-8"))["pin"])
    except (OSError, ValueError, KeyError, TypeError):
        pin = generated_pin()
        atomic_write_text(path, json.dumps({"pin": pin}) + "\n", private=True)
        return pin


def computer_pin(battle: str) -> str:
    """The key of the computer's side in battle ``battle``: drawn once, kept outside the saves folder for its owner
    alone (mode 0600), so the battle can be resumed after a crash."""
    if not battle.isalnum():
        raise InputError("battle", "expected the battle's id")
    return _kept(_keys_folder() / f"{battle}.key")
