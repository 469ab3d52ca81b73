"""The state of a battle: what stands on the table, each side's secret holding area, and where the turn is.

It is plain data. The engine copies it, changes the copy while resolving an action, and keeps the copy only if the
action was legal; the record of the game (set-up plus actions with their dice) rebuilds it exactly.
"""

from __future__ import annotations

import copy
import operator
import sys
from dataclasses import asdict, dataclass, field, fields
from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeAlias

from ...rules.battlefield import UNIT_FIELDS, Battlefield, build_battlefield
from ...rules.catalogue import is_drone_type
from ...rules.rulings import Rulings, rulings_for
from ...rules.pieces import SQUARES as SQUARES
from ...rules.pieces import UNITS_PER_SQUARE as UNITS_PER_SQUARE
from ...rules.pieces import Blip, DealtCards, HoldingSquares, Objective, UnitContents, defaults
from ...rules.scenario import Scenario, TerrainEntry
from .sides import SIDES as SIDES
from .state_parts import Result, Setup
from .sides import as_side as as_side
from .sides import other as other


# Plain JSON-able data: a save's state, a scenario document, a log entry's fields.
Data: TypeAlias = dict[str, Any]


# Blip labels (A59): two letters, handed out at random from the owner's secret stream, so a label says nothing of
# the blip's square. Letters that read alike (B/8, I/1, O/0, S/5, G/6, Q/O, Z/2) are left out.
LABEL_LETTERS = "ACDEFHJKLMNPRTUVWXY"
BLIP_LABELS = tuple(a + b for a in LABEL_LETTERS for b in LABEL_LETTERS)
_LABEL_SET = frozenset(BLIP_LABELS)


def blip_id(side: str, label: str) -> str:
    return f"{side.lower()}-blip-{label}"


def free_labels(state: "GameState", side: str) -> list[str]:
    """The labels a new blip counter of ``side`` may take, in order: none in use by the side (``labels_in_use``)
    and, in a battle with ``labels_apart``, none the other side's counters bear either."""
    taken = labels_in_use(state, side)
    if state.labels_apart:
        taken |= labels_in_use(state, "B" if side == "A" else "A")
    return [label for label in BLIP_LABELS if label not in taken]


def labels_in_use(state: "GameState", side: str) -> set[str]:
    """Labels a new blip of ``side`` may not take: every id on the table and every one the log has named, so a label
    never names two counters in one battle."""
    taken = set(state.units) | set(state.blips) | set(state.objectives) | {d.get("id") for d in state.destroyed}
    for e in state.log:
        taken.update(e.units)
    return labels_among(taken, side)


def labels_among(ids: Iterable[object], side: str) -> set[str]:
    """The labels of ``side``'s blip counters that ``ids`` name (read off the ids, not tried label by label)."""
    prefix = blip_id(side, "")
    return {i[len(prefix):] for i in ids if isinstance(i, str) and i.startswith(prefix)} & _LABEL_SET



# The pieces on the table, as the engine changes them: plain dataclasses, cheap to copy for every action, with the
# fields of the battle's models (``rules/pieces.py``: ``Unit``, ``Blip``, ``Objective``) and the same defaults;
# ``tests/test_pieces.py`` holds them together, so a field added to a model cannot be forgotten here.


@dataclass
class UnitState:
    id: str
    side: str
    faction: str
    rating: str
    type: str
    x: float
    y: float
    facing: float = 0.0
    base: float = 1.0
    target_counters: int = 0
    damaged: bool = False
    stunned: bool = False
    jammer_on: bool = False
    activation: bool = True

    @property
    def is_drone(self) -> bool:
        return is_drone_type(self.type)


@dataclass
class BlipState:
    id: str
    side: str
    x: float
    y: float
    square: int                  # the holding-area square (and blip number) it stands for
    base: float = 1.0
    activation: bool = True


@dataclass
class ObjectiveState:
    id: str
    x: float
    y: float
    base: float = 1.0
    target_counters: int = 0
    control: Literal["contested", "A", "B"] = "contested"
    destroyed: bool = False


@dataclass
class GroundState:
    """A patch of ground holding Target counters (p.19, A54): where it is, and its counters, which stay."""

    id: str
    x: float
    y: float
    target_counters: int = 0


@dataclass
class Holding:
    """A player's secret holding area: 16 squares of at most 2 units each. ``None`` means unknown contents."""

    squares: HoldingSquares = field(default_factory=dict)

    def contents(self, square: int) -> list[UnitContents] | None:
        return self.squares.get(square, [])

    def empty_squares(self) -> list[int]:
        return [n for n in range(1, SQUARES + 1) if self.squares.get(n) == []]


@dataclass
class TurnState:
    player: str
    primary_allowed: int = 1
    primary_used: int = 0
    extra_blips_used: int = 0
    active: str | None = None          # the unit or blip being activated
    actions_left: int = 0
    queue: list[str] = field(default_factory=list)   # revealed units still to act in this activation
    activation_kind: Literal["primary", "extra", ""] = ""
    acted: bool = False


@dataclass(slots=True)
class LogEntry:
    """One event. ``private`` texts are shown only to that side; everyone else sees ``text``."""

    text: str
    explain: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    private: dict[str, str] = field(default_factory=dict)
    round: int = 0


@dataclass
class GameState:
    name: str
    width: float
    height: float
    terrain: list[TerrainEntry]
    units: dict[str, UnitState]
    blips: dict[str, BlipState]
    objectives: dict[str, ObjectiveState]
    holding: dict[str, Holding]
    rulings: dict[str, Any] = field(default_factory=dict)
    scale: float = 1.0
    attacker: str | None = None
    mode: Literal["attack-defence", "chance-encounter", "table"] = "table"
    round: int = 1
    phase: Literal["setup", "action", "end-of-round", "over"] = "action"
    initiative: str = "A"
    turn: TurnState | None = None
    passes_in_row: int = 0
    pursuit: str | None = None                                    # the side whose Withdraw is being pursued
    missions: dict[str, str] = field(default_factory=dict)      # side -> mission card id (secret)
    cards: dict[str, DealtCards] = field(default_factory=dict)   # side -> its Troop and Drone cards (secret)
    sealed: dict[str, str] = field(default_factory=dict)         # side -> hash of holding area and mission
    salts: dict[str, str] = field(default_factory=dict)          # side -> the seal's random salt (secret, seal.py)
    destroyed: list[Data] = field(default_factory=list)          # {"id", "side", "type", "by"}
    control: str | None = None
    result: Result | None = None
    log: list[LogEntry] = field(default_factory=list)
    # The set-up in progress (``setup_steps.py``): factions, streaks, the decisions still to make and, secret to
    # their owner, the cards drawn and the units they issue. ``None`` once round 1 has begun.
    setup: Setup | None = None
    # Troopers just revealed whose owner has not yet chosen their facing (A13): until the next other action the owner
    # may face each one (a ``face`` action); otherwise the default facing stands.
    to_face: list[str] = field(default_factory=list)
    # Units just revealed after the first of their square, by the unit they stand touching (A66): until the next
    # other action their owner may place each on another legal spot touching it (a ``face`` action with x and y).
    to_place: dict[str, str] = field(default_factory=dict)
    # Patches of ground holding Target counters (p.19, A54), by id: public, like every counter on the table.
    ground: dict[str, GroundState] = field(default_factory=dict)
    # The commitments to each side's contribution to the public dice (side -> SHA-256) and to the seed ("seed"),
    # written before set-up rolls anything (``dice.py``); each side's seal covers them. Empty: dice of a seed alone.
    dice_commitments: dict[str, str] = field(default_factory=dict)
    # A side whose holding area is kept on its own computer (``commit.py``): side -> square ("1".."16") -> the
    # commitment to what it holds; that side's squares are unknown here (None) until its owner opens them.
    square_commitments: dict[str, dict[str, str]] = field(default_factory=dict)
    # Such a side's units its cards issued that no opening has shown yet (each {id, side, faction, rating, type}).
    issued_kept: dict[str, list[Data]] = field(default_factory=dict)
    # Such a side's commitments to the square each of its blip counters stands for (``commit.blip_commitment``): side
    # -> key -> SHA-256, the key a slot ("1".."16", the order of placing) until a counter is placed, then the counter's
    # id until its owner opens it. The square such a counter holds here is a stand-in: its own is learnt at the reveal.
    blip_commitments: dict[str, dict[str, str]] = field(default_factory=dict)
    # A side whose cards are drawn on its own computer (``kept_cards.py``): side -> {"committed": SHA-256 of its
    # cards, "draw": the host's parts and the cards drawn from, "faction": its faction, "opened": the units its
    # openings showed (each
    # {id, side, faction, rating, type}), "checked": its cards were opened and checked at the end}.
    card_commitments: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The rule breaches a side kept on its own computer was caught in at an opening (its commitments prove them):
    # public, each said in the result and the report with ``BREACH``. Only grows.
    breaches: list[str] = field(default_factory=list)
    # A Target's sensor pool, rolled and recorded before its counters are placed (p.19): {"actor", "dice", "rolls"}.
    # While it is set the Targeter's counters are the only thing to do; the Target then spends these dice.
    pool: Data | None = None
    # No label names a counter of both sides (item 17 of the first evening): a new battle's blips draw their labels
    # from those neither side has used. False: a battle begun before, which still replays as it was played.
    labels_apart: bool = False

    def copy(self) -> "GameState":
        """An independent copy, made field by field (``_COPY``): the engine copies the state for every action it
        resolves and every check it tries, and a generic deep copy cost ten times as much. The log only grows and
        an entry is never changed once written, so the copy shares the entries (in a list of its own); terrain
        entries and holding-area contents are frozen models, shared too. A field without a copier is deep-copied."""
        fields_ = dict(self.__dict__)            # strings, numbers and None are shared as they are
        for name, copier in _copiers():
            fields_[name] = copier(fields_[name])
        new = object.__new__(GameState)
        new.__dict__ = fields_
        return new

    # ---- the whole state as plain data (saves, replays, comparisons) -------------------------------
    def to_data(self) -> Data:
        """Everything, secrets included, as JSON-able data; ``GameState.from_data`` gives the same state back."""
        return state_to_data(self)

    @staticmethod
    def from_data(data: Data) -> "GameState":
        """The inverse of ``to_data``. The data is trusted: ``record.py`` validates a save before calling this."""
        return state_from_data(data)

    # ---- the rules' view of the table -------------------------------------------------------------
    def rulings_in_force(self) -> Rulings:
        return rulings_for(self.rulings)

    def battlefield(self) -> Battlefield:
        """The whole truth as the rules see it; a player's window builds its table with the same function.

        A battlefield is never changed once made (what differs is made with ``dataclasses.replace``), so one made for
        a table that stands the same is handed out again: an action's checks, its resolution and the computer's
        imagined battles ask for the same table many times (``_BATTLEFIELDS``)."""
        key = _table_key(self)
        held = _BATTLEFIELDS.get(key)
        if held is not None:
            return held[1]
        bf = build_battlefield(self.width, self.height, self.rulings_in_force(), self.scale, self.attacker,
                               self.terrain, self.units.values(), self.blips.values(), self.objectives.values(),
                               ground=self.ground.values())
        if len(_BATTLEFIELDS) >= BATTLEFIELDS_KEPT:
            _BATTLEFIELDS.pop(next(iter(_BATTLEFIELDS)))
        # The terrain entries are kept with it: the key names them by identity, which stays theirs while they live.
        _BATTLEFIELDS[key] = (tuple(self.terrain), bf)
        return bf

    def attacking_side(self) -> str:
        """The attacker of an Attack/Defence battle (set-up names one before anything asks)."""
        if self.attacker is None:
            raise ValueError("this battle has no attacker (a Chance Encounter, or set-up has not rolled roles)")
        return self.attacker

    def turn_now(self) -> TurnState:
        """The turn in progress (the engine asks only in the action phase, where there always is one)."""
        if self.turn is None:
            raise ValueError(f"no turn is in progress (phase: {self.phase})")
        return self.turn

    def unit_or_blip(self, ident: str) -> UnitState | BlipState | None:
        return self.units.get(ident) or self.blips.get(ident)

    def side_of(self, ident: str) -> str | None:
        thing = self.unit_or_blip(ident)
        return thing.side if thing else None

    def blip_contents(self, blip: BlipState) -> list[UnitContents] | None:
        return self.holding[blip.side].contents(blip.square)

    def troopers_left(self, side: str) -> int:
        """Troopers on the table or in the holding area (drones do not count, p.16)."""
        on_table = sum(1 for u in self.units.values() if u.side == side and not u.is_drone)
        held = 0
        for contents in self.holding[side].squares.values():
            for c in contents or []:
                if not is_drone_type(c.type):
                    held += 1
        return on_table + held

    def may_have_troopers(self, side: str) -> bool:
        """Has ``side`` troopers left, as far as the program knows (p.16)? At a physical table a square whose
        contents its owner has not entered (``None``) may hold troopers: it is not counted out."""
        return self.troopers_left(side) > 0 or any(c is None for c in self.holding[side].squares.values())

    def with_counter(self, side: str) -> list[str]:
        """Units holding an activation counter: troopers, drones and blips, decoys included (A21)."""
        return [u.id for u in self.units.values() if u.side == side and u.activation] + [
            b.id for b in self.blips.values() if b.side == side and b.activation
        ]

    def new_id(self, stem: str) -> str:
        n = 1
        taken = set(self.units) | set(self.blips) | set(self.objectives) | {t.id for t in self.terrain} | set(self.ground)
        while f"{stem}-{n}" in taken:
            n += 1
        return f"{stem}-{n}"

    def log_event(self, text: str, explain: Iterable[object] = (), units: Iterable[str] = (),
                  private: Mapping[str, str] | None = None) -> None:
        self.log.append(log_entry(text, [str(e) for e in explain], units, private or {}, self.round))


def log_entry(text: str, explain: Iterable[str], units: Iterable[str], private: Mapping[str, str],
              round_: int) -> LogEntry:
    """A log entry whose texts are kept once however often they recur: a battle's log says the same working lines
    ("line of sight [A9]", a unit's id) thousands of times, and keeps them all game (a third of a long battle's log
    text is unique)."""
    return LogEntry(sys.intern(text), [sys.intern(e) for e in explain], [sys.intern(u) for u in units],
                    {k: sys.intern(v) for k, v in private.items()}, round_)


def _copy_pieces(pieces: dict[str, Any]) -> dict[str, Any]:
    """Units, blips and objectives hold only plain values: a new object with the same fields is a full copy (what
    ``copy.copy`` makes, without its generic protocol, which was a tenth of an action's cost)."""
    out = {}
    make = object.__new__
    for k, v in pieces.items():
        new = make(v.__class__)
        new.__dict__ = v.__dict__.copy()      # a dictionary of its own: half the cost of filling an empty one
        out[k] = new
    return out


BATTLEFIELDS_KEPT = 256        # battlefields kept for tables that may stand again (the oldest go first)
_BATTLEFIELDS: dict[tuple[Any, ...], tuple[tuple[Any, ...], Battlefield]] = {}


# What ``build_battlefield`` reads of each blip, objective and patch of ground (of a unit: ``UNIT_FIELDS``), read
# in one call each: the key is worked out for every battlefield asked for.
_BLIP_FIELDS = operator.attrgetter("id", "side", "x", "y", "base")
_OBJECTIVE_FIELDS = operator.attrgetter("id", "x", "y", "base", "target_counters", "destroyed")
_GROUND_FIELDS = operator.attrgetter("id", "x", "y", "target_counters")


def _table_key(s: GameState) -> tuple[Any, ...]:
    """Everything ``build_battlefield`` reads of a state: two states with the same key have the same battlefield."""
    return (s.width, s.height, tuple(sorted(s.rulings.items())), s.scale, s.attacker, tuple(map(id, s.terrain)),
            tuple(map(UNIT_FIELDS, s.units.values())), tuple(map(_BLIP_FIELDS, s.blips.values())),
            tuple(map(_OBJECTIVE_FIELDS, s.objectives.values())), tuple(map(_GROUND_FIELDS, s.ground.values())))


def _copy_holding(holding: dict[str, Holding]) -> dict[str, Holding]:
    """Each side's squares in a dictionary of its own; a square's list of contents is shared, since it is never
    changed in place: a reveal, a Scramble or a correction puts a new list in its square."""
    return {side: Holding(dict(h.squares)) for side, h in holding.items()}


def _copy_turn(turn: TurnState | None) -> TurnState | None:
    if turn is None:
        return None
    new = object.__new__(TurnState)
    new.__dict__ = turn.__dict__.copy()      # plain values, and the queue, which gets a list of its own
    new.queue = list(turn.queue)
    return new


def _same(value: Any) -> Any:
    return value


_COPY: dict[str, Any] = {
    "terrain": list, "units": _copy_pieces, "blips": _copy_pieces, "objectives": _copy_pieces, "ground": _copy_pieces,
    "holding": _copy_holding, "turn": _copy_turn, "log": list, "missions": dict, "sealed": dict, "salts": dict,
    "dice_commitments": dict,
    "square_commitments": lambda c: {side: dict(squares) for side, squares in c.items()},
    "issued_kept": lambda c: {side: [dict(u) for u in units] for side, units in c.items()},
    "cards": dict, "to_place": dict, "to_face": list,
    # A ruling's option is a word or a number: nothing in it to copy.
    "rulings": dict,
    # None but in set-up, at a battle's end and while a sensor pool waits: nothing to copy most of the time.
    "setup": lambda v: None if v is None else v.copy(),
    "result": lambda v: None if v is None else copy.deepcopy(v),
    "pool": lambda v: None if v is None else copy.deepcopy(v),
    "blip_commitments": lambda c: {side: dict(keys) for side, keys in c.items()},
    "card_commitments": copy.deepcopy,
    # Like the log, the list of destroyed units only grows and an entry is never changed once written: a long
    # battle's copies would otherwise deep-copy every entry for every action.
    "destroyed": list,
    "breaches": list,
    # Strings, numbers and None: nothing to copy.
    **{name: _same for name in ("name", "width", "height", "scale", "attacker", "mode", "round", "phase", "labels_apart",
                                "initiative", "passes_in_row", "pursuit", "control")},
}


_COPIERS: list[tuple[str, Any]] = []


def _copiers() -> list[tuple[str, Any]]:
    """Each field of a state that holds something to copy, with its copier, listed once (a copy is made for every
    action the engine resolves); the fields whose values are shared as they are (``_same``) are left out."""
    if not _COPIERS:
        _COPIERS.extend((f.name, _COPY.get(f.name, copy.deepcopy)) for f in fields(GameState)
                        if _COPY.get(f.name) is not _same)
    return _COPIERS


# ---- scenario files <-> state --------------------------------------------------------------------


def state_from_scenario(s: Scenario) -> GameState:
    units = {u.id: UnitState(**{**u.model_dump(), "facing": u.facing % 360.0}) for u in s.units}
    holding = {side: Holding({}) for side in SIDES}
    blips: dict[str, BlipState] = {}
    taken = {side: {b.square for b in s.blips if b.side == side and b.square is not None} for side in SIDES}
    for b in s.blips:
        square = b.square
        if square is None:
            square = next(n for n in range(1, 10 * SQUARES) if n not in taken[b.side])
            taken[b.side].add(square)
        blips[b.id] = BlipState(**b.model_dump(include=set(Blip.model_fields) - {"square"}), square=square)
        holding[b.side].squares[square] = None if b.contents is None else list(b.contents)
    for side in SIDES:
        for n in range(1, SQUARES + 1):
            holding[side].squares.setdefault(n, [])
    objectives: dict[str, ObjectiveState] = {o.id: ObjectiveState(**o.model_dump(include=set(Objective.model_fields))) for o in s.objectives}
    return GameState(
        name=s.name, width=s.table.width, height=s.table.height, terrain=list(s.terrain), units=units,
        blips=blips, objectives=objectives, holding=holding, rulings=dict(s.rulings), scale=s.scale,
        attacker=s.attacker, mode="table", ground={g.id: GroundState(**g.model_dump()) for g in s.ground},
    )


def unit_entry_data(u: UnitState, drones_face: bool = False) -> Data:
    """A unit as a scenario file writes it: what a unit's contents hold by default is left out."""
    d = asdict(u)
    for key, default in defaults(UnitContents).items():
        if d[key] == default:
            del d[key]
    if u.is_drone and not drones_face:
        d.pop("facing", None)
    else:
        d["facing"] = round(u.facing, 6)
    return d


def state_to_scenario_data(state: GameState, secrets: bool = True) -> Data:
    """The table in the scenario file format; with ``secrets`` the blips carry their contents (``do`` state)."""
    data: Data = {"name": state.name, "table": {"width": state.width, "height": state.height}}
    if state.rulings:
        data["rulings"] = dict(state.rulings)
    if state.scale != 1.0:
        data["scale"] = state.scale
    if state.attacker:
        data["attacker"] = state.attacker
    data["terrain"] = []
    for t in state.terrain:
        entry: Data = {"id": t.id, "type": t.type}
        if t.polygon is not None:
            entry["polygon"] = [list(p) for p in t.polygon]
        elif t.circle is not None:
            entry["circle"] = {"x": t.circle.x, "y": t.circle.y, "r": t.circle.r}
        data["terrain"].append(entry)
    drones_face = state.rulings_in_force().reads("A12", "B")
    data["units"] = [unit_entry_data(u, drones_face) for u in state.units.values()]
    data["blips"] = []
    for b in state.blips.values():
        entry = {"id": b.id, "side": b.side, "x": b.x, "y": b.y, "square": b.square, "activation": b.activation}
        if b.base != 1.0:
            entry["base"] = b.base
        contents = state.blip_contents(b)
        if secrets and contents is not None:
            entry["contents"] = [c.model_dump(mode="json", exclude_defaults=True) | {"id": c.id, "side": c.side} for c in contents]
        data["blips"].append(entry)
    data["objectives"] = []
    for o in state.objectives.values():
        if o.destroyed:
            continue
        entry = {"id": o.id, "x": o.x, "y": o.y, "target_counters": o.target_counters}
        if o.control != "contested":
            entry["control"] = o.control
        if o.base != 1.0:
            entry["base"] = o.base
        data["objectives"].append(entry)
    if state.ground:
        data["ground"] = [dict(vars(g)) for g in state.ground.values()]
    return data


def unit_from_contents(c: UnitContents, x: float, y: float, facing: float, activation: bool,
                       target_counters: int = 0) -> UnitState:
    """A unit out of a holding-area square onto the table (a reveal): the contents' fields, placed."""
    return UnitState(**{**c.model_dump(), "target_counters": target_counters + c.target_counters}, x=x, y=y,
                     facing=facing % 360.0, activation=activation)


def contents_from_unit(u: UnitState) -> UnitContents:
    """A unit back into a holding-area square (a Scramble): its counters and jammer stay on the table."""
    # The state's words came from a validated scenario or save (or from contents like these).
    fields_ = {name: getattr(u, name) for name in UnitContents.model_fields}
    return UnitContents.model_validate({**fields_, "target_counters": 0, "jammer_on": False})


# ---- the whole state <-> plain data ---------------------------------------------------------------


def _contents_data(contents: list[UnitContents] | None) -> list[Data] | None:
    return None if contents is None else [c.model_dump(mode="json") for c in contents]


def cards_data(cards: DealtCards) -> dict[str, str | None]:
    """The cards as they were dealt or entered: only the keys that were given (a save's digest and a seal's hash
    read them as they always have)."""
    return cards.model_dump(exclude_unset=True)


def _terrain_data(t: TerrainEntry) -> Data:
    return t.model_dump(mode="json", exclude_none=True)


def state_to_data(state: GameState) -> Data:
    """The whole state, secrets included: holding areas, missions, cards, seals and salts, turn, log."""
    data: Data = {
        "name": state.name,
        "width": state.width,
        "height": state.height,
        "rulings": dict(state.rulings),
        "scale": state.scale,
        "attacker": state.attacker,
        "mode": state.mode,
        "terrain": [_terrain_data(t) for t in state.terrain],
        "units": [dict(vars(u)) for u in state.units.values()],
        "blips": [dict(vars(b)) for b in state.blips.values()],
        "objectives": [dict(vars(o)) for o in state.objectives.values()],
        "holding": {side: {str(n): _contents_data(c) for n, c in h.squares.items()} for side, h in state.holding.items()},
        "round": state.round,
        "phase": state.phase,
        "initiative": state.initiative,
        "turn": None if state.turn is None else {**vars(state.turn), "queue": list(state.turn.queue)},
        "passes_in_row": state.passes_in_row,
        "pursuit": state.pursuit,
        "missions": dict(state.missions),
        "cards": {side: cards_data(c) for side, c in state.cards.items()},
        "sealed": dict(state.sealed),
        "salts": dict(state.salts),
        "destroyed": copy.deepcopy(state.destroyed),
        "control": state.control,
        "result": None if state.result is None else state.result.to_data(),
        "log": [{"text": e.text, "explain": list(e.explain), "units": list(e.units), "private": dict(e.private),
                 "round": e.round} for e in state.log],
        # Written only when some facing is due, so a state without one reads and hashes as before it existed.
        **({"to_face": list(state.to_face)} if state.to_face else {}),
        **({"to_place": dict(state.to_place)} if state.to_place else {}),
        # Likewise written only once some patch of ground holds counters (A54).
        **({"ground": [dict(vars(g)) for g in state.ground.values()]} if state.ground else {}),
        # Written only when the dice are keyed by the sides' contributions, or a pool waits for its counters.
        **({"dice_commitments": dict(state.dice_commitments)} if state.dice_commitments else {}),
        **({"square_commitments": {side: dict(c) for side, c in state.square_commitments.items()}}
           if state.square_commitments else {}),
        **({"issued_kept": {side: [dict(u) for u in units] for side, units in state.issued_kept.items()}}
           if state.issued_kept else {}),
        **({"blip_commitments": {side: dict(c) for side, c in state.blip_commitments.items()}}
           if state.blip_commitments else {}),
        **({"breaches": list(state.breaches)} if state.breaches else {}),
        **({"card_commitments": copy.deepcopy(state.card_commitments)} if state.card_commitments else {}),
        **({"pool": copy.deepcopy(state.pool)} if state.pool is not None else {}),
        **({"labels_apart": True} if state.labels_apart else {}),
    }
    if state.setup is not None:
        # Only while set-up runs: a battle's state (and so the digest of every earlier save) stays as it was.
        data["setup"] = state.setup.to_data()
    return data


def state_from_data(d: Data) -> GameState:
    holding = {
        side: Holding({int(n): (None if c is None else [UnitContents.model_validate(x) for x in c])
                       for n, c in squares.items()})
        for side, squares in d["holding"].items()
    }
    turn = d.get("turn")
    return GameState(
        name=d["name"], width=d["width"], height=d["height"],
        terrain=[TerrainEntry.model_validate(t) for t in d["terrain"]],
        units={u["id"]: UnitState(**u) for u in d["units"]},
        blips={b["id"]: BlipState(**b) for b in d["blips"]},
        objectives={o["id"]: ObjectiveState(**o) for o in d["objectives"]},
        holding=holding,
        rulings=dict(d.get("rulings", {})),
        scale=d.get("scale", 1.0),
        attacker=d.get("attacker"),
        mode=d.get("mode", "table"),
        round=d.get("round", 1),
        phase=d.get("phase", "action"),
        initiative=d.get("initiative", "A"),
        turn=None if turn is None else TurnState(**{**turn, "queue": list(turn.get("queue", []))}),
        passes_in_row=d.get("passes_in_row", 0),
        pursuit=d.get("pursuit"),
        missions=dict(d.get("missions", {})),
        cards={side: DealtCards.model_validate(c) for side, c in d.get("cards", {}).items()},
        sealed=dict(d.get("sealed", {})),
        salts=dict(d.get("salts", {})),
        destroyed=copy.deepcopy(d.get("destroyed", [])),
        control=d.get("control"),
        result=None if d.get("result") is None else Result.from_data(d["result"]),
        log=[log_entry(e["text"], e.get("explain", []), e.get("units", []), e.get("private", {}), e.get("round", 0))
             for e in d.get("log", [])],
        setup=None if d.get("setup") is None else Setup.from_data(d["setup"]),
        to_face=list(d.get("to_face", [])),
        to_place=dict(d.get("to_place", {})),
        ground={g["id"]: GroundState(**g) for g in d.get("ground", [])},
        dice_commitments=dict(d.get("dice_commitments", {})),
        square_commitments={side: dict(c) for side, c in d.get("square_commitments", {}).items()},
        issued_kept={side: [dict(u) for u in units] for side, units in d.get("issued_kept", {}).items()},
        blip_commitments={side: dict(c) for side, c in d.get("blip_commitments", {}).items()},
        breaches=[str(b) for b in d.get("breaches", [])],
        card_commitments=copy.deepcopy(dict(d.get("card_commitments", {}))),
        pool=copy.deepcopy(d.get("pool")),
        labels_apart=bool(d.get("labels_apart", False)),
    )
