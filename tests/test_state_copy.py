"""``GameState.copy``: an independent state, made without copying what never changes once written."""

from referee.game.battle.state import GameState
from referee.game.battle.state_parts import Setup
from tests.tables import game_state, unit


def _state() -> GameState:
    state = game_state([unit("a-1", "A", 5, 5), unit("b-1", "B", 30, 30)])
    state.destroyed.append({"id": "x-1", "side": "A", "type": "tactical", "by": "rifle", "round": 1})
    state.log_event("a first event", ["its working [p.20]"], ["x-1"])
    return state


def test_a_copy_is_the_same_state_and_changes_to_it_leave_the_original_as_it_was():
    state = _state()
    before = state.to_data()
    copy = state.copy()
    assert copy.to_data() == before
    copy.destroyed.append({"id": "x-2", "side": "B", "type": "scout", "by": "missile", "round": 2})
    copy.log_event("a second event")
    copy.round += 1
    copy.phase = "end-of-round"
    next(iter(copy.units.values())).target_counters += 3
    assert state.to_data() == before
    assert len(copy.destroyed) == len(state.destroyed) + 1 and len(copy.log) == len(state.log) + 1


def test_the_entries_of_the_log_and_of_the_destroyed_units_are_shared_not_copied():
    # Neither is ever changed once written; copying them made every action cost more the longer the battle ran.
    state = _state()
    copy = state.copy()
    assert copy.destroyed is not state.destroyed and copy.destroyed[0] is state.destroyed[0]
    assert copy.log is not state.log and copy.log[-1] is state.log[-1]


def test_a_working_line_that_recurs_in_the_log_is_kept_once_and_reads_the_same():
    state = _state()
    for n in range(3):
        state.log_event("".join(["a-1 moves ", str(n), '"']), ["".join(["line of sight ", "[A9]"])], ["a-1"],
                        {"A": "".join(["only ", "A"])})
    first, *others = state.log[-3:]
    assert first.explain == ["line of sight [A9]"] and first.private == {"A": "only A"} and first.units == ["a-1"]
    assert all(e.explain[0] is first.explain[0] and e.private["A"] is first.private["A"] for e in others)
    again = GameState.from_data(state.to_data())
    assert [(e.text, e.explain, e.units, e.private, e.round) for e in again.log] == \
        [(e.text, e.explain, e.units, e.private, e.round) for e in state.log]
    assert again.log[-1].explain[0] is first.explain[0]


def test_a_copy_shares_each_square_s_contents_and_a_new_list_in_its_square_leaves_the_original_as_it_was():
    # A square's contents are never changed in place (a reveal or a Scramble puts a new list in the square), so the
    # copy shares the lists and keeps a dictionary of squares of its own.
    state = _state()
    state.holding["A"].squares[1] = []
    copy = state.copy()
    assert copy.holding["A"] is not state.holding["A"] and copy.holding["A"].squares is not state.holding["A"].squares
    copy.holding["A"].squares[1] = None
    assert state.holding["A"].squares[1] == []


def _containers(value: object) -> list[object]:
    """Every dict and list within ``value`` (itself included), depth first."""
    found: list[object] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            found.append(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            found.append(v)
            stack.extend(v)
    return found


def test_a_copy_of_the_set_up_in_progress_equals_it_and_shares_no_dict_or_list_with_it():
    setup = Setup({"A": "council-of-zane", "B": "new-tokyo"}, {"A": 2, "B": 0},
                  [{"step": "cards", "side": "A", "objective": None}, {"step": "objective", "side": "B",
                                                                       "objective": "alpha"}],
                  {"B": [{"id": "b-1", "type": "tactical", "rating": "veteran"}]},
                  {"A": {"mission": ["m-1", "m-2"], "troop": ["t-1", "t-2", "t-3"], "drone": "d-1"}})
    copied = setup.copy()
    assert copied.to_data() == setup.to_data()
    theirs = {id(c) for field in ("factions", "streak", "queue", "issued", "offered")
              for c in _containers(getattr(setup, field))}
    ours = [c for field in ("factions", "streak", "queue", "issued", "offered")
            for c in _containers(getattr(copied, field))]
    assert len(ours) == 12 and not any(id(c) in theirs for c in ours)
    copied.offered["A"]["troop"].remove("t-2")
    copied.issued["B"][0]["rating"] = "spec-ops"
    copied.queue.pop(0)
    assert setup.offered["A"]["troop"] == ["t-1", "t-2", "t-3"] and setup.issued["B"][0]["rating"] == "veteran"
    assert len(setup.queue) == 2
