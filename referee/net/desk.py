"""What the host does with a seat's intent: checked against that seat's own legal actions, then handed to the
session's own methods (``attempt``, ``answer``, ``undo``), which ask the engine. Nothing here decides a rule.

A seat may only do what its screen offers it: an action is among the legal actions of *its* screen (so an intent
for the other side is refused, whoever sends it), a die is answered by the seat whose action asked for it, and a
take-back that needs the opponent's consent (``game/play/undo.py``) waits for that opponent's word from their own seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from ..game.battle.action_kinds import Kind
from ..game.battle.cards import playing_deck
from ..game.battle.dice import SHARE_BATCH
from ..rules.catalogue import unit_type_names
from ..rules.errors import InputError
from ..rules.stats import RATINGS
from ..service.intents import Action, action_problems
from ..service.mail_battle import TakeBack, closing
from ..service.privacy import screen_data
from ..service.referee import NeedsContents, RefereeSession
from ..service.screen import Screen
from ..service.seat_report import end_report, finished_record
from ..service.seats import SIDE_SEATS, SPECTATOR
from ..service.session import Attempt, BattleSession, NeedsShares, Pending

# What the engine may raise on arguments it cannot read (``service/battles.UnreadArguments`` catches the same).
UNREAD = (InputError, LookupError, TypeError, ValueError)


@dataclass(frozen=True)
class Reply:
    """The host's word on one message: ``changed``: the battle (or what a seat is shown) changed."""

    ok: bool
    reason: str = ""
    result: dict[str, Any] = field(default_factory=dict)
    changed: bool = False

    def to_data(self, ident: str) -> dict[str, Any]:
        return {"type": "reply", "id": ident, "ok": self.ok, "reason": self.reason, "result": self.result}


def refusal(reason: str) -> Reply:
    return Reply(False, reason)


@dataclass
class ContentsAsked:
    """A refereed battle's reveal waits for its owner's word on what ``needs.blip`` holds, said on that side's own
    hand; ``seat`` is the seat whose action revealed it: the action goes on for it once the owner has said."""

    needs: NeedsContents
    seat: str
    at: int                     # the record's length when it was asked: an action since, and the reveal is dropped


@dataclass
class SharesAsked:
    """A public die waits for the shares of the side kept on its own computer (``game/battle/dice.py``): its computer
    is asked for them (``dice_shares_asked`` on its screen); ``seat`` took the action, which goes on once they come."""

    needs: NeedsShares
    seat: str
    at: int                     # the record's length when it was asked: an action since, and the ask is dropped


def refused_words(seat: str, what: str) -> str:
    """What the asker of a take-back is told when ``seat`` does not agree to it."""
    return f"side {seat} did not agree to take back {what}"


def _why(error: Exception) -> str:
    return error.message() if isinstance(error, InputError) else str(error) or type(error).__name__


# How long a kept side's computer may be away while the battle waits for it to open a square before the other side
# may claim the battle (seconds): long enough to join again after a dropped connection.
AWAY_LIMIT: Final = 300.0


class Desk:
    """The seats' intents to one session, and what each seat is waiting on (a die, a consent)."""

    def __init__(self, session: BattleSession, kept_by: tuple[str, ...] = ()) -> None:
        self.session = session
        # The sides whose secrets stay on their own computer (``game/battle/commit.py``): their holding area is sent as
        # commitments, and each square is opened by their client when a reveal needs it.
        self.kept_by = frozenset(kept_by)
        self.pending: dict[str, Pending] = {}
        self.take_back: TakeBack | None = None
        self.said: dict[str, str] = {}             # a seat's last word from the other side (consent refused)
        self.refused: dict[str, TakeBack] = {}     # the take-back each side asked and was refused, until it acts
        # The end of a round, from two hands: each side's word (on, stop, withdraw, or its answer to the other's
        # Withdraw: allow or pursue) and the record's length it was said at; one end-of-round action once both spoke.
        self.words: dict[str, str] = {}
        self.words_at = -1
        self.limit_said: str | None = None      # a kept side said its own mission's round limit is reached (A43)
        self._cards: dict[str, dict[str, Any] | None] = {}     # each card's words, read once per hosting
        self.contents_asked: ContentsAsked | None = None        # a refereed battle: a reveal waits for its owner
        # A side kept on its own computer whose computer is away: how long (seconds) since its last socket closed,
        # None while one is open (set by the host, ``host.py``); after ``away_limit`` the other side may claim.
        self.away: Callable[[str], float | None] = lambda seat: None
        self.away_limit = AWAY_LIMIT
        # A public die waiting for a kept side's shares, and the reply of each seat whose action went on once they
        # came (the host gives it to the seat's waiting request, ``host.py``).
        self.shares_asked: SharesAsked | None = None
        self.went_on: dict[str, Reply] = {}
        self.shares_taken: tuple[str, object, object] | None = None       # the last shares taken: a repeat is no news
        # A battle by e-mail (``mail.py``): the file's name, said on every screen, since the other side's computer is
        # not coming while this host serves; the window says to send the file when the battle waits for that side.
        self.by_mail: str | None = None
        self.share_batch = SHARE_BATCH                  # the shares asked of a kept side at once
        if not isinstance(session, RefereeSession):
            for side in sorted(self.kept_by):
                # A battle not begun: the side's dice contribution is drawn and kept on its own computer too.
                session.keep_dice(side)

    # ---- what each seat is shown ---------------------------------------------------------------------------------
    def screen_data(self, seat: str) -> dict[str, Any]:
        """The seat's screen as data (each legal action marked private or not) and what this host adds for it: the
        die asked of it, the take-back it is asked to agree to, the squares each of its troopers may Scramble into."""
        screen = self.session.screen(seat)
        data = screen_data(screen)
        data["dice_mode"] = self.session.dice_mode
        pending = self.pending.get(seat)
        if pending is not None:
            data["pending"] = {"request": pending.request.describe(), "kind": pending.request.kind,
                               "action": pending.action.to_data(), "given": list(pending.given)}
        tb = self.take_back
        if tb is not None and seat in SIDE_SEATS:
            if tb.asker == seat:
                data["take_back"] = {"asked_of": _other(seat), "what": tb.what}
            else:
                data["consent"] = {"from": tb.asker, "what": tb.what, "why": tb.why}
        if seat in self.said:
            data["said"] = self.said[seat]
        if self.by_mail is not None:
            data["by_mail"] = {"file": self.by_mail}
        if isinstance(self.session, RefereeSession):
            data.update(self._table_entries(self.session, seat))
        else:
            data.update(self._kept_entries(seat))
        if seat in SIDE_SEATS:
            data[Kind.SCRAMBLE] = {a.actor: self.session.scramble_squares(a.actor)
                                for a in screen.legal if a.kind == Kind.SCRAMBLE}
            # Its units just revealed that it places (A66): the engine's spots touching the first unit of the square.
            data["place_spots"] = {uid: [list(spot) for spot in self.session.revealed_spots(uid)]
                                   for uid in self.session.owed_by(seat) if uid in screen.view["to_place"]}
            data["cards_text"] = cards_text(screen, seat, self._cards)
            words = self._words()
            if words:
                theirs = words.get(_other(seat))
                data["round_words"] = {"mine": words.get(seat), "theirs_spoken": theirs is not None,
                                       "withdraw_asked": _other(seat) if theirs == "withdraw" and words.get(seat)
                                       not in ("allow", "pursue", "withdraw") else None}
        return data

    def _table_entries(self, session: RefereeSession, seat: str) -> dict[str, Any]:
        """A refereed battle: what the physical table's players enter on their own hands. Every seat is told which
        side's word the battle waits for (a blip's contents at its reveal) and whose mission is entered; only the
        side itself is asked, with the choices the window's dialogs offer."""
        out: dict[str, Any] = {"missions_entered": {side: session.mission_entered(side) for side in SIDE_SEATS}}
        asked = self._contents_asked()
        if asked is not None:
            out["contents_asked"] = {"side": asked.needs.side, "blip": asked.needs.blip}
            if seat == asked.needs.side:
                out["tell_contents"] = {"blip": asked.needs.blip, "faction": session.faction_of(seat),
                                        "types": sorted(unit_type_names()), "ratings": list(RATINGS), "most": 2}
        if seat in SIDE_SEATS and session.mission_open(seat):
            try:
                out["mission_entry"] = {"missions": session.mission_choices(seat),
                                        "troop": session.card_choices("troop"), "drone": session.card_choices("drone")}
            except InputError as e:
                out["mission_entry"] = {"problem": "; ".join(e.problems[:2])}
        return out

    def kept_sides(self) -> frozenset[str]:
        """The sides whose secrets stay on their own computer: asked of this host, or committed to already."""
        return self.kept_by | frozenset(self.session.committed_sides())

    def _kept_entries(self, seat: str) -> dict[str, Any]:
        """A side that keeps its secrets on its own computer: it is told so (its client fills and commits its holding
        area there), and the square a reveal waits for is asked of its client alone; every seat sees whose word the
        battle waits for."""
        kept = self.kept_sides()
        if not kept:
            return {}
        out: dict[str, Any] = {"kept_by": sorted(kept)}
        if seat in kept:
            out["keep_secrets"] = True
        asked = self._contents_asked()
        if asked is not None:
            out["contents_asked"] = {"side": asked.needs.side, "blip": asked.needs.blip}
            if seat == asked.needs.side:
                out["open_square"] = self._asked_square(asked.needs.blip)
        dice = self._dice_entries(seat)
        out.update(dice)
        waits = self._waits_for_computer()
        if waits is not None:
            # Every seat is told whose computer the battle waits for, and whether it is here; the other side may
            # claim the battle once it has been away long enough (``_claim``).
            away = self.away(waits)
            out["waits_for_computer"] = {"side": waits, "away": away is not None}
            # A battle still in set-up cannot be forfeited (the engine takes no battle action before set-up is
            # over, A60): no claim is offered that would be refused.
            if (seat == _other(waits) and away is not None and away >= self.away_limit
                    and self.session.view(log=False)["phase"] != "setup"):
                out["may_claim_forfeit"] = waits
        if seat in kept:
            draw = self.session.kept_draw(seat)
            if draw is not None:
                # Its cards are drawn on its own computer, from the host's parts of the draw and its own shares.
                out["draw_cards_asked"] = draw
        opening = self.session.opening(kept)
        if opening:
            # The end of the battle: every square still hidden is opened, then the cards drawn on the side's own
            # computer, then the battle is scored (p.~14); an attacker in Control opens its own first, before it
            # sets the objectives (``BattleSession.opening``).
            hidden = {side: self.session.hidden_blips(side) for side in opening}
            out["squares_hidden"] = {side: len(blips) for side, blips in hidden.items()}
            if hidden.get(seat):
                out["open_squares"] = [self._asked_square(blip) for blip, _square in hidden[seat]]
            cards = self.session.cards_to_open(every=True)
            if cards:
                out["cards_unopened"] = cards
            if seat in self.session.cards_to_open():
                out["open_cards"] = True
        return out

    def _dice_entries(self, seat: str) -> dict[str, Any]:
        """A side whose dice contribution is kept on its own computer: its computer is asked for the commitment to it
        before the first public die, for its shares of a moment a public die waits for, and to open it at the end;
        every seat sees whose shares a die waits for."""
        session = self.session
        out: dict[str, Any] = {}
        if seat in session.kept_dice():
            if session.awaits_dice_commitment(seat):
                out["dice_commitment_asked"] = True
            elif seat in session.dice_to_open():
                out["open_dice"] = True
        asked = self._shares_asked()
        if asked is not None:
            out["dice_asked"] = {"side": asked.needs.side}
            if seat == asked.needs.side and not session.awaits_dice_commitment(seat):
                out["dice_shares_asked"] = {"moment": asked.needs.moment, "from": asked.needs.start,
                                            "count": self.share_batch}
        return out

    def _shares_asked(self) -> SharesAsked | None:
        """The public die waiting for a kept side's shares, unless the battle has moved on since."""
        asked = self.shares_asked
        if asked is not None and asked.at != self.session.actions_taken():
            self.shares_asked = asked = None
        return asked

    def waiting_action(self) -> tuple[str, Action, list[float]] | None:
        """The action a seat took that waits for a side's computer (its dice shares, or a square it opens): the
        seat, the action and the dice given; None when nothing waits."""
        shares = self._shares_asked()
        if shares is not None:
            return shares.seat, shares.needs.action, list(shares.needs.given)
        contents = self._contents_asked()
        if contents is not None:
            return contents.seat, contents.needs.action, list(contents.needs.given)
        return None

    def take_up(self, seat: str, action: Action, given: list[float]) -> Reply:
        """An action ``seat`` took before this host began that waited for a side's computer (a battle by e-mail,
        ``mail.py``): tried again here, so the desk asks again for what it waits for."""
        return self._attempt_again(seat, action, given)

    def ask_again(self, asked: TakeBack) -> None:
        """A take-back asked before this host began (a battle by e-mail, ``mail.py``): asked of the other side's seat
        again if the battle is where it was asked and the engine still offers it, with that consent."""
        if asked.at != self.session.actions_taken() or asked.asker not in SIDE_SEATS:
            return
        offer = self.session.screen(asked.asker).undo
        if offer is not None and offer.allowed and offer.needs_consent and offer.what == asked.what:
            self.take_back = TakeBack(asked.asker, asked.what, offer.why_consent, asked.at)

    def heard_refusal(self, asked: TakeBack) -> None:
        """The other side did not agree to the take-back ``asked.asker`` asked (a battle by e-mail): said to it."""
        self.said[asked.asker] = refused_words(_other(asked.asker), asked.what)
        self.refused[asked.asker] = asked

    def _commit_dice(self, seat: str, intent: dict[str, Any]) -> Reply:
        """The kept side's computer sends the commitment to its dice contribution (before the first public die)."""
        if seat not in self.session.kept_dice():
            return refusal(f"dice-commitment: side {seat}'s dice contribution is drawn on the host; nothing to send")
        if self.session.dice_commitment(seat) == intent.get("commitment"):
            return Reply(True, result={"dice_committed": seat, "again": True})     # sent twice: taken once
        try:
            self.session.commit_kept_dice(seat, str(intent.get("commitment", "")))
        except InputError as e:
            return refusal(f"dice-commitment: {_why(e)}")
        return Reply(True, result={"dice_committed": seat}, changed=True)

    def _shares(self, seat: str, intent: dict[str, Any]) -> Reply:
        """The kept side's computer sends its shares of the moment a public die waits for; the action goes on."""
        asked = self._shares_asked()
        sent = (seat, intent.get("moment"), intent.get("from"))
        # The same shares asked again (their action taken back and taken again) are taken again; else a second
        # sending of those just taken is no news.
        if sent == self.shares_taken and (asked is None or sent != (asked.needs.side, asked.needs.moment,
                                                                     asked.needs.start)):
            return Reply(True, result={"shares": 0, "again": True})                # sent twice: taken once
        if asked is None or asked.needs.side != seat:
            return refusal("dice-shares: no public die waits for this side's shares now")
        if intent.get("moment") != asked.needs.moment or intent.get("from") != asked.needs.start:
            return refusal("dice-shares: these are not the shares asked for (another moment, or another first number)")
        try:
            self.session.add_shares(seat, asked.needs.moment, asked.needs.start, list(intent.get("shares") or []))
        except InputError as e:
            return refusal(f"dice-shares: {_why(e)}")
        self.shares_asked = None
        self.shares_taken = (seat, asked.needs.moment, asked.needs.start)
        went_on = self._attempt_again(asked.seat, asked.needs.action, asked.needs.given)
        self.went_on[asked.seat] = went_on
        return Reply(True, result={"shares": len(intent.get("shares") or []), "went_on": went_on.ok}, changed=True)

    def _shares_refused(self, seat: str, intent: dict[str, Any]) -> Reply:
        """The kept side's device refuses the shares of the moment a public die waits for (its keeper answers one
        action a place: an action here rolled its dice already and was refused after the roll, or a host asked for a
        second action's dice). The action that waited is refused with the device's reason, nothing changed, so the
        battle does not wait for shares that will not come: a dice-free action, or a take-back, moves it on."""
        asked = self._shares_asked()
        if asked is None or asked.needs.side != seat or intent.get("moment") != asked.needs.moment:
            return refusal("dice-refused: no public die of this moment waits for this side's shares now")
        self.shares_asked = None
        reason = (f"{asked.needs.action.kind}: side {seat}'s device refused its share of the dice "
                  f"({intent.get('reason')}); nothing changed. An action at this place in the battle rolled its dice "
                  f"already: act without dice first (end the activation), or take back the action before it")
        self.went_on[asked.seat] = refusal(reason)
        self.said[asked.seat] = reason
        return Reply(True, result={"refused": asked.needs.moment}, changed=True)

    def _open_dice(self, seat: str, intent: dict[str, Any]) -> Reply:
        """At the end the kept side's computer opens its dice contribution: checked against its commitment and every
        share it sent (a false share is a breach, recorded)."""
        session = self.session
        if seat not in session.kept_dice():
            return refusal(f"{Kind.DICE_OPENED}: side {seat}'s dice contribution is drawn on the host; nothing to open")
        if not session.over:
            return refusal(f"{Kind.DICE_OPENED}: the dice contribution is opened once the battle is over")
        if session.dice_opened(seat):
            return Reply(True, result={"dice_opened": seat, "again": True})        # sent twice: opened once
        try:
            opened = session.open_kept_dice(seat, str(intent.get("value", "")), str(intent.get("salt", "")))
        except UNREAD as e:
            return refusal(f"{Kind.DICE_OPENED}: {_why(e)}")
        if not opened.legal:
            return refusal(opened.outcome.reason if opened.outcome is not None else "the dice were not opened")
        return Reply(True, result={"dice_opened": seat}, changed=True)

    def _open_cards(self, seat: str, intent: dict[str, Any]) -> Reply:
        """At the end the kept side's computer opens the cards it drew there, with its dice contribution: the engine
        draws them again, checks them against the commitment and the holding squares opened (a mismatch is a
        breach, recorded), and scores the battle."""
        session = self.session
        if seat not in session.cards_to_open(every=True):
            return refusal(f"{Kind.CARDS_OPENED}: side {seat} has no cards kept on its own computer to open now")
        args = {k: intent[k] for k in ("mission", "troop", "drone", "purchase", "salt", "value", "dice_salt")
                if intent.get(k) is not None}
        try:
            opened = session.attempt(Action(Kind.CARDS_OPENED, seat, args))
        except UNREAD as e:
            return refusal(f"{Kind.CARDS_OPENED}: {_why(e)}")
        if not opened.legal:
            return refusal(opened.outcome.reason if opened.outcome is not None else "the cards were not opened")
        return Reply(True, result={"cards_opened": seat}, changed=True)

    def _waits_for_computer(self) -> str | None:
        """The side kept on its own computer whose opening the battle waits for (a reveal, or the end), or whose
        dice shares a public die waits for, or None."""
        asked = self._contents_asked()
        if asked is not None and asked.needs.side in self.kept_sides():
            return str(asked.needs.side)
        shares = self._shares_asked()
        if shares is not None:
            return str(shares.needs.side)
        opening = self.session.opening(self.kept_sides())
        if opening:
            return next((side for side in opening if self.session.hidden_blips(side)
                         or side in self.session.cards_to_open()), None)
        return None

    def _claim(self, seat: str) -> Reply:
        """``seat`` claims the battle: the other side's computer has stayed away at least ``away_limit`` seconds
        while the battle waits for it to open a square. That side forfeits (``corrections.forfeit``: logged, in the
        result and the report); nothing of its secret is decided for it."""
        waits = self._waits_for_computer()
        if waits is None or seat != _other(waits):
            return refusal("forfeit: the battle waits for no opening by the other side's computer; nothing to claim")
        away = self.away(waits)
        if away is None or away < self.away_limit:
            here = "is here" if away is None else f"has been away {away:.0f} s"
            return refusal(f"forfeit: side {waits}'s computer {here}; the battle may be claimed once it has been away "
                           f"{self.away_limit:.0f} s")
        self.contents_asked = None
        try:
            done = self.session.attempt(Action(Kind.FORFEIT, waits))
        except UNREAD as e:
            return refusal(f"forfeit: {_why(e)}")
        if not done.legal:
            return refusal(done.outcome.reason if done.outcome is not None else "forfeit: refused")
        return Reply(True, result={"forfeited": waits}, changed=True)

    def _asked_square(self, blip: str) -> dict[str, Any]:
        """What the owner's computer is asked to open for ``blip``: the commitment to the square the counter stands
        for (this host knows only a stand-in), or the square itself when it is known here (a Scramble's counter)."""
        committed = self.session.blip_commitment(blip)
        if committed is not None:
            return {"blip": blip, "committed": committed}
        return {"blip": blip, "square": self.session.blip_square(blip)}

    # ---- intents ----------------------------------------------------------------------------------------------
    def apply(self, seat: str, intent: dict[str, Any]) -> Reply:
        """Do ``intent`` (read by ``messages.py``) for ``seat``; refused with the reason and nothing changed."""
        if seat == SPECTATOR:
            return refusal("the spectator's seat watches the table; it takes no decision")
        kind = intent["kind"]
        if kind == "action":
            return self._action(seat, intent["action"], [float(d) for d in intent.get("dice", [])])
        if kind == "answer":
            return self._answer(seat, float(intent["value"]))
        if kind == "undo":
            return self._undo(seat)
        if kind == Kind.CONTENTS:
            opening = {k: intent[k] for k in ("salt", "square", "square_salt") if intent.get(k) is not None}
            return self._tell(seat, str(intent["blip"]), list(intent["contents"]), opening)
        if kind == Kind.MISSION:
            return self._mission(seat, intent)
        if kind == Kind.FORFEIT:
            return self._claim(seat)
        if kind == "dice-commitment":
            return self._commit_dice(seat, intent)
        if kind == "dice-shares":
            return self._shares(seat, intent)
        if kind == "dice-refused":
            return self._shares_refused(seat, intent)
        if kind == Kind.DICE_OPENED:
            return self._open_dice(seat, intent)
        if kind == Kind.CARDS_OPENED:
            return self._open_cards(seat, intent)
        return self._consent(seat, bool(intent["allow"]))

    def offered(self, seat: str, data: dict[str, Any], screen: Screen | None = None) -> Action | str:
        """``data`` as an action ``seat`` may take now (among its screen's legal actions), or why not."""
        action = Action.from_data(data)
        if screen is None and seat in SIDE_SEATS and self.session.to_act() == seat:
            # The side to act: the engine's quick question (no Target priced, no list made) says whether it offers
            # an action of this kind by this actor; the engine checks the arguments when it resolves it.
            asked = "extra" if action.kind == Kind.ACTIVATE and action.args.get("extra") else action.kind
            if self.session.offers(asked, action.actor):
                problems = action_problems(action.to_data(), "intent.action")
                return "; ".join(problems) if problems else action
        screen = screen or self.session.screen(seat)
        if not screen.acting:
            waits = f"side {screen.to_act}" if screen.to_act else "nobody"
            return f"it is not seat {seat}'s decision now (the battle waits for {waits})"
        for legal in screen.legal:
            if legal.kind == action.kind and legal.actor == action.actor and all(
                    action.args.get(k) == v for k, v in legal.args.items()):
                problems = action_problems(action.to_data(), "intent.action")
                return "; ".join(problems) if problems else action
        return f"{action.kind} {action.actor}".strip() + f" is not among seat {seat}'s legal actions now"

    def owed_by_other(self, seat: str) -> str:
        """Why ``seat`` waits before it acts: the other side's troopers just revealed wait for their owner's facing
        or spot (A13, A66: its owner chooses them, on its own screen; an action taken meanwhile would leave them as the
        engine put them), else ""."""
        if seat not in SIDE_SEATS:
            return ""
        theirs = self.session.owed_by(_other(seat))
        if not theirs:
            return ""
        return (f"side {_other(seat)} first faces and places its units just revealed ({', '.join(theirs)}): their "
                f"owner chooses [A13, A66]")

    def _action(self, seat: str, data: dict[str, Any], dice: list[float]) -> Reply:
        action = self.offered(seat, data)
        if isinstance(action, str):
            return refusal(action)
        owed = self.owed_by_other(seat)
        if owed:
            return refusal(owed)
        draw = self.session.kept_draw(seat) if action.kind == Kind.DRAW_CARDS and seat in self.kept_sides() else None
        if draw is not None:
            # Its dice contribution is kept on its own computer: so are its cards (a host whose dice are a seed's alone
            # draws them here, as before).
            if "committed" not in action.args:
                return refusal(f"side {seat} keeps its secrets on its own computer: its client draws its cards there "
                               f"from the host's parts (draw_cards_asked) and sends only the commitment to them "
                               f"(committed, with the draw), never the cards")
            if action.args.get("draw") != draw:
                return refusal(f"{Kind.DRAW_CARDS}: the draw sent is not the one the host asked side {seat}'s computer "
                               f"to make (its parts, the cards drawn from, the streak)")
        if action.kind == Kind.FILL_HOLDING and seat in self.kept_sides() and not {
                "committed", "blips_committed"} <= set(action.args):
            return refusal(f"side {seat} keeps its secrets on its own computer: its client fills the holding area "
                           f"there and sends one commitment a square (committed) and one for the square each blip "
                           f"counter stands for (blips_committed), never the squares themselves")
        self.said.pop(seat, None)
        self.refused.pop(seat, None)
        if action.kind == Kind.END_OF_ROUND and seat in SIDE_SEATS and self.session.computer is not None:
            action = self._to_the_computer(seat, action)
        elif action.kind == Kind.END_OF_ROUND and seat in SIDE_SEATS:
            word = self._word(seat, action)
            if isinstance(word, Reply):
                return word
            action = word
        try:
            attempt = self.session.attempt(action, dice)
        except UNREAD as e:
            return refusal(f"{action.kind}: {_why(e)}")
        return self._outcome(seat, attempt)

    def _outcome(self, seat: str, attempt: Attempt) -> Reply:
        needs = getattr(attempt, "needs", None)
        if isinstance(needs, NeedsContents):
            # A refereed reveal of a blip the program was never told about: its owner says on its own hand, then the
            # action goes on for this seat (``_tell``). Nothing is recorded yet.
            self.pending.pop(seat, None)
            self.contents_asked = ContentsAsked(needs, seat, self.session.actions_taken())
            return Reply(True, result={"contents_asked": {"side": needs.side, "blip": needs.blip}}, changed=True)
        if attempt.shares is not None:
            # A public die this host cannot make alone: the kept side's computer is asked for its shares, then the
            # action goes on for this seat (``_shares``). Nothing is recorded yet.
            self.pending.pop(seat, None)
            self.went_on.pop(seat, None)
            self.shares_asked = SharesAsked(attempt.shares, seat, self.session.actions_taken())
            return Reply(True, result={"dice_asked": {"side": attempt.shares.side}}, changed=True)
        if attempt.pending is not None:
            self.pending[seat] = attempt.pending
            return Reply(True, result={"pending": attempt.pending.request.describe()}, changed=True)
        self.pending.pop(seat, None)
        outcome = attempt.outcome
        assert outcome is not None
        if not outcome.legal:
            return refusal(outcome.reason)
        self.take_back = None
        if self.contents_asked is not None and self.contents_asked.seat == seat:
            self.contents_asked = None          # the seat took another action: the reveal it asked for is dropped
        if self.shares_asked is not None and self.shares_asked.seat == seat:
            self.shares_asked = None
        return Reply(True, result={"events": list(outcome.events)}, changed=True)

    def _to_the_computer(self, seat: str, action: Action) -> Action:
        """The end of a round against the computer: it answers the player's Withdraw (allow or pursue, p.16, A43)
        and an offer to stop from its own view, as it does at the window."""
        args = dict(action.args)
        if args.get("withdraw") == seat and "answer" not in args:
            args["answer"] = self.session.computer_answers_withdraw()
        if args.get("stop") and not self.session.computer_agrees_to_stop():
            args.pop("stop")
            args["offered"] = seat
            self.said[seat] = "the computer does not agree to stop: the battle goes on"
        return Action(action.kind, action.actor, args)

    def _words(self) -> dict[str, str]:
        """The words said at this end of round (those of an earlier one are forgotten)."""
        if self.words_at != self.session.actions_taken():
            self.words, self.words_at, self.limit_said = {}, self.session.actions_taken(), None
        return self.words

    def _word(self, seat: str, action: Action) -> Action | Reply:
        """``seat``'s word at the end of the round (p.16, A43): kept until the other side has spoken, then the one
        end-of-round action both words make; a Withdraw waits for the other side's answer."""
        args = action.args
        unknown = sorted(set(args) - {"withdraw", "answer", "stop", "limit"})
        if unknown:
            return refusal(f"end-of-round: unknown argument {', '.join(unknown)}")
        if args.get("limit") not in (None, seat) or (args.get("limit") and seat not in self.kept_sides()):
            return refusal(f"end-of-round: seat {seat} says only its own mission's round limit is reached (limit: "
                           f"{seat}), and only when its cards are kept on its own computer")
        if args.get("withdraw") not in (None, seat):
            return refusal(f"end-of-round: seat {seat} announces its own Withdraw (withdraw: {seat}) or none")
        if args.get("answer") not in (None, "allow", "pursue"):
            return refusal("end-of-round: the answer to a Withdraw is allow or pursue")
        words = self._words()
        other = _other(seat)
        if args.get("answer") is not None:
            if words.get(other) != "withdraw":
                return refusal(f"end-of-round: side {other} has announced no Withdraw to answer")
            word = str(args["answer"])
        elif args.get("withdraw") == seat:
            word = "withdraw"
        else:
            word = "stop" if args.get("stop") else "on"
        if words.get(seat) == "withdraw" and word != "withdraw":
            return refusal(f"end-of-round: side {seat} has announced its Withdraw (p.16)")
        words[seat] = word
        if args.get("limit"):
            self.limit_said = seat
        theirs = words.get(other)
        wait = Reply(True, result={"waiting_for": other, "word": word}, changed=True)
        if theirs is None:
            return wait
        if word == "withdraw" and theirs not in ("allow", "pursue", "withdraw"):
            del words[other]                  # its word was said before this Withdraw: now it answers it
            return wait
        if theirs == "withdraw" and word not in ("allow", "pursue", "withdraw"):
            return wait                       # the other side's Withdraw waits for this side's answer
        said = self.limit_said
        if said is not None:
            # A kept side's own mission ends the battle after this round: the words go with it (A43).
            self.limit_said = None
            return Action(Kind.END_OF_ROUND, "", {**closing(word, theirs, seat, words), "limit": said})
        return Action(Kind.END_OF_ROUND, "", closing(word, theirs, seat, words))

    def words_said(self) -> dict[str, str]:
        """The words said so far at this end of round, by side (a battle by e-mail carries them to the other side)."""
        return dict(self._words())

    def hear(self, words: dict[str, str]) -> None:
        """The words said at this end of round before this host began (a battle by e-mail, ``mail.py``)."""
        self.words, self.words_at = dict(words), self.session.actions_taken()

    def to_speak(self, seat: str) -> bool:
        """Whether ``seat`` has still to say its word at this end of round: it has said none, or the other side's
        Withdraw waits for its answer (p.16)."""
        words = self._words()
        mine, theirs = words.get(seat), words.get(_other(seat))
        return mine is None or (theirs == "withdraw" and mine not in ("allow", "pursue", "withdraw"))

    def ask_contents(self, needs: NeedsContents, seat: str) -> None:
        """An action taken at the shared table needs ``needs.blip``'s contents: its owner says on its own hand."""
        self.contents_asked = ContentsAsked(needs, seat, self.session.actions_taken())

    def _contents_asked(self) -> ContentsAsked | None:
        """The reveal waiting for its owner's word, unless the battle has moved on since (an action taken at the
        table instead, a take-back): then it is dropped, and the owner is asked nothing."""
        asked = self.contents_asked
        if asked is not None and asked.at != self.session.actions_taken():
            self.contents_asked = asked = None
        return asked

    def _tell(self, seat: str, blip: str, units: list[Any], opening: dict[str, Any] | None = None) -> Reply:
        """The owner's word on what ``blip`` holds, from its own hand; then the action that revealed it goes on.
        ``opening``: a side kept on its own computer opens the square (its salt, and the counter's square and salt)."""
        session = self.session
        if not isinstance(session, RefereeSession):
            return self._open(seat, blip, units, opening or {})
        owner = session.blip_side(blip)
        if owner is None:
            return refusal(f"contents: no blip called {blip!r} is on the table")
        if owner != seat:
            return refusal(f"contents: {blip} is side {owner}'s blip: only side {owner}'s hand says what it holds")
        asked = self._contents_asked()
        if asked is None or asked.needs.blip != blip:
            return refusal(f"contents: {blip} is not being revealed now; its owner says what it holds at its reveal "
                           "[p.15, p.17]")
        faction = session.faction_of(seat)
        contents = [{"faction": u.get("faction") or faction, "rating": u.get("rating"), "type": u.get("type")}
                    for u in units]
        try:
            told = session.tell(blip, contents)
        except UNREAD as e:
            return refusal(f"contents: {_why(e)}")
        if not told.legal:
            return refusal(told.outcome.reason if told.outcome is not None else f"contents: {blip} was not told")
        return Reply(True, result={"told": blip, "went_on": self._goes_on(asked)}, changed=True)

    def _goes_on(self, asked: ContentsAsked) -> bool:
        """The blip's owner has said what it holds: the action that revealed it goes on for the seat that took it
        (a refusal now is said on that seat's screen). Whether it went on."""
        self.contents_asked = None
        return self._attempt_again(asked.seat, asked.needs.action, asked.needs.given).ok

    def _attempt_again(self, seat: str, action: Action, given: list[float]) -> Reply:
        """The action ``seat`` took, tried again now that what it waited for has come (a square opened, dice shares):
        a refusal now is said on that seat's screen."""
        try:
            went_on = self._outcome(seat, self.session.attempt(action, given))
        except UNREAD as e:
            went_on = refusal(_why(e))
        if not went_on.ok:
            self.said[seat] = f"{action.kind} {action.actor}: {went_on.reason}".strip()
        return went_on

    def _open(self, seat: str, blip: str, units: list[Any], opening: dict[str, Any]) -> Reply:
        """A side that keeps its secrets on its own computer opens the square a reveal waits for: its client sends the
        counter's square and salt, the units and the square's salt, the engine checks them against the commitments (a
        lie is refused with the reason, nothing changed), and the action that revealed it goes on."""
        session = self.session
        owner = session.blip_side(blip)
        if owner is None:
            return refusal(f"contents: no blip called {blip!r} is on the table")
        if owner not in session.committed_sides():
            return refusal("contents: the program knows what every blip holds in this battle; nobody tells it")
        if owner != seat:
            return refusal(f"contents: {blip} is side {owner}'s blip: only side {owner}'s computer opens its square")
        asked = self._contents_asked()
        at_end = owner in session.opening([owner]) and any(b == blip for b, _square in session.hidden_blips(owner))
        if not at_end and (asked is None or asked.needs.blip != blip):
            return refusal(f"contents: {blip} is not being revealed now; its owner opens its square at its reveal "
                           "[p.15, p.17], or once the battle is over")
        args: dict[str, Any] = {"contents": [dict(u) for u in units], **opening}
        try:
            opened = session.attempt(Action(Kind.CONTENTS, blip, args))
        except UNREAD as e:
            return refusal(f"contents: {_why(e)}")
        if not opened.legal:
            return refusal(opened.outcome.reason if opened.outcome is not None else f"contents: {blip} not opened")
        if asked is None or asked.needs.blip != blip:
            return Reply(True, result={"opened": blip}, changed=True)           # at the end: nothing waits on it
        return Reply(True, result={"opened": blip, "went_on": self._goes_on(asked)}, changed=True)

    def _mission(self, seat: str, intent: dict[str, Any]) -> Reply:
        """A side enters its own mission card (and, if it wishes, troop and drone cards) on its own hand."""
        session = self.session
        if not isinstance(session, RefereeSession):
            return refusal("mission: the cards of this battle were drawn and kept at set-up; nobody enters them")
        if seat not in SIDE_SEATS:
            return refusal("mission: a side enters its own mission card on its own hand")
        side = intent.get("side") or seat
        if side != seat:
            return refusal(f"mission: side {seat}'s hand enters side {seat}'s own mission card, never side {side}'s")
        try:
            attempt = session.enter_mission(seat, str(intent["mission"]), intent.get("troop"), intent.get("drone"))
        except UNREAD as e:
            return refusal(f"mission: {_why(e)}")
        if not attempt.legal:
            return refusal(attempt.outcome.reason if attempt.outcome is not None else "mission: not entered")
        return Reply(True, result={"mission_entered": seat}, changed=True)

    def _answer(self, seat: str, value: float) -> Reply:
        pending = self.pending.get(seat)
        if pending is None:
            return refusal(f"no die is asked of seat {seat} now")
        try:
            attempt = self.session.answer(pending, value)
        except UNREAD as e:
            return refusal(_why(e))
        return self._outcome(seat, attempt)

    def _undo(self, seat: str) -> Reply:
        if seat not in SIDE_SEATS:
            return refusal("a take-back is asked by the side whose action it was")
        offer = self.session.screen(seat).undo
        if offer is None or not offer.allowed:
            return refusal(offer.reason if offer is not None else "nothing to take back")
        if offer.needs_consent:
            # Asked of the other side's seat; by e-mail the ask goes in the file to that side (``mail.py``).
            self.take_back = TakeBack(seat, offer.what, offer.why_consent, self.session.actions_taken())
            return Reply(True, result={"asked": _other(seat), "what": offer.what}, changed=True)
        return self._take_back(seat, consent=False)

    def _consent(self, seat: str, allow: bool) -> Reply:
        tb = self.take_back
        if tb is None or seat not in SIDE_SEATS or tb.asker == seat:
            return refusal(f"no take-back waits for seat {seat}'s consent")
        if not allow:
            self.take_back = None
            self.said[tb.asker] = refused_words(seat, tb.what)
            self.refused[tb.asker] = tb
            return Reply(True, result={"allowed": False}, changed=True)
        return self._take_back(tb.asker, consent=True)

    def _take_back(self, side: str, consent: bool) -> Reply:
        session = self.session
        viewer = session.viewer
        session.viewer = side                  # the session takes back the action of the side at its screen
        try:
            what = session.undo(consent)
        except InputError as e:
            return refusal(e.message())
        finally:
            session.viewer = viewer
        self.take_back = None
        self.pending.clear()
        self.contents_asked = None
        return Reply(True, result={"taken_back": what}, changed=True)

    # ---- questions ----------------------------------------------------------------------------------------------
    def ask(self, seat: str, message: dict[str, Any]) -> Reply:
        """A read-only question, answered from the seat's own view."""
        question = message["question"]
        if question == "screen":
            return Reply(True, result={"screen": self.screen_data(seat)})
        if question in ("report", "record"):
            # Once the battle is over: the report every seat may read, the record a side's seat may keep.
            try:
                if question == "report":
                    return Reply(True, result={"report": end_report(self.session, seat)})
                return Reply(True, result={"record": finished_record(self.session, seat)})
            except InputError as e:
                return refusal("; ".join(e.problems))
        if question == "log":
            start = message.get("from", 0)
            if not isinstance(start, int) or isinstance(start, bool) or start < 0:
                return refusal("from: expected the index of the first log entry to read (0 or more)")
            reader = seat if seat in SIDE_SEATS else None
            if reader is None:
                view = self.session.view_for(seat)
                return Reply(True, result={"entries": list(view["log"][start:start + 200])})
            log = self.session.log_for(reader)
            return Reply(True, result={"entries": list(log.entries(start, start + 200)), "length": len(log)})
        # preview: only of an action the seat may take now
        data = message.get("action")
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or not isinstance(
                data.get("actor", ""), str) or not isinstance(data.get("args", {}), dict):
            return refusal("action: expected an object with kind, actor and args")
        action = self.offered(seat, data)
        if isinstance(action, str):
            return refusal(action)
        try:
            preview = self.session.preview(action)
        except UNREAD as e:
            return refusal(_why(e))
        return Reply(True, result={"preview": preview.to_data()})


def cards_text(screen: Screen, seat: str, known: dict[str, dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """The words of the cards this seat holds or is offered: a mission's title, its Victory Points and round limit
    (A43), a troop or drone card's title. Only cards the seat's own screen names. ``known``: the words of cards read
    before (the deck is read from its files once)."""
    view = screen.view
    known = {} if known is None else known
    ids: set[str] = set()
    mission = view["missions"].get(seat)
    if mission:
        ids.add(mission)
    held = view["cards"].get(seat) or {}
    ids.update(str(v) for k, v in held.items() if k in ("troop", "drone") and v)
    for legal in screen.legal:
        if legal.kind == Kind.CHOOSE_CARDS:
            ids.update(str(x) for x in legal.free.get("mission", []) + legal.free.get("troop", []))
    out: dict[str, Any] = {}
    for ident in sorted(ids):
        if ident not in known:
            known[ident] = card_words(ident)
        entry = known[ident]
        if entry is not None:
            out[ident] = entry
    return out


def card_words(ident: str) -> dict[str, Any] | None:
    """A card's words as a seat's screen gives them (``cards_text``): its title, and a mission's VP rules, round
    limit and flavour; None for a card not in the deck."""
    try:
        card = playing_deck().card(ident)
    except InputError:
        return None
    entry: dict[str, Any] = {"title": card.title}
    vp_rules = getattr(card, "vp_rules", None)
    if vp_rules is not None:
        entry["vp"] = [rule.describe() for rule in vp_rules]
        entry["round_limit"] = getattr(card, "round_limit", None)
        entry["flavour"] = getattr(card, "flavour", "")
    return entry


def _other(side: str) -> str:
    return "B" if side == "A" else "A"
