"""Refereeing a physical game: the battle the players fight on a real table, followed by the program (no pygame).

The players keep their miniatures, dice, holding areas and missions on the table; the program tracks what the
table holds (rounds, Initiative, turns and activations, Target counters, Damaged and Stunned, objectives, smoke and
craters) and answers "what do I roll, and what happens?" with the engine's numbers. Every die is typed in from the
players' own dice. The program keeps no secret it was not told: a blip is an anonymous counter until it is
revealed, and then its owner enters what it holds (``contents``, see ``game/play/corrections.py``). When the table
drifts, a correction follows it and is logged.

It is a ``BattleSession`` (the same engine, previews, undo and saves as hot-seat) with no hand-off: the screen
shows the side to act, as both players sit at the same table. The seam to the engine is ``attempt`` and ``check``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import random

from ..game.battle.action_kinds import Kind
from ..game.battle.intents import Action
from ..game.players.computer import Computer
from ..game.players.computer.deal import deal_holding
from ..game.players.computer.table_words import instruction, instruction_spots
from ..game.battle.cards import playing_deck
from ..game.players.seated import seat_computer
from ..game.play.effects import UnknownContents
from ..game.play.engine import Game, begin_battle
from ..game.battle.state import SIDES, Data, other, state_from_scenario
from ..rules.catalogue import unit_type_names
from ..rules.errors import InputError
from ..rules.stats import RATINGS
from ..rules.factions import faction_files
from ..rules.scenario import Scenario, UnitContents
from .battle_screen import Ask
from .seats import REFEREE
from .session import Attempt, BattleSession, Check, NeedsContents as NeedsContents, Pending

REFEREE_MODE = "table"          # the state's mode of a battle started from a table, not from the set-up


@dataclass
class RefereeSession(BattleSession):
    hotseat: bool = False

    @classmethod
    def from_scenario(cls, scenario: Scenario, first: str | None = None, save_path: Path | None = None,
                      computer: Computer | None = None) -> "RefereeSession":
        """Round 1 on the table the scenario holds; ``first`` holds the Initiative (default: the attacker, or A).
        With ``computer``, the computer runs that side of the physical game (``seat``)."""
        if first is not None and first not in SIDES:
            raise InputError("initiative", f"expected side A or B (got {first!r})")
        game = Game(begin_battle(state_from_scenario(scenario), first), refereed=True)
        session = cls(game, None, save_path=save_path)
        if computer is not None:
            session.seat(computer)
        return session

    def seat(self, computer: Computer) -> None:
        """The computer runs ``computer.side``: it decides from its own view and tells the human at the table what to
        do with its miniatures (``game/players/computer/table_words.py``). Its blips' contents the program was never told
        are dealt to it now, as its secret: the screen stays with the human, who is its opponent."""
        self.computer = computer
        seat_computer(self.game, computer)
        self.hotseat = False
        self.viewer = other(computer.side)
        rng = random.Random(f"{computer.seed}|holding|{computer.side}")
        for action in deal_holding(self.state, computer.side, self.faction_of(computer.side), rng):
            attempt = super().attempt(action)
            if attempt.outcome is None or not attempt.outcome.legal:
                raise InputError(action.actor, attempt.outcome.reason if attempt.outcome else "not dealt")
        self.follow()

    @property
    def local_seat(self) -> str:
        """Both players sit at the physical table: the window is the referee's seat."""
        return REFEREE

    def faction_of(self, side: str) -> str:
        """The side's faction as the table shows it: its units', else its known blips' contents, else the first."""
        s = self.state
        for u in sorted(s.units.values(), key=lambda u: u.id):
            if u.side == side:
                return u.faction
        for square in sorted(s.holding[side].squares):
            for c in s.holding[side].contents(square) or []:
                return c.faction
        known = sorted(faction_files())
        return known[0] if known else ""

    def follow(self) -> None:
        """The screen turns to whoever is to act (both sides watch the same table); against the computer it stays
        with the human, who is its opponent and may not see its blips."""
        if self.computer is not None:
            self.viewer = other(self.computer.side)
            return
        side = self.to_act()
        if side is not None:
            self.viewer = side

    def attempt(self, action: Action, given: list[float] | None = None, ask: Ask | None = None) -> Attempt:
        attempt = super().attempt(action, given)
        if attempt.needs is not None:
            return RefereeAttempt(needs=attempt.needs)          # the owner says first: the screen stays
        self.follow()
        return self._turned_to(attempt, ask)

    def answer(self, pending: Pending, value: float, ask: Ask | None = None) -> Attempt:
        attempt = super().answer(pending, value)
        self.follow()
        return self._turned_to(attempt, ask)

    def _turned_to(self, attempt: Attempt, ask: Ask | None) -> Attempt:
        """The new screen is of whoever the table turned to after the action (``follow``), asked once it has."""
        if ask is not None and attempt.legal:
            attempt.screen = self.battle_screen(ask)
        return attempt

    def check(self, action: Action) -> Check:
        try:
            return super().check(action)
        except UnknownContents as e:          # the engine would reveal it: its owner says what it holds first
            return Check(True, f"side {self.state.blips[e.blip_id].side} says what {e.blip_id} holds first")

    def undo(self, consent: bool = False) -> str:
        text = super().undo(consent)
        self.follow()
        return text

    def computer_words(self, action: Action) -> str:
        """What the human does at the table for the computer's ``action``, in plain words made from the computer's
        own view (``table_words.py``): they name nothing the human may not see."""
        return instruction(self.computer_view(), action)

    def computer_spots(self, action: Action) -> list[tuple[float, float]]:
        """The table points its instruction for ``action`` names (where the window keeps the instruction off)."""
        return instruction_spots(self.computer_view(), action)

    def mission_entered(self, side: str) -> bool:
        """Has ``side`` entered its mission card (public: the log says so; which card stays its secret)."""
        return bool(self.state.missions.get(side))

    def contents_known(self, blip: str) -> bool:
        b = self.state.blips.get(blip)
        return b is None or self.state.holding[b.side].contents(b.square) is not None

    def tell(self, blip: str, contents: list[Data]) -> Attempt:
        """The owner's word on what ``blip`` holds, recorded before it is revealed."""
        return self.attempt(Action(Kind.CONTENTS, blip, {"contents": contents}))

    def correct(self, piece: str, **changes: Any) -> Attempt:
        """The table drifted: set a piece's position, facing or counters as it now stands."""
        return self.attempt(Action(Kind.CORRECT, piece, dict(changes)))

    def remove(self, piece: str) -> Attempt:
        return self.attempt(Action(Kind.CORRECT, piece, {"remove": True}))

    def add_unit(self, ident: str, **entry: Any) -> Attempt:
        return self.attempt(Action(Kind.CORRECT, ident, {"add": dict(entry)}))

    def enter_mission(self, side: str, mission: str, troop: str | None = None, drone: str | None = None) -> Attempt:
        """A player chose to enter their mission card (and troop and drone cards) so the program scores the battle."""
        args = {"mission": mission} | {k: v for k, v in (("troop", troop), ("drone", drone)) if v}
        return self.attempt(Action(Kind.MISSION, side, args))

    # ---- a side's own entries, on its own device (the phone's hand, ``net/desk.py``) ------------------------------
    def mission_open(self, side: str) -> bool:
        """May ``side`` enter its mission card now: not entered yet, and the battle not over (unless it ended with
        that mission kept on the mat, which is scored once entered)."""
        s = self.state
        if self.mission_entered(side):
            return False
        return s.phase != "over" or (s.result is not None and side in (s.result.missions_unknown or ()))

    def mission_choices(self, side: str) -> list[tuple[str, str]]:
        """The deck's mission cards for ``side``'s role on this table (all of them if none fits), as id and title:
        what the window's missions dialog offers. Raises ``InputError`` when the deck cannot be read."""
        attacker = self.state.attacker
        role = "chance-encounter" if attacker is None else ("offence" if side == attacker else "defence")
        cards = playing_deck().mission_cards
        fitting = [m for m in cards if m.kind == role] or list(cards)
        return [(m.id, m.title) for m in fitting]

    def card_choices(self, kind: str) -> list[tuple[str, str]]:
        """The deck's troop or drone cards (``kind``), as id and title, for a mission entered with them."""
        deck = playing_deck()
        return [(c.id, c.title) for c in (deck.troop_cards if kind == "troop" else deck.drone_cards)]

    def correct_terrain(self, piece: str, **changes: Any) -> Attempt:
        """A terrain piece drifted: ``move=(dx, dy)``, ``turn=degrees``, ``polygon=...`` or ``circle=...``."""
        args = {k: list(v) if k == "move" else v for k, v in changes.items()}
        return self.attempt(Action(Kind.CORRECT, piece, args))

    def add_terrain(self, kind: str, polygon: list[Any] | None = None, circle: Data | None = None,
                    ident: str | None = None) -> Attempt:
        """Smoke laid, a crater blown, a piece the program never saw: added to the table under a new id."""
        shape: Data = {"polygon": [list(p) for p in polygon]} if polygon is not None else {"circle": dict(circle or {})}
        return self.attempt(Action(Kind.CORRECT, ident or self.state.new_id(kind), {"add": {"type": kind, **shape}}))


@dataclass
class RefereeAttempt(Attempt):
    """An attempt at the physical table (its ``needs``: the owner's word on a blip first)."""


# ---- typed words -> actions ---------------------------------------------------------------------------------------


def parse_contents(text: str, side: str, faction: str) -> list[Data]:
    """``veteran tactical, rookie basic-drone`` (or ``decoy``) -> the units a blip holds, for ``tell``.

    Each unit is ``[rating] type [faction]``; a missing rating is veteran, a missing faction the side's own.
    """

    words = text.strip().lower()
    if words in ("", "decoy", "nothing", "none", "empty"):
        return []
    types = set(unit_type_names())
    out = []
    for part in words.split(","):
        tokens = part.split()
        rating = next((t for t in tokens if t in RATINGS), "veteran")
        kind = next((t for t in tokens if t in types), None)
        if kind is None:
            raise InputError("contents", f"{part.strip()!r}: expected a unit type, one of {', '.join(sorted(types))}"
                                         " (or 'decoy')")
        rest = [t for t in tokens if t not in (rating, kind)]
        entry = {"side": side, "faction": rest[0] if rest else faction, "rating": rating, "type": kind}
        UnitContents.model_validate({"id": "check", **entry})
        out.append(entry)
    if len(out) > 2:
        raise InputError("contents", f"a blip holds at most 2 units (got {len(out)}) [p.15]")
    return out


CORRECTION_WORDS = {"x": "x", "y": "y", "facing": "facing", "f": "facing", "counters": "target_counters",
                    "tc": "target_counters", "damaged": "damaged", "stunned": "stunned", "activation": "activation"}
YES = {"yes": True, "y": True, "true": True, "on": True, "1": True, "no": False, "n": False, "false": False,
       "off": False, "0": False}


def parse_correction(text: str) -> Data:
    """``x=11 y=10.5 facing=90 counters=2 damaged=yes`` (or ``remove``) -> the arguments of a correction."""
    words = text.replace(",", " ").split()
    if [w.lower() for w in words] == ["remove"]:
        return {"remove": True}
    out: Data = {}
    for w in words:
        key, eq, value = w.partition("=")
        field = CORRECTION_WORDS.get(key.lower())
        if not eq or field is None:
            raise InputError("correction", f"{w!r}: expected key=value with a key among "
                                           f"{', '.join(sorted(set(CORRECTION_WORDS)))}, or 'remove'")
        if field in ("damaged", "stunned", "activation"):
            if value.lower() not in YES:
                raise InputError("correction", f"{w!r}: expected yes or no")
            out[field] = YES[value.lower()]
        elif field == "target_counters":
            if not value.isdigit():
                raise InputError("correction", f"{w!r}: expected a whole number from 0")
            out[field] = int(value)
        else:
            try:
                out[field] = float(value)
            except ValueError:
                raise InputError("correction", f"{w!r}: expected a number") from None
    if not out:
        raise InputError("correction", "nothing to change: type key=value pairs such as x=11 facing=90, or remove")
    return out


def parse_terrain_correction(text: str) -> Data:
    """``move=2,-1 turn=30`` (or ``remove``) -> the arguments of a terrain piece's correction.

    ``move`` is how far it went, in inches across and up the table; ``turn`` is degrees counter-clockwise about its
    centre, as facings are measured.
    """
    words = text.split()
    if [w.lower() for w in words] == ["remove"]:
        return {"remove": True}
    out: Data = {}
    for w in words:
        key, eq, value = w.partition("=")
        key = key.lower()
        try:
            if eq and key == "move":
                dx, comma, dy = value.partition(",")
                if not comma:
                    raise ValueError
                out["move"] = [float(dx), float(dy)]
            elif eq and key == "turn":
                out["turn"] = float(value.rstrip("°"))
            else:
                raise InputError("correction", f"{w!r}: expected move=DX,DY (inches), turn=DEGREES, or 'remove'")
        except ValueError:
            raise InputError("correction", f"{w!r}: expected numbers, as move=2,-1 or turn=30") from None
    if not out:
        raise InputError("correction", "nothing to change: type move=DX,DY and/or turn=DEGREES, or remove")
    return out
