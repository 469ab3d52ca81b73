"""``seven-seconds join LINK``: play one side of a battle hosted on another computer, in this computer's window.

The link is a side's link from the host (``seven-seconds host``, or Phones and remote play in its window): it opens
that side's seat, and the window shows that side's screen only. ``--screenshot PNG`` saves the first frames instead.

Once the battle is over the host hands the seat its end-of-battle report and the finished battle's record:
``--report`` prints the report and ``--save [FILE]`` keeps the battle (by default in the saves folder), without a
window; a window closed on a finished battle prints the report. Before the end both are refused with the host's
reason: the record holds the other side's secrets, and the battle is kept by the host.
"""

from __future__ import annotations

import sys

from ..i18n import _
from ..rules.errors import InputError
from .pins import add_pin_options, keys_from


def register(sub) -> None:
    p = sub.add_parser("join", help=_("play one side of a battle hosted on another computer"),
                       description=_("Open the battle at a side's link (from seven-seconds host, or Phones and "
                                     "remote play in the host's window) and play that side in this window."))
    p.add_argument("link", metavar="LINK", help=_("the side's link, http://HOST:PORT/join/..."))
    p.add_argument("--screenshot", metavar="PNG", help=_("save the first frames as PNG and exit"))
    p.add_argument("--report", action="store_true",
                   help=_("print the end-of-battle report of the finished battle, without a window"))
    p.add_argument("--save", metavar="FILE", nargs="?", const="",
                   help=_("keep the finished battle as a save (by default in the saves folder), without a window"))
    # The PIN of a side that keeps its secrets on this computer (``seven-seconds host --kept-by``): its file here is
    # sealed with it; without one the program keeps a key for it.
    add_pin_options(p)
    p.set_defaults(run=run)


def report_text(battle) -> list[str]:
    """The end-of-battle report as the joined window shows it, one line each (headings underlined by a blank)."""
    # Lazy: the report's words are the window's, loaded with this command only.
    from ..ui.scenes.remote_report import remote_report_lines
    from ..ui.theme import SIGNS  # lazy: loaded with the line above, for the same reason

    out: list[str] = []
    for style, text in remote_report_lines(battle):
        if style == "h" and out:
            out.append("")
        out.append(SIGNS.get(style, "") + text)
    return out


def without_window(args) -> int:
    """``--report`` and ``--save``: asked of the host over the seat's connection, no window opened."""
    # Lazy: the WebSocket client loads for this command only.
    from ..net.client import Refused, RemoteSeat
    from ..ui.remote import RemoteBattle  # lazy: loaded with the line above, for the same reason

    try:
        keys = keys_from(args)
        seat = RemoteSeat(args.link.strip(), pins=keys.pins if keys is not None else None)
    except (ValueError, Refused) as e:
        raise InputError("LINK", f"the link opens no seat: {e}") from None
    except (OSError, TimeoutError) as e:
        raise InputError("LINK", f"the host could not be reached at {args.link.strip()}: {e}") from None
    try:
        battle = RemoteBattle(seat)
        if args.report:
            print("\n".join(report_text(battle)))
        if args.save is not None:
            written = battle.save(args.save or None)
            print(_("The battle is saved in {file}").format(file=written))
    finally:
        seat.close()
    return 0


def run(args) -> int:
    if args.report or args.save is not None:
        return without_window(args)
    keys = keys_from(args)                 # asked at the terminal before the window opens
    return in_window(args.link.strip(), keys.pins if keys is not None else None, args.screenshot)


def in_window(link: str, pins, screenshot: str | None = None, keep_hint: bool = True, keeper=None) -> int:
    """The seat at ``link`` played in this computer's window until it closes (``screenshot``: its first frames saved
    as a PNG instead); a window closed on a finished battle prints its report (and, ``keep_hint``, how to keep it).
    ``keeper``: the seat's side's secrets already opened on this computer (a battle by e-mail's turn)."""
    # Lazy: the window and the WebSocket client load for this command only.
    if screenshot:
        from ..ui.app import use_headless_video  # lazy: loaded when this command runs
        use_headless_video()
    import pygame

    from ..ui.app import DEFAULT_SIZE, App  # lazy: loaded when this command runs
    from ..ui.joining import join  # lazy: loaded when this command runs
    from ..ui.startup import window_preferences, window_size  # lazy: loaded when this command runs

    ui_scale, problems = window_preferences(None, None, screenshot=bool(screenshot))
    for problem in problems:
        print(f"seven-seconds: settings: {problem}", file=sys.stderr)
    app = App(DEFAULT_SIZE if screenshot else window_size(DEFAULT_SIZE, ui_scale), ui_scale=ui_scale)
    app.open_menu()
    joined = join(app, link, pins, keeper)
    if isinstance(joined, str):
        pygame.quit()
        raise InputError("LINK", joined)
    try:
        if screenshot:
            print(app.screenshot(screenshot))
            return 0
        code = app.run()
        battle = joined.battle
        if battle.over:
            # The window closed on a finished battle: its report stays on the terminal, and how to keep it.
            try:
                print("\n".join(report_text(battle)))
            except InputError as e:
                print(e.message(), file=sys.stderr)
            if battle.save_path is not None:
                print(_("The battle is saved in {file}").format(file=battle.save_path))
            elif keep_hint:
                print(_("Keep the battle: seven-seconds join {link} --save").format(link=link))
        return code
    finally:
        joined.battle.close()           # the seat's connection ends with the window
        pygame.quit()
