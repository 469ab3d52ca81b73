"""Target counters on a patch of ground from the window (p.19, A54): in the Target tool a click on open ground places
counters on that point, the patch is drawn with its counters, and a missile may be aimed at it (A28)."""

from pathlib import Path

import pygame
import pytest

from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession
from referee.ui.scenes.dialogs import Dialog
from referee.ui.scenes.referee import RefereeScene

from tests.ui.test_ui_referee import click, key, type_dice

SMALL = Path(__file__).with_name("small_table.toml")


@pytest.fixture
def referee(fresh):
    session = RefereeSession.from_scenario(load_scenario(SMALL))
    session.autosaving = False
    scene = fresh.push(RefereeScene(session))
    fresh.step(1 / 30, events=[])
    return scene, session


def click_point(app, scene, x: float, y: float, button: int = 1) -> None:
    pos = tuple(round(v) for v in scene.view.to_screen(x, y))
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def test_counters_on_open_ground_from_the_target_tool_then_a_missile_at_them(fresh, referee, tmp_path):
    scene, session = referee
    click(fresh, scene, "a-tactical-1")            # at (8, 6), facing +y
    scene.press("activate")
    scene.press("target")
    key(fresh, pygame.K_2, "2")
    key(fresh, pygame.K_RETURN)
    type_dice(fresh, [6, 6])
    for _ in range(2):
        click_point(fresh, scene, 8, 12)           # open ground 5.5" ahead: band 1, a point each
    key(fresh, pygame.K_RETURN)
    [patch] = session.state.ground.values()
    assert patch.target_counters == 2 and abs(patch.x - 8) <= 0.1 and abs(patch.y - 12) <= 0.1
    fresh.step(1 / 30, events=[])
    assert patch.id in scene.table.bf.ground        # the window's table holds it, and draws it
    pygame.image.save(fresh.screen, str(tmp_path / "ground.png"))
    # the same unit's missile at the patch: the engine's working first, then the dice
    scene.press("missile")
    click_point(fresh, scene, patch.x, patch.y)
    assert isinstance(fresh.scene, Dialog)
    assert any("effective counters" in line for line in fresh.scene.lines)
    fresh.scene.choose("go")
    type_dice(fresh, [1])                           # a direct hit on the ground: the point of impact
    assert any(f"direct hit on {patch.id}" in e.text for e in session.state.log)
