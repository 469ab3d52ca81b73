"""Corrections in the referee mode: the physical table drifted, so the selected piece is set as it now stands
(position, facing, counters, Damaged, Stunned), removed, or a piece the program never saw is added. Each correction
is logged; it is no Move (no Target counters come off, no passive sensors)."""

from __future__ import annotations

from typing import Any, Iterable, Protocol

from ...game.views.view_words import view_blip, view_objective, view_unit
from ...rules.catalogue import is_drone_type
from ...rules.errors import InputError
from ...service.session import Attempt
from ...service.referee import parse_contents, parse_correction
from ...service.referee import RefereeSession
from ..scene import HoldsSession, ScenePart
from .dialogs import Dialog, TextDialog


class CorrectionsHost(HoldsSession[RefereeSession], Protocol):
    """What the corrections use of the referee scene besides its window and session: a side's faction (a piece
    added, a blip's contents) and how the scene shows a correction's outcome."""

    def side_faction(self, side: str) -> str: ...

    def after_action(self, attempt: Attempt, title: str) -> None: ...

    def say(self, title: str, lines: Iterable[object]) -> None: ...


class PieceCorrections(ScenePart[RefereeSession]):
    """Held by the referee scene as ``scene.corrections``."""

    host: CorrectionsHost

    def text(self, ident: str) -> str:
        view = self.session.view(log=False)
        u = view_unit(view, ident)
        if u is not None:
            drone = is_drone_type(u["type"])
            text = f"x={u['x']:g} y={u['y']:g}"
            if not drone and "facing" in u:
                text += f" facing={u['facing']:g}"
            text += f" counters={u['target_counters']}"
            if not drone:
                text += f" damaged={'yes' if u['damaged'] else 'no'} stunned={'yes' if u['stunned'] else 'no'}"
            return text
        b = view_blip(view, ident)
        if b is not None:
            return f"x={b['x']:g} y={b['y']:g}"
        o = view_objective(view, ident)
        return f"x={o['x']:g} y={o['y']:g} counters={o['target_counters']}" if o is not None else ""

    def ask(self, ident: str | None) -> None:
        """Correct the piece ``ident`` (the one selected), or add one when none is."""
        if self.app is None:
            return
        view = self.session.view(log=False)
        if ident is None or not (view_unit(view, ident) or view_blip(view, ident) or view_objective(view, ident)):
            self.app.push(TextDialog(
                "Add a piece the table holds",
                ["Type: add ID side=A type=tactical rating=veteran x=12 y=6 facing=90 (faction: the side's own "
                 "unless faction= is given). Select a piece first to correct or remove it."],
                "add ", lambda text: text and self.from_text(None, text), ok="Add"))
            return
        self.app.push(TextDialog(
            f"Correct {ident} as it stands on the table",
            ["Change the numbers to what the table shows (x, y in inches; facing in degrees counter-clockwise from "
             "+x; counters; damaged and stunned yes or no), or type remove. The correction is logged."
             + (" A blip's owner may also enter what it holds: contents=veteran tactical, reserve scout (or decoy)."
                if view_blip(view, ident) is not None else "")],
            self.text(ident), lambda text: text and self.from_text(ident, text), ok="Correct"))

    def from_text(self, ident: str | None, text: str) -> Attempt | None:
        """A typed correction of ``ident`` (None: ``add ID key=value ...``), applied and logged."""
        try:
            if ident is None:
                words = text.split()
                if len(words) < 2 or words[0].lower() != "add":
                    raise InputError("correction", "expected: add ID side=A type=tactical x=12 y=6 ...")
                ident = words[1]
                entry: dict[str, Any] = {}
                for w in words[2:]:
                    key, eq, value = w.partition("=")
                    if not eq:
                        raise InputError("correction", f"{w!r}: expected key=value")
                    entry[key.lower()] = value
                side = entry.get("side", "A").upper()
                entry["side"] = side
                entry.setdefault("faction", self.host.side_faction(side))
                entry.setdefault("rating", "veteran")
                for k in ("x", "y", "facing"):
                    if k in entry:
                        try:
                            entry[k] = float(entry[k])
                        except ValueError:
                            raise InputError("correction", f"{k}={entry[k]}: expected a number") from None
                attempt = self.session.add_unit(ident, **entry)
            elif "contents=" in text and (blip := view_blip(self.session.view(log=False), ident)) is not None:
                # Its owner chose to enter what the blip holds before the reveal (only the owner's view shows it).
                side = blip["side"]
                held = text.split("contents=", 1)[1]
                contents = parse_contents(held, side, self.host.side_faction(side))
                attempt = self.session.tell(ident, contents)
            else:
                changes = parse_correction(text)
                attempt = (self.session.remove(ident) if changes.get("remove")
                           else self.session.correct(ident, **changes))
        except InputError as e:
            self.host.say("Correction not understood", [e.message(), "nothing changed"])
            return None
        self.host.after_action(attempt, f"Correction of {ident}")
        return attempt

    def confirm_drift(self, piece: str, was: tuple[float, float], x: float, y: float) -> None:
        """``piece``, at ``was`` in the program, was dragged to ``x``, ``y``: knocked there on the table?"""
        def closed(answer) -> None:
            if answer == "go":
                self.host.after_action(self.session.correct(piece, x=x, y=y), f"Correction of {piece}")
            else:
                self.host.say(f"{piece}: not moved", ["nothing changed"])

        if self.app is None:
            closed("go")
            return
        self.app.push(Dialog(f"Correct {piece}?", [
            f"{piece} stands at ({was[0]:g}, {was[1]:g}) in the program. Was it knocked to ({x:g}, {y:g}) on the table?",
            "The correction is logged; it is no Move (no Target counters come off, no passive sensors) [correction]."],
            [("go", "Correct it"), ("cancel", "Cancel")], closed, columns=2))
