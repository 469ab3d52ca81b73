"""A refereed battle of two rounds with every move read from a photo of the table, and none typed.

The same battle is entered twice: once by hand (each Move typed, as the referee mode has always taken it), once by
photographing the table after each miniature was moved and accepting what the photo reads. The two records must be
the same, action for action and die for die.
"""

from __future__ import annotations

import math

from referee.capture.differences import differences
from referee.capture.photo import read_photo
from referee.capture.plan import plan_for
from referee.game.battle.intents import Action
from referee.service.referee import RefereeSession
from tests.capture_photos import PhotoSpec, render
from tests.tables import rect, scenario, unit


def table():
    return scenario(units=[unit("a-1", "A", 8, 4, facing=90), unit("a-2", "A", 26, 4, facing=90),
                           unit("b-1", "B", 10, 32, facing=270), unit("b-2", "B", 28, 32, facing=270)],
                    terrain=[rect("woods-1", "woods", 14, 14, 20, 20), rect("hill-1", "hills", 24, 20, 30, 24)])


# Each activation: the unit, then where its miniature is put down for each of its actions (a trooper's two Moves).
# Every Move ends facing the way it went (p.18, A13), as a player pushing a miniature along leaves it.
ROUNDS = [
    [("a-1", [(8, 9.5), (11, 13)]), ("b-1", [(10, 27), (10, 23.5)]),
     ("a-2", [(26, 9.8), (22.4, 12)]), ("b-2", [(31, 28), (32.5, 23)])],
    [("a-1", [(11, 10.5)]), ("b-1", [(6.2, 21.4), (6.2, 16)]),
     ("a-2", [(19, 10.1), (13.5, 11.6)]), ("b-2", [(33, 18.6)])],
]


def end_activation_if_left(session: RefereeSession) -> None:
    t = session.state.turn
    if t is not None and t.active is not None:
        assert session.attempt(Action("end-activation", "", {})).legal


def play(by_photo: bool) -> RefereeSession:
    session = RefereeSession.from_scenario(table(), first="A")
    plan = plan_for(session.state)
    photos = 0
    for round_number, activations in enumerate(ROUNDS, start=1):
        assert session.state.round == round_number
        for unit_id, spots in activations:
            t = session.state.turn
            if t is not None and t.player != session.state.units[unit_id].side:
                assert session.attempt(Action("end-turn", "", {})).legal     # the rest of its activations unused
            assert session.attempt(Action("activate", unit_id, {})).legal
            for x, y in spots:
                if not by_photo:
                    attempt = session.attempt(Action("move", unit_id, {"x": x, "y": y}))
                    assert attempt.legal, attempt.outcome.reason if attempt.outcome else attempt
                    continue
                # The players move the miniature on the real table, then photograph it.
                real = session.state.copy()
                u = real.units[unit_id]
                u.facing = math.degrees(math.atan2(y - u.y, x - u.x)) % 360.0
                u.x, u.y = x, y
                # 720p photos: the reading of larger and harder photos is tests/test_capture.py's; here each of
                # the fourteen only has to carry its Move into the record.
                spec = PhotoSpec(width=1280, height=720, tilt=10 + 3 * photos, turn=37 * photos, noise=2, blur=0.5,
                                 light=0.2, seed=photos)
                image, _ = render(real, plan, spec)
                photos += 1
                found = differences(session.state, read_photo(image, plan), plan)
                assert [d.piece for d in found] == [unit_id], [d.line() for d in found]
                assert found[0].as_move and found[0].legal
                assert session.attempt(found[0].action).legal
            end_activation_if_left(session)
        if session.state.phase == "action":
            assert session.attempt(Action("end-turn", "", {})).legal
        assert session.state.phase == "end-of-round", session.state.phase
        if round_number < len(ROUNDS):
            # The Initiative roll-off, typed from the players' dice: A rolls 5, B rolls 2.
            assert session.attempt(Action("end-of-round", "", {}), [5, 2]).legal
    return session


def test_a_two_round_battle_read_from_photos_equals_it_entered_by_hand():
    by_hand = play(by_photo=False)
    by_photo = play(by_photo=True)
    hand_record = [e.to_data() for e in by_hand.game.record]
    photo_record = [e.to_data() for e in by_photo.game.record]
    assert sum(1 for e in photo_record if e["action"]["kind"] == "move") == 14
    assert photo_record == hand_record
    assert by_photo.state.units["b-2"].x == 33 and by_photo.state.units["b-2"].y == 18.6
