"""The computer at a physical table, action by action: what it tells the human to do with its miniatures, what
its action changed on the table, and where its reasons stand in the human's log."""

from pathlib import Path

from referee.game.battle.intents import Action
from referee.game.players.computer import Computer
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession
from referee.ui.scenes.dialogs import Dialog
from referee.ui.scenes.referee import RefereeScene

SMALL = Path(__file__).with_name("small_table.toml")


def _seated(fresh, decisions, first="B"):
    """A referee scene whose computer (side B) takes ``decisions`` in turn, each an action and its reason."""
    session = RefereeSession.from_scenario(load_scenario(SMALL), first=first, computer=Computer("B", "normal", 3))
    queue = list(decisions)
    session.computer_act = lambda: queue.pop(0) if queue else None
    scene = fresh.push(RefereeScene(session))
    fresh.step(1 / 30, events=[])
    return session, scene


def _told(fresh, scene):
    """The computer's next instruction, done at the table: its words."""
    scene.computer.step()
    assert isinstance(fresh.scene, Dialog) and fresh.scene.heading == "The computer (side B)"
    words = fresh.scene.lines[0]
    fresh.scene.choose("done")
    return words


def test_after_its_scramble_the_computer_says_where_its_three_blips_go(fresh):
    session, scene = _seated(fresh, [(Action("activate", "b-tactical-1"), "its turn"),
                                     (Action("scramble", "b-tactical-1"), "hides")])
    _told(fresh, scene)
    words = _told(fresh, scene)
    assert words.startswith("Scramble b-tactical-1 at (")
    placed = fresh.scene
    assert isinstance(placed, Dialog) and placed.heading == "The computer (side B): on the table now"
    new = [b for b in session.state.blips.values() if b.side == "B" and b.id != "b-blip-1"]
    assert len(new) == 3
    for b in new:
        assert f"Put a blip counter marked {b.id.rsplit('-', 1)[-1]} at ({round(b.x, 1):g}, {round(b.y, 1):g})." \
            in placed.lines
    assert any(line.startswith("Take b-tactical-1 at (") for line in placed.lines)
    placed.choose("done")
    assert fresh.scene is scene


def test_the_computers_end_of_turn_reason_stands_before_the_next_turns_heading(fresh):
    session, scene = _seated(fresh, [(Action("activate", "b-tactical-1"), "its turn"),
                                     (Action("end-activation"), "done"),
                                     (Action("end-turn"), "nothing more to gain")])
    assert _told(fresh, scene).startswith("Activate b-tactical-1 at (")
    assert _told(fresh, scene).startswith("End the activation of b-tactical-1 at (")
    assert _told(fresh, scene) == "The computer ends its turn."
    text = [str(line) for line in scene.log_lines]
    reason = next(i for i, line in enumerate(text) if "nothing more to gain" in line)
    heading = next(i for i, line in enumerate(text) if "side A's turn" in line)
    assert reason < heading, text[-8:]


def test_a_mistyped_die_is_refused_aloud_and_the_next_face_is_taken(fresh):
    import pygame

    from referee.game.battle.dice import RollRequest
    from referee.ui.scenes.dialogs import DiceDialog

    got: list[float | None] = []
    dialog = fresh.push(DiceDialog(RollRequest("sensor die 1 of 3 for b-tactical-1", "p.19", "d6", "summed: high is "
                                               "good"), got.append, "The computer: Target with b-tactical-1: die 1",
                                   may_roll=True))
    fresh.step(1 / 30, events=[])
    assert "sensor die 1 of 3" in " ".join(dialog.lines)
    for wrong in ("7", "0", "x"):
        fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_7, unicode=wrong, mod=0))
        assert got == [] and fresh.scene is dialog
        assert dialog.error == f"{wrong!r} is not a face of a die: type 1 to 6, or click the face"
    fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_4, unicode="4", mod=0))
    assert got == [4]


def test_the_face_typed_for_one_die_does_not_land_in_the_next_bearing_box(fresh):
    import pygame

    from referee.game.battle.dice import RollRequest
    from referee.ui.scenes.dialogs import DiceDialog

    got: list[float | None] = []
    bearing = RollRequest("deviation bearing", "p.21, A29", "bearing")
    # The normal die's "3": its key closes the die's box and opens the bearing's; its text arrives after.
    fresh.push(DiceDialog(RollRequest("normal die for the deviation distance", "p.21", "d6"),
                          lambda v: (got.append(v), fresh.push(DiceDialog(bearing, got.append)))))
    fresh.step(1 / 30, events=[])
    fresh.step(1 / 30, events=[pygame.event.Event(pygame.KEYDOWN, key=pygame.K_3, unicode="3", mod=0)])
    box = fresh.scene
    assert got == [3] and isinstance(box, DiceDialog) and box.request.kind == "bearing"
    fresh.step(1 / 30, events=[])                  # the bearing's box takes the keys
    fresh.step(1 / 30, events=[pygame.event.Event(pygame.TEXTINPUT, text="3")])
    assert box.entry is not None and box.entry.get_text() == ""
    for face in "45":
        fresh.step(1 / 30, events=[pygame.event.Event(pygame.TEXTINPUT, text=face)])
    assert box.entry.get_text() == "45"


def test_a_blip_of_the_computers_revealed_by_the_human_says_where_its_miniatures_go(fresh):
    session, scene = _seated(fresh, [], first="A")
    session.correct("b-blip-1", x=8, y=14)          # in the open, 8" from a-tactical-1
    held = [c.id for c in session.state.blip_contents(session.state.blips["b-blip-1"])]
    scene.do(Action("activate", "a-tactical-1"))
    # 6 + 6 + 6 = 18 points; one counter on the blip reveals it involuntarily [p.17]: the program puts its units down.
    scene.do(Action("target", "a-tactical-1", {"dice": 3, "assign": {"b-blip-1": 1}}), None, [6, 6, 6])
    placed = fresh.scene
    assert isinstance(placed, Dialog) and placed.heading == "The computer (side B): on the table now"
    assert placed.lines[0] == "Take the blip 1 at (8, 14) off the table."
    for ident in held:
        u = session.state.units[ident]
        # Side B's revealed troopers face side A's edge unless their owner turns them (A13): 270 degrees.
        assert u.facing == 270
        assert f"Put {ident} ({u.type}) at ({round(u.x, 1):g}, {round(u.y, 1):g}), facing 270 degrees (towards " \
               "side A's edge)." in placed.lines
    # Only the computer's pieces: what the human's own Target did to a-tactical-1 is theirs to do.
    assert not any("a-tactical-1" in line for line in placed.lines)


def test_the_report_of_a_physical_table_says_it_was_not_sealed_without_crying_foul(fresh):
    from referee.ui.scenes.report import report_lines

    session, scene = _seated(fresh, [], first="A")
    session.game.state.phase = "over"          # the report is shown once the battle is over, when all is revealed
    lines = report_lines(session)
    seals = [(style, text) for style, text in lines if text.startswith("side ") and "seal" in text]
    assert seals == [("b", f"side {side} was not sealed: a battle refereed at a physical table has no set-up in the "
                           "program to seal") for side in "AB"]
    assert not any(style == "bad" for style, _ in lines)


def test_its_instruction_box_leaves_the_pieces_it_names_in_sight(fresh):
    """A Move toward the middle of the table: the box is moved off the piece that moves and off where it ends, on
    every window size."""
    session, scene = _seated(fresh, [(Action("activate", "b-tactical-1"), "its turn")])
    _told(fresh, scene)
    unit = session.state.units["b-tactical-1"]
    end = (18.0, 18.0)                              # the middle of the 36" table: where a box in the middle sits
    session.computer_act = lambda: (Action("move", "b-tactical-1", {"x": end[0], "y": end[1]}), "forward")
    scene.computer.step()
    box = fresh.scene
    assert isinstance(box, Dialog) and box.lines[0].startswith("Move b-tactical-1 at (")
    for size in ((1280, 800), (1024, 700), (1600, 1000)):
        box.on_resize(size)
        scene.on_resize(size)
        box.on_resize(size)
        for x, y in ((unit.x, unit.y), end):
            assert not box.box.collidepoint(scene.view.px(x, y)), (size, (x, y), box.box)
