"""``seven-seconds cards list|validate``: the deck in use, readable, and checking card files."""

from __future__ import annotations

from pathlib import Path

from ..i18n import _
from .. import paths


def register(sub) -> None:
    p = sub.add_parser("cards", help=_("list or validate mission, troop and drone cards"))
    cs = p.add_subparsers(dest="cards_command")
    ls = cs.add_parser("list", help=_("list every card of a deck (default: the deck games use)"))
    ls.add_argument("folder", nargs="?", help=_("a folder of card files"))
    ls.set_defaults(run=run_list)
    v = cs.add_parser("validate", help=_("check a folder of card files; every problem is reported"))
    v.add_argument("folder", nargs="?", help=_("a folder of card files (default: your own cards folder, else the sample deck)"))
    v.set_defaults(run=run_validate)
    p.set_defaults(run=run_list)


def _deck(folder):
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..game.battle.cards import card_files, load_deck, playing_deck

    if folder:
        return load_deck(Path(folder))
    # your own folder is checked strictly here: a game leaves a broken file out, this names every problem
    own = paths.user_cards_dir()
    return load_deck(own) if card_files(own) else playing_deck()


def run_list(args) -> int:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..game.battle.cards import deck_listing

    deck = _deck(getattr(args, "folder", None))
    print(deck_listing(deck))
    if not getattr(args, "folder", None):
        print(f"\nYour own cards go in {paths.user_cards_dir()}; when it holds cards, games use them instead.")
    return 0


def run_validate(args) -> int:
    """Every problem of every card file at once (exit 2), or what the deck holds and whether games use it."""
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..game.battle.cards import bundled_folder

    deck = _deck(args.folder)
    n = len(deck.missions()) + len(deck.troop_cards) + len(deck.drone_cards)
    print(f"{deck.folder}: valid deck: {len(deck.missions())} missions, {len(deck.troop_cards)} troop cards, "
          f"{len(deck.drone_cards)} drone cards, a price list ({n} cards)")
    if _same(deck.folder, bundled_folder()):
        print(f"This is the unofficial sample deck; games use it until {paths.user_cards_dir()} holds card files.")
    elif _same(deck.folder, paths.user_cards_dir()):
        print("These are your own cards: games use them instead of the sample deck.")
    else:
        print(f"To play with these cards, copy the files to {paths.user_cards_dir()}")
    return 0


def _same(a: Path | None, b: Path) -> bool:
    try:
        return a is not None and Path(a).resolve() == b.resolve()
    except OSError:
        return False
