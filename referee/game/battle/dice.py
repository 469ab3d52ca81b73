"""Dice as chance events: the engine asks, a source answers, and every answer is recorded.

The engine never draws a random number itself. A ``RollRequest`` says what is rolled, why, whose secret it is (if
anyone's), and its exact outcome distribution; a seeded source, the faces of physical dice typed in by hand, or a
script in tests answers it.

The program's dice (``SeededDice``) are keyed hashes of a 128-bit seed from the operating system: each draw is
HMAC-SHA256(stream key, moment | count). There is one stream for public draws (dice rolled on the table, objective
and blip positions) and one per side for that side's secret draws (mission, cards, holding squares, which scrambled
blip is real), each with its own key derived from the seed. Nothing a player sees of one stream narrows another,
and with 2^128 seeds nobody can search for the seed from what they saw. The ``moment`` names the action being
resolved (its place in the record and the action itself), so the same action at the same place gets the same dice:
taking an action back and taking it again never re-rolls (issue of fair Undo).

A battle played at the window keys its public stream with more than the seed, so that nobody can foresee a die
from a file or a seed they know, and nobody can steer one (``Contribution``):

* each side's **contribution**: 256 bits from the operating system, drawn for that side at set-up and committed
  before any die is rolled (the SHA-256 of the side, a salt and the contribution is written into the battle's
  state, ``GameState.dice_commitments``, so each side's seal covers it). Neither side chooses its contribution, and
  neither is used before both are committed: one side's cannot be picked after seeing the other's;
* **fresh entropy** (``SeededDice.fresh``), drawn from the operating system when the dice are made or loaded and
  never written to any file. A save, the autosave or a seed holds nothing from which the next die follows:
  ``replay SAVE --do`` rolls other dice than the battle will, and a battle resumed rolls from new entropy (every
  die already rolled is in the record, so nothing is rolled again; a take-back of a die needs the other side's
  consent, ``undo.py``).

A side that keeps its secrets on its own computer (``seven-seconds host --kept-by B``, ``net/keeper.py``) keeps
its contribution there too, so no single computer can foresee a public die (``SeededDice.kept``):

* at set-up that side's computer draws its contribution and sends only the commitment to it (the same SHA-256 as
  above), before the first public die; the host holds the commitment, never the contribution;
* each public number is the host's part, HMAC-SHA256 of a key of the seed and the host's committed contributions
  (no fresh entropy: the host's part is fixed by what it committed, so the host cannot draw again until it likes a
  die), exclusive-or the kept side's **share**, the first 64 bits of HMAC-SHA256(its contribution, moment | count)
  (``dice_share``). The host asks the kept side's computer for its shares of the moment being resolved; until they
  come the dice refuse to give a number (``SharesMissing``), so the host cannot compute the die of an action before
  the other computer has answered, and that computer never sees the host's part before answering;
* the shares used are recorded with the action (``RecordEntry.shares``), so the record replays without the
  contribution; at the end of the battle the kept side opens its contribution and the host checks the commitment
  and every recorded share (``false_shares``): a share that does not follow from it is a breach.

Dice made from a seed alone (``SeededDice(seed)``, the command line's and the tests' ``--seed``) have neither: the
seed gives every die, which is what replaying a battle for testing needs, and why such a seed gives the battle away.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets as _os_random
from dataclasses import dataclass, field
from fractions import Fraction
from collections.abc import Generator, Iterable, Sequence
from typing import Literal, Protocol, TypeAlias, TypeVar, overload

D6 = {face: Fraction(1, 6) for face in range(1, 7)}
T = TypeVar("T")


class Spots(Sequence[str]):
    """The spots a placing is drawn from, as a draw's options: each worded ("(x, y)") only when it is read. A set-up
    left to the program draws every objective and blip from hundreds of spots, and only a player choosing by hand
    reads them (words for every spot of every draw were a sixth of a set-up's resolution)."""

    __slots__ = ("points",)

    def __init__(self, points: Sequence[tuple[float, float]]) -> None:
        self.points = tuple(points)

    def __len__(self) -> int:
        return len(self.points)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self.points))))
        x, y = self.points[index]
        return f"({x:g}, {y:g})"

    def __eq__(self, other: object) -> bool:      # as the worded tuple it stands for (and hashes as)
        return isinstance(other, Sequence) and not isinstance(other, str) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Spots({len(self.points)} spots)"


@dataclass(frozen=True)
class RollRequest:
    """One die (``d6``) or one deviation bearing in degrees (``bearing``)."""

    label: str                   # "CM die for b-tactical-2"
    rule: str                    # "p.21, A24"
    kind: Literal["d6", "bearing", "draw"] = "d6"
    success: str = ""            # "1-4 succeeds": shown to a player rolling by hand
    die: str = "normal"          # "red" for the Red Die
    options: Sequence[str] = ()     # for a "draw": the cards (or choices) one is drawn from, answered by index
    secret: str = ""             # the side whose secret this draw is ("" for a public roll): its own stream

    @property
    def distribution(self) -> dict[int, Fraction] | None:
        return D6 if self.kind == "d6" else None

    def describe(self) -> str:
        what = {"bearing": "bearing in degrees", "draw": f"one of {len(self.options)}"}.get(
            self.kind, "Red Die" if self.die == "red" else "d6")
        return f"{self.label} ({what}{'; ' + self.success if self.success else ''}) [{self.rule}]"


# Resolution code that rolls is a generator: it yields a RollRequest, is sent back the face (or bearing, or the index
# of the card drawn), and returns its result.
Rolling: TypeAlias = Generator[RollRequest, float, T]


class DiceMissing(Exception):
    """A scripted or hand-entered source has no answer for this roll."""

    def __init__(self, request: RollRequest):
        self.request = request
        super().__init__(f"missing roll: {request.describe()}")


class DiceSource(Protocol):
    def answer(self, request: RollRequest) -> float: ...


def check_face(value: float, request: RollRequest) -> float:
    if request.kind == "d6":
        if isinstance(value, bool) or int(value) != value or not 1 <= value <= 6:
            raise ValueError(f"{request.label}: a die shows 1 to 6 (got {value!r})")
        return int(value)
    if request.kind == "draw":
        if isinstance(value, bool) or int(value) != value or not 0 <= value < len(request.options):
            raise ValueError(f"{request.label}: expected a choice from 0 to {len(request.options) - 1} (got {value!r})")
        return int(value)
    v = float(value)
    if not 0.0 <= v < 360.0 + 1e-9:
        raise ValueError(f"{request.label}: a bearing is 0 to 360 degrees (got {value!r})")
    return v % 360.0


SEED_BITS = 128
DICE_FORMAT = "seven-seconds-dice/2"
CONTRIBUTION_FORMAT = "seven-seconds-dice-contribution/1"
FRESH_BYTES = 32
SHARE_FORMAT = "seven-seconds-dice-share/1"
CARD_SHARE_FORMAT = "seven-seconds-card-share/1"    # a kept side's share of its own card draw (``kept_cards.py``)
SHARE_HEX = 16               # a share: 64 bits, as hex (the part of an HMAC a number is taken from)
KEPT_CARDS_STREAM = "kept-cards-"    # the host's parts of a kept side's card draw: one stream a side
SHARE_BATCH = 16             # the shares asked of a kept side at once: an action's public numbers, nearly always
# The most asked at once: a battle by e-mail asks this many, since each further ask is a trip of its file.
MAIL_SHARE_BATCH = 64


def new_seed() -> int:
    """A seed no player can search for: 128 bits from the operating system's secure generator."""
    return _os_random.randbits(SEED_BITS)


def commitment(side: str, value: str, salt: str) -> str:
    """The hash that commits ``side`` to its contribution: it tells nothing of the contribution (256 random bits
    and a salt) and no other contribution gives it."""
    return hashlib.sha256(f"{CONTRIBUTION_FORMAT}|{side}|{salt}|{value}".encode("utf-8")).hexdigest()


def seed_commitment(seed: int, secret_salt: int) -> str:
    """The hash that commits the battle to its seed, salted so that a typed seed cannot be tried back from it."""
    return hashlib.sha256(f"{CONTRIBUTION_FORMAT}|seed|{secret_salt}|{seed}".encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Contribution:
    """One side's part of the public dice stream's key: ``value`` (256 bits) and the ``salt`` of its commitment.
    Both are that side's secret until the battle is over."""

    side: str
    value: str
    salt: str

    @staticmethod
    def drawn(side: str) -> Contribution:
        return Contribution(side, _os_random.token_hex(32), _os_random.token_hex(16))

    @property
    def commitment(self) -> str:
        return commitment(self.side, self.value, self.salt)


def dice_share(side: str, value: str, moment: str, n: int, purpose: str = SHARE_FORMAT) -> str:
    """The kept ``side``'s share of public number ``n`` of ``moment``, from its contribution ``value`` (see the
    module note): it tells nothing of the contribution, nor of any other moment's share. ``purpose``
    (``CARD_SHARE_FORMAT``: the side's own card draw) keys another family of shares: no ask for the shares of a
    public die, whatever moment it names, gives one of them."""
    key = hashlib.sha256(f"{purpose}|{side}|{value}".encode("utf-8")).digest()
    msg = f"{moment}|{n}".encode("utf-8", "backslashreplace")
    return hmac.new(key, msg, hashlib.sha256).hexdigest()[:SHARE_HEX]


def is_share(text: object) -> bool:
    return isinstance(text, str) and len(text) == SHARE_HEX and all(c in "0123456789abcdef" for c in text)


class SharesMissing(Exception):
    """A public number of ``moment`` needs the kept ``side``'s shares from number ``start`` on, which this computer
    does not hold: that side's computer is asked for them, and the action is tried again once they come."""

    def __init__(self, side: str, moment: str, start: int) -> None:
        self.side, self.moment, self.start = side, moment, start
        super().__init__(f"the public dice wait for side {side}'s computer (its shares of numbers {start} on)")


@dataclass
class SeededDice:
    """The program rolls: keyed hashes of the seed, one stream per purpose (see the module note).

    ``moment`` names what is being resolved; ``counts`` how many numbers each stream has given within it. Both are
    saved with the seed, so a loaded battle rolls on exactly as it would have.

    ``secret_salt`` (0: none) goes into the keys of the sides' secret streams only. A seed a person typed is known
    to everyone at the table: with a salt from the operating system the table's dice still follow that seed, but
    nobody who knows it can draw the other side's mission, cards or holding squares again at home.
    """

    seed: int
    moment: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    secret_salt: int = 0
    # Each side's contribution (its value and salt: that side's secret) and the commitments to them and to the seed,
    # as written into the battle's state at set-up. Empty: dice of a seed alone (see the module note).
    contributions: dict[str, Contribution] = field(default_factory=dict)
    commitments: dict[str, str] = field(default_factory=dict)
    # The sides whose contribution lives on their own computer (only its commitment here; see the module note) and
    # the shares their computers sent, by moment: in memory, the ones an action used go into its record entry.
    kept: tuple[str, ...] = ()
    shares: dict[str, dict[str, list[str]]] = field(default_factory=dict, repr=False, compare=False)
    # The kept side whose shares are asked for first when several are missing (never saved): a battle played by
    # e-mail (``net/mail.py``) asks the side at hand before the one a file must travel to, so a die costs one trip.
    asked_first: str = field(default="", repr=False, compare=False)
    # Drawn when the dice are made or loaded, never saved: what no file predicts (empty until first needed).
    fresh: bytes = field(default=b"", repr=False, compare=False)
    _keys: dict[str, bytes] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def keyed(self) -> bool:
        """Keyed by the sides' contributions and fresh entropy (a battle at the window), not by a seed alone."""
        return bool(self.commitments)

    def unopened(self) -> list[str]:
        """What of the commitments the dice hold does not open: each side whose contribution is not the one it
        committed to, and ``seed`` if the seed is not (an edited file). Empty when every one opens."""
        bad = [side for side, c in sorted(self.contributions.items())
               if self.commitments.get(side) != c.commitment]
        if self.commitments.get("seed") not in (None, seed_commitment(self.seed, self.secret_salt)):
            bad.append("seed")
        return bad

    def begin(self, moment: str) -> None:
        """Start the draws of one action (or of set-up): the same moment always gives the same numbers."""
        self.moment = moment
        self.counts = {}

    def _key(self, stream: str) -> bytes:
        key = self._keys.get(stream)
        if key is None:
            seed = self.seed.to_bytes(max(1, (self.seed.bit_length() + 7) // 8), "big")
            if self.secret_salt and stream != "public":
                seed += b"|salt|" + self.secret_salt.to_bytes(32, "big")
            if self.keyed and (stream == "public" or stream.startswith(KEPT_CARDS_STREAM)) and self.kept:
                # The host's part: only what it committed to (its contributions, the seed), no fresh entropy.
                seed += b"".join(f"|{c.side}|{c.value}".encode("ascii")
                                 for _, c in sorted(self.contributions.items()))
                seed += b"|kept|" + ",".join(self.kept).encode("ascii")
            elif self.keyed and stream == "public":
                if not self.fresh:
                    self.fresh = _os_random.token_bytes(FRESH_BYTES)
                seed += b"".join(f"|{c.side}|{c.value}".encode("ascii")
                                 for _, c in sorted(self.contributions.items()))
                seed += b"|fresh|" + self.fresh
            key = hmac.new(seed, f"{DICE_FORMAT}|stream|{stream}".encode("utf-8"), hashlib.sha256).digest()
            self._keys[stream] = key
        return key

    def _next64(self, stream: str) -> int:
        n = self.counts.get(stream, 0)
        self.counts[stream] = n + 1
        msg = f"{self.moment}|{n}".encode("utf-8", "backslashreplace")
        value = int.from_bytes(hmac.new(self._key(stream), msg, hashlib.sha256).digest()[:8], "big")
        if stream == "public":
            for side in sorted(self.kept, key=lambda side: side != self.asked_first):
                got = self.shares.get(side, {}).get(self.moment, [])
                if n >= len(got):
                    self.counts[stream] = n          # not drawn: the same number is asked for when tried again
                    raise SharesMissing(side, self.moment, len(got))
                value ^= int(got[n], 16)
        return value

    # ---- a side whose contribution is kept on its own computer --------------------------------------------------
    def keep(self, side: str) -> bool:
        """From now on ``side``'s contribution lives on its own computer: the one drawn here is forgotten with its
        commitment, and the side's computer sends its own commitment (``commit_kept``) before the first public die.
        Only before any public number is drawn; True if done."""
        if not self.keyed or side in self.kept or side not in self.contributions:
            return False
        del self.contributions[side]
        self.commitments.pop(side, None)
        self.kept = tuple(sorted((*self.kept, side)))
        self._keys.pop("public", None)
        return True

    def host_parts(self, side: str, moment: str, count: int) -> list[str]:
        """The host's parts of the kept ``side``'s own card draw at ``moment`` (``kept_cards.py``): 64 bits each,
        from a key of what the host committed to only, so they are fixed before the side's share is known. They tell
        nothing of the draw without that share."""
        key = self._key(f"{KEPT_CARDS_STREAM}{side}")
        return [hmac.new(key, f"{moment}|{n}".encode("utf-8", "backslashreplace"),
                         hashlib.sha256).hexdigest()[:SHARE_HEX] for n in range(count)]

    def awaits_commitment(self, side: str) -> bool:
        return side in self.kept and side not in self.commitments

    def commit_kept(self, side: str, committed: str) -> None:
        self.commitments[side] = committed

    def add_shares(self, side: str, moment: str, start: int, shares: Sequence[str]) -> None:
        """The kept ``side``'s shares of ``moment`` from number ``start`` on (its computer's answer to the ask)."""
        held = self.shares.setdefault(side, {}).setdefault(moment, [])
        if start != len(held):
            raise ValueError(f"shares from number {start}: {len(held)} of this moment are held")
        held.extend(shares)

    def used_shares(self) -> dict[str, list[str]]:
        """The kept sides' shares the numbers of the moment now used (recorded with its action)."""
        used = self.counts.get("public", 0)
        return {side: list(self.shares.get(side, {}).get(self.moment, [])[:used]) for side in self.kept if used}

    def forget_shares(self) -> None:
        """The shares of moments resolved or dropped: the record holds those that were used."""
        self.shares = {}

    def below(self, n: int, stream: str = "public") -> int:
        """A whole number from 0 to n - 1, every one equally likely (rejection keeps it unbiased)."""
        if n <= 0:
            raise ValueError("nothing to draw from")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            v = self._next64(stream)
            if v < limit:
                return v % n

    def answer(self, request: RollRequest) -> float:
        stream = f"secret-{request.secret}" if request.secret else "public"
        if request.kind == "bearing":
            return self.below(360_000, stream) / 1000.0
        if request.kind == "draw":
            return self.below(len(request.options), stream)
        return self.below(6, stream) + 1


def false_shares(side: str, value: str, recorded: Iterable[tuple[int, str, Sequence[str]]]) -> list[int]:
    """The record entries (their index) whose shares of ``side`` do not follow from its opened contribution
    ``value``: each given as (index, moment, shares)."""
    return [i for i, moment, shares in recorded
            if any(dice_share(side, value, moment, n) != share for n, share in enumerate(shares))]


def keyed_dice(seed: int, secret_salt: int) -> SeededDice:
    """Dice for a battle at the window: both sides' contributions drawn and committed, with the seed's commitment;
    fresh entropy is drawn when the first die is."""
    contributions = {side: Contribution.drawn(side) for side in ("A", "B")}
    commitments = {side: c.commitment for side, c in contributions.items()}
    commitments["seed"] = seed_commitment(seed, secret_salt)
    return SeededDice(seed, secret_salt=secret_salt, contributions=contributions, commitments=commitments)


@dataclass
class ScriptedDice:
    """Faces given in order (tests, ``query do --dice``, replays, or physical dice typed in by hand)."""

    # Faces as given (a save holds numbers, a script or a hand may give anything): check_face judges each when used.
    dice: Sequence[float] = field(default_factory=list)
    bearings: Sequence[float] = field(default_factory=list)
    draws: Sequence[float] = field(default_factory=list)
    used_dice: int = 0
    used_bearings: int = 0
    used_draws: int = 0

    def answer(self, request: RollRequest) -> float:
        if request.kind == "draw":
            if self.used_draws >= len(self.draws):
                raise DiceMissing(request)
            v = self.draws[self.used_draws]
            self.used_draws += 1
            return check_face(v, request)
        if request.kind == "bearing":
            if self.used_bearings >= len(self.bearings):
                raise DiceMissing(request)
            v = self.bearings[self.used_bearings]
            self.used_bearings += 1
            return check_face(v, request)
        if self.used_dice >= len(self.dice):
            raise DiceMissing(request)
        v = self.dice[self.used_dice]
        self.used_dice += 1
        return check_face(v, request)


class HandDice:
    """Answers rolls from the faces typed in so far; then, with program dice, rolls on; else asks (DiceMissing).

    Card draws are always made by the program (the deck lives in the program), even when the players roll.
    """

    def __init__(self, given: list[float], seeded: SeededDice | None, draws: SeededDice | None = None) -> None:
        self.given = list(given)
        self.seeded = seeded
        self.draws = draws

    def answer(self, request: RollRequest) -> float:
        if request.kind == "draw" and self.seeded is None and self.draws is not None:
            return self.draws.answer(request)
        if self.given:
            return check_face(self.given.pop(0), request)
        if self.seeded is not None:
            return self.seeded.answer(request)
        raise DiceMissing(request)


class GivenDice:
    """Exactly the faces and bearings given (the command line's ``--dice``): a roll not given is missing, never rolled
    by the program; a draw ("place for me", a card, a label) comes from the program's ``draws``."""

    def __init__(self, given: ScriptedDice, draws: SeededDice) -> None:
        self.given = given
        self.draws = draws

    def answer(self, request: RollRequest) -> float:
        return self.draws.answer(request) if request.kind == "draw" else self.given.answer(request)


@dataclass(frozen=True, slots=True)
class Roll:
    label: str
    kind: str
    value: float

    def as_list(self) -> list[str | float]:
        return [self.label, self.kind, self.value]


@dataclass
class Recorder:
    """Wraps a source and keeps every answer in order: the game record stores them with the action."""

    source: DiceSource
    rolls: list[Roll] = field(default_factory=list)
    # The dice rolled on the table (not a secret draw nor a choice), with their requests: what the log shows.
    public: list[tuple[RollRequest, float]] = field(default_factory=list)

    def answer(self, request: RollRequest) -> float:
        value = self.source.answer(request)
        self.rolls.append(Roll(request.label, request.kind, value))
        if request.kind != "draw" and not request.secret:
            self.public.append((request, value))
        return value


def face_text(request: RollRequest, value: float) -> str:
    """One die as the log names it: ``Red Die for e's graze: 4`` (a bearing in degrees)."""
    if request.kind == "bearing":
        return f"{request.label}: {value:.1f}°"
    return f"{request.label}: {int(value)}"


DICE_ENTRY = "dice: "        # how the log entry of an action's dice begins


def dice_lines(rolled: Sequence[tuple[RollRequest, float]]) -> tuple[str, list[str]]:
    """The log entry for the dice of one action: the faces in its text, each die's rule and meaning explained."""
    text = DICE_ENTRY + "; ".join(face_text(r, v) for r, v in rolled)
    explain = [f"{face_text(r, v)}{' (' + r.success + ')' if r.success else ''} [{r.rule}]" for r, v in rolled]
    return text, explain


def replay_source(rolls: Iterable[Roll]) -> ScriptedDice:
    """A source that gives back recorded rolls in their order."""
    return ScriptedDice(
        dice=[r.value for r in rolls if r.kind == "d6"],
        bearings=[r.value for r in rolls if r.kind == "bearing"],
        draws=[r.value for r in rolls if r.kind == "draw"],
    )
