"""The end-of-battle report against the computer lists the computer's reason for each decision, says when some were
not kept, and its scrolling stops at its last page instead of running on into an empty box."""

import pygame
import pytest

from referee.ui.app import App
from referee.service.session import BattleSession
from referee.ui.scenes.report import ReportScene, last_page, report_lines
from tests.ui.test_ui_computer import start_against_computer


@pytest.fixture
def app():
    a = App((1280, 800))
    yield a
    pygame.quit()


def test_the_report_lists_the_computers_reasons_and_scrolls_no_further_than_its_end(app):
    _scene, session = start_against_computer(app, seed=11, opponent="The computer plays side B, normal")
    session.game.state.phase = "over"          # the report is shown once the battle is over, when all is revealed
    lines = report_lines(session)
    heading = ("h", "The computer (side B, normal): its reason for each decision")
    assert heading in lines
    reasons = lines[lines.index(heading) + 1:]
    assert reasons and [text for _, text in reasons] == session.computer_reasons
    assert any(text.startswith("[set-up] place-objective") for _, text in reasons)

    report = app.push(ReportScene(session))
    app.step(1 / 30, events=[])
    for _ in range(400):
        app.dispatch(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    app.step(1 / 30, events=[])
    assert report.scroll > 0
    drawn = []
    import referee.ui.scenes.report as report_module

    real = report_module.draw_text

    def record(surface, text, pos, *args, **kwargs):
        drawn.append(text)
        return real(surface, text, pos, *args, **kwargs)

    report_module.draw_text = record
    try:
        app.step(1 / 30, events=[])
    finally:
        report_module.draw_text = real
    assert session.computer_reasons[-1][-30:] in " ".join(drawn), "the report's last line is off the screen"
    assert len(drawn) > 10, "the box was scrolled past its end"


def test_a_battle_reopened_in_clear_says_the_reasons_before_it_were_not_kept(app, tmp_path):
    _scene, session = start_against_computer(app, seed=12)
    session.game.state.phase = "over"          # the report is shown once the battle is over, when all is revealed
    # Each set-up decision is listed once, under set-up (it was listed twice, once as round 1).
    setup = [r for r in session.computer_reasons if r.startswith("[set-up] ")]
    assert setup and not any(r.startswith("[round 1] ") and "place-blip" in r for r in session.computer_reasons)
    # Sealed (the window seals a battle against the computer): its reasons come back with the record.
    assert session.game.keys is not None
    kept = BattleSession(session.game, session.dice, hotseat=True)
    assert not kept.computer_reopened and kept.computer_reasons == session.computer_reasons
    # In clear (a battle of an older version, or a script's): they were never written, and the report says so.
    session.game.keys = None
    again = BattleSession(session.game, session.dice, hotseat=True)
    assert again.computer is not None and again.computer_reopened
    assert any("since the battle was reopened" in text for _, text in report_lines(again))
    assert not any("since the battle was reopened" in text for _, text in report_lines(session))


def test_last_page_keeps_the_last_line_at_the_bottom(app):
    wrapped = [("b", f"line {i}") for i in range(100)]
    first = last_page(wrapped, 200)
    assert 0 < first < 100 and last_page(wrapped, 10_000) == 0
    assert last_page(wrapped[:3], 200) == 0
