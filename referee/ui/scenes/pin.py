"""A player's PIN, typed on their own screen: behind a hand-off, hidden as it is typed, and taken only from keys
pressed while the box is shown (a held Enter from the screen before never sends it, ``Dialog.guards_keys``).

At set-up a player sets a PIN or passphrase, or takes one the program draws (shown on their screen alone, to copy
down). At resume or load, each player whose PIN the file needs types it; one who forgot it says so, and the battle
is shown as far as the other PINs open it (``seven-seconds replay``) instead of resumed.
"""

from __future__ import annotations

from typing import Callable, Sequence

import pygame

from ...i18n import _
from ...game.records.sealing import check_pin, generated_pin
from ...rules.errors import InputError
from .dialogs import Dialog, HandoffScreen, TextDialog


# The buttons' answers, apart from any PIN a player may type (a PIN "draw" is a PIN; no typed text holds a NUL).
DRAW = "\x00draw"
KEEP = "\x00keep"


class PinDialog(TextDialog):
    guards_keys = True
    overlay = False            # the table below is hidden while a PIN is typed
    opaque = True

    def __init__(self, side: str, setting: bool, on_close: Callable[[str | None], object],
                 may_keep: bool = False) -> None:
        lines = ([_("Side {side}: choose a PIN or passphrase (at least 4 characters) that seals your secrets in "
                    "every file the program writes, or take one the program draws for you. You will need it to "
                    "resume or load this battle.").format(side=side)]
                 if setting else
                 [_("Side {side}: type your PIN to open your secrets in this battle.").format(side=side)])
        if may_keep:
            # Against the computer: its secrets are sealed under its own key whatever the player chooses.
            lines.append(_("Or let the program keep your key, as it keeps the computer's: the battle then resumes "
                           "without a PIN, and anyone using this computer's account could open your side."))
        super().__init__(_("Side {side}'s PIN").format(side=side), lines, "", on_close, ok=_("OK"),
                         check=_why_not)
        self.side = side
        self.choices = [("ok", _("OK")), ("draw" if setting else "cancel",
                                         _("Draw one for me") if setting else _("Cancel"))]
        if may_keep:
            self.choices.append(("keep", _("Keep it for me")))
        self.columns = len(self.choices)

    def key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE and self.choices[1][0] == "draw":
            return True               # at set-up a PIN is set or drawn; Escape does not leave the files in clear
        return super().key(event)

    def build_widgets(self, area: pygame.Rect) -> None:
        super().build_widgets(area)
        if self.entry is not None:
            self.entry.set_text_hidden(True)

    def choose(self, key: str) -> None:
        if key == "ok" and self.entry is not None and not self.entry.get_text().strip():
            self.error = _why_not("")
            return
        if key in ("draw", "keep"):
            self.close(None)
            self.answered(DRAW if key == "draw" else KEEP)
            return
        super().choose(key)


def _why_not(text: str) -> str:
    try:
        check_pin(text)
    except InputError as e:
        return "; ".join(e.problems)
    return ""


class PinHandoff(HandoffScreen):
    """The hand-off before a player types their PIN."""


class DrawnPinScreen(Dialog):
    """The PIN the program drew, on its player's screen alone: copy it down before going on."""

    guards_keys = True
    overlay = False
    opaque = True

    def __init__(self, side: str, pin: str, on_close: Callable[[str | None], None]) -> None:
        super().__init__(_("Side {side}'s PIN").format(side=side),
                         [_("Your PIN is:"), pin, _("Copy it down or photograph it now: the program keeps it only "
                                                    "while it runs, and asks for it to resume or load this battle.")],
                         [("ready", _("I have copied it"))], on_close, columns=1)
        self.side, self.pin = side, pin

    def key(self, event) -> bool:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.choose("ready")
        return True


def ask_pins(app, sides: Sequence[str], setting: bool, done: Callable[[dict[str, str] | None], None],
             lines: Sequence[str] = (), handoff: bool | None = None) -> None:
    """Ask each of ``sides`` for its PIN in turn, each behind a hand-off to its player (``handoff``: by default when
    more than one side is asked); ``done`` gets the PINs (a side that cancelled, or forgot its PIN, is left out), or
    ``None`` when the first player cancels at set-up."""
    pins: dict[str, str] = {}
    queue = list(sides)
    handing = len(sides) > 1 if handoff is None else handoff

    def next_side() -> None:
        if not queue:
            done(pins)
            return
        side = queue.pop(0)
        if not handing:
            # One player at the screen (against the computer): setting a PIN, they may let the program keep it.
            app.push(PinDialog(side, setting, typed(side), may_keep=setting))
            return
        app.push(PinHandoff(side, list(lines), lambda _answer: app.push(PinDialog(side, setting, typed(side)))))

    def typed(side: str) -> Callable[[str | None], None]:
        def answer(text: str | None) -> None:
            if text == KEEP:
                next_side()             # no PIN: the service keeps this side's key (``BattleSession.seal_with``)
                return
            if text == DRAW:
                pin = generated_pin()
                pins[side] = pin
                app.push(DrawnPinScreen(side, pin, lambda _answer: next_side()))
                return
            if text is None and setting:
                done(None)
                return
            if text is not None:
                pins[side] = text
            next_side()
        return answer

    next_side()


