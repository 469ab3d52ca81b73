"""The battle's state declared once: every field of ``GameState``, whose it is, and where each copy of it lives.

A field is **public** (every seat may see it), **by side** (a mapping side -> value whose entry is that side's secret
until the end of the battle reveals it: holding areas, missions, cards, seal salts), or **mixed** (public, with parts
that belong to a side: a blip's square, a log entry's private note, a set-up's drawn cards; the view filter reads
those parts one by one).

Every place that lists the state's fields is held to this declaration by ``tests/test_state_parts.py``: the save
(``state_to_data``, ``state_from_data``, the save's schema in ``record.py``), the copy (``_COPY``, or a deep copy),
the player view (``view.py``, ``view_types.PlayerView``) and the computer's imagined worlds
(``computer/determinize.py``). A field added to ``GameState`` and not declared here, or declared and missing from
one of them, fails that test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

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


STATE_PARTS: Final[dict[str, Part]] = {
    "name": Part("public", ("name",)),
    "width": Part("public", ("table",)),
    "height": Part("public", ("table",)),
    "terrain": Part("public", ("terrain",)),
    "units": Part("public", ("units",)),
    "blips": Part("mixed", ("blips",), imagined="drawn"),          # the counter is public; its square, its owner's
    "objectives": Part("public", ("objectives",)),
    "ground": Part("public", ("ground",)),                       # patches of ground holding Target counters (A54)
    "holding": Part("by side", ("holding",), imagined="drawn"),
    "rulings": Part("public", ("rulings",)),
    "scale": Part("public", ("scale",)),
    "attacker": Part("public", ("attacker",)),
    "mode": Part("public", ("mode",)),
    "round": Part("public", ("round",)),
    "phase": Part("public", ("phase",)),
    "initiative": Part("public", ("initiative",)),
    "turn": Part("public", ("turn",)),
    "passes_in_row": Part("public", ("passes_in_row",)),
    "pursuit": Part("public", ("pursuit",)),
    "missions": Part("by side", ("missions",), imagined="drawn"),
    "cards": Part("by side", ("cards",), imagined="drawn"),
    "sealed": Part("public", ("sealed",),
                   imagined="left empty: the computer never checks a seal, and a seal it made up would mean nothing"),
    "salts": Part("by side", ("salts",), own_side_sees=False,
                  imagined="left empty: a salt only lets a seal be checked, once the battle is over"),
    "destroyed": Part("public", ("destroyed",)),
    "control": Part("public", ("control",)),
    "result": Part("public", ("result",)),
    "log": Part("mixed", ("log",), imagined="only the last entry, without its private notes: the computer reads "
                                            "the log of its own view, not the imagined world's"),
    "setup": Part("mixed", ("setup",), imagined="left out: the computer's set-up decisions read its view "
                                                "(computer/setup.py), never an imagined world"),
    "to_face": Part("public", ("to_face",), imagined="left out: the computer never turns a trooper just revealed "
                                                   "(its troopers keep their facing, A13), so the facings owed "
                                                   "change none of its choices"),
    "to_place": Part("public", ("to_place",), imagined="left out: the computer leaves its revealed units where the "
                                                     "reveal put them (A66), so the spots owed change none of its "
                                                     "choices"),
    "dice_commitments": Part("public", ("dice_commitments",)),     # hashes: they tell nothing of a contribution
    "pool": Part("public", ("pool",)),                             # dice rolled on the table
}

BY_SIDE: Final = tuple(name for name, part in STATE_PARTS.items() if part.secrecy == "by side")
