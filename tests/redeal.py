"""The re-deal differential (issue 32): deal the opponent's secrets again, consistently with what the seat has seen,
and require every output for that seat to be identical.

A seat's outputs may depend only on what it has seen. So for a battle state and a seat, the opponent's secrets are
dealt again in a way the seat cannot tell from the real deal: two of the opponent's blip counters still unrevealed
swap the squares they stand for (one real, one a decoy, when there is such a pair: the real unit is now under the
other counter). The opponent's mission is not dealt again here: a mission's round limit is public in play once the
battle reaches it, so another mission is not always consistent with what the seat saw. Then each output the seat gets is
computed on both deals and compared:

* the **screen**: the seat's player view, whole (table, blips, labels, log, dialogs' words);
* the **previews**: the engine's preview of each of the seat's legal actions (allowed or not, its reason, its
  figures), as the window shows them before a die;
* the **files** the seat may read of the battle's public part: the record's actions as the seat's replay shows them
  (each side's sealed secrets in files are the sealed-files layer's, tested there);
* **timing**: how long the view and the previews take, in buckets of 100 ms (the median of three). On a machine
  shared with other work a time near a bucket's edge can fall either side: ``timed_apart`` counts those apart.

A single difference is a leak. A planted one must be caught: ``shifted_view`` is the player view with the opponent's
real blips moved 0.004" (the position leak the token spy was blind to, AUC 0.48).
"""

from __future__ import annotations

import functools
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.game.play.engine import Game, begin_battle
from referee.game.play.legal import legal_actions
from referee.game.players.random_play import play_random
from referee.game.battle.dice import SeededDice
from referee.game.play.session import preview
from referee.game.play.setup import SetupChoices, new_battle
from referee.game.battle.state import GameState, other
from referee.game.views.view import player_view

from .foresee import FACTIONS, TABLE

View = Callable[[GameState, str], Any]
TIMING_BUCKET = 0.1
PREVIEWS = 12


def shifted_view(state: GameState, side: str) -> Any:
    """The player view with a planted position leak: each of the opponent's real blips 0.004" to the right."""
    v = player_view(state, side)
    real = {b.id for b in state.blips.values() if state.blip_contents(b)}
    for b in v["blips"]:
        if b["id"] in real and b["side"] != side:
            b["x"] = b["x"] + 0.004
    return v


def redealt(state: GameState, seat: str, rng: random.Random) -> GameState | None:
    """``state`` with the opponent's secrets dealt again as the seat cannot tell: two of its unrevealed blip counters
    (a real one and a decoy) swap their squares. None if there is no such pair."""
    them = other(seat)
    mine = [b for b in state.blips.values() if b.side == them]
    real = [b for b in mine if state.blip_contents(b)]
    decoys = [b for b in mine if not state.blip_contents(b)]
    if not real or not decoys:
        return None
    again = state.copy()
    one, two = again.blips[rng.choice(real).id], again.blips[rng.choice(decoys).id]
    one.square, two.square = two.square, one.square
    return again


def _timed(thunk: Callable[[], Any]) -> tuple[Any, int]:
    times, value = [], None
    for _ in range(3):
        started = time.perf_counter()
        value = thunk()
        times.append(time.perf_counter() - started)
    return value, int(statistics.median(times) / TIMING_BUCKET)


def outputs(state: GameState, seat: str, view: View, record: list[dict]) -> dict[str, Any]:
    """Everything ``seat`` gets of ``state``, as canonical text per output."""
    screen, screen_time = _timed(lambda: json.dumps(view(state, seat), sort_keys=True, default=str))
    actions = legal_actions(state, seat)[:PREVIEWS]

    def previews() -> str:
        out = []
        for legal in actions:
            if legal.kind == "target":
                tries = [legal.action(dice=legal.free["dice"][1], assign={tid: 1}) for tid in legal.free["assign"]]
            elif not legal.free:
                tries = [legal.action()]
            else:
                continue
            for action in tries:
                p = preview(state, action)
                out.append([action.to_data(), p.legal, p.reason, p.figures])
        return json.dumps(out, sort_keys=True, default=str)

    shown, preview_time = _timed(previews)
    return {"screen": screen, "previews": shown, "files": json.dumps(record, sort_keys=True),
            "timing": [screen_time, preview_time]}


@dataclass
class Differential:
    states: int = 0
    differed: int = 0                       # states in which screen, previews or files differed between the deals
    timed_apart: int = 0                    # states whose timing buckets differed (a leak, or a time at an edge)
    by_output: dict[str, int] | None = None


@functools.lru_cache(maxsize=4)
def battle_states(count: int, steps: int = 25) -> list[tuple[GameState, list[dict]]]:
    """Battle states after random play, each with its record's public actions (what a seat's replay shows)."""
    out = []
    seed = 0
    while len(out) < count and seed < count * 5:
        seed += 1
        state, _ = new_battle(TABLE, SetupChoices(FACTIONS), SeededDice(seed))
        game = Game(begin_battle(state) if state.phase == "setup" else state)
        play_random(game, random.Random(seed), steps, SeededDice(seed))
        if game.state.phase == "over":
            continue
        record = [e.action.to_data() for e in game.record]
        out.append((game.state, record))
    return out


def differential(view: View, count: int = 20, seat: str = "A") -> Differential:
    """Over ``count`` battle states: in how many did any output for ``seat`` differ between the real deal and a
    re-deal of the opponent's secrets?"""
    result = Differential(by_output={})
    assert result.by_output is not None
    rng = random.Random(32)
    for state, record in battle_states(count * 2):
        if result.states == count:
            break
        again = redealt(state, seat, rng)
        if again is None:
            continue
        result.states += 1
        real, other_deal = outputs(state, seat, view, record), outputs(again, seat, view, record)
        differing = [name for name in real if real[name] != other_deal[name]]
        result.differed += bool(set(differing) - {"timing"})
        result.timed_apart += "timing" in differing
        for name in differing:
            result.by_output[name] = result.by_output.get(name, 0) + 1
    return result
