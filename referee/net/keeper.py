"""A side's secrets kept on its own computer, for a battle hosted on another (``seven-seconds host TABLE --kept-by B``).

The joining client (``seven-seconds join``, the window's join) fills its side's holding area here, with the rule the
host's engine uses (``game/battle/commit.py``), and sends the host one commitment a square, never what a square holds. It
chooses here too which square each blip counter will stand for, in the order they are placed, and sends one
commitment a counter: the host gives each counter placed the next one and never learns its square before its reveal.
It keeps every square's units and salt, and every counter's square and salt, in memory and in a file of its own,
sealed with the side's key (``game/records/sealing.py``: the side's PIN, or a key the program keeps for it), so quitting and
joining again goes on. When a reveal needs a square the host asks this side's screen (``open_square``: the counter's
commitment) and the keeper answers at once, with no one typing: the counter's square and salt, the square's units and
salt, which the host checks against the commitments.

The keeper keeps the side's dice contribution too (``game/battle/dice.py``): drawn here before the first public die,
sent to the host only as its commitment. When a public die waits for it, the host asks for the side's shares of the
moment being resolved (``dice_shares_asked``) and the keeper answers at once; it answers one action a place in the
battle (the moment names the place and the action): a host asking the shares of a second action at the same place,
with no take-back this side asked for or agreed to, could look at the dice of both and record the one it liked, so
it is refused. At the end it opens the contribution (``open_dice``) and the host checks every share it was sent.

The keeper draws the side's cards too (``game/battle/kept_cards.py``): the host sends its parts of the draw
(``draw_cards_asked``), the keeper makes each number its part exclusive-or the side's own share (from the contribution
committed before the first die), draws the mission, troop and drone cards with the engine's rule, makes a streak's
choice and a Chance Encounter's purchase here, issues the force and sends only the commitment to the cards. It keeps
the cards, their salt and the units they issue in its sealed file, fills the holding area from those units, and at
the end opens the cards with its contribution (``open_cards``) for the host to check.

The keeper also shows its own side which square each of its counters stands for and what it holds, and its own cards
and force: the host's screen has a stand-in square, unknown contents and no cards of this side. And it says to its own
side what the host says to a side whose mission it holds: when an objective's Target counters (public, on every
screen) reach the number the side's own mission counts it Inspected from, the word ``MissionCard.inspection_note``
makes goes into this side's log here (A41); nothing of it goes to the host.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any, Final

from .. import paths
from ..game.battle.action_kinds import Kind
from ..game.battle.dice import MAIL_SHARE_BATCH, Contribution, dice_share
from ..game.battle.cards import MissionCard, playing_deck
from ..game.battle.commit import (SQUARES, arrangement_problems, battle_id, blip_commitment, cards_commitment,
                                  drawn_groups, is_digest, new_square_salt, square_commitment)
from ..game.battle.kept_cards import draw_problems, hand_of, offer_of
from .desk import card_words
from .messages import MAX_MOMENT, MAX_REASON
from ..game.records.sealing import Keyring, check_pin, seal, unseal
from ..rules.errors import InputError
from ..service.keys import kept_pin
from ..storage import atomic_write_text

KEPT_FORMAT: Final = "seven-seconds-kept-side/1"
PART: Final = "kept"                    # the sealed part's name, in its associated data


def _place_number(place: str) -> int:
    """The number of a moment's place (``action 12``), or -1."""
    number = place.rpartition(" ")[2]
    return int(number) if number.isdigit() else -1


# The most public numbers one action draws, by far (a missile's deviation and blast, a Target's pool): a host asking
# for shares past it asks for something no action needs.
MOST_NUMBERS: Final = 10_000


def _whole(value: object, least: int, most: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def draw_contribution(side: str) -> Contribution:
    """A side's dice contribution drawn on its own computer (256 bits from the operating system, and a salt)."""
    return Contribution.drawn(side)


def kept_folder() -> Path:
    """Where a joining computer keeps its sides' secrets: outside the saves folder, for its owner alone."""
    return paths.kept_dir()


class Keeper:
    """One side's holding area on its own computer (see the module note): ``squares`` maps a square to its units
    (each ``{id, side, faction, rating, type}``; none: a decoy) and its salt."""

    def __init__(self, side: str, battle: str, *, pin: str | None = None, folder: Path | None = None) -> None:
        if not is_digest(battle):
            raise InputError("battle", "a side's secrets are kept for a battle whose dice are keyed (its id is the "
                                       "commitment to its seed, 64 hex digits)")
        self.side = side
        self.battle = battle
        self.squares: dict[int, tuple[list[dict[str, Any]], str]] = {}
        # slot (the order of placing, 1-16) -> the square that counter stands for and the salt of its commitment
        self.blips: dict[int, tuple[int, str]] = {}
        # Each counter's commitment, worked out once: the host names a counter by it at every reveal and blast, and
        # every screen of the battle is looked through for them.
        self._blip_commitments: dict[tuple[int, str], str] = {}
        # The side's dice contribution and its commitment's salt, drawn here; and the moment answered last, by its place.
        self.dice: tuple[str, str] | None = None
        self.answered: dict[str, str] = {}
        # The side's cards drawn here: mission, troop, drone, purchase, the salt of their commitment, the troop and
        # drone lines and the units they issue ({"id", "type", "rating"}).
        self.cards: dict[str, Any] | None = None
        # Its own mission's words on the objectives (A41), made here: the objectives' Target counters and the log's
        # length as last shown, and each word made with the log entry it goes with ([index, text, words]).
        self.inspection: dict[str, Any] = {"counters": None, "log": 0, "notes": []}
        self.problems: list[str] = []                   # the host's asks refused here, with the reason
        self.folder = kept_folder() if folder is None else folder
        self._keys = Keyring({side: check_pin(pin) if pin is not None else kept_pin(battle[:32], side)},
                             battle=battle[:32])
        self._read()

    # ---- the file ---------------------------------------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self.folder / f"{self.battle[:32]}-{self.side}.kept"

    def _read(self) -> None:
        """The squares kept by an earlier run of this client for this battle and side, if any."""
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as e:
            raise InputError(str(self.path), f"cannot be read ({e})") from None
        if not isinstance(doc, dict) or doc.get("format") != KEPT_FORMAT:
            raise InputError(str(self.path), f"format: expected {KEPT_FORMAT}")
        self._keys.adopt(doc, str(self.path))
        opened = unseal(self._keys, self.side, 0, doc.get("sealed"), str(self.path), "sealed")
        if "squares" not in opened:
            opened = {"squares": opened, "blips": {}}        # kept before the counters' squares were committed here
        self.squares = {int(n): (list(units), str(salt)) for n, (units, salt) in opened["squares"].items()}
        self.blips = {int(k): (int(n), str(salt)) for k, (n, salt) in opened["blips"].items()}
        dice = opened.get("dice")
        self.dice = (str(dice[0]), str(dice[1])) if dice else None
        self.answered = {str(k): str(v) for k, v in (opened.get("answered") or {}).items()}
        self.cards = dict(opened["cards"]) if opened.get("cards") else None
        if opened.get("inspection"):
            self.inspection = dict(opened["inspection"])

    def _write(self) -> None:
        kept = {"squares": {str(n): [u, s] for n, (u, s) in self.squares.items()},
                "blips": {str(k): [n, s] for k, (n, s) in self.blips.items()},
                "answered": dict(self.answered)}
        if self.dice is not None:
            kept["dice"] = list(self.dice)
        if self.cards is not None:
            kept["cards"] = dict(self.cards)
        if self.inspection["counters"] is not None:
            kept["inspection"] = dict(self.inspection)
        doc = {"format": KEPT_FORMAT, "battle": self._keys.battle, "side": self.side, "kdf": self._keys.kdf(),
               "sealed": seal(self._keys, self.side, 0, kept)}
        atomic_write_text(self.path, json.dumps(doc, sort_keys=True) + "\n", private=True)

    def stranger(self, screen: dict[str, Any]) -> str:
        """What of this side's the host holds a commitment to and this computer does not hold (its dice contribution,
        its cards, its holding area), or "": the side's secrets were kept on another computer or phone, the one that
        set the side up. Such a keeper commits nothing in the side's name (``outgoing`` refuses)."""
        view = screen.get("view") or {}
        # (A host may hold the side's dice itself, its battle begun before the side was kept: only a contribution
        # drawn here and committed to otherwise tells.)
        committed = (view.get("dice_commitments") or {}).get(self.side)
        if self.dice is not None and committed and Contribution(self.side, *self.dice).commitment != committed:
            return "its dice contribution"
        if ((view.get("card_commitments") or {}).get(self.side) or {}).get("committed") and self.cards is None:
            return "its cards"
        if (view.get("square_commitments") or {}).get(self.side) and not self.squares:
            return "its holding area"
        return ""

    # ---- the dice: a contribution kept here, shares sent for each moment asked -------------------------------------
    def dice_contribution(self) -> tuple[str, str]:
        """The side's dice contribution and its salt, drawn here (256 bits from the operating system) when first
        needed, and kept in the sealed file."""
        if self.dice is None:
            drawn = draw_contribution(self.side)
            self.dice = (drawn.value, drawn.salt)
            self._write()
        return self.dice

    def _refused_moment(self, moment: str) -> str:
        """Why the shares of ``moment`` are not sent (the host asked for those of a second action at the place it
        answered last, or of an earlier place), or ""."""
        place = moment.split("|", 1)[0]
        for last, answered in self.answered.items():
            if last == place and answered != moment:
                return (f"the host asked for the dice of a second action at {place} (after another one's, with no "
                        f"take-back this side asked for or agreed to): refused, so no one picks among dice")
            if _place_number(place) < _place_number(last):
                return (f"the host asked for the dice of {place}, before {last} whose dice it had: refused, so no one "
                        f"picks among dice")
        return ""

    def taken_back(self) -> None:
        """This side asked for a take-back or agreed to one: the place it frees may be asked for again (kept so, since
        by e-mail the action taken again comes in another turn of the file)."""
        if self.answered:
            self.answered.clear()
            self._write()

    def dice_answer(self, screen: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to the host's ask about this side's dice on its screen (the commitment before the first public
        die, the shares of a moment, the opening at the end), or None."""
        if screen.get("seat") != self.side:
            return None
        if screen.get("dice_commitment_asked"):
            value, salt = self.dice_contribution()
            return {"kind": "dice-commitment", "commitment": Contribution(self.side, value, salt).commitment}
        asked = screen.get("dice_shares_asked")
        if isinstance(asked, dict) and self.dice is not None:
            moment, start, count = str(asked.get("moment")), asked.get("from"), asked.get("count")
            refused = self._refused_moment(moment)
            if not (isinstance(start, int) and _whole(start, 0, MOST_NUMBERS)
                    and isinstance(count, int) and _whole(count, 1, MAIL_SHARE_BATCH)):
                # A host's ask the program never makes: answered with nothing, said here.
                refused = (f"the host asked for {count!r} dice shares from number {start!r}: expected at most "
                           f"{MAIL_SHARE_BATCH} from a number of 0 to {MOST_NUMBERS}; refused")
                start = count = 0
            if refused:
                if refused not in self.problems:
                    self.problems.append(refused)
                # Said to the host, so the action that waits is refused with the reason rather than waiting for
                # shares that will not come.
                return {"kind": "dice-refused", "moment": moment[:MAX_MOMENT], "reason": refused[:MAX_REASON]}
            self.problems.clear()               # an ask refused earlier is behind the battle now
            if self.answered.get(moment.split("|", 1)[0]) != moment:
                # Kept before it is sent: a client that quits and joins again answers no other action here either.
                self.answered = {moment.split("|", 1)[0]: moment}
                self._write()
            return {"kind": "dice-shares", "moment": moment, "from": start,
                    "shares": [dice_share(self.side, self.dice[0], moment, n) for n in range(start, start + count)]}
        if screen.get("open_dice") and self.dice is not None:
            return {"kind": Kind.DICE_OPENED, "value": self.dice[0], "salt": self.dice[1]}
        return None

    # ---- set-up: the cards drawn here, committed there ----------------------------------------------------------------
    def draw_cards(self, screen: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
        """The side's cards drawn here from the host's parts on its screen (``draw_cards_asked``) and its own shares;
        ``args``: the mission and troop card chosen among those drawn at a streak (else drawn here) and a Chance
        Encounter's ``purchase``. Kept, and the draw-cards action's arguments returned: the commitment to the cards
        and the draw made. Raises ``InputError`` with the reason."""
        draw = screen.get("draw_cards_asked")
        problems = draw_problems(draw)
        if problems:
            raise InputError("draw_cards_asked", "; ".join(problems))
        assert isinstance(draw, dict)
        if self.dice is None:
            raise InputError(Kind.DRAW_CARDS, "the side's dice contribution is committed before its cards are drawn")
        problem = self._draw_problem(screen.get("view") or {}, draw)
        if problem:
            raise InputError("draw_cards_asked", problem)
        offer = offer_of(draw, self.side, self.dice[0])
        chooser = secrets.SystemRandom()
        mission = args.get("mission") or chooser.choice(offer.missions)
        troop = args.get("troop") or chooser.choice(offer.troops)
        try:
            hand = hand_of(playing_deck(), self.side, offer, str(mission), str(troop), args.get("purchase"),
                           chance_encounter=draw["kind"] == "chance-encounter")
        except ValueError as e:
            raise InputError(Kind.DRAW_CARDS, str(e)) from None
        salt = new_square_salt()
        self.cards = {"mission": hand.mission, "troop": hand.troop, "drone": hand.drone, "purchase": hand.purchase,
                      "salt": salt, "troop_line": hand.troop_line, "drone_line": hand.drone_line,
                      "issued": [dict(u) for u in hand.issued],
                      "round_limit": playing_deck().mission(hand.mission).round_limit}
        self._write()
        committed = cards_commitment(self.battle, self.side, hand.mission, hand.troop, hand.drone, hand.drone_line,
                                     hand.purchase, salt)
        return {"committed": committed, "draw": draw}

    def _draw_problem(self, view: dict[str, Any], draw: dict[str, Any]) -> str:
        """Why the host's draw is not this side's to make, or "": the cards drawn from must be this computer's deck
        (a host that left cards out would choose among them), the kind of mission and the streak the battle's."""
        if not view:
            kind = str(draw["kind"])           # no screen to read the battle from: the deck is checked alone
        elif view.get("mode") == "chance-encounter":
            kind = "chance-encounter"
        else:
            kind = "offence" if view.get("attacker") == self.side else "defence"
        streak = ((view.get("setup") or {}).get("streak") or {}).get(self.side, 0)
        if view and (draw["kind"], draw["streak"]) != (kind, streak):
            return (f"the host asks for a draw of {draw['kind']} missions at streak {draw['streak']}; this battle "
                    f"gives side {self.side} {kind} missions at streak {streak}: refused")
        try:
            deck = playing_deck()
            own = ([c.id for c in deck.missions(kind)], [c.id for c in deck.troop_cards],
                   [c.id for c in deck.drone_cards])
        except InputError as e:
            return "; ".join(e.problems)
        if (draw["missions"], draw["troops"], draw["drones"]) != own:
            return ("the host draws from other cards than this computer's deck (both computers play with the same "
                    "deck): refused")
        return ""

    def cards_answer(self, screen: dict[str, Any]) -> dict[str, Any] | None:
        """The opening of the side's cards the host asks for at the end (``open_cards``), with its contribution."""
        if screen.get("seat") != self.side or not screen.get("open_cards") or self.cards is None or self.dice is None:
            return None
        c = self.cards
        answer = {"kind": Kind.CARDS_OPENED, "mission": c["mission"], "troop": c["troop"], "drone": c["drone"],
                  "salt": c["salt"], "value": self.dice[0], "dice_salt": self.dice[1]}
        if c.get("purchase") is not None:
            answer["purchase"] = dict(c["purchase"])
        return answer

    # ---- set-up: the holding area filled here, committed there --------------------------------------------------------
    def commit(self, screen: dict[str, Any], arrangement: object = None,
               order: list[int] | None = None) -> tuple[dict[str, str], dict[str, str]]:
        """The side's holding area filled from its issued units (as its screen lists them), as ``arrangement``
        ({square: [unit ids]}) or drawn here as "place for me" does, and the square each counter will stand for in
        the order placed (``order``, the 16 squares, or drawn here); kept, and one commitment a square and one a
        counter returned. Raises ``InputError`` with the rule an arrangement or an order breaks."""
        setup = screen["view"].get("setup") or {}
        issued = (self.cards or {}).get("issued") or (setup.get("issued") or {}).get(self.side) or []
        faction = (setup.get("factions") or {}).get(self.side, "")
        units = {str(u["id"]): {"id": str(u["id"]), "side": self.side, "faction": faction,
                                "rating": u["rating"], "type": u["type"]} for u in issued}
        draw = secrets.SystemRandom()
        if arrangement is None:
            free = list(range(1, SQUARES + 1))
            chosen: dict[int, list[str]] = {}
            try:
                for group in drawn_groups(list(units)):
                    chosen[free.pop(draw.randrange(len(free)))] = group
            except ValueError as e:
                raise InputError("squares", str(e)) from None
        else:
            problems = arrangement_problems(self.side, list(units), arrangement)
            if problems:
                raise InputError("squares", "; ".join(problems))
            assert isinstance(arrangement, dict)
            chosen = {int(n): [str(u) for u in ids] for n, ids in arrangement.items()}
        if order is None:
            order = list(range(1, SQUARES + 1))
            draw.shuffle(order)
        elif sorted(order) != list(range(1, SQUARES + 1)):
            raise InputError("order", f"expected each square 1 to {SQUARES} once, in the order the counters are "
                                      f"placed (got {order!r}) [A59]")
        self.squares = {n: ([units[u] for u in chosen.get(n, [])], new_square_salt()) for n in range(1, SQUARES + 1)}
        self.blips = {k: (int(n), new_square_salt()) for k, n in enumerate(order, start=1)}
        self._write()
        return ({str(n): square_commitment(self.battle, self.side, n, held, salt)
                 for n, (held, salt) in self.squares.items()},
                {str(k): blip_commitment(self.battle, self.side, n, salt) for k, (n, salt) in self.blips.items()})

    @staticmethod
    def fills(intent: dict[str, Any]) -> bool:
        """Is ``intent`` the side's holding area, which goes to the host as commitments, or a counter placed with
        the square it stands for, which goes as the commitment to it?"""
        action = intent.get("action") if intent.get("kind") == "action" else None
        return isinstance(action, dict) and (action.get("kind") in (Kind.FILL_HOLDING, Kind.SCRAMBLE,
                                                                    Kind.DRAW_CARDS, Kind.END_OF_ROUND) or (
            action.get("kind") == Kind.PLACE_BLIP and "square" in (action.get("args") or {})))

    def outgoing(self, intent: dict[str, Any], screen: dict[str, Any]) -> dict[str, Any]:
        """An intent on its way to the host: this side's holding area goes as commitments (its squares stay here),
        and a counter placed for a square chosen here names the commitment to that square (its slot) instead."""
        if not self.fills(intent):
            return intent
        missing = self.stranger(screen)
        if missing:
            raise InputError(str(intent["action"].get("kind")), f"this computer does not hold side {self.side}'s "
                             f"secrets for this battle ({missing}): they are kept where the side was set up; play "
                             f"its private decisions there")
        action = intent["action"]
        args = dict(action.get("args") or {})
        if action["kind"] == Kind.SCRAMBLE:
            return {**intent, "action": self.scramble(screen, action)}
        if action["kind"] == Kind.END_OF_ROUND:
            # Its own mission's round limit (A43), which only this computer knows: said with its word at the end of
            # the round it is reached (the host checks it when the cards are opened).
            limit = (self.cards or {}).get("round_limit")
            if limit and int(screen["view"].get("round") or 0) >= int(limit):
                return {**intent, "action": {**action, "args": {**args, "limit": self.side}}}
            return intent
        if action["kind"] == Kind.DRAW_CARDS:
            if "draw_cards_asked" not in screen:
                return intent                   # not this side's draw now: the host refuses it as it is
            return {**intent, "action": {**action, "args": self.draw_cards(screen, args)}}
        if action["kind"] == Kind.PLACE_BLIP:
            slot = self.slot_for(screen, args.pop("square"))
            return intent if slot is None else {**intent, "action": {**action, "args": {**args, "slot": slot}}}
        setup = screen["view"].get("setup") or {}
        if setup.get("step") != "holding" or setup.get("side") != self.side:
            return intent                       # not this side's holding area now: the host refuses it as it is
        committed, blips = self.commit(screen, args.get("squares"))
        return {**intent, "action": {**action, "args": {"committed": committed, "blips_committed": blips}}}

    def scramble(self, screen: dict[str, Any], action: dict[str, Any], corner: int | None = None) -> dict[str, Any]:
        """A Scramble of one of this side's units (p.22, A23), chosen here: the square it goes into (``square`` in its
        args, one of the three the host fills, else drawn here) and which new counter is real (``corner``, else
        drawn here). Kept, and sent as one commitment for each of the three squares and one for each counter in
        corner order; the host never learns the choice before a reveal."""
        args = dict(action.get("args") or {})
        unit = next((u for u in screen["view"].get("units") or [] if u.get("id") == action.get("actor")), None)
        free = [int(n) for n in (screen.get(Kind.SCRAMBLE) or {}).get(str(action.get("actor"))) or []]
        if unit is None or unit.get("side") != self.side or len(free) < 3:
            return action                       # not this side's, or no room: the host refuses it with the reason
        squares = free[:3]                      # the engine's ``kept_scramble_squares``: the three lowest unused
        draw = secrets.SystemRandom()
        chosen = args.pop("square", None)
        real = chosen if chosen in squares else draw.choice(squares)
        corner = draw.randrange(3) if corner is None else corner
        entry = {"id": str(unit["id"]), "side": self.side, "faction": unit.get("faction"),
                 "rating": unit.get("rating"), "type": unit.get("type")}
        for n in squares:
            self.squares[n] = ([entry] if n == real else [], new_square_salt())
        order = [n for n in squares if n != real]
        order.insert(corner, real)
        first = max(self.blips, default=0) + 1
        for k, n in enumerate(order):
            self.blips[first + k] = (n, new_square_salt())
        self._write()
        committed = {str(n): square_commitment(self.battle, self.side, n, *self.squares[n]) for n in squares}
        counters = {str(k + 1): blip_commitment(self.battle, self.side, *self.blips[first + k]) for k in range(3)}
        return {**action, "args": {**args, "committed": committed, "blips_committed": counters}}

    def _unplaced(self, screen: dict[str, Any]) -> list[int]:
        """The slots of this side's counters not placed yet, as its own screen lists its commitments."""
        own = ((screen.get("view") or {}).get("blip_commitments") or {}).get(self.side) or {}
        return sorted(int(k) for k in own if k.isdigit() and int(k) in self.blips)

    def slot_for(self, screen: dict[str, Any], square: object) -> int | None:
        """The commitment (slot) of a counter not placed yet that stands for ``square``, or None."""
        return next((k for k in self._unplaced(screen) if self.blips[k][0] == square), None)

    def square_of(self, screen: dict[str, Any], blip: str) -> tuple[int, str] | None:
        """The square ``blip`` (one of this side's counters) stands for and its salt, by the commitment the host holds
        for it (this side's own screen lists them), or None when the host knows its square."""
        own = ((screen.get("view") or {}).get("blip_commitments") or {}).get(self.side) or {}
        return self.opened_by(own.get(blip))

    def opened_by(self, committed: object) -> tuple[int, str] | None:
        """The square and salt that give ``committed``, a counter's commitment sent from here, or None."""
        return next(((n, salt) for n, salt in self.blips.values() if self._commitment(n, salt) == committed), None)

    def _commitment(self, square: int, salt: str) -> str:
        known = self._blip_commitments.get((square, salt))
        if known is None:
            known = self._blip_commitments[(square, salt)] = blip_commitment(self.battle, self.side, square, salt)
        return known

    # ---- a reveal: the square opened for the host ----------------------------------------------------------------
    def opening(self, screen: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to the host's ask for a square (``open_square`` on this side's screen, or at the end of the
        battle the first of ``open_squares``), or None."""
        asked = screen.get("open_square")
        if asked is None and screen.get("open_squares"):
            asked = screen["open_squares"][0]          # the end of the battle: every square still hidden, in turn
        if not isinstance(asked, dict) or screen.get("seat") != self.side:
            return None
        counter = self.opened_by(asked["committed"]) if "committed" in asked else None
        square = counter[0] if counter is not None else int(asked.get("square") or 0)
        kept = self.squares.get(square)
        if kept is None:
            return None
        units, salt = kept
        answer: dict[str, Any] = {"kind": Kind.CONTENTS, "blip": str(asked["blip"]), "contents": [dict(u) for u in units],
                                  "salt": salt}
        if counter is not None:
            answer.update(square=counter[0], square_salt=counter[1])
        return answer

    def _show_cards(self, screen: dict[str, Any], view: dict[str, Any]) -> None:
        """This side's own mission, cards and the units they issued, drawn here, on its own screen (the host holds
        none of them)."""
        assert self.cards is not None
        c = self.cards
        view.setdefault("missions", {})[self.side] = c["mission"]
        view.setdefault("cards", {})[self.side] = {"troop": c["troop"], "line": c["troop_line"], "drone": c["drone"],
                                                   "drone_line": c["drone_line"]}
        texts = screen.setdefault("cards_text", {})
        for ident in (c["mission"], c["troop"], c["drone"]):
            if ident not in texts and (words := card_words(ident)) is not None:
                texts[ident] = words        # the host has not them: its screen names none of this side's cards
        setup = view.get("setup")
        if isinstance(setup, dict) and not self.squares:
            # Still to go into the holding area: the set-up screen arranges them.
            setup.setdefault("issued", {})[self.side] = [dict(u) for u in c["issued"]]
            for legal in screen.get("legal") or []:
                free = legal.get("free") if isinstance(legal, dict) else None
                if legal.get("kind") == Kind.FILL_HOLDING and isinstance(free, dict) and isinstance(
                        free.get("squares"), dict):
                    free["squares"]["units"] = [u["id"] for u in c["issued"]]

    def _mission(self) -> MissionCard | None:
        """This side's own mission card, drawn here (None: not drawn yet, or not in this computer's deck)."""
        try:
            return playing_deck().mission(str(self.cards["mission"])) if self.cards else None
        except InputError:
            return None

    def _say_inspected(self, view: dict[str, Any]) -> None:
        """This side's own mission's word when an objective's Target counters, as its screen shows them, have just
        reached the number the mission counts it Inspected from (A41): the engine's words
        (``MissionCard.inspection_note``), which the host says to a side whose mission it holds and cannot say to this
        one. Made here, kept in the sealed file with the log entry it goes with, shown in this side's own log only
        (as the host's private note is); nothing goes to the host. A take-back that takes the entry away takes the
        word with it. The objectives the attacker sets at the end of the battle are said by no mission."""
        log = view.get("log")
        if not isinstance(log, list):
            return
        seen = self.inspection
        counters = {str(o["id"]): int(o.get("target_counters") or 0) for o in view.get("objectives") or []}
        notes = [list(n) for n in seen["notes"] if n[0] < len(log) and log[n[0]].get("text") == n[1]]
        mission = self._mission()
        if seen["counters"] is not None and mission is not None and view.get("phase") != "over":
            for oid, now in counters.items():
                words = mission.inspection_note(oid, int(seen["counters"].get(oid, now)), now)
                at = None if words is None else _entry_for(log, oid, int(seen["log"]))
                if at is not None and [at, log[at]["text"], words] not in notes:
                    notes.append([at, log[at]["text"], words])
        first = seen["counters"] is None
        changed = notes != seen["notes"]
        self.inspection = {"counters": counters, "log": len(log), "notes": notes}
        if first or changed:
            self._write()               # the counters kept with the words: joining again says no word twice
        for at, _text, words in notes:
            entry = log[at]
            if words not in str(entry.get("note", "")):
                entry["note"] = f"{entry['note']} / {words}" if entry.get("note") else words

    def shown(self, screen: dict[str, Any]) -> dict[str, Any]:
        """This side's screen with what its own blips hold filled in from the squares kept here (the host's screen has
        them unknown)."""
        view = screen.get("view")
        if not isinstance(view, dict) or not (self.squares or self.cards):
            return screen
        for blip in view.get("blips") or []:
            if blip.get("side") != self.side:
                continue
            counter = self.square_of(screen, str(blip.get("id")))
            if counter is not None:
                blip["square"] = counter[0]          # the host holds a stand-in square until the reveal
            if blip.get("contents") is None and blip.get("square") in self.squares:
                blip["contents"] = [dict(u) for u in self.squares[blip["square"]][0]]
        unplaced = self._unplaced(screen)
        for legal in screen.get("legal") or []:
            free = legal.get("free") if isinstance(legal, dict) and legal.get("kind") == Kind.PLACE_BLIP else None
            if isinstance(free, dict) and "square" in free and unplaced:
                free["square"] = sorted(self.blips[k][0] for k in unplaced)     # the squares left, as chosen here
        if self.cards is not None:
            self._show_cards(screen, view)
            self._say_inspected(view)
        holding = (view.get("holding") or {}).get(self.side)
        if isinstance(holding, dict):
            for n, held in list(holding.items()):
                if held is None and int(n) in self.squares:
                    holding[n] = [dict(u) for u in self.squares[int(n)][0]]
        return screen


def _entry_for(log: list[dict[str, Any]], oid: str, start: int) -> int | None:
    """The log entry that put Target counters on objective ``oid`` since entry ``start``: the newest naming it alone
    (as the engine writes a Target's counters on it and its passive sensors' counter), else the newest naming it,
    else the newest entry."""
    newest_first = range(len(log) - 1, min(start, len(log)) - 1, -1)
    for i in newest_first:
        if log[i].get("units") == [oid]:
            return i
    return next((i for i in newest_first if oid in (log[i].get("units") or [])), len(log) - 1 if log else None)


def keeper_for(screen: dict[str, Any], pin: str | None = None, folder: Path | None = None) -> Keeper | None:
    """The keeper of this seat's side when the host says it keeps its secrets here (``keep_secrets``), else None."""
    if not screen.get("keep_secrets"):
        return None
    side = str(screen.get("seat"))
    return Keeper(side, battle_id(screen["view"].get("dice_commitments") or {}), pin=pin, folder=folder)
