"""Determinization: a whole battle state rebuilt from one side's player view, the hidden parts sampled.

What the computer's side cannot see -- the opponent's force, which of its blips hold units and which are decoys, its
mission and cards -- is drawn at random, consistently with the view: the force is one the public deck can issue,
with every enemy unit already seen (on the table or destroyed) taken out of it, and the units left are put into the
enemy blips still on the table, likelier ones first (``belief.py``). The computer then runs the engine's own
resolution on this imagined state to score its candidate actions; it never receives the true state.
"""

from __future__ import annotations

import functools
import pickle
import random
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from ....rules.factions import faction_files
from ....rules.pieces import DealtCards, UnitContents
from ....rules.pieces import Terrain as TerrainEntry
from ...battle.state_parts import Result
from ...battle.commit import UNIT_KEYS
from ...battle.state import SQUARES, Data, BlipState, GameState, GroundState, Holding, LogEntry, ObjectiveState, TurnState, UnitState, as_side
from ...battle.cards import Force
from .belief import Belief, force_size, possible_forces
from .seen import Seen

UNIT_FIELDS = set(UnitState.__dataclass_fields__)
OBJECTIVE_FIELDS = set(ObjectiveState.__dataclass_fields__)


V = TypeVar("V")

# The terrain entries made of a view's terrain, by the list's identity (the list is kept with them): every state
# sampled from one view shares one set of entries, as every copy of a battle's state does, and so its battlefield's
# terrain and any battlefield of a table that stands the same (``GameState.battlefield``).
VIEWS_KEPT = 64             # views whose terrain and forces that fit are kept (all are let go when full)
_TERRAIN: dict[int, tuple[list[Data], list[TerrainEntry]]] = {}


def _terrain(data: list[Data]) -> list[TerrainEntry]:
    held = _TERRAIN.get(id(data))
    if held is None or held[0] is not data:
        if len(_TERRAIN) >= VIEWS_KEPT:
            _TERRAIN.clear()
        held = _TERRAIN[id(data)] = (data, [_terrain_entry(t) for t in data])
    return list(held[1])


ENTRIES_KEPT = 4096         # terrain entries kept by what the views say of them (all are let go when full)
_ENTRIES: dict[bytes, TerrainEntry] = {}


def _terrain_entry(data: Data) -> TerrainEntry:
    """A view's terrain entry, validated once for what it says (pickled: the same bytes are the same entry): every
    decision's view is new, but its table's terrain is the last one's, and validating every piece of it again was
    a tenth of a decision. The same entry for the same piece also lets the battlefields and terrain arrays made for
    one decision's table serve the next (they know a table's terrain by its entries)."""
    return _validated(_ENTRIES, ENTRIES_KEPT, data, TerrainEntry.model_validate)


def _validated(kept: dict[bytes, V], bound: int, data: object, validate: Callable[[Any], V]) -> V:
    """``validate(data)``, kept in ``kept`` by the pickled data (all let go once it holds ``bound``): the same bytes
    are the same value, and the values kept are frozen, shared by every state made from them."""
    key = pickle.dumps(data, pickle.HIGHEST_PROTOCOL)
    value = kept.get(key)
    if value is None:
        if len(kept) >= bound:
            kept.clear()
        value = kept[key] = validate(data)
    return value


CONTENTS_KEPT = 256         # squares' contents and cards kept, validated, by what the views say of them


_CONTENTS: dict[bytes, list[UnitContents]] = {}


def _contents(data: list[Data] | None) -> list[UnitContents] | None:
    """A square's contents as the view tells them, validated once for what they say (pickled, as a terrain entry):
    contents are frozen models, shared by every state sampled from it, as by every copy of a state, and a square
    holds the same units decision after decision."""
    if data is None:
        return None
    held: list[UnitContents] = _validated(_CONTENTS, CONTENTS_KEPT, data,
                                          lambda d: [UnitContents.model_validate(c) for c in d])
    return list(held)


_CARDS: dict[bytes, DealtCards] = {}


def _cards(data: Data) -> DealtCards:
    """A side's own cards as its view tells them, validated once for what they say (a frozen model, shared)."""
    return _validated(_CARDS, CONTENTS_KEPT, data, DealtCards.model_validate)


_FITS: dict[tuple[object, ...], list[Force]] = {}


@functools.lru_cache(maxsize=1)
def _force_types() -> tuple[tuple[Force, Counter[str]], ...]:
    """Every force the deck can issue with the count of each unit type it holds."""
    return tuple((f, Counter(u.type for u in f.troopers + f.drones)) for f in possible_forces())


def _forces_that_fit(seen: Seen) -> tuple[list[str], list[Force], Counter[str]]:
    """The enemy's factions seen, the forces the deck could have issued it and the unit types already seen. The
    forces are listed once for each set of types and ratings seen (decision after decision sees the same)."""
    enemies = seen.enemies()
    gone = [d for d in seen.view.get("destroyed", []) if d.get("side") == seen.them]
    shown = Counter([u["type"] for u in enemies] + [d["type"] for d in gone])
    ratings = {u["rating"] for u in enemies if not u["type"].endswith("-drone")}
    factions = sorted({u["faction"] for u in enemies})
    key = (tuple(sorted(shown.items())), tuple(sorted(ratings)))
    fits = _FITS.get(key)
    if fits is None:
        fits = []
        for f, have in _force_types():
            if ratings and f.rating not in ratings:
                continue
            if all(have[t] >= n for t, n in shown.items()):
                fits.append(f)
        if not fits:
            fits = [f for f in possible_forces() if force_size(f) >= sum(shown.values())] or list(possible_forces())
        if len(_FITS) >= VIEWS_KEPT:
            _FITS.clear()
        _FITS[key] = fits
    return factions, fits, shown


_HIDDEN: dict[tuple[str, str, str, str, str], UnitContents] = {}


def _hidden_unit(uid: str, side: str, faction: str, rating: str, type_: str) -> UnitContents:
    """An imagined enemy unit's contents, made once for the same id, faction, rating and type: contents are frozen,
    and each decision imagines the same few units in every world it samples."""
    key = (uid, side, faction, rating, type_)
    c = _HIDDEN.get(key)
    if c is None:
        if len(_HIDDEN) >= CONTENTS_KEPT:
            _HIDDEN.clear()
        c = _HIDDEN[key] = UnitContents(id=uid, side=as_side(side), faction=faction, rating=rating,  # type: ignore[arg-type]
                                        type=type_)
    return c


def _enemy_force(seen: Seen, rng: random.Random) -> tuple[str, str, list[str]]:
    """A faction, a rating and the unit types of the enemy units still hidden, drawn consistently with the view."""
    factions, fits, shown = _forces_that_fit(seen)
    faction = factions[0] if factions else rng.choice(sorted(faction_files()))
    force = rng.choice(fits)
    left = Counter(u.type for u in force.troopers + force.drones) - shown
    types = sorted(left.elements())
    rng.shuffle(types)
    return faction, force.rating, types


def _pick_real(blips: list[str], belief: Belief, n: int, rng: random.Random) -> list[str]:
    """``n`` of the blips, drawn without replacement with the belief's odds as weights."""
    pool = list(blips)
    weights = [max(belief.real(b), 1e-3) for b in pool]      # each blip's weight, read once: a pick takes it out
    out = []
    for _ in range(min(n, len(pool))):
        i = rng.choices(range(len(pool)), weights)[0]
        out.append(pool.pop(i))
        weights.pop(i)
    return out


def sample_state(seen: Seen, belief: Belief, rng: random.Random) -> GameState:
    """One battle state the view could have come from."""
    v = seen.view
    me, them = seen.me, seen.them
    units = {}
    for u in v["units"]:
        data = {k: u[k] for k in UNIT_FIELDS if k in u}
        units[u["id"]] = UnitState(**data)
    blips: dict[str, BlipState] = {}
    holding = {me: Holding({n: [] for n in range(1, SQUARES + 1)}), them: Holding({n: [] for n in range(1, SQUARES + 1)})}
    own = v.get("holding", {}).get(me) or {}
    for n, contents in own.items():
        holding[me].squares[int(n)] = _contents(contents)
    enemy_blips = []
    for b in v["blips"]:
        if b["side"] == me:
            blips[b["id"]] = BlipState(b["id"], b["side"], b["x"], b["y"], int(b["square"]), b.get("base", 1.0),
                                       b.get("activation", True))
        else:
            enemy_blips.append(b)
    # Enemy blips: squares drawn at random, units dealt into the likelier blips (at most 2 a square).
    squares = list(range(1, SQUARES + 1))
    rng.shuffle(squares)
    for b, sq in zip(enemy_blips, squares):
        blips[b["id"]] = BlipState(b["id"], b["side"], b["x"], b["y"], sq, b.get("base", 1.0), b.get("activation", True))
    known = {b["id"]: b.get("contents") for b in enemy_blips if b.get("contents") is not None}
    for bid, contents in known.items():
        holding[them].squares[blips[bid].square] = _contents(contents)
    open_blips = [b["id"] for b in enemy_blips if b["id"] not in known]
    if open_blips:
        faction, rating, types = _enemy_force(seen, rng)
        real = _pick_real(open_blips, belief, len(types), rng)
        taken = set(units) | set(blips)
        for i, t in enumerate(types):
            if not real:
                break
            bid = real[i % len(real)]
            sq = blips[bid].square
            if len(holding[them].squares[sq] or []) >= 2:
                continue
            n = 1
            while f"{them.lower()}-{t}-h{n}" in taken:
                n += 1
            uid = f"{them.lower()}-{t}-h{n}"
            taken.add(uid)
            c = _hidden_unit(uid, them, faction, rating, t)
            holding[them].squares[sq] = [*(holding[them].squares[sq] or []), c]
    objectives = {o["id"]: ObjectiveState(**{k: o[k] for k in OBJECTIVE_FIELDS if k in o}) for o in v["objectives"]}
    missions = {me: v["missions"][me]} if v.get("missions", {}).get(me) else {}
    if v.get("missions", {}).get(them):
        missions[them] = v["missions"][them]
    else:
        options = seen.their_missions
        if options:
            missions[them] = rng.choice(options).id
    turn = v.get("turn")
    return GameState(
        name=v["name"], width=v["table"]["width"], height=v["table"]["height"],
        terrain=_terrain(v["terrain"]),
        units=units, blips=blips, objectives=objectives, holding=holding,
        rulings=dict(v.get("rulings") or {}), scale=v.get("scale", 1.0), attacker=v.get("attacker"),
        mode=v.get("mode", "table"), round=v["round"], phase=v["phase"], initiative=v["initiative"],
        turn=None if turn is None else TurnState(**{**turn, "queue": list(turn.get("queue", []))}),
        passes_in_row=v.get("passes_in_row", 0), pursuit=v.get("pursuit"), missions=missions,
        cards={me: _cards(v["cards"][me])} if v.get("cards", {}).get(me) else {},
        sealed={}, salts={}, destroyed=[dict(d) for d in v.get("destroyed", [])], control=v.get("control"),
        result=None if v.get("result") is None else Result.from_data(v["result"]),
        ground={g["id"]: GroundState(**g) for g in v.get("ground", [])},
        dice_commitments=dict(v.get("dice_commitments") or {}), pool=v.get("pool"),
        square_commitments={side: dict(c) for side, c in (v.get("square_commitments") or {}).items()},
        # A side kept on its own computer: the units not opened yet are those its imagined squares hold.
        issued_kept={side: [c.model_dump(mode="json", include=set(UNIT_KEYS)) for held in holding[side].squares.values()
                            for c in held or []] for side in (v.get("square_commitments") or {})},
        # Every counter's square is drawn in the imagined world: none is left to open against a commitment.
        blip_commitments={},
        breaches=list(v.get("breaches") or []),
        # The opponent's cards are drawn in the imagined world: none is left kept on its computer.
        card_commitments={},
        labels_apart=bool(v.get("labels_apart", False)),
        log=[LogEntry(e["text"], [], list(e.get("units", [])), {}, e.get("round", 0)) for e in v.get("log", [])[-1:]],
    )
