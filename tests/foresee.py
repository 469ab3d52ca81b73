"""A player who tries to foresee the dice (issue 32, item 2), with everything a player at home can have: the seed
typed at set-up, a save made mid-turn (the autosave, say) and ``replay SAVE --do`` on it.

Battles are set up as the window sets one up (a typed seed; ``new_seeded_dice(seed, private=True)``; the session
writes the dice commitments) and played by the random player. Before each action that rolls, the spy saves the
battle as it stands and foretells the action's dice three ways:

* ``seed``: the battle's record played on with dice of the typed seed alone, keyed to the same moment as the
  session keys them (``SeededDice(seed)``, what a seed gave away before);
* ``file``: the dice the save holds (``read_save(...).dice``), keyed to the same moment;
* ``replay --do``: the action done on the save exactly as ``seven-seconds replay SAVE --do ACTION`` does it
  (``open_save(SAVE).session.attempt``).

The battle then plays the action, and each foretold face is compared with the one rolled. By chance one die in six
matches; a foretelling that matches more often than that (a binomial test) foresees the dice.
"""

from __future__ import annotations

import math
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.players.random_play import random_action
from referee.game.records.record import new_seeded_dice, read_save, save_game
from referee.game.play.setup import SetupChoices, choice_actions, new_game
from referee.rules.scenario import parse_scenario
from referee.service.battles import open_save
from referee.service.session import BattleSession

from .tables import rect

FACTIONS = {"A": "council-of-zane", "B": "new-tokyo"}
TABLE = parse_scenario({"name": "open field", "table": {"width": 36, "height": 36},
                        "terrain": [rect("w1", "woods", 14, 14, 20, 20)]}, "open field")
WAYS = ("seed", "file", "replay --do")


@dataclass
class Foreseen:
    """For each way: dice foretold, faces that matched, actions whose every die matched (and their chance)."""

    dice: dict[str, int] = field(default_factory=lambda: dict.fromkeys(WAYS, 0))
    matched: dict[str, int] = field(default_factory=lambda: dict.fromkeys(WAYS, 0))
    actions: int = 0
    whole: dict[str, int] = field(default_factory=lambda: dict.fromkeys(WAYS, 0))
    whole_chance: float = 0.0          # the number of whole actions a blind guess would foretell
    chances: list[float] = field(default_factory=list)    # each action's chance of being foretold whole by luck

    def rate(self, way: str) -> float:
        return self.matched[way] / self.dice[way] if self.dice[way] else 0.0

    def p_value(self, way: str) -> float:
        """The chance of matching at least this many faces by luck (one in six each): small means foreseen."""
        n, k, p = self.dice[way], self.matched[way], 1 / 6
        return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))

    def above_chance(self, way: str) -> bool:
        return self.p_value(way) < 0.001

    def whole_p_value(self, way: str) -> float:
        """The chance of foretelling at least this many whole actions by luck, each with its own chance (one in six
        for each of its dice): the tail of their Poisson-binomial distribution."""
        tail = [1.0]                       # tail[k]: the chance of exactly k so far
        for p in self.chances:
            tail = [a * (1 - p) + b * p for a, b in zip(tail + [0.0], [0.0] + tail)]
        return sum(tail[self.whole[way]:])


def window_battle(seed: int) -> tuple[BattleSession, random.Random]:
    """A battle set up as the window sets one up with ``seed`` typed in."""
    game = new_game(TABLE, FACTIONS)
    session = BattleSession(game, new_seeded_dice(seed, private=True), hotseat=True, autosaving=False)
    while session.state.phase == "setup":
        assert session.attempt(choice_actions(session.state, SetupChoices(FACTIONS))).legal
    return session, random.Random(seed)


def _d6(rolls) -> list[float]:
    return [r.value for r in rolls if r.kind == "d6"]


def _foretold(session: BattleSession, action, dice: SeededDice) -> list[float]:
    """The action's dice as ``dice`` roll it at this moment of the battle (the session's own keying)."""
    copy = Game(session.game.initial, list(session.game.record), session.state.copy(), players=session.game.players)
    spy = BattleSession(copy, dice, hotseat=True, autosaving=False)
    out = spy.attempt(action)
    return _d6(out.outcome.rolls) if out.outcome is not None and out.outcome.legal else []


def foresee(battles: int, actions: int, folder: Path | None = None, total: int | None = None) -> Foreseen:
    """``actions`` actions that roll dice in each of ``battles`` battles (or battles one after another until
    ``total`` actions rolled), each foretold the three ways."""
    seen = Foreseen()
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(folder or tmp)
        for seed in range(1, battles + 1):
            if total is not None and seen.actions >= total:
                break
            session, rng = window_battle(seed)
            done = tries = 0
            while (done < actions and session.state.phase != "over" and tries < actions * 60
                   and (total is None or seen.actions < total)):
                tries += 1
                action = random_action(session.state, rng)
                if action.kind in ("end-of-round", "objectives") and session.state.phase == "action":
                    continue
                ways = {"seed": _foretold(session, action, SeededDice(seed))}
                if not ways["seed"]:
                    # Rolls no die (or is refused): played on, unforetold. Only actions that roll are saved and tried.
                    session.attempt(action)
                    continue
                save = save_game(session.game, where / f"mid-turn-{seed}.json", session.dice, overwrite=True)
                ways["file"] = _foretold(session, action, read_save(save).dice or SeededDice(seed))
                attempt = open_save(save).session.attempt(action)
                ways["replay --do"] = _d6(attempt.outcome.rolls) if attempt.outcome and attempt.outcome.legal else []
                out = session.attempt(action)
                if out.outcome is None or not out.outcome.legal:
                    continue
                rolled = _d6(out.outcome.rolls)
                if not rolled:
                    continue
                done += 1
                seen.actions += 1
                seen.whole_chance += 6.0 ** -len(rolled)
                seen.chances.append(6.0 ** -len(rolled))
                for way, faces in ways.items():
                    if len(faces) != len(rolled):
                        seen.dice[way] += len(rolled)
                        continue
                    seen.dice[way] += len(rolled)
                    hits = sum(a == b for a, b in zip(faces, rolled))
                    seen.matched[way] += hits
                    seen.whole[way] += hits == len(rolled)
    return seen
