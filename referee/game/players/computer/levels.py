"""The computer's levels: named settings of how much it looks before it acts.

Every level plays from its own player view only. They differ in how many hidden worlds it imagines (the
determinizations of ``determinize.py``), how many dice it rolls in its head per action, how many places it tries for a
Move, and, for ``easy``, how often it settles for a fair action instead of the best one and that it does not heed
the danger its own units stand in (a beginner's play: it goes for its mission and takes its shots, and walks into
the fire it could have seen coming). ``normal`` and ``hard`` heed it, the ground a Move ends on included; ``hard``
weighs its best actions with the rest of the unit's activation played out after each.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    name: str
    worlds: int            # hidden worlds sampled consistently with the view; each action is scored in every one
    dice_samples: int      # dice rolled in the head for an action whose outcome is random
    move_points: int       # end points tried for a Move or Jump (besides the ones aimed at goals)
    slack: float           # easy: any action within this much of the best value may be chosen at random
    look_ahead: bool       # the best first actions are scored with the rest of the activation played out after each
    activations: int       # units weighed in full when choosing which to activate (the likeliest first)
    look_ahead_width: int = 0      # with look_ahead: how many of the best first actions are weighed again
    look_ahead_rolls: int = 0      # ... over this many rolls of the first action's dice in each imagined world
    blasts: bool = False            # the enemy's next missiles counted with their blasts (``reply.py``)
    # The enemy's next shots at its own units, the counters on them, enemy blips close by and the enemies that could
    # see a trooper where it ends a Move or a blip is revealed (the exposure map, priced at ``player.EXPOSURE_COST``
    # each), all weighed against an action; easy weighs only its own chances.
    heeds_danger: bool = True
    # It withdraws at the end of a round when the battle so ended wins, allowed or pursued, against most of the
    # missions the opponent may hold in a Chance Encounter, against all of them in an attack or a defence (p.16, A43;
    # ``Computer._end_of_round``).
    withdraws: bool = False
    # Hard's played-out activations (``search.py``, with look_ahead): the actions one takes at most (a blip's two
    # revealed troopers take 4), the Targets and missiles tried at each step (those that place the most counters, at
    # the targets carrying the most; besides those, the Targets on objectives its mission still Inspects), the rolls
    # weighing each step's action (a rifle shot: exact), and the candidates one decision weighs at most: a count,
    # never a time, so the same view gets the same decision.
    play_out_steps: int = 5
    step_targets: int = 4
    step_missiles: int = 2
    step_rolls: int = 1
    search_budget: int = 320


LEVELS: dict[str, Level] = {
    "easy": Level("easy", worlds=1, dice_samples=1, move_points=5, slack=4.0, look_ahead=False, activations=2,
                  heeds_danger=False),
    "normal": Level("normal", worlds=1, dice_samples=3, move_points=8, slack=0.0, look_ahead=False, activations=3),
    "hard": Level("hard", worlds=2, dice_samples=4, move_points=12, slack=0.0, look_ahead=True, activations=6,
                  look_ahead_width=3, look_ahead_rolls=1, blasts=True, withdraws=True),
}


# What each level does, in a player's words (the window shows it where the opponent is chosen).
LEVEL_WORDS: dict[str, str] = {
    "easy": "Easy plays like a beginner: it goes for its mission and takes its shots, often settles for a fair "
            "action instead of the best one, and walks into fire it could have seen coming.",
    "normal": "Normal is a fair club opponent: it weighs the dice of every action and the danger its units stand "
              "in (enemy shots, Target counters, enemy blips close by, ground the enemy sees), one action at a time.",
    "hard": "Hard is the strongest it plays in the time: it weighs its best actions with the rest of the unit's "
            "activation played out after each, in two imagined worlds, counts missile blasts, and withdraws when "
            "that wins.",
}


def level(name: str) -> Level:
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"a computer level is one of {', '.join(LEVELS)} (got {name!r})") from None
