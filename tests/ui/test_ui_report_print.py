"""The end-of-battle report's Print button writes the whole report as a PDF beside the battle's save and says
where; the PDF is the one ``report --pdf`` writes."""

import pygame
import pygame_gui
import pytest

from referee.cli.main import main
from referee.game.records.record import read_save
from referee.ui.app import App
from referee.service.session import BattleSession
from referee.ui.scenes.report import ReportScene


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def test_the_print_button_writes_the_report_beside_the_save(app, tmp_path, capsys):
    save_path = tmp_path / "evening.json"
    assert main(["selfplay", "--seed", "7", "--rounds", "3", "--out", str(save_path)]) == 0
    save = read_save(save_path)
    session = BattleSession(save.game, save.dice, hotseat=True)
    session.save_path = save_path
    report = app.push(ReportScene(session))
    app.step(1 / 30, events=[])
    button = next(b for b, key in report.buttons.items() if key == "print")
    assert button.text == "Print (PDF)"
    app.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))
    written = tmp_path / "evening-report.pdf"
    assert written.read_bytes().startswith(b"%PDF-")
    assert report.printed == f"The report is printed to {written}"
    app.step(1 / 30, events=[])          # the line saying where is drawn under the report, the scene stays open
    assert app.find_scene("report") is report


def test_a_report_that_cannot_be_written_says_why_and_the_scene_stays(app, tmp_path, capsys):
    save_path = tmp_path / "evening.json"
    assert main(["selfplay", "--seed", "7", "--rounds", "3", "--out", str(save_path)]) == 0
    save = read_save(save_path)
    session = BattleSession(save.game, save.dice, hotseat=True)
    (tmp_path / "evening-report.pdf").mkdir()             # a folder where the file should go
    session.save_path = save_path
    report = app.push(ReportScene(session))
    assert report.print_report() is None
    assert report.printed.startswith("Not printed: ") and "is a folder" in report.printed
