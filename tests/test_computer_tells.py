"""No tells in the computer's blip moves: which of its blips it activates, as a primary or an extra blip activation,
and where it moves them, read nothing of what they hold, so a player watching cannot pick out its decoys. Only the
reveal of a blip of units looks at its contents, and the reveal shows them to everyone anyway; a decoy in its own
activation is revealed where a blip holding the stand-in would be.

Each check here shuffles the contents among the computer's own blips (the opponent's view is then the very same) and
asks for the decision again, or deals the holding area's contents into other squares before set-up and plays set-up
through again. The soak runs (``pytest -m soak``) play seeded battles and let a cheating player learn, from the public
log and the opponent's view alone, to tell the computer's real blips from its decoys (``tests/tells.py``): the
default suite checks each decision those battles are made of (where a blip goes down, which blip is activated,
where it moves) directly, on the same computer."""

from __future__ import annotations

import pytest

from referee import paths
from referee.game.players.computer import Computer
from referee.game.battle.dice import SeededDice
from referee.game.play.legal import legal_actions, to_act
from referee.game.play.setup import new_game
from referee.game.battle.state import GameState, TurnState
from referee.game.views.view import player_view
from referee.rules.scenario import load_scenario
from tests.test_computer_play import _activating, _battle


def _shuffled(s: GameState, one: str, other: str) -> GameState:
    """The same battle with the contents of two of side A's blips swapped: side B sees no difference."""
    t = s.copy()
    h = t.holding["A"].squares
    a, b = t.blips[one].square, t.blips[other].square
    h[a], h[b] = h[b], h[a]
    assert player_view(t, "B") == player_view(s, "B")
    return t


def _defending(s: GameState) -> GameState:
    # No round limit on either side: a blip of units far from the enemy has no reason to show itself.
    s.attacker = "B"
    s.missions = {"A": "hold-the-line", "B": "sabotage"}
    return s


def _blips(s: GameState) -> tuple[list[str], list[str]]:
    mine = sorted((b for b in s.blips.values() if b.side == "A"), key=lambda b: b.id)
    return [b.id for b in mine if s.blip_contents(b)], [b.id for b in mine if not s.blip_contents(b)]


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_decoy_moves_where_the_same_blip_holding_units_would(level):
    s = _defending(_battle(5))
    real, decoys = _blips(s)
    moves = 0
    for decoy, full in zip(decoys[:4], real[:4]):
        for ident in (decoy, full):
            t = _activating(s.copy(), ident)
            t.turn.activation_kind = "extra"        # no reveal here: only a Move [p.16, A19]
            u = _shuffled(t, decoy, full)        # the blip that held nothing now holds units, and the other way
            first = Computer("A", level, seed=2).decide(player_view(t, "A"), legal_actions(t, "A"))
            second = Computer("A", level, seed=2).decide(player_view(u, "A"), legal_actions(u, "A"))
            assert first.action == second.action, (first.reason, second.reason)
            assert first.shown() == second.shown()
            moves += first.action.kind == "move"
    assert moves >= 4


def test_in_its_own_activation_a_blip_is_revealed_or_moved_as_any_blip_would_be():
    # The reveal is weighed only for a blip of units, on what it holds; a blip that stays hidden moves as any other.
    s = _defending(_battle(5))
    real, decoys = _blips(s)
    moved = 0
    for decoy, full in zip(decoys[:4], real[:4]):
        for ident in (decoy, full):
            t = _activating(s.copy(), ident)
            u = _shuffled(t, decoy, full)
            first = Computer("A", "normal", seed=2).decide(player_view(t, "A"), legal_actions(t, "A"))
            second = Computer("A", "normal", seed=2).decide(player_view(u, "A"), legal_actions(u, "A"))
            for d, state in ((first, t), (second, u)):
                if d.action.kind == "reveal" and not state.blip_contents(state.blips[ident]):
                    # A decoy shows itself only where a blip holding the stand-in would be revealed.
                    assert d.reason.startswith(f"reveals its decoy {ident}"), d.reason
            if "reveal" not in (first.action.kind, second.action.kind):
                assert first.action == second.action, (first.reason, second.reason)
                assert first.shown() == second.shown()
                moved += 1
    assert moved >= 4


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_which_blip_takes_an_extra_blip_activation_does_not_depend_on_what_it_holds(level):
    s = _defending(_battle(7))
    s.phase = "action"
    s.turn = TurnState(player="A", primary_allowed=1, primary_used=1)
    real, decoys = _blips(s)
    chosen = []
    for decoy, full in zip(decoys[:4], real[:4]):
        u = _shuffled(s, decoy, full)
        first = Computer("A", level, seed=3).decide(player_view(s, "A"), legal_actions(s, "A"))
        second = Computer("A", level, seed=3).decide(player_view(u, "A"), legal_actions(u, "A"))
        assert first.action == second.action, (first.reason, second.reason)
        chosen.append(first.action.actor)
    assert any(chosen), "it took an extra blip activation"


def _set_up(level: str, table: str, reversed_contents: bool) -> tuple[GameState, list[str]]:
    """Set-up played through by two computers at ``level``, each side's holding area dealt in its order or reversed
    just before the first blip goes down; with the log of what the blips' owners' opponents saw."""
    game = new_game(load_scenario(paths.table_file(table)), {"A": "council-of-zane", "B": "new-tokyo"})
    dice = SeededDice(3)
    computers = {side: Computer(side, level, seed=3) for side in "AB"}
    dealt = False
    seen = []
    while game.state.phase == "setup":
        s = game.state
        side = to_act(s) or s.initiative
        legal = legal_actions(s, side)
        if not dealt and any(la.kind == "place-blip" for la in legal):
            assert not s.blips
            for holder in "AB":
                squares = s.holding[holder].squares
                order = sorted(squares)
                contents = [squares[n] for n in order]
                s.holding[holder].squares = dict(zip(order, contents[::-1] if reversed_contents else contents))
            dealt = True
        out = game.play(computers[side].decide(player_view(s, side), legal).action, dice)
        assert out.legal, out.reason
        if dealt:
            seen.append(repr([(b["id"], b["x"], b["y"]) for b in player_view(game.state, "B")["blips"]
                              if b["side"] == "A"]))
    return game.state, seen


@pytest.mark.parametrize("level, table", [("easy", "pastoral-hills"), ("normal", "pastoral-hills"),
                                          ("normal", "blasted-urban"), ("hard", "blasted-urban")])
def test_where_and_in_which_order_the_blips_go_down_does_not_depend_on_what_they_hold(level, table):
    # What the soak runs' cheating player learns from at set-up (a blip's place in the order of placing, the cover
    # about its spot, its depth) is the same whichever blips hold units.
    first, seen_first = _set_up(level, table, False)
    second, seen_second = _set_up(level, table, True)

    def real(s: GameState) -> set[str]:
        return {b.id for b in s.blips.values() if b.side == "A" and s.blip_contents(b)}

    assert real(first) and real(first) != real(second), "the two deals put units in other blips"
    assert [(b.id, b.x, b.y) for b in first.blips.values()] == [(b.id, b.x, b.y) for b in second.blips.values()]
    assert seen_first == seen_second
    assert len({b.id for b in first.blips.values() if b.side == "A"}) == 16


# Twelve battles: on the first six alone (seeds 7100-7102) the rule over all figures strayed from 0.62 to 0.70 with a
# change that reads nothing of what a blip holds (a blip's Move priced by the ground its stand-in is revealed on),
# where on these twelve it went from 0.64 to 0.65 in two rounds and from 0.65 to 0.67 in four
# (docs/computer-measurements.md, "Normal heeds the ground again"). With its decoys revealed where a blip of units
# would be, 0.57 and 0.58 (the same file's last section).
WATCHED = [(7100 + i, ("pastoral-hills", "blasted-urban")[i % 2], side) for i in range(6) for side in "AB"]


@pytest.mark.soak
def test_a_cheating_player_cannot_tell_the_computers_decoys_by_how_its_blips_move_in_two_rounds():
    # The same twelve battles as the soak run below, stopped after round 2: about 120 blips scored, the same bounds.
    _no_tells(rounds=2, blips=110)


@pytest.mark.soak
def test_a_cheating_player_cannot_tell_the_computers_decoys_by_how_its_blips_move():
    # About 150 blips scored: decoys revealed in their own activations leave fewer to score. Which battles are played
    # moves the count (160 were scored before a shot from an enemy that had used its activation counted as next
    # round's, 142 with that change alone, 153 with a marked unit that may move off first weighed so too).
    _no_tells(rounds=4, blips=130)


def _no_tells(rounds: int, blips: int) -> None:
    from tests.tells import tells, watch_battle

    battles = [watch_battle(seed, table, "computer:normal", side, rounds=rounds) for seed, table, side in WATCHED]
    score = tells(battles)
    print(f"\n{score}")
    assert score.blips >= blips and 0 < score.real < score.blips, score
    # Learned on three battles and scored on the other three: how often activated, as a primary or an extra blip
    # activation, how far moved, how much nearer the enemy or an objective, in which turn and place first
    # activated, where it went down at set-up and when. Before its blips were weighed blind to their contents, the
    # rule over these scored 1.00 on these battles, the cover about a blip's starting spot alone 0.99, how often it
    # took an extra blip activation 0.90 (a decoy almost never did), its place in the order of set-up 0.87.
    # A score below a coin's is no leak (the rule learned on one half misleads on the other): only a high one is.
    # The figures of one blip at the start of successive rounds hang together, so the 200 or so scored are worth
    # far fewer: a single figure is allowed more room than the rule over all of them. Issue 37 asks 0.6 of the rule;
    # twelve battles stray about 0.05 either way, so the bound here leaves that room.
    assert score.combined < 0.65, score
    assert max(score.per_feature.values()) < 0.8, score
