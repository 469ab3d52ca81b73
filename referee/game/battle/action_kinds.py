"""Every kind of action, named once: the closed set of what a battle's record may hold (``docs/actions.md``).

``Kind`` names each kind: ``Kind.MOVE`` is the word a save records (``"move"``, ``"end-of-round"``), a plain string
wherever a kind is compared, looked up or written (an ``enum`` member would cost its attribute look-up and its
comparison in the engine's hottest loops, and would have to be turned back into the word for every file).
``KINDS`` holds one entry per kind: its part of the battle (set-up, the turn, a unit's activation, a correction, the
record's own note), its arguments with the values each may take, the words that head it in the log, and its button
and key in the window's action bar (or why the window has no button for it). The engine's side of each kind, its
check and its resolution, is ``action_table.RULES``, held to this set by ``tests/test_action_kinds.py``; a kind's
name is spelled nowhere else in the program, which that test also checks.

Each argument's type and range are what a save's record is checked against before it is replayed (``record.py``):
the registry is the one list of the arguments the engine reads, and ``arg_problem`` says what a value should be.
``tests/test_record_args.py`` replays battles with the arguments watched and holds the registry to what the engine
reads of them.

This module holds no battle state and imports nothing of the battle: the window and the command line read it.
"""

from __future__ import annotations

import math
from typing import Final, Literal, NamedTuple

from ...rules.pieces import LIMIT, MAX_COUNTERS, MAX_VERTICES, SQUARES


class Kind:
    """The word of every kind of action, one constant each."""

    # The Action Table (p.17): what a unit does in its activation.
    MOVE: Final = "move"
    JUMP: Final = "jump"
    TARGET: Final = "target"
    SENSOR_POOL: Final = "sensor-pool"
    RIFLE: Final = "rifle"
    MISSILE: Final = "missile"
    FLAMER: Final = "flamer"
    KAMIKAZE: Final = "kamikaze"
    COMMAND: Final = "command"
    REPAIR: Final = "repair"
    SCRAMBLE: Final = "scramble"
    JAMMER: Final = "jammer"
    # The turn (p.16).
    ACTIVATE: Final = "activate"
    REVEAL: Final = "reveal"
    FACE: Final = "face"
    END_ACTIVATION: Final = "end-activation"
    END_TURN: Final = "end-turn"
    END_OF_ROUND: Final = "end-of-round"
    OBJECTIVES: Final = "objectives"
    TAKEN_BACK: Final = "taken-back"
    # A physical game's corrections (referee mode).
    CORRECT: Final = "correct"
    CONTENTS: Final = "contents"
    MISSION: Final = "mission"
    FORFEIT: Final = "forfeit"
    DICE_OPENED: Final = "dice-opened"
    CARDS_OPENED: Final = "cards-opened"
    # Set-up (p.~14-15, A60), in the order it comes.
    ROLL_ROLES: Final = "roll-roles"
    CHOOSE_EDGE: Final = "choose-edge"
    PLACE_OBJECTIVE: Final = "place-objective"
    DRAW_CARDS: Final = "draw-cards"
    CHOOSE_CARDS: Final = "choose-cards"
    FILL_HOLDING: Final = "fill-holding"
    PLACE_BLIP: Final = "place-blip"
    PLACE_BLIPS: Final = "place-blips"


Part = Literal["unit", "turn", "correction", "set-up"]
ArgType = Literal["inches", "degrees", "count", "id", "flag", "choice", "point", "points", "assignment", "cards",
                  "squares", "units", "fields", "text"]


class Arg(NamedTuple):
    """One argument of an action: its name in the save, what it holds and the values it may take. (The registry's
    entries are named tuples: plain values, and cheaper than dataclasses for every start that reads the registry.)

    ``low`` and ``high`` bound a number (inches, degrees, a count, a square), the entries of an assignment, or the
    length of a list or text; ``choices`` are the only values a choice or a flag may take. These are the bounds a
    save's record is checked against; the battle's own (a unit's Sensors, the table's width) are the engine's. A name
    in angle brackets (``<objective>``) stands for any key: the battle names them (its objectives)."""

    name: str
    type: ArgType
    values: str                     # the range or the choices, in words (``legal_actions`` gives them exactly)
    required: bool = False
    low: float | None = None
    high: float | None = None
    choices: tuple[object, ...] = ()
    null: bool = False              # null is read as the argument left out
    any_case: bool = False          # a choice read in any case ("Secured")

    @property
    def any_key(self) -> bool:
        return self.name.startswith("<")


class Button(NamedTuple):
    """A button of the window's action bar and the key that presses it (``name``: the kind, or a variant of it)."""

    name: str
    label: str
    tip: str
    key: str = ""                   # the letter that presses it ("" : the button only)
    place: int = 0                  # its place in the bar, row by row


class KindEntry(NamedTuple):
    kind: str                       # a ``Kind``
    part: Part
    rule: str                       # the page or ruling the kind comes from
    args: tuple[Arg, ...]
    does: str                       # what it does, in a few words
    verb: str = ""                  # the verb heading its result in the log ("" : the command line's form)
    buttons: tuple[Button, ...] = ()
    no_button: str = ""             # why the window's bar has no button for it


_XY = (Arg("x", "inches", "across the table, 0 to its width", True),
       Arg("y", "inches", "from side A's edge, 0 to the table's depth", True))
_VIA = Arg("via", "points", "waypoints [[x, y], ...] before the end point", high=100)
_TARGET = Arg("target", "id", "a piece the engine accepts as the target (legal_actions lists each)", True)
_FACING = Arg("facing", "degrees", "0 to 360, counter-clockwise from +x")
_SIDES = ("A", "B")
_DICE = 100                         # more sensor dice than any unit's Sensors
_DRONES = 100                       # more drones of a type than any purchase
_TEXT = 2000                        # characters of a take-back's words
_DRAWN = "drawn on the table with the mouse, no button"

KINDS: Final[dict[str, KindEntry]] = {e.kind: e for e in (
    KindEntry(Kind.MOVE, "unit", "p.18", (*_XY, _VIA), "move up to 6\" of path", "Move",
              no_button="a Move is " + _DRAWN),
    KindEntry(Kind.JUMP, "unit", "p.18, A39", _XY, "jump up to 9\" in a straight line", "Jump",
              no_button="a Jump is " + _DRAWN),
    KindEntry(Kind.TARGET, "unit", "p.19, A17, A54",
              (Arg("dice", "count", "1 to the unit's Sensors (Recce drones: Robotics)", True, 1, _DICE),
               Arg("assign", "assignment", "{id or \"x,y\": counters}", high=MAX_COUNTERS),
               Arg("up_to", "flag", "the counters named are bought in order as far as the pool pays")),
              "roll sensor dice and place Target counters", "Target with",
              (Button(Kind.TARGET, "Target", "T: roll sensor dice and place Target counters [p.19]", "t", 3),)),
    KindEntry(Kind.RIFLE, "unit", "p.20", (_TARGET,), "fire the rifle", "Rifle",
              (Button(Kind.RIFLE, "Rifle", "G: fire the rifle at a unit with Target counters [p.20]", "g", 4),)),
    KindEntry(Kind.MISSILE, "unit", "p.21, A28, A54", (_TARGET,), "fire a missile", "Missile",
              (Button(Kind.MISSILE, "Missile", "I: fire a missile at a unit or objective with Target counters [p.21]",
                      "i", 5),)),
    KindEntry(Kind.FLAMER, "unit", "p.22, A36", _XY, "lay the flamer's 5\" smoke", "Flamer",
              (Button(Kind.FLAMER, "Flamer", "L: place the 5\" smoke within 6\" in the arc [p.22, A36]", "l", 6),)),
    KindEntry(Kind.KAMIKAZE, "unit", "p.34, A34, A35",
              (*_XY, _VIA, Arg("jump", "flag", "jump there instead of moving"),
               Arg("target", "id", "the unit or objective it means to hit", null=True)),
              "move or jump and explode", "Kamikaze",
              (Button(Kind.KAMIKAZE, "Kamikaze", "K: move or jump and explode [p.34, A34, A35]", "k", 7),)),
    KindEntry(Kind.COMMAND, "unit", "p.22", (_TARGET,), "give a friendly unit a new activation counter", "Command",
              (Button(Kind.COMMAND, "Command", "C: give a friendly unit a new activation counter [p.22]", "c", 8),)),
    KindEntry(Kind.REPAIR, "unit", "p.22",
              (Arg("target", "id", "a Damaged friendly trooper it touches (left out: the Engineer itself)", null=True),),
              "remove Damaged from a touching friendly trooper", "Repair",
              (Button(Kind.REPAIR, "Repair", "P: remove Damaged from a touching friendly trooper [p.22]", "p", 9),)),
    KindEntry(Kind.SCRAMBLE, "unit", "p.22, A23, A59",
              (Arg("square", "choice", "an empty holding-area square, 1 to 16 (left out: drawn in secret)",
                   low=1, high=SQUARES),
               Arg("legacy", "flag", "a Scramble of a format-1 save, replayed as it was played", choices=(True,)),
               Arg("committed", "fields", "{square: SHA-256} for each of the 3 squares the Scramble fills, kept on the "
                                          "owner's own computer (commit.py)"),
               Arg("blips_committed", "fields", "{corner 1-3: SHA-256}: the square each new counter stands for, kept "
                                                "on the owner's own computer")),
              "back to the holding area; 3 blips take its place", "Scramble",
              (Button(Kind.SCRAMBLE, "Scramble", "back to the holding area; 3 blips take its place [p.22, A23]",
                      "", 10),)),
    KindEntry(Kind.JAMMER, "unit", "p.34, A37", (), "switch the jamming field on or off", "Jammer",
              (Button(Kind.JAMMER, "Jammer", "switch the 3\" jamming field on or off [p.34, A37]", "", 11),)),
    KindEntry(Kind.ACTIVATE, "turn", "p.16, A21", (Arg("extra", "flag", "one of the turn's 3 extra blip activations"),),
              "start a unit's or blip's activation", "Activate",
              (Button(Kind.ACTIVATE, "Activate", "A: start the selected unit's or blip's activation [p.16]", "a", 0),
               Button("extra", "Extra blip", "X: one of the turn's 3 extra blip activations, Move only [p.16, A21]",
                      "x", 1))),
    KindEntry(Kind.REVEAL, "turn", "p.17, A19", (_FACING,), "reveal the activated blip", "Reveal",
              (Button(Kind.REVEAL, "Reveal", "V: reveal the activated blip [p.17, A19]", "v", 2),)),
    KindEntry(Kind.FACE, "turn", "A13, A66", (_FACING, Arg("x", "inches", "where a second unit of the square stands"),
                                              Arg("y", "inches", "where a second unit of the square stands")),
              "face (or place) a trooper just revealed", "Face",
              no_button="asked by a question after the reveal that needs it"),
    KindEntry(Kind.END_ACTIVATION, "turn", "p.16",
              (Arg("all", "flag", "also skip the revealed units still waiting to act"),),
              "give up the rest of the activation",
              buttons=(Button(Kind.END_ACTIVATION, "End activ.", "Q: give up the rest of this activation [p.16]",
                              "q", 12),)),
    KindEntry(Kind.END_TURN, "turn", "p.16, A22", (), "end the turn (without an activation: a pass)",
              buttons=(Button(Kind.END_TURN, "End turn", "N: end the turn (without an activation: a pass) "
                              "[p.16, A22]", "n", 13),)),
    KindEntry(Kind.END_OF_ROUND, "turn", "p.16, A43",
              (Arg("withdraw", "choice", "\"A\", \"B\" or \"both\"", choices=(*_SIDES, "both")),
               Arg("answer", "choice", "\"allow\" or \"pursue\"", choices=("allow", "pursue")),
               Arg("stop", "flag", "both players agree to stop"),
               Arg("offered", "choice", "the side whose offer to stop the other declined", choices=_SIDES),
               Arg("limit", "choice", "the side, its cards kept on its own computer, whose own mission's round limit "
                                      "is reached (A43)", choices=_SIDES)),
              "close the round: Withdraw, stop, or the next round's Initiative",
              no_button="asked by the end-of-round question"),
    KindEntry(Kind.SENSOR_POOL, "turn", "p.19", (Arg("dice", "count", "1 to the unit's Sensors", True, 1, _DICE),),
              "roll a Target's sensor pool, recorded before its counters are placed", "Sensor pool",
              no_button="rolled by the Target tool (T) before its counters are placed"),
    KindEntry(Kind.OBJECTIVES, "turn", "p.16, A41",
              (Arg("<objective>", "choice", "\"secured\", \"destroyed\" or \"inspected\"",
                   choices=("secured", "destroyed", "inspected"), any_case=True),),
              "the attacker says what became of each objective", no_button="asked by the end-of-battle question"),
    KindEntry(Kind.TAKEN_BACK, "turn", "fair Undo",
              (Arg("side", "choice", "\"A\" or \"B\"", True, choices=_SIDES),
               Arg("consent", "choice", "\"A\" or \"B\", the other side", True, choices=_SIDES),
               Arg("what", "text", "the action taken back", True, high=_TEXT),
               Arg("why", "text", "the reason given", high=_TEXT)),
              "the record's note of a take-back, with the other player's consent",
              no_button="written by Undo (Ctrl+Z) with the other player's consent, never chosen"),
    KindEntry(Kind.CORRECT, "correction", "referee mode",
              (Arg("x", "inches", "where the piece now stands"), Arg("y", "inches", "where the piece now stands"),
               Arg("facing", "degrees", "its facing now"),
               Arg("target_counters", "count", "its Target counters now", low=0, high=MAX_COUNTERS),
               Arg("damaged", "flag", "Damaged now"), Arg("stunned", "flag", "Stunned now"),
               Arg("activation", "flag", "holds its activation counter now"),
               Arg("move", "point", "a terrain piece moved by [dx, dy] inches"),
               Arg("turn", "degrees", "a terrain piece turned counter-clockwise about its centre"),
               Arg("polygon", "points", "a terrain piece's corners now", high=MAX_VERTICES),
               Arg("circle", "fields", "a terrain piece's circle now: {x, y, r}"),
               Arg("add", "fields", "a piece the program never saw"), Arg("remove", "flag", "the piece is gone")),
              "set a piece as it now stands on the physical table",
              no_button="made by the referee's corrections tool"),
    KindEntry(Kind.CONTENTS, "correction", "p.15, p.17",
              (Arg("contents", "units", "up to 2 units {faction, rating, type}; empty: a decoy", True, high=2),
               Arg("salt", "text", "the salt of the square's commitment (a side kept on its own computer)", high=64),
               Arg("square", "choice", "the square the counter stands for, as committed (a side kept on its own "
                                       "computer)", low=1, high=SQUARES),
               Arg("square_salt", "text", "the salt of the counter's commitment to its square", high=64)),
              "the owner says what a blip holds, before its reveal", no_button="asked when a blip is revealed"),
    KindEntry(Kind.MISSION, "correction", "p.~14",
              (Arg("mission", "cards", "a mission card id", True), Arg("troop", "cards", "a troop card id", null=True),
               Arg("drone", "cards", "a drone card id", null=True)),
              "a player enters the mission card it plays", no_button="entered in the referee's missions dialog"),
    KindEntry(Kind.FORFEIT, "correction", "p.~14", (),
              "a side kept on its own computer forfeits: its computer stayed away while the battle waited for it to "
              "open a square, and the other side claimed the battle",
              no_button="claimed by the other side's seat on the host (docs/network.md)"),
    KindEntry(Kind.DICE_OPENED, "correction", "p.~14",
              (Arg("value", "text", "the side's dice contribution, 64 hex digits", True, high=64),
               Arg("salt", "text", "the salt of its commitment, 32 hex digits", True, high=32),
               Arg("false_shares", "text", "the record entries (their numbers, comma-separated) whose shares do not "
                                           "follow from it, as the host checked them", high=100_000)),
              "a side kept on its own computer opens its dice contribution at the end of the battle",
              no_button="sent by that side's computer when the battle is over (docs/network.md)"),
    KindEntry(Kind.CARDS_OPENED, "correction", "p.~14",
              (Arg("mission", "text", "the mission card it played", True, high=80),
               Arg("troop", "text", "the troop card it played", True, high=80),
               Arg("drone", "text", "the drone card it drew", True, high=80),
               Arg("purchase", "assignment", "Chance Encounter: {drone type: number}", high=_DRONES),
               Arg("salt", "text", "the salt of its cards' commitment, 64 hex digits", True, high=64),
               Arg("value", "text", "the side's dice contribution, 64 hex digits", True, high=64),
               Arg("dice_salt", "text", "the salt of its commitment, 32 hex digits", True, high=32)),
              "a side kept on its own computer opens the cards it drew there at the end of the battle",
              no_button="sent by that side's computer when the battle is over (docs/network.md)"),
    KindEntry(Kind.ROLL_ROLES, "set-up", "p.~15, A47", (), "both sides roll for attacker and defender",
              no_button="the set-up table asks for it"),
    KindEntry(Kind.CHOOSE_EDGE, "set-up", "p.~15", (Arg("turn", "flag", "true takes the far edge"),),
              "the defender picks its table edge", no_button="the set-up table asks for it"),
    KindEntry(Kind.PLACE_OBJECTIVE, "set-up", "p.~15, A55",
              (Arg("objective", "choice", "the objective due: delta, epsilon, alpha, beta, gamma",
                   choices=("delta", "epsilon", "alpha", "beta", "gamma")),
               Arg("x", "inches", "its centre (left out: placed for the side)"),
               Arg("y", "inches", "its centre (left out: placed for the side)")),
              "place an objective", no_button="placed on the set-up table with the mouse"),
    KindEntry(Kind.DRAW_CARDS, "set-up", "p.~9, A42, A47",
              (Arg("purchase", "assignment", "Chance Encounter: {drone type: number}", high=_DRONES),
               Arg("committed", "text", "SHA-256 of the cards drawn on the owner's own computer (kept_cards.py)",
                   high=64),
               Arg("draw", "fields", "the host's parts of that draw and the cards drawn from (kept_cards.py)")),
              "draw the mission, troop and drone cards", no_button="the set-up table asks for it"),
    KindEntry(Kind.CHOOSE_CARDS, "set-up", "A47",
              (Arg("mission", "cards", "a mission card drawn"), Arg("troop", "cards", "a troop card drawn"),
               Arg("purchase", "assignment", "{drone type: number}", high=_DRONES)),
              "choose the cards it plays among those drawn", no_button="the set-up table's cards dialog"),
    KindEntry(Kind.FILL_HOLDING, "set-up", "p.~10",
              (Arg("squares", "squares", "{square 1-16: [unit ids]}, at most 2 a square", high=SQUARES),
               Arg("committed", "fields", "{square 1-16: SHA-256}: the squares kept on the owner's own computer "
                                          "(commit.py)"),
               Arg("blips_committed", "fields", "{counter 1-16: SHA-256}: the square each counter placed stands "
                                                "for, in the order placed, kept on the owner's own computer")),
              "put the issued units into the holding area", no_button="the holding-area dialog"),
    KindEntry(Kind.PLACE_BLIP, "set-up", "p.~15, A59",
              (Arg("x", "inches", "in the side's zone"), Arg("y", "inches", "in the side's zone"),
               Arg("square", "choice", "the holding-area square it stands for, 1 to 16 (secret)", low=1,
                   high=SQUARES),
               Arg("slot", "choice", "a side kept on its own computer: which of its counters' committed squares it "
                                     "stands for, 1 to 16 (blips_committed)", low=1, high=SQUARES)),
              "place one blip counter", no_button="placed on the set-up table with the mouse"),
    KindEntry(Kind.PLACE_BLIPS, "set-up", "p.~15", (), "place the rest of this turn's blips for the side",
              no_button="the set-up table's \"place for me\""),
)}

# The kinds by part, in the order the save's checks name them (``record.ACTION_KINDS``).
UNIT_KINDS: Final = tuple(k for k, e in KINDS.items() if e.part == "unit")
TURN_KINDS: Final = tuple(k for k, e in KINDS.items() if e.part == "turn")
CORRECTION_KINDS: Final = tuple(k for k, e in KINDS.items() if e.part == "correction")
SETUP_KINDS: Final = tuple(k for k, e in KINDS.items() if e.part == "set-up")
ALL_KINDS: Final = UNIT_KINDS + TURN_KINDS + CORRECTION_KINDS + SETUP_KINDS

# The kinds a side decides in private, on its own device (the phone's hand), never at the shared table screen, each
# with the secret that deciding it in view of the table would tell (``service/privacy.py`` marks them on a screen).
PRIVATE: Final[dict[str, str]] = {
    Kind.DRAW_CARDS: "the cards drawn are the side's own (p.~9, A42)",
    Kind.CHOOSE_CARDS: "which mission and troop card it keeps",
    Kind.FILL_HOLDING: "which unit in which holding square (p.~10)",
    Kind.PLACE_BLIP: "which square the counter stands for (A59)",
    Kind.PLACE_BLIPS: "which square each counter placed for the side stands for (A59)",
    Kind.SCRAMBLE: "the empty square the trooper Scrambles into (A23)",
    Kind.FACE: "a trooper just revealed: its owner's facing (A13)",
    Kind.END_OF_ROUND: "a Withdraw announced or answered, the offer to stop (p.16, A43)",
}

# Families of kinds that share a form of arguments.
TO_A_POINT: Final = (Kind.MOVE, Kind.JUMP, Kind.FLAMER, Kind.KAMIKAZE)      # x, y
ALONG_A_PATH: Final = (Kind.MOVE, Kind.KAMIKAZE)                           # via
AT_A_TARGET: Final = (Kind.RIFLE, Kind.MISSILE, Kind.COMMAND, Kind.REPAIR)  # one target, listed once per target
FIRED: Final = (Kind.RIFLE, Kind.MISSILE)


def bar_buttons() -> tuple[Button, ...]:
    """The action bar's buttons for the kinds, in the bar's order."""
    return tuple(sorted((b for e in KINDS.values() for b in e.buttons), key=lambda b: b.place))


def button(name: str) -> Button:
    """The button named ``name`` (a kind, or ``"extra"``)."""
    return next(b for b in bar_buttons() if b.name == name)


def as_kind(word: str) -> str | None:
    """The kind a save's word names, or None for a word that is no kind."""
    return word if word in KINDS else None


# ---- an argument's value against its declaration ---------------------------------------------------------------


def _number(v: object) -> bool:
    # the bound first: a whole number of 400 digits cannot be turned into a float to ask whether it is finite
    return isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= LIMIT and math.isfinite(v)


def _whole(v: object, low: float, high: float) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _words(values: tuple[object, ...]) -> str:
    said = [repr(v) if isinstance(v, str) else str(v).lower() for v in values]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]


def _bounds(arg: Arg, low: float, high: float) -> tuple[float, float]:
    return (low if arg.low is None else arg.low), (high if arg.high is None else arg.high)


def _expected(arg: Arg) -> str:
    """What a value of ``arg`` is, in words: the bound a save's record is held to."""
    t = arg.type
    if t in ("inches", "degrees"):
        low, high = _bounds(arg, -LIMIT, LIMIT)
        return f"a number of {t} from {low:g} to {high:g}"
    if t == "count" or (t == "choice" and not arg.choices):
        low, high = _bounds(arg, 0, math.inf)
        return f"a whole number from {low:g}" + (f" to {high:g}" if high != math.inf else "")
    if t in ("choice", "flag"):
        return _words(arg.choices) if arg.choices else "true or false"
    if t == "id":
        return "a unit, blip or objective id"
    if t == "cards":
        return "a card's id"
    if t == "point":
        return "[dx, dy] in inches"
    if t == "points":
        return f"a list of at most {arg.high or MAX_VERTICES:g} [x, y] points"
    if t == "assignment":
        low, high = _bounds(arg, 0, MAX_COUNTERS)
        return f"{{name: number}} with whole numbers from {low:g} to {high:g}"
    if t == "squares":
        return f"{{square: [unit ids]}} for at most {arg.high or SQUARES:g} squares"
    if t == "units":
        return f"a list of at most {arg.high or 2:g} units {{faction, rating, type}}"
    if t == "fields":
        return "an object of fields"
    return f"a text of at most {arg.high or 2000:g} characters"


def _fits(arg: Arg, v: object) -> bool:
    t = arg.type
    if t in ("inches", "degrees"):
        low, high = _bounds(arg, -LIMIT, LIMIT)
        return _number(v) and low <= v <= high      # type: ignore[operator]
    if t == "count" or (t == "choice" and not arg.choices):
        return _whole(v, *_bounds(arg, 0, math.inf))
    if t == "flag" and not isinstance(v, bool):
        return False
    if t in ("choice", "flag"):
        word = v.lower() if arg.any_case and isinstance(v, str) else v
        return not arg.choices or any(type(word) is type(c) and word == c for c in arg.choices)
    if t == "id":
        return isinstance(v, str)
    if t == "cards":
        return isinstance(v, str) and bool(v)
    if t == "point":
        return isinstance(v, list) and len(v) == 2 and all(_number(c) for c in v)
    if t == "points":
        return isinstance(v, list) and len(v) <= (arg.high or MAX_VERTICES) and all(
            isinstance(p, list) and len(p) == 2 and all(_number(c) for c in p) for p in v)
    if t == "assignment":
        low, high = _bounds(arg, 0, MAX_COUNTERS)
        return isinstance(v, dict) and all(_whole(n, low, high) for n in v.values())
    if t == "squares":
        return isinstance(v, dict) and len(v) <= (arg.high or SQUARES) and all(
            isinstance(ids, list) and len(ids) <= 2 * SQUARES and all(isinstance(i, str) for i in ids)
            for ids in v.values())
    if t == "units":
        return isinstance(v, list) and len(v) <= (arg.high or 2) and all(isinstance(u, dict) for u in v)
    if t == "fields":
        return isinstance(v, dict)
    return isinstance(v, str) and len(v) <= (arg.high or 2000)


def arg_problem(arg: Arg, value: object) -> str:
    """What ``value`` should have been for ``arg`` ("" when it is one): its type and the range the registry gives.
    The battle's own bounds (a unit's Sensors, the table's edge) are the engine's to check."""
    if value is None and arg.null:
        return ""
    if _fits(arg, value):
        return ""
    return _expected(arg) + (" (or null: left out)" if arg.null else "")


def arg_named(kind: str, key: str) -> Arg | None:
    """The argument ``key`` of ``kind`` (a name in angle brackets takes any key), or None: no argument of it."""
    args = KINDS[kind].args
    return next((a for a in args if a.name == key), None) or next((a for a in args if a.any_key), None)
