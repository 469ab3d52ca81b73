"""The battle service's seats: each seat's screen holds what that seat may see, and nothing else.

The strongest check is a re-deal: deal the opponent's secrets again (which of its blips holds what, its mission),
consistently with what the seat has seen, and every output for that seat (its screen: view, legal actions, undo; the
engine's previews of the actions it may take; the side panel's reports) must be the very same bytes. Whatever a
screen could let slip about a secret would differ between two deals of it.
"""

from __future__ import annotations

import functools
import json
import random

import pytest

from referee.game.battle.cards import playing_deck
from referee.game.play.engine import Game, begin_battle
from referee.game.players.legal_play import fill
from referee.game.players.random_play import random_action
from referee.game.battle.dice import SeededDice
from referee.game.battle.state import GameState, other
from referee.service.seats import SEATS, SeatError, as_seat
from referee.service.session import BattleSession

from .test_leaks import set_up

BATTLES = 10
STATES_PER_BATTLE = 20          # 200 mid-battle states in all
PREVIEWS_PER_SCREEN = 6


def redeal(state: GameState, side: str, rng: random.Random) -> GameState:
    """``state`` with ``side``'s secrets dealt again: its blips on the table stand for other squares of its holding
    area (so another blip holds each force), and it holds another mission of the same kind and round limit. Nothing
    the other side has seen changes: the counters stay where they are, revealed units are on the table."""
    s = state.copy()
    blips = sorted((b for b in s.blips.values() if b.side == side), key=lambda b: b.id)
    squares = [b.square for b in blips]
    rng.shuffle(squares)
    for b, square in zip(blips, squares):
        b.square = square
    mission = s.missions.get(side)
    if mission is not None:
        deck = playing_deck()
        card = deck.mission(mission)
        others = [m.id for m in deck.missions(card.kind)
                  if m.id != mission and m.round_limit == card.round_limit and m.id != s.missions.get(other(side))]
        if others:
            s.missions[side] = rng.choice(others)
    return s


def outputs(state: GameState, seat: str, rng: random.Random) -> str:
    """Everything the service tells ``seat`` of ``state``, as one canonical text."""
    session = BattleSession(Game(state), SeededDice(1), autosaving=False, hotseat=True)
    screen = session.screen(seat)
    out: dict = {"screen": json.loads(screen.to_json())}
    previews = []
    for legal in screen.legal[:PREVIEWS_PER_SCREEN]:
        previews.append(_shown(session.preview(fill(legal, rng))))
    for legal in screen.legal:
        if legal.kind in ("move", "jump"):
            previews += [_shown(session.preview(a)) for a in _toward_enemy_blips(legal, screen)]
    out["previews"] = previews
    view = screen.view
    pieces = sorted(u["id"] for u in view["units"])[:3]
    out["panel"] = [_panel_text(session, piece, seat) for piece in pieces]
    return json.dumps(out, sort_keys=True, default=str)


def _shown(p) -> dict:
    return {**p.to_data(), "explain": list(p.explain), "reason": p.reason, "needs_contents": p.needs_contents}


def _toward_enemy_blips(legal, screen) -> list:
    """Moves straight toward each of the three nearest enemy blips, as far as a Move goes (6") or to 3" short of the
    blip, whichever is nearer: the previews most likely to meet a reveal by passive sensors (p.18)."""
    view = screen.view
    me = next((p for p in view["units"] + view["blips"] if p["id"] == legal.actor), None)
    if me is None:
        return []
    blips = sorted((b for b in view["blips"] if b["side"] != me["side"]),
                   key=lambda b: (b["x"] - me["x"]) ** 2 + (b["y"] - me["y"]) ** 2)[:3]
    actions = []
    for b in blips:
        dx, dy = b["x"] - me["x"], b["y"] - me["y"]
        d = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        step = max(0.0, min(5.9, d - 3))
        actions.append(legal.action(x=round(me["x"] + step * dx / d, 2), y=round(me["y"] + step * dy / d, 2)))
    return actions


def _panel_text(session: BattleSession, piece: str, seat: str) -> list[str]:
    report = session.panel(piece, seat)
    lines = [] if report.passive is None else [str(x) for x in report.passive.explain]
    for pair in report.enemies + report.objectives:
        lines += pair.explain()
    return lines


@functools.cache
def battle_states(battle: int) -> tuple[GameState, ...]:
    """``STATES_PER_BATTLE`` states of one battle set up by the program and played by the random player, a few
    actions apart."""
    rng, dice = random.Random(battle), SeededDice(battle)
    game = Game(begin_battle(set_up(700 + battle)))
    states: list[GameState] = []
    while len(states) < STATES_PER_BATTLE and game.state.phase != "over":
        for _ in range(rng.randint(1, 4)):
            if game.state.phase == "over":
                break
            game.play(random_action(game.state, rng), dice)
        states.append(game.state)
    return tuple(states)


@pytest.mark.parametrize("battle", range(BATTLES))
def test_two_deals_of_the_opponents_secrets_give_every_seat_the_same_bytes(battle):
    """Over the battles, 200 mid-battle states: for each seat, the state as dealt and the opponent's secrets dealt
    again give the very same outputs."""
    states = battle_states(battle)
    assert len(states) == STATES_PER_BATTLE
    for i, state in enumerate(states):
        for seat in ("A", "B", "spectator"):
            hidden = [other(seat)] if seat in ("A", "B") else ["A", "B"]
            dealt = state
            for side in hidden:
                dealt = redeal(dealt, side, random.Random(f"{battle}|{i}|{seat}|{side}"))
            rng = f"{battle}|{i}|{seat}"
            assert outputs(state, seat, random.Random(rng)) == outputs(dealt, seat, random.Random(rng)), (
                f"battle {battle}, state {i}: seat {seat}'s outputs tell two deals of the secrets apart")


def test_the_redeal_changes_the_secrets_it_deals():
    """The re-deal is not a no-op: the side's own screen sees the new deal (so the test above has teeth)."""
    state = begin_battle(set_up(700))
    dealt = redeal(state, "B", random.Random(3))
    assert [b.square for b in dealt.blips.values()] != [b.square for b in state.blips.values()]
    assert outputs(state, "B", random.Random(1)) != outputs(dealt, "B", random.Random(1))
    assert outputs(state, "A", random.Random(1)) == outputs(dealt, "A", random.Random(1))


def test_a_planted_leak_in_a_screen_is_caught(monkeypatch):
    """If the screen carried one secret field of the opponent, the re-deal would tell: the check bites."""
    from referee.service import session as service

    real = service.BattleSession.screen

    def leaky(self, seat=None):
        screen = real(self, seat)
        squares = {b.id: b.square for b in self.state.blips.values() if b.side != screen.seat}
        return type(screen)(**{**screen.__dict__, "messages": (json.dumps(squares),)})

    monkeypatch.setattr(service.BattleSession, "screen", leaky)
    state = begin_battle(set_up(700))
    dealt = redeal(state, "B", random.Random(3))
    assert outputs(state, "A", random.Random(1)) != outputs(dealt, "A", random.Random(1))


def test_each_seat_sees_its_own_secrets_and_the_spectator_none():
    state = begin_battle(set_up(701))
    session = BattleSession(Game(state), SeededDice(1), autosaving=False)
    for side in ("A", "B"):
        view = session.screen(side).view
        assert view["holding"][side] is not None and view["holding"][other(side)] is None
        assert view["missions"][side] is not None and view["missions"][other(side)] is None
        own = [b for b in view["blips"] if b["side"] == side]
        theirs = [b for b in view["blips"] if b["side"] != side]
        assert own and all("square" in b for b in own) and theirs and not any("square" in b for b in theirs)
    public = session.screen("spectator")
    assert public.view["holding"] == {"A": None, "B": None} and public.view["missions"] == {"A": None, "B": None}
    assert not any("square" in b for b in public.view["blips"])
    assert public.acting is False and public.legal == () and public.undo is None


def test_only_the_seat_whose_decision_the_battle_waits_for_is_offered_actions():
    state = begin_battle(set_up(702), "A")
    session = BattleSession(Game(state), SeededDice(1), autosaving=False)
    a, b = session.screen("A"), session.screen("B")
    assert a.to_act == b.to_act == "A"
    assert a.acting and a.legal and {x.kind for x in a.legal} >= {"activate", "end-turn"}
    assert not b.acting and b.legal == ()


def test_a_seat_is_named_as_the_service_knows_them():
    assert SEATS == ("A", "B", "referee", "spectator")
    with pytest.raises(SeatError, match="a seat is one of A, B, referee, spectator"):
        as_seat("C")
