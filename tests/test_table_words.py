"""What the computer tells the human at a physical table: plain words, table coordinates, nothing secret."""

import random
import tomllib

from referee.game.battle.intents import Action
from referee.game.players.computer.deal import deal_holding
from referee.game.players.computer.table_words import instruction, table_changes
from referee.game.play.engine import begin_battle
from referee.game.battle.state import state_from_scenario
from referee.game.views.view import player_view
from referee.rules.scenario import parse_scenario

TABLE = """
name = "two blips"
table = { width = 36, height = 36 }
[[units]]
id = "a-tactical-1"
side = "A"
faction = "new-tokyo"
type = "tactical"
rating = "veteran"
x = 8
y = 6
[[units]]
id = "b-tactical-1"
side = "B"
faction = "new-tokyo"
type = "tactical"
rating = "veteran"
x = 9
y = 26
[[blips]]
id = "b-blip-KN"
side = "B"
x = 20
y = 9
[[blips]]
id = "b-blip-RL"
side = "B"
x = 30
y = 31
[[blips]]
id = "a-blip-QW"
side = "A"
x = 12
y = 4
"""


def state():
    return begin_battle(state_from_scenario(parse_scenario(tomllib.loads(TABLE), "two blips")), "B")


def test_each_action_is_told_as_what_to_do_at_the_table():
    view = player_view(state(), "B")
    # A blip by the label the opponent reads on its counter and where it stands, never by what it holds.
    assert instruction(view, Action("move", "b-blip-KN", {"x": 22.5, "y": 14.0})) == \
        "Move its blip KN at (20, 9) 5.6\" (2.5\" toward the right edge and 5\" toward side B's edge) to (22.5, 14)."
    assert instruction(view, Action("target", "b-tactical-1", {"dice": 3, "assign": {"a-tactical-1": 1}})) == \
        "Target with b-tactical-1 at (9, 26): roll 3 dice and type them, for 1 Target counter on a-tactical-1 at (8, 6)."
    assert instruction(view, Action("rifle", "b-tactical-1", {"target": "a-blip-QW"})) == \
        ("Fire the rifle of b-tactical-1 at (9, 26) at your blip QW at (12, 4): roll the dice the program asks for "
         "and type them.")
    assert instruction(view, Action("activate", "b-blip-RL", {"extra": True})) == \
        "Activate its blip RL at (30, 31) (an extra blip activation): take its activation counter off."
    assert instruction(view, Action("end-turn", "", {})) == "The computer ends its turn."


def test_a_trooper_is_told_which_way_to_face_after_its_move():
    view = player_view(state(), "B")
    # From (9, 26) by way of (9, 22) to (12, 19): the last leg runs down and right, 315 degrees (A13).
    # Each leg from where the miniature stands, then what it faces: the blip KN lies 6 degrees off that bearing.
    assert instruction(view, Action("move", "b-tactical-1", {"x": 12.0, "y": 19.0, "via": [[9.0, 22.0]]})) == \
        ("Move b-tactical-1 at (9, 26) 4\" toward side A's edge to (9, 22), then 4.2\" (3\" toward the right edge "
         "and 3\" toward side A's edge) to (12, 19), facing the way it went: 315 degrees, toward its blip KN at "
         "(20, 9) [p.18, A13].")
    # Straight at an edge, the edge is named, and the piece it looks at.
    assert instruction(view, Action("move", "b-tactical-1", {"x": 9.0, "y": 21.0})).endswith(
        "facing the way it went: 270 degrees (towards side A's edge), toward a-tactical-1 at (8, 6) [p.18, A13].")
    # A blip has no facing.
    assert "facing" not in instruction(view, Action("move", "b-blip-KN", {"x": 20.0, "y": 12.0}))


def test_the_end_of_an_activation_names_the_unit_and_a_scramble_says_what_to_do():
    from referee.game.battle.dice import ScriptedDice
    from referee.game.play.engine import play

    s = play(state(), Action("activate", "b-tactical-1"), ScriptedDice([])).state
    view = player_view(s, "B")
    assert instruction(view, Action("end-activation")) == "End the activation of b-tactical-1 at (9, 26)."
    words = instruction(view, Action("scramble", "b-tactical-1"))
    assert words.startswith("Scramble b-tactical-1 at (9, 26): take it off the table") and "[p.22, A23]" in words


def test_what_a_scramble_changed_is_told_from_the_humans_view_only():
    from referee.game.battle.dice import ScriptedDice
    from referee.game.play.engine import play

    s = play(state(), Action("activate", "b-tactical-1"), ScriptedDice([])).state
    before = player_view(s, "A")
    after_state = play(s, Action("scramble", "b-tactical-1", {"square": 3}), ScriptedDice([], draws=[0, 0, 0, 0])).state
    changes = table_changes(before, player_view(after_state, "A"))
    new = sorted(b.id for b in after_state.blips.values() if b.side == "B" and b.id not in ("b-blip-KN", "b-blip-RL"))
    assert len(new) == 3
    for ident in new:
        b = after_state.blips[ident]
        label = ident.rsplit("-", 1)[-1]
        assert f"Put a blip counter marked {label} at ({round(b.x, 1):g}, {round(b.y, 1):g})." in changes
    assert "Take b-tactical-1 at (9, 26) off the table." in changes
    # Which of the three is real, and the square it went to, are the computer's secret: nothing here tells them.
    assert len(changes) == 4 and not any("square" in line or "decoy" in line for line in changes)


def test_the_computers_blips_are_dealt_as_its_secret():
    s = state()
    actions = deal_holding(s, "B", "new-tokyo", random.Random(2))
    assert sorted(a.actor for a in actions) == ["b-blip-KN", "b-blip-RL"]
    assert all(a.kind == "contents" and len(a.args["contents"]) <= 2 for a in actions)
    assert any(a.args["contents"] for a in actions), "no blip holds anything"
    from referee.game.play.engine import play
    from referee.game.battle.dice import SeededDice

    for a in actions:
        out = play(s, a, SeededDice(1))
        assert out.legal, out.reason
        s = out.state
    # The human's log reads that side B told the referee, never what.
    a_log = " ".join(e["text"] for e in player_view(s, "A")["log"])
    assert "tells the referee" in a_log
    for a in actions:
        for c in a.args["contents"]:
            assert c["type"] not in a_log.replace("b-tactical-1", "").replace("a-tactical-1", "")


def test_the_counters_a_target_places_are_told_as_counters_to_put_down():
    from referee.game.battle.dice import ScriptedDice
    from referee.game.play.engine import play

    s = play(state(), Action("activate", "b-tactical-1"), ScriptedDice([])).state
    s = play(s, Action("move", "b-tactical-1", {"x": 9.0, "y": 20.0}), ScriptedDice([])).state
    before = player_view(s, "A")
    # 6 + 6 + 6 = 18 points buys the one counter asked for on a-tactical-1; the Target puts 1 counter a die rolled
    # on the targeter itself [p.19].
    out = play(s, Action("target", "b-tactical-1", {"dice": 3, "assign": {"a-tactical-1": 1}}), ScriptedDice([6, 6, 6]))
    assert out.legal, out.reason
    assert table_changes(before, player_view(out.state, "A")) == [
        "Put 1 Target counter on a-tactical-1 (1 now).", "Put 3 Target counters on b-tactical-1 (3 now)."]
