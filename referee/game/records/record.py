"""Saves are the record of the game: the state after set-up, every action since with its dice, nothing else.

A save file is JSON (see ``docs/saves.md``)::

    {"format": "seven-seconds-save", "version": 2, "program": "0.1.0", "saved_at": "2025-01-31T20:15:00+00:00",
     "initial": {...the whole GameState after set-up, secrets included...},
     "dice": {"seed": 1234..., "moment": "...", "counts": {...}},   # only when the program rolls (SeededDice)
     "record": [{"action": {...}, "rolls": [[label, kind, value], ...]}, ...],
     "state_digest": "..."}                              # SHA-256 of the state the record leads to

Loading never trusts the file: the document is validated (every problem named as ``item: what was expected``), the
initial state is rebuilt, and every action is replayed with its recorded dice, so the loaded state is exactly the one
that was saved. A file that fails any of this is reported as ``InputError(path, problems)`` and left untouched.

Saving never overwrites a file that is not a save of the same game (the same initial state) unless told to
(``overwrite=True``); the write is atomic, so a crash half-way leaves the old file whole. ``autosave`` keeps one
``autosave.json`` in the saves folder, and ``find_interrupted`` finds it again when the window starts.

A save is the referee's whole truth (both holding areas, missions, salts): show a player only what
``view.player_view`` makes of the loaded state.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from collections.abc import Sequence
from typing import Annotated, Callable, Literal, NoReturn, TypeVar

import shapely
from annotated_types import Len
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..battle.action_kinds import ALL_KINDS, KINDS, SETUP_KINDS, Kind, arg_named, arg_problem
from ... import __version__
from ...collector import cycle_collection_held
from ...rules.catalogue import terrain_types, unit_type_names
from ...rules.errors import InputError, pydantic_problems
from ...rules.factions import get_faction
from ...rules.files import check_text
from ...rules.rulings import Rulings
from ...rules.battlefield import ground_point
from ...rules.pieces import MAX_PIECES, Blip, DealtCards, GroundPoint, Objective, SavedTerrain, Side, Size, Unit, UnitContents
from ...rules.stats import Rating
from ...storage import atomic_write_text
from ..battle.intents import Action
from ..battle.dice import (DICE_ENTRY, Contribution, DiceMissing, Roll, SeededDice, keyed_dice, new_seed, replay_source,
                   seed_commitment)
from ..play.engine import Game, RecordEntry, play
from ..battle.relabel import relabel_square_named
from ..play.seal import canonical_json, canonical_text, seal_record, tamper_lines, tampered
from .sealing import Keyring, is_sealed, open_document, seal_document
from ..battle.state import SIDES, SQUARES, UNITS_PER_SQUARE, Data, GameState
from ..play.setup_steps import deciding_side
from ...rules.files import KIND_NAMES, OPEN_AS, document_kind, read_document, read_text_file

T = TypeVar("T")
FORMAT = "seven-seconds-save"
VERSION = 4
AUTOSAVE_NAME = "autosave.json"
ACTION_KINDS = ALL_KINDS            # every kind a record may hold (``action_kinds``)

# Steps that bring an older save format up to date: MIGRATIONS[n] turns a version-n document into version n + 1.


def _one_to_two(doc: Data) -> Data:
    """Format 2 (A23, A59): Scramble takes the owner's square and places its blips in a triangle with random labels.
    A format-1 record's Scrambles are marked ``legacy`` so that they replay as they were played."""
    record = doc.get("record")
    # Anything but a list is left as it is: the schema then names the field and what it expects.
    for entry in record if isinstance(record, list) else []:
        action = entry.get("action") if isinstance(entry, dict) else None
        if isinstance(action, dict) and action.get("kind") == Kind.SCRAMBLE \
                and isinstance(action.get("args", {}), dict):
            action["args"] = {**action.get("args", {}), "legacy": True}
    return doc


def _two_to_three(doc: Data) -> Data:
    """Format 3 (A60): set-up is in the record, and ``initial`` may be the blank set-up state. A format-2 save's
    ``initial`` is already past set-up and its record holds only the battle: it loads as it is."""
    return doc


def _three_to_four(doc: Data) -> Data:
    """Format 4: a save may name the sides the computer plays (``players``). A format-3 save names none: both sides
    were played by people (a battle against the computer saved by format 3 reopens as hot-seat)."""
    return doc


MIGRATIONS: dict[int, Callable[[Data], Data]] = {1: _one_to_two, 2: _two_to_three, 3: _three_to_four}


class WouldOverwrite(InputError):
    """The file exists and is not a save of this game: saving needs ``overwrite=True``."""


# ---- the save document's schema --------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# The pieces are the battle's own models (``rules/pieces.py``): a save's numbers are checked as strictly as a
# scenario's, so nothing a hand-edited save holds can reach the geometry that a scenario could not.
# The models of the state's parts below spell out each field of the state's declaration (``state_parts.py``,
# ``state.py``) with the bounds a file is held to, which those declarations do not carry; tests/test_state_parts.py
# holds them to it: the same fields, in the same order, and a field left out reads as the state's default.
MAX_SAVE_BYTES = 64 * 1024 * 1024


class _Turn(_Strict):
    player: Side
    primary_allowed: int = Field(default=1, ge=0)
    primary_used: int = Field(default=0, ge=0)
    extra_blips_used: int = Field(default=0, ge=0)
    active: str | None = None
    actions_left: int = Field(default=0, ge=0)
    queue: list[str] = []
    activation_kind: Literal["primary", "extra", ""] = ""
    acted: bool = False


class _Log(_Strict):
    text: str
    explain: list[str] = []
    units: list[str] = []
    private: dict[Side, str] = {}
    round: int = 0


class _Decision(_Strict):
    step: Literal["roles", "edge", "objective", "cards", "choose-cards", "holding", "blip"]
    side: Side
    objective: Literal["alpha", "beta", "gamma", "delta", "epsilon"] | None = None


class _Issued(_Strict):
    id: str = Field(min_length=1)
    type: str
    rating: Rating


class _Offered(_Strict):
    mission: Annotated[list[str], Len(1, 2)]
    troop: Annotated[list[str], Len(1, 2)]
    drone: str


class _Setup(_Strict):
    factions: dict[Side, str]
    streak: dict[Side, Annotated[int, Field(ge=0, le=4)]] = {}
    queue: Annotated[list[_Decision], Len(0, 64)]
    issued: dict[Side, Annotated[list[_Issued], Len(0, 2 * SQUARES)]] = {}
    offered: dict[Side, _Offered] = {}


class _Pool(_Strict):
    actor: str
    dice: int = Field(ge=1, le=100)
    rolls: Annotated[list[Annotated[list[str | float], Len(3, 3)]], Len(1, 100)]


class _KeptDraw(_Strict):
    """The public part of a kept side's card draw (``kept_cards.py``): the host's parts and the cards drawn from."""

    moment: str = Field(max_length=100)
    parts: Annotated[list[Annotated[str, Field(pattern="^[0-9a-f]{16}$")]], Len(16, 16)]
    streak: int = Field(ge=0, le=4)
    kind: str = Field(max_length=40)
    missions: Annotated[list[Annotated[str, Field(min_length=1, max_length=80)]], Len(1, 200)]
    troops: Annotated[list[Annotated[str, Field(min_length=1, max_length=80)]], Len(1, 200)]
    drones: Annotated[list[Annotated[str, Field(min_length=1, max_length=80)]], Len(1, 200)]


class _CardCommitment(_Strict):
    committed: str = Field(pattern="^[0-9a-f]{64}$")
    draw: _KeptDraw
    faction: str = Field(max_length=80)
    opened: Annotated[list[dict[Literal["id", "side", "faction", "rating", "type"], str]], Len(0, 64)] = []
    checked: bool = False
    limit_said: int | None = Field(default=None, ge=1, le=1000)     # the round it said its round limit was reached


class _State(_Strict):
    name: str
    width: Size
    height: Size
    rulings: dict[str, str | int | float] = {}
    scale: float = Field(default=1.0, ge=0.1, le=10, allow_inf_nan=False)
    attacker: Side | None = None
    mode: Literal["attack-defence", "chance-encounter", "table"] = "table"
    terrain: Annotated[list[SavedTerrain], Len(0, MAX_PIECES)] = []
    units: Annotated[list[Unit], Len(0, MAX_PIECES)] = []
    blips: Annotated[list[Blip], Len(0, MAX_PIECES)] = []
    objectives: list[Objective] = []
    holding: dict[Side, dict[str, list[UnitContents] | None]]
    round: int = Field(default=1, ge=1)
    phase: Literal["setup", "action", "end-of-round", "over"] = "action"
    initiative: Side = "A"
    turn: _Turn | None = None
    passes_in_row: int = Field(default=0, ge=0)
    pursuit: Side | None = None
    missions: dict[Side, str] = {}
    cards: dict[Side, DealtCards] = {}
    sealed: dict[Side, str] = {}
    salts: dict[Side, str] = {}
    destroyed: list[Data] = []
    control: Side | None = None
    result: Data | None = None
    log: list[_Log] = []
    setup: _Setup | None = None
    to_face: list[str] = []
    to_place: dict[str, str] = {}
    ground: Annotated[list[GroundPoint], Len(0, MAX_PIECES)] = []
    dice_commitments: dict[Literal["A", "B", "seed"], Annotated[str, Field(pattern="^[0-9a-f]{64}$")]] = {}
    square_commitments: dict[Literal["A", "B"], dict[Annotated[str, Field(pattern="^(?:[1-9]|1[0-6])$")],
                                                     Annotated[str, Field(pattern="^[0-9a-f]{64}$")]]] = {}
    issued_kept: dict[Side, Annotated[list[dict[Literal["id", "side", "faction", "rating", "type"], str]],
                                      Len(0, 64)]] = {}
    blip_commitments: dict[Side, Annotated[dict[Annotated[str, Field(min_length=1, max_length=64)],
                                                Annotated[str, Field(pattern="^[0-9a-f]{64}$")]], Len(0, 16)]] = {}
    breaches: Annotated[list[Annotated[str, Field(max_length=1000)]], Len(0, 64)] = []
    card_commitments: dict[Side, _CardCommitment] = {}
    pool: _Pool | None = None
    labels_apart: bool = False


class _Action(_Strict):
    kind: str
    actor: str = ""
    args: Data = {}


class _Entry(_Strict):
    action: _Action
    rolls: list[Annotated[list[str | float], Len(3, 3)]] = []
    why: str = Field(default="", max_length=4000)        # the computer's reason, in sealed saves only
    # A side kept on its own computer: its shares of the action's public numbers (``dice.py``).
    shares: dict[Side, Annotated[list[Annotated[str, Field(pattern="^[0-9a-f]{16}$")]], Len(0, 10_000)]] = {}


class _Contribution(_Strict):
    value: str = Field(pattern="^[0-9a-f]{64}$")
    salt: str = Field(pattern="^[0-9a-f]{32}$")


class _Dice(_Strict):
    seed: int = Field(ge=0, lt=2**256)
    moment: str | None = Field(default=None, max_length=100_000)
    counts: dict[str, Annotated[int, Field(ge=0, le=10**9)]] | None = None
    state: str | None = None            # earlier versions: the Mersenne Twister's state
    secret_salt: int | None = Field(default=None, ge=0, lt=2**256)
    # Each side's contribution to the public stream's key (its secret) and the commitments to them and to the seed.
    contributions: dict[Side, _Contribution] | None = None
    # The sides whose contribution is kept on their own computer (only its commitment is here).
    kept: list[Side] | None = None
    commitments: dict[Literal["A", "B", "seed"], Annotated[str, Field(pattern="^[0-9a-f]{64}$")]] | None = None


class _Player(_Strict):
    kind: Literal["computer"]
    level: Literal["easy", "normal", "hard"]
    seed: int = Field(ge=0, lt=2**256)


_DIGEST = Annotated[str, Field(pattern="^[0-9a-f]{64}$")]


class _Seal(_Strict):
    seal: _DIGEST
    parts: dict[Literal["holding", "blips", "mission", "cards", "dice"], _DIGEST] = {}


class _Save(_Strict):
    format: str
    version: int
    program: str
    saved_at: str
    initial: _State
    dice: _Dice | None = None
    refereed: bool = False
    campaign: str | None = Field(default=None, min_length=1, max_length=4096)
    players: dict[Literal["A", "B"], _Player] | None = None
    seals: dict[Side, _Seal] | None = None
    record: list[_Entry]
    state_digest: str | None = None
    # An autosave's snapshot: the id its journal names, so a journal left from an older snapshot is never added.
    snapshot: str | None = Field(default=None, min_length=1, max_length=64)


# ---- what a loaded save holds ------------------------------------------------------------------------------


@dataclass
class Save:
    """A loaded save: the game (state rebuilt by replay), the program's dice if it rolls, and where it came from."""

    game: Game
    dice: SeededDice | None = None
    path: Path | None = None
    program: str = ""
    saved_at: str = ""
    version: int = VERSION                      # the save format the file was written in (before migration)
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """A line safe to show any player (no secrets): name, round, phase, when it was saved."""
        s = self.game.state
        where = "battle over" if s.phase == "over" else f"round {s.round}, {s.phase.replace('-', ' ')}"
        if s.phase == "setup":

            where = f"set-up, side {deciding_side(s)} to decide"
        if s.turn is not None and s.phase == "action":
            where += f", side {s.turn.player} to play"
        n = len(self.game.record)
        return f"{s.name}: {where}, {n} action{'' if n == 1 else 's'} (saved {self.saved_at})"


# ---- dice -------------------------------------------------------------------------------------------------------


def dice_data(dice: SeededDice) -> Data:
    """The seed and where the streams stand, so a loaded game rolls on as if it had never stopped."""
    d: Data = {"seed": dice.seed, "moment": dice.moment, "counts": dict(sorted(dice.counts.items()))}
    if dice.secret_salt:
        d["secret_salt"] = dice.secret_salt
    if dice.keyed:
        # The fresh entropy is never written: what follows from this file is not the battle's next die.
        d["contributions"] = {side: {"value": c.value, "salt": c.salt} for side, c in sorted(dice.contributions.items())}
        d["commitments"] = dict(sorted(dice.commitments.items()))
    if dice.kept:
        d["kept"] = list(dice.kept)
    return d


def dice_from_data(d: Data, item: str = "dice") -> SeededDice:
    """Dice as ``dice_data`` wrote them. A save from an earlier version (one Mersenne Twister seeded from 2^31
    values, with a ``state``) rolls on from a new 128-bit seed: its old seed could be searched for."""
    if d.get("state") is not None or "moment" not in d:
        return SeededDice(new_seed())
    counts = {str(k): int(v) for k, v in (d.get("counts") or {}).items()}
    contributions = {str(side): Contribution(str(side), str(c["value"]), str(c["salt"]))
                     for side, c in (d.get("contributions") or {}).items()}
    seed, salt = int(d["seed"]), int(d.get("secret_salt") or 0)
    commitments = {str(k): str(v) for k, v in (d.get("commitments") or {}).items()}
    if salt and not commitments:
        # A battle of the window saved by an earlier version (its typed seed salted, no contributions): it rolls on
        # keyed by fresh entropy too, so its save does not foretell its next die either.
        commitments = {"seed": seed_commitment(seed, salt)}
    kept = tuple(sorted(str(side) for side in d.get("kept") or ()))
    return SeededDice(seed, str(d.get("moment", "")), counts, salt, contributions, commitments, kept)


# ---- saving -----------------------------------------------------------------------------------------------------


def state_digest(state: GameState) -> str:
    """SHA-256 of the whole state in canonical form (every number written one way), so a save read straight back
    gives the same digest: a digest that differs then means the file was changed. The canonical form turns tuples
    into lists and names every key as text itself (a state's keys are text and whole numbers), so the state's data
    is not written out and read back first (``_plain``), which was a third of the digest's cost."""
    return hashlib.sha256(canonical_text(state.to_data()).encode("utf-8")).hexdigest()


def _older_digests(state: GameState, named_back: Callable[[Data], Data] | None = None) -> tuple[str, ...]:
    """The digests earlier versions took, for their saves: numbers as they happened to be, the state before the log
    listed every die (entries ``dice: ...``) and before revealed troopers waited for their owner's facing, and
    (``named_back``) blip counters under their old square names."""
    data = _plain(state.to_data())
    if named_back is not None:
        data = named_back(data)
    without_dice = {k: v for k, v in data.items() if k not in ("to_face", "to_place")}
    without_dice["log"] = [e for e in data["log"] if not str(e["text"]).startswith(DICE_ENTRY)]
    return tuple(hashlib.sha256(f(d).encode("utf-8")).hexdigest()
                 for d in (data, without_dice) for f in (canonical_json, canonical_text))


def _plain(data: T) -> T:
    """JSON-normalised copy (tuples become lists), for comparisons with data read back from a file."""
    copied: T = json.loads(json.dumps(data))
    return copied


def save_document(game: Game, dice: SeededDice | None = None, snapshot: str | None = None) -> Data:
    doc: Data = {
        "format": FORMAT,
        "version": VERSION,
        "program": __version__,
        "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "initial": game.initial.to_data(),
    }
    if dice is not None:
        doc["dice"] = dice_data(dice)
    if game.refereed:
        doc["refereed"] = True
    if game.campaign:
        doc["campaign"] = game.campaign
    if game.players:
        doc["players"] = {side: dict(p) for side, p in sorted(game.players.items())}
    if game.state.sealed and game.state.phase != "setup":
        # The seals themselves and their part digests: a record edited after the fact replays to others.
        doc["seals"] = seal_record(game.after_setup())
    # The computer's reasons go only into a record that is sealed (its key is its own, outside the saves).
    doc["record"] = [e.to_data(with_why=game.keys is not None) for e in game.record]
    doc["state_digest"] = state_digest(game.state)
    if snapshot is not None:
        doc["snapshot"] = snapshot
    return _plain(doc)


def save_text(game: Game, dice: SeededDice | None = None, snapshot: str | None = None) -> str:
    """The file's text: the clear document, or, for a battle with keys, the same sealed for its sides
    (``sealing.py``)."""
    doc = save_document(game, dice, snapshot)
    if game.keys is None:
        return dumps_save(doc)
    sealed = seal_document(doc, _plain(game.state.to_data()), game.keys)
    return json.dumps(sealed, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def dumps_save(doc: Data) -> str:
    """One line per action: diffs of two saves of a game stay readable."""
    head = {k: v for k, v in doc.items() if k not in ("record", "state_digest")}
    text = json.dumps(head, indent=1, ensure_ascii=False, allow_nan=False)
    entries = ",\n  ".join(json.dumps(e, ensure_ascii=False, allow_nan=False) for e in doc["record"])
    record = "[\n  " + entries + "\n ]" if doc["record"] else "[]"
    tail = f',\n "record": {record}'
    if doc.get("state_digest"):
        tail += f',\n "state_digest": {json.dumps(doc["state_digest"])}'
    if doc.get("snapshot"):
        tail += f',\n "snapshot": {json.dumps(doc["snapshot"])}'
    return text[:-2] + tail + "\n}\n"


def save_game(game: Game, path: Path | str, dice: SeededDice | None = None, overwrite: bool = False,
              snapshot: str | None = None) -> Path:
    """Write ``game`` to ``path`` atomically. An existing file is replaced only if it is a save of the same game.

    Raises ``WouldOverwrite`` (an ``InputError``) for any other existing file, a corrupt save included, unless
    ``overwrite`` is true.
    """
    path = Path(path)
    if path.is_dir():
        raise InputError(str(path), "is a folder, expected a save file name")
    if path.exists() and not overwrite:
        why = not_same_game(path, game)
        if why:
            raise WouldOverwrite(str(path), f"{why}; not overwritten (choose another name, or overwrite it explicitly)")
    text = save_text(game, dice, snapshot)
    try:
        atomic_write_text(path, text, private=True)      # a save holds both sides' secrets
    except OSError as e:
        raise InputError(str(path), f"cannot be written ({e.strerror or e})") from None
    return path


def not_same_game(path: Path, game: Game) -> str:
    """Why the file at ``path`` is not a save of ``game`` ("" when it is one)."""
    try:
        doc = _read(path)
        if is_sealed(doc):
            same = game.keys is not None and doc.get("battle") == game.keys.battle
            return "" if same else "the file is a sealed save of another game"
        doc = _check_version(doc, str(path))
        parsed = _validate(doc, str(path))
    except InputError as e:
        return "the file exists and is not a readable save (" + "; ".join(e.problems)[:200] + ")"
    try:
        theirs = GameState.from_data(parsed.initial.model_dump()).to_data()
    except (LookupError, TypeError, ValueError):
        return "the file exists and its initial state is not readable"
    if _plain(theirs) != _plain(game.initial.to_data()):
        return "the file is a save of another game"
    return ""


# ---- loading ----------------------------------------------------------------------------------------------------


def _read(path: Path) -> Data:
    text = read_text_file(path, MAX_SAVE_BYTES, "not a save this program wrote (a long battle's save is a few MB)",
                          "a save file", "a JSON save")
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        doc = None                       # named below, once what the file is has been said
    if isinstance(doc, dict) and path.suffix.lower() == ".json":
        # The usual case, a JSON save, is parsed once: what kind of document it is is read off the same data.
        check_text(doc, str(path))
        _not_of_kind(path, document_kind(doc))
        return doc
    _not_another_kind(path, text)
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise InputError(str(path), f"line {e.lineno}, column {e.colno}: not valid JSON ({e.msg}); "
                                    "the file is kept as it is") from None
    except (ValueError, RecursionError) as e:
        raise InputError(str(path), f"not valid JSON ({e})") from None
    if not isinstance(doc, dict):
        raise InputError(str(path), "(top level): expected a JSON object with the keys of a save")
    check_text(doc, str(path))
    return doc


def _not_another_kind(path: Path, text: str) -> None:
    """A scenario, faction or card file given as a save is named as what it is, not as broken JSON."""

    if not text.strip():
        raise InputError(str(path), "the file is empty (expected a battle save)")
    try:
        kind = document_kind(read_document(path))
    except InputError:
        return                           # not readable as TOML or JSON either: the JSON error below says where
    _not_of_kind(path, kind)


def _not_of_kind(path: Path, kind: str) -> None:
    """Refuse a document of another ``kind`` (``document_kind``) by naming what it is."""
    if kind not in ("save", "card", "mail"):     # a document with another format key is named by it (``_check_version``)
        hint = (": open it with Open, or start a battle on it with Referee (a physical game) or New battle"
                if kind == "scenario" else "")
        raise InputError(str(path), f"(top level): this is {KIND_NAMES[kind]}, not a battle save{hint}")


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number a save may hold")


def _check_version(doc: Data, source: str) -> Data:
    if doc.get("format") != FORMAT:
        got = doc.get("format")
        if document_kind(doc) == "mail":
            raise InputError(source, f"(top level): this is {KIND_NAMES['mail']}, not a battle save; {OPEN_AS['mail']}")
        raise InputError(source, f"format: expected {FORMAT!r} (got {got!r}); this is not a 7 Seconds save"
                         if "format" in doc else f"format: required key is missing (expected {FORMAT!r})")
    v = doc.get("version")
    if "version" not in doc:
        raise InputError(source, "version: required key is missing")
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(source, f"version: expected a whole number (got {v!r})")
    if v > VERSION:
        raise InputError(source, f"version: this save is in format {v}, written by a newer program "
                                 f"({doc.get('program', 'unknown version')}); this program ({__version__}) reads "
                                 f"formats up to {VERSION}: update it to open this save")
    while v < VERSION:
        step = MIGRATIONS.get(v)
        if step is None:
            raise InputError(source, f"version: save format {v} is not one this program knows (expected 1 to {VERSION})")
        doc = step(dict(doc))
        v += 1
        doc["version"] = v
    return doc


def _validate(doc: Data, source: str) -> _Save:
    try:
        return _Save.model_validate(doc)
    except ValidationError as e:
        raise InputError(source, pydantic_problems(e)) from None


def _state_problems(s: _State) -> list[str]:
    """What the schema cannot see: ids, types, factions, squares, rulings."""
    problems: list[str] = []
    seen: dict[str, str] = {}

    def claim(ident: str, item: str) -> None:
        if ident in seen:
            problems.append(f"{item}.id: {ident!r} is already used by {seen[ident]}; ids must be unique")
        else:
            seen[ident] = item

    known_types = set(unit_type_names())
    kinds = terrain_types()
    factions: dict[str, str] = {}

    def check_member(item: str, u: UnitContents) -> None:
        if u.type not in known_types:
            problems.append(f"{item}.type: expected one of {', '.join(sorted(known_types))} (got {u.type!r})")
        if u.faction not in factions:
            try:
                get_faction(u.faction)
                factions[u.faction] = ""
            except InputError as e:
                factions[u.faction] = e.problems[0]
        if factions[u.faction]:
            problems.append(f"{item}.faction: {factions[u.faction]}")

    for i, t in enumerate(s.terrain):
        claim(t.id, f"initial.terrain[{i}]")
        if t.type not in kinds:
            problems.append(f"initial.terrain[{i}].type: expected one of {', '.join(kinds)} (got {t.type!r})")
        if t.polygon is not None:
            geom = shapely.Polygon(t.polygon)
            if not geom.is_valid:
                problems.append(f"initial.terrain[{i}].polygon: expected a simple polygon whose edges do not cross "
                                f"({shapely.is_valid_reason(geom)})")
            elif geom.area <= 1e-9:
                problems.append(f"initial.terrain[{i}].polygon: expected a polygon with an area (its points are in a line)")
    placed: list[tuple[str, Sequence[Unit | Blip | Objective]]] = [
        ("units", s.units), ("blips", s.blips), ("objectives", s.objectives)]
    for kind, entries in placed:
        for i, e in enumerate(entries):
            if not (0 <= e.x <= s.width and 0 <= e.y <= s.height):
                problems.append(f"initial.{kind}[{i}]: centre ({e.x:g}, {e.y:g}) is off the {s.width:g}\" x "
                                f"{s.height:g}\" table")
    for i, u in enumerate(s.units):
        claim(u.id, f"initial.units[{i}]")
        check_member(f"initial.units[{i}]", u)
    squares: dict[tuple[str, int], str] = {}
    for i, b in enumerate(s.blips):
        claim(b.id, f"initial.blips[{i}]")
        square = (b.side, b.square)
        if square in squares:
            problems.append(f"initial.blips[{i}].square: side {b.side}'s square {b.square} already belongs to blip {squares[square]!r}")
        squares[square] = b.id
    for i, o in enumerate(s.objectives):
        claim(o.id, f"initial.objectives[{i}]")
    for side in SIDES:
        if side not in s.holding:
            problems.append(f"initial.holding.{side}: required key is missing (side {side}'s holding area)")
    for side, area in s.holding.items():
        for key, contents in area.items():
            item = f"initial.holding.{side}.{key}"
            if not key.isdigit() or not 1 <= int(key) <= SQUARES:
                problems.append(f"{item}: expected a square number from 1 to {SQUARES}")
                continue
            for j, c in enumerate(contents or []):
                claim(c.id, f"{item}[{j}]")
                check_member(f"{item}[{j}]", c)
                if c.side != side:
                    problems.append(f"{item}[{j}].side: expected {side!r}, the holding area's side (got {c.side!r})")
            if contents is not None and len(contents) > UNITS_PER_SQUARE:
                problems.append(f"{item}: a square holds at most {UNITS_PER_SQUARE} units (got {len(contents)})")
    for (side, n), ident in squares.items():
        if side in s.holding and str(n) not in s.holding[side]:
            problems.append(f"initial.holding.{side}.{n}: missing, but blip {ident!r} stands for that square")
    if s.setup is not None:
        for side, faction in s.setup.factions.items():
            if faction not in factions:
                try:
                    get_faction(faction)
                    factions[faction] = ""
                except InputError as e:
                    factions[faction] = e.problems[0]
            if factions[faction]:
                problems.append(f"initial.setup.factions.{side}: {factions[faction]}")
        for side in SIDES:
            if side not in s.setup.factions:
                problems.append(f"initial.setup.factions.{side}: required key is missing (side {side}'s faction)")
        if s.phase != "setup":
            problems.append(f"initial.setup: only a state in set-up has one (phase is {s.phase!r})")
    elif s.phase == "setup":
        problems.append("initial.setup: required while the phase is 'setup' (the factions and the decisions to make)")
    if s.turn is not None and s.turn.active is not None and s.turn.active not in seen:
        problems.append(f"initial.turn.active: {s.turn.active!r} is not a unit or blip of this game")
    try:
        Rulings(s.rulings, source="initial.rulings")
    except InputError as e:
        if e.source != "initial.rulings":
            raise           # the program's rulings file is broken, not the save: reported against that file
        problems.extend(f"initial.{p}" for p in e.problems)
    return problems


def _face_problems(args: Data, item: str) -> list[str]:
    """A face action says the facing (A13), where a unit just revealed stands (x and y, A66), or both."""
    placed = "x" in args or "y" in args
    if placed and not ("x" in args and "y" in args):
        return [f"{item}.{'y' if 'x' in args else 'x'}: required with {'x' if 'x' in args else 'y'} for a face "
                f"action that places a unit"]
    if not placed and "facing" not in args:
        return [f"{item}.facing: required for a face action (or x and y: where a revealed unit stands)"]
    return []


def _args_problems(kind: str, args: Data, item: str) -> list[str]:
    """Each argument against its kind's declaration (``action_kinds.KINDS``): the required ones given, no other
    name, every value of its type and within its range. Each problem names the argument, the kind and what was
    expected; ``item`` names the action (``record[12].action.args``)."""
    entry = KINDS[kind]
    problems = _face_problems(args, item) if kind == Kind.FACE else []
    for declared in entry.args:
        if declared.required and declared.name not in args:
            problems.append(f"{item}.{declared.name}: required for a {kind} action (expected {declared.values})")
    for key, value in args.items():
        arg = arg_named(kind, key)
        if arg is None:
            names = ", ".join(a.name for a in entry.args) or "none"
            problems.append(f"{item}.{key}: not an argument of {kind} (expected {names})")
        elif why := arg_problem(arg, value):
            problems.append(f"{item}.{key}: expected {why} as the {key} of a {kind} action (got {_short(value)})")
    return problems


def action_problems(data: Data, item: str) -> list[str]:
    """What is wrong with one action given as data (``replay --do``), checked as a save's record entry is."""
    problems = []
    if not isinstance(data.get("actor", ""), str):
        problems.append(f"{item}.actor: expected a unit, blip or objective id")
    args = data.get("args", {})
    if not isinstance(args, dict):
        return problems + [f"{item}.args: expected an object of arguments (got {_short(args)})"]
    kind = data.get("kind")
    if kind not in KINDS:
        return problems + [f"{item}.kind: expected one of {', '.join(ACTION_KINDS)} (got {_short(kind)})"]
    return problems + _args_problems(str(kind), args, f"{item}.args")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _record_problems(doc: _Save) -> list[str]:
    problems = []
    for i, e in enumerate(doc.record):
        if e.action.kind not in ACTION_KINDS:
            problems.append(f"record[{i}].action.kind: expected one of {', '.join(ACTION_KINDS)} (got {e.action.kind!r})")
        elif e.action.kind in SETUP_KINDS and e.action.actor not in ("", "A", "B"):
            problems.append(f"record[{i}].action.actor: a set-up action's actor is a side, 'A' or 'B' "
                            f"(got {e.action.actor!r})")
        else:
            problems.extend(_args_problems(e.action.kind, e.action.args, f"record[{i}].action.args"))
        for j, r in enumerate(e.rolls):
            label, kind, value = r
            item = f"record[{i}].rolls[{j}]"
            if not isinstance(label, str) or not isinstance(kind, str):
                problems.append(f"{item}: expected [label, kind, value]")
            elif kind not in ("d6", "bearing", "draw"):
                problems.append(f"{item}: expected a kind of 'd6', 'bearing' or 'draw' (got {kind!r})")
            elif isinstance(value, str) or not math.isfinite(value):
                problems.append(f"{item}: expected a number as the value (got {value!r})")
            elif kind == "d6" and (value != int(value) or not 1 <= value <= 6):
                problems.append(f"{item}: a die shows 1 to 6 (got {value:g})")
            elif kind == "draw" and (value != int(value) or value < 0):
                problems.append(f"{item}: a draw is a whole number from 0 (got {value:g})")
            elif kind == "bearing" and not 0 <= value <= 360:
                problems.append(f"{item}: a bearing is 0 to 360 degrees (got {value:g})")
    return problems


def _ids_in(action: Action) -> list[tuple[str, str]]:
    """(item, id) for every unit, blip or objective an action names."""
    out = []
    adds = action.kind == Kind.CORRECT and action.args.get("add")        # a new piece: its id is new
    if action.kind in ACTION_KINDS and action.kind not in (Kind.END_ACTIVATION, Kind.END_TURN, Kind.END_OF_ROUND,
                                                           Kind.OBJECTIVES, Kind.TAKEN_BACK, Kind.MISSION, Kind.DICE_OPENED,
                                                           Kind.CARDS_OPENED,
                                                           Kind.FORFEIT) + SETUP_KINDS \
            and not adds:
        out.append(("action.actor", action.actor))
    for arg in KINDS[action.kind].args if action.kind in KINDS else ():
        named = action.args.get(arg.name)
        if arg.type == "id" and named:                   # the piece an action is aimed at (a target)
            out.append((f"action.args.{arg.name}", named))
    assign = action.args.get("assign")
    if isinstance(assign, dict):
        out.extend((f"action.args.assign.{k}", k) for k in assign)
    return out


def _replay(initial: GameState, entries: list[RecordEntry],
            source: str) -> tuple[GameState, tuple[int, GameState] | None]:
    """The state the record replays to from ``initial``, and (when the record began in set-up and left it) how many
    entries set-up took with a copy of the state it ended in (``Game.setup_end``)."""
    # The game keeps ``initial``: the replay starts on a copy, and gives each state after it up to the next action.
    state = initial.copy()
    setup_end: tuple[int, GameState] | None = None
    for i, entry in enumerate(entries):
        action = entry.action
        named = _ids_in(action)
        for item, ident in named:
            if not (isinstance(ident, str) and _known(state, action, ident)):
                known = {other for _, other in named if isinstance(other, str) and _known(state, action, other)}
                known |= set(state.units) | set(state.blips) | set(state.objectives) | set(state.ground)
                if action.kind == Kind.CORRECT:
                    known |= {t.id for t in state.terrain}
                raise InputError(source, f"record[{i}].{item}: no unit, blip or objective {ident!r} at this point "
                                         f"of the game (action {i + 1}); expected one of {', '.join(sorted(known))}")
        where = _Where(i, action)
        dice = replay_source(entry.rolls)
        try:
            outcome = play(state, action, dice, in_place=True)
        except DiceMissing as e:
            raise InputError(source, f"{where}.rolls: the action needs more rolls than the {len(entry.rolls)} "
                                     f"recorded (missing: {e.request.describe()})") from None
        except InputError as e:
            raise InputError(source, f"{where}: could not be replayed ({'; '.join(e.problems)})") from None
        except (LookupError, TypeError, ValueError, ArithmeticError) as e:
            # What a record the schema accepts can still hold that the engine rejects (an argument of the wrong
            # kind or out of range): the file's fault, named as such. Any other exception is a program error and
            # is not disguised as a bad file.
            raise InputError(source, f"{where}: could not be replayed ({type(e).__name__}: {e})") from None
        if not outcome.legal:
            raise InputError(source, f"{where}: no longer replays: {outcome.reason}")
        used = [r.kind for r in outcome.rolls]
        recorded = [r.kind for r in entry.rolls]
        if used != recorded:
            raise InputError(source, f"record[{i}].rolls: {len(entry.rolls)} rolls recorded ({', '.join(recorded) or 'none'}) "
                                     f"but the action used {len(used)} ({', '.join(used) or 'none'})")
        state = outcome.state
        if setup_end is None and initial.phase == "setup" and state.phase != "setup":
            setup_end = (i + 1, state.copy())
    return state, setup_end


def _known(state: GameState, action: Action, ident: str) -> bool:
    """Is ``ident``, named by ``action``, a unit, blip, objective or patch of ground at this point of the game, or a
    point of the ground itself (or, for the referee's correction, a terrain piece)?"""
    return (ident in state.units or ident in state.blips or ident in state.objectives or ident in state.ground
            or bool(ground_point(ident))
            or (action.kind == Kind.CORRECT and any(t.id == ident for t in state.terrain)))  # terrain corrected too


@dataclass(frozen=True)
class _Where:
    """Where in the record a replayed action stands, as a refusal names it: written out only for a refusal."""

    index: int
    action: Action

    def __str__(self) -> str:
        return f"record[{self.index}] (action {self.index + 1}, {_action_text(self.action)})"


def _action_text(action: Action) -> str:
    try:
        return repr(action.text())
    except (LookupError, TypeError, ValueError):
        return repr(action.kind)


def read_save(path: Path | str, keys: Keyring | None = None) -> Save:
    """Load, validate and replay a save; ``InputError(path, problems)`` for anything wrong. The file is only read.
    A sealed save needs both sides' keys (``sealing.Locked`` names those missing); the battle keeps them."""
    path = Path(path)
    return save_from_document(_read(path), path, keys)


def save_from_document(raw: Data, path: Path, keys: Keyring | None = None) -> Save:
    """``read_save`` of a document already read from ``path`` (the autosave adds its journal first). The cycle
    collector is held back while the record is replayed: a replay makes a battle's worth of objects that all live
    on (states, log entries), and the collector walked them again and again, a sixth of opening a long battle."""
    with cycle_collection_held():
        return _save_from_document(raw, path, keys)


def _save_from_document(raw: Data, path: Path, keys: Keyring | None = None) -> Save:
    source = str(path)
    if is_sealed(raw):
        raw = open_document(raw, keys, source)
    stated = raw.get("version")
    original_version = stated if isinstance(stated, int) else VERSION
    # Format 1 named counters by their square: they are renamed before anything else reads them (A59).
    current, named_back = _check_version(raw, source), None
    if original_version < 2:
        current, named_back = relabel_square_named(current)
    doc = _validate(current, source)
    if doc.format != FORMAT:
        raise InputError(source, f"format: expected {FORMAT!r} (got {doc.format!r})")
    problems = _state_problems(doc.initial) + _record_problems(doc)
    if problems:
        raise InputError(source, problems)
    try:
        initial = GameState.from_data(doc.initial.model_dump())
    except (LookupError, TypeError, ValueError) as e:
        raise InputError(source, f"initial: cannot be turned into a battle ({type(e).__name__}: {e})") from None
    try:
        entries = [RecordEntry(Action.from_data(e.action.model_dump()),
                               [Roll(str(r[0]), str(r[1]), int(r[2]) if r[1] in ("d6", "draw") else float(r[2]))
                                for r in e.rolls], e.why, {str(k): list(v) for k, v in e.shares.items()})
                   for e in doc.record]
    except (LookupError, TypeError, ValueError) as e:
        raise InputError(source, f"record: cannot be read ({type(e).__name__}: {e})") from None
    state, setup_end = _replay(initial, entries, source)
    dice = None
    if doc.dice is not None:
        try:
            dice = dice_from_data(doc.dice.model_dump(exclude_none=True))
        except ValueError as e:
            raise InputError(source, str(e)) from None
    warnings = []
    # The digests earlier versions took are worked only when this version's differs (four more hashes of the
    # whole state).
    if doc.state_digest and doc.state_digest != state_digest(state) \
            and doc.state_digest not in _older_digests(state, named_back):
        warnings.append(f"the battle this save's record replays to differs from the one it says was saved (its "
                        f"state_digest): the file was edited or damaged after {doc.program} wrote it, or that "
                        f"program replays differently; the replayed battle is used")
    players: dict[str, Data] = {str(side): p.model_dump() for side, p in (doc.players or {}).items()}
    game = Game(initial, entries, state, refereed=doc.refereed, campaign=doc.campaign, players=players)
    game.keys = keys
    if setup_end is not None:
        # The seal check below, and the next save's seals, ask for the state set-up ended in: the replay above
        # passed it, and a set-up left to the program is dear to replay again.
        game.setup_end = (initial, entries[:setup_end[0]], setup_end[1])
    game.tampered = _tampered(game, doc, dice)
    warnings += game.tampered
    return Save(game, dice, path, doc.program, doc.saved_at, original_version, warnings)


def _tampered(game: Game, doc: _Save, dice: SeededDice | None) -> list[str]:
    """What the save's seals and dice commitments catch: the seals it keeps against those its record replays to,
    and each dice contribution and the seed against its commitment (``seal.tampered``)."""
    if doc.seals is None and (dice is None or not dice.keyed):
        return []
    made = game.after_setup() if game.state.phase != "setup" else game.state
    kept: dict[str, Data] = {str(side): s.model_dump() for side, s in (doc.seals or {}).items()}
    lines = tamper_lines(tampered(kept, made))
    if dice is not None and dice.keyed:
        wrong = dice.unopened()
        if made.dice_commitments and dice.commitments != made.dice_commitments:
            wrong.append("commitments")
        for what in wrong:
            lines.append("TAMPERED: the dice seed is not the one committed at set-up: the save was edited"
                         if what in ("seed", "commitments") else
                         f"TAMPERED: side {what}'s dice contribution is not the one it committed to at set-up: the "
                         f"save was edited")
    return lines


def load_game(path: Path | str) -> Game:
    """The game in a save file, its state rebuilt by replaying every action with its recorded dice."""
    return read_save(path).game


def commit_dice(game: Game, dice: SeededDice | None) -> bool:
    """Write the commitments of keyed ``dice`` into a battle not yet set up (its first state and its state now),
    before set-up rolls anything: the seals made at the end of set-up cover them. True if written."""
    if dice is None or not dice.keyed or game.record or game.initial.phase != "setup" or game.initial.dice_commitments:
        return False
    game.initial.dice_commitments = dict(dice.commitments)
    game.state.dice_commitments = dict(dice.commitments)
    return True


def new_seeded_dice(seed: int | None = None, private: bool = False) -> SeededDice:
    """Dice the program rolls, with a 128-bit seed drawn from the operating system unless one is given.

    ``private`` (a battle at the window): the sides' secret draws are salted from the operating system
    (``SeededDice.secret_salt``) and the public dice are keyed by both sides' committed contributions and fresh
    entropy (``dice.keyed_dice``), so neither the seed nor any file foretells a die. Scripts, tests and benchmarks
    leave it off, to play a seed again exactly: such a seed gives every die away."""
    if private:
        return keyed_dice(new_seed() if seed is None else seed, new_seed())
    return SeededDice(new_seed() if seed is None else seed)
