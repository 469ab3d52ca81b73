"""Text that used to run off its box: a long word, the log's title beside its line counter, the resume button."""


import pygame
import pytest

from referee.ui import panels, widgets
from referee.ui.app import App


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def test_a_word_wider_than_the_line_is_broken_not_drawn_off_the_edge(app):
    document = '{"blips":{"a-blip-AA":14,"a-blip-AC":13,"a-blip-AK":9}}' * 8
    lines = widgets.wrap("sealed: " + document, 300, 14)
    assert len(lines) > 2
    assert all(widgets.text_width(line, 14) <= 300 for line in lines)
    assert "".join(line.strip() for line in lines[1:]) == document      # nothing lost, nothing added but indents


def test_the_log_title_gives_way_to_the_line_counter(app, monkeypatch):
    drawn = []

    def record(surface, text, pos, size=14, bold=False, colour=None, anchor="topleft"):
        drawn.append((text, pos, size, bold, anchor))

    monkeypatch.setattr(panels, "draw_text", record)
    surface = pygame.Surface((440, 240))
    wrapped = [(f"[round 1] line {i}", True) for i in range(40)]
    panels.draw_log(surface, pygame.Rect(0, 0, 440, 240), "Battle log (as side A sees it): a-kamikaze-drone-1 only",
                    wrapped, 5)
    title, counter = drawn[0], drawn[1]
    assert counter[4] == "topright" and counter[0].startswith("6-16 of 40")
    title_right = title[1][0] + widgets.text_width(title[0], title[2], title[3])
    counter_left = counter[1][0] - widgets.text_width(counter[0], counter[2])
    assert title_right < counter_left


def test_the_resume_button_fits_its_text(app):
    from referee.game.battle.intents import Action
    from referee.game.battle.dice import SeededDice
    from referee.game.play.engine import Game, begin_battle
    from referee.game.battle.state import state_from_scenario
    from referee.rules.scenario import load_scenario
    from referee.service.session import BattleSession
    from referee.ui.scenes.menu import COLUMN_W, MenuScene
    from pathlib import Path

    state = begin_battle(state_from_scenario(load_scenario(Path(__file__).with_name("table.toml"))), first="A")
    session = BattleSession(Game(state), SeededDice(3), hotseat=True, viewer="A")
    assert session.attempt(Action("activate", "a-eng")).legal
    menu = app.push(MenuScene())
    button = menu.widgets["resume"]
    assert widgets.text_width(button.text, 15, True) <= COLUMN_W - 28
    assert button.text.startswith("Resume the interrupted battle: ")
