"""A Scramble by a side that keeps its secrets on its own computer (docs/network.md, "A side that keeps its secrets"):
its computer chooses the square and which new counter is real, and commits; the engine learns neither until a reveal
(p.22, A23, A59)."""

from __future__ import annotations

import copy
import json

import pytest

from referee.game.battle.action_kinds import Kind
from referee.game.records.record import action_problems
from referee.game.battle.commit import UNIT_KEYS, battle_id, blip_commitment, square_commitment
from referee.game.battle.dice import ScriptedDice
from referee.game.battle.intents import Action
from referee.game.battle.state import contents_from_unit
from referee.game.play.corrections import tell_contents
from referee.game.play.effects import Ctx, Refused
from referee.game.play.actions import kept_scramble_squares, resolve, unused_blips
from referee.game.views.view import player_view, public_view
from referee.net.keeper import Keeper

from .tables import game_state, unit

SALTS = {n: f"{n:064x}" for n in range(1, 40)}


def kept_table():
    """Side A keeps its holding area on its own computer; every square is empty and unused (A23)."""
    s = game_state(units=[unit("tac", "A", 10, 10), unit("foe", "B", 30, 30)])
    s.square_commitments = {"A": {str(n): "e" * 64 for n in range(1, 17)}}
    s.issued_kept = {"A": []}
    s.blip_commitments = {"A": {}}
    return s


def commitments(s, real_square: int, real_corner: int):
    """What A's computer sends with its Scramble: the unit in ``real_square`` (one of the three the engine fills),
    the counter at corner ``real_corner`` standing for it; salts fixed so two runs differ only in the choice."""
    battle = battle_id(s.dice_commitments)
    squares = kept_scramble_squares(unused_blips(s, "A"))
    entry = contents_from_unit(s.units["tac"]).model_dump(mode="json", include=set(UNIT_KEYS))
    committed = {str(n): square_commitment(battle, "A", n, [entry] if n == real_square else [], SALTS[n])
                 for n in squares}
    decoys = [n for n in squares if n != real_square]
    order = decoys[:]
    order.insert(real_corner, real_square)
    counters = {str(k + 1): blip_commitment(battle, "A", n, SALTS[20 + k]) for k, n in enumerate(order)}
    return squares, order, entry, {"committed": committed, "blips_committed": counters}


def scrambled(real_square: int, real_corner: int):
    s = kept_table()
    squares, order, entry, args = commitments(s, real_square, real_corner)
    out = resolve(s, Action("scramble", "tac", args), ScriptedDice(draws=[0, 0, 0]))
    assert out.legal, out.reason
    return out, squares, order, entry


def shown(state, seat):
    return json.dumps(player_view(state, seat) if seat else public_view(state), sort_keys=True)


def public(state, seat):
    """What ``seat`` is shown, the square commitments masked: each hides what it commits to (its salt is secret),
    and two different choices commit to different contents."""
    view = dict(player_view(state, seat) if seat else public_view(state))
    view["square_commitments"] = {side: sorted(c) for side, c in view["square_commitments"].items()}
    return json.dumps(view, sort_keys=True)


def test_a_kept_sides_scramble_shows_the_other_side_the_same_whichever_square_and_counter_it_chose():
    one, squares, _order, _entry = scrambled(1, 0)
    two, squares_two, _order_two, _entry_two = scrambled(3, 2)
    same_square = scrambled(1, 2)[0]
    assert squares == squares_two == [1, 2, 3]
    for seat in ("B", None):
        assert public(one.state, seat) == public(two.state, seat)
        # The same square, another counter real: the very same bytes (the counters' commitments are A's own).
        assert shown(one.state, seat) == shown(same_square.state, seat)
    # The engine's own state holds no more: the three squares unknown, each counter on a stand-in.
    assert one.state.to_data()["holding"] == two.state.to_data()["holding"]
    assert all(one.state.holding["A"].squares[n] is None for n in squares)
    assert [b.square for b in one.state.blips.values() if b.side == "A"] == [
        b.square for b in two.state.blips.values() if b.side == "A"]
    assert not any("square" in e for e in one.events if "Scrambles" in e)


def test_a_kept_sides_scrambled_counter_opens_as_its_computer_committed():
    out, _squares, order, entry = scrambled(2, 1)
    s = out.state
    battle = battle_id(s.dice_commitments)
    real = next(b for b in s.blips.values() if b.side == "A"
                and s.blip_commitments["A"][b.id] == blip_commitment(battle, "A", 2, SALTS[21]))
    told = {"contents": [{k: v for k, v in entry.items() if k != "side"}], "salt": SALTS[2], "square": 2,
            "square_salt": SALTS[21]}
    # Opened as a decoy instead: refused, nothing changed.
    lie = copy.deepcopy(s)
    with pytest.raises(Refused, match="does not open"):
        tell_contents(Ctx(lie), Action(Kind.CONTENTS, real.id, {**told, "contents": []}))
    opened = copy.deepcopy(s)
    tell_contents(Ctx(opened), Action(Kind.CONTENTS, real.id, told))
    assert [c.id for c in opened.holding["A"].squares[2]] == ["tac"] and opened.blips[real.id].square == 2
    assert opened.issued_kept["A"] == [] and order.index(2) == 1


def test_a_kept_sides_scramble_names_no_square_and_sends_its_commitments():
    s = kept_table()
    _squares, _order, _entry, args = commitments(s, 1, 0)
    named = resolve(s, Action("scramble", "tac", {**args, "square": 1}), ScriptedDice(draws=[0, 0, 0]))
    assert not named.legal and "never the square" in named.reason
    bare = resolve(s, Action("scramble", "tac", {}), ScriptedDice(draws=[0, 0, 0]))
    assert not bare.legal and "expected committed" in bare.reason


def test_the_kept_sides_client_chooses_and_commits_its_scramble_and_opens_it_at_the_reveal(tmp_path):
    s = kept_table()
    s.dice_commitments = {"seed": "c" * 64}
    keeper = Keeper("A", battle_id(s.dice_commitments), pin="a-pin-4711", folder=tmp_path)
    screen = {"seat": "A", "view": player_view(s, "A"), Kind.SCRAMBLE: {"tac": unused_blips(s, "A")}}
    sent = keeper.scramble(screen, {"kind": Kind.SCRAMBLE, "actor": "tac", "args": {"square": 2}}, corner=1)
    assert set(sent["args"]) == {"committed", "blips_committed"}          # the square chosen stays here
    assert not action_problems(sent, "intent.action")                    # the arguments the host reads
    out = resolve(s, Action(Kind.SCRAMBLE, "tac", sent["args"]), ScriptedDice(draws=[0, 0, 0]))
    assert out.legal, out.reason
    state = out.state
    # The host holds stand-ins; A's own screen, filled in from its computer, shows the real counter on square 2.
    mine = keeper.shown({"seat": "A", "view": player_view(state, "A")})
    real = [b["id"] for b in mine["view"]["blips"] if b["side"] == "A" and b.get("contents")]
    assert len(real) == 1 and next(b for b in mine["view"]["blips"] if b["id"] == real[0])["square"] == 2
    # At its reveal the client opens it, and the engine checks the opening against the commitments.
    asked = {"seat": "A", "view": player_view(state, "A"),
             "open_square": {"blip": real[0], "committed": state.blip_commitments["A"][real[0]]}}
    answer = keeper.opening(asked)
    assert answer is not None and answer["square"] == 2
    tell_contents(Ctx(state), Action(Kind.CONTENTS, real[0], {k: v for k, v in answer.items()
                                                              if k not in ("kind", "blip")}))
    assert [c.id for c in state.holding["A"].squares[2]] == ["tac"]
    # The client read back from its file knows the same.
    again = Keeper("A", battle_id(s.dice_commitments), pin="a-pin-4711", folder=tmp_path)
    assert again.squares == keeper.squares and again.blips == keeper.blips


def test_a_kept_sides_damaged_unit_comes_back_damaged_from_its_scramble():
    s = kept_table()
    s.units["tac"].damaged = True
    squares, order, entry, args = commitments(s, 2, 0)
    # The Damaged check before the Scramble: a 3 acts (p.25).
    out = resolve(s, Action("scramble", "tac", args), ScriptedDice([3], draws=[0, 0, 0]))
    assert out.legal, out.reason
    after = out.state
    battle = battle_id(after.dice_commitments)
    real = next(b for b in after.blips.values() if b.side == "A"
                and after.blip_commitments["A"][b.id] == blip_commitment(battle, "A", 2, SALTS[20]))
    # The opening names the unit as committed (its id, side, faction, rating and type); the table saw it Damaged.
    told = {"contents": [{k: v for k, v in entry.items() if k != "side"}], "salt": SALTS[2], "square": 2,
            "square_salt": SALTS[20]}
    tell_contents(Ctx(after), Action(Kind.CONTENTS, real.id, told))
    assert [(c.id, c.damaged) for c in after.holding["A"].squares[2]] == [("tac", True)]
    assert after.issued_kept["A"] == []
