"""At a physical table a move is told as distance and direction from the miniature, a facing as what it looks at,
and no spot lies off the table (``game/players/computer/table_words.py``)."""

import tomllib

from referee.game.players.computer.seen import Seen
from referee.game.players.computer.table_words import instruction, spot, step_words, table_changes, toward
from referee.game.play.engine import begin_battle
from referee.game.battle.intents import Action
from referee.game.battle.state import state_from_scenario
from referee.game.views.view import player_view
from referee.rules.scenario import parse_scenario

TABLE = """
name = "a lone scout"
table = { width = 48, height = 36 }
[[units]]
id = "b-scout-1"
side = "B"
faction = "new-tokyo"
type = "scout"
rating = "veteran"
x = 24
y = 30
[[units]]
id = "a-tactical-1"
side = "A"
faction = "new-tokyo"
type = "tactical"
rating = "veteran"
x = 40
y = 6
"""


def view():
    s = begin_battle(state_from_scenario(parse_scenario(tomllib.loads(TABLE), "a lone scout")), "B")
    return player_view(s, "B")


def test_a_leg_is_its_length_and_how_far_toward_which_edges():
    assert step_words(10, 10, 13, 14) == '5" (3" toward the right edge and 4" toward side B\'s edge)'
    assert step_words(10, 10, 10, 4) == '6" toward side A\'s edge'


def test_a_facing_names_the_piece_it_looks_at_or_the_point_of_the_edge():
    seen = Seen(view(), "B")
    # From (24, 30) the tactical at (40, 6) lies at 303.7 degrees: a facing of 300 looks at it.
    assert toward(seen, 24, 30, 300.0, "b-scout-1") == "toward a-tactical-1 at (40, 6)"
    # Straight up the table nothing stands: the point of side B's edge it looks at.
    assert toward(seen, 24, 30, 90.0, "b-scout-1") == "toward side B's edge at (24, 36)"
    # At 45 degrees from (24, 30) the ray meets side B's edge 6" on, at (30, 36), before the right edge.
    assert toward(seen, 24, 30, 45.0, "b-scout-1") == "toward side B's edge at (30, 36)"


def test_a_point_beyond_an_edge_is_told_by_the_edge_never_as_a_spot_off_the_table():
    seen = Seen(view(), "B")
    assert spot(seen, 8.7, -1.4) == "1.4\" beyond side A's edge, off the table by (8.7, 0)"
    assert spot(seen, 8.7, 1.4) == "(8.7, 1.4)"


def test_a_crater_whose_centre_falls_off_the_table_is_laid_by_the_edge():
    before = view()
    after = dict(before, terrain=[*before["terrain"], {"id": "crater-1", "type": "crater",
                                                        "circle": {"x": 8.7, "y": -1.4, "r": 1.5}}])
    assert table_changes(before, after) == [
        'Lay crater 3" across, centred 1.4" beyond side A\'s edge, off the table by (8.7, 0) (lay the part that '
        'falls on the table).']


def test_a_jump_is_told_from_where_the_scout_stands():
    words = instruction(view(), Action("jump", "b-scout-1", {"x": 24.0, "y": 21.0}))
    assert words.startswith("Jump b-scout-1 at (24, 30) 9\" toward side A's edge to (24, 21), facing the way it "
                            "went: 270 degrees (towards side A's edge)")
