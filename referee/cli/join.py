"""``seven-seconds join LINK``: play one side of a battle hosted on another computer, in this computer's window.

The link is a side's link from the host (``seven-seconds host``, or Phones and remote play in its window): it opens
that side's seat, and the window shows that side's screen only. ``--screenshot PNG`` saves the first frames instead.
"""

from __future__ import annotations

import sys

from ..i18n import _
from ..rules.errors import InputError


def register(sub) -> None:
    p = sub.add_parser("join", help=_("play one side of a battle hosted on another computer"),
                       description=_("Open the battle at a side's link (from seven-seconds host, or Phones and "
                                     "remote play in the host's window) and play that side in this window."))
    p.add_argument("link", metavar="LINK", help=_("the side's link, http://HOST:PORT/join/..."))
    p.add_argument("--screenshot", metavar="PNG", help=_("save the first frames as PNG and exit"))
    p.set_defaults(run=run)


def run(args) -> int:
    # Lazy: the window and the WebSocket client load for this command only.
    if args.screenshot:
        from ..ui.app import use_headless_video  # lazy: loaded when this command runs
        use_headless_video()
    import pygame

    from ..ui.app import DEFAULT_SIZE, App  # lazy: loaded when this command runs
    from ..ui.joining import join  # lazy: loaded when this command runs
    from ..ui.startup import window_preferences, window_size  # lazy: loaded when this command runs

    ui_scale, problems = window_preferences(None, None, screenshot=bool(args.screenshot))
    for problem in problems:
        print(f"seven-seconds: settings: {problem}", file=sys.stderr)
    app = App(DEFAULT_SIZE if args.screenshot else window_size(DEFAULT_SIZE, ui_scale), ui_scale=ui_scale)
    app.open_menu()
    joined = join(app, args.link)
    if isinstance(joined, str):
        pygame.quit()
        raise InputError("LINK", joined)
    try:
        if args.screenshot:
            print(app.screenshot(args.screenshot))
            return 0
        return app.run()
    finally:
        joined.battle.close()           # the seat's connection ends with the window
        pygame.quit()
