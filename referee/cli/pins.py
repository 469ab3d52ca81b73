"""The players' PINs on the command line: ``--pin-file FILE`` (``A: PIN`` and ``B: PIN`` lines), the environment
(``SEVEN_SECONDS_PIN_A``, ``SEVEN_SECONDS_PIN_B``: for scripts), or ``--ask-pin A`` (asked without echo, for the
player at the keyboard). A PIN is never an argument of its own: a command line is seen by every process."""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING

from ..i18n import _

if TYPE_CHECKING:
    from ..service.keys import Keyring


def add_pin_options(p) -> None:
    p.add_argument("--pin-file", metavar="FILE",
                   help=_("the players' PINs for a sealed save, one a line: 'A: ...', 'B: ...' (either or both); "
                          "or set SEVEN_SECONDS_PIN_A and SEVEN_SECONDS_PIN_B"))
    p.add_argument("--ask-pin", action="append", choices=("A", "B"), default=[], metavar="SIDE",
                   help=_("ask this side's player for its PIN, typed without echo (may be given twice)"))


def keys_from(args) -> Keyring | None:
    """The PINs given, as a battle's keys; ``None`` when none were given."""
    # Lazy: the keys (and the engine the service loads with them) only when a command opens a save, not when a
    # command registers its options.
    from ..service.keys import check_pin, keyring, pins_from_environment, pins_from_file

    pins = pins_from_environment()
    if getattr(args, "pin_file", None):
        pins.update(pins_from_file(args.pin_file))
    for side in getattr(args, "ask_pin", None) or []:
        pins[side] = check_pin(getpass.getpass(_("side {side}'s PIN (not shown): ").format(side=side)))
    return keyring(pins) if pins else None
