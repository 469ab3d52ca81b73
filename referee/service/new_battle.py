"""The set-up service: a new battle built from the players' choices, handed to the window as a session.

The window's new-battle form (``ui/scenes/setup.py``) gathers the table, each side's faction, who rolls the dice and
the opponent; this builds the battle at its first set-up decision (``game/play/setup.py: new_game``), the dice and the
computer, and answers with the ``BattleSession`` the set-up table scene then plays through.
"""

from __future__ import annotations

from ..game.players.computer import LEVELS, Computer
from ..game.players.computer.levels import LEVEL_WORDS
from ..game.battle.dice import SeededDice, new_seed
from ..game.records.record import new_seeded_dice
from ..game.play.setup import new_game
from ..rules.scenario import Scenario
from .session import PROGRAM, BattleSession

__all__ = ["LEVELS", "LEVEL_WORDS", "new_draw_seed", "start_battle"]


def new_draw_seed() -> int:
    """A seed of the program's own for its card draws while the players roll physical dice."""
    return new_seed()


def start_battle(table: Scenario, factions: dict[str, str], streak: dict[str, int] | None = None,
                 dice_mode: str = PROGRAM, seed: int | None = None, opponent: tuple[str, str] | None = None,
                 draw_seed: int | None = None) -> BattleSession:
    """A new battle at its first set-up decision. ``opponent``: the computer's side and level (None: two players at
    the screen). A missing faction raises ``InputError``."""
    game = new_game(table, factions, streak, labels_apart=True)
    computer = None
    if opponent is not None:
        # Never the typed seed: the person who typed it could run the computer's own draws (which square each
        # of its blips stands for) again at home.
        computer = Computer(opponent[0], opponent[1], new_seed())
    # One generator for the whole battle, set-up's rolls and draws then every action's, from one seed. With
    # physical dice the program still draws the cards and "for me" placements, from a seed of its own. A typed
    # seed replays the table's dice; the sides' secret draws are salted, since everyone at the table knows it.
    dice = new_seeded_dice(seed, private=True) if dice_mode == PROGRAM else None
    session = BattleSession(game, dice, hotseat=True, computer=computer)
    if dice is None:
        session.draws = (SeededDice(draw_seed if draw_seed is not None else new_seed()) if seed is None
                         else new_seeded_dice(seed, private=True))
    return session
