"""Taking an action back, fairly: only the side to act's own last action, within its own turn.

An action that rolled dice or revealed anything (a blip turned over, by the action itself or by a passive sensor
after a move) has shown the acting player something they could not know before. Taking it back is allowed only
with the other player's consent, and the take-back is logged publicly and kept in the record (a ``taken-back``
entry), so a save shows it too. With the program's dice the same action at the same point rolls the same dice again
(``dice.py``: the dice are keyed by the action and its place among the battle's actions), so Undo never re-rolls.

Across a hand-off (a side ended its turn and the screen went to the other player, who has not acted yet) the side
that ended the turn may take that back only with the other player's consent, since the other player now holds the
screen. Nothing is taken back once the other side has acted, at the end of a round, nor once the battle is over. A refereed game (the program follows a physical table) takes back its last action without consent, even one
that passed the turn: both players saw the dice on the table, and Undo there corrects a typing slip.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..battle.action_kinds import Kind
from ..battle.intents import Action
from .engine import Game, RecordEntry, play
from ..battle.dice import ScriptedDice
from ..battle.state import other
from .turns import TAKE_BACK_RULE

TAKEN_BACK = Kind.TAKEN_BACK
RULE = TAKE_BACK_RULE


@dataclass(frozen=True)
class UndoCheck:
    allowed: bool
    reason: str = ""
    what: str = ""                  # the action that would be taken back, as the command line writes it
    needs_consent: bool = False     # it rolled dice, revealed something or passed the turn: the other side must agree
    why_consent: str = ""
    side: str = ""                  # the side whose action would be taken back


# Entries that are no place of their own among the battle's actions: a take-back, and a square opened by the side
# that keeps it (``commit.py``) or told by a refereed game's owner, which belongs to the action that revealed it.
NOT_PLACES = frozenset({TAKEN_BACK, Kind.CONTENTS})


def moment_index(game: Game) -> int:
    """The place of the next action among the battle's actions, take-backs and openings not counted: an action taken
    back and taken again stands at the same place, so it gets the same program dice; so does an action tried again
    once the square it reveals was opened (the dice that bought the counters revealing it are the dice it keeps: a
    roll that decided to open a square is never rolled again, and no square is opened for a roll that did not)."""
    record = game.record
    n, last, count = game.counted
    if n > len(record) or (n and record[n - 1] is not last):        # taken back or rebuilt since: count afresh
        n, count = 0, 0
    count += sum(1 for e in record[n:] if e.action.kind not in NOT_PLACES)
    game.counted = (len(record), record[-1] if record else None, count)
    return count + 1


def check_undo(game: Game, side: str) -> UndoCheck:
    """May ``side`` take back the last action now, and does it need the other player's consent?"""
    s = game.state
    if s.phase == "over":
        return UndoCheck(False, f"the battle is over: nothing is taken back once it has ended [{RULE}]")
    if not game.record:
        return UndoCheck(False, "nothing to undo: the battle is as set-up left it")
    last = game.record[-1]
    what = last.action.text()
    if last.action.kind == TAKEN_BACK:
        return UndoCheck(False, f"the last entry is already a take-back agreed by both players [{RULE}]")
    if game.refereed:
        return UndoCheck(True, "", what, side=side)
    if s.phase != "action" or s.turn is None:
        return UndoCheck(False, f"only an action of the turn in progress can be taken back (now: "
                                f"{s.phase.replace('-', ' ')}) [{RULE}]", what)
    if last.action.kind == Kind.FACE and game.state.side_of(last.action.actor) != side:
        return UndoCheck(False, f"{what!r} was the other player's decision: nothing is taken back across a "
                                f"hand-off [{RULE}]", what)
    if last.action.kind in (Kind.END_OF_ROUND, Kind.OBJECTIVES):
        return UndoCheck(False, f"{what!r} ended the round: nothing is taken back across a round [{RULE}]", what)
    before = game.before_last()
    if before.phase != "action" or before.turn is None or before.turn.player != side or before.round != s.round:
        words = (f"only the side to act (side {s.turn.player}) may take back its own last action" if s.turn.player != side
                 else f"{what!r} was not side {side}'s action in this turn")
        return UndoCheck(False, f"{words}: nothing is taken back across a hand-off without the other side's consent "
                                f"[{RULE}]", what)
    handed_off = s.turn.player != side         # the action passed the turn, and the other side has not acted yet
    rolled = [r for r in last.rolls if r.kind in ("d6", "bearing")]
    turned = sorted(set(before.blips) - set(s.blips))
    reasons = []
    if handed_off:
        reasons.append(f"it passed the turn to side {s.turn.player}, across a hand-off")
    if rolled:
        reasons.append(f"it rolled {len(rolled)} {'die' if len(rolled) == 1 else 'dice'}")
    if before.pool is not None and s.pool is None:
        reasons.append("it spent a sensor pool rolled before it")
    if turned:
        reasons.append(f"it revealed {len(turned)} blip{'s' if len(turned) != 1 else ''}")
    needs = bool(reasons) and not game.refereed
    return UndoCheck(True, "", what, needs, " and ".join(reasons), side)


def take_back(game: Game, side: str, consent: bool = False) -> UndoCheck:
    """Take back ``side``'s last action (``game`` changed in place). Refused (returned, nothing changed) when
    ``check_undo`` refuses, or when consent is needed and not given. With consent the take-back is logged for both
    players and kept in the record."""
    check = check_undo(game, side)
    if not check.allowed:
        return check
    if check.needs_consent and not consent:
        return UndoCheck(False, f"{check.what!r} {check.why_consent}: side {other(side)} must agree to take it back "
                                f"[{RULE}]", check.what, True, check.why_consent)
    game.state = game.rebuild(len(game.record) - 1)
    del game.record[-1]
    if check.needs_consent:
        note = Action(TAKEN_BACK, "", {"side": side, "what": check.what, "consent": other(side),
                                       "why": check.why_consent})
        outcome = play(game.state, note, ScriptedDice())
        if not outcome.legal:
            raise ValueError(f"the take-back could not be logged: {outcome.reason}")
        game.state = outcome.state
        game.record.append(RecordEntry(note, []))
    return check
