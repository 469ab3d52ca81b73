from benchmarks.computer import by_role, role_of


def _battle(me: str, winner: str | None, attacker: str | None, name: str = "hard vs normal") -> dict:
    return {"name": name, "me": me, "winner": winner, "attacker": attacker,
            "missions": {"A": "sabotage", "B": "hold-the-line"}}


def test_wins_are_counted_by_the_role_the_measured_player_had():
    results = [
        _battle("A", "A", "A"),        # attacker, won
        _battle("B", "A", "A"),        # defender, lost
        _battle("B", "B", "A"),        # defender, won
        _battle("A", None, "B"),       # defender, drawn
        _battle("A", "A", None),       # chance encounter, won
        _battle("A", "B", "A", name="normal vs easy"),
    ]
    assert by_role(results, "hard vs normal") == {"attacker": (1, 0, 1), "defender": (1, 1, 3),
                                                  "chance encounter": (1, 0, 1)}
    assert by_role(results, "normal vs easy") == {"attacker": (0, 0, 1)}


def test_a_battle_stopped_before_its_missions_were_dealt_has_no_role():
    assert role_of({"me": "A", "attacker": None, "missions": {}}) == "unknown"


def test_the_spread_of_a_win_rate_is_two_standard_errors_a_draw_scoring_half():
    from benchmarks.computer import Tally

    # 20 wins of 40: each battle scores 0 or 1 around a mean of 1/2, a variance of 1/4; 2 * sqrt(0.25 / 40).
    assert abs(Tally(games=40, wins=20.0).spread - 0.1581) < 1e-4
    # 2 won, 2 drawn, 0 lost: scores 1, 1, 1/2, 1/2 around 3/4, a variance of 1/16; 2 * sqrt(1/16 / 4) = 1/4.
    assert abs(Tally(games=4, wins=3.0, draws=2).spread - 0.25) < 1e-9
    assert Tally(games=1, wins=1.0).spread == 0.0


def test_a_pairing_not_played_reports_no_win_rate(capsys):
    from benchmarks.computer import table

    results = [{"name": "normal vs random", "me": "A", "winner": "A", "vp": {"A": 20, "B": 8}, "attacker": "A",
                "round": 3, "seconds": 1.0, "times": {}, "peek": {"checked": 0, "changed": 0, "examples": []},
                "missions": {"A": "sabotage", "B": "hold-the-line"}}]
    figures = table(results, 0)
    assert figures["win_rate_vs_random"] == 1.0
    assert figures["win_rate_hard_vs_normal"] is None and figures["win_rate_normal_vs_easy"] is None
    assert figures["win_rate_two_standard_errors"]["hard_vs_normal"] is None
    assert "| win rate, hard vs normal | not played |" in capsys.readouterr().out


def test_each_seed_played_from_both_seats_says_whether_the_hand_or_the_player_decided():
    from benchmarks.computer import by_seed

    def seat(seed: int, me: str, winner: str | None) -> dict:
        return {"name": "normal vs stranger:greedy", "seed": seed, "me": me, "winner": winner}

    results = [
        seat(1, "A", "A"), seat(1, "B", "B"),      # won from both seats
        seat(2, "A", "A"), seat(2, "B", "A"),      # side A won whoever played it: the hand decided
        seat(3, "A", "B"), seat(3, "B", "A"),      # the other player won from both seats
        seat(4, "A", None), seat(4, "B", "B"),     # a draw among them
        seat(5, "A", "A"),                         # one seat only (a run cut short): not counted
        {"name": "hard vs normal", "seed": 1, "me": "A", "winner": "B"},
    ]
    assert by_seed(results, "normal vs stranger:greedy") == {"both_won": 1, "split": 1, "both_lost": 1,
                                                             "with_draw": 1}


def test_each_battle_against_a_stranger_is_counted_from_the_seat_the_strangers_own_battle_favoured(capsys):
    from benchmarks.computer import by_favour, table

    def seat(seed: int, me: str, winner: str | None, name: str = "normal vs stranger:rusher") -> dict:
        return {"name": name, "seed": seed, "me": me, "winner": winner, "vp": {"A": 0, "B": 0}, "attacker": "A",
                "round": 4, "seconds": 1.0, "times": {}, "peek": {"checked": 0, "changed": 0, "examples": []},
                "missions": {"A": "sabotage", "B": "hold-the-line"}}

    # Rusher against itself: side A won seed 1, side B seed 2, seed 3 was drawn; seed 4 was not played.
    favoured = {("rusher", 1): "A", ("rusher", 2): "B", ("rusher", 3): None}
    results = [
        seat(1, "A", "A"), seat(1, "B", "A"),      # favoured seat won, the other seat lost
        seat(2, "A", None), seat(2, "B", "B"),     # the other seat drawn, the favoured seat won
        seat(3, "A", "A"),                         # its own battle was drawn: counted apart
        seat(4, "A", "B"),                         # no battle of its own: not counted
        seat(1, "A", "B", name="normal vs stranger:greedy"),   # greedy's own battle was not played
    ]
    assert by_favour(results, "normal vs stranger:rusher", favoured) == {
        "favoured": [2.0, 2], "other": [0.5, 2], "even": [1.0, 1]}
    figures = table(results, 0, favoured)
    assert figures["favoured_seats"] == {"normal vs stranger:rusher": {
        "favoured": [2.0, 2], "other": [0.5, 2], "even": [1.0, 1]}}
    assert ("normal vs stranger:rusher, from the favoured seat (the side that won the stranger's battle against "
            "itself): won 2 of 2; from the other seat: won 0.5 of 2; where that battle was drawn: 1 of 1"
            in capsys.readouterr().out)
