"""The battle service's session: the engine's ``Game``, the dice, the autosave, undo and consent, the computer's
turns, and each seat's screen (no pygame). The window and the command line are its clients.

A client never decides a rule. Every action goes through ``session.attempt``, which asks the engine; a preview
(``session.check``) is the same engine run that stops at the first die, so what is offered is what the engine will
accept. Dice come from the program (seeded, its position saved) or from the players' physical dice: a roll the
engine asks for is then handed back to the window as a ``Pending`` request holding the engine's resolution stopped
at that roll; the players type the face and the resolution goes on from there. One action is resolved once, on one
copy of the state, however many dice it asks for.

What a seat is shown is its screen (``screen``, ``view_for``): built from ``player_view`` for a side, from
``public_view`` for a spectator; the seat at this window is ``local_seat`` (the side at the screen, ``viewer``). Only
the end-of-battle report reads the whole truth (``revealed``), when the rules reveal it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ..game.battle.action_kinds import Kind
from ..game.battle.state_parts import FORFEITED
from ..game.battle.intents import Action, LegalAction, Preview
from ..game.play.actions import UNIT_ACTIONS, ActionOutcome, Resolving, check_unit_action, unused_blips
from ..game.play.legal import battle_over, legal_actions, offers, reading, to_act
from ..game.play.seat_facts import (Keep, Played, SeatAsk, SeatFacts, go_on, may_decide, play_action, screen_facts,
                                    seat_facts)
from ..game.play.setup_steps import decision as setup_decision, kept_draw, square_overfull
from ..game.battle.kept_cards import KEPT_PARTS, cards_moment
from ..game.play.session import FirstDieStops, preview, preview_on_table  # noqa: F401 (FirstDieStops: kept importable here)
from ..game.battle.dice import (GivenDice, HandDice, RollRequest, ScriptedDice, SeededDice, SharesMissing,
                                check_face, SHARE_HEX, false_shares, is_share, new_seed)
from ..game.battle.commit import is_digest
from ..game.play.effects import Ctx, Refused, UnknownContents, revealed_spots
from ..game.play.engine import Game
from ..game.records.autosave import Autosaver
from ..game.records.roll_book import PlayedElsewhere
from .keys import computer_pin, kept_pin, keyring
from ..game.records.record import commit_dice, save_game
from ..game.play.seal import SealCheck, canonical_json, seal_report_lines, verify_seals
from ..game.play.turns import TAKE_BACK_RULE
from ..game.play.undo import NOT_PLACES, UndoCheck, check_undo, take_back
from ..game.players.computer import Computer, Decision
from ..game.players.seated import seat_computer, seated_computer
from ..game.battle.state import SIDES, Data, GameState, other
from ..game.views.battlefield import battlefield_from_view
from ..game.views.view import player_view, public_view, referee_view
from ..game.views.view_words import entries_lines, log_lines
from ..game.views.view_types import PlayerView, as_data
from ..rules.battlefield import Battlefield
from ..rules.errors import InputError
from ..rules.questions import SelectionReport, selection_report
from ..game.play.victory import cards_unopened, end_of_round_lines, ends_whatever_is_announced, last_round
from .battle_screen import Ask, BattleScreen, asked_keys, shown
from .look_back import LookBack
from .seat_screens import SeatScreens
from .screen import Screen, UndoOffer
from .seat_log import TAIL, LogTail, SeatLog
from .seats import REFEREE, SPECTATOR, as_seat

PROGRAM, BY_HAND = "program", "by-hand"


@dataclass(frozen=True)
class Check:
    """Would the engine accept this action now? ``legal`` is the engine's word; ``reason`` quotes its rule."""

    legal: bool
    reason: str = ""
    first_roll: RollRequest | None = None


@dataclass
class Pending:
    """An action waiting for the players' physical dice: ``request`` is the next roll the engine asks for."""

    action: Action
    request: RollRequest
    given: list[float] = field(default_factory=list)
    # The engine's resolution, stopped at ``request``, and where the card draws' stream stood then: the die typed in
    # answers it where it stopped.
    resolving: Resolving | None = field(default=None, repr=False, compare=False)
    draws_at: tuple[str, dict[str, int]] = field(default=("", {}), repr=False, compare=False)


@dataclass
class NeedsContents:
    """The engine must reveal ``blip`` and was never told what it holds: its owner says, then ``action`` goes on
    (a refereed physical game, or a side whose secrets stay on its own computer, ``game/battle/commit.py``)."""

    blip: str
    side: str
    action: Action
    given: list[float]


@dataclass
class NeedsShares:
    """The engine needs a public number of ``moment`` and the side kept on its own computer has not sent its shares
    of it (``dice.SharesMissing``): its computer sends them from number ``start`` on, then ``action`` goes on."""

    side: str
    moment: str
    start: int
    action: Action
    given: list[float]


@dataclass
class Attempt:
    outcome: ActionOutcome | None = None
    pending: Pending | None = None
    screen: BattleScreen | None = None          # the window's new screen, when it sent the action (``send``)
    needs: NeedsContents | None = None          # nothing recorded yet: a blip's owner must say what it holds first
    shares: NeedsShares | None = None           # nothing recorded yet: the public dice wait for a kept side's shares

    @property
    def legal(self) -> bool:
        return self.outcome is not None and self.outcome.legal


@dataclass
class BattleSession(SeatScreens):
    game: Game
    dice: SeededDice | None = None            # None: the players roll physical dice and type the faces in
    hotseat: bool = True
    viewer: str = "A"                          # the side at the screen
    save_path: Path | None = None
    autosaving: bool = True
    messages: list[str] = field(default_factory=list)
    # Card draws while the players roll: program dice of their own, keyed by the action like the program's dice, so
    # every try of one action (an action asking for dice is resolved again from its start) draws the same.
    draws: SeededDice = field(default_factory=lambda: SeededDice(new_seed()))
    # The autosave: a snapshot, then one journal line per action (``autosave.py``). It writes as this session (the
    # note of what was rolled, ``roll_book.py``, names the session that wrote last), which opened the battle at
    # ``_opened_at`` actions: a second window opened on the battle is told, not let roll the same action again.
    autosaver: Autosaver | None = field(default=None, repr=False)
    _writer: str = field(default_factory=lambda: secrets.token_hex(8), repr=False, compare=False)
    _opened_at: int = field(default=-1, repr=False, compare=False)
    _checked: tuple[GameState | None, dict[Any, Any]] = field(default_factory=lambda: (None, {}), repr=False,
                                                              compare=False)
    # A campaign battle: its campaign file, where the result is recorded the moment the battle ends (p.31), and
    # what was recorded there.
    campaign: Path | None = None
    campaign_recorded: list[str] = field(default_factory=list)

    _legal: tuple[GameState | None, list[LegalAction]] = field(default=(None, []), repr=False)     # (state, list)
    # log or not -> (state, key, view)
    _views: dict[bool, tuple[GameState, tuple[Any, ...], PlayerView]] = field(default_factory=dict, repr=False,
                                                                              compare=False)
    # the last view's table, as the rules read it
    _tables: dict[int, tuple[PlayerView, Battlefield]] = field(default_factory=dict, repr=False, compare=False)
    # the engine's last answers for the window's screen (``seat_facts``): what they hold of the same state is kept
    _facts: SeatFacts | None = field(default=None, repr=False, compare=False)
    # The turn a campaign battle's own save was last written at: it is rewritten when the turn passes, not after
    # every action (the autosave's journal keeps every action meanwhile).
    _campaign_saved_at: tuple[Any, ...] | None = field(default=None, repr=False)
    # Against the computer: it plays ``computer.side``, the human the other side at the screen (no hand-off).
    # ``computer_notes`` holds its reasons for the actions the human may see, by the log entry they follow.
    computer: Computer | None = None
    computer_notes: dict[int, str] = field(default_factory=dict)
    computer_reasons: list[str] = field(default_factory=list)      # every decision's reason, shown after the battle
    computer_avoid: tuple[int, frozenset[str]] = (-1, frozenset())   # actions of its refused at this record length
    # Reopened from a save in clear after it had decided: its reasons until then are gone, as such a save never
    # holds them (the opponent may read it); a sealed record keeps them (``RecordEntry.why``).
    computer_reopened: bool = False
    # Its decision waiting to be played, with its reason's log line: kept in the record entry the action makes.
    computer_deciding: tuple[Action, str] | None = None
    # Actions taken back, newest last, each with its dice and the record's length after the take-back: redo plays
    # one again only while nothing else was played since (``redo_action``).
    taken_back: list[tuple[Action, list[float], int]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        commit_dice(self.game, self.dice)         # a new battle: its dice commitments before set-up rolls a die
        self._opened_at = len(self.game.record)
        side = self.to_act()
        if self.computer is None:
            # A battle against the computer, reopened from any save (Resume, Load, the autosave): it plays on.
            self.computer = seated_computer(self.game)
            # Its reasons come back from a sealed record; one kept in clear never held them.
            self.computer_reasons = [e.why for e in self.game.record if e.why]
            self.computer_reopened = (self.computer is not None and bool(self.game.record)
                                      and self.game.keys is None)
        if self.computer is not None:
            seat_computer(self.game, self.computer)
            keys = self.game.keys
            if keys is not None and not keys.has(self.computer.side):
                # Sealed for its players: the computer's side under a key of its own, kept outside the saves.
                keys.pins[self.computer.side] = computer_pin(keys.battle)
            self.hotseat = False
            self.viewer = other(self.computer.side)
        elif side is not None:
            self.viewer = side
        if self.campaign is None and self.game.campaign:
            # A campaign battle resumed from any save (the menu's Resume, an autosave after a crash) still records
            # its result in its campaign when it ends, as one started from the campaign screen does.
            self.campaign = Path(self.game.campaign)

    def seal_with(self, pins: dict[str, str]) -> None:
        """From now on every file of this battle is sealed for its players (``game/records/sealing.py``): each side's
        secrets under its own PIN; the computer's side, if it plays one, under a key of its own. A PIN is kept in
        memory only."""
        keys = keyring(pins)
        if self.computer is not None and not keys.has(self.computer.side):
            keys.pins[self.computer.side] = computer_pin(keys.battle)
        if self.computer is not None:
            # Against the computer its secrets are sealed even when its opponent sets no PIN: that side's key is
            # then kept by the program too (the battle resumes without asking).
            human = other(self.computer.side)
            if not keys.has(human):
                keys.pins[human] = kept_pin(keys.battle, human)
        self.game.keys = keys
        self.autosaver = None                 # the next autosave is a new snapshot, sealed

    @property
    def sealed(self) -> bool:
        return self.game.keys is not None

    def _mark_campaign(self) -> None:
        """Every save and autosave names the campaign the battle belongs to."""
        self.game.campaign = os.path.abspath(self.campaign) if self.campaign is not None else None

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def dice_mode(self) -> str:
        return PROGRAM if self.dice is not None else BY_HAND

    # ---- who is to act, and what the screen may show -----------------------------------------------------------
    def to_act(self) -> str | None:
        """The side whose decision the battle waits for (None at the end of a round, when either may speak)."""
        return to_act(self.state)

    @property
    def over(self) -> bool:
        return battle_over(self.state)

    def objectives_pending(self) -> bool:
        """The battle has ended with the attacker in Control: it is to set each objective it Controls (p.~12)."""
        result = self.state.result
        return self.state.phase == "over" and result is not None and result.pending == "objectives"

    def needs_handoff(self) -> bool:
        """In hot-seat the screen changes hands whenever the other side is to act (never to the computer)."""
        return self._hands_off(self.to_act(), self.over)

    def _hands_off(self, side: str | None, over: bool) -> bool:
        if self.computer is not None:
            return False
        return self.hotseat and side is not None and side != self.viewer and not over

    def computer_to_act(self) -> bool:
        """The battle waits for the computer's decision (its turn, or its objectives to set)."""
        return self._computer_turn(self.to_act(), self.over)

    def _computer_turn(self, side: str | None, over: bool) -> bool:
        return self.computer is not None and not over and side == self.computer.side

    def computer_view(self) -> Data:
        """The computer's own player view, as it decides from it (never shown on the screen)."""
        return as_data(player_view(self.state, self.computer.side)) if self.computer is not None else {}

    def computer_act(self) -> tuple[Action, str] | None:
        """The computer's next action, decided from its own player view and legal actions only, and the reason the
        human may read (kept for the log when the human may see what it did); the full reason goes to
        ``computer_reasons``, shown once the battle is over."""
        if self.computer is None or not self.computer_to_act():
            return None
        side = self.computer.side
        legal = legal_actions(self.state, side)
        if not legal:
            return None
        at, avoid = self.computer_avoid
        decision = self.computer.decide(as_data(player_view(self.state, side)), legal,
                                        avoid if at == len(self.game.record) else frozenset())
        when = "set-up" if self.state.phase == "setup" else f"round {self.state.round}"
        line = f"[{when}] {decision.action.text()}: {decision.reason}"
        self.computer_reasons.append(line)
        self.computer_deciding = (decision.action, line)
        return decision.action, decision.shown()

    def computer_end_of_round(self) -> Decision | None:
        """The computer's word at the end of a round (a Withdraw, an offer to stop, or playing on), decided from its own
        view; a Withdraw's reason is kept for after the battle."""
        if self.computer is None:
            return None
        side = self.computer.side
        legal = legal_actions(self.state, side)
        if not legal:
            return None
        word = self.computer.decide(as_data(player_view(self.state, side)), legal)
        if word.action.args.get("withdraw") == side:
            line = f"[round {self.state.round}] {word.action.text()}: {word.reason}"
            self.computer_reasons.append(line)
            self.computer_deciding = (word.action, line)
        return word

    def computer_answers_withdraw(self) -> str:
        """The computer allows or pursues the human's Withdraw (p.16, A43), from its own view."""
        assert self.computer is not None
        return self.computer.answer_withdraw(as_data(player_view(self.state, self.computer.side)))

    def computer_agrees_to_stop(self) -> bool:
        """Does the computer agree to stop the battle here (its own view only)?"""
        assert self.computer is not None
        return self.computer.agree_to_stop(as_data(player_view(self.state, self.computer.side)))

    @property
    def refereed(self) -> bool:
        """A physical game the program follows (dice typed in, contents told at reveals)."""
        return self.game.refereed

    def computer_refused(self, action: Action) -> None:
        """The engine refused the computer's ``action`` (a Target whose pool fell short): its next decision here
        chooses another, instead of meeting the same refusal with the same dice again."""
        at, avoid = self.computer_avoid
        now = len(self.game.record)
        self.computer_avoid = (now, (avoid if at == now else frozenset()) | {action.text()})

    def note_computer(self, action: Action, reason: str, logged_from: int | None = None) -> None:
        """Keep the reason of an action the human saw: a revealed unit's action, the end of a turn, the objectives.
        A blip's reasons stay with the computer until the battle is over: they would hint at what it holds. The reason
        given here is the one the opponent may read (``Decision.shown``); the full one is in ``computer_reasons``.
        It follows the action's entries in the log; ``logged_from`` is the log's length before the action: the end
        of a turn writes the next turn's heading, and its reason goes before that, where the computer's turn ends."""
        if self.reason_may_show(action):
            at = logged_from if action.kind == Kind.END_TURN and logged_from is not None else len(self.state.log)
            self.computer_notes[at] = reason

    def reason_may_show(self, action: Action) -> bool:
        """Whether the human may read the computer's reason for ``action`` now: not for one of its blips (whether
        it weighed revealing one says it is real) nor for which unit it activates."""
        if action.actor and action.actor in self.state.blips and self.state.blips[action.actor].side == (
                self.computer.side if self.computer else ""):
            return False
        return action.kind not in (Kind.ACTIVATE, Kind.END_ACTIVATION)

    def hand_to(self, side: str) -> None:
        """The screen goes to ``side``'s player; never to the computer's side, whose view holds its secrets."""
        if side not in SIDES:
            raise ValueError(f"a side is A or B (got {side!r})")
        if self.computer is not None and side == self.computer.side:
            return
        self.viewer = side

    def view(self, log: bool = True) -> PlayerView:
        """What the side at the screen may see; the whole truth once the battle is over. One view serves every part
        of the screen while the battle stands still (``log=False``: without the log, which grows all battle).
        Callers read it and never change it."""
        s = self.state
        key = (self.viewer, self.over, s.phase, s.round, len(s.log))
        kept = self._views.get(log)
        if kept is not None and kept[0] is s and kept[1] == key:
            return kept[2]
        view = referee_view(s, log) if self.over else player_view(s, self.viewer, log)
        self._views[log] = (s, key, view)
        return view

    def log(self, explain: bool = True, last: int | None = None) -> list[str]:
        """The log as the side at the screen reads it (the whole truth once the battle is over); ``last``: only its
        last entries, read without writing out the whole log again."""
        if last is None or not (self.over or self.viewer in SIDES):
            return log_lines(self.view(), last, explain)
        log = self.log_for(None if self.over else self.viewer)
        return entries_lines(log.entries(max(0, len(log) - last)), explain)

    # ---- the seats' screens ----------------------------------------------------------------------------------
    @property
    def local_seat(self) -> str:
        """The seat at this window: the side at the screen (the referee of a physical game says ``referee``)."""
        return self.viewer

    def view_for(self, seat: str, log: bool = True) -> PlayerView:
        """What ``seat`` may see (``seats.py``): a side its own secrets, a spectator none, the referee of a physical
        game what the players told the program; everyone the whole truth once the battle is over."""
        seat = as_seat(seat)
        if seat == self.local_seat:
            return self.view(log)
        if self.over:
            return referee_view(self.state, log)
        if seat == SPECTATOR:
            return public_view(self.state, log)
        if seat == REFEREE:
            return self.view(log)
        return player_view(self.state, seat, log)

    def acting(self, seat: str) -> bool:
        """May ``seat`` decide now: its side is to act, a trooper of its own waits for its facing (A13), or the round
        has ended and either side may speak; the referee of a physical game enters every side's decisions."""
        return may_decide(self.state, as_seat(seat), self.game.refereed)

    def screen(self, seat: str | None = None) -> Screen:
        """Everything ``seat`` (default: the seat at this window) is told now, and nothing else (``screen.py``): the
        engine asked once (``screen_facts``)."""
        seat = as_seat(self.local_seat if seat is None else seat)
        own = seat in (self.local_seat, REFEREE)
        # The undo check is made once per state and side: it replays the record up to the last action
        # (``game/play/undo.py``), and every seat's screen is built again after each change.
        answers, length = self._answers(), len(self.game.record)
        known = {key[1]: cast(UndoCheck, check) for key, check in answers.items()
                 if isinstance(key, tuple) and key[0] == "undo" and key[2] == length}
        facts = screen_facts(self.game, seat, self.viewer, own, self._views.get(True), known)
        if own:
            self._views[True] = (self.state, facts.view_key, facts.view)
        undo = None
        if facts.undo is not None:
            answers[("undo", facts.undo_side, length)] = facts.undo
            undo = UndoOffer.of(facts.undo)
        return Screen(seat, facts.view, facts.to_act, facts.acting, facts.over, facts.legal, undo,
                      self.computer.side if self.computer is not None else None, tuple(self.messages))

    def revealed(self) -> PlayerView:
        """The whole truth, once the battle is over and the rules reveal it (the end-of-battle report); refused
        before."""
        if not self.over:
            raise InputError("report", "the whole truth is revealed once the battle is over")
        return referee_view(self.state)

    def seal_checks(self) -> dict[str, SealCheck]:
        """Both seals made at set-up against what the end of the battle reveals; refused before the end."""
        self.revealed()
        return verify_seals(self.game)

    def tampered(self) -> list[str]:
        """What the seals caught when this battle's save was loaded (an edit after the fact), one sentence each; they
        name the part changed, never its contents, so every seat may read them at any time."""
        return list(self.game.tampered)

    def sealed_documents(self) -> list[str]:
        """The documents each seal was made of, to hash by hand (the whole truth: only once the battle is over)."""
        self.revealed()
        return seal_report_lines(self.game)

    def look_back(self) -> LookBack:
        """The summary, the dice report and the replay of this battle, for the side at the screen."""
        return LookBack(self.game, None if self.over else self.viewer)

    def log_for(self, reader: str | None) -> SeatLog:
        """The battle log as ``reader`` (a side) may read it, to be read a piece at a time (``seat_log.py``); None:
        the whole truth, private notes included, once the battle is over."""
        return SeatLog(self.state, reader)

    def log_length(self) -> int:
        """How many entries the battle log holds (public: every seat's log has them all)."""
        return len(self.state.log)

    def actions_taken(self) -> int:
        """How many actions the battle's record holds (take-backs included): public, the log says as much."""
        return len(self.game.record)

    def last_round(self, side: str | None = None) -> bool:
        """The round just over is the last one ``side``'s own mission allows (A43): only its own mission is read."""
        return last_round(self.state, side or self.viewer)

    def battle_ends_this_round(self) -> str:
        """Why this end of round ends the battle whatever the players announce (one side has no troopers left, the
        pursuit round is over), or "": public, the table and the log show it."""
        return ends_whatever_is_announced(self.state)

    def end_of_round_lines(self, side: str | None = None) -> list[str]:
        """What the end-of-round dialog tells ``side``: the choices, and only its own mission's round limit."""
        return end_of_round_lines(self.state, side or self.viewer)

    def table_for(self, seat: str | None = None) -> Battlefield:
        """The table as ``seat`` sees it, as the rules read it (blips as the anonymous counters it is shown)."""
        view = self.view_for(self.local_seat if seat is None else seat, log=False)
        kept = self._tables.get(id(view))
        if kept is not None and kept[0] is view:
            return kept[1]
        bf = battlefield_from_view(view)
        self._tables = {id(view): (view, bf)}
        return bf

    def panel(self, piece: str, seat: str | None = None) -> SelectionReport:
        """The side panel's report for ``piece`` on the table ``seat`` sees: range, sight and cover, Target price and
        rifle odds to every enemy and objective, passive sensors (``rules/questions.py``)."""
        bf = self.table_for(seat)
        if piece not in bf.pieces:
            raise InputError("piece", f"no piece {piece!r} on the table")
        return selection_report(bf, bf.pieces[piece])

    # ---- what the engine would accept --------------------------------------------------------------------------
    def _answers(self) -> dict[Any, Any]:
        """The checks already made on the current state: the buttons ask the same questions several times per
        action (after it, after a selection, after a hand-off), and each costs a copy of the state."""
        if self._checked[0] is not self.state:
            self._checked = (self.state, {})
        return self._checked[1]

    def preview(self, action: Action) -> Preview:
        """The engine's resolution of ``action`` stopped at the first die: legal or not, and its figures."""
        return preview(self.state, action)

    def figures(self, action: Action) -> dict[str, Any]:
        """The engine's figures for a unit action: now, in this turn, or else as the table stands (a unit not
        being activated still shows its numbers and their working)."""
        p = self.preview(action)
        return p.figures if p.figures else preview_on_table(self.state, action).figures

    def check(self, action: Action) -> Check:
        """The engine's checks for ``action``, stopping at the first die: the same code that will resolve it."""
        answers, key = self._answers(), ("check", repr(action))
        if key not in answers:
            p = self.preview(action)
            answers[key] = Check(p.legal, p.reason, p.first_roll)
        return cast(Check, answers[key])

    def legal_actions(self) -> list[LegalAction]:
        """What the side to act may do now (``game.legal``), listed once per state however often it is asked."""
        if self._legal[0] is not self.state:
            self._legal = (self.state, legal_actions(self.state))
        return self._legal[1]

    def legal_for(self, kind: str, actor: str = "") -> list[LegalAction]:
        extra = kind == "extra"
        kind = Kind.ACTIVATE if extra else kind
        return [a for a in self.legal_actions() if a.kind == kind and a.actor == actor
                and (kind != Kind.ACTIVATE or bool(a.args.get("extra")) == extra)]

    def offers(self, kind: str, actor: str = "") -> bool:
        """Is an action of this kind by ``actor`` among the legal actions now (what enables a button)? The engine's
        checks stop at the first target it accepts and price no Target (``legal.offers``); asked once per state."""
        answers, key = self._answers(), ("offers", kind, actor)
        if key not in answers:
            if "reading" not in answers:
                answers["reading"] = reading(self.state)         # one battlefield for every button's question
            answers[key] = offers(self.state, kind, actor, answers["reading"])
        return cast(bool, answers[key])

    def can(self, kind: str, actor: str) -> Check:
        """May ``actor`` take an action of this kind now (with some target)? The legal actions say; a refusal
        quotes the engine's rule (asked once per state)."""
        answers, key = self._answers(), ("can", kind, actor)
        if key not in answers:
            answers[key] = self._can(kind, actor)
        return cast(Check, answers[key])

    def _can(self, kind: str, actor: str) -> Check:
        if self.offers(kind, actor):
            return Check(True)
        s = self.state
        if s.phase != "action" or s.turn is None:
            return Check(False, f"no turn is in progress (now: {s.phase.replace('-', ' ')}) [p.16]")
        t = s.turn
        if kind in (Kind.ACTIVATE, "extra"):
            return self.check(Action(Kind.ACTIVATE, actor, {"extra": True} if kind == "extra" else {}))
        if kind in (Kind.END_ACTIVATION, Kind.END_TURN):
            return self.check(Action(kind))
        if t.active != actor and actor not in t.queue:
            who = t.active or "no unit"
            return Check(False, f"{actor} is not being activated (now: {who}) [p.16]")
        if kind in (Kind.REVEAL, Kind.SCRAMBLE, Kind.JAMMER):
            return self.check(Action(kind, actor))
        if kind not in UNIT_ACTIONS:
            return Check(False, f"unknown action {kind!r}")
        try:
            check_unit_action(Ctx(s), Action(kind, actor))
        except Refused as r:
            return Check(False, r.reason)
        if t.actions_left <= 0:
            return Check(False, f"{actor} has no actions left [p.16]")
        return Check(False, f"no target the engine accepts for {kind} now")

    # ---- what the window asks of the battle for issue 36's questions (the scenes never read the state) ----------
    def to_place(self) -> dict[str, str]:
        """Units just revealed that their owner may still place, by the unit each must touch (A66)."""
        return dict(self.state.to_place)

    def owed_by(self, side: str) -> tuple[str, ...]:
        """``side``'s units just revealed that wait for their owner's facing or spot (A13, A66), unless the computer
        plays the side (it keeps the engine's at once): the battle waits for that player before it goes on."""
        if self.computer is not None and self.computer.side == side:
            return ()
        s = self.state
        return tuple(uid for uid in (*s.to_face, *s.to_place) if uid in s.units and s.units[uid].side == side)

    def unit_at(self, uid: str) -> tuple[float, float, float, str, str] | None:
        """A unit on the table: x, y, base, side and type (what every player sees of a revealed unit)."""
        u = self.state.units.get(uid)
        return None if u is None else (u.x, u.y, u.base, u.side, u.type)

    def revealed_spots(self, uid: str) -> list[tuple[float, float]]:
        """The engine's legal spots for a unit just revealed, touching the first unit of its square (A66)."""
        return revealed_spots(self.state, uid)

    def would_pass(self) -> bool:
        """End turn now would be a pass: the side to play has activated nothing this turn (p.16, A22)."""
        t = self.state.turn
        return t is not None and not t.acted and self.state.phase == "action"

    def passes_in_row(self) -> int:
        return self.state.passes_in_row

    def spent_activation(self) -> str | None:
        """The unit being activated when it has no action left (and no revealed unit waits to act): ending its
        activation loses nothing."""
        t = self.state.turn
        if t is None or t.active is None or t.actions_left > 0 or t.queue:
            return None
        return t.active

    def turn_player(self) -> str | None:
        t = self.state.turn
        return t.player if t is not None else None

    def moment(self) -> tuple[int, str | None]:
        """How many actions the record holds and whose turn it is: taken before an action, to tell after it
        whether that action ended its player's turn by itself."""
        return len(self.game.record), self.turn_player()

    def last_action_kind(self) -> str | None:
        return self.game.record[-1].action.kind if self.game.record else None

    @staticmethod
    def square_overfull(square: int, count: int) -> str:
        """Why ``count`` units may not share holding square ``square`` (p.~10), or ""."""
        return square_overfull(square, count)

    def blip_side(self, blip: str) -> str | None:
        """The side whose counter ``blip`` is (public: the table shows every counter's side), or None."""
        b = self.state.blips.get(blip)
        return b.side if b is not None else None

    def blip_square(self, blip: str) -> int | None:
        """The holding square ``blip`` stands for: its owner's to know (its client opens that square), or None."""
        b = self.state.blips.get(blip)
        return b.square if b is not None else None

    def blip_commitment(self, blip: str) -> str | None:
        """A counter of a side kept on its own computer: the commitment to the square it stands for (its owner's
        computer opens it with the square), or None when its square is known here."""
        b = self.state.blips.get(blip)
        return self.state.blip_commitments.get(b.side, {}).get(blip) if b is not None else None

    def committed_sides(self) -> list[str]:
        """The sides whose holding area is kept on their own computer, committed square by square (``commit.py``)."""
        return sorted(self.state.square_commitments)

    def hidden_blips(self, side: str) -> list[tuple[str, int]]:
        """A side kept on its own computer: its blips whose square it has not opened, with the square (its own)."""
        s = self.state
        if side not in s.square_commitments or (s.result is not None and s.result.level == FORFEITED):
            return []                   # not kept, or forfeited: nothing is asked of its computer any more
        return [(b.id, b.square) for b in sorted(s.blips.values(), key=lambda b: b.id)
                if b.side == side and s.holding[side].contents(b.square) is None]

    def scored_when_opened(self) -> bool:
        """Is the battle over with a side's squares or cards still to be opened by its computer before it is scored?"""
        return self.over and (any(self.hidden_blips(side) for side in self.committed_sides())
                              or bool(self.cards_to_open(every=True)))

    # ---- a side whose cards are drawn on its own computer (``kept_cards.py``) ---------------------------------
    def kept_draw(self, side: str) -> dict[str, Any] | None:
        """The public part of the kept ``side``'s card draw, with the host's parts of it (``SeededDice.host_parts``),
        while set-up waits for it to draw its cards; else None."""
        d = setup_decision(self.state)
        if (d is None or d["step"] != "cards" or d["side"] != side or self.dice is None
                or side not in self.dice.kept or side not in self.dice.commitments):
            return None
        return kept_draw(self.state, side, self.dice.host_parts(side, cards_moment(side), KEPT_PARTS))

    def opening(self, sides: Iterable[str]) -> list[str]:
        """Which of ``sides`` (kept on their own computer) are asked now to open their squares and cards: every one
        once the battle is over; while the attacker in Control is to set the objectives, the attacker alone, since its
        mission says from how many counters one is Inspected (A41), and the other side's mission stays shut until the
        choice is made."""
        if self.over:
            return sorted(sides)
        if self.objectives_pending():
            return [side for side in sorted(sides) if side == self.state.attacker]
        return []

    def cards_to_open(self, every: bool = False) -> list[str]:
        """These sides, whose cards were drawn on their own computer, are to open them now (``opening``) and have not
        yet; only those whose squares are all opened unless ``every`` (none once a side forfeited)."""
        s = self.state
        if s.result is not None and s.result.level == FORFEITED:
            return []
        return [side for side in self.opening(cards_unopened(s)) if every or not self.hidden_blips(side)]

    def scramble_squares(self, actor: str) -> list[int]:
        """The squares ``actor``'s owner may Scramble it into (empty, counter off the table: A23); the window asks the
        owner privately which one."""
        unit = self.state.units.get(actor)
        return unused_blips(self.state, unit.side) if unit is not None else []

    # ---- the battle window's screen -----------------------------------------------------------------------------
    def _seat_ask(self, ask: Ask) -> SeatAsk:
        return SeatAsk(self.viewer, asked_keys(ask), ask.selected, TAIL)

    def battle_screen(self, ask: Ask) -> BattleScreen:
        """The seat at the window's screen, with what ``ask`` wants shown: the engine asked once (``seat_facts``)."""
        return self._screen(ask, seat_facts(self.state, self._seat_ask(ask), self._facts))

    def send(self, action: Action, ask: Ask, given: list[float] | None = None) -> Attempt:
        """``attempt``, answered with the new screen when the action went through (the engine asked once for both)."""
        return self.attempt(action, given, ask)

    def send_die(self, pending: Pending, value: float, ask: Ask) -> Attempt:
        return self.answer(pending, value, ask)

    def _screen(self, ask: Ask, facts: SeatFacts) -> BattleScreen:
        """The screen from the engine's facts, which the session keeps for its own questions on the same state (its
        view, its table, the buttons' offers)."""
        s = self.state
        self._facts = facts
        self._views[False] = (s, (self.viewer, facts.over, s.phase, s.round, len(s.log)), facts.view)
        self._tables = {id(facts.view): (facts.view, facts.seen.table)}
        answers = self._answers()
        for (kind, actor), offered in facts.offered.items():
            answers[("offers", kind, actor)] = offered
        if facts.reading is not None:
            answers.setdefault("reading", facts.reading)
        log = self.log_for(None if facts.over else self.viewer)
        start = facts.log_start
        tail = LogTail(len(s.log), start, facts.log_entries, tuple(s.log[start:]))
        return shown(self, ask, facts, log, tail, needs_handoff=self._hands_off(facts.to_act, facts.over),
                     computer_to_act=self._computer_turn(facts.to_act, facts.over))

    # ---- acting --------------------------------------------------------------------------------------------
    def attempt(self, action: Action, given: list[float] | None = None, ask: Ask | None = None) -> Attempt:
        """Resolve ``action`` with the engine. Legal: recorded and autosaved (``ask``: the window's new screen with
        it). Refused: nothing changes. With dice typed in by hand, a roll not given yet comes back as ``Pending``."""
        given = list(given or [])
        try:
            played = play_action(self.game, action, self.dice, self.draws, given, self._computer_why(action),
                                 self._seat_ask(ask) if ask is not None else None, keep=self._keeper())
        except UnknownContents as e:
            # A reveal of a square this program was never told (its owner keeps it): nothing recorded; the owner
            # opens the square, then the action is tried again.
            return Attempt(needs=NeedsContents(e.blip_id, self.state.blips[e.blip_id].side, action, given))
        except SharesMissing as e:
            # A public die this computer cannot make alone: nothing recorded; the kept side's computer sends its
            # shares of this moment, then the action is tried again (the same moment: the same dice).
            return Attempt(shares=NeedsShares(e.side, e.moment, e.start, action, given))
        return self._played(played, action, given, ask)

    def answer(self, pending: Pending, value: float, ask: Ask | None = None) -> Attempt:
        """The players' die for ``pending.request``: the engine's resolution goes on from the roll it stopped at."""
        value = check_face(value, pending.request)
        given = pending.given + [value]
        resolving = pending.resolving
        source = resolving.recorder.source if resolving is not None else None
        if (resolving is None or resolving.state is not self.state or resolving.request is not pending.request
                or not isinstance(source, HandDice)):
            # Not the resolution this die was asked for (the battle moved on, or the die was answered already).
            return self.attempt(pending.action, given, ask)
        source.given.append(value)
        # The card draws go on from where they stood when the die was asked for, as a new try of the action would.
        self.draws.moment, self.draws.counts = pending.draws_at[0], dict(pending.draws_at[1])
        try:
            played = go_on(self.game, resolving, pending.action, self.dice, self.draws,
                           self._computer_why(pending.action), self._seat_ask(ask) if ask is not None else None,
                           self._keeper())
        except UnknownContents:
            # Refereeing: a reveal needs a blip's contents first; the action is tried again once its owner says.
            return self.attempt(pending.action, given, ask)
        return self._played(played, pending.action, given, ask)

    def _played(self, played: Played, action: Action, given: list[float], ask: Ask | None = None) -> Attempt:
        """What the engine did with ``action``: stopped at a die (``Pending``), refused, or recorded in the battle,
        which is then autosaved (and its result recorded in its campaign if it ended)."""
        outcome = played.outcome
        if outcome is None:
            assert played.request is not None
            return Attempt(pending=Pending(action, played.request, given, played.resolving, played.draws_at))
        attempt = Attempt(outcome=outcome)
        if outcome.legal:
            if self._computer_why(action):
                self.computer_deciding = None       # its decision is played: its reason is in the record entry
            if played.kept:
                self._unsaved(played.unsaved)
            else:
                self._autosave()
            if self.campaign is not None and not self.campaign_recorded and self.over:
                self._record_in_campaign()
            if ask is not None and played.facts is not None:
                attempt.screen = self._screen(ask, played.facts)
        return attempt

    def attempt_scripted(self, action: Action, given: ScriptedDice) -> Attempt:
        """``action`` with exactly the dice and bearings ``given`` (``GivenDice``; what it used is counted there),
        keyed as ``attempt`` keys it: a die not given comes back as ``Pending``, never rolled."""
        draws = self.dice if self.dice is not None else self.draws
        played = play_action(self.game, action, self.dice, self.draws, [], self._computer_why(action),
                             source=GivenDice(given, draws), keep=self._keeper())
        return self._played(played, action, [])

    def _computer_why(self, action: Action) -> str:
        """The reason's log line when ``action`` is the computer's decision being played, kept in its entry."""
        deciding = self.computer_deciding
        if deciding is None or deciding[0] != action:
            return ""          # another action first (a Target's sensor pool): the decision's own comes later
        return deciding[1]

    def roll_pool(self, actor: str, dice: int, given: list[float] | None = None) -> Attempt:
        """Roll a Target action's sensor dice before the counters are assigned, as players do at the table.

        The pool is an action of its own (``game/play/pool.py``), recorded and autosaved the moment it is rolled: quitting
        and resuming goes on with the same pool, and the Target that places the counters spends exactly its dice.
        """
        return self.attempt(Action(Kind.SENSOR_POOL, actor, {"dice": int(dice)}), given)

    def pool(self) -> Data | None:
        """The sensor pool waiting for its Target counters (public: rolled on the table), or None."""
        return self.state.pool

    # ---- a side whose dice contribution is kept on its own computer (``dice.py``) --------------------------------
    def keep_dice(self, side: str) -> bool:
        """A battle not begun, hosted with ``side`` kept on its own computer: the contribution drawn here for it is
        forgotten, and its computer sends its own commitment before the first public die. True if done."""
        if self.dice is None or self.game.record or not self.dice.keep(side):
            return False
        for state in (self.game.initial, self.game.state):
            state.dice_commitments.pop(side, None)
        self.autosaver = None                 # the battle's first state changed: the next autosave is a new snapshot
        return True

    def kept_dice(self) -> tuple[str, ...]:
        return self.dice.kept if self.dice is not None else ()

    def awaits_dice_commitment(self, side: str) -> bool:
        return self.dice is not None and self.dice.awaits_commitment(side)

    def dice_commitment(self, side: str) -> str | None:
        return self.dice.commitments.get(side) if self.dice is not None else None

    def commit_kept_dice(self, side: str, committed: str) -> None:
        """The kept ``side``'s commitment to its dice contribution, sent by its computer before any public die (the
        dice refuse a public number until it is here): written into the battle's first state, so the seals cover it."""
        if not self.awaits_dice_commitment(side):
            raise InputError("commitment", f"side {side}'s dice commitment is not asked for now (it is sent once, "
                                           f"before the first public die)")
        if not is_digest(committed):
            raise InputError("commitment", "expected a SHA-256 as 64 lowercase hex digits")
        assert self.dice is not None
        self.dice.commit_kept(side, committed)
        for state in (self.game.initial, self.game.state):
            state.dice_commitments[side] = committed
        self.autosaver = None
        self._autosave()

    def add_shares(self, side: str, moment: str, start: int, shares: list[object]) -> None:
        """The kept ``side``'s shares of ``moment`` from number ``start`` on, as its computer sent them."""
        if self.dice is None or side not in self.dice.kept:
            raise InputError("shares", f"side {side}'s dice are not kept on its own computer")
        bad = [i for i, share in enumerate(shares) if not is_share(share)]
        if bad or not shares:
            raise InputError("shares", f"expected shares of {SHARE_HEX} lowercase hex digits each (got {len(shares)}, "
                                       f"{len(bad)} unreadable)")
        try:
            self.dice.add_shares(side, moment, start, [str(x) for x in shares])
        except ValueError as e:
            raise InputError("from", str(e)) from None

    def recorded_shares(self, side: str) -> list[tuple[int, str, list[str]]]:
        """(record index, moment, shares) of every entry holding ``side``'s shares: the moment each was resolved at
        (its place among the actions, take-backs and openings not counted, as ``undo.moment_index`` counts it, and
        the action)."""
        out, place = [], 0
        for i, entry in enumerate(self.game.record):
            if entry.action.kind in NOT_PLACES:
                continue
            place += 1
            if entry.shares.get(side):
                out.append((i, f"action {place}|{canonical_json(entry.action.to_data())}", entry.shares[side]))
        return out

    def dice_opened(self, side: str) -> bool:
        return any(e.action.kind == Kind.DICE_OPENED and e.action.actor == side for e in self.game.record)

    def dice_to_open(self) -> list[str]:
        """The battle is over and these kept sides have not opened their dice contribution yet (none once a side
        forfeited: nothing more is asked of its computer)."""
        s = self.state
        if not self.over or self.dice is None or (s.result is not None and s.result.level == FORFEITED):
            return []
        return [side for side in self.dice.kept if side in self.dice.commitments and not self.dice_opened(side)]

    def open_kept_dice(self, side: str, value: str, salt: str) -> Attempt:
        """The kept ``side`` opens its dice contribution at the end: every share it sent is checked against it here
        and the opening recorded (the engine checks the commitment and records any breach)."""
        false = false_shares(side, value, self.recorded_shares(side)) if is_digest(value) else []
        args: dict[str, Any] = {"value": value, "salt": salt}
        if false:
            args["false_shares"] = ",".join(str(i + 1) for i in false)
        return self.attempt(Action(Kind.DICE_OPENED, side, args))

    # ---- undo and saves ----------------------------------------------------------------------------------------
    def undo_check(self) -> UndoCheck:
        """May the last action be taken back, and does the other player have to agree? The side at the screen takes
        back its own action; just after a hand-off, the player now at the screen may give the other side back the
        turn it ended (it is their consent that is asked)."""
        own = check_undo(self.game, self.viewer)
        if not (own.allowed or self.game.refereed):
            theirs = check_undo(self.game, other(self.viewer))
            own = theirs if theirs.allowed and theirs.needs_consent else own
        if own.allowed and own.needs_consent and self.computer is not None and \
                self.computer.side == other(own.side):
            # The computer answers for its own side, never the player who asks: it does not agree to take back an
            # action whose outcome is seen (a roll, a reveal, a turn passed), which would let the player choose
            # another action knowing it.
            return UndoCheck(False, f"{own.what!r} {own.why_consent}: the computer (side {self.computer.side}) does "
                                    f"not agree to take back an action whose outcome is seen [{TAKE_BACK_RULE}]",
                             own.what, True, own.why_consent, own.side)
        return own

    def undo(self, consent: bool = False) -> str:
        """Take back the viewer's own last action of this turn (``undo.py``); ``consent``: the other player agreed on
        the hand-off screen. Refused with the rule, nothing changed."""
        if self.campaign_recorded:
            raise InputError("undo", f"the battle's result is recorded in the campaign {self.campaign}; it can no "
                                     f"longer be taken back")
        record = self.game.record
        last, before = (record[-1] if record else None), len(record)
        check = self.undo_check()
        if not check.allowed and check.needs_consent:
            raise InputError("undo", check.reason)          # the computer's word: no consent to give for it
        done = take_back(self.game, check.side or self.viewer, consent)
        if not done.allowed:
            raise InputError("undo", done.reason)
        if self.taken_back and self.taken_back[-1][2] != before:
            self.taken_back.clear()         # something was played since the last take-back: a new chain
        if last is not None:
            self.taken_back.append((last.action, [r.value for r in last.rolls], len(self.game.record)))
        self._autosave()
        return done.what

    def redo_action(self) -> tuple[Action, list[float]]:
        """The action last taken back and its dice, to be played again as any action (the engine checks it anew);
        refused when nothing was taken back since the last action played."""
        if not self.taken_back or self.taken_back[-1][2] != len(self.game.record):
            self.taken_back.clear()
            raise InputError("redo", "nothing to redo: no action was taken back since the last one played")
        action, faces, _length = self.taken_back.pop()
        return action, faces

    def save(self, path: Path | str | None = None) -> Path:
        """Write the battle atomically; a file that is not a save of this battle is never overwritten."""
        target = Path(path) if path is not None else self.save_path
        if target is None:
            raise InputError("save", "no file name given")
        self._mark_campaign()
        written = save_game(self.game, target, self.dice)
        self.save_path = written
        return written

    def save_campaign_battle(self, at_hand_off: bool = False) -> None:
        """A campaign battle keeps its own save beside the campaign file current, so it can be continued from the
        campaign screen: at every hand-off (``at_hand_off``; the actions within a turn are in the autosave's
        journal) and whenever the players leave the battle."""
        s = self.state
        turn = (s.round, s.phase, s.turn.player if s.turn is not None else None)
        if self.campaign is None or self.save_path is None or self.over:
            return
        if at_hand_off and turn == self._campaign_saved_at:
            return
        try:
            self.save()
            self._campaign_saved_at = turn
        except (InputError, OSError) as e:
            why = e.message() if isinstance(e, InputError) else f"{e.strerror or e}"
            self.messages.append(f"the campaign battle's save failed (the battle goes on): {why}")

    def _record_in_campaign(self) -> None:
        """The battle is over: save it beside the campaign file and record its result there (the same function as
        ``campaign battle FILE --save SAVE``)."""
        # Lazy: the campaign file's models load when a campaign battle ends, not with every battle.
        from ..game.campaigns.campaign_battle import computer_buys_upgrades, played_streak, record_battle, result_save_path

        if self.campaign is None:
            return
        try:
            if self.save_path is None or not self.campaign.is_file():
                # Resumed from the autosave: the save goes beside the campaign; the campaign gone (its folder may
                # be gone too): to the saves folder, to be recorded once the file is back.
                self.save_path = result_save_path(self.campaign)
            save = self.save()
        except InputError as e:
            self.messages.append(f"the battle could not be saved for the campaign {self.campaign}: {e.message()}; "
                                 "it is kept in the autosave")
            return
        if not self.campaign.is_file():
            self.messages.append(
                f"the campaign file {self.campaign} is not there (moved or deleted?): the result is not recorded. "
                f"The battle is saved as {save}; when the campaign file is back, record it with: seven-seconds "
                f"campaign battle CAMPAIGN-FILE --save {save}")
            return
        try:
            c, st = record_battle(self.campaign, self.state, save, setup_streak=played_streak(self.game))
        except InputError as e:
            self.messages.append(f"the result could not be recorded in the campaign: {e.message()}")
            return
        n = len(c.battles)
        lines = [f"recorded in the campaign {c.name} ({self.campaign.name}) as battle {n}; the battle is saved "
                 f"beside it as {save.name}"]
        lines += [line for line in st.explain if line.startswith(f"battle {n}:") or line.startswith("the campaign")]
        if self.computer is not None:
            # It spends its tech points as a player would after the battle (p.31, A45), each with its reason.
            try:
                bought = computer_buys_upgrades(self.campaign, self.computer.side)
            except InputError as e:
                lines.append(f"the computer's upgrades could not be recorded: {e.message()}")
            else:
                side = self.computer.side
                lines += [f"the computer (side {side}) buys {b.reason}" for b in bought]
                if not bought and not st.winner:
                    lines.append(f"the computer (side {side}) banks its {st.sides[side].tech_points} tech points: no "
                                 "upgrade it may buy with them [p.31, A45]")
        self.campaign_recorded = lines

    def _keeper(self) -> Keep | None:
        """The autosave, written within the engine's own visit right after it records an action, once its file is
        begun and when no campaign save comes first (``_autosave`` writes those in their order)."""
        if (not self.autosaving or self.autosaver is None or self.campaign is not None
                or self.game.campaign is not None):
            return None
        return self.autosaver.save

    def _autosave(self) -> None:
        self._mark_campaign()
        self.save_campaign_battle(at_hand_off=True)
        if not self.autosaving:
            return
        try:
            if self.autosaver is None:
                self.autosaver = Autosaver(writer=self._writer, opened_at=self._opened_at)
            self.autosaver.save(self.game, self.dice)
        except (InputError, OSError) as e:
            self._unsaved(e)

    def _unsaved(self, e: InputError | OSError | None) -> None:
        if e is not None:
            why = e.message() if isinstance(e, InputError) else f"{e.filename or ''} {e.strerror or e}".strip()
            if isinstance(e, PlayedElsewhere):      # saving it by hand would not help: the other window's stands
                self.messages.append(f"not autosaved: {why}")
            else:
                self.messages.append(f"autosave failed (the battle goes on; save it by hand): {why}")
