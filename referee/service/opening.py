"""Opening a saved battle for the window: a save, the autosave (its snapshot and the journal of every action since),
the battle a crash interrupted, and why a damaged autosave cannot be resumed.

The window is handed a ``SavedBattle``: a line safe to show any player, the file's warnings and, when it opens it,
a session. It never holds the save's battle itself.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from ..game.records import autosave, roll_book
from ..game.records.record import AUTOSAVE_NAME, Save, _read, read_save
from ..game.records.sealing import Keyring, is_sealed
from ..game.battle.sides import SIDES
from ..rules.errors import InputError
from .keys import computer_pin, has_kept_pin, kept_pin, keyring
from .look_back import LookBack
from .referee import RefereeSession
from .session import BattleSession


class SavedBattle:
    """A battle read from a file, ready to be opened at the window."""

    def __init__(self, save: Save) -> None:
        self._save = save

    @property
    def path(self) -> Path | None:
        return self._save.path

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(self._save.warnings)

    @property
    def refereed(self) -> bool:
        """A physical game the program followed: it opens in the referee's mode."""
        return self._save.game.refereed

    def summary(self) -> str:
        """A line safe to show any player (no secrets): name, round, phase, when it was last saved."""
        return self._save.summary()

    def kept_elsewhere(self) -> list[str]:
        """The sides whose holding area is kept on their own computer with a square not opened yet: the battle goes on
        only where that computer can join it (``seven-seconds host FILE --kept-by SIDE``)."""
        s = self._save.game.state
        return [side for side in sorted(s.square_commitments)
                if any(c is None for c in s.holding[side].squares.values())]

    def open(self, campaign: Path | None = None, served: bool = False) -> BattleSession:
        """The battle as a session of the window: a refereed game for the referee's seat, else hot-seat (or against
        the computer the save names), a battle of ``campaign`` if given. An autosave is never the battle's own file:
        Save then asks for a name. A battle with a side kept on its own computer opens only ``served`` (by
        ``seven-seconds host``, which that computer joins); raises ``InputError`` otherwise, and for an older copy of
        a battle this computer has rolled for after the place where the copy stops (``roll_book.py``)."""
        save = self._save
        # An older copy of a battle this computer played further, put back: its next dice were rolled already.
        roll_book.check(save.game, str(save.path) if save.path is not None else "the battle")
        kept = self.kept_elsewhere()
        if kept and not served:
            where = str(save.path) if save.path is not None else "the battle"
            raise InputError(where, f"side {' and side '.join(kept)} keeps its holding area on its own computer: "
                                    f"serve the battle with seven-seconds host FILE --kept-by {kept[0]} and join it "
                                    f"from that computer")
        autosaved = save.path is not None and (save.path.name == AUTOSAVE_NAME
                                               or autosave.journal_path(save.path).exists())
        save_path = save.path if save.path and not autosaved else None
        if save.game.refereed:
            return RefereeSession(save.game, None, save_path=save_path)
        return BattleSession(save.game, save.dice, hotseat=True, save_path=save_path, campaign=campaign)


class SealedBattle:
    """A battle in a file sealed for its players (``game/records/sealing.py``): a line anyone may read, and the battle once
    its players have given their PINs (``unlock``)."""

    refereed = False
    warnings: tuple[str, ...] = ()

    def __init__(self, path: Path, public: dict[str, object], saved_at: str, battle: str = "",
                 snapshot: str = "") -> None:
        self.path = path
        self._public = public
        self._saved_at = saved_at
        self._snapshot = snapshot
        self._battle = battle

    @property
    def over(self) -> bool:
        return self._now()[1] == "over"

    def _now(self) -> tuple[object, str, object, object, str]:
        """The battle as anyone may read it: its actions, phase, round, whose turn and when it was saved, as its
        autosave's journal left it (its actions since the snapshot, where the battle stood after the last, in clear
        beside it), not as the snapshot began it."""
        state = self._public.get("state")
        state = state if isinstance(state, dict) else {}
        count: object = self._public.get("actions", "?")
        saved_at = self._saved_at
        phase, round_ = str(state.get("phase", "?")), state.get("round", "?")
        turn = state.get("turn")
        player = turn.get("player") if isinstance(turn, dict) else None
        if isinstance(count, int) and self.path.name.startswith(Path(AUTOSAVE_NAME).stem):
            count, at, when = autosave.journal_public(self.path, self._snapshot, count)
            if when is not None:
                saved_at = datetime.fromtimestamp(when, timezone.utc).isoformat(timespec="seconds")
            if at is not None:
                phase, round_, player = str(at.get("phase", phase)), at.get("round", round_), at.get("player")
        return count, phase, round_, player, saved_at

    def computer_side(self) -> str | None:
        players = self._public.get("players")
        for side, p in (players.items() if isinstance(players, dict) else ()):
            if isinstance(p, dict) and p.get("kind") == "computer":
                return str(side)
        return None

    def sides(self) -> tuple[str, ...]:
        """Whose PINs are asked: each side a person plays who set one (the computer's key is the program's own, and
        so is that of a player who set none against it)."""
        return tuple(side for side in SIDES
                     if side != self.computer_side() and not has_kept_pin(self._battle, side))

    def summary(self) -> str:
        state = self._public.get("state")
        name = state.get("name", "?") if isinstance(state, dict) else "?"
        count, phase, round_, player, saved_at = self._now()
        where = ("battle over" if phase == "over" else "set-up" if phase == "setup"
                 else f"round {round_}, {phase.replace('-', ' ')}")
        if player and phase == "action":
            where += f", side {player} to play"
        return (f"{name}: {where}, {count} action{'' if count == 1 else 's'} (saved {saved_at}; sealed for its "
                f"players)")

    def unlock(self, pins: dict[str, str]) -> SavedBattle:
        """The battle opened with its players' PINs; ``Locked`` names a side whose PIN is missing, ``WrongKey`` one
        whose PIN does not open its part."""
        keys: Keyring = keyring(pins)
        computer = self.computer_side()
        if computer is not None:
            doc = _read(self.path)
            keys.pins[computer] = computer_pin(str(doc.get("battle")))
            for side in SIDES:
                if side != computer and side not in keys.pins and has_kept_pin(self._battle, side):
                    keys.pins[side] = kept_pin(self._battle, side)
        return SavedBattle(_read_save(self.path, keys))


def look_back_sealed(sealed: SealedBattle, pins: dict[str, str]) -> LookBack:
    """A finished battle sealed for its players, to look back on once they gave their PINs."""
    return LookBack(sealed.unlock(pins)._save.game)


def _read_save(path: Path, keys: Keyring | None = None) -> Save:
    return autosave.read_autosave(path, keys) if autosave.journal_path(path).exists() else read_save(path, keys)


def _sealed(path: Path) -> SealedBattle | None:
    doc = _read(path)
    if not is_sealed(doc):
        return None
    public = doc.get("public")
    if not isinstance(public, dict):
        raise InputError(str(path), "public: expected the battle's public part")
    return SealedBattle(path, public, str(doc.get("saved_at", "")), str(doc.get("battle", "")),
                        str(doc.get("snapshot", "")))


def read_battle(path: Path | str) -> SavedBattle | SealedBattle:
    """The battle the file at ``path`` holds. An autosave is its snapshot and its journal: read alone, the snapshot
    would open the battle where it stood long ago. A damaged file raises ``InputError`` naming it. A file sealed for
    its players is a ``SealedBattle``, opened once they give their PINs."""
    path = Path(path)
    return _sealed(path) or SavedBattle(_read_save(path))


def interrupted_battle() -> SavedBattle | SealedBattle | None:
    """The autosaved battle that is not over, for the window to offer resuming (None: there is none)."""
    path = autosave.autosave_path()
    try:
        sealed = _sealed(path) if path.is_file() else None
    except InputError:
        sealed = None
    if sealed is not None:
        return None if sealed.over else sealed
    save = autosave.find_interrupted()
    return SavedBattle(save) if save is not None else None


def damaged_autosave() -> str | None:
    """Why the autosave cannot be resumed (None: there is none, or it opens); the file is left as it is."""
    return autosave.damaged_autosave()


def autosave_file() -> Path:
    return autosave.autosave_path()
