"""The battle's state declared once: every field of ``GameState``, whose it is, and where each copy of it lives.

A field is **public** (every seat may see it; ``once_over``: once the battle is over), **by side** (a mapping
side -> value whose entry is that side's secret until the end of the battle reveals it: holding areas, missions,
cards, seal salts), or **mixed** (public, with parts that belong to a side: a blip's square, a log entry's private
note, a set-up's drawn cards; the view filter reads those parts one by one).

The player view (``view.py``) is built from this declaration: a public field passes to every seat, a side's entry
of a field kept by side only to a seat that sees that side, and a mixed field through its own filter.

Every place that lists the state's fields is held to this declaration by ``tests/test_state_parts.py``: the save
(``state_to_data``, ``state_from_data``, the save's schema in ``record.py``), the copy (``_COPY``, or a deep copy),
the player view (``view.py``, ``view_types.PlayerView``) and the computer's imagined worlds
(``computer/determinize.py``). A field added to ``GameState`` and not declared here, or declared and missing from
one of them, fails that test. The files sealed for their players (``sealing.py``) split the state by this
declaration too: a mixed field declared without a splitter there fails at import.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypedDict, cast

Secrecy = Literal["public", "by side", "mixed"]


@dataclass(frozen=True)
class Part:
    secrecy: Secrecy
    # The player view's keys that carry the field (``table`` carries width and height); () : not in the view, and why.
    view: tuple[str, ...]
    not_in_view: str = ""
    # What the computer's imagined world (``determinize.sample_state``) does with the field: "copied" from its view,
    # "drawn" (the opponent's entry dealt at random, consistently with the view), or why it is left at its default.
    imagined: str = "copied"
    # A field kept by side: does its own side see its entry during the battle (a seal's salt: nobody until the end)?
    own_side_sees: bool = True
    # A public field shown to the players only once the battle is over (the referee's view always has it).
    once_over: bool = False


# In the order the player view shows them (``view.py`` builds the view from this declaration, in this order).
STATE_PARTS: Final[dict[str, Part]] = {
    "name": Part("public", ("name",)),
    "width": Part("public", ("table",)),
    "height": Part("public", ("table",)),
    "rulings": Part("public", ("rulings",)),
    "scale": Part("public", ("scale",)),
    "attacker": Part("public", ("attacker",)),
    "mode": Part("public", ("mode",)),
    "terrain": Part("public", ("terrain",)),
    "units": Part("public", ("units",)),
    "blips": Part("mixed", ("blips",), imagined="drawn"),          # the counter is public; its square, its owner's
    "objectives": Part("public", ("objectives",)),
    "ground": Part("public", ("ground",)),                       # patches of ground holding Target counters (A54)
    "round": Part("public", ("round",)),
    "phase": Part("public", ("phase",)),
    "initiative": Part("public", ("initiative",)),
    "turn": Part("public", ("turn",)),
    "passes_in_row": Part("public", ("passes_in_row",)),
    "pursuit": Part("public", ("pursuit",)),
    "control": Part("public", ("control",)),
    "destroyed": Part("public", ("destroyed",)),
    # What each side's mission scored: told to everyone once the battle is over (the referee sees it as it is made).
    "result": Part("public", ("result",), once_over=True),
    "holding": Part("by side", ("holding",), imagined="drawn"),
    "missions": Part("by side", ("missions",), imagined="drawn"),
    "cards": Part("by side", ("cards",), imagined="drawn"),
    "sealed": Part("public", ("sealed",),
                   imagined="left empty: the computer never checks a seal, and a seal it made up would mean nothing"),
    "to_face": Part("public", ("to_face",), imagined="left out: the computer never turns a trooper just revealed "
                                                   "(its troopers keep their facing, A13), so the facings owed "
                                                   "change none of its choices"),
    "to_place": Part("public", ("to_place",), imagined="left out: the computer leaves its revealed units where the "
                                                     "reveal put them (A66), so the spots owed change none of its "
                                                     "choices"),
    "salts": Part("by side", ("salts",), own_side_sees=False,
                  imagined="left empty: a salt only lets a seal be checked, once the battle is over"),
    "log": Part("mixed", ("log",), imagined="only the last entry, without its private notes: the computer reads "
                                            "the log of its own view, not the imagined world's"),
    "setup": Part("mixed", ("setup",), imagined="left out: the computer's set-up decisions read its view "
                                                "(computer/setup.py), never an imagined world"),
    "dice_commitments": Part("public", ("dice_commitments",)),     # hashes: they tell nothing of a contribution
    "pool": Part("public", ("pool",)),
    "labels_apart": Part("public", ("labels_apart",)),
    # A side whose secrets stay on its own computer: each holding square's commitment (``commit.py``), public.
    "square_commitments": Part("public", ("square_commitments",)),
    # Such a side's issued units its computer has not opened yet: a reveal opens only these, and the end of the battle
    # finds none left (else the set-up broke p.~10).
    "issued_kept": Part("by side", ("issued_kept",),
                        imagined="drawn"),              # the units of the squares the imagined world draws
    # The breaches of the rule such a side's computer was caught in at an opening (a counter committed to a square
    # another counter had shown): public, like the result that names them.
    "breaches": Part("public", ("breaches",)),
    # A side whose cards are drawn on its own computer (``kept_cards.py``): the commitment to its cards, the public
    # part of the draw (the host's parts, the cards drawn from), the units its openings have shown and whether the
    # cards were opened and checked at the end. Public: none of it tells the cards before they are opened.
    "card_commitments": Part("public", ("card_commitments",),
                             imagined="left empty: the imagined world draws the opponent's cards itself"),
    # Such a side's commitments to the square each of its blip counters stands for (A59): its own to see; the host
    # holds a stand-in square for each counter until its owner opens the commitment at the reveal.
    "blip_commitments": Part("by side", ("blip_commitments",),
                             imagined="drawn"),     # every counter's square drawn there: none left committed
}

BY_SIDE: Final = tuple(name for name, part in STATE_PARTS.items() if part.secrecy == "by side")


# ---- the two parts that are records of their own: the set-up in progress and the battle's result --------------


class Decision(TypedDict):
    """One decision set-up waits for (``setup_steps.step``): what, by which side, and the objective due."""

    step: str
    side: str
    objective: str | None


# A unit a side's cards issued, still to go into its holding area: {"id", "type", "rating"}.
Issued = dict[str, Any]
# A campaign streak's cards drawn, to choose from (A47): {"mission": [ids], "troop": [ids], "drone": id}.
Offered = dict[str, Any]


@dataclass(slots=True)
class Setup:
    """The set-up in progress (``setup_steps.py``): the factions, the campaign streaks, the decisions still to make
    in order (the first is the one set-up waits for) and, secret to their owner, the units its cards issued and a
    streak's cards to choose from. A save holds it as ``to_data`` writes it, the keys in this order."""

    factions: dict[str, str]
    streak: dict[str, int] = field(default_factory=dict)
    queue: list[Decision] = field(default_factory=list)
    issued: dict[str, list[Issued]] = field(default_factory=dict)
    offered: dict[str, Offered] = field(default_factory=dict)

    def copy(self) -> Setup:
        """An independent copy, level by level: the engine copies the state for every set-up action and every check
        it tries, and a generic deep copy of this cost more than the rest of the state's copy. A decision and an
        issued unit are flat records of words and numbers; an offer holds lists of card ids."""
        return Setup(dict(self.factions), dict(self.streak), [cast(Decision, dict(d)) for d in self.queue],
                     {side: [dict(u) for u in units] for side, units in self.issued.items()},
                     {side: {k: list(v) if isinstance(v, list) else v for k, v in offer.items()}
                      for side, offer in self.offered.items()})

    def to_data(self) -> dict[str, Any]:
        return copy.deepcopy({"factions": self.factions, "streak": self.streak, "queue": self.queue,
                              "issued": self.issued, "offered": self.offered})

    @staticmethod
    def from_data(d: dict[str, Any]) -> Setup:
        d = copy.deepcopy(d)
        return Setup(dict(d.get("factions", {})), dict(d.get("streak", {})), list(d.get("queue", [])),
                     dict(d.get("issued", {})), dict(d.get("offered", {})))


# The result's level when a side kept on its own computer forfeits (``corrections.forfeit``): nothing is scored.
FORFEITED: Final = "forfeited"


@dataclass(slots=True)
class Result:
    """The battle's result once it is over: the VP, the winner and the margin with their explanation
    (``victory.compute_result``); or, while an attacker who Controls the Table still has to say what became of each
    surviving objective, what it waits for (``pending``, p.16, A41). A save holds it as ``to_data`` writes it."""

    control: str | None = None
    vp: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    margin: int = 0
    level: str = ""
    campaign_points: int = 0
    explain: list[str] = field(default_factory=list)
    # A mission kept on the mat was never scored: the sides whose VP are unknown, and the line that says so (p.~14).
    missions_unknown: list[str] | None = None
    headline: str | None = None
    # Waiting for the attacker's choices: "objectives", the choices, the surviving objectives (p.16, A41).
    pending: str | None = None
    choices: list[str] = field(default_factory=list)
    objectives: list[str] = field(default_factory=list)

    @staticmethod
    def waiting_for_objectives(choices: list[str], objectives: list[str]) -> Result:
        return Result(pending="objectives", choices=list(choices), objectives=list(objectives))

    def to_data(self) -> dict[str, Any]:
        if self.pending is not None:
            return {"pending": self.pending, "choices": list(self.choices), "objectives": list(self.objectives)}
        data: dict[str, Any] = {"control": self.control, "vp": dict(self.vp), "winner": self.winner,
                                "margin": self.margin, "level": self.level, "campaign_points": self.campaign_points,
                                "explain": list(self.explain)}
        if self.missions_unknown is not None:
            data["missions_unknown"] = list(self.missions_unknown)
        if self.headline is not None:
            data["headline"] = self.headline
        return data

    @staticmethod
    def from_data(d: dict[str, Any]) -> Result:
        if d.get("pending") is not None:
            return Result.waiting_for_objectives(list(d.get("choices", [])), list(d.get("objectives", [])))
        unknown = d.get("missions_unknown")
        return Result(d.get("control"), dict(d.get("vp", {})), d.get("winner"), d.get("margin", 0),
                      d.get("level", ""), d.get("campaign_points", 0), list(d.get("explain", [])),
                      None if unknown is None else list(unknown), d.get("headline"))
