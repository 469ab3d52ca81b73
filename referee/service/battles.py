"""Battles on file, for the clients: a save opened as a session, a new battle written, one action played on a save.

Each function hands back a session (``session.py``) or plain data, never the battle's state: what a client shows of
a battle comes from the session's screens and from ``reports.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..game.players.computer import Computer
from ..game.battle.dice import ScriptedDice, new_seed
from ..game.records.record import commit_dice, new_seeded_dice, read_save, save_game
from ..game.records.sealing import Keyring
from ..game.play.setup import new_game
from ..rules.errors import InputError
from ..rules.scenario import Scenario
from .intents import Action
from .session import BattleSession


class _OnFile(BattleSession):
    """A battle played one action at a time on its file (``query SAVE do``): the save keeps the campaign it names as
    it names it, and the campaign is told of a finished battle by ``campaign battle``, not as a side effect."""

    def _mark_campaign(self) -> None:
        pass

    def _record_in_campaign(self) -> None:
        pass


@dataclass(frozen=True)
class OpenedSave:
    """A save replayed into a session (no autosave, no hand-off), with what its file says of itself."""

    session: BattleSession
    path: Path
    program: str
    saved_at: str
    warnings: tuple[str, ...]
    computer_levels: dict[str, str]        # the sides the computer plays, and at which level

    @property
    def actions(self) -> int:
        """The actions the record holds (each replayed with its dice)."""
        return len(self.session.game.record)

    @property
    def refereed(self) -> bool:
        return self.session.game.refereed

    @property
    def phase(self) -> str:
        return self.session.state.phase


def open_save(path: Path | str, on_file: bool = False, keys: Keyring | None = None) -> OpenedSave:
    """The battle ``path`` holds, replayed action by action; a damaged save raises ``InputError`` naming the item.

    ``on_file``: the session plays on the file as ``query SAVE do`` does (``_OnFile``); otherwise as the window
    does, a finished campaign battle recorded in its campaign. ``keys``: the players' PINs, which a sealed save
    needs (``Locked`` names the sides missing); given for a save in clear, the battle is written sealed from now."""
    save = read_save(path, keys)
    levels = {side: str(p["level"]) for side, p in sorted(save.game.players.items())}
    kind = _OnFile if on_file else BattleSession
    session = kind(save.game, save.dice, hotseat=False, autosaving=False)
    return OpenedSave(session, Path(path), save.program, save.saved_at, tuple(save.warnings), levels)


def check_save(path: Path | str, keys: Keyring | None = None) -> None:
    """Raise ``InputError`` for every problem of the save at ``path`` (its record is replayed to find them)."""
    read_save(path, keys)


@dataclass(frozen=True)
class NewBattle:
    written: Path
    name: str                     # the table's
    phase: str


def new_battle(table: Scenario, factions: dict[str, str], streak: dict[str, int], out: Path | str,
               keys: Keyring | None = None) -> NewBattle:
    """A battle about to be set up (A60) on ``table``, written to ``out`` with program dice of a fresh seed; sealed
    for its players when their PINs (``keys``) are given."""
    game = new_game(table, factions, streak, labels_apart=True)
    game.keys = keys
    dice = new_seeded_dice(private=True)
    commit_dice(game, dice)
    written = save_game(game, out, dice)
    return NewBattle(written, game.state.name, game.state.phase)


def new_session(table: Scenario, factions: dict[str, str], streak: dict[str, int] | None = None,
                program_dice: bool = True, autosaving: bool = True,
                computer: tuple[str, str] | None = None) -> BattleSession:
    """A battle about to be set up (A60) on ``table``, as a session: program dice of a fresh seed (or the players'
    own, typed in), autosaved from its first action as the window's battles are. Its seats play it from their own
    screens (a host serving it on the network), so no side is at a screen of this session's. ``computer``: the
    side the computer plays and its level (its seed drawn afresh, never typed)."""
    game = new_game(table, factions, streak or {}, labels_apart=True)
    player = Computer(computer[0], computer[1], new_seed()) if computer is not None else None
    # Keyed dice (``record.new_seeded_dice``): no file, seed or host's disk foretells a die of the served battle.
    return BattleSession(game, new_seeded_dice(private=True) if program_dice else None, hotseat=False,
                         autosaving=autosaving, computer=player)


class UnreadArguments(Exception):
    """The engine could not read an action's arguments: ``error`` is what it raised, for the client to word."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass(frozen=True)
class SavedAction:
    """One action played on a save: the engine's word on it, and where the battle stands after it."""

    legal: bool
    reason: str
    events: list[str]
    explain: list[str]
    rolls: list[list[Any]]
    phase: str
    to_act: str | None
    written: Path | None = None
    missing: str = ""             # a die the engine asked for and nobody gave (nothing was played)


def check_all_used(given: ScriptedDice, where: str, rolled: int | None = None) -> None:
    """Dice or bearings left over once the action is resolved are a typing slip: refuse them with the count the
    action rolled, so that nothing is applied from dice the players did not mean."""
    used = given.used_dice if rolled is None else rolled
    if len(given.dice) > used:
        raise InputError(where, f"too many dice: {len(given.dice)} given, but the action rolled {used} "
                                f"(give exactly {used}; nothing changed)")
    if len(given.bearings) > given.used_bearings:
        raise InputError(where, f"too many bearings: {len(given.bearings)} given, but the action measured "
                                f"{given.used_bearings} (give exactly {given.used_bearings}; nothing changed)")


def play_on_save(path: Path, action: Action, dice: list[int], bearings: list[float],
                 out: Path | str | None = None, keys: Keyring | None = None) -> SavedAction:
    """``action`` on the battle the save at ``path`` replays to, with exactly the faces and bearings given (a draw
    comes from the save's program dice, or a fresh seed's when the players roll). Legal and with ``out``: the battle
    with the action added is written there. Arguments the engine cannot read raise ``UnreadArguments``."""
    session = open_save(path, on_file=True, keys=keys).session
    given = ScriptedDice(dice=dice, bearings=bearings)
    try:
        attempt = session.attempt_scripted(action, given)
    except (LookupError, TypeError, ValueError) as e:
        raise UnreadArguments(e) from None
    if attempt.pending is not None:
        return SavedAction(False, "", [], [], [], session.state.phase, session.to_act(),
                           missing=attempt.pending.request.describe())
    outcome = attempt.outcome
    assert outcome is not None
    if outcome.legal:
        check_all_used(given, str(path))            # before anything is written: nothing changes
    written = session.save(out) if outcome.legal and out else None
    return SavedAction(outcome.legal, outcome.reason, list(outcome.events), list(outcome.explain),
                       [r.as_list() for r in outcome.rolls] if outcome.legal else [], session.state.phase,
                       session.to_act(), written)


def computer(side: str, level: str, seed: int) -> Computer:
    """The computer at ``level`` for ``side``, its choices drawn from ``seed``; a session seats it."""
    return Computer(side, level, seed)
