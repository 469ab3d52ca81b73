"""Thousands of random actions through the engine, with the game's invariants checked after every one."""

from __future__ import annotations

import copy
import functools
import json
import math
import random
from pathlib import Path

import pytest

from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice, SeededDice, replay_source
from referee.game.play.engine import Game, begin_battle, play
from referee.game.players.random_play import play_random
from referee.game.records.record import load_game, save_game
from referee.game.battle.state import SIDES, SQUARES, UNITS_PER_SQUARE, GameState, cards_data, state_from_scenario
from referee.game.views.view import player_view
from referee.paths import SCENARIO_DIR
from referee.rules.errors import InputError
from referee.rules.scenario import load_scenario

from .tables import game_state, rect, unit

EPS = 1e-6


def contents(ident, side, type="tactical", rating="veteran"):
    return {"id": ident, "side": side, "faction": "council-of-zane", "rating": rating, "type": type}


def blip(ident, side, x, y, units, **kw):
    return {"id": ident, "side": side, "x": x, "y": y, "contents": units, **kw}


def skirmish() -> GameState:
    """A small attack/defence table: troopers, every drone kind, blips with 0, 1 and 2 units, woods and a hill."""
    return game_state(
        units=[unit("a-cmd", "A", 10, 4, type="commander", facing=90),
               unit("a-eng", "A", 14, 4, type="engineer", facing=90),
               unit("a-hay", "A", 18, 5, type="haywire-drone"),
               unit("b-tac", "B", 18, 30, facing=270),
               unit("b-asl", "B", 12, 31, type="assault", facing=270),
               unit("b-hay", "B", 22, 30, type="haywire-drone")],
        blips=[blip("a-b1", "A", 6, 6, [contents("a-t1", "A"), contents("a-k1", "A", "kamikaze-drone")]),
               blip("a-b2", "A", 26, 6, []),
               blip("a-b3", "A", 30, 8, [contents("a-s1", "A", "scout")]),
               blip("b-b1", "B", 8, 28, [contents("b-s1", "B", "scout")]),
               blip("b-b2", "B", 28, 28, [contents("b-d1", "B", "recce-drone"), contents("b-d2", "B", "basic-drone")]),
               blip("b-b3", "B", 24, 33, []),
               blip("b-b4", "B", 4, 32, [contents("b-k1", "B", "kamikaze-drone")])],
        terrain=[rect("w1", "woods", 14, 14, 20, 20), rect("h1", "hills", 25, 18, 29, 22),
                 rect("bush1", "bush", 5, 15, 9, 19)],
        objectives=[{"id": "alpha", "x": 18, "y": 24}, {"id": "delta", "x": 8, "y": 22}],
        attacker="A")


def close_quarters() -> GameState:
    """Everyone within a few inches: passive sensors, reveals, blasts and flamers happen at once."""
    return game_state(
        units=[unit("a-tac", "A", 14, 14, facing=90), unit("a-eng", "A", 18, 14, type="engineer", facing=90),
               unit("a-kam", "A", 16, 12, type="kamikaze-drone"),
               unit("b-tac", "B", 14, 22, facing=270), unit("b-cmd", "B", 18, 22, type="commander", facing=270),
               unit("b-rec", "B", 16, 24, type="recce-drone")],
        blips=[blip("a-b1", "A", 10, 12, [contents("a-s1", "A", "scout"), contents("a-h1", "A", "haywire-drone")]),
               blip("a-b2", "A", 22, 12, []),
               blip("b-b1", "B", 10, 24, [contents("b-a1", "B", "assault")]),
               blip("b-b2", "B", 22, 24, [contents("b-b1d", "B", "basic-drone"), contents("b-e1", "B", "engineer")])],
        terrain=[rect("bush1", "bush", 15, 17, 17, 19)],
        objectives=[{"id": "alpha", "x": 26, "y": 18}],
        attacker="B")


def tables() -> list[tuple[str, GameState]]:
    return [(name, state.copy()) for name, state in _tables()]


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[tuple[str, GameState], ...]:
    out = [("skirmish", skirmish()), ("close-quarters", close_quarters())]
    for path in sorted(Path(SCENARIO_DIR).glob("*.toml")):
        try:
            scenario = load_scenario(path)
        except InputError:
            continue
        # Only tables the referee can play through: every blip's contents known, someone on each side.
        if any(b.contents is None for b in scenario.blips):
            continue
        state = state_from_scenario(scenario)
        if all(any(u.side == side for u in state.units.values()) or any(b.side == side for b in state.blips.values())
               for side in SIDES):
            out.append((path.stem, state))
    out.append(("full-set-up", set_up_battle()))
    return tuple(out)


def set_up_battle() -> GameState:
    """A battle set up by the program: cards drawn, holding areas filled, 16 blips a side, seals."""
    from referee.game.play.setup import SetupChoices, new_battle
    from referee.rules.scenario import parse_scenario

    table = parse_scenario({"name": "open field", "table": {"width": 36, "height": 36},
                            "terrain": [rect("w1", "woods", 14, 14, 20, 20), rect("h1", "hills", 25, 18, 29, 22)]},
                           "open field")
    state, _ = new_battle(table, SetupChoices(factions={"A": "council-of-zane", "B": "new-tokyo"}), SeededDice(3))
    return state


# ---- the invariants ---------------------------------------------------------------------------------------


def secrets_of(state: GameState, side: str, public: set[str]) -> set[str]:
    """Strings only ``side``'s secrets hold: unit ids in its holding area that never stood on the table, its
    mission and card ids, its salt."""
    found = set()
    for squares in state.holding[side].squares.values():
        for c in squares or []:
            if c.id not in public:
                found.add(c.id)
    if state.missions.get(side):
        found.add(state.missions[side])
    for v in (cards_data(state.cards[side]).values() if side in state.cards else ()):
        if isinstance(v, str) and len(v) > 2:
            found.add(v)
    if state.salts.get(side):
        found.add(state.salts[side])
    return found


def check_view_secrecy(state: GameState, public: set[str]) -> None:
    if state.phase == "over":
        return
    for viewer in SIDES:
        opponent = "B" if viewer == "A" else "A"
        view = player_view(state, viewer)
        text = json.dumps(view)
        for secret in secrets_of(state, opponent, public):
            assert secret not in text, f"{viewer}'s view shows {opponent}'s secret {secret!r}"
        for b in view["blips"]:
            if b["side"] == opponent:
                assert set(b) <= {"id", "side", "x", "y", "base", "activation"}, b
        assert view["holding"][opponent] is None and view["missions"][opponent] is None
        assert view["salts"] == {"A": None, "B": None}
        for e in view["log"]:
            assert "private" not in e


def check_table(state: GameState) -> None:
    for u in state.units.values():
        assert isinstance(u.activation, bool), f"{u.id} holds {u.activation!r} activation counters"
        assert u.target_counters >= 0, f"{u.id} has {u.target_counters} Target counters"
    for b in state.blips.values():
        assert isinstance(b.activation, bool)
    for o in state.objectives.values():
        assert o.target_counters >= 0, f"objective {o.id} has {o.target_counters} Target counters"
    discs = [(u.id, u.x, u.y, u.base / 2) for u in state.units.values()]
    discs += [(b.id, b.x, b.y, b.base / 2) for b in state.blips.values()]
    discs += [(o.id, o.x, o.y, o.base / 2) for o in state.objectives.values() if not o.destroyed]
    for i in range(len(discs)):
        for j in range(i + 1, len(discs)):
            a, b = discs[i], discs[j]
            gap = math.hypot(a[1] - b[1], a[2] - b[2]) - a[3] - b[3]
            assert gap >= -EPS, f"bases of {a[0]} and {b[0]} overlap by {-gap:.4f}\""
    for side in SIDES:
        squares = state.holding[side].squares
        for n, c in squares.items():
            assert 1 <= n <= SQUARES, f"side {side} has a square {n}"
            assert c is None or len(c) <= UNITS_PER_SQUARE, f"side {side}'s square {n} holds {len(c)} units"
            for x in c or []:
                assert x.target_counters >= 0
    held = {c.id for side in SIDES for squares in state.holding[side].squares.values() for c in squares or []}
    assert not held & set(state.units), f"{held & set(state.units)} both on the table and in a holding area"
    for u in state.units.values():
        assert -EPS <= u.x <= state.width + EPS and -EPS <= u.y <= state.height + EPS, f"{u.id} is off the table"
    if state.turn is not None and state.turn.active is not None:
        assert state.turn.active in state.units or state.turn.active in state.blips, "the active unit is gone"
    taken = set()
    for b in state.blips.values():
        assert b.square in state.holding[b.side].squares, f"{b.id}'s square {b.square} does not exist"
        assert (b.side, b.square) not in taken, f"two blips of side {b.side} stand for square {b.square}"
        taken.add((b.side, b.square))


def data_of(state: GameState) -> tuple[dict, int]:
    """The full data of a state, the log aside (it only grows: compared separately, entry by entry)."""
    bare = copy.copy(state)
    bare.log = []
    return bare.to_data(), len(state.log)


class Checker:
    """Checks every invariant after each proposal. A shadow state replays each new record entry from the shadow of
    the state before it, so the shadow is always the whole record replayed from the initial state."""

    def __init__(self, game: Game):
        self.game = game
        self.shadow = game.initial.copy()
        self.public: set[str] = set(game.state.units)
        self.before = data_of(game.state)
        self.steps = 0

    def __call__(self, before: GameState, action: Action, outcome) -> None:
        self.steps += 1
        game = self.game
        if not outcome.legal:
            assert game.state is before
            assert data_of(game.state) == self.before, f"refused {action} changed the state"
            return
        state = game.state
        self.public |= set(state.units) | {d["id"] for d in state.destroyed}
        check_table(state)
        check_view_secrecy(state, self.public)
        entry = game.record[-1]
        again = play(self.shadow, entry.action, replay_source(entry.rolls))
        assert again.legal, f"{action} does not replay: {again.reason}"
        self.shadow = again.state
        now = data_of(state)
        assert data_of(self.shadow) == now, f"replaying {action} gives another state"
        assert self.shadow.log == state.log, f"replaying {action} gives another log"
        self.before = now


def play_checked(state: GameState, seed: int, steps: int):
    game = Game(begin_battle(state))
    checker = Checker(game)
    run = play_random(game, random.Random(seed), steps, SeededDice(seed), check=checker)
    return game, run


def play_random_games(name: str, seeds: range, tmp_path) -> None:
    state = dict(tables())[name]
    small = name in ("skirmish", "close-quarters")
    total = legal = 0
    kinds: dict[str, int] = {}
    for seed in seeds:
        game, run = play_checked(state, seed, 250 if small else 150)
        total += run.steps
        legal += run.legal
        for k, n in run.kinds.items():
            kinds[k] = kinds.get(k, 0) + n
        if seed == 0:
            path = tmp_path / f"{name}.json"
            save_game(game, path, SeededDice(seed))
            assert load_game(path).state.to_data() == json.loads(json.dumps(game.state.to_data()))
    assert legal >= total // 5, f"only {legal} of {total} random actions were legal"


@pytest.mark.parametrize("name", [name for name, _ in tables()])
def test_random_games_keep_every_invariant(name, tmp_path):
    # Three games on the small tables and one on the others; the soak run below plays six and two.
    play_random_games(name, range(3 if name in ("skirmish", "close-quarters") else 1), tmp_path)


@pytest.mark.soak
@pytest.mark.parametrize("name", [name for name, _ in tables()])
def test_random_games_keep_every_invariant_over_more_seeds(name, tmp_path):
    play_random_games(name, range(6 if name in ("skirmish", "close-quarters") else 2), tmp_path)


def test_random_play_reaches_every_kind_of_action():
    kinds: dict[str, int] = {}
    for seed in range(5):
        game = Game(begin_battle(close_quarters() if seed % 2 else skirmish()))
        run = play_random(game, random.Random(100 + seed), 200, SeededDice(seed))
        for k, n in run.kinds.items():
            kinds[k] = kinds.get(k, 0) + n
    for kind in ("activate", "move", "jump", "target", "rifle", "missile", "flamer", "scramble", "jammer",
                 "end-activation", "end-turn", "end-of-round", "reveal"):
        assert kinds.get(kind, 0) > 0, f"no legal {kind} in {sorted(kinds.items())}"


def test_random_play_is_reproducible_from_its_seeds():
    a, _ = play_checked(skirmish(), 7, 200)
    b, _ = play_checked(skirmish(), 7, 200)
    assert [e.to_data() for e in a.record] == [e.to_data() for e in b.record]
    assert a.state.to_data() == b.state.to_data()


def test_a_refused_action_changes_nothing():
    game = Game(begin_battle(skirmish()))
    before = game.state.to_data()
    for action in (Action("activate", "b-tac"), Action("move", "a-cmd", {"x": 10, "y": 9}),
                   Action("rifle", "a-cmd", {"target": "b-tac"}), Action("end-of-round"),
                   Action("objectives", "A", {"alpha": "secured"}), Action("teleport", "a-cmd")):
        out = game.play(action, ScriptedDice([6, 6, 6]))
        assert not out.legal, action
        assert game.state.to_data() == before and game.record == []
