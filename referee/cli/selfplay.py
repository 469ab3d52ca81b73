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
    p.add_argument("--table", default=None, help=_("a scenario file, or a bundled table by name such as pastoral-hills (default: the bundled table)"))
    p.add_argument("--factions", default=None, help=_("side A's and side B's faction ids, as A,B (default: drawn)"))
    p.add_argument("--out", required=True, help=_("the save file to write (.json)"))
    p.set_defaults(run=run)


def _pair(text: str, what: str) -> list[str]:
    parts = [x.strip() for x in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise InputError(what, f"expected two values separated by a comma, for side A and side B (got {text!r})")
    return parts


def run(args) -> int:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from .. import paths
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.factions import faction_files
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.scenario import load_scenario
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..service.selfplay import play_selfplay

    players = _pair(args.players, "--players")
    for kind in players:
        if kind not in PLAYER_KINDS:
            raise InputError("--players", f"a player is one of {', '.join(PLAYER_KINDS)} (got {kind!r})")
    if args.rounds is not None and args.rounds < 1:
        raise InputError("--rounds", f"expected a number of rounds of 1 or more (got {args.rounds})")
    table = load_scenario(paths.table_file(args.table) if args.table else paths.DEFAULT_SCENARIO)
    rng = random.Random(args.seed)
    known = sorted(faction_files())
    if args.factions:
        factions = _pair(args.factions, "--factions")
        for f in factions:
            if f not in known:
                raise InputError("--factions", f"expected one of {', '.join(known)} (got {f!r})")
    else:
        factions = [rng.choice(known), rng.choice(known)]
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..progress import progress_bar

    with progress_bar(args.rounds, "playing", "round") as bar:
        def advance(round_: int) -> None:
            # The bar counts finished rounds (set-up is round 0 to it); a battle with no --rounds has no total.
            bar.update(max(0, round_ - 1) - bar.n)

        played = play_selfplay(table, {"A": factions[0], "B": factions[1]}, {"A": players[0], "B": players[1]},
                               args.seed, rng, args.rounds, MAX_ACTIONS, args.out, on_round=advance)
    written = played.written
    for side, reasons in played.reasons.items():
        path = Path(written).with_name(Path(written).name + f".computer-{side}.txt")
        lines = reasons.lines
        path.write_text(f"{reasons.player}, side {side}: its reasons, one line per decision\n" + "\n".join(lines) + "\n",
                        encoding="utf-8")
        print(f"{path}: side {side}'s reasons ({len(lines)} decisions)")
    result = "over" if played.phase == "over" else f"stopped in {played.phase.replace('-', ' ')}"
    print(f"{written}: {table.name}, {factions[0]} (A) against {factions[1]} (B), seed {args.seed}: "
          f"{played.actions} actions in {played.round} round{'s' if played.round != 1 else ''}, {played.refused} refused; "
          f"battle {result}" + (f", table {'Contested' if played.control is None else 'controlled by ' + played.control}"
                                if played.phase == "over" else "")
          + (f"; {played.winner and 'side ' + played.winner + ' wins' or 'a draw'}" if played.scored else ""))
    return 0
