"""A battle played by e-mail (``seven-seconds mail``): one file sent back and forth, each side's secrets kept on its
own computer.

The battle file holds only what a host of a battle with both sides kept holds (``seven-seconds host --kept-by A
--kept-by B``): the public battle, each side's commitments, and the shares of the dice each side sent. A side's
holding area, cards, dice contribution and counters' squares stay in its own sealed file on its own computer
(``keeper.py``), as when it joins a host over the network. Each player in turn serves the battle on their own
computer (``127.0.0.1`` only), plays their side in the window, and sends the file on when the battle waits for the
other side: its move, a die that needs its shares, a square that a reveal opens, its cards.

A die needs both sides' shares of its moment (``game/battle/dice.py``), and neither side can send them ahead: with
the other side's shares in hand a player could work out the dice of every action before choosing one. So an action
that rolls costs one trip of the file: the side at hand sends its shares first (``SeededDice.asked_first``), then
the file goes to the other side, whose computer adds its shares and resolves the action; that player sees the
outcome first. An action waiting for the other side is kept in the file (``waiting``), with the shares it has.

Nobody's computer takes the other's file on trust: each side remembers the record it last wrote (a digest of each
entry, beside its sealed file), and a file that arrives is checked against it and every action that came since is
resolved again by the engine (``service/mail_battle.py``). A take-back that needs the other side's consent goes to
that side in the file (``take_back``): its computer asks its player, and takes the action back if they agree; a
refusal comes back in the file (``take_back_refused``) and is said to the side that asked.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Final

from .. import __version__
from ..game.battle.commit import battle_id
from ..game.battle.dice import MAIL_SHARE_BATCH, commitment
from ..game.battle.sides import SIDES, other
from ..rules.errors import InputError
from ..rules.scenario import Scenario
from ..service.battles import new_session
from ..service.mail_battle import (BOTH, MAIL_FORMAT, MAIL_VERSION, Arrived, Waiting, arrive, battle_document, mail_text,
                                   read_mail, seen_of, waiting_action)
from ..service.campaigns import mail_campaign, note_file, note_mail_battle, noted_campaign
from ..service.mail_factions import carried_factions, carried_in, faction_ids_of, give_back, take_factions
from ..service.session import BattleSession
from ..storage import atomic_write_text
from .desk import Desk
from .host import Host
from .keeper import Keeper, kept_folder
from .mail_campaign import (MOST_ASKED, buy_asked, campaign_of, campaign_parts, checked_purchase, purchase_words,
                            purchases_of, record_in_campaign)

__all__ = ["MailTurn", "arrive", "new_mail_battle", "read_seen", "seen_path", "waits_for", "waits_text"]

HOST_WAITS: Final = {
    "dice_commitment_asked": "its sealed part of the dice (once, before the first roll)",
    "dice_shares_asked": "its part of a roll",
    "open_square": "a square opened at a reveal",
    "open_squares": "its holding area opened at the end",
    "open_dice": "its dice contribution opened at the end",
    "open_cards": "its cards opened at the end",
}


def take_up(desk: Desk, arrived: Arrived, source: str) -> None:
    """What the file held besides the record, taken up by a desk that begins on it: the words said at this end of
    round, and the action that waits for a side's computer (tried again, so the desk asks again for what it needs).
    A waiting action the engine refuses here was not the one that side's computer left: ``InputError`` says so."""
    if arrived.words:
        desk.hear(arrived.words)
        desk.limit_said = arrived.limit_said
    if arrived.waiting is not None:
        action = waiting_action(arrived.waiting)
        reply = desk.take_up(arrived.waiting.seat, action, arrived.waiting.given)
        if not reply.ok:
            raise InputError(source, f"waiting: the action side {arrived.waiting.seat}'s computer left waiting "
                                     f"({action.text()}) is refused here: {reply.reason}; the file was changed")
    if arrived.take_back is not None:
        desk.ask_again(arrived.take_back)
    if arrived.refused is not None:
        desk.heard_refusal(arrived.refused)


def waiting_of(desk: Desk) -> Waiting | None:
    """The action the desk holds while it waits for a side's computer (dice shares or a square), or None."""
    desk_asked = desk.waiting_action()
    if desk_asked is None:
        return None
    seat, action, given = desk_asked
    return Waiting(seat, action.to_data(), list(given))


def mail_document(session: BattleSession, desk: Desk, sender: str,
                  parts: dict[str, Any] | None = None) -> dict[str, Any]:
    """The battle file as ``sender`` sends it: the public battle, its factions, the action waiting and the shares it
    has (``parts``: a campaign's parts of it, ``mail_campaign.campaign_parts``)."""
    dice = session.dice
    assert dice is not None
    waiting = waiting_of(desk)
    doc: dict[str, Any] = {"format": MAIL_FORMAT, "version": MAIL_VERSION, "program": __version__,
                           "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "sent_by": sender,
                           "battle": battle_document(session), "factions": carried_factions(session),
                           "waiting": None}
    doc.update(parts or {})
    words = desk.words_said()
    if words:
        doc["words"] = words
        if desk.limit_said is not None:
            doc["limit_said"] = desk.limit_said
    if waiting is not None:
        doc["waiting"] = waiting.to_data()
        doc["shares"] = {side: {m: list(v) for m, v in moments.items()} for side, moments in dice.shares.items()}
    if desk.take_back is not None:
        doc["take_back"] = desk.take_back.to_data()
    for refused in desk.refused.values():
        doc["take_back_refused"] = refused.to_data()       # told to the asker
    return doc


def write_mail(path: Path, session: BattleSession, desk: Desk, sender: str,
               parts: dict[str, Any] | None = None) -> None:
    atomic_write_text(path, mail_text(mail_document(session, desk, sender, parts)))


def new_mail_battle(table: Scenario, factions: dict[str, str], out: Path, *, streak: dict[str, int] | None = None,
                    campaign: Path | None = None, folder: Path | None = None) -> Path:
    """A new battle by e-mail on ``table``, written to ``out``: both sides keep their secrets on their own computer.
    ``campaign``: the campaign file whose next battle it is (its factions and streak bonus are then the campaign's,
    ``mail_campaign``); this computer (``folder``: where it keeps its sides' secrets) records the battle there when
    it ends."""
    told = None
    if campaign is not None:
        told, battle = mail_campaign(campaign, folder)
        factions, streak = battle.factions, battle.streak
    session = new_session(table, factions, streak)
    session.autosaving = False
    desk = Desk(session, BOTH)
    if session.dice is None or session.dice.kept != BOTH:
        raise InputError("battle", "a battle by e-mail needs the program's dice, keyed by both sides")
    write_mail(out, session, desk, "", campaign_parts(told, [], []))
    if campaign is not None and told is not None:
        ident = battle_id((read_mail(out)["battle"].get("initial") or {}).get("dice_commitments") or {})
        note_mail_battle(campaign, out, told["battle"], ident, folder)
    return out


def mail_summary(path: Path) -> tuple[dict[str, str], dict[str, Any] | None]:
    """What a battle file says of itself: each side's faction, and the campaign it is a battle of (or None)."""
    doc = read_mail(path)
    return faction_ids_of(doc), campaign_of(doc, str(path))


# ---- what each side remembers of the file it last wrote --------------------------------------------------------------


def seen_path(folder: Path, battle: str, side: str) -> Path:
    return folder / f"{battle[:32]}-{side}.mail-seen"


def read_seen(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"initial": None, "entries": [], "waiting": None}
    except (OSError, ValueError) as e:
        raise InputError(str(path), f"cannot be read ({e})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("entries"), list):
        raise InputError(str(path), "expected the digests of the record this computer last wrote")
    return doc


# ---- one side's turn at the file -------------------------------------------------------------------------------------


def own_keeper(path: Path, doc: dict[str, Any], side: str, pin: str | None,
               folder: Path) -> tuple[str, Keeper | None]:
    """The battle's id and ``side``'s keeper on this computer (None before the battle's dice are keyed). A side that
    committed to its dice elsewhere raises ``InputError``: its contribution is on the computer that committed to it,
    and another one's shares would be a breach."""
    commitments = (doc["battle"].get("initial") or {}).get("dice_commitments") or {}
    battle = battle_id(commitments)
    keeper = Keeper(side, battle, pin=pin, folder=folder) if battle else None
    committed = commitments.get(side)
    if committed and (keeper is None or keeper.dice is None or commitment(side, *keeper.dice) != committed):
        raise InputError(str(path), f"side {side}'s secrets for this battle are not on this computer (its folder "
                                    f"{folder} holds none that fit): open the file on side {side}'s own computer")
    return battle, keeper


class MailTurn:
    """``side``'s turn at the battle file ``path``: the battle checked and served on this computer only, this side's
    seat to join (``link``), the file written after every change and when the turn ends (``close``)."""

    def __init__(self, path: Path | str, side: str, *, pin: str | None = None, folder: Path | None = None,
                 on_stop: Callable[[str], None] | None = None) -> None:
        if side not in SIDES:
            raise InputError("--side", f"expected 'A' or 'B' (got {side!r})")
        self.path = Path(path)
        self.side = side
        self.folder = kept_folder() if folder is None else folder
        doc = read_mail(self.path)
        self.campaign = campaign_of(doc, str(self.path))
        self.asked, self.made = purchases_of(doc, str(self.path))
        self.recorded: list[str] = []          # the battle's record in its campaign and purchases, for the player
        self.battle, keeper = own_keeper(self.path, doc, side, pin, self.folder)
        # Kept for the seat that joins this turn (``RemoteSeat(keeper=...)``): its sealed file is opened once a turn.
        self.keeper = keeper
        self.seen_file = seen_path(self.folder, self.battle, side)
        value = keeper.dice[0] if keeper is not None and keeper.dice is not None else None
        self.seen = read_seen(self.seen_file)
        # A faction of the battle this computer has never seen is added to its factions, for this turn's engine and
        # every later one (``service/mail_factions.py``); one that differs from its own refuses the file.
        carried = carried_in(doc, str(self.path))
        self.carried = {c.faction.id: c.faction for c in carried}
        self.factions = faction_ids_of(doc)
        added = take_factions(carried)
        try:
            arrived = arrive(self.path, side, value, self.seen)
        except InputError:
            give_back(added)            # a file refused leaves nothing behind
            raise
        self.added = [told for _path, told in added]
        if self.campaign is not None and self.battle:
            try:
                note_file(self.battle, self.path, self.folder)      # this computer began it: its page opens this file
            except (InputError, OSError):
                pass                     # the note is read again, and said, when the battle is recorded
        self.session = arrived.session
        self.unsaved: str | None = None
        self.on_stop = on_stop
        self.closed = False
        self.waits: list[tuple[str, str]] = []
        assert self.session.dice is not None
        self.session.dice.asked_first = side
        self.host = Host.start(self.session, bind="127.0.0.1", kept_by=BOTH)
        self.host.desk.away = lambda seat: None          # the other side is away by design: nothing to claim
        self.host.absent = frozenset({other(side)})
        self.host.desk.by_mail = self.path.name
        self.host.desk.share_batch = MAIL_SHARE_BATCH  # an action's numbers in one trip
        try:
            with self.host.lock:
                take_up(self.host.desk, arrived, str(self.path))
        except InputError:
            # A file refused for its waiting action: nothing written, nothing served, no faction left behind.
            self.closed = True
            self.host.stop()
            give_back(added)
            raise
        with self.host.lock:
            if self.added:
                told = "; ".join(self.added)
                self.host.desk.said.setdefault(side, told[:1].upper() + told[1:])
            self._write()
        self.host.after_change = self._write

    @property
    def link(self) -> str:
        return self.host.link(self.side)

    def _write(self) -> None:
        """The file as it stands and what this side remembers of it (under the host's lock)."""
        try:
            waiting = waiting_of(self.host.desk)
            desk = self.host.desk
            asked = desk.take_back
            seen = seen_of(self.session, waiting if waiting is not None and waiting.seat == self.side else None,
                           desk.words_said().get(self.side), bool(desk.words_said()) and desk.limit_said == self.side,
                           asked if asked is not None and asked.asker == self.side else None)
            self.seen_file.parent.mkdir(parents=True, exist_ok=True)
            # What is about to be written is noted first, so a stop between the two writes leaves a file this computer
            # still takes as its own (``arrive``).
            atomic_write_text(self.seen_file, json.dumps({**self.seen, "next": seen}) + "\n", private=True)
            write_mail(self.path, self.session, self.host.desk, self.side,
                       campaign_parts(self.campaign, self.asked, self.made))
            atomic_write_text(self.seen_file, json.dumps(seen) + "\n", private=True)
            self.seen = seen
            self.unsaved = None
        except (OSError, InputError) as e:
            self.unsaved = str(e)

    def upgrade_asker(self) -> Callable[[str, str], str] | None:
        """``ask_upgrade`` for the window's report, when this is a campaign's battle and this computer is the other
        player's (else None: the player on the computer that began it buys in the campaign itself)."""
        try:
            ours = noted_campaign(self.battle, self.folder) is not None
        except InputError:
            ours = True
        return self.ask_upgrade if self.campaign is not None and not ours else None

    def ask_upgrade(self, rating: str, stat: str) -> str:
        """This side's purchase of +1 to ``stat`` at ``rating`` asked in the file, once a campaign's battle is over
        (``mail_campaign.py``): checked by the upgrade rules on the faction the file carries, and written in the file
        at once for the computer that began the battle to buy in the campaign. What to tell the player; a purchase
        refused raises ``InputError`` with the reason, and nothing is asked."""
        with self.host.lock:
            purchase, told = checked_purchase(self.campaign, self.session.over, self.carried, self.factions, self.side,
                                              rating, stat, self.asked, str(self.path))
            self.asked = [*self.asked, purchase]
            self._write()
            if self.unsaved:
                self.asked = self.asked[:-1]
                raise InputError(str(self.path), f"the battle could not be written: {self.unsaved}")
        return told

    def waits_for(self) -> list[tuple[str, str]]:
        """Each side the battle waits for now, and for what (its move, its shares, a square, its cards)."""
        with self.host.lock:
            return waits_for(self.host.desk)

    def close(self) -> None:
        """The turn ends (the window closed): the file written as it stands, the host stopped (once)."""
        if self.closed:
            return
        self.closed = True
        with self.host.lock:
            self._write()
            self.waits = waits_for(self.host.desk)
            if not self.waits and self.session.over and not self.unsaved and self.battle:
                self.recorded = record_in_campaign(self.path, self.session, self.folder, self.battle)
                bought = buy_asked(self.asked, self.side, self.folder, self.battle)
                if bought is not None:
                    # Written back in the file, for the other player to read what came of each purchase asked.
                    self.made, self.asked = (self.made + bought[0])[-MOST_ASKED:], []
                    self.recorded += bought[1]
                    self._write()
        self.host.stop()

    def stop(self) -> None:
        """The window's battle scene ends (it stops the host it was served by): the turn ends, and ``on_stop`` is
        told what the battle waits for, or why the file could not be written."""
        self.close()
        if self.on_stop is not None:
            self.on_stop(f"the battle could not be written: {self.unsaved}" if self.unsaved
                         else "\n".join([waits_text(self.path, self.waits), *self.recorded]))


OWED: Final = "the facing and spot of its units just revealed"


def waits_for(desk: Desk) -> list[tuple[str, str]]:
    """Each side the battle waits for now, and for what: a side's computer first (its dice commitment, its shares, a
    square, its cards), then the side whose move it is, unless the action it took waits for one of those."""
    tb = desk.take_back
    if tb is not None:
        # The side that asked waits for the other side's word before it plays on.
        return [(other(tb.asker), f"its word on side {tb.asker}'s take-back of {tb.what}")]
    asked: list[tuple[str, str]] = []
    moves: list[tuple[str, str]] = []
    acting = desk.session.to_act()
    owing = [side for side in BOTH if side != acting and desk.session.owed_by(side)]
    if owing:
        # Its units just revealed in the other side's turn wait for their owner's facing and spot before the battle
        # goes on (A13, A66); the other side's computer refuses its actions until then (``Desk.owed_by_other``).
        return [(side, OWED) for side in owing]
    for side in BOTH:
        data = desk.screen_data(side)
        words = [words for key, words in HOST_WAITS.items() if data.get(key)]
        if words:
            asked.append((side, words[0]))
        elif data.get("acting") and not data.get("over") and not data.get("dice_asked") \
                and not data.get("contents_asked"):
            # Its move, unless the action it took waits for the other side's part of the dice or a square.
            if data["view"].get("phase") != "end-of-round":
                moves.append((side, "its move"))
            elif desk.to_speak(side):
                moves.append((side, "its word at the end of the round"))
    return asked + moves


def waits_text(path: Path, waits: list[tuple[str, str]] | None = None) -> str:
    """What the battle file at ``path`` waits for, and whom to send it to (``waits``: as the turn left it; else
    worked out from the file, every action resolved again)."""
    if waits is None:
        arrived = arrive(path, "", None, {})
        desk = Desk(arrived.session, BOTH)
        take_up(desk, arrived, str(path))
        waits = waits_for(desk)
        over = bool(desk.screen_data("A").get("over"))
    else:
        over = not waits
    if not waits:
        if not over:
            return f"The battle in {path} waits for nobody."
        text = (f"The battle in {path} is over and scored. Send it to the other side too: each side sees the "
                f"report with seven-seconds mail play {path} --side A (or B).")
        doc = read_mail(path)
        campaign = campaign_of(doc, str(path))
        if campaign is not None:
            text += (f" It is battle {campaign['battle']} of the campaign {campaign['name']}: the computer that began "
                     f"it records it there once it has the file.")
            asked, made = purchases_of(doc, str(path))
            text += "".join(f"\nBought by e-mail, {purchase_words(p)}: {p['told']}" for p in made)
            text += "".join(f"\nAsked by e-mail, {purchase_words(p)}: the computer that began the battle buys it in "
                            f"the campaign when it opens the file (mail play {path} --side A or B, or Join a battle… "
                            f"in the window)" for p in asked)
        return text
    lines = []
    for side, what in waits:
        lines.append(f"The battle waits for side {side}: {what}. Side {side} opens it with Join a battle… in "
                     f"the window, or: seven-seconds mail play {path} --side {side}")
    if len(waits) == 1:
        lines.append(f"Send {path} to side {waits[0][0]}.")
    return "\n".join(lines)
