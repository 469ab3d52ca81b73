"""A long game: 200 rounds of random legal play, every invariant checked after every action, memory flat.

The 200 rounds are a soak run (``pytest -m soak``, run by CI beside the default suite); the default suite plays the
same table with every check for 14 rounds of another seed's battle, whose truce begins in round 13 (the soak's
begins in round 23), its memory measured in round 6 and round 14.

Under the rules a battle this long cannot happen by itself: it ends when a side has no troopers left, when a player
withdraws or both agree to stop, or at a mission's round limit (p.16, A43). So the two random players here agree to
play on:

* the mission cards are ones without a round limit (A43: no limit unless a card sets one);
* at the end of every round neither withdraws nor offers to stop;
* once either side is down to its last two troopers the players call a truce: nobody fires a rifle, a missile, a
  flamer or a kamikaze drone any more, and a Haywire drone switches its jammer off when it is activated (a jamming
  field is the only other thing that destroys a trooper). Everything else goes on: moves, jumps, Target, Command,
  Repair, Scramble, reveals, the Initiative roll every round.

Checked after every proposal: the table invariants of ``test_random_play.check_table``; a refused proposal changes
nothing; each recorded action replays from the previous state with its recorded dice to exactly the same state and
log; neither player's view holds the other's secrets. Memory: the state (the log aside) stays the same size; no
module-level cache or table in ``referee`` keeps growing; an action in round 200 needs no more memory than one in
round 20 (the engine copies the state for each action, and copying a log that grows all game made every action
slower and larger the longer the battle ran); the memory a round keeps (its log and record entries) is the same in
round 200 as in round 20.
"""

from __future__ import annotations

import functools
import gc
import json
import random
import sys
import tracemalloc

import pytest

from referee.game.battle.intents import Action
from referee.game.battle.dice import SeededDice, replay_source
from referee.game.play.engine import Game, begin_battle, play
from referee.game.players.random_play import random_action
from referee.game.play.seal import verify_seals
from referee.game.play.setup import SetupChoices, new_battle
from referee.game.battle.state import SIDES, GameState
from referee.game.play.victory import round_limit
from referee.game.views.view import player_view
from referee.game.play.actions import CATCHES_KEPT
from referee.rules.battlefield import FEATURES_KEPT, PIECES_KEPT, TABLES_KEPT
from referee.rules.fast_geometry import CONVEX_KEPT
from referee.rules.movement import MOVES_KEPT, SPANS_KEPT
from referee.rules.scenario import parse_scenario

from .tables import rect
from .test_random_play import check_table, data_of, secrets_of

ROUNDS = 200
SEED = 2024
SHORT_ROUNDS = 14       # the default suite's battle, measured in round SHORT_EARLY and its last
SHORT_EARLY = 6
SHORT_SEED = 16         # its truce begins in round 13
EARLY = 20
ATTACKS = ("rifle", "missile", "flamer", "kamikaze")
TRUCE_AT = 2          # troopers left on the weaker side


def long_table() -> GameState:
    """A battle set up by the program (cards, missions, seals, 16 blips a side) whose missions set no round limit."""
    table = parse_scenario({"name": "long field", "table": {"width": 36, "height": 36},
                            "terrain": [rect("w1", "woods", 14, 14, 20, 20), rect("h1", "hills", 25, 18, 29, 22),
                                        rect("b1", "bush", 5, 15, 9, 19)]}, "long field")
    for seed in range(3, 60):
        state, _ = new_battle(table, SetupChoices(factions={"A": "council-of-zane", "B": "new-tokyo"}), SeededDice(seed))
        if round_limit(state) is None:
            return state
    raise AssertionError("no set-up without a round limit")


def long_game_action(state: GameState, rng: random.Random) -> Action:
    """The random player's proposal, with the players' agreement to play on (see the module's docstring)."""
    action = random_action(state, rng)
    if action.kind == "end-of-round":
        return Action("end-of-round")
    if min(state.troopers_left(side) for side in SIDES) > TRUCE_AT:
        return action
    t = state.turn
    if t is not None and t.active in state.units and state.units[t.active].jammer_on:
        return Action("jammer", t.active)
    if action.kind in ATTACKS:
        return Action("end-activation")
    if action.kind == "jammer" and action.actor in state.units and not state.units[action.actor].jammer_on:
        return Action("end-activation")
    return action


# ---- memory -------------------------------------------------------------------------------------------------


def module_containers() -> dict[str, int]:
    """The size of every dict, list, set and lru_cache held at module level in ``referee``: caches and tables that
    could grow with the length of a battle."""
    sizes = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("referee"):
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, (dict, list, set)):
                sizes[f"{name}.{attr}"] = len(value)
            elif isinstance(value, functools._lru_cache_wrapper):
                sizes[f"{name}.{attr}()"] = value.cache_info().currsize
    return sizes


def lru_bounds() -> dict[str, int]:
    """The bound of every lru_cache with a maxsize held at module level in ``referee``."""
    out = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("referee"):
            for attr, value in list(vars(module).items()):
                if isinstance(value, functools._lru_cache_wrapper) and value.cache_info().maxsize is not None:
                    out[f"{name}.{attr}()"] = value.cache_info().maxsize
    return out


def state_size(state: GameState) -> int:
    data, _ = data_of(state)
    return len(json.dumps(data))


class Round:
    """tracemalloc over one whole round: the most memory one action needed, and what the round kept."""

    def __init__(self, game: Game):
        self.game = game
        self.peak = 0
        self.actions = 0

    def __enter__(self):
        gc.collect()
        tracemalloc.start()
        self.start = tracemalloc.get_traced_memory()[0]
        return self

    def action(self, run):
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = run()
        self.peak = max(self.peak, tracemalloc.get_traced_memory()[1] - before)
        self.actions += 1
        return result

    def __exit__(self, *exc):
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - self.start
        tracemalloc.stop()
        # What the round kept per action, less the log's and the record's lists themselves: the state's log list is
        # a new one after every action, and holds a pointer to every entry of the battle so far.
        lists = sys.getsizeof(self.game.state.log) + sys.getsizeof(self.game.record)
        self.kept_per_action = (kept - lists) / max(1, self.actions)


# ---- the game ---------------------------------------------------------------------------------------------------


def check_secrecy(state: GameState, public: set[str], new_log: int) -> None:
    """Neither side's view shows the other's secrets: the table every action, and the log entries just written."""
    if state.phase == "over":
        return
    for viewer in SIDES:
        opponent = "B" if viewer == "A" else "A"
        view = player_view(state, viewer, log=False)
        text = json.dumps(view)
        for entry in state.log[new_log:]:
            text += entry.text + " ".join(entry.explain) + entry.private.get(viewer, "")
            assert opponent not in entry.private or entry.private[opponent] not in text
        for secret in secrets_of(state, opponent, public):
            assert secret not in text, f"{viewer}'s view shows {opponent}'s secret {secret!r}"
        assert view["holding"][opponent] is None and view["missions"][opponent] is None
        for b in view["blips"]:
            if b["side"] == opponent:
                assert set(b) <= {"id", "side", "x", "y", "base", "activation"}, b


@pytest.mark.soak
def test_two_hundred_rounds_of_random_play_keep_every_invariant_and_memory_flat():
    play_long_game(ROUNDS, EARLY, SEED)


def test_fourteen_rounds_of_random_play_into_the_truce_keep_every_invariant_and_memory_flat():
    play_long_game(SHORT_ROUNDS, SHORT_EARLY, SHORT_SEED)


def play_long_game(rounds: int, early_round: int, seed: int) -> None:
    """``rounds`` rounds of the long battle played with ``seed``, every check after every action, memory measured in
    ``early_round`` and in the last round; the truce must have begun by the last round."""
    game = Game(begin_battle(long_table()))
    rng, dice = random.Random(seed), SeededDice(seed)
    shadow = game.initial.copy()
    public = set(game.state.units)
    before = data_of(game.state)
    truce = None
    measured: dict[int, Round] = {}
    sizes: dict[int, tuple[int, dict[str, int]]] = {}
    proposals = legal = 0

    def step() -> None:
        nonlocal shadow, before, proposals, legal
        state = game.state
        action = long_game_action(state, rng)
        logged = len(state.log)
        run = measured.get(state.round)
        outcome = run.action(lambda: game.play(action, dice)) if run else game.play(action, dice)
        proposals += 1
        if not outcome.legal:
            assert game.state is state and data_of(state) == before, f"refused {action} changed the state"
            return
        legal += 1
        now = game.state
        public.update(now.units, (d["id"] for d in now.destroyed))
        check_table(now)
        check_secrecy(now, public, logged)
        entry = game.record[-1]
        again = play(shadow, entry.action, replay_source(entry.rolls))
        assert again.legal, f"{action} does not replay: {again.reason}"
        shadow = again.state
        before = data_of(now)
        assert data_of(shadow) == before, f"replaying {action} gives another state"
        assert len(shadow.log) == len(now.log) and shadow.log[logged:] == now.log[logged:]

    while game.state.round <= rounds:
        state = game.state
        assert state.phase != "over", f"the battle ended in round {state.round}: {state.log[-1].text}"
        if truce is None and min(state.troopers_left(side) for side in SIDES) <= TRUCE_AT:
            truce = state.round
        r = state.round
        if r in (early_round, rounds) and r not in measured and state.phase == "action" and not state.turn.acted \
                and state.turn.active is None:
            gc.collect()
            sizes[r] = (state_size(state), module_containers())
            measured[r] = Round(game)
            with measured[r]:
                while game.state.round == r:
                    step()
            continue
        step()
        assert proposals < 200_000, "the game does not move on"

    assert game.state.round == rounds + 1 and set(measured) == {early_round, rounds}
    assert truce is not None and truce <= rounds, "the battle never reached the truce"
    assert len(game.record) == legal and legal > 20 * rounds

    # The state, the log aside, stays the same size: nothing in it grows with the length of the battle.
    (early, early_caches), (late, late_caches) = sizes[early_round], sizes[rounds]
    assert late <= early * 1.25 + 2_000, f"the state (without its log) grew from {early} to {late} bytes"
    # Caches with a bound (an lru_cache's maxsize, the terrain features cleared past 5000 and the entries' past
    # FEATURES_KEPT, the Moves worked out that drop their oldest past MOVES_KEPT) may fill as smoke and craters
    # appear, up to that bound (run alone, this test starts with them empty); every other table must stay as it was.
    bounded = {"referee.rules.battlefield._FEATURES": 5001, "referee.rules.movement._MOVES": MOVES_KEPT,
               "referee.rules.battlefield._ENTRY_FEATURES": FEATURES_KEPT,
               "referee.rules.battlefield._PIECES": PIECES_KEPT, "referee.rules.battlefield._COUNTERS": PIECES_KEPT,
               "referee.rules.movement._SPANS": SPANS_KEPT, "referee.game.play.actions._CATCHES": CATCHES_KEPT,
               "referee.rules.battlefield._TABLE_FEATURES": TABLES_KEPT, "referee.rules.fast_geometry._CONVEX": CONVEX_KEPT,
               **lru_bounds()}
    grown = {k: (early_caches.get(k, 0), n) for k, n in late_caches.items()
             if n > early_caches.get(k, 0) + 16 and k not in bounded}
    assert not grown, f"module-level tables that keep growing: {grown}"
    over = {k: n for k, n in late_caches.items() if k in bounded and n > bounded[k]}
    assert not over, f"caches past their bound: {over}"
    # An action in the last round needs no more memory than one early on; a round keeps only its own entries.
    first, last = measured[early_round], measured[rounds]
    assert last.peak <= 2 * first.peak + 256_000, f"an action needs {first.peak} bytes in round {early_round}, {last.peak} in {rounds}"
    per_first, per_last = first.kept_per_action, last.kept_per_action
    assert per_last <= 2 * per_first + 4_000, f"a round keeps {per_first:.0f} bytes per action in round {early_round}, " \
                                              f"{per_last:.0f} in round {rounds}"

    # Both players agree to stop: the end-of-battle report's seals still match what was sealed at set-up.
    assert game.play(Action("end-of-round", "", {"stop": True}), dice).legal or game.state.phase != "end-of-round"
    checks = verify_seals(game)
    assert all(c.matches for c in checks.values()), [c.text() for c in checks.values()]
    print(f"\n{rounds} rounds: {proposals} proposals, {legal} legal actions, truce from round {truce}, "
          f"log {len(game.state.log)} entries; state {early} -> {late} bytes; peak per action "
          f"{first.peak} -> {last.peak} bytes; kept per action {per_first:.0f} -> {per_last:.0f} bytes "
          f"(its speed: python -m benchmarks.long_game)")


def test_an_action_needs_no_more_memory_late_in_a_battle():
    """The engine copies the state for every action: the copy must not grow with the log (it did: every action of a
    long battle copied the whole log, and got slower and larger round after round)."""
    from .test_random_play import skirmish

    def peak_of_one_move(log_entries: int) -> int:
        state = begin_battle(skirmish())
        for i in range(log_entries):
            state.log_event(f"an event of long ago, number {i}", [f"why it happened [p.{i % 40}]"], ["a-cmd"])
        game = Game(state)
        assert game.play(Action("activate", "a-cmd"), SeededDice(1)).legal
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            assert game.play(Action("move", "a-cmd", {"x": 10, "y": 8}), SeededDice(1)).legal
            return tracemalloc.get_traced_memory()[1] - before
        finally:
            tracemalloc.stop()

    short, long = peak_of_one_move(10), peak_of_one_move(20_000)
    # A new list of 20,000 pointers is allowed (160 kB); copying 20,000 entries would take megabytes.
    assert long <= 2 * short + 400_000, f"one move needs {short} bytes with a short log, {long} with a long one"
