"""``GameState.copy``: an independent state, made without copying what never changes once written."""

from referee.game.state import GameState
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
