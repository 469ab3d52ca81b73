"""A side's secrets kept on its own computer, for a battle hosted on another (``seven-seconds host TABLE --kept-by B``).

The joining client (``seven-seconds join``, the window's join) fills its side's holding area here, with the rule the
host's engine uses (``game/battle/commit.py``), and sends the host one commitment a square, never what a square holds. It
keeps every square's units and salt in memory and in a file of its own, sealed with the side's key
(``game/records/sealing.py``: the side's PIN, or a key the program keeps for it), so quitting and joining again goes on. When a
reveal needs a square the host asks this side's screen (``open_square``) and the keeper answers at once, with no one
typing: the square's units and salt, which the host checks against the commitment.

The keeper also shows its own side what its blips hold: the host's screen has those squares as unknown.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any, Final

from .. import paths
from ..game.battle.action_kinds import Kind
from ..game.battle.commit import (SQUARES, arrangement_problems, battle_id, drawn_groups, is_digest, new_square_salt,
                           square_commitment)
from ..game.records.sealing import Keyring, check_pin, seal, unseal
from ..rules.errors import InputError
from ..service.keys import kept_pin
from ..storage import atomic_write_text

KEPT_FORMAT: Final = "seven-seconds-kept-side/1"
PART: Final = "kept"                    # the sealed part's name, in its associated data


def kept_folder() -> Path:
    """Where a joining computer keeps its sides' secrets: outside the saves folder, for its owner alone."""
    return paths.user_data_dir() / "kept"


class Keeper:
    """One side's holding area on its own computer (see the module note): ``squares`` maps a square to its units
    (each ``{id, side, faction, rating, type}``; none: a decoy) and its salt."""

    def __init__(self, side: str, battle: str, *, pin: str | None = None, folder: Path | None = None) -> None:
        if not is_digest(battle):
            raise InputError("battle", "a side's secrets are kept for a battle whose dice are keyed (its id is the "
                                       "commitment to its seed, 64 hex digits)")
        self.side = side
        self.battle = battle
        self.squares: dict[int, tuple[list[dict[str, Any]], str]] = {}
        self.folder = kept_folder() if folder is None else folder
        self._keys = Keyring({side: check_pin(pin) if pin is not None else kept_pin(battle[:32], side)},
                             battle=battle[:32])
        self._read()

    # ---- the file ---------------------------------------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self.folder / f"{self.battle[:32]}-{self.side}.kept"

    def _read(self) -> None:
        """The squares kept by an earlier run of this client for this battle and side, if any."""
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as e:
            raise InputError(str(self.path), f"cannot be read ({e})") from None
        if not isinstance(doc, dict) or doc.get("format") != KEPT_FORMAT:
            raise InputError(str(self.path), f"format: expected {KEPT_FORMAT}")
        self._keys.adopt(doc, str(self.path))
        opened = unseal(self._keys, self.side, 0, doc.get("sealed"), str(self.path), "sealed")
        self.squares = {int(n): (list(units), str(salt)) for n, (units, salt) in opened.items()}

    def _write(self) -> None:
        doc = {"format": KEPT_FORMAT, "battle": self._keys.battle, "side": self.side, "kdf": self._keys.kdf(),
               "sealed": seal(self._keys, self.side, 0, {str(n): [u, s] for n, (u, s) in self.squares.items()})}
        atomic_write_text(self.path, json.dumps(doc, sort_keys=True) + "\n", private=True)

    # ---- set-up: the holding area filled here, committed there --------------------------------------------------------
    def commit(self, screen: dict[str, Any], arrangement: object = None) -> dict[str, str]:
        """The side's holding area filled from its issued units (as its screen lists them), as ``arrangement``
        ({square: [unit ids]}) or drawn here as "place for me" does; kept, and one commitment a square returned.
        Raises ``InputError`` with the rule an arrangement breaks."""
        setup = screen["view"].get("setup") or {}
        issued = (setup.get("issued") or {}).get(self.side) or []
        faction = (setup.get("factions") or {}).get(self.side, "")
        units = {str(u["id"]): {"id": str(u["id"]), "side": self.side, "faction": faction,
                                "rating": u["rating"], "type": u["type"]} for u in issued}
        if arrangement is None:
            free = list(range(1, SQUARES + 1))
            draw = secrets.SystemRandom()
            chosen: dict[int, list[str]] = {}
            try:
                for group in drawn_groups(list(units)):
                    chosen[free.pop(draw.randrange(len(free)))] = group
            except ValueError as e:
                raise InputError("squares", str(e)) from None
        else:
            problems = arrangement_problems(self.side, list(units), arrangement)
            if problems:
                raise InputError("squares", "; ".join(problems))
            assert isinstance(arrangement, dict)
            chosen = {int(n): [str(u) for u in ids] for n, ids in arrangement.items()}
        self.squares = {n: ([units[u] for u in chosen.get(n, [])], new_square_salt()) for n in range(1, SQUARES + 1)}
        self._write()
        return {str(n): square_commitment(self.battle, self.side, n, held, salt)
                for n, (held, salt) in self.squares.items()}

    @staticmethod
    def fills(intent: dict[str, Any]) -> bool:
        """Is ``intent`` the side's holding area, which goes to the host as commitments?"""
        action = intent.get("action") if intent.get("kind") == "action" else None
        return isinstance(action, dict) and action.get("kind") == Kind.FILL_HOLDING

    def outgoing(self, intent: dict[str, Any], screen: dict[str, Any]) -> dict[str, Any]:
        """An intent on its way to the host: this side's holding area goes as commitments (its squares stay here)."""
        if not self.fills(intent):
            return intent
        action = intent["action"]
        setup = screen["view"].get("setup") or {}
        if setup.get("step") != "holding" or setup.get("side") != self.side:
            return intent                       # not this side's holding area now: the host refuses it as it is
        args = action.get("args") or {}
        committed = self.commit(screen, args.get("squares"))
        return {**intent, "action": {**action, "args": {"committed": committed}}}

    # ---- a reveal: the square opened for the host ----------------------------------------------------------------
    def opening(self, screen: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to the host's ask for a square (``open_square`` on this side's screen, or at the end of the
        battle the first of ``open_squares``), or None."""
        asked = screen.get("open_square")
        if asked is None and screen.get("open_squares"):
            asked = screen["open_squares"][0]          # the end of the battle: every square still hidden, in turn
        if not isinstance(asked, dict) or screen.get("seat") != self.side:
            return None
        kept = self.squares.get(int(asked.get("square") or 0))
        if kept is None:
            return None
        units, salt = kept
        return {"kind": Kind.CONTENTS, "blip": str(asked["blip"]), "contents": [dict(u) for u in units], "salt": salt}

    def shown(self, screen: dict[str, Any]) -> dict[str, Any]:
        """This side's screen with what its own blips hold filled in from the squares kept here (the host's screen has
        them unknown)."""
        view = screen.get("view")
        if not isinstance(view, dict) or not self.squares:
            return screen
        for blip in view.get("blips") or []:
            if blip.get("side") == self.side and blip.get("contents") is None and blip.get("square") in self.squares:
                blip["contents"] = [dict(u) for u in self.squares[blip["square"]][0]]
        holding = (view.get("holding") or {}).get(self.side)
        if isinstance(holding, dict):
            for n, held in list(holding.items()):
                if held is None and int(n) in self.squares:
                    holding[n] = [dict(u) for u in self.squares[int(n)][0]]
        return screen


def keeper_for(screen: dict[str, Any], pin: str | None = None, folder: Path | None = None) -> Keeper | None:
    """The keeper of this seat's side when the host says it keeps its secrets here (``keep_secrets``), else None."""
    if not screen.get("keep_secrets"):
        return None
    side = str(screen.get("seat"))
    return Keeper(side, battle_id(screen["view"].get("dice_commitments") or {}), pin=pin, folder=folder)
