"""The battle window's screen: everything the window draws after a change, built once by the service.

A change (an action, a die, a take-back, a hand-off, another piece selected) costs the window one question: the
service answers with the seat's ``BattleScreen`` (``BattleSession.battle_screen``, and ``BattleSession.send``,
which answers an action with the new screen), and the window draws from it until the next change. It never asks
the service per button or per frame: which buttons are enabled, who would act and why a button is refused, the
side panel's report for the selected piece, the table as the rules read it, who the battle waits for next and the
seat's log are all here, as the engine said them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..game.battle.intents import Action
from ..game.play.seat_facts import TURN_KEYS, SeatFacts, actor_for
from ..game.views.table_facts import table_facts
from ..game.views.view_types import PlayerView, TurnView
from ..rules.battlefield import Battlefield, Piece
from ..rules.questions import SelectionReport
from .seat_log import LogTail, SeatLog

if TYPE_CHECKING:
    from .session import BattleSession

# The keys of the battle window's bar that are the window's own (no rule decides them).
WINDOW_KEYS = frozenset({"holding", "log", "save"})
NOT_YOUR_TURN = "not your turn"
SELECT_FIRST = "select the unit first (or activate one)"


@dataclass(frozen=True)
class Ask:
    """What the window wants its screen to carry: the piece selected (its panel report), the buttons of its bar
    (action kinds, ``extra`` for an extra blip activation, ``undo``) and whose log, one unit's or all."""

    selected: str | None = None
    keys: tuple[str, ...] = ()
    log_unit_only: bool = False


@dataclass(frozen=True)
class Button:
    """One button of the bar: enabled or not, the unit that would act, and the engine's reason when refused."""

    enabled: bool
    actor: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class BattleScreen:
    """One seat's battle window after a change (``BattleSession.battle_screen``); read, never changed."""

    viewer: str
    view: PlayerView                       # the seat's player view, without the log
    table: Battlefield                     # the view's table as the rules read it (blips as the seat sees them)
    over: bool
    to_act: str | None
    program_dice: bool
    computer: str | None                   # the side the computer plays
    computer_level: str
    computer_to_act: bool
    needs_handoff: bool
    objectives_pending: bool
    last_round: bool                       # this end of round is the last the viewer's own mission allows (A43)
    actions_taken: int
    moment: tuple[int, str | None]         # the record's length and whose turn it is (``BattleSession.moment``)
    spent_activation: str | None
    would_pass: bool
    selected: str | None
    panel: SelectionReport | None          # the side panel's report on the selected piece
    panel_error: str                       # why the report could not be made, or ""
    buttons: Mapping[str, Button]
    to_place: tuple[str, ...]              # units just revealed waiting for a human owner's spot (A66)
    to_face: tuple[str, ...]               # troopers just revealed waiting for a human owner's facing (A13)
    log: SeatLog                           # the seat's log (the whole truth once the battle is over), read from
    log_tail: LogTail                      # its last entries, carried: an action's screen reads no more
    titles: Mapping[str, str]              # each trooper's and drone's type as the panel names it
    faction_names: Mapping[str, str]       # each unit's faction, by its name
    wrecks: tuple[Piece, ...]              # destroyed objectives: drawn, no longer pieces the rules know (p.~12)
    log_unit: str | None                   # the unit whose entries alone the log shows, if asked
    computer_notes: Mapping[int, str]      # the computer's reasons the viewer may read, by the entry they follow
    computer_reasons: tuple[str, ...]      # every reason of the computer's, once the battle is over
    # At the end of a round: what its dialog tells the viewer (the choices and only its own mission's round limit,
    # A59), and why the battle ends whatever is announced, or "".
    end_of_round: tuple[str, ...]
    ends_this_round: str
    phase: str                             # the view's phase and turn, read as plain values
    turn: TurnView | None
    messages: tuple[str, ...] = field(default=())


def refusal(session: BattleSession, key: str, actor: str | None) -> str:
    """Why the button for ``key`` (acted by ``actor``) is refused now: the engine's checks, in its words."""
    if key in TURN_KEYS:
        return session.check(Action(key)).reason or NOT_YOUR_TURN
    if actor is None:
        return SELECT_FIRST
    return session.can(key, actor).reason or NOT_YOUR_TURN


def asked_keys(ask: Ask) -> tuple[str, ...]:
    """The bar's buttons whose state the legal actions decide (not the window's own, not ``undo``)."""
    return tuple(key for key in ask.keys if key not in WINDOW_KEYS and key != "undo")


def gathered(seat: Any, ask: Ask) -> SeatFacts:
    """A seat's facts from its own answers, a question at a time: for a seat over a session or a remote host (the
    shared table, a joined window), which answers from what it may see. The session's own seat asks the engine once
    (``BattleSession.battle_screen``). Enabled from the legal actions alone (no copy of the state); a refused
    button's reason is the engine's check, which resolves on a copy, so it is asked when the button is pressed
    (``refusal``), not for every button after every change."""
    view = seat.view(log=False)
    seen = table_facts(view, ask.selected, seat.table_for())
    turn = view["turn"]
    side = seat.to_act()
    acting = side == seat.viewer and view["phase"] == "action"
    buttons: dict[str, tuple[str | None, bool]] = {}
    for key in asked_keys(ask):
        if key in TURN_KEYS:
            buttons[key] = (None, acting and seat.offers(key))
            continue
        actor = actor_for(key, seen.selected, turn)
        buttons[key] = (actor, actor is not None and acting and seat.offers(key, actor))
    over = seat.over
    ending = view["phase"] == "end-of-round"
    return SeatFacts(
        viewer=seat.viewer, over=over, to_act=side, view=view, seen=seen, buttons=buttons,
        last_round=ending and seat.last_round(),
        end_of_round=tuple(seat.end_of_round_lines()) if ending else (),
        ends_this_round=seat.battle_ends_this_round() if ending else "",
        log_start=0, log_entries=(), state=None, key=(), offered={})


def battle_screen(seat: Any, ask: Ask) -> BattleScreen:
    """The screen of a seat over a session or a remote host, from its own answers (``gathered``)."""
    facts = gathered(seat, ask)
    log = seat.log_for(None if facts.over else seat.viewer)
    return shown(seat, ask, facts, log, log.tail(), needs_handoff=seat.needs_handoff(),
                 computer_to_act=seat.computer_to_act())


def shown(seat: Any, ask: Ask, facts: SeatFacts, log: SeatLog, log_tail: LogTail, *, needs_handoff: bool,
          computer_to_act: bool) -> BattleScreen:
    """The seat's screen from its facts and the service's own records (its computer, its dice, its messages)."""
    seen, view = facts.seen, facts.view
    buttons: dict[str, Button] = {}
    for key in ask.keys:
        if key in WINDOW_KEYS:
            continue
        if key == "undo":
            buttons[key] = Button(seat.actions_taken() > 0)
            continue
        actor, offered = facts.buttons[key]
        if key in TURN_KEYS:
            buttons[key] = Button(offered)
        elif actor is None:
            buttons[key] = Button(False, None, SELECT_FIRST)
        else:
            buttons[key] = Button(offered, actor)
    computer = seat.computer.side if seat.computer is not None else None
    to_place = tuple(uid for uid in view["to_place"] if uid in seen.sides and seen.sides[uid] != computer)
    to_face = tuple(uid for uid in view["to_face"] if uid in seen.sides and seen.sides[uid] != computer)
    over = facts.over
    return BattleScreen(
        viewer=seat.viewer, view=view, table=seen.table, over=over, to_act=facts.to_act,
        program_dice=seat.dice is not None, computer=computer,
        computer_level=seat.computer.level.name if seat.computer is not None else "",
        computer_to_act=computer_to_act, needs_handoff=needs_handoff,
        objectives_pending=seat.objectives_pending(), last_round=facts.last_round,
        actions_taken=seat.actions_taken(), moment=seat.moment(),
        spent_activation=seat.spent_activation(), would_pass=seat.would_pass(),
        selected=seen.selected, panel=seen.panel, panel_error=seen.panel_error, buttons=buttons, to_place=to_place,
        to_face=to_face, log=log, log_tail=log_tail, titles=seen.titles, faction_names=seen.faction_names,
        wrecks=seen.wrecks, end_of_round=facts.end_of_round, ends_this_round=facts.ends_this_round,
        log_unit=seen.selected if ask.log_unit_only else None, computer_notes=seat.computer_notes,
        computer_reasons=tuple(seat.computer_reasons) if over else (), phase=view["phase"], turn=view["turn"],
        messages=tuple(seat.messages))
