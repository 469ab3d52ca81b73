"""The battle's state is declared once (``game/battle/state_parts.py``) and every copy of it is held to that declaration:
the save (written, read back, its schema), the copy, the player view (its keys, and each side's secrets shown to
that side alone) and the computer's imagined worlds. A field added in one place only fails here."""

from __future__ import annotations

import ast
import inspect
import json
import typing
from dataclasses import MISSING, Field, fields
from typing import Any

import pytest

from referee.game.records import record

from referee.game.views import view_types
from referee.game.players.computer import determinize
from referee.game.play.engine import begin_battle
from referee.game.battle.state import (_COPY, GameState, GroundState, Holding, LogEntry, TurnState, state_from_data,
                                 state_to_data)
from referee.game.battle.state_parts import BY_SIDE, STATE_PARTS, Decision, Result, Setup
from referee.game.views.view import player_view, referee_view
from referee.rules.pieces import DealtCards, UnitContents

from .tables import game_state, unit

FIELDS = [f.name for f in fields(GameState)]
VIEW_ONLY = {"view", "viewer"}          # what a view says of itself: its format and whose it is


def rich_state() -> GameState:
    """A battle with every field holding something: set-up data, a facing owed, each side's secrets."""
    s = begin_battle(game_state(units=[unit("a1", "A", 4, 4), unit("b1", "B", 30, 30)]), "A")
    for side in ("A", "B"):
        mark(s, side)
    s.setup = Setup({"A": "council-of-zane", "B": "council-of-zane"},
                    queue=[{"step": "blip", "side": "A", "objective": None}])
    s.to_face = ["a1"]
    s.to_place = {"a1": "b1"}
    s.ground = {"ground-1": GroundState("ground-1", 12.0, 14.0, 2)}
    s.result = Result(winner=None)
    s.destroyed = [{"id": "gone", "side": "B", "type": "tactical", "by": "a1"}]
    s.dice_commitments = {"A": "a" * 64, "B": "b" * 64, "seed": "c" * 64}
    s.square_commitments = {"B": {str(n): "d" * 64 for n in range(1, 17)}}
    s.pool = {"actor": "a1", "dice": 1, "rolls": [["sensor die 1 of 1 for a1", "d6", 4]]}
    s.breaches = ["BREACH: side B's computer committed b-blip-1 to square 3, which another counter had shown already"]
    s.labels_apart = True
    s.card_commitments = {"B": {"committed": "9" * 64, "draw": {
        "moment": "cards B", "parts": ["0123456789abcdef"] * 16, "streak": 0, "kind": "offence",
        "missions": ["m1"], "troops": ["t1"], "drones": ["d1"]}, "faction": "new-tokyo", "opened": [], "checked": False}}
    return s


# How the test marks each side's entry of a field kept by side: a field declared "by side" needs a line here.
MARKS = {
    "holding": lambda s, side: s.holding.__setitem__(side, Holding({1: [UnitContents.model_validate(
        {"id": f"held-by-{side}", "side": side, "faction": "council-of-zane", "rating": "veteran",
         "type": "tactical"})]})),
    "missions": lambda s, side: s.missions.__setitem__(side, f"mission-of-{side}"),
    "cards": lambda s, side: s.cards.__setitem__(side, DealtCards(troop=f"troop-of-{side}")),
    "salts": lambda s, side: s.salts.__setitem__(side, f"salt-of-{side}"),
    "issued_kept": lambda s, side: s.issued_kept.__setitem__(side, [
        {"id": f"unit-of-{side}", "side": side, "faction": "council-of-zane", "rating": "veteran", "type": "tactical"}]),
    "blip_commitments": lambda s, side: s.blip_commitments.__setitem__(side, {f"counter-of-{side}": (
        "e" if side == "A" else "f") * 64}),
}


def mark(state: GameState, side: str) -> None:
    for name in BY_SIDE:
        MARKS[name](state, side)


def test_every_field_of_the_state_is_declared_once():
    assert sorted(STATE_PARTS) == sorted(FIELDS), "declare each field of GameState in game/battle/state_parts.py"


def test_every_field_is_saved_and_read_back():
    s = rich_state()
    data = state_to_data(s)
    assert sorted(data) == sorted(FIELDS), "state_to_data writes every declared field"
    again = state_from_data(json.loads(json.dumps(data)))
    for name in FIELDS:
        assert state_to_data(again)[name] == data[name], f"{name} does not come back from a save"


def test_the_saves_schema_holds_every_field_and_no_other():
    assert sorted(record._State.model_fields) == sorted(FIELDS)


# The save's schema (``record.py``) spells each part's fields out with the bounds a file is held to (a square's
# units, a streak's 0 to 4), which the state's own declarations do not carry: it is held to them here instead.
SCHEMA_PARTS = [(record._Setup, Setup), (record._Turn, TurnState), (record._Log, LogEntry)]


@pytest.mark.parametrize("model, declared", SCHEMA_PARTS, ids=lambda p: p.__name__)
def test_the_saves_schema_of_each_part_holds_its_fields_in_order(model, declared):
    assert list(model.model_fields) == [f.name for f in fields(declared)]


def test_the_saves_schema_of_a_set_up_decision_holds_its_keys():
    assert list(record._Decision.model_fields) == list(typing.get_type_hints(Decision))


def _default(f: Field[Any]) -> Any:
    if f.default is not MISSING:
        return f.default
    return f.default_factory() if f.default_factory is not MISSING else MISSING


@pytest.mark.parametrize("model, declared", SCHEMA_PARTS, ids=lambda p: p.__name__)
def test_a_part_left_out_of_a_save_reads_as_the_state_defaults_it(model, declared):
    for f in fields(declared):
        schema = model.model_fields[f.name]
        if not schema.is_required() and _default(f) is not MISSING:
            assert schema.get_default(call_default_factory=True) == _default(f), f"{declared.__name__}.{f.name}"


def test_a_field_left_out_of_a_save_reads_as_the_state_defaults_it():
    """The save may leave a field out where the state has a default (``state_to_data`` leaves out the fields it
    added later while they hold nothing): the schema's default is the data of the state's."""
    bare = GameState("t", 36.0, 36.0, [], {}, {}, {}, {side: Holding() for side in "AB"})
    written = state_to_data(bare)
    for f in fields(GameState):
        schema = record._State.model_fields[f.name]
        if f.name not in written:
            assert not schema.is_required(), f"{f.name}: left out by state_to_data, so the save's schema needs a default"
        if _default(f) is not MISSING and f.name in written:
            assert not schema.is_required(), f"{f.name}: the state has a default, the save's schema none"
            assert schema.get_default(call_default_factory=True) == written[f.name], f.name
    assert state_to_data(state_from_data(record._State.model_validate(
        {"name": "t", "width": 36.0, "height": 36.0, "holding": {"A": {}, "B": {}}}).model_dump())) == written


def test_the_copy_knows_no_field_the_state_does_not_have():
    assert set(_COPY) <= set(FIELDS)
    s = rich_state()
    copied = s.copy()
    assert state_to_data(copied) == state_to_data(s)
    for name in FIELDS:
        value = getattr(s, name)
        if isinstance(value, (list, dict)) and value:
            assert getattr(copied, name) is not value, f"the copy shares {name}: changing one would change both"


def test_the_view_carries_every_declared_field_and_nothing_undeclared():
    annotated = set(typing.get_type_hints(view_types.PlayerView))
    declared = {key for part in STATE_PARTS.values() for key in part.view}
    assert declared <= annotated, f"PlayerView lacks {sorted(declared - annotated)}"
    assert annotated - VIEW_ONLY <= declared, f"PlayerView keys with no field behind them: {annotated - declared}"
    view = player_view(rich_state(), "A")
    assert set(view) == annotated


@pytest.mark.parametrize("name", BY_SIDE)
def test_a_field_kept_by_side_shows_each_side_its_own_entry_only(name):
    assert name in MARKS, f"{name} is kept by side: say in MARKS how to mark each side's entry"
    s = rich_state()
    for side, other in (("A", "B"), ("B", "A")):
        shown = json.dumps(player_view(s, side)[STATE_PARTS[name].view[0]])
        mine, theirs = (f"{what}-{who}" for what, who in (("of", side), ("of", other)))
        if STATE_PARTS[name].own_side_sees:
            assert mine in shown or f"held-by-{side}" in shown, f"side {side} does not see its own {name}"
        else:
            assert mine not in shown, f"side {side} sees its own {name} before the end, which nobody may"
        assert theirs not in shown and f"held-by-{other}" not in shown, f"side {side} sees side {other}'s {name}"
    s.phase = "over"
    told = json.dumps(player_view(s, "A")[STATE_PARTS[name].view[0]])
    assert ("of-B" in told or "held-by-B" in told), f"the end of the battle does not reveal side B's {name}"
    assert json.dumps(referee_view(s)[STATE_PARTS[name].view[0]]) == told


def test_the_computers_imagined_world_sets_every_field_it_declares():
    tree = ast.parse(inspect.getsource(determinize.sample_state))
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "GameState")
    passed = {k.arg for k in call.keywords}
    for name, part in STATE_PARTS.items():
        if part.imagined in ("copied", "drawn"):
            assert name in passed, f"the imagined world does not set {name} (declared {part.imagined})"
    drawn = {name for name, part in STATE_PARTS.items() if part.imagined == "drawn"}
    assert set(BY_SIDE) - {"salts"} <= drawn, "each side's secret is drawn for the opponent, never copied"
