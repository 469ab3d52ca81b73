"""benchmarks.window_battle's verdict on made-up measurements: which rounds it compares and what it calls flat."""

from benchmarks.window_battle import flatness, report


def battle(cpu_of_round, memory_of_round, rounds=200):
    actions = [(r, 10.0, cpu_of_round(r)) for r in range(1, rounds + 1) for _ in range(3)]
    memory = [(0, 100.0)] + [(r, memory_of_round(r)) for r in range(1, rounds + 1)]
    return {"actions": actions, "memory": memory, "rounds": rounds + 1, "phase": "action"}


def test_a_window_whose_cost_and_memory_stay_put_is_flat():
    f = flatness(battle(lambda r: 5.0, lambda r: 120.0))
    assert f["rounds"] == 200 and f["spans"] == {"first": (1, 5), "middle": (96, 100), "last": (196, 200)}
    assert f["ratio"] == 1.0 and f["grown"] == 1.0 and f["flat_action"] and f["flat_memory"]
    assert f["memory_at"] == {1: 120.0, 20: 120.0, 100: 120.0, 200: 120.0}


def test_a_window_that_grows_with_the_battle_is_not():
    # 5 ms in round 1 growing by 0.01 ms a round; 120 MB growing 0.1 MB a round.
    f = flatness(battle(lambda r: 5.0 + 0.01 * (r - 1), lambda r: 120.0 + 0.1 * r))
    assert f["per_action"]["first"][1] == 5.02 and abs(f["per_action"]["last"][1] - 6.97) < 1e-9
    assert abs(f["ratio"] - 6.97 / 5.02) < 1e-9 and not f["flat_action"]
    assert abs(f["grown"] - 140.0 / 122.0) < 1e-9 and not f["flat_memory"]
    text = "\n".join(report(battle(lambda r: 5.0 + 0.01 * (r - 1), lambda r: 120.0 + 0.1 * r)))
    assert "GROWS" in text and "FLAT" not in text
