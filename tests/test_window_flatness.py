"""benchmarks.window_battle's verdict on made-up measurements: which rounds it compares and what it calls flat."""

from benchmarks.window_battle import flatness, report


def battle(cpu_of_round, memory_of_round, rounds=200):
    actions = [(r, 10.0, cpu_of_round(r)) for r in range(1, rounds + 1) for _ in range(3)]
    memory = [(0, 100.0)] + [(r, memory_of_round(r)) for r in range(1, rounds + 1)]
    return {"actions": actions, "memory": memory, "rounds": rounds + 1, "phase": "action"}


def test_a_window_whose_cost_and_memory_stay_put_is_flat():
    f = flatness(battle(lambda r: 5.0, lambda r: 120.0))
    assert f["rounds"] == 200 and f["spans"] == {"first": (1, 5), "middle": (96, 100), "last": (196, 200)}
    assert f["ratio"] == 1.0 and f["worst"] == 1.0 and f["worst_mean"] == 1.0 and f["grown"] == 1.0
    assert f["flat_action"] and f["flat_memory"]
    assert f["memory_at"] == {1: 120.0, 20: 120.0, 100: 120.0, 200: 120.0}


def test_a_window_that_grows_with_the_battle_is_not():
    # 5 ms in round 1 growing by 0.01 ms a round; 120 MB growing 0.1 MB a round.
    f = flatness(battle(lambda r: 5.0 + 0.01 * (r - 1), lambda r: 120.0 + 0.1 * r))
    assert f["per_action"]["first"][1] == 5.02 and abs(f["per_action"]["last"][1] - 6.97) < 1e-9
    assert abs(f["worst"] - 6.97 / 5.02) < 1e-9
    assert abs(f["ratio"] - 6.97 / 5.02) < 1e-9 and not f["flat_action"]
    assert abs(f["grown"] - 140.0 / 122.0) < 1e-9 and not f["flat_memory"]
    text = "\n".join(report(battle(lambda r: 5.0 + 0.01 * (r - 1), lambda r: 120.0 + 0.1 * r)))
    assert "GROWS" in text and "FLAT" not in text


def test_a_window_dearer_in_the_middle_of_the_battle_is_not_flat_though_its_ends_agree():
    # Rounds 96-100 cost 7 ms an action, every other round 5 ms.
    f = flatness(battle(lambda r: 7.0 if 96 <= r <= 100 else 5.0, lambda r: 120.0))
    assert f["ratio"] == 1.0 and f["worst"] == 1.4 and not f["flat_action"]


def test_rare_dear_actions_that_grow_with_the_battle_count_through_the_mean():
    # Each round: two 5 ms actions and one (a dialog, say) costing 5 ms in round 1 and 0.1 ms more each round.
    def battle_with_dialogs(rounds=200):
        actions = [(r, 10.0, c) for r in range(1, rounds + 1) for c in (5.0, 5.0, 5.0 + 0.1 * (r - 1))]
        memory = [(0, 100.0)] + [(r, 120.0) for r in range(1, rounds + 1)]
        return {"actions": actions, "memory": memory, "rounds": rounds + 1, "phase": "action"}

    f = flatness(battle_with_dialogs())
    assert f["worst"] == 1.0                                   # the typical action stays put
    first_mean, last_mean = (15.0 + 0.1 * 2) / 3, (15.0 + 0.1 * (198 - 1)) / 3      # rounds 1-5 and 196-200
    assert abs(f["worst_mean"] - last_mean / first_mean) < 1e-9 and not f["flat_action"]


def test_the_same_play_with_a_long_history_behind_it_is_compared_with_none():
    out = battle(lambda r: 5.0, lambda r: 120.0)
    out["same_play"] = {"round": 196, "rounds": 3, "history_rounds": 195, "actions": 150, "same": True,
                        "with_history": 5.5, "without": 5.0}
    f = flatness(out)
    assert abs(f["history"] - 1.1) < 1e-9 and f["flat_history"]
    assert "the same 150 actions, rounds 196-198, after 195 rounds of battle / after none" in "\n".join(report(out))
    out["same_play"]["with_history"] = 6.0
    assert not flatness(out)["flat_history"]


def test_two_replays_that_took_different_actions_are_not_compared():
    out = battle(lambda r: 5.0, lambda r: 120.0)
    out["same_play"] = {"round": 196, "rounds": 3, "history_rounds": 195, "actions": 150, "same": False,
                        "with_history": 5.0, "without": 5.0}
    f = flatness(out)
    assert f["history"] is None and f["flat_history"] is None
    assert "not compared (the two replays took different actions)" in "\n".join(report(out))


def test_the_same_play_replayed_with_and_without_the_history_takes_the_same_actions(tmp_path, monkeypatch):
    from benchmarks.window_battle import play, same_play

    monkeypatch.setenv("SEVEN_SECONDS_HOME", str(tmp_path))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    # Two rounds played, the start of the third kept: the same actions are played from there with two rounds of
    # history behind them and with none.
    out = play(2, keep_from=3)
    same = same_play(out["kept"], rounds=1, tries=1)
    assert same["round"] == 3 and same["history_rounds"] == 2
    assert same["actions"] > 10 and same["same"]
