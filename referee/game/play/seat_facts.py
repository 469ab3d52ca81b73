"""What one seat's battle screen needs of the engine, asked in one question, and an action played and recorded with
the new screen's facts in the same question; and what a seat's plain screen (``service/screen.py``: its view, its
legal actions, its undo offer) needs, asked in one question too (``screen_facts``).

The service builds a seat's screen after every change (``service/battle_screen.py``): the seat's view and table, who
is to act, which of the bar's buttons the legal actions enable and who would act for each, the side panel's report,
the end of a round's words and the log's last entries. ``seat_facts`` answers all of them at once; ``play_action``
keys the dice to the action, resolves it, records it in the battle and answers them for the state it leaves, so an
action and the screen after it are one visit to the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..battle.action_kinds import Kind
from ..battle.commit import canonical_json
from ..battle.dice import DiceMissing, DiceSource, HandDice, RollRequest, SeededDice
from ..battle.intents import Action, LegalAction
from ..battle.state import SIDES, GameState
from ...rules.errors import InputError
from ..views.table_facts import TableFacts, table_facts
from ..views.view import log_view, player_view, public_view, referee_view
from ..views.view_types import LogLine, PlayerView, TurnView
from .actions import ActionOutcome, Resolving
from .effects import Ctx
from .engine import Game, RecordEntry, resolution
from .legal import battle_over, legal_actions, offers, reading, to_act
from .undo import UndoCheck, check_undo, moment_index
from .victory import end_of_round_lines, ends_whatever_is_announced, last_round

# The buttons that act for the turn, not for a unit: no actor.
TURN_KEYS = (Kind.END_ACTIVATION, Kind.END_TURN)

# What keeps a battle after each action recorded (the autosave's ``Autosaver.save``): given the game and its dice.
Keep = Callable[[Game, SeededDice | None], object]


@dataclass(frozen=True)
class SeatAsk:
    """What a seat's screen asks: whose it is, the bar's buttons the legal actions enable (action kinds, ``extra``
    for an extra blip activation), the piece selected, and how many of the log's last entries it carries."""

    viewer: str
    keys: tuple[str, ...] = ()
    selected: str | None = None
    log_count: int = 0


@dataclass(frozen=True)
class SeatFacts:
    """The engine's answers for one seat's screen on one state; read, never changed."""

    viewer: str
    over: bool                             # the battle is over (no choice of the attacker's still pending)
    to_act: str | None                     # the side the battle waits for
    view: PlayerView                       # the seat's view without the log (the whole truth once it is over)
    seen: TableFacts                       # its table, the panel's report, the pieces' names
    # Each button asked: the unit that would act (None: no unit, or a turn's button) and whether it is offered now.
    buttons: Mapping[str, tuple[str | None, bool]]
    last_round: bool                       # this end of round is the last the viewer's own mission allows (A43)
    end_of_round: tuple[str, ...]          # what the end of a round's dialog tells the viewer
    ends_this_round: str                   # why this end of round ends the battle whatever is announced, or ""
    log_start: int                         # the index of the first log entry carried
    log_entries: tuple[LogLine, ...]       # the log's last entries as the seat reads them
    # Kept for the next question on the same state: every ``offers`` answer by (kind, actor), and their reading.
    state: GameState | None = field(repr=False, compare=False)     # None: gathered from a seat's own answers
    key: tuple[object, ...] = field(repr=False, compare=False)
    offered: Mapping[tuple[str, str], bool] = field(repr=False, compare=False)
    reading: Ctx | None = field(default=None, repr=False, compare=False)


def actor_for(key: str, selected: str | None, turn: TurnView | None) -> str | None:
    """Who would act: the selected piece to activate, else the unit being activated (or next to act)."""
    if key in (Kind.ACTIVATE, "extra"):
        return selected
    if turn is None:
        return None
    if selected and (selected == turn["active"] or selected in turn["queue"]):
        return selected
    return turn["active"] or (turn["queue"][0] if turn["queue"] else None)


def seat_facts(state: GameState, ask: SeatAsk, known: SeatFacts | None = None) -> SeatFacts:
    """Everything ``ask``'s seat's screen needs of the engine on ``state``. ``known``: the answers last given for
    this seat; what they hold of the same state is not asked again (another piece selected, the same battle)."""
    over = battle_over(state)
    key = (ask.viewer, over, state.phase, state.round, len(state.log))
    same = known is not None and known.state is state and known.key == key
    if known is not None and same:
        view, table, offered, read = known.view, known.seen.table, dict(known.offered), known.reading
    else:
        view = referee_view(state, False) if over else player_view(state, ask.viewer, False)
        table, offered, read = None, {}, None
    seen = table_facts(view, ask.selected, table)
    side = to_act(state)
    turn = view["turn"]
    acting = side == ask.viewer and view["phase"] == "action"
    buttons: dict[str, tuple[str | None, bool]] = {}
    for name in ask.keys:
        actor = None if name in TURN_KEYS else actor_for(name, seen.selected, turn)
        if not acting or (actor is None and name not in TURN_KEYS):
            buttons[name] = (actor, False)
            continue
        question = (name, actor or "")
        if question not in offered:
            if read is None:
                read = reading(state)           # one battlefield for every button's question
            offered[question] = offers(state, name, actor or "", read)
        buttons[name] = (actor, offered[question])
    ending = view["phase"] == "end-of-round"
    start = max(0, len(state.log) - ask.log_count)
    entries = tuple(log_view(state, None if over else ask.viewer, start))
    return SeatFacts(
        viewer=ask.viewer, over=over, to_act=side, view=view, seen=seen, buttons=buttons,
        last_round=ending and last_round(state, ask.viewer),
        end_of_round=tuple(end_of_round_lines(state, ask.viewer)) if ending else (),
        ends_this_round=ends_whatever_is_announced(state) if ending else "",
        log_start=start, log_entries=entries, state=state, key=key, offered=offered, reading=read)


@dataclass(frozen=True)
class Played:
    """An action played: its outcome (recorded in the battle if legal) and the seat's facts on the state it left;
    or, stopped at a die nobody has given yet, that die (``request``) and where the resolution stands."""

    outcome: ActionOutcome | None
    facts: SeatFacts | None = None
    request: RollRequest | None = None
    resolving: Resolving | None = None
    draws_at: tuple[str, dict[str, int]] = ("", {})
    kept: bool = False                              # ``keep`` was asked to keep the battle after the action
    unsaved: InputError | OSError | None = None     # why it could not (the battle goes on)


def keyed_dice(game: Game, action: Action, dice: SeededDice | None, draws: SeededDice, given: list[float],
               what: str = "action") -> HandDice:
    """The dice for one try of ``action`` at this point of the battle: the same action here always gets the same
    program dice, so taking it back and taking it again does not roll anew."""
    moment = f"{what} {moment_index(game)}|{canonical_json(action.to_data())}"
    if dice is not None:
        dice.begin(moment)
    draws.begin(moment)
    return HandDice(given, dice, draws)


def play_action(game: Game, action: Action, dice: SeededDice | None, draws: SeededDice, given: list[float],
                why: str = "", ask: SeatAsk | None = None, source: DiceSource | None = None,
                keep: Keep | None = None) -> Played:
    """``action`` resolved with the dice keyed to it (``source``: other dice, keyed the same) and, legal, recorded
    (``go_on``)."""
    hand = keyed_dice(game, action, dice, draws, given)
    resolving = Resolving(game.state, lambda ctx: resolution(ctx, action), hand if source is None else source)
    return go_on(game, resolving, action, dice, draws, why, ask, keep)


def go_on(game: Game, resolving: Resolving, action: Action, dice: SeededDice | None, draws: SeededDice,
          why: str = "", ask: SeatAsk | None = None, keep: Keep | None = None) -> Played:
    """The resolution of ``action`` driven on until it ends or stops at a die nobody has given. Legal: recorded in
    ``game`` with its dice, ``why`` (the computer's reason, if its decision) and the shares it used, kept by
    ``keep`` (the autosave) and, ``ask`` given, the seat's facts on the new state."""
    try:
        outcome = resolving.advance()
    except DiceMissing as e:
        return Played(None, request=e.request, resolving=resolving, draws_at=(draws.moment, dict(draws.counts)))
    if not outcome.legal:
        return Played(outcome)
    before = game.state
    game.state = outcome.state
    entry = RecordEntry(action, list(outcome.rolls), why,
                        dice.used_shares() if dice is not None and dice.kept else {})
    if dice is not None:
        dice.forget_shares()
    game.record.append(entry)
    game.played_last = (entry, before)      # what the undo offer on every screen asks (``before_last``)
    unsaved: InputError | OSError | None = None
    if keep is not None:
        try:
            keep(game, dice)
        except (InputError, OSError) as e:
            unsaved = e
    return Played(outcome, seat_facts(game.state, ask) if ask is not None else None, kept=keep is not None,
                  unsaved=unsaved)


def may_decide(state: GameState, seat: str, refereed: bool) -> bool:
    """May ``seat`` decide now: its side is to act, a unit of its own just revealed waits for its facing or spot (A13,
    A66), or the round has ended and either side may speak; the referee of a physical game (``refereed``) enters every
    side's decisions."""
    if battle_over(state) or seat == "spectator":
        return False
    side = to_act(state)
    if seat == "referee":
        return refereed
    if side == seat or (side is None and state.phase == "end-of-round"):
        return True
    return any(u in state.units and state.units[u].side == seat for u in (*state.to_face, *state.to_place))


@dataclass(frozen=True)
class ScreenFacts:
    """The engine's answers for one seat's plain screen on one state; read, never changed."""

    view: PlayerView                       # what the seat may see, with its log
    to_act: str | None
    acting: bool                           # the seat may decide now (``may_decide``)
    over: bool
    legal: tuple[LegalAction, ...]         # its legal actions, when it may decide
    undo: UndoCheck | None                 # may it take the last action back (None: a seat that takes nothing back)
    undo_side: str                         # whose action that would be
    view_key: tuple[object, ...]           # what the view of the seat at the screen is kept by


def screen_facts(game: Game, seat: str, viewer: str, own: bool,
                 kept: tuple[GameState, tuple[object, ...], PlayerView] | None = None,
                 undo_known: Mapping[str, UndoCheck] | None = None) -> ScreenFacts:
    """Everything ``seat``'s plain screen needs of the engine. ``own``: the seat sees what the side at the screen
    (``viewer``) sees, its view ``kept`` from an earlier question if the battle has not moved since; ``undo_known``:
    the undo checks already made on this state, by side."""
    state = game.state
    over = battle_over(state)
    key: tuple[object, ...] = (viewer, over, state.phase, state.round, len(state.log))
    if own:
        if kept is not None and kept[0] is state and kept[1] == key:
            view = kept[2]
        else:
            view = referee_view(state) if over else player_view(state, viewer)
    elif over:
        view = referee_view(state)
    elif seat == "spectator":
        view = public_view(state)
    else:
        view = player_view(state, seat)
    side = to_act(state)
    acting = may_decide(state, seat, game.refereed)
    legal = tuple(legal_actions(state, seat if seat in SIDES else None)) if acting else ()
    undo, undo_side = None, ""
    if seat in SIDES or seat == "referee" and game.refereed:
        undo_side = seat if seat in SIDES else (side or viewer)
        known = undo_known.get(undo_side) if undo_known is not None else None
        undo = known if known is not None else check_undo(game, undo_side)
    return ScreenFacts(view, side, acting, over, legal, undo, undo_side, key)
