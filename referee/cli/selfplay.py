"""``seven-seconds selfplay [--seed N] [--rounds R] [--players random,random] --out SAVE``: a whole battle, headless.

Set-up runs as in the window (roles, objectives, cards, holding areas, blips, seals) on the chosen table; then each
side's player chooses among the legal actions (``game.legal``) until the battle ends, or until round R is over, when
both players agree to stop. A player is ``random`` (random legal play) or ``computer:easy``, ``computer:normal`` or
``computer:hard`` (the computer opponent, ``game.computer``, which sees only its own player view); any pairing
works. A computer's one-line reasons go to its own file next to the save (``SAVE.computer-A.txt``), never into the
battle's log. The program rolls every die from the seed, so the same command plays the same battle. The save
replays with ``seven-seconds replay SAVE`` and opens in the window. It serves demonstrations, soak tests and leak
audits.
"""

from __future__ import annotations

import random
from pathlib import Path

from ..i18n import _
from ..rules.errors import InputError

PLAYER_KINDS = ("random", "computer", "computer:easy", "computer:normal", "computer:hard")
MAX_ACTIONS = 20000


def register(sub) -> None:
    p = sub.add_parser("selfplay", help=_("play a whole battle between two computer players and save it"),
                       description=_("Set up and play a whole battle headless, every die rolled from the seed, and "
                                   "write the save."))
    p.add_argument("--seed", type=int, default=1, help=_("the seed of the dice and of the players' choices (default 1)"))
    p.add_argument("--rounds", type=int, default=None, help=_("agree to stop after this round (default: play on)"))
    p.add_argument("--players", default="random,random", help=_("the player for side A and side B: random, computer:easy, computer:normal or "
                        "computer:hard (default random,random)"))
    p.add_argument("--table", default=None, help=_("a scenario file for the table (default: the bundled table)"))
    p.add_argument("--factions", default=None, help=_("side A's and side B's faction ids, as A,B (default: drawn)"))
    p.add_argument("--out", required=True, help=_("the save file to write (.json)"))
    p.set_defaults(run=run)


def _pair(text: str, what: str) -> list[str]:
    parts = [x.strip() for x in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise InputError(what, f"expected two values separated by a comma, for side A and side B (got {text!r})")
    return parts


def run(args) -> int:
    from .. import paths
    from ..game.players import ComputerPlayer, make_player, seat_computer
    from ..game.record import new_seeded_dice, save_game
    from ..game.selfplay import play_battle
    from ..game.setup import new_game
    from ..rules.factions import faction_files
    from ..rules.scenario import load_scenario

    players = _pair(args.players, "--players")
    for kind in players:
        if kind not in PLAYER_KINDS:
            raise InputError("--players", f"a player is one of {', '.join(PLAYER_KINDS)} (got {kind!r})")
    if args.rounds is not None and args.rounds < 1:
        raise InputError("--rounds", f"expected a number of rounds of 1 or more (got {args.rounds})")
    table = load_scenario(Path(args.table) if args.table else paths.DEFAULT_SCENARIO)
    rng = random.Random(args.seed)
    known = sorted(faction_files())
    if args.factions:
        factions = _pair(args.factions, "--factions")
        for f in factions:
            if f not in known:
                raise InputError("--factions", f"expected one of {', '.join(known)} (got {f!r})")
    else:
        factions = [rng.choice(known), rng.choice(known)]
    dice = new_seeded_dice(args.seed)
    # Set-up is the players' first decisions (A60): they make them through the legal actions too.
    game = new_game(table, {"A": factions[0], "B": factions[1]})
    seated = None
    if players != ["random", "random"]:
        seated = {side: make_player(kind, side, args.seed, rng) for side, kind in zip("AB", players)}
    for player in (seated or {}).values():
        if isinstance(player, ComputerPlayer):
            seat_computer(game, player.computer)
    from ..progress import progress_bar

    with progress_bar(args.rounds, "playing", "round") as bar:
        def advance(state) -> None:
            # The bar counts finished rounds (set-up is round 0 to it); a battle with no --rounds has no total.
            bar.update(max(0, state.round - 1) - bar.n)

        played = play_battle(game, dice, rng, args.rounds, MAX_ACTIONS, seated, on_action=advance)
    written = save_game(game, args.out, dice)
    for side, player in (seated or {}).items():
        if isinstance(player, ComputerPlayer):
            path = Path(written).with_name(Path(written).name + f".computer-{side}.txt")
            lines = [f"[round {r}] {text}: {reason}" for r, text, reason in player.reasons]
            path.write_text(f"{player.name}, side {side}: its reasons, one line per decision\n" + "\n".join(lines) + "\n",
                            encoding="utf-8")
            print(f"{path}: side {side}'s reasons ({len(lines)} decisions)")
    s = game.state
    result = "over" if s.phase == "over" else f"stopped in {s.phase.replace('-', ' ')}"
    print(f"{written}: {table.name}, {factions[0]} (A) against {factions[1]} (B), seed {args.seed}: "
          f"{len(game.record)} actions in {s.round} round{'s' if s.round != 1 else ''}, {played.refused} refused; "
          f"battle {result}" + (f", table {'Contested' if s.control is None else 'controlled by ' + s.control}"
                                if s.phase == "over" else "")
          + (f"; {s.result['winner'] and 'side ' + s.result['winner'] + ' wins' or 'a draw'}"
             if s.phase == "over" and s.result and "winner" in s.result else ""))
    return 0
