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
from typing import TYPE_CHECKING

from ..game.battle.action_kinds import Kind
from ..game.battle.intents import Action
from ..game.views.view_types import PlayerView, TurnView
from ..game.views.view_words import view_unit
from ..rules.battlefield import Battlefield, Piece
from ..rules.catalogue import type_title
from ..rules.errors import InputError
from ..rules.factions import get_faction
from ..rules.questions import SelectionReport, selection_report
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


def actor_for(key: str, selected: str | None, turn: TurnView | None) -> str | None:
    """Who would act: the selected piece to activate, else the unit being activated (or next to act)."""
    if key in (Kind.ACTIVATE, "extra"):
        return selected
    if turn is None:
        return None
    if selected and (selected == turn["active"] or selected in turn["queue"]):
        return selected
    return turn["active"] or (turn["queue"][0] if turn["queue"] else None)


def _button(session: BattleSession, key: str, selected: str | None, turn: TurnView | None, acting: bool) -> Button:
    """Enabled from the legal actions alone (no copy of the state); a refused button's reason is the engine's
    check, which resolves on a copy, so it is asked when the button is pressed (``refusal``), not for every button
    after every change."""
    if key == "undo":
        return Button(session.actions_taken() > 0)
    if key in (Kind.END_ACTIVATION, Kind.END_TURN):
        return Button(acting and session.offers(key))
    actor = actor_for(key, selected, turn)
    if actor is None:
        return Button(False, None, SELECT_FIRST)
    return Button(acting and session.offers(key, actor), actor)


def refusal(session: BattleSession, key: str, actor: str | None) -> str:
    """Why the button for ``key`` (acted by ``actor``) is refused now: the engine's checks, in its words."""
    if key in (Kind.END_ACTIVATION, Kind.END_TURN):
        return session.check(Action(key)).reason or NOT_YOUR_TURN
    if actor is None:
        return SELECT_FIRST
    return session.can(key, actor).reason or NOT_YOUR_TURN


def wrecks(view: PlayerView) -> tuple[Piece, ...]:
    """The destroyed objectives of a view, to draw where they stood."""
    return tuple(Piece(id=o["id"], kind="objective", x=o["x"], y=o["y"], radius=o["base"] / 2)
                 for o in view["objectives"] if o.get("destroyed"))


def _faction_name(faction: str) -> str:
    try:
        return get_faction(faction).name
    except (InputError, OSError):      # a faction given as a file path that moved: the id will do
        return faction


def piece_words(table: Battlefield) -> tuple[dict[str, str], dict[str, str]]:
    """The names the side panel gives the pieces: each unit type's title, each faction's name."""
    titles = {p.id: type_title(p.unit_type) for p in table.pieces.values()
              if (p.is_trooper or p.is_drone) and p.unit_type}
    factions = {f: _faction_name(f) for f in {p.faction for p in table.pieces.values() if p.faction}}
    return titles, factions


def _panel(table: Battlefield, selected: str | None) -> tuple[SelectionReport | None, str]:
    if selected is None or selected not in table.pieces:
        return None, ""
    try:
        return selection_report(table, table.pieces[selected]), ""
    except Exception as e:  # noqa: BLE001 -- shown in the window, which must not close on a rules error
        return None, f"{type(e).__name__}: {e}"


def battle_screen(session: BattleSession, ask: Ask) -> BattleScreen:
    """The seat at the window's screen (``session.viewer``), with what ``ask`` wants shown."""
    view = session.view(log=False)
    table = session.table_for()
    selected = ask.selected if ask.selected in table.pieces else None
    turn = view["turn"]
    acting = session.to_act() == session.viewer and view["phase"] == "action"
    buttons = {key: _button(session, key, selected, turn, acting) for key in ask.keys if key not in WINDOW_KEYS}
    panel, panel_error = _panel(table, selected)
    computer = session.computer.side if session.computer is not None else None
    to_place = tuple(uid for uid in view["to_place"]
                     if (u := view_unit(view, uid)) is not None and u["side"] != computer)
    to_face = tuple(uid for uid in view["to_face"]
                    if (u := view_unit(view, uid)) is not None and u["side"] != computer)
    over = session.over
    ending = view["phase"] == "end-of-round"
    log = session.log_for(None if over else session.viewer)
    titles, faction_names = piece_words(table)
    return BattleScreen(
        viewer=session.viewer, view=view, table=table, over=over, to_act=session.to_act(),
        program_dice=session.dice is not None, computer=computer,
        computer_level=session.computer.level.name if session.computer is not None else "",
        computer_to_act=session.computer_to_act(), needs_handoff=session.needs_handoff(),
        objectives_pending=session.objectives_pending(),
        last_round=view["phase"] == "end-of-round" and session.last_round(),
        actions_taken=session.actions_taken(), moment=session.moment(),
        spent_activation=session.spent_activation(), would_pass=session.would_pass(),
        selected=selected, panel=panel, panel_error=panel_error, buttons=buttons, to_place=to_place,
        to_face=to_face, log=log, log_tail=log.tail(), titles=titles, faction_names=faction_names,
        wrecks=wrecks(view), end_of_round=tuple(session.end_of_round_lines()) if ending else (),
        ends_this_round=session.battle_ends_this_round() if ending else "",
        log_unit=selected if ask.log_unit_only else None, computer_notes=session.computer_notes,
        computer_reasons=tuple(session.computer_reasons) if over else (), phase=view["phase"], turn=turn,
        messages=tuple(session.messages))
