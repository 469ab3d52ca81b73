"""Each side's secrets sealed at rest: no file the program writes holds a side's secret in clear.

A battle with a ``Keyring`` (each player's PIN or passphrase, held in memory only) is written as a sealed save
(format version 5) instead of the clear document ``record.py`` builds:

* ``public``: what every seat may see, the battle's state split by ``state_parts.STATE_PARTS`` (a public field
  whole, a field kept by side left out, a mixed field without its sides' parts), for the state the battle started
  from and the state it stands in now; who plays (without the computer's seed); how many actions were played.
* ``sides``: for each side, its entries of the fields kept by side and its parts of the mixed fields (its blips'
  squares, its private log notes, its set-up cards), sealed under that side's key alone.
* ``both``: the record (every action with its dice: set-up decisions name squares and cards), the dice's seed and
  the state's digest, sealed under a key made of both sides' keys: only the two players together replay the battle.

A side's key is scrypt of its PIN with a salt of its own (``cryptography``), kept in memory for the battle so a
save costs no new derivation; each part is ChaCha20-Poly1305 with a fresh nonce, its associated data naming the
format, the battle's id, the part and the record's length (a journal line: the index of its action), so a part
cannot be moved to another battle, another file of the battle or another place in its record unnoticed. A wrong
PIN, or a part edited, fails the tag: ``WrongKey`` names the side.

Which fields are whose comes from the declaration alone (``split_state``); a mixed field needs a splitter here, and
a mixed field declared without one fails at import.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from ...rules.errors import InputError
from ..battle.sides import SIDES
from ..battle.state_parts import STATE_PARTS

Data = dict[str, Any]

SEALED_VERSION: Final = 5
AD_FORMAT: Final = "seven-seconds-sealed/1"
# scrypt's cost: 2^15 x 8 x 128 bytes = 32 MB and about 0.1 s a derivation, once per side and battle. A 4-digit PIN
# still falls to 10,000 tries (about 17 CPU-minutes): the README says so, and offers generated keys.
KDF_N: Final = 2 ** 15
KDF_R: Final = 8
KDF_P: Final = 1
MIN_PIN: Final = 4
BOTH: Final = "both"


def new_key_cost() -> int:
    """The scrypt cost a new keyring derives at: ``KDF_N``. A file states the cost it was sealed with and is opened at
    that cost, whatever this says (the test suite makes its keys cheaper here: ``tests/conftest.py``)."""
    return KDF_N


class WrongKey(InputError):
    """A sealed part did not open: a wrong PIN, or the file edited. ``part``: whose (a side, or both together)."""

    part = ""


class Locked(InputError):
    """The file is sealed and a key it needs was not given."""

    def __init__(self, source: str, missing: tuple[str, ...]) -> None:
        whose = " and ".join(missing)
        super().__init__(source, f"sealed for its players: the PIN of side {whose} is needed to open it"
                         if len(missing) == 1 else f"sealed for its players: the PINs of sides {whose} are needed "
                                                   f"to open it")
        self.missing = missing


def check_pin(pin: str) -> str:
    """A PIN or passphrase as typed: at least ``MIN_PIN`` characters, spaces at either end dropped."""
    pin = pin.strip()
    if len(pin) < MIN_PIN:
        raise InputError("PIN", f"expected at least {MIN_PIN} characters (got {len(pin)})")
    return pin


def generated_pin() -> str:
    """A key for a player who takes one: 12 letters and digits in three groups (about 62 bits), easy to copy."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(3))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: object, source: str, item: str) -> bytes:
    if not isinstance(text, str):
        raise InputError(source, f"{item}: expected base64 text")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise InputError(source, f"{item}: expected base64 text") from None


def derive(pin: str, salt: bytes, n: int = KDF_N, r: int = KDF_R, p: int = KDF_P) -> bytes:
    return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(pin.encode("utf-8"))


@dataclass
class Keyring:
    """The battle's keys, in memory only: each side's PIN as typed, the battle's id and each side's scrypt salt once
    the battle has been written (or read), and the keys derived from them."""

    pins: dict[str, str] = field(default_factory=dict)
    battle: str = field(default_factory=lambda: secrets.token_hex(16))
    salts: dict[str, bytes] = field(default_factory=dict)
    cost: int = field(default_factory=lambda: new_key_cost())      # looked up when made: see new_key_cost
    _keys: dict[tuple[str, bytes, int], bytes] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:                  # never the PINs, in a traceback or a log
        return f"Keyring(battle={self.battle!r}, sides={sorted(self.pins)})"

    def has(self, side: str) -> bool:
        return side in self.pins

    def key(self, side: str, salt: bytes, n: int) -> bytes:
        cached = self._keys.get((side, salt, n))
        if cached is None:
            cached = derive(self.pins[side], salt, n)
            self._keys[(side, salt, n)] = cached
        return cached

    def kdf(self) -> dict[str, Data]:
        """Each side's salt and cost, as the file states them (made once per battle)."""
        for side in SIDES:
            self.salts.setdefault(side, os.urandom(16))
        return {side: {"kdf": "scrypt", "salt": _b64(self.salts[side]), "n": self.cost, "r": KDF_R, "p": KDF_P}
                for side in SIDES}

    def adopt(self, doc: Data, source: str) -> None:
        """Take the battle's id and salts from a sealed file read, so the next write needs no new derivation."""
        self.battle = str(doc.get("battle"))
        kdf = doc.get("kdf")
        if not isinstance(kdf, dict):
            raise InputError(source, "kdf: expected each side's key derivation")
        for side in SIDES:
            params = kdf.get(side)
            if not isinstance(params, dict) or not isinstance(params.get("n"), int):
                raise InputError(source, f"kdf.{side}: expected scrypt's salt and cost")
            if params["n"] not in (2 ** k for k in range(10, 21)):
                raise InputError(source, f"kdf.{side}.n: expected a power of two from 2^10 to 2^20")
            self.salts[side] = _unb64(params.get("salt"), source, f"kdf.{side}.salt")
            self.cost = params["n"]

    def side_key(self, side: str) -> bytes:
        self.kdf()
        return self.key(side, self.salts[side], self.cost)

    def joint_key(self) -> bytes:
        material = b"".join(self.side_key(side) for side in SIDES)
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                    info=f"{AD_FORMAT}|{self.battle}|both".encode()).derive(material)

    def part_key(self, part: str) -> bytes:
        return self.joint_key() if part == BOTH else self.side_key(part)

    def can_open(self, part: str) -> bool:
        return all(self.has(s) for s in SIDES) if part == BOTH else self.has(part)


def associated(battle: str, part: str, index: int) -> bytes:
    return f"{AD_FORMAT}|{battle}|{part}|{index}".encode("utf-8")


def seal(keys: Keyring, part: str, index: int, data: object) -> str:
    nonce = os.urandom(12)
    plain = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    return _b64(nonce + ChaCha20Poly1305(keys.part_key(part)).encrypt(nonce, plain, associated(keys.battle, part, index)))


def unseal(keys: Keyring, part: str, index: int, text: object, source: str, item: str) -> Any:
    raw = _unb64(text, source, item)
    if len(raw) < 12 + 16:
        raise InputError(source, f"{item}: too short to be a sealed part")
    try:
        plain = ChaCha20Poly1305(keys.part_key(part)).decrypt(raw[:12], raw[12:], associated(keys.battle, part, index))
    except InvalidTag:
        whose = "both sides' PINs" if part == BOTH else f"side {part}'s PIN"
        wrong = WrongKey(source, f"{item}: does not open with {whose} as given (a wrong PIN, or the file was "
                                 f"changed since it was written)")
        wrong.part = part
        raise wrong from None
    try:
        return json.loads(plain.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise InputError(source, f"{item}: opened, but is not what this program seals") from None


# ---- the state split by the declaration ---------------------------------------------------------------------------


def _split_blips(value: Any, sides: dict[str, Data]) -> Any:
    """A blip counter is public; the square it stands for is its owner's (A59)."""
    public = []
    for blip in value:
        blip = dict(blip)
        square = blip.pop("square", None)
        if blip.get("side") in sides:
            sides[blip["side"]].setdefault("blips", {})[str(blip["id"])] = square
        public.append(blip)
    return public


def _join_blips(value: Any, sides: Mapping[str, Data]) -> Any:
    out = []
    for blip in value:
        blip = dict(blip)
        mine = sides.get(blip.get("side", ""), {}).get("blips", {})
        blip["square"] = mine.get(str(blip["id"]), 0)       # 0: the square of a side whose key was not given
        out.append(blip)
    return out


def _split_log(value: Any, sides: dict[str, Data]) -> Any:
    """A log entry's text is public; its private notes are each their side's."""
    public = []
    for i, entry in enumerate(value):
        entry = dict(entry)
        notes = entry.pop("private", None)
        if notes is not None:
            entry["private"] = {}
            for side, note in notes.items():
                sides[side].setdefault("log", {})[str(i)] = note
        public.append(entry)
    return public


def _join_log(value: Any, sides: Mapping[str, Data]) -> Any:
    out = [dict(e) for e in value]
    for side, part in sides.items():
        for i, note in part.get("log", {}).items():
            out[int(i)].setdefault("private", {})[side] = note
    for entry in out:
        if "private" in entry:
            entry["private"] = dict(sorted(entry["private"].items()))
    return out


_SIDE_SETUP = ("issued", "offered")          # the units a side's cards issue, the cards offered it: its own


def _split_setup(value: Any, sides: dict[str, Data]) -> Any:
    """Set-up's queue, factions and streaks are public; the cards a side drew and the units they issue, its own."""
    if value is None:
        return None
    public = {k: v for k, v in value.items() if k not in _SIDE_SETUP}
    for key in _SIDE_SETUP:
        if key in value:
            public[key] = {}
            for side, own in value[key].items():
                sides[side].setdefault("setup", {})[key] = own
    return public


def _join_setup(value: Any, sides: Mapping[str, Data]) -> Any:
    if value is None:
        return None
    out = dict(value)
    for key in _SIDE_SETUP:
        if key in out:
            out[key] = {side: part["setup"][key] for side, part in sorted(sides.items())
                        if key in part.get("setup", {})}
    return out


MIXED: Final[dict[str, tuple[Callable[[Any, dict[str, Data]], Any], Callable[[Any, Mapping[str, Data]], Any]]]] = {
    "blips": (_split_blips, _join_blips),
    "log": (_split_log, _join_log),
    "setup": (_split_setup, _join_setup),
}
_UNSPLIT = [name for name, part in STATE_PARTS.items() if part.secrecy == "mixed" and name not in MIXED]
if _UNSPLIT:
    raise RuntimeError(f"state_parts declares mixed fields with no splitter in sealing.py: {', '.join(_UNSPLIT)}")


def split_state(data: Data) -> tuple[Data, dict[str, Data]]:
    """The state's data as ``GameState.to_data`` gives it, split into its public part and each side's part."""
    unknown = sorted(set(data) - set(STATE_PARTS))
    if unknown:
        raise ValueError(f"state fields not declared in state_parts: {', '.join(unknown)}")
    public: Data = {}
    sides: dict[str, Data] = {side: {} for side in SIDES}
    for name, part in STATE_PARTS.items():
        if name not in data:
            continue
        value = data[name]
        if part.secrecy == "public":
            public[name] = value
        elif part.secrecy == "by side":
            public[name] = {}                    # whose entries there are is said by the sides' parts
            for side, own in (value or {}).items():
                if side not in sides:
                    raise ValueError(f"{name}: {side!r} is not a side")
                sides[side].setdefault("by side", {})[name] = own
        else:
            public[name] = MIXED[name][0](value, sides)
    return public, sides


def join_state(public: Data, sides: Mapping[str, Data]) -> Data:
    """``split_state`` undone: the whole state when both sides' parts are given; with one side's, the public state
    and that side's secrets (the other side's left out: no entries, blips standing for square 0)."""
    data: Data = {}
    for name, value in public.items():
        part = STATE_PARTS.get(name)
        if part is None or part.secrecy == "public":
            data[name] = value
        elif part.secrecy == "by side":
            data[name] = {side: own["by side"][name] for side, own in sorted(sides.items())
                          if name in own.get("by side", {})}
        else:
            data[name] = MIXED[name][1](value, sides)
    return data


# ---- a save document sealed and opened --------------------------------------------------------------------------

# The clear document's keys any seat may read; every other key (the record, the dice, the digest, the players with
# the computer's seed, and any key a later format adds) goes into ``both``, so nothing new is ever written in clear.
_HEAD_KEYS = ("format", "program", "saved_at", "snapshot")
_PUBLIC_KEYS = ("refereed", "campaign")


def is_sealed(doc: Data) -> bool:
    return doc.get("version") == SEALED_VERSION and "both" in doc


def seal_document(doc: Data, state: Data, keys: Keyring) -> Data:
    """The clear save document ``record.save_document`` made (and the state its record leads to), sealed."""
    index = len(doc["record"])
    initial_public, initial_sides = split_state(doc["initial"])
    state_public, state_sides = split_state(state)
    players = doc.get("players") or {}
    public: Data = {
        "initial": initial_public,
        "state": state_public,
        "actions": index,
        "players": {side: {k: v for k, v in p.items() if k != "seed"} for side, p in players.items()},
    }
    for key in _PUBLIC_KEYS:
        if key in doc:
            public[key] = doc[key]
    result = state.get("result") or {}
    if state.get("phase") == "over" and not result.get("pending"):
        # The battle is over: the rules reveal both sides (the end-of-battle report), so each side's part of the
        # final state is public, and a player who forgot their PIN still sees the other side's. The record, the
        # dice and the state the battle started from stay sealed.
        public["revealed"] = state_sides
    both: Data = {k: v for k, v in doc.items() if k not in (*_HEAD_KEYS, *_PUBLIC_KEYS, "initial")}
    sealed: Data = {k: doc[k] for k in _HEAD_KEYS if k in doc}
    sealed.update({
        "version": SEALED_VERSION,
        "battle": keys.battle,
        "kdf": keys.kdf(),
        "public": public,
        "sides": {side: seal(keys, side, index, {"initial": initial_sides[side], "state": state_sides[side]})
                  for side in SIDES},
        "both": seal(keys, BOTH, index, both),
    })
    return sealed


def open_document(doc: Data, keys: Keyring | None, source: str) -> Data:
    """The clear save document of a sealed one (both sides' keys needed); ``Locked`` names the sides missing."""
    missing = tuple(side for side in SIDES if keys is None or not keys.has(side))
    if keys is None or missing:
        raise Locked(source, missing)
    public = _public_of(doc, source)
    keys.adopt(doc, source)
    index = public.get("actions")
    if not isinstance(index, int):
        raise InputError(source, "public.actions: expected the number of actions")
    sides = {side: unseal(keys, side, index, (doc.get("sides") or {}).get(side), source, f"sides.{side}")
             for side in SIDES}
    both = unseal(keys, BOTH, index, doc.get("both"), source, "both")
    if not isinstance(both, dict) or not all(isinstance(p, dict) for p in sides.values()):
        raise InputError(source, "both: opened, but is not what this program seals")
    clear: Data = {k: doc[k] for k in _HEAD_KEYS if k in doc}
    clear["initial"] = join_state(public["initial"], {s: p.get("initial", {}) for s, p in sides.items()})
    for key in _PUBLIC_KEYS:
        if key in public:
            clear[key] = public[key]
    clear.update(both)
    clear.setdefault("version", SEALED_VERSION - 1)
    clear.setdefault("record", [])
    return clear


def _public_of(doc: Data, source: str) -> Data:
    public = doc.get("public")
    if not isinstance(public, dict) or not isinstance(public.get("state"), dict):
        raise InputError(source, "public: expected the battle's public part")
    return public


@dataclass(frozen=True)
class PublicBattle:
    """What a sealed file shows with the keys given: the public state, joined with the sides that were opened."""

    state: Data
    actions: int
    opened: tuple[str, ...]
    players: Data


def public_battle(doc: Data, keys: Keyring | None, source: str) -> PublicBattle:
    """A sealed file read with any keys: the battle as it stood when written, each side's part opened only with its
    own key (a side without one: left out); a finished battle's sides, revealed, with no key at all."""
    public = _public_of(doc, source)
    index = public.get("actions")
    if not isinstance(index, int):
        raise InputError(source, "public.actions: expected the number of actions")
    opened: dict[str, Data] = {}
    revealed = public.get("revealed")
    if isinstance(revealed, dict):
        opened = {side: part for side, part in revealed.items() if side in SIDES and isinstance(part, dict)}
    elif keys is not None and any(keys.has(s) for s in SIDES):
        keys.adopt(doc, source)
        for side in SIDES:
            if keys.has(side):
                part = unseal(keys, side, index, (doc.get("sides") or {}).get(side), source, f"sides.{side}")
                opened[side] = part.get("state", {}) if isinstance(part, dict) else {}
    return PublicBattle(join_state(public["state"], opened), index, tuple(sorted(opened)),
                        dict(public.get("players") or {}))


def seal_entry(keys: Keyring, index: int, entry: Data) -> Data:
    """A journal line: the record's entry at ``index``, sealed for both sides together."""
    return {"index": index, "both": seal(keys, BOTH, index, entry)}


def open_entry(keys: Keyring, line: Data, source: str, item: str) -> Data:
    index = line.get("index")
    if not isinstance(index, int):
        raise InputError(source, f"{item}.index: expected the action's index")
    entry = unseal(keys, BOTH, index, line.get("both"), source, item)
    if not isinstance(entry, dict):
        raise InputError(source, f"{item}: opened, but is not an action")
    return entry
