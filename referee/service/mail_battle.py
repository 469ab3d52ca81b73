"""A battle played by e-mail, as the service keeps it: the battle file's parts that hold the battle, and the
checks a side's computer makes of a file that arrives (``net/mail.py`` carries the file and serves the battle).

The file holds the public battle as a save holds it (``game/records/record.py``), with both sides kept on their own
computers, the action that waits for the other side's computer and the shares it has, and the words said at the end
of the round. Nobody's computer takes the other's file on trust (``arrive``):

* the record must go on from the one this side last wrote (``seen_of``: a digest of each entry): an older file, or a
  past action changed, is refused;
* every action is resolved again here, by the engine, with the shares the record holds: an entry whose dice or
  outcome do not follow is refused;
* this side's own shares in the record must be the ones its contribution gives;
* an action this side left waiting must be the one that was resolved, and its word at the end of a round the one
  the end-of-round action was made of;
* a take-back needs the other side's consent when the action rolled, revealed something or passed the turn
  (``game/play/undo.py``): the ask goes in the file to the other side, whose computer takes the action back if that
  player agrees (the record keeps a note of it in the action's place). The asker's computer takes its own action
  out of what it remembers only for the note of the take-back it asked; a take-back or an ask that this side's
  computer never made or agreed to is refused.

The other side's shares are checked when it opens its contribution at the end (a false share is a breach).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ..game.battle.action_kinds import Kind
from ..game.battle.commit import canonical_json
from ..game.battle.dice import dice_share, is_share
from ..game.battle.sides import SIDES, other
from ..game.play.engine import RecordEntry
from ..game.play.undo import moment_index
from ..game.records.record import _read, dumps_save, save_document, save_from_document
from ..rules.errors import InputError
from ..rules.files import document_kind
from .intents import Action
from .mail_factions import carried_in, missing_here
from .opening import SavedBattle
from .session import BattleSession

MAIL_FORMAT: Final = "seven-seconds-mail"
MAIL_VERSION: Final = 1
BOTH: Final = ("A", "B")
WORDS: Final = ("on", "stop", "withdraw", "allow", "pursue")      # a side's word at the end of a round (p.16)
# Openings of a side's secrets, each checked by the engine against what that side committed to: whoever's computer
# records one, it cannot be made up.
OPENINGS: Final = (Kind.CONTENTS, Kind.DICE_OPENED, Kind.CARDS_OPENED)


def closing(word: str, theirs: str, seat: str, words: dict[str, str]) -> dict[str, Any]:
    """The end-of-round action's arguments that ``seat``'s word and the other side's make (p.16, A43)."""
    if word == "withdraw" and theirs == "withdraw":
        return {"withdraw": "both"}
    if word == "withdraw" or theirs == "withdraw":
        withdrawing = seat if word == "withdraw" else other(seat)
        return {"withdraw": withdrawing, "answer": words[other(withdrawing)]}
    if word == "stop" and theirs == "stop":
        return {"stop": True}
    if "stop" in (word, theirs):          # one offered to stop, the other plays on: the log says so
        return {"offered": seat if word == "stop" else other(seat)}
    return {}


def battle_document(session: BattleSession) -> dict[str, Any]:
    """The battle as the file holds it (a save's document: no secret, since both sides keep theirs)."""
    return save_document(session.game, session.dice)


def mail_text(doc: dict[str, Any]) -> str:
    """A battle file's text: each part of the file on a line of its own, and the battle as a save writes it (one line
    an action). The file is written after every change: a long battle's file is written in half the time that
    indenting every value took, and two files still compare line by line."""
    parts = []
    for key, value in doc.items():
        if key == "battle":
            text = dumps_save(value).rstrip("\n").replace("\n", "\n ")
        else:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        parts.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def seen_of(session: BattleSession, waiting: "Waiting | None", word: str | None, limit: bool = False,
            asked: "TakeBack | None" = None) -> dict[str, Any]:
    """What this side's computer remembers of the file it writes: the first state's digest (its dice commitments
    apart, since each side adds its own before the first die), the commitments, a digest of each action, the action
    of its own left waiting, its word at this end of round, whether it said its own mission's round limit, and the
    take-back it asked of the other side."""
    initial = session.game.initial.to_data()
    return {"commitments": dict(initial.pop("dice_commitments", None) or {}), "initial": digest(initial),
            "entries": [digest(e.to_data()) for e in session.game.record],
            "waiting": waiting.to_data() if waiting is not None else None, "word": word, "limit": limit,
            "take_back": asked.to_data() if asked is not None else None}


def waiting_action(waiting: "Waiting") -> Action:
    return Action.from_data(waiting.action)


def digest(data: object) -> str:
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Waiting:
    """An action taken by ``seat`` that waits for the other side's computer (its shares, or a square it opens)."""

    seat: str
    action: dict[str, Any]
    given: list[float]

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action, "given": list(self.given)}

    @staticmethod
    def from_data(data: object, source: str) -> "Waiting | None":
        if data is None:
            return None
        if not isinstance(data, dict) or data.get("seat") not in SIDES or not isinstance(data.get("action"), dict) \
                or not isinstance(data.get("given", []), list):
            raise InputError(source, "waiting: expected the seat (A or B), the action and the dice given")
        try:
            Action.from_data(data["action"])
            given = [float(x) for x in data.get("given", [])]
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(source, f"waiting: the action cannot be read ({type(e).__name__}: {e})") from None
        return Waiting(str(data["seat"]), dict(data["action"]), given)


@dataclass(frozen=True)
class TakeBack:
    """A take-back asked by ``asker`` that needs the other side's consent (``game/play/undo.py``): of ``what`` (the
    action as the command line writes it), why it needs consent, and the record's length when it was asked (a battle
    by e-mail carries the ask, or its refusal, in its file)."""

    asker: str
    what: str
    why: str
    at: int

    def to_data(self) -> dict[str, Any]:
        return {"asker": self.asker, "what": self.what, "at": self.at, "why": self.why}

    @staticmethod
    def from_data(data: object, source: str, part: str) -> "TakeBack | None":
        if data is None:
            return None
        if not isinstance(data, dict) or data.get("asker") not in SIDES or not isinstance(data.get("what"), str) \
                or not isinstance(data.get("at"), int) or isinstance(data.get("at"), bool) or data["at"] < 1 \
                or not isinstance(data.get("why", ""), str):
            raise InputError(source, f"{part}: expected the side that asked (A or B), the action it asked to take "
                                     f"back, the number of actions the record held then and why it needs consent")
        return TakeBack(str(data["asker"]), str(data["what"]), str(data.get("why", "")), int(data["at"]))

    def noted_by(self, entry: object) -> bool:
        """``entry`` is the record's note of this take-back, agreed by the other side (``undo.take_back``)."""
        action = entry.get("action") if isinstance(entry, dict) else None
        if not isinstance(action, dict) or not isinstance(action.get("args"), dict):
            return False
        args = action["args"]
        return action.get("kind") == Kind.TAKEN_BACK and args.get("side") == self.asker \
            and args.get("what") == self.what and args.get("consent") == other(self.asker) \
            and args.get("why") == self.why


def is_mail_file(path: Path) -> bool:
    """Whether the file at ``path`` is a battle played by e-mail (by its format; a file that cannot be read is not,
    and is left to the reader of saves to name what is wrong with it)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and document_kind(data) == "mail"


def read_mail(path: Path) -> dict[str, Any]:
    doc = _read(path)
    if doc.get("format") != MAIL_FORMAT or not isinstance(doc.get("battle"), dict):
        raise InputError(str(path), f"format: expected a battle played by e-mail ({MAIL_FORMAT!r})")
    if doc.get("version") != MAIL_VERSION:
        raise InputError(str(path), f"version: expected {MAIL_VERSION} (got {doc.get('version')!r}); a newer "
                                    f"program wrote it")
    kept = (doc["battle"].get("dice") or {}).get("kept")
    if sorted(kept or ()) != list(BOTH):
        raise InputError(str(path), "battle.dice.kept: expected both sides to keep their secrets on their computers")
    return doc


def _entry_problem(side: str, value: str | None, entry: RecordEntry, moment: str) -> str:
    """Why ``side``'s own shares in ``entry`` are not the ones its contribution gives, or ""."""
    shares = entry.shares.get(side, [])
    if not shares or value is None:
        return ""
    if any(share != dice_share(side, value, moment, n) for n, share in enumerate(shares)):
        return f"side {side}'s dice shares in it are not the ones side {side}'s computer sent"
    return ""


@dataclass(frozen=True)
class Arrived:
    """A battle file as this side's computer took it: the battle resolved here, the action waiting for a side's
    computer, and the words said at this end of round (and which side said its own mission's round limit)."""

    session: BattleSession
    waiting: Waiting | None
    words: dict[str, str]
    limit_said: str | None
    take_back: TakeBack | None = None          # a take-back asked of the other side, waiting for its consent
    refused: TakeBack | None = None            # this side's take-back, which the other side did not agree to


def _words_of(doc: dict[str, Any], source: str) -> tuple[dict[str, str], str | None]:
    words = doc.get("words") or {}
    if not isinstance(words, dict) or any(k not in SIDES or v not in WORDS for k, v in words.items()):
        raise InputError(source, f"words: expected each side's word at the end of the round, one of "
                                 f"{', '.join(WORDS)}")
    limit = doc.get("limit_said")
    if limit not in (None, *SIDES):
        raise InputError(source, "limit_said: expected A, B or nothing")
    return {str(k): str(v) for k, v in words.items()}, limit


def _closes_with(args: dict[str, Any], side: str, word: str) -> bool:
    """The end-of-round action's arguments follow from ``side``'s word and some word of the other side."""
    wanted = {k: v for k, v in args.items() if k != "limit"}
    return any(closing(word, theirs, side, {side: word, other(side): theirs}) == wanted for theirs in WORDS)


def acting_side(session: BattleSession, action: Action) -> str | None:
    """The side whose decision ``action`` is: a unit's facing and spot just after its reveal are its owner's, in either
    side's turn (A13, A66); any other action is the side's the battle waits for."""
    if action.kind == Kind.FACE:
        unit = session.unit_at(action.actor)
        return None if unit is None else unit[3]
    return session.to_act()


def arrive(path: Path, side: str, value: str | None, seen: dict[str, Any]) -> Arrived:
    """The battle of the file at ``path`` as ``side``'s computer takes it (``value``: its dice contribution, None
    when it has none yet; ``seen``: what it remembers of the file it last wrote, ``seen_of``): every check of the
    module note, then the battle resolved again here, action by action. Raises ``InputError`` naming what does not
    hold."""
    doc = read_mail(path)
    source = str(path)
    # Every action is resolved again with this computer's factions: they must be the ones the battle is fought with.
    missing_here(carried_in(doc, source), source)
    battle = dict(doc["battle"])
    raw = list(battle.get("record") or [])
    after = seen.get("next")
    if isinstance(after, dict) and [digest(e) for e in raw] == after.get("entries"):
        # The very file this computer was writing when it last stopped (it notes what it writes before it writes
        # it): taken as its own, whether or not the note of it written after was.
        seen = after
    entries_seen = [str(d) for d in seen.get("entries") or []]
    own_ask = TakeBack.from_data(seen.get("take_back"), source, "take_back") if side in SIDES else None
    if own_ask is not None and own_ask.at == len(entries_seen) <= len(raw) and own_ask.noted_by(raw[own_ask.at - 1]):
        # The other side agreed, on its computer, to the take-back this side asked: the action asked about is out of
        # the record, its note in its place.
        entries_seen[own_ask.at - 1] = digest(raw[own_ask.at - 1])
        own_ask = None
    initial = dict(battle.get("initial") or {})
    commitments = dict(initial.pop("dice_commitments", None) or {})
    if seen.get("initial") is not None and seen["initial"] != digest(initial):
        raise InputError(source, "battle.initial: this is not the battle this computer last wrote, or its first "
                                 "state was changed")
    for who, committed in (seen.get("commitments") or {}).items():
        # A side's commitment to its dice contribution is written once, before the first die, and never changes.
        if commitments.get(who) != committed:
            raise InputError(source, f"battle.initial.dice_commitments.{who}: changed since this computer last "
                                     f"wrote the file")
    if len(raw) < len(entries_seen):
        raise InputError(source, f"an older file than the one this computer last wrote: it holds {len(raw)} "
                                 f"actions, the battle had {len(entries_seen)} (ask for the newest file)")
    for n, (entry, written) in enumerate(zip(raw, entries_seen)):
        if digest(entry) != written:
            raise InputError(source, f"battle.record[{n}]: this action differs from the one this computer last wrote "
                                     f"there: the file was changed")
    # The actions this computer wrote itself are replayed as any save is, with their recorded dice; those that
    # came since are resolved again below.
    known = len(entries_seen)
    battle["record"] = raw[:known]
    battle.pop("state_digest", None)
    battle.pop("seals", None)
    save = save_from_document(battle, path)
    tampered = [w for w in save.warnings if w.startswith("TAMPERED")]
    if tampered:
        # The seed not the one committed to at set-up: every die of the battle would be another.
        raise InputError(source, tampered)
    session = SavedBattle(save).open(served=True)
    session.autosaving = False
    session.hotseat = False
    dice = session.dice
    assert dice is not None
    left_waiting = Waiting.from_data(seen.get("waiting"), str(path))
    matched = left_waiting is None
    word = seen.get("word")
    word_heard = False
    for n, data in enumerate(raw[known:], start=known):
        try:
            entry = RecordEntry.from_data(data)
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(source, f"battle.record[{n}]: cannot be read ({type(e).__name__}: {e})") from None
        moment = f"action {moment_index(session.game)}|{canonical_json(entry.action.to_data())}"
        problem = _entry_problem(side, value, entry, moment)
        if problem:
            raise InputError(source, f"battle.record[{n}] ({entry.action.text()}): {problem}")
        kind = entry.action.kind
        if side in SIDES and kind == Kind.TAKEN_BACK:
            # Every take-back that needs a note needs both sides, and this side's part (its ask, or its consent) was
            # made on its own computer, in a file it wrote.
            raise InputError(source, f"battle.record[{n}] ({entry.action.text()}): a take-back side {side}'s "
                                     f"computer never asked for or agreed to: the file was changed")
        if side in SIDES and kind not in OPENINGS:
            if not matched:
                if not _same_action(entry.action.to_data(), left_waiting.action if left_waiting else {}):
                    raise InputError(source, f"battle.record[{n}] ({entry.action.text()}): not the action this "
                                             f"side left waiting for the other side's computer: the file was "
                                             f"changed")
                matched = True
                # An end of round whose roll waited for the other side's part: made here, of both sides' words.
                word_heard = word_heard or kind == Kind.END_OF_ROUND
            elif kind == Kind.END_OF_ROUND:
                if word_heard or not _closes_with(dict(entry.action.args), side, str(word)):
                    raise InputError(source, f"battle.record[{n}] ({entry.action.text()}): not what side {side}'s "
                                             f"word at the end of the round ({word or 'none said'}) makes: the file "
                                             f"was changed")
                word_heard = True
            elif acting_side(session, entry.action) == side:
                # Every action of this side since its last file went out is in that file: another was made for it
                # on the other side's computer.
                raise InputError(source, f"battle.record[{n}] ({entry.action.text()}): an action of side {side} "
                                         f"that side {side}'s computer never sent: the file was changed")
        dice.shares = {s: {moment: list(v)} for s, v in entry.shares.items()}
        try:
            attempt = session.attempt(entry.action)
        except (InputError, LookupError, TypeError, ValueError) as e:
            why = e.message() if isinstance(e, InputError) else f"{type(e).__name__}: {e}"
            raise InputError(source, f"battle.record[{n}] ({entry.action.text()}): cannot be resolved ({why}); the "
                                     f"file was changed") from None
        outcome = attempt.outcome
        if outcome is None or not outcome.legal or session.game.record[-1].to_data() != data:
            why = outcome.reason if outcome is not None and not outcome.legal else \
                "its dice or its outcome do not follow from the battle and the shares recorded"
            raise InputError(source, f"battle.record[{n}] ({entry.action.text()}): {why}; the file was changed")
    dice.forget_shares()
    waiting = Waiting.from_data(doc.get("waiting"), source)
    if not matched and (waiting is None or not _same_action(waiting.action, left_waiting.action if left_waiting
                                                            else {})):
        raise InputError(source, "waiting: the action this side left waiting for the other side's computer is gone: "
                                 "the file was changed")
    if side in SIDES and waiting is not None and waiting.seat == side and matched:
        # This side's action waiting in the file, but none of its own left waiting (or that one already resolved):
        # made for it on the other side's computer.
        raise InputError(source, f"waiting: an action of side {side} that side {side}'s computer never sent: the "
                                 f"file was changed")
    words, limit = _words_of(doc, source)
    # The other side's Withdraw announced after this side's word puts that word aside: this side answers it (p.16).
    set_aside = words.get(side) is None and word in ("on", "stop") and words.get(other(side)) == "withdraw"
    if side in SIDES and not word_heard and words.get(side) != word and not set_aside:
        raise InputError(source, f"words: side {side}'s word at the end of the round was {word or 'not said'}, not "
                                 f"{words.get(side) or 'none'}: the file was changed")
    if side in SIDES and not word_heard and (limit == side) != bool(seen.get("limit")):
        raise InputError(source, f"limit_said: side {side} did not say so of its own mission's round limit: the file "
                                 f"was changed")
    if waiting is not None:
        shares = doc.get("shares") or {}
        if not isinstance(shares, dict) or any(
                not isinstance(moments, dict) or any(not isinstance(v, list) or not all(is_share(x) for x in v)
                                                     for v in moments.values()) for moments in shares.values()):
            raise InputError(source, "shares: expected each side's shares of the waiting action, 16 hex digits each")
        # This side's own shares are never taken from a file: its computer sends them again.
        dice.shares = {s: {str(m): [str(x) for x in v] for m, v in moments.items()}
                       for s, moments in shares.items() if s in SIDES and s != side and isinstance(moments, dict)}
    asked = TakeBack.from_data(doc.get("take_back"), source, "take_back")
    refused = TakeBack.from_data(doc.get("take_back_refused"), source, "take_back_refused")
    if side in SIDES and asked is not None and asked.asker == side and asked != own_ask:
        raise InputError(source, f"take_back: a take-back side {side}'s computer never asked for: the file was "
                                 f"changed")
    if refused is not None and refused.asker == side and refused != own_ask:
        refused = None              # said to the side that asked only of the take-back it asked (the other carries it)
    return Arrived(session, waiting, words, limit, asked, refused)


def _same_action(recorded: dict[str, Any], sent: dict[str, Any]) -> bool:
    """The action recorded is the one sent (the engine may record more arguments than were sent, never others)."""
    args = recorded.get("args") or {}
    return recorded.get("kind") == sent.get("kind") and recorded.get("actor", "") == sent.get("actor", "") and all(
        args.get(k) == v for k, v in (sent.get("args") or {}).items())


