"""The benchmark's stranger opponents (``benchmarks/strangers.py``) play whole battles through the legal actions."""

import math
import random

from benchmarks.computer import faction_pairings, jobs_for
from benchmarks.strangers import HIDE_UNTIL, make_stranger
from referee import paths
from referee.game.players import selfplay
from referee.game.players.seated import make_player
from referee.game.records.record import new_seeded_dice
from referee.game.play.setup import new_game
from referee.rules.scenario import load_scenario


def _battle(kinds: dict[str, str], seed: int, rounds: int):
    table = load_scenario(paths.table_file("pastoral-hills"))
    game = new_game(table, {"A": "new-tokyo", "B": "council-of-zane"})
    rng = random.Random(seed)
    players = {side: make_stranger(k, seed) if k.startswith("stranger:") else make_player(k, side, seed, rng)
               for side, k in kinds.items()}
    played = selfplay.play_battle(game, new_seeded_dice(seed), rng, rounds, 4000, players)
    return game, played


def _own_actions(game, side: str):
    prefix = side.lower() + "-"
    return [e.action for e in game.record if e.action.actor.startswith(prefix)]


def test_the_hider_moves_nothing_before_round_four():
    game, _ = _battle({"A": "stranger:hider", "B": "random"}, 5, HIDE_UNTIL - 1)
    assert game.state.round >= 2 or game.state.phase == "over"
    # Only the set-up's placements name its pieces: in the battle it activates nothing, so nothing of its moves.
    acted = [a for a in _own_actions(game, "A") if a.kind in ("move", "reveal", "rifle", "missile", "target")]
    assert acted == []


def test_the_greedy_player_advances_and_fights_in_every_battle_it_plays():
    game, played = _battle({"A": "stranger:greedy", "B": "random"}, 7, 3)
    kinds = {a.kind for a in _own_actions(game, "A")}
    assert "move" in kinds
    assert played.actions > 20


def test_the_rushers_blips_close_on_the_objectives():
    game, _ = _battle({"A": "random", "B": "stranger:rusher"}, 9, 2)
    objectives = [(o.x, o.y) for o in game.state.objectives.values()]
    state = game.after_setup()
    gains = []
    for entry in game.record[len(game.record) - len(_played_after_setup(game)):]:
        a = entry.action
        if a.kind == "move" and a.actor.startswith("b-blip") and a.actor in state.blips:
            b = state.blips[a.actor]
            before = min(math.hypot(b.x - x, b.y - y) for x, y in objectives)
            after = min(math.hypot(a.args["x"] - x, a.args["y"] - y) for x, y in objectives)
            gains.append(before - after)
    assert gains and sum(1 for g in gains if g > 0) >= len(gains) / 2


def _played_after_setup(game):
    return [e for e in game.record if e.action.kind not in ("place-objective", "place-blip", "choose-edge",
                                                            "choose-cards", "fill-holding", "place-blips")]


def test_stranger_pairings_go_round_every_faction_pairing_with_the_sides_swapped():
    grid = faction_pairings()
    jobs = jobs_for("normal vs stranger:greedy", ("computer:normal", "stranger:greedy"), list(range(9)),
                    ["pastoral-hills", "blasted-urban"], 8, 3, 0, grid)
    assert len(grid) == 9
    assert {j[-1] for j in jobs} == set(grid)
    # Each seed twice, the measured player once on each side, the factions staying with their sides.
    assert [(j[1], j[4], j[-1]) for j in jobs[:2]] == [(0, "A", grid[0]), (0, "B", grid[0])]
    assert jobs[1][3] == ("stranger:greedy", "computer:normal")


def test_a_stranger_plays_itself_once_a_seed_on_the_table_and_factions_its_pairings_have_there():
    from benchmarks.computer import mirror_jobs

    grid = faction_pairings()
    tables = ["pastoral-hills", "blasted-urban"]
    measured = jobs_for("normal vs stranger:holder", ("computer:normal", "stranger:holder"), [7, 8, 9], tables, 8, 3,
                        0, grid)
    mirrors = mirror_jobs("holder", [7, 8, 9], tables, 8, grid)
    assert [j[0] for j in mirrors] == ["stranger:holder against itself"] * 3
    assert [j[3] for j in mirrors] == [("stranger:holder", "stranger:holder")] * 3
    # The same seed, table and factions as the measured battles of that seed, once.
    assert [(j[1], j[2], j[-1]) for j in mirrors] == [(j[1], j[2], j[-1]) for j in measured[::2]]
