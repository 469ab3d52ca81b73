"""A save's actions are checked against the one declaration of every kind's arguments (``action_kinds.KINDS``):
an argument no kind has, a required one left out and a value out of its type or range are refused by the action's
place in the record, its kind, the argument and what was expected. The declaration is held to what the engine
reads: battles are replayed with each action's arguments watched, and every argument read is declared, every one
declared is read."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from referee.cli.main import main
from referee.game.play import legal, victory
from referee.game.battle.action_kinds import KINDS, Arg, Kind, arg_named, arg_problem
from referee.game.play.corrections import BLIP_FIELDS, OBJECTIVE_FIELDS, TERRAIN_CHANGES, UNIT_FIELDS
from referee.game.battle.dice import ScriptedDice, replay_source
from referee.game.play.engine import Game, begin_battle, play
from referee.game.battle.intents import Action
from referee.game.records.record import action_problems, load_game, read_save, save_game, state_digest
from referee.game.play.setup_steps import OBJECTIVE_ORDER
from referee.rules.errors import InputError

from .tables import game_state, unit
from .test_damage import kamikaze_table
from .test_record import example_game
from .test_refereed_saves import refereed_battle
from .test_undo import battle

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_SAVE = ROOT / "docs" / "example-save.json"


# ---- refusals --------------------------------------------------------------------------------------------------


def _example_doc(tmp_path: Path) -> dict[str, Any]:
    good = save_game(example_game(), tmp_path / "good.json")
    doc: dict[str, Any] = json.loads(good.read_text(encoding="utf-8"))
    kinds = [e["action"]["kind"] for e in doc["record"]]
    assert kinds[1] == "target" and kinds[2] == "rifle" and kinds[4] == "move", kinds
    return doc


def _problems(tmp_path: Path, doc: dict[str, Any]) -> list[str]:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    before = bad.read_bytes()
    with pytest.raises(InputError) as e:
        load_game(bad)
    assert e.value.source == str(bad) and bad.read_bytes() == before
    return e.value.problems


def _change(doc: dict[str, Any], index: int, **args: Any) -> dict[str, Any]:
    for key, value in args.items():
        if value is None:
            del doc["record"][index]["action"]["args"][key]
        else:
            doc["record"][index]["action"]["args"][key] = value
    return doc


REFUSED = {
    "an argument no kind has": (4, {"speed": 3},
                                "record[4].action.args.speed: not an argument of move (expected x, y, via)"),
    "a required one left out": (1, {"dice": None},
                                "record[1].action.args.dice: required for a target action (expected 1 to the unit's "
                                "Sensors"),
    "a count out of range": (1, {"dice": 0},
                             "record[1].action.args.dice: expected a whole number from 1 to 100 as the dice of a "
                             "target action (got 0)"),
    "counters beyond any piece": (1, {"assign": {"b-tac": 150}},
                                  "record[1].action.args.assign: expected {name: number} with whole numbers from 0 to "
                                  "99 as the assign of a target action (got {'b-tac': 150})"),
    "a number as an id": (2, {"target": 7},
                          "record[2].action.args.target: expected a unit, blip or objective id as the target of a "
                          "rifle action (got 7)"),
    "a flag given as a word": (4, {"via": "north"},
                               "record[4].action.args.via: expected a list of at most 100 [x, y] points as the via of "
                               "a move action (got 'north')"),
    "inches beyond any table": (4, {"x": 1e9},
                                "record[4].action.args.x: expected a number of inches from -10000 to 10000 as the x "
                                "of a move action (got 1000000000.0)"),
}


@pytest.mark.parametrize("what", sorted(REFUSED))
def test_a_saved_action_with_a_wrong_argument_is_refused_by_index_kind_argument_and_expectation(tmp_path, what):
    index, args, expected = REFUSED[what]
    problems = _problems(tmp_path, _change(_example_doc(tmp_path), index, **args))
    assert any(expected in p for p in problems), problems


def test_every_wrong_argument_of_a_save_is_named_at_once(tmp_path):
    doc = _change(_change(_example_doc(tmp_path), 1, dice=None, up_to="yes"), 4, y=None)
    problems = _problems(tmp_path, doc)
    assert "record[1].action.args.dice: required for a target action" in problems[0]
    assert any("record[1].action.args.up_to: expected true or false as the up_to of a target action (got 'yes')" in p
               for p in problems), problems
    assert any("record[4].action.args.y: required for a move action" in p for p in problems), problems


def test_an_argument_unknown_to_a_unit_action_is_refused_as_well_as_to_set_up():
    # Before the registry was read, only set-up's kinds refused a name they do not have.
    assert action_problems({"kind": Kind.RIFLE, "actor": "a", "args": {"target": "b", "dice": 2}}, "--do") == [
        "--do.args.dice: not an argument of rifle (expected target)"]
    assert action_problems({"kind": Kind.END_TURN, "args": {"all": True}}, "--do") == [
        "--do.args.all: not an argument of end-turn (expected none)"]
    assert action_problems({"kind": "teleport", "args": {}}, "--do")[0].startswith("--do.kind: expected one of move")


def test_the_engine_refuses_an_action_with_an_argument_its_kind_does_not_take_so_no_save_holds_one():
    # A random player's odd reveal with {"extra": True} was taken and recorded: the save it wrote did not open again.
    session = battle()
    for action in legal.legal_actions(session.state):
        before = (session.state.to_data(), len(session.game.record))
        outcome = session.game.play(Action(action.kind, action.actor, {**dict(action.args), "extra_die": 1}),
                                    ScriptedDice([]))
        names = ", ".join(a.name for a in KINDS[action.kind].args) or "none"
        assert not outcome.legal
        assert outcome.reason == f"extra_die: not an argument of {action.kind} (expected {names})"
        assert (session.state.to_data(), len(session.game.record)) == before
    reveal = play(session.state, Action(Kind.REVEAL, "b-blip-KX", {"extra": True}), ScriptedDice([]))
    assert not reveal.legal and reveal.reason == "extra: not an argument of reveal (expected facing)"


@pytest.mark.parametrize("kind, args, expected", [
    (Kind.END_OF_ROUND, {"withdraw": "C"}, "expected 'A', 'B' or 'both' as the withdraw of a end-of-round action"),
    (Kind.SCRAMBLE, {"square": 17}, "expected a whole number from 1 to 16 as the square of a scramble action"),
    (Kind.SCRAMBLE, {"legacy": False}, "expected true as the legacy of a scramble action"),
    (Kind.TAKEN_BACK, {"side": "A", "consent": "B"}, "what: required for a taken-back action"),
    (Kind.TAKEN_BACK, {"side": "A", "consent": "B", "what": "move", "why": "x" * 2001},
     "expected a text of at most 2000 characters"),
    (Kind.OBJECTIVES, {"alpha": 3}, "expected 'secured', 'destroyed' or 'inspected' as the alpha of a objectives"),
    (Kind.CONTENTS, {"contents": [{}, {}, {}]}, "expected a list of at most 2 units"),
    (Kind.CORRECT, {"target_counters": -1}, "expected a whole number from 0 to 99 as the target_counters"),
    (Kind.CORRECT, {"move": [1]}, "expected [dx, dy] in inches as the move of a correct action"),
    (Kind.CORRECT, {"size": 2}, "not an argument of correct (expected x, y, facing, target_counters"),
    (Kind.MISSION, {"mission": ""}, "expected a card's id as the mission of a mission action"),
    (Kind.PLACE_OBJECTIVE, {"objective": "zeta"}, "expected 'delta', 'epsilon', 'alpha', 'beta' or 'gamma'"),
])
def test_each_kind_of_argument_is_held_to_its_type_and_range(kind, args, expected):
    problems = action_problems({"kind": kind, "actor": "a", "args": args}, "record[3].action")
    assert any(p.startswith("record[3].action.args.") and expected in p for p in problems), problems


@pytest.mark.parametrize("kind, args", [
    (Kind.OBJECTIVES, {"alpha": "Secured", "beta": "destroyed"}),      # the engine reads the word in any case
    (Kind.KAMIKAZE, {"x": 3, "y": 4.5, "target": None}),              # null: no target
    (Kind.REPAIR, {}),                                                 # the Engineer repairs itself
    (Kind.MISSION, {"mission": "hold-the-line", "troop": None}),
    (Kind.FACE, {"x": 1, "y": 2}),
    (Kind.CORRECT, {"x": 9.5, "facing": -90, "damaged": True, "move": [1, -2], "polygon": [[0, 0], [1, 0], [0, 1]]}),
    (Kind.SCRAMBLE, {"legacy": True}),
])
def test_what_the_engine_takes_passes_the_check(kind, args):
    assert action_problems({"kind": kind, "actor": "a", "args": args}, "--do") == []


# ---- the registry against what the engine reads ----------------------------------------------------------------


class Watched(dict[str, Any]):
    """An action's arguments that note each name the engine asks for, given or not (a ``get`` of one left out
    counts: the engine reads it as left out), and every name when it goes through them all."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)

    def __iter__(self):
        self.read.update(super().keys())
        return super().__iter__()

    def keys(self):
        self.read.update(super().keys())
        return super().keys()

    def items(self):
        self.read.update(super().keys())
        return super().items()

    def values(self):
        self.read.update(super().keys())
        return super().values()


def _watched_replay(game: Game, reads: dict[str, set[str]]) -> str:
    """Replay ``game``'s record with its arguments watched; the digest of the battle it replays to."""
    state = game.initial.copy()
    for i, entry in enumerate(game.record):
        action = entry.action
        assert action_problems(action.to_data(), f"record[{i}]") == [], (i, action)
        args = Watched(action.args)
        outcome = play(state, Action(action.kind, action.actor, args), replay_source(entry.rolls))
        assert outcome.legal, (i, action, outcome.reason)
        reads[action.kind] |= args.read
        state = outcome.state
    return state_digest(state)


def _played_games(folder: Path) -> list[Game]:
    """The repository's save; two seeded battles of random players (a flamer, a command, a jammer, a face, a
    kamikaze's jump among their actions); a refereed battle (contents told, the table corrected, a mission entered);
    a Target taken back, and a sensor pool rolled and spent by a Target that names what it wants most (``up_to``); a
    Repair of the Engineer's own suit and a kamikaze's move along a path."""
    games = [read_save(EXAMPLE_SAVE).game]
    # Seed 12's first 12 rounds (its first jammer comes in round 12) give every kind and argument its whole 18
    # rounds give beside seed 14's battle; seed 14 plays to its end, where the objectives are scored.
    for seed, rounds in (("12", ["--rounds", "12"]), ("14", [])):
        out = folder / f"selfplay-{seed}.json"
        assert main(["selfplay", "--seed", seed, *rounds, "--out", str(out)]) == 0
        games.append(read_save(out).game)
    refereed = refereed_battle()
    assert refereed.enter_mission("A", "seize-the-crossing", troop="line-section").legal
    assert refereed.remove("a-scout-9").legal
    games.append(read_save(refereed.save(folder / "refereed.json")).game)
    undone = battle()
    assert undone.attempt(Action(Kind.ACTIVATE, "a-tac")).legal
    assert undone.attempt(Action(Kind.TARGET, "a-tac", {"dice": 2, "assign": {"b-tac": 1}})).legal
    undone.undo(consent=True)
    assert undone.roll_pool("a-tac", 2).legal
    assert undone.attempt(Action(Kind.TARGET, "a-tac", {"dice": 2, "assign": {"b-tac": 1}, "up_to": True})).legal
    games.append(read_save(undone.save(folder / "undone.json")).game)
    repaired = Game(begin_battle(game_state(units=[unit("e", "A", 10, 10, type="engineer", damaged=True),
                                                   unit("b", "B", 30, 30)]), "A"))
    assert repaired.play(Action(Kind.ACTIVATE, "e"), ScriptedDice([])).legal
    assert repaired.play(Action(Kind.REPAIR, "e"), ScriptedDice([1])).legal        # its own suit: no target
    blown = Game(begin_battle(kamikaze_table(), "A"))
    assert blown.play(Action(Kind.ACTIVATE, "k"), ScriptedDice([])).legal
    assert blown.play(Action(Kind.KAMIKAZE, "k", {"x": 14, "y": 10, "via": [[12, 10]], "target": "t"}),
                      ScriptedDice([3, 1, 1, 1, 1])).legal
    for i, game in enumerate((repaired, blown)):
        games.append(read_save(save_game(game, folder / f"scripted-{i}.json")).game)
    return games


# The kinds these battles do not play, and where the engine's reading of their arguments is held to the registry.
NOT_PLAYED = {
    Kind.CHOOSE_CARDS: "a campaign streak's set-up (test_setup_steps.py); choose_cards checks its names itself",
    Kind.FORFEIT: "a kept side's computer away, claimed on the host (test_net_kept.py); it takes no arguments",
    Kind.DICE_OPENED: "a kept side's dice contribution opened at the end, on the host (test_net_kept_dice.py)",
    Kind.CARDS_OPENED: "a kept side's cards opened at the end, on the host (test_net_kept_cards.py)",
}
# Arguments these battles never give nor ask for, each with where the engine reads it.
NOT_READ = {
    (Kind.CORRECT, "y"): "change_piece reads every field given (UNIT_FIELDS and the others, test below)",
    (Kind.CORRECT, "target_counters"): "change_piece, as y",
    (Kind.CORRECT, "damaged"): "change_piece, as y",
    (Kind.CORRECT, "stunned"): "change_piece, as y",
    (Kind.CORRECT, "activation"): "change_piece, as y",
    (Kind.CORRECT, "move"): "change_terrain (TERRAIN_CHANGES)",
    (Kind.CORRECT, "turn"): "change_terrain (TERRAIN_CHANGES)",
    (Kind.CORRECT, "polygon"): "change_terrain (TERRAIN_CHANGES)",
    (Kind.CORRECT, "circle"): "change_terrain (TERRAIN_CHANGES)",
    (Kind.SCRAMBLE, "committed"): "a Scramble of a side kept on its own computer (_kept_scramble, "
                                  "tests/test_kept_scramble.py): no battle played here keeps a side",
    (Kind.SCRAMBLE, "blips_committed"): "as committed",
}


def test_the_registry_holds_every_argument_the_engine_reads_in_played_battles_and_no_other(tmp_path):
    reads: dict[str, set[str]] = defaultdict(set)
    games = _played_games(tmp_path)
    for game in games:
        assert _watched_replay(game, reads) == state_digest(game.state)
    assert set(reads) | set(NOT_PLAYED) == set(KINDS), sorted(set(KINDS) - set(reads) - set(NOT_PLAYED))
    assert set(reads) & set(NOT_PLAYED) == set(), "played after all: take it out of NOT_PLAYED"
    assert [(k, n) for k, n in NOT_READ if n in reads[k]] == [], "read after all: take it out of NOT_READ"
    for kind, names in sorted(reads.items()):
        undeclared = sorted(n for n in names if arg_named(kind, n) is None)
        assert undeclared == [], f"the engine reads {undeclared} of a {kind} action: declare them in KINDS"
        declared = {a.name for a in KINDS[kind].args if not a.any_key}
        unread = sorted(n for n in declared - names if (kind, n) not in NOT_READ)
        assert unread == [], f"KINDS declares {unread} of {kind}, which no battle gives and the engine never asks for"


def test_the_registry_names_what_the_engine_allows_by_name():
    def names(kind: str) -> set[str]:
        return {a.name for a in KINDS[kind].args}

    assert names(Kind.CORRECT) == {*UNIT_FIELDS, *BLIP_FIELDS, *OBJECTIVE_FIELDS, *TERRAIN_CHANGES, "add", "remove"}
    # ``limit`` is said by the computer of a side whose cards it keeps (its own mission's round limit, A43), never
    # offered as a choice on a screen.
    assert names(Kind.END_OF_ROUND) == set(legal.END_OF_ROUND_FREE) | {"limit"}
    choices = {a.name: a.choices for kind in KINDS for a in KINDS[kind].args if a.choices}
    assert choices["objective"] == OBJECTIVE_ORDER
    assert choices["<objective>"] == victory.OBJECTIVE_CHOICES
    assert set(choices["withdraw"]) == {v for v in legal.END_OF_ROUND_FREE["withdraw"] if v is not None}
    assert set(choices["answer"]) == set(legal.END_OF_ROUND_FREE["answer"])


def test_every_declared_argument_says_what_it_expects():
    for kind, entry in KINDS.items():
        for arg in entry.args:
            assert isinstance(arg, Arg)
            # A value of none of the types is refused with the words of its expectation.
            assert arg_problem(arg, object()), (kind, arg.name)
