"""Referee mode, tried as a group at a physical table would: a small mirrored table, every die typed in, a blip's
contents told at its reveal, a drifted unit corrected, the battle saved and replayed in a new process."""

import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from referee.game.records.record import read_save, state_digest
from referee.rules.scenario import load_scenario
from referee.ui.panels import percent
from referee.service.referee import RefereeSession, parse_contents, parse_correction
from referee.rules.errors import InputError
from referee.ui.scenes.dialogs import Dialog, DiceDialog, TextDialog
from referee.ui.scenes.referee import RefereeScene

SMALL = Path(__file__).with_name("small_table.toml")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def referee(fresh):
    session = RefereeSession.from_scenario(load_scenario(SMALL))
    scene = fresh.push(RefereeScene(session))
    fresh.step(1 / 30, events=[])
    return scene, session


def click(app, scene, piece_id: str, button: int = 1) -> None:
    p = scene.table.bf.pieces[piece_id]
    pos = tuple(round(v) for v in scene.view.to_screen(p.x, p.y))
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def key(app, k: int, unicode: str = "", mod: int = 0) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, unicode=unicode, mod=mod))
    app.dispatch(pygame.event.Event(pygame.KEYUP, key=k, mod=mod))


def type_dice(app, faces) -> None:
    """The players' dice, as they type them: a face per die, a measured bearing for a deviation."""
    for face in faces:
        top = app.scene
        assert isinstance(top, DiceDialog), f"no die asked for (top: {type(top).__name__}); left: {faces}"
        if top.request.kind == "bearing":
            top.entry.set_text(str(face))
            top.choose("ok")
        else:
            top.choose(str(face))
    assert not isinstance(app.scene, DiceDialog), "the window asks for more dice than the players rolled"


def answer_text(app, text: str) -> None:
    top = app.scene
    assert isinstance(top, TextDialog)
    top.entry.set_text(text)
    top.choose("ok")


def test_a_physical_game_from_target_to_save_and_replay(fresh, referee, tmp_path):
    scene, session = referee
    state = lambda: session.state  # noqa: E731
    # "What do I roll?": unit, action, target
    click(fresh, scene, "a-tactical-1")
    scene.press("activate")
    scene.press("target")
    key(fresh, pygame.K_3, "3")
    key(fresh, pygame.K_RETURN)
    type_dice(fresh, [6, 6, 6])
    for _ in range(4):
        click(fresh, scene, "b-tactical-1")
    key(fresh, pygame.K_RETURN)
    assert state().units["b-tactical-1"].target_counters == 4
    assert state().units["a-tactical-1"].target_counters == 3
    # a rifle shot: the working first, then the dice; a mistyped die is undone and typed again
    scene.press("rifle")
    click(fresh, scene, "b-tactical-1")
    assert isinstance(fresh.scene, Dialog) and any("4 Target counters / band 2 = 2 dice" in line
                                                   for line in fresh.scene.lines)
    fresh.scene.choose("go")
    type_dice(fresh, [5, 1])                           # the table showed a 2, not a 1: a kill by mistake
    assert "b-tactical-1" not in state().units
    scene.press("undo")
    assert "b-tactical-1" in state().units and state().turn.active == "a-tactical-1"
    scene.press("rifle")
    click(fresh, scene, "b-tactical-1")
    fresh.scene.choose("go")
    type_dice(fresh, [5, 2, 6, 1])
    b = state().units["b-tactical-1"]
    assert b.stunned and not b.damaged
    # side B: the blip is revealed and its owner says what it holds
    assert state().turn.player == "B" and session.viewer == "B"
    click(fresh, scene, "b-blip-1")
    scene.press("activate")
    scene.press("reveal")
    answer_text(fresh, "veteran tactical")
    assert "b-blip-1" not in state().blips and state().units["b-tactical-3"].type == "tactical"
    # At the physical table too, its owner says how the miniature was faced (A13).
    assert isinstance(fresh.scene, Dialog) and fresh.scene.heading == "Face b-tactical-3"
    fresh.scene.choose("180")
    assert state().units["b-tactical-3"].facing == 180.0
    assert any("b-blip-1 is revealed" in e.text for e in state().log)
    scene.press("end-activation")
    scene.press("end-turn")
    # side A: a missile that deviates (typed dice and a measured bearing)
    assert state().turn.player == "A"
    click(fresh, scene, "a-assault-1")
    scene.press("activate")
    scene.press("missile")
    click(fresh, scene, "b-tactical-1")
    fresh.scene.choose("go")
    type_dice(fresh, [6, 6, 3, 4, 120])
    crater = [t for t in state().terrain if t.type == "crater"]
    assert len(crater) == 1 and (crater[0].circle.x, crater[0].circle.y) == pytest.approx((5.5, 32.06), abs=0.01)
    # the table drifted: a-tactical-1 was knocked
    click(fresh, scene, "a-tactical-1")
    scene.press("correct")
    assert isinstance(fresh.scene, TextDialog) and "x=8 y=6 facing=90" in fresh.scene.initial
    answer_text(fresh, "x=9.5 y=6 facing=75 counters=3")
    u = state().units["a-tactical-1"]
    assert (u.x, u.y, u.facing) == (9.5, 6, 75)
    assert state().log[-1].text == "correction: a-tactical-1 x 8 -> 9.5, facing 90 -> 75, target counters 4 -> 3"
    # a correction onto another base is refused and changes nothing
    before = state().to_data()
    scene.press("correct")
    answer_text(fresh, "x=26 y=6")
    assert state().to_data() == before and "overlap" in " ".join(scene.log_lines)
    # the wood was nudged too: dragged to where it lies now
    start, end = (tuple(round(v) for v in scene.view.to_screen(x, y)) for x, y in ((17, 16), (18, 17)))
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    assert isinstance(fresh.scene, Dialog) and fresh.scene.heading == "Correct woods-1?"
    fresh.scene.choose("go")
    woods = next(t for t in state().terrain if t.id == "woods-1")
    assert woods.polygon[0] == pytest.approx([15, 15], abs=0.1)
    assert state().log[-1].text.startswith("correction: woods-1 (woods) moved +1")
    # saved; a new process replays the record to the same state
    path = session.save(tmp_path / "ford.json")
    out = subprocess.run([sys.executable, "-c", "import sys; from referee.game.records.record import read_save, state_digest; "
                          "s = read_save(sys.argv[1]); print(s.game.refereed, state_digest(s.game.state))", str(path)],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["True", state_digest(session.state)]
    assert read_save(path).game.state.to_data() == session.state.to_data()


def test_a_refereed_save_reopens_in_referee_mode(fresh, referee, tmp_path):
    from referee.cli.play import open_referee

    scene, session = referee
    click(fresh, scene, "a-tactical-1")
    scene.press("activate")
    path = session.save(tmp_path / "ford.json")
    fresh.stack.pop()
    fresh.stack.pop()
    again = open_referee(fresh, path, None)
    assert isinstance(again, RefereeScene) and again.session.state.turn.active == "a-tactical-1"
    with pytest.raises(InputError, match="hot-seat"):
        from referee.game.play.engine import Game
        from referee.game.records.record import save_game
        hot = save_game(Game(session.game.initial), tmp_path / "hot.json")
        open_referee(fresh, hot, None)


def test_the_referee_may_roll_a_lost_die(fresh, referee):
    scene, session = referee
    click(fresh, scene, "a-tactical-1")
    scene.press("activate")
    scene.press("target")
    key(fresh, pygame.K_1, "1")
    key(fresh, pygame.K_RETURN)
    assert isinstance(fresh.scene, DiceDialog) and any(k == "roll" for k, _ in fresh.scene.choices)
    fresh.scene.choose("roll")
    assert not isinstance(fresh.scene, DiceDialog) and scene.target.pool is not None
    assert scene.target.rolls()[0] in range(1, 7)


def test_a_piece_the_program_never_saw_is_added_and_removed(fresh, referee):
    scene, session = referee
    scene.select(None)
    scene.press("correct")
    answer_text(fresh, "add a-scout-1 side=A type=scout x=4 y=3 facing=45")
    u = session.state.units["a-scout-1"]
    assert (u.type, u.faction, u.x, u.y, u.facing, u.activation) == ("scout", "new-tokyo", 4, 3, 45, False)
    scene.select("a-scout-1")
    scene.press("correct")
    answer_text(fresh, "remove")
    assert "a-scout-1" not in session.state.units
    assert [e.text for e in session.state.log[-2:]] == [
        "correction: a-scout-1 (veteran scout of side A) added at (4, 3)",
        "correction: a-scout-1 (unit) removed from the table"]


def test_typed_contents_and_corrections():
    assert parse_contents("decoy", "B", "new-tokyo") == []
    assert parse_contents("spec-ops scout, tactical", "B", "new-tokyo") == [
        {"side": "B", "faction": "new-tokyo", "rating": "spec-ops", "type": "scout"},
        {"side": "B", "faction": "new-tokyo", "rating": "veteran", "type": "tactical"}]
    with pytest.raises(InputError, match="unit type"):
        parse_contents("veteran tank", "B", "new-tokyo")
    with pytest.raises(InputError, match="at most 2"):
        parse_contents("tactical, tactical, tactical", "B", "new-tokyo")
    assert parse_correction("x=1 y=2.5 f=30 tc=2 damaged=yes") == {
        "x": 1.0, "y": 2.5, "facing": 30.0, "target_counters": 2, "damaged": True}
    assert parse_correction("remove") == {"remove": True}
    with pytest.raises(InputError, match="key=value"):
        parse_correction("left a bit")


def test_the_editor_starts_a_refereed_battle_on_its_table(fresh, tmp_path):
    import pygame_gui

    from referee.ui.editing import TableEditor
    from referee.ui.scenes.editor import EditorScene

    editor = fresh.push(EditorScene(TableEditor.open(SMALL)))
    editor.entries["path"].set_text(str(tmp_path / "ford.toml"))
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=editor.buttons["referee"]))
    scene = fresh.scene
    assert isinstance(scene, RefereeScene) and (tmp_path / "ford.toml").is_file()
    assert scene.session.game.refereed and set(scene.session.state.blips) == {"b-blip-1"}
    assert scene.session.dice is None and scene.session.state.turn.player == "A"


def test_the_menu_referees_the_table_named_in_its_box(fresh, tmp_path):
    import pygame_gui

    from referee.ui.scenes.menu import MenuScene

    menu = fresh.push(MenuScene())
    menu.widgets["path"].set_text(str(SMALL))
    fresh.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=menu.widgets["referee"]))
    assert isinstance(fresh.scene, RefereeScene) and fresh.scene.session.state.name == "Small table: the ford"
    fresh.scene.show_log()
    assert fresh.scene.log_title == "Battle log (referee's view)"
    fresh.stack.pop()
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    assert menu.referee_scenario(empty) is None and "empty file" in menu.error


@pytest.mark.parametrize("seed", range(12))
def test_the_window_preview_and_the_command_line_give_the_same_numbers(fresh, referee, tmp_path, capsys, seed):
    """Random tables made with the referee's own corrections; the rifle and missile previews the window shows
    before any die are the numbers ``query rifle`` / ``query missile`` print for the same table."""
    import json
    import random

    from referee.cli.main import main
    from referee.game.battle.intents import Action
    from referee.game.battle.state import state_to_scenario_data

    scene, session = referee
    rng = random.Random(seed)
    for ident in ("a-tactical-1", "a-assault-1", "b-tactical-1", "b-tactical-2"):
        for _ in range(20):                  # a spot off the other bases and out of the terrain
            x, y = round(rng.uniform(2, 34), 1), round(rng.uniform(2, 34), 1)
            if session.correct(ident, x=x, y=y, facing=float(rng.randrange(0, 360, 5)),
                               target_counters=rng.choice((1, 2, 3, 5, 8))).legal:
                break
    path = tmp_path / "table.json"
    path.write_text(json.dumps(state_to_scenario_data(session.state)))
    scene.refresh()
    compared = 0
    for actor in ("a-tactical-1", "a-assault-1"):
        # the actor is activated, so what the window shows is the session's preview of the action in its turn
        assert session.attempt(Action("activate", actor)).legal
        scene.refresh()
        scene.select(actor)
        for target in ("b-tactical-1", "b-tactical-2"):
            for kind in ("rifle", "missile"):
                assert main(["query", str(path), kind, actor, target, "--json"]) == 0
                line = json.loads(capsys.readouterr().out)
                shown = scene.choices.preview_lines(kind, actor, target)
                preview = session.preview(Action(kind, actor, {"target": target})).figures
                assert preview["explain"] == line["explain"] and preview["allowed"] == line["allowed"]
                assert shown[:len(line["explain"])] == line["explain"]
                if kind == "rifle":
                    assert (preview["dice"], preview["p_kill"]) == (line["dice"], line["p_kill"])
                elif line["allowed"]:
                    assert preview["p_direct_hit"] == line["p_direct_hit"]
                if kind == "rifle" and line["allowed"]:
                    assert shown[-1] == (f"= {line['dice']} dice: kill {percent(line['p_kill'])}, "
                                         f"graze {percent(line['p_graze'])}")
                if kind == "missile" and line["allowed"]:
                    assert shown[-1].startswith(f"= direct hit {percent(line['p_direct_hit'])}")
                compared += 1
        session.undo()                          # the activation taken back: the next actor's turn
    assert compared == 8


def test_a_knocked_piece_is_dragged_to_where_it_stands(fresh, referee):
    scene, session = referee
    p = scene.table.bf.pieces["b-tactical-2"]
    start = tuple(round(v) for v in scene.view.to_screen(p.x, p.y))
    end = tuple(round(v) for v in scene.view.to_screen(p.x + 2, p.y - 1))
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    fresh.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0)))
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    assert isinstance(fresh.scene, Dialog) and fresh.scene.heading == "Correct b-tactical-2?"
    fresh.scene.choose("cancel")
    assert (session.state.units["b-tactical-2"].x, session.state.units["b-tactical-2"].y) == (22, 30)
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    fresh.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    fresh.scene.choose("go")
    u = session.state.units["b-tactical-2"]
    assert (u.x, u.y) == pytest.approx((24, 29), abs=0.1)
    assert session.state.log[-1].text.startswith("correction: b-tactical-2 x 22 -> 2")
    # a click (no drag) only selects
    click(fresh, scene, "a-tactical-1")
    assert scene.selected == "a-tactical-1" and not isinstance(fresh.scene, Dialog)


def test_a_blips_owner_may_enter_its_contents_before_the_reveal_and_only_they_see_them(fresh, referee):
    scene, session = referee
    scene.select("b-blip-1")
    scene.press("correct")
    assert "contents=" in " ".join(fresh.scene.lines)
    answer_text(fresh, "contents=spec-ops scout")
    b = session.state.blips["b-blip-1"]
    assert [c.type for c in session.state.holding["B"].contents(b.square)] == ["scout"]
    from referee.game.views.view import player_view

    mine = next(x for x in player_view(session.state, "B")["blips"] if x["id"] == "b-blip-1")
    theirs = next(x for x in player_view(session.state, "A")["blips"] if x["id"] == "b-blip-1")
    assert mine["contents"][0]["type"] == "scout" and "contents" not in theirs and "square" not in theirs
    assert not any("scout" in e.text for e in session.state.log)            # the public log says nothing of it
