"""``seven-seconds play [SCENARIO]``: open the table view (the default command).

``--screenshot PNG`` renders the first frames and saves them instead of opening an interactive window; the other
screenshot options set the scene up first (select a unit, hover an enemy, lay a ruler, preview a move).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..i18n import _
from .. import paths
from ..rules.errors import InputError
from .main import modules_loaded


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = text.lower().split("x")
        size = (int(w), int(h))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x800 (got {text!r})") from None
    if size[0] <= 0 or size[1] <= 0:
        raise argparse.ArgumentTypeError(f"expected positive sizes (got {text!r})")
    return size


def _scale(text: str) -> float:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..ui.scale import parse

    try:
        return parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _point(text: str) -> tuple[float, float]:
    try:
        x, y = text.split(",")
        return (float(x), float(y))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y in inches such as 12,8.5 (got {text!r})") from None


def register(sub) -> None:
    p = sub.add_parser("play", help=_("open the table view (default command)"),
                       description=_("Open the table view on a scenario (default: the bundled default table)."))
    p.add_argument("scenario", nargs="?", help=_("scenario file (.toml or .json); default {name}").format(
        name=paths.DEFAULT_SCENARIO.name))
    p.add_argument("--size", type=_size, default=None, metavar="WxH",
                   help=_("window size (default 1280x800, or nearly the whole screen when the scale needs it)"))
    p.add_argument("--scale", type=_scale, default=None, metavar="PERCENT",
                   help=_("draw everything larger: 100 to 250 (%%) or 1.0 to 2.5 (default: the scale chosen in "
                          "Settings, else a first guess from the screen's size and density; screenshots: 100)"))
    p.add_argument("--theme", choices=("standard", "high-contrast"), default=None,
                   help=_("colours of the window (default: the theme chosen in Settings)"))
    p.add_argument("--referee", action="store_true",
                   help=_("referee a physical game on this table (or resume a refereed battle's save): you type the "
                        "dice you roll, the program tracks the table and explains every number"))
    p.add_argument("--computer", metavar="SIDE[:LEVEL]", default=None,
                   help=_("with --referee: the computer runs this side of the physical game (A or B, level easy, "
                        "normal or hard; default normal) and tells you what to do with its miniatures"))
    p.add_argument("--initiative", choices=("A", "B"),
                   help=_("with --referee: the side holding the Initiative in round 1 (default: the attacker, or A)"))
    shot = p.add_argument_group("screenshots", "render without interaction, save a PNG and exit")
    shot.add_argument("--screenshot", metavar="PNG", help=_("save the first frames as PNG and exit"))
    shot.add_argument("--select", metavar="UNIT", help=_("select this unit first"))
    shot.add_argument("--hover", metavar="ID", help=_("hover this piece (with --select: its sight line)"))
    shot.add_argument("--expand", metavar="ID", action="append", default=[],
                      help=_("open the working of this enemy's row in the side panel (repeatable)"))
    shot.add_argument("--ruler", nargs=2, metavar=("FROM", "TO"),
                      help=_("lay the ruler between two unit ids or X,Y points"))
    shot.add_argument("--move", type=_point, action="append", metavar="X,Y",
                      help=_("preview a Move of the selected unit through these points (repeatable)"))
    shot.add_argument("--jump", type=_point, metavar="X,Y", help=_("preview a Jump of the selected unit"))
    shot.add_argument("--zoom", type=float, metavar="FACTOR", help=_("zoom by this factor around the table centre"))
    shot.add_argument("--show-help", action="store_true", help=_("open the keyboard help overlay"))
    shot.add_argument("--exposure", metavar="SIDE", choices=("A", "B", "auto"),
                      help=_("show the exposure map of side A or B (auto: the selected unit's side)"))
    # The window's modules load when it opens: the collector stays off until they have (main.modules_loaded).
    p.set_defaults(run=run, loads_when_run=True)


def _ruler_end(scene, text: str):
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.questions import RulerEnd

    pieces = scene.table.bf.pieces
    if text in pieces:
        p = pieces[text]
        return RulerEnd(p.x, p.y, p.id)
    try:
        x, y = _point(text)
    except argparse.ArgumentTypeError as e:
        raise InputError("--ruler", f"{text!r} is neither a piece of this table nor X,Y ({e})") from None
    return RulerEnd(x, y)


def prepare(app, args) -> None:
    """Set the table scene up as the screenshot options ask."""
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..ui.scenes.table import TableScene
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..ui.scenes.table_common import JUMP, MOVE, RULER

    scene = app.scene
    wants_table = any((args.select, args.hover, args.ruler, args.move, args.jump, args.expand, args.zoom,
                       getattr(args, "exposure", None)))
    if not isinstance(scene, TableScene):
        if wants_table:
            menu = app.scene
            if getattr(menu, "error", ""):
                return          # the menu shows why the table did not open
        if args.show_help:
            # Not on a table (the menu): the table view's keys, as the first table opened would show them.
            from ..ui import keys, panels, registry
            app.push_scene("help", keys.help_groups(registry.scene_class("table").key_table), legend=panels.LEGEND)
        return
    pieces = scene.table.bf.pieces
    for ident in [args.select, args.hover] + list(args.expand):
        if ident is not None and ident not in pieces:
            raise InputError(ident, f"{ident!r} is not on this table (expected one of {', '.join(sorted(pieces))})")
    if args.zoom:
        scene.zoom(args.zoom)
    if args.select:
        scene.select(args.select)
    for ident in args.expand:
        scene.toggle_expand(ident)
    if args.ruler:
        scene.set_tool(RULER)
        scene.measure_between(_ruler_end(scene, args.ruler[0]), _ruler_end(scene, args.ruler[1]))
    if args.move:
        scene.set_tool(MOVE)
        scene.set_move_path(args.move)
    elif args.jump:
        scene.set_tool(JUMP)
        scene.set_jump_point(args.jump)
    if args.hover:
        scene.hover = args.hover
        p = pieces[args.hover]
        sx, sy = scene.view.to_screen(p.x, p.y)
        scene.mouse = (round(sx), round(sy))
    if getattr(args, "exposure", None):
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..ui.exposure import show_now
        show_now(scene, args.exposure)
    if args.show_help:
        scene.open_help()


def is_save(path: Path) -> bool:
    """A battle save, by its ``format`` key (anything unreadable is left to the loaders to explain)."""
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.files import SAVE_FORMAT, read_document

    if path.suffix.lower() != ".json":
        return False
    try:
        return read_document(path).get("format") == SAVE_FORMAT
    except InputError:
        return False


def table_computer(text: str | None):
    """``B`` or ``B:hard`` -> the computer running that side of a physical game (None without the option)."""
    if text is None:
        return None
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..game.players.computer.levels import LEVELS
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..game.battle.dice import new_seed
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..service.battles import computer

    side, _, level = text.partition(":")
    side, level = side.strip().upper(), (level.strip().lower() or "normal")
    if side not in ("A", "B") or level not in LEVELS:
        raise InputError("--computer", f"expected a side, A or B, and a level among {', '.join(LEVELS)}, as B:hard "
                                       f"(got {text!r})")
    return computer(side, level, new_seed() % 2**63)


def open_referee(app, path: Path, first: str | None, computer: str | None = None):
    """The referee mode on a scenario file, or a refereed battle's save resumed; raises ``InputError``."""
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.scenario import load_scenario
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..service.referee import RefereeSession
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..ui.scenes.menu import MenuScene
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..ui.scenes.referee import RefereeScene

    menu = app.push(MenuScene())
    if is_save(path):
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..service.battles import open_save

        from ..service.keys import is_sealed_file      # lazy, as open_save: only for a save given with --referee

        if is_sealed_file(path) or not open_save(path).refereed:
            raise InputError(str(path), "a hot-seat battle's save, not a refereed one: open it without --referee")
        if computer is not None:
            raise InputError("--computer", "a saved battle goes on with the players it names: --computer is for a "
                                           "new one")
        return menu.load_battle(path)
    session = RefereeSession.from_scenario(load_scenario(path), first, computer=table_computer(computer))
    return app.push(RefereeScene(session))


def run(args) -> int:
    scenario = paths.table_file(args.scenario) if args.scenario else paths.DEFAULT_SCENARIO
    if args.screenshot:
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..ui.app import use_headless_video
        use_headless_video()
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..ui.app import App

    # lazy: the window's library loads only when the window opens
    import pygame

    if args.computer is not None and not args.referee:
        raise InputError("--computer", "runs a side of a physical game: use it with --referee (a battle in the "
                                       "window against the computer starts from New battle)")
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..ui.app import DEFAULT_SIZE
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..ui.startup import window_preferences, window_size

    ui_scale, problems = window_preferences(args.scale, args.theme, screenshot=bool(args.screenshot))
    for problem in problems:
        print(f"seven-seconds: settings: {problem}", file=sys.stderr)
    size = args.size or (DEFAULT_SIZE if args.screenshot else window_size(DEFAULT_SIZE, ui_scale))
    app = App(size, ui_scale=ui_scale)
    try:
        if args.referee:
            open_referee(app, scenario, args.initiative, args.computer)
        elif is_save(scenario):
            app.open_menu().load_battle(scenario)     # a save is a battle: resume it (errors stay on the menu)
        else:
            app.open_menu(scenario)
        prepare(app, args)
        modules_loaded()
        if args.screenshot:
            print(app.screenshot(args.screenshot))
            return 0
        if not args.referee and not is_save(scenario):
            app.offer_resume()
        return app.run()
    finally:
        pygame.quit()
