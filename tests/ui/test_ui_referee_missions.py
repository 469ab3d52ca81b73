"""In the referee mode a player may enter their mission card (and troop and drone cards) from the window: chosen
on screens meant for that side only, kept off the log and the other side's view, scored at the end."""

from pathlib import Path

import pytest

from referee.game.views.view import player_view
from referee.rules.scenario import load_scenario
from referee.service.referee import RefereeSession
from referee.ui.scenes.dialogs import Dialog
from referee.ui.scenes.referee import RefereeScene

SMALL = Path(__file__).with_name("small_table.toml")


@pytest.fixture
def referee(fresh):
    session = RefereeSession.from_scenario(load_scenario(SMALL))
    session.autosaving = False
    scene = fresh.push(RefereeScene(session))
    fresh.step(1 / 30, events=[])
    return scene, session


def test_a_player_enters_a_mission_and_cards_in_the_window(fresh, referee):
    scene, session = referee
    assert scene.offered("mission")
    scene.press("mission")
    ask = fresh.scene
    assert isinstance(ask, Dialog) and [k for k, _ in ask.choices] == ["A", "B", "cancel"]
    ask.choose("B")
    cards = fresh.scene
    assert cards.heading == "Side B only: your mission card"
    # side B defends on this table (A attacks): the defence missions are offered
    assert ("hold-the-line", "Hold the Line") in cards.choices and ("deep-strike", "Deep Strike") not in cards.choices
    cards.choose("hold-the-line")
    assert fresh.scene.heading == "Side B only: your troop card?"
    fresh.scene.choose("garrison-reserve")
    assert fresh.scene.heading == "Side B only: your drone card?"
    fresh.scene.choose("none")
    assert fresh.scene is scene
    assert session.state.missions == {"B": "hold-the-line"}
    assert session.state.cards["B"].troop == "garrison-reserve" and session.state.cards["B"].drone is None
    assert scene.log_title == "Side B's mission is entered"
    assert player_view(session.state, "A")["missions"]["B"] is None
    assert "hold" not in session.state.log[-1].text.lower()
    # side B is entered: only side A is offered now
    scene.press("mission")
    assert [k for k, _ in fresh.scene.choices] == ["A", "cancel"]
    fresh.scene.choose("cancel")
    assert fresh.scene is scene and "A" not in session.state.missions


def test_cancelling_a_card_enters_nothing(fresh, referee):
    scene, session = referee
    scene.press("mission")
    fresh.scene.choose("A")
    fresh.scene.choose("deep-strike")
    fresh.scene.choose("cancel")
    assert fresh.scene is scene and session.state.missions == {}
    assert "not entered" in " ".join(scene.log_lines)


def test_a_broken_card_file_is_listed_and_the_window_stays_open(fresh, referee):
    from referee import paths

    scene, session = referee
    folder = paths.user_cards_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mine.toml").write_text("this is = not [ a card file\n")
    scene.press("mission")
    fresh.scene.choose("B")
    cards = fresh.scene
    assert cards.heading == "Side B only: your mission card"
    assert ("hold-the-line", "Hold the Line") in cards.choices           # the sample deck is played
    assert any(line.startswith("left out: mine.toml: ") for line in cards.lines)
    cards.choose("hold-the-line")
    fresh.scene.choose("none")
    fresh.scene.choose("none")
    assert session.state.missions == {"B": "hold-the-line"} and fresh.running
