"""The referee: a battle's state, the record that rebuilds it, and the one way to change it (``play``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..battle.action_kinds import KINDS, Kind, arg_named, as_kind
from .action_table import RULES
from ..battle.intents import Action
from .actions import ActionOutcome, run
from ..battle.dice import DiceSource, Roll, Rolling, replay_source
from .effects import Ctx, Refused
from .pool import spend_pool
from ..battle.state import Data, GameState
from .setup_steps import decision, what_to_do
from .turns import start_round_one

if TYPE_CHECKING:
    from ..records.sealing import Keyring


@dataclass(slots=True)
class RecordEntry:
    action: Action
    rolls: list[Roll]
    # The computer's reason for this action of its own, as its log line ("[round N] action: reason"). It is written
    # only where the record is sealed (``to_data(with_why=True)``): shown after the battle, and a battle reopened
    # keeps it, but no file in clear may hold it (it hints at what its blips hold).
    why: str = ""
    # The shares a side kept on its own computer sent for this action's public numbers (``dice.py``), by side: the
    # dice replay from ``rolls``; these are checked against that side's contribution when it opens it at the end.
    shares: dict[str, list[str]] = field(default_factory=dict)

    def to_data(self, with_why: bool = False) -> Data:
        data: Data = {"action": self.action.to_data(), "rolls": [r.as_list() for r in self.rolls]}
        if with_why and self.why:
            data["why"] = self.why
        if self.shares:
            data["shares"] = {side: list(v) for side, v in sorted(self.shares.items())}
        return data

    @staticmethod
    def from_data(d: Data) -> "RecordEntry":
        return RecordEntry(Action.from_data(d["action"]), [Roll(*r) for r in d.get("rolls", [])],
                           str(d.get("why", "")), {str(k): [str(x) for x in v] for k, v in (d.get("shares") or {}).items()})


def play(state: GameState, action: Action, source: DiceSource, in_place: bool = False) -> ActionOutcome:
    """One turn-level action (activate, a unit action, end-turn, ...) checked and resolved on a copy of the state.
    A correction of the table (``corrections.py``) goes through here too, so the record replays it.

    ``in_place``: resolved on ``state`` itself, which the caller gives up (a replay keeping only its end state)."""
    return run(state, lambda ctx: resolution(ctx, action), source, in_place=in_place)


def resolution(ctx: Ctx, action: Action) -> Rolling[object]:
    """The generator that resolves any recorded action: a turn-level action or a correction of the table (what a
    replay, the dice report and ``play`` all drive)."""
    kind = as_kind(action.kind)
    if ctx.state.phase == "setup" and (kind is None or KINDS[kind].part != "set-up"):
        return _refused_in_setup(ctx, action)
    if kind is None:
        return _unknown(action)
    if KINDS[kind].part != "correction" and any(arg_named(kind, key) is None for key in action.args):
        # (A correction names each change it may make of the piece it corrects: its own words say more.)
        return _not_its_arguments(kind, action)
    if ctx.state.pool is not None and kind not in (Kind.SENSOR_POOL, Kind.TAKEN_BACK) \
            and KINDS[kind].part != "correction":
        # A sensor pool rolled waits for the Target that spends it (p.19); the note of a Target taken back with the
        # other side's consent is logged beside it (the pool stays rolled, for the Target made again).
        return spend_pool(ctx, action)
    return RULES[kind].resolve(ctx, action)


def _unknown(action: Action) -> Rolling[object]:
    raise Refused(f"unknown action {action.kind!r}")
    yield  # a generator like every resolution: the refusal comes when it is driven


def _not_its_arguments(kind: str, action: Action) -> Rolling[object]:
    # Refused as a save refuses it (``records/record.py``): an action recorded with an argument its kind does not
    # take would write a save that no longer opens.
    names = ", ".join(a.name for a in KINDS[kind].args) or "none"
    unknown = ", ".join(sorted(key for key in action.args if arg_named(kind, key) is None))
    raise Refused(f"{unknown}: not an argument of {kind} (expected {names})")
    yield  # a generator like every resolution: the refusal comes when it is driven


def _refused_in_setup(ctx: Ctx, action: Action) -> Rolling[object]:
    d = decision(ctx.state)
    raise Refused(f"{action.kind}: set-up is not finished (side {d['side'] if d else '?'} is to "
                  f"{what_to_do(d) if d else 'decide'}) [p.~14-15, A60]")
    yield  # a generator like every resolution: the refusal comes when it is driven


def begin_battle(state: GameState, first: str | None = None) -> GameState:
    """Round 1 begins on a copy of ``state`` (a table set up by hand: a scenario, a test)."""
    s = state.copy()
    start_round_one(Ctx(s), first or s.attacker or s.initiative or "A")
    return s


@dataclass(init=False)
class Game:
    """A battle: the state after set-up, every action since with its dice, and the state now."""

    initial: GameState
    record: list[RecordEntry]
    state: GameState
    refereed: bool                # a physical game the program follows (dice typed in, contents told at reveals)
    campaign: str | None          # the campaign file a campaign battle's result is recorded in when it ends (p.31)
    # The sides the computer plays: side -> {"kind": "computer", "level": ..., "seed": ...}; a side not named is
    # played by a person. A reopened battle seats the computer again at its level, with its seed.
    players: dict[str, Data]

    def __init__(self, initial: GameState, record: list[RecordEntry] | None = None, state: GameState | None = None,
                 refereed: bool = False, campaign: str | None = None, players: dict[str, Data] | None = None):
        self.initial = initial
        self.record = [] if record is None else record
        self.state = initial.copy() if state is None else state
        self.refereed = refereed
        self.campaign = campaign
        self.players = dict(players or {})
        # Each player's PIN, in memory only: a battle with keys is written sealed (``sealing.py``), never in clear.
        self.keys: Keyring | None = None
        # What a save's seals caught when it was loaded (``seal.tampered``): one sentence each, for the report.
        self.tampered: list[str] = []
        # How many of the record's first entries were counted, the last of them, and how many were actions (not
        # take-backs): ``undo.moment_index`` goes on from there instead of counting a long battle's record again.
        self.counted: tuple[int, RecordEntry | None, int] = (0, None, 0)
        # The record's last entry as ``play`` appended it, and the state it was played on: what an undo offer asks
        # after every action (``undo.check_undo``), which replaying the record again each time made dearer with
        # every action of the battle.
        self.played_last: tuple[RecordEntry, GameState] | None = None
        # The state set-up ended in, with the initial state and the record entries that led to it: every save and
        # every seal check asks for it, and replaying a set-up left to the program is dear (each objective's spot is
        # searched for on the table again). Kept while those entries stay the record's first.
        self.setup_end: tuple[GameState, list[RecordEntry], GameState] | None = None

    def play(self, action: Action, source: DiceSource) -> ActionOutcome:
        before = self.state
        outcome = play(before, action, source)
        if outcome.legal:
            self.state = outcome.state
            entry = RecordEntry(action, list(outcome.rolls))
            self.record.append(entry)
            self.played_last = (entry, before)
        return outcome

    def before_last(self) -> GameState:
        """The state before the record's last entry, to read and not to change: the state ``play`` played it on,
        or the record replayed up to it when the entry came some other way (a save read, a take-back logged)."""
        kept = self.played_last
        if kept is not None and self.record and kept[0] is self.record[-1]:
            return kept[1]
        return self.rebuild(len(self.record) - 1)

    def after_setup(self) -> GameState:
        """The state the moment set-up ended (what the seals were made of): ``initial`` for a battle whose record
        starts after set-up, else the record replayed to the end of its set-up decisions (the state now while set-up
        still runs)."""
        if self.initial.phase != "setup":
            return self.initial
        kept = self.setup_end
        if kept is not None and kept[0] is self.initial and len(kept[1]) <= len(self.record) \
                and all(a is b for a, b in zip(kept[1], self.record)):
            return kept[2].copy()
        state = self.initial.copy()
        played = 0
        for i, entry in enumerate(self.record):
            if state.phase != "setup":
                break
            # Each state of the replay is given up to the next action: only the last is kept.
            outcome = play(state, entry.action, replay_source(entry.rolls), in_place=True)
            if not outcome.legal:
                raise ValueError(f"action {i + 1} ({entry.action.text()}) no longer replays: {outcome.reason}")
            state = outcome.state
            played = i + 1
        if state.phase != "setup":
            self.setup_end = (self.initial, self.record[:played], state.copy())
        return state

    def rebuild(self, upto: int | None = None) -> GameState:
        """Replays the record (or its first ``upto`` entries) from the initial state with the recorded dice."""
        state = self.initial.copy()
        for i, entry in enumerate(self.record[:upto]):
            # Each state of the replay is given up to the next action: only the last is kept.
            outcome = play(state, entry.action, replay_source(entry.rolls), in_place=True)
            if not outcome.legal:
                raise ValueError(f"action {i + 1} ({entry.action.text()}) no longer replays: {outcome.reason}")
            state = outcome.state
        return state

    def undo(self, steps: int = 1) -> None:
        self.undo_to(max(0, len(self.record) - steps))

    def undo_to(self, n: int) -> None:
        """Back to the state after the first ``n`` actions (0: straight after set-up)."""
        if not 0 <= n <= len(self.record):
            raise ValueError(f"there are {len(self.record)} actions; cannot go back to {n}")
        self.state = self.rebuild(n)
        del self.record[n:]
