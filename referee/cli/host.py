"""``seven-seconds host SAVE-OR-TABLE``: serve a battle on the local network, each player's hand on their phone.

A table (a scenario file, or a bundled table by name) starts a new battle; a save (or the autosave) resumes one.
Each seat's link is printed with its QR code: a side's link carries that side's credential, the spectator's opens
the public table. The battle autosaves as the window's do; the host stops when the battle is over (or on Ctrl+C, or
a plain ``kill``).
"""

from __future__ import annotations

import io
import random
import signal
import sys
import time
from pathlib import Path

from ..i18n import N_, _
from ..rules.errors import InputError
from .pins import add_pin_options, keys_from

SEAT_NAMES = {"A": N_("side A's hand"), "B": N_("side B's hand"), "spectator": N_("the table (spectators)")}


def register(sub) -> None:
    p = sub.add_parser("host", help=_("serve a battle on the local network: each player's hand on their phone"),
                       description=_("Serve a battle to phones and other computers on the local network: a table "
                                   "starts a new battle, a save resumes one. Each seat's link and QR code is "
                                   "printed; the host stops when the battle is over."))
    p.add_argument("battle", metavar="SAVE-OR-TABLE", nargs="?", default=None,
                   help=_("a saved battle (.json, or the autosave) to resume, or a table (a scenario file, or a "
                          "bundled table by name such as pastoral-hills) to start a new battle on"))
    p.add_argument("--campaign", default=None, metavar="FILE",
                   help=_("serve this campaign's next battle: on the table given, with the factions as the campaign "
                          "made them and its streak bonus; or, with no table, continue the battle of the campaign "
                          "that was started and is not over. Its result is recorded in the campaign when it ends"))
    p.add_argument("--port", type=int, default=0, help=_("the port to listen on (default: any free port)"))
    p.add_argument("--bind", default=None, metavar="ADDR",
                   help=_("the address to listen on (default: this computer's local-network address; 0.0.0.0: "
                          "every address, 127.0.0.1: this computer only)"))
    p.add_argument("--factions", default=None, help=_("a new battle: side A's and side B's faction ids, as A,B "
                                                      "(default: drawn)"))
    p.add_argument("--physical-dice", action="store_true", dest="physical",
                   help=_("a new battle: the players roll their own dice and type the faces on their phones"))
    p.add_argument("--referee", action="store_true",
                   help=_("a new battle: referee a physical game on this table (the miniatures, dice and cards on the "
                          "real table); each side enters its mission card and tells what its blips hold on its own "
                          "phone, and types the dice it rolls there. A refereed battle's save is served as refereed"))
    p.add_argument("--initiative", choices=("A", "B"), default=None,
                   help=_("with --referee: the side holding the Initiative in round 1 (default: the attacker, or A)"))
    p.add_argument("--computer", default=None, metavar="SIDE:LEVEL",
                   help=_("a new battle: the computer plays this side (A or B) at this level (easy, normal, hard), "
                          "as B:normal; the other side plays on its phone or from another computer"))
    p.add_argument("--kept-by", action="append", choices=("A", "B"), default=None, dest="kept_by", metavar="SIDE",
                   help=_("this side keeps its secrets on its own device: its phone's hand, or a computer that "
                          "joins with seven-seconds join, draws its cards and fills its holding area there and sends "
                          "only commitments, and opens a blip's square at its reveal (A or B; may be given twice)"))
    p.add_argument("--no-qr", action="store_true", dest="no_qr", help=_("print the links without their QR codes"))
    # The PINs that seal the battle's files for its players (a new battle), or open a sealed save to resume.
    add_pin_options(p)
    p.set_defaults(run=run)


def _session(args):
    """The battle to serve: a save resumed, else a new battle on a table; and whether it is new."""
    if args.campaign is not None:
        return _campaign_session(args)
    if args.battle is None:
        raise InputError("SAVE-OR-TABLE", "name a saved battle to resume or a table to start a new battle on (or "
                                          "--campaign FILE for a campaign's battle)")
    # Lazy: the battle service and the rules load for this command only.
    from .. import paths
    from ..rules.factions import faction_files  # lazy: loaded when this command runs
    from ..rules.scenario import load_scenario  # lazy: loaded when this command runs
    from ..service.battles import new_session  # lazy: loaded when this command runs
    from ..service.opening import read_battle  # lazy: loaded when this command runs

    path = Path(args.battle)
    if path.suffix.lower() == ".json" and path.is_file():
        try:
            battle = read_battle(path)
            if not hasattr(battle, "open"):            # sealed for its players: opened with their PINs only
                battle = battle.unlock(_pins(args, battle.sides(), path))
            session = battle.open(served=True)
        except InputError as save_error:
            try:
                table = load_scenario(path)
            except InputError:
                raise save_error from None
        else:
            if args.computer is not None:
                raise InputError("--computer", "a saved battle says who plays it; --computer starts a new battle")
            if args.referee and not session.refereed:
                raise InputError(str(path), "a hot-seat battle's save, not a refereed one: serve it without --referee")
            session.hotseat = False          # the sides play on their own devices: no hand-off at any screen
            return session, False
    else:
        table = load_scenario(paths.table_file(args.battle))
    if args.referee:
        from ..service.referee import RefereeSession  # lazy: loaded when this command runs

        if args.computer is not None:
            raise InputError("--computer", "a refereed physical game against the computer is played at the window "
                                           "(seven-seconds play TABLE --referee --computer SIDE:LEVEL)")
        if args.factions or args.physical:
            raise InputError("--referee", "a physical game is fought with the table's own units and the players' own "
                                          "dice: leave out --factions and --physical-dice")
        return RefereeSession.from_scenario(table, args.initiative), True
    if args.initiative is not None:
        raise InputError("--initiative", "sets round 1's Initiative of a refereed physical game: use it with "
                                         "--referee")
    known = sorted(faction_files())
    if args.factions:
        factions = [x.strip() for x in args.factions.split(",")]
        if len(factions) != 2 or not all(f in known for f in factions):
            raise InputError("--factions", f"expected two of {', '.join(known)} as A,B (got {args.factions!r})")
    else:
        rng = random.Random()
        factions = [rng.choice(known), rng.choice(known)]
    session = new_session(table, {"A": factions[0], "B": factions[1]}, program_dice=not args.physical,
                          computer=_computer(args.computer))
    _seal(args, session)
    return session, True


def _pins(args, sides, path: Path) -> dict[str, str]:
    """The players' PINs that open a battle sealed for ``sides`` (none: every key is the program's own); refused
    when none was given."""
    keys = keys_from(args)
    if keys is None and sides:
        raise InputError(str(path), "this battle's files are sealed for its players: give their PINs (--pin-file "
                                    "FILE, --ask-pin A --ask-pin B, or SEVEN_SECONDS_PIN_A and SEVEN_SECONDS_PIN_B)")
    return keys.pins if keys is not None else {}


def _seal(args, session) -> None:
    """A new battle's files sealed for its players when they give PINs; against the computer always (its secrets),
    the player's key kept by the program when no PIN is given."""
    keys = keys_from(args)
    if keys is not None or session.computer is not None:
        session.seal_with(keys.pins if keys is not None else {})


def _campaign_session(args):
    """``--campaign FILE``: the campaign's battle that was started and is not over, continued; else its next battle
    on the table given, begun (its save beside the campaign file from the start). And whether it is new."""
    # Lazy: the campaign service loads for this command only.
    from .. import paths
    from ..rules.scenario import load_scenario  # lazy: loaded when this command runs
    from ..service.campaigns import (begin_campaign_battle, continue_battle,  # lazy: loaded when this command runs
                                     new_campaign_session, unfinished_in)

    campaign = Path(args.campaign)
    for flag, given in (("--referee", args.referee), ("--factions", args.factions),
                        ("--initiative", args.initiative)):
        if given:
            raise InputError(flag, "a campaign's battle is fought by the program with the factions as the campaign "
                                   f"made them: leave out {flag}")
    battle = unfinished_in(campaign)
    if battle is not None:
        if args.battle is not None or args.computer is not None or args.physical:
            raise InputError("--campaign", f"the campaign's next battle was started and is not over ({battle.path}): "
                                           f"continue it with seven-seconds host --campaign {campaign}, with no table "
                                           "(it goes on with its own table, players and dice)")
        pins = _pins(args, battle.sealed.sides(), battle.path) if battle.sealed is not None else None
        session = continue_battle(campaign, battle, pins, served=True)
        session.hotseat = False              # the sides play on their own devices: no hand-off at any screen
        return session, False
    if args.battle is None:
        raise InputError("--campaign", f"the campaign's next battle needs a table: seven-seconds host TABLE "
                                       f"--campaign {campaign} (a scenario file, or a bundled table such as "
                                       "pastoral-hills)")
    table = load_scenario(paths.table_file(args.battle))
    session, number = new_campaign_session(campaign, table, program_dice=not args.physical,
                                           computer=_computer(args.computer))
    _seal(args, session)
    begin_campaign_battle(session, campaign, number)
    return session, True


def _kept_by(args, session) -> tuple[str, ...]:
    """``--kept-by``: the sides whose secrets stay on their own computer, checked against the battle served."""
    sides = tuple(sorted(set(args.kept_by or ())))
    if not sides:
        return ()
    if session.refereed:
        raise InputError("--kept-by", "a refereed physical game keeps every secret on the table already: each side "
                                      "tells its blips' contents on its own hand")
    if session.computer is not None and session.computer.side in sides:
        raise InputError("--kept-by", f"side {session.computer.side} is the computer's: its secrets stay with it")
    if session.dice is None:
        raise InputError("--kept-by", "a side's commitments name the battle by its program dice: leave out "
                                      "--physical-dice")
    return sides


def _computer(text: str | None) -> tuple[str, str] | None:
    """``--computer SIDE:LEVEL`` read: the side and level, or None; a wrong one raises ``InputError``."""
    # Lazy: the computer's levels load for this command only.
    from ..game.players.computer.levels import LEVELS  # lazy: loaded when this command runs

    if text is None:
        return None
    side, _sep, level = text.partition(":")
    if side not in ("A", "B") or level not in LEVELS:
        raise InputError("--computer", f"expected A or B, a colon and one of {', '.join(LEVELS)}, as B:normal "
                                       f"(got {text!r})")
    return side, level


def qr_text(link: str) -> str:
    """The link's QR code drawn in the terminal's characters (segno)."""
    # Lazy: the QR encoder loads when a host starts, not with every command.
    import segno

    out = io.StringIO()
    segno.make(link, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def _stopped(signum, frame) -> None:
    raise KeyboardInterrupt


def run(args) -> int:
    # Lazy: the web stack loads for this command only.
    from ..net.credentials import Credentials
    from ..service.opening import autosave_file as autosave_path  # lazy: loaded when this command runs
    from ..net.host import Host, ledger_file, port_file, seats_file, serve_seats  # lazy: loaded when this command runs

    if not 0 <= args.port <= 65535:
        raise InputError("--port", f"expected a port from 1 to 65535, or 0 for any free one (got {args.port})")
    session, new = _session(args)
    kept_by = _kept_by(args, session)
    failed: list[str] = []                   # what went wrong saving a campaign's battle when the host stopped
    resumed = (not new and args.battle is not None
               and Path(args.battle).resolve() == autosave_path().resolve())
    if not resumed:
        # Another battle than the autosave's: no intent of the earlier one is kept, and its links no longer open.
        ledger_file().unlink(missing_ok=True)
        seats_file().unlink(missing_ok=True)
        port_file().unlink(missing_ok=True)
    try:
        host, moved = Host.start_again(session, port=args.port, bind=args.bind, resumed=resumed,
                                       credentials=Credentials.kept(seats_file()),
                                       computer_first=session.computer is not None, kept_by=kept_by)
    except OSError as e:
        raise InputError("--bind", str(e)) from None
    if moved:
        print(moved)
    # From here on Ctrl+C stops the host cleanly, even while the links are still being printed, and so does a
    # plain `kill` (SIGTERM, as a service manager stops it): the battle is autosaved either way.
    signal.signal(signal.SIGTERM, _stopped)
    try:
        print(_("Serving the battle at {url} (Ctrl+C stops it; the battle is autosaved after every action).").format(
            url=host.url))
        if session.campaign is not None:
            print(_("A battle of the campaign {file}: its result is recorded there when it ends.").format(
                file=session.campaign))
        computer = session.computer.side if session.computer is not None else None
        if computer is not None:
            print(_("The computer plays side {side} ({level}); its decisions are taken here.").format(
                side=computer, level=session.computer.level.name))
        for side in kept_by:
            print(_("Side {side} keeps its secrets on its own device: open its link on its phone, or with "
                    "seven-seconds join on its computer.").format(side=side))
        for seat in serve_seats():
            if seat == computer:
                continue                                 # nobody's hand: the computer plays it
            print()
            print(_("{who}: {link}").format(who=_(SEAT_NAMES[seat]), link=host.link(seat)))
            if not args.no_qr:
                print(qr_text(host.link(seat)), end="")
        sys.stdout.flush()
        waiting = dice_waiting = False
        while True:
            time.sleep(0.5)
            with host.lock:
                over, opening, dice = session.over, session.scored_when_opened(), session.dice_to_open()
            if opening and not waiting:
                waiting = True
                print(_("The battle is over: waiting for the computer of each side that keeps its secrets to open "
                        "its holding area and its cards, then it is scored."))
                sys.stdout.flush()
            if dice and not opening and not dice_waiting:
                dice_waiting = True
                print(_("The battle is over: waiting for the computer of side {side} to open its dice contribution, "
                        "so that every share of the dice it sent is checked.").format(side=" and side ".join(dice)))
                sys.stdout.flush()
            if over and not opening and not dice:
                with host.lock:
                    told = [*session.campaign_recorded, *session.messages]
                for line in told:                    # the campaign's record of the battle, or why it is not
                    print(line)
                print(_("The battle is over: the host stops."))
                time.sleep(2.0)                      # the last screens reach every phone
                break
    except KeyboardInterrupt:
        stopped = True
    else:
        stopped = False
    finally:
        host.stop()
        campaign_saved = session.campaign is not None and not session.over
        if campaign_saved:
            # The campaign's own save of the battle brought up to date, as the window's is when its players leave:
            # host --campaign goes on from it.
            with host.lock:
                messages = len(session.messages)
                session.save_campaign_battle()
                failed = session.messages[messages:]
    if not stopped:
        return 0
    if campaign_saved and not failed:
        print(_("Stopped; the battle is saved beside its campaign (seven-seconds host --campaign {file} goes on with "
                "it).").format(file=session.campaign))
        return 0
    for line in failed:                      # why the campaign's save of it could not be brought up to date
        print(line)
    print(_("Stopped; the battle is in the autosave (seven-seconds host with the autosave resumes it)."))
    return 0
