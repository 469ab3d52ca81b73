"""The player view shows a player everything on the table and nothing of the opponent's secrets; seals."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.pieces import DealtCards
from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice, SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.play.seal import seal, seal_hash, short_seal, verify_seal, verify_seals
from referee.game.battle.state import (SIDES, SQUARES, BlipState, GameState, Holding, LogEntry, ObjectiveState, TurnState,
                                UnitState, other)
from referee.game.views.view import player_view, referee_view, scenario_part
from referee.game.views.view_words import describe, hover_text, log_lines
from referee.rules.scenario import UnitContents, parse_scenario

from .tables import game_state, unit

TROOPERS = ("commander", "tactical", "assault", "scout", "engineer")
DRONES = ("basic-drone", "kamikaze-drone", "haywire-drone", "recce-drone")


def _tag(rng: random.Random) -> str:
    return "%08x" % rng.getrandbits(32)


def _contents(rng: random.Random, side: str) -> UnitContents:
    kind = rng.choice(TROOPERS + DRONES)
    return UnitContents(id=f"{side.lower()}secret-{_tag(rng)}", side=side, faction="council-of-zane",
                        rating=rng.choice(["reserve", "veteran", "spec-ops"]), type=kind,
                        damaged=kind in TROOPERS and rng.random() < 0.2)


def _secrets(state: GameState, side: str, rng: random.Random) -> None:
    """(Re)deal ``side``'s secrets: which square each of its blips stands for, every square's units, mission,
    cards, seal, and the private log texts meant for it."""
    blips = [b for b in state.blips.values() if b.side == side]
    squares = rng.sample(range(1, SQUARES + 1), len(blips))
    holding = Holding({n: [] for n in range(1, SQUARES + 1)})
    for b, n in zip(blips, squares):
        b.square = n
        holding.squares[n] = [_contents(rng, side) for _ in range(rng.choice([0, 0, 1, 1, 2]))]
    for n in range(1, SQUARES + 1):
        if n not in squares and rng.random() < 0.15:
            holding.squares[n] = [_contents(rng, side)]       # held back, never deployed
    state.holding[side] = holding
    state.missions[side] = f"mission-{side.lower()}-{_tag(rng)}"
    state.cards[side] = DealtCards(troop=f"troop-{side.lower()}-{_tag(rng)}", drone=f"drone-{side.lower()}-{_tag(rng)}",
                                   line=rng.choice("ABC"))
    for i, e in enumerate(state.log):
        if side in e.private:
            # A new entry, not a change to this one: a copied state shares its log entries with the original.
            private = {**e.private, side: f"private-{side.lower()}-{_tag(rng)}: square {rng.randint(1, SQUARES)}"}
            state.log[i] = LogEntry(e.text, list(e.explain), list(e.units), private, e.round)
    state.salts.pop(side, None)
    from referee.game.play.seal import seal_side

    seal_side(state, side, _tag(rng) + _tag(rng))


def random_state(seed: int) -> GameState:
    rng = random.Random(seed)
    units, blips, spots = {}, {}, []

    def spot():
        # Positions on a 2" grid: bases never overlap.
        while True:
            p = (rng.randrange(1, 18) * 2.0, rng.randrange(1, 18) * 2.0)
            if p not in spots:
                spots.append(p)
                return p

    for side in SIDES:
        for i in range(rng.randint(0, 4)):
            kind = rng.choice(TROOPERS + DRONES)
            x, y = spot()
            ident = f"{side.lower()}-unit-{i}"
            units[ident] = UnitState(ident, side, "council-of-zane", "veteran", kind, x, y,
                                     facing=rng.choice([0.0, 90.0, 270.0]), target_counters=rng.randint(0, 4),
                                     activation=rng.random() < 0.5)
        for i in range(rng.randint(0, 8)):
            x, y = spot()
            ident = f"{side.lower()}-blip-{i}"
            blips[ident] = BlipState(ident, side, x, y, 0, activation=rng.random() < 0.5)
    objectives = {}
    for oid in rng.sample(["alpha", "beta", "gamma", "delta", "epsilon"], rng.randint(0, 3)):
        x, y = spot()
        objectives[oid] = ObjectiveState(oid, x, y, target_counters=rng.randint(0, 3),
                                         control=rng.choice(["contested", "A", "B"]))
    state = GameState(name="random table", width=36.0, height=36.0, terrain=[], units=units, blips=blips,
                      objectives=objectives, holding={}, attacker=rng.choice(["A", "B", None]),
                      round=rng.randint(1, 5), phase=rng.choice(["action", "action", "end-of-round"]),
                      initiative=rng.choice(SIDES))
    if state.phase == "action":
        movers = list(units) + list(blips)
        state.turn = TurnState(player=rng.choice(SIDES), active=rng.choice(movers) if movers and rng.random() < 0.5 else None)
    for i in range(rng.randint(0, 6)):
        private = {s: "" for s in SIDES if rng.random() < 0.3}
        state.log.append(LogEntry(f"public event {i}", [f"public event {i} [p.16]"], [], private, 1))
    for side in SIDES:
        _secrets(state, side, rng)
    return state


def secret_strings(state: GameState, side: str) -> set[str]:
    found = {c.id for squares in state.holding[side].squares.values() for c in squares or []}
    found.add(state.missions[side])
    found |= {state.cards[side].troop, state.cards[side].drone}
    found.add(state.salts[side])
    found |= {e.private[side] for e in state.log if side in e.private}
    return found


# ---- secrecy, by search and by non-interference --------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_player_view_never_holds_the_opponents_secrets(seed):
    state = random_state(seed)
    for viewer in SIDES:
        opponent = other(viewer)
        view = player_view(state, viewer)
        text = json.dumps(view)
        for secret in secret_strings(state, opponent):
            assert secret not in text, f"{viewer} sees {opponent}'s {secret!r}"
        for b in view["blips"]:
            if b["side"] == opponent:
                assert set(b) == {"id", "side", "x", "y", "base", "activation"}
        assert view["holding"][opponent] is None
        assert view["missions"][opponent] is None and view["cards"][opponent] is None
        assert view["salts"] == {"A": None, "B": None}
        # Everything the player owns is there.
        for secret in secret_strings(state, viewer) - {state.salts[viewer]}:
            assert secret in text, f"{viewer} cannot see its own {secret!r}"
        for line in log_lines(view) + describe(view) + [hover_text(view, b.id) for b in state.blips.values()]:
            for secret in secret_strings(state, opponent):
                assert secret not in line


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_the_opponents_secrets_change_nothing_a_player_sees(seed, reseed):
    """Deal side B different secrets on the same table: side A's view is the same (only B's seal differs)."""
    state = random_state(seed)
    again = state.copy()
    _secrets(again, "B", random.Random(reseed))
    first, second = player_view(state, "A"), player_view(again, "A")
    assert first["sealed"]["A"] == second["sealed"]["A"]
    first.pop("sealed"), second.pop("sealed")
    assert first == second


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_end_of_battle_reveals_everything(seed):
    state = random_state(seed)
    state.phase, state.turn = "over", None
    for viewer in SIDES:
        view = player_view(state, viewer)
        text = json.dumps(view)
        for side in SIDES:
            for secret in secret_strings(state, side):
                assert secret in text
        assert all("square" in b and "contents" in b for b in view["blips"])
    assert player_view(state, "A")["holding"] == referee_view(state)["holding"]


def test_the_referee_sees_the_whole_truth():
    state = random_state(11)
    view = referee_view(state)
    text = json.dumps(view)
    for side in SIDES:
        for secret in secret_strings(state, side):
            assert secret in text
    assert view["viewer"] == "referee"


def test_a_view_of_a_game_in_progress():
    """A real game: after A's Target on a blip reveals it, both see the revealed unit; B's other blip stays hidden."""
    def c(ident, side, type="tactical"):
        return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type}

    s = game_state(units=[unit("a-tac", "A", 10, 2, facing=90)],
                   blips=[{"id": "b-blip-1", "side": "B", "x": 10, "y": 8, "square": 5, "contents": [c("b-scout", "B", "scout")]},
                          {"id": "b-blip-2", "side": "B", "x": 30, "y": 30, "square": 9, "contents": [c("b-eng", "B", "engineer")]}],
                   attacker="A")
    game = Game(begin_battle(s))
    assert game.play(Action("activate", "a-tac"), ScriptedDice()).legal
    out = game.play(Action("target", "a-tac", {"dice": 2, "assign": {"b-blip-1": 2}}), ScriptedDice([4, 3]))
    assert out.legal, out.reason
    view = player_view(game.state, "A")
    units = {u["id"]: u for u in view["units"]}
    assert units["b-scout"]["target_counters"] == 2 and units["a-tac"]["target_counters"] == 2
    assert [b["id"] for b in view["blips"]] == ["b-blip-2"]
    assert "b-eng" not in json.dumps(view)
    assert hover_text(view, "b-blip-2") == "b-blip-2 (B, blip) at (30, 30), contents unknown, activation counter"
    assert hover_text(view, "b-scout").startswith("b-scout (B, scout, council-of-zane veteran) at (10, 8)")
    mine = player_view(game.state, "B")
    assert hover_text(mine, "b-blip-2") == ("b-blip-2 (B, blip) at (30, 30), square 9: b-eng (engineer), "
                                            "activation counter")
    assert mine["holding"]["B"]["9"][0]["id"] == "b-eng" and mine["holding"]["A"] is None
    # The table part is a valid scenario a player can feed to ``query``.
    parse_scenario(scenario_part(view), "view")


def test_private_log_texts_reach_only_their_side():
    state = random_state(3)
    state.log.append(LogEntry("b-tac Scrambles", [], [], {"B": "b-tac went to square 4"}, 2))
    a, b = player_view(state, "A"), player_view(state, "B")
    assert a["log"][-1] == {"round": 2, "text": "b-tac Scrambles", "explain": [], "units": []}
    assert b["log"][-1]["note"] == "b-tac went to square 4"
    assert log_lines(b)[-1] == "[round 2] b-tac Scrambles  (only you: b-tac went to square 4)"
    assert log_lines(a)[-1] == "[round 2] b-tac Scrambles"


def test_an_unknown_side_is_refused():
    with pytest.raises(ValueError):
        player_view(random_state(1), "C")


# ---- seals ------------------------------------------------------------------------------------------------


def sealed_table() -> GameState:
    def c(ident, side, type="tactical"):
        return {"id": ident, "side": side, "faction": "council-of-zane", "rating": "veteran", "type": type}

    s = game_state(units=[unit("a-tac", "A", 10, 2, facing=90), unit("b-tac", "B", 10, 30, facing=270)],
                   blips=[{"id": "a-blip-1", "side": "A", "x": 20, "y": 2, "square": 3, "contents": [c("a-eng", "A", "engineer")]},
                          {"id": "b-blip-1", "side": "B", "x": 20, "y": 30, "square": 7, "contents": []}])
    s.missions = {"A": "deep-strike", "B": "hold-the-line"}
    return seal(s, {"A": "salt-for-a", "B": "salt-for-b"})


def test_a_seal_is_the_sha256_of_the_holding_area_mission_and_salt():
    s = sealed_table()
    assert len(s.sealed["A"]) == 64 and s.sealed["A"] != s.sealed["B"]
    assert verify_seal(s, "A") and verify_seal(s, "B")
    assert s.sealed["A"] == seal_hash(s, "A", "salt-for-a")
    assert s.sealed["A"] != seal_hash(s, "A", "another-salt"), "the salt hides the contents"
    assert short_seal(s.sealed["A"]) == " ".join(s.sealed["A"][i:i + 4] for i in (0, 4, 8, 12))
    # Same table, sealed again with the same salts: the same seals (canonical JSON).
    assert sealed_table().sealed == s.sealed


def test_a_changed_holding_area_or_mission_breaks_the_seal():
    s = sealed_table()
    s.missions["B"] = "killing-ground"
    check = verify_seal(s, "B")
    assert not check and "differs" in check.reason and "does NOT match" in check.text()
    s = sealed_table()
    s.holding["A"].squares[3] = []
    assert not verify_seal(s, "A") and verify_seal(s, "B")
    s = sealed_table()
    s.salts.pop("A")
    assert not verify_seal(s, "A") and "salt is missing" in verify_seal(s, "A").reason


def test_both_players_see_the_seals_and_the_salts_only_at_the_end():
    s = sealed_table()
    view = player_view(s, "A")
    assert view["sealed"] == s.sealed and view["salts"] == {"A": None, "B": None}
    s.phase = "over"
    assert player_view(s, "A")["salts"] == {"A": "salt-for-a", "B": "salt-for-b"}


def test_the_end_of_battle_report_checks_the_seals_made_at_set_up():
    game = Game(begin_battle(sealed_table()))
    assert game.play(Action("activate", "a-blip-1"), ScriptedDice()).legal
    assert game.play(Action("reveal", "a-blip-1"), ScriptedDice()).legal
    assert game.state.holding["A"].squares[3] == []          # revealed: the square is empty now
    checks = verify_seals(game)
    assert checks["A"] and checks["B"]
    assert checks["A"].text().startswith("side A's seal matches its holding area, blips, mission and cards")
    game.state.sealed["B"] = "0" * 64                          # a seal changed during the battle
    assert not verify_seals(game)["B"]


def test_after_a_scramble_the_opponent_cannot_tell_the_real_blip():
    tells = []
    for seed in range(12):
        s = game_state(units=[unit("a-tac", "A", 10 + seed, 4, facing=90), unit("b-tac", "B", 10, 30, facing=270)],
                       attacker="A")
        game = Game(begin_battle(s))
        assert game.play(Action("activate", "a-tac"), ScriptedDice()).legal
        assert game.play(Action("scramble", "a-tac"), SeededDice(seed)).legal
        view = player_view(game.state, "B")
        real = next(b.id for b in game.state.blips.values() if game.state.blip_contents(b))
        mine = sorted(view["blips"], key=lambda b: b["id"])
        at_spot = next((b["id"] for b in mine if (b["x"], b["y"]) == (10 + seed, 4)), None)
        tells.append((real == mine[0]["id"], real == at_spot))
    assert not all(first for first, _ in tells), "the real blip is always the first"
    assert not all(spot for _, spot in tells), "the real blip always stands where the unit stood"
