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
