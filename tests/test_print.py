"""The printed pages: the faction sheet, a player's mat and the end-of-battle report are PDFs that a reader opens
(each is rendered to PNG with poppler's pdftoppm), every glyph they use is in the embedded font, and they print the
engine's numbers and nothing of a secret the rules keep."""

from __future__ import annotations

import logging
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.game.reports.dice_report import dice_report
from referee.game.records.record import read_save
from referee.printing.battle_report import roll_owner
from referee.rules.odds import percent

PDFTOPPM = shutil.which("pdftoppm")
PDFTOTEXT = shutil.which("pdftotext")
needs_poppler = pytest.mark.skipif(PDFTOPPM is None or PDFTOTEXT is None,
                                   reason="poppler-utils (pdftoppm, pdftotext) is not installed: "
                                          "apt-get install poppler-utils")


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A whole battle played by random legal play from seed 7: over after its second round (its set-up is what the
    mat reads)."""
    folder = tmp_path_factory.mktemp("battle")
    save = folder / "battle.json"
    assert main(["selfplay", "--seed", "7", "--rounds", "3", "--out", str(save)]) == 0
    return save


@pytest.fixture(scope="module")
def won(tmp_path_factory) -> Path:
    """A whole battle played by random legal play from seed 11: over after its third round, side A (New Tokyo)
    winning, with scored rolls on both sides."""
    folder = tmp_path_factory.mktemp("won")
    save = folder / "battle.json"
    assert main(["selfplay", "--seed", "11", "--rounds", "3", "--out", str(save)]) == 0
    return save




def pages(pdf: Path, tmp_path: Path) -> list[Path]:
    import pygame

    prefix = tmp_path / pdf.stem
    subprocess.run([PDFTOPPM, "-r", "40", "-png", str(pdf), str(prefix)], check=True, capture_output=True)
    out = sorted(tmp_path.glob(f"{pdf.stem}-*.png"))
    assert out, f"pdftoppm made no page of {pdf}"
    for png in out:
        picture = pygame.image.load(str(png))
        assert picture.get_size() == (331, 468), "an A4 page at 40 dpi"
        colours = {tuple(picture.get_at((x, y)))[:3] for x in range(0, 331, 7) for y in range(0, 468, 7)}
        assert len(colours) > 3, f"{png.name} is blank"
    return out


def text_of(pdf: Path) -> str:
    done = subprocess.run([PDFTOTEXT, "-layout", str(pdf), "-"], check=True, capture_output=True, text=True)
    return " ".join(done.stdout.split())


@pytest.fixture
def glyphs(caplog):
    """Every glyph printed is in the embedded font: fpdf2 logs the ones it had to leave out."""
    caplog.set_level(logging.WARNING, logger="fpdf")
    yield
    missing = [r.getMessage() for r in caplog.records if "missing the following glyphs" in r.getMessage()]
    assert not missing, missing


@needs_poppler
def test_the_faction_sheet_is_a_pdf_with_the_rulebook_stats(tmp_path, glyphs, capsys):
    out = tmp_path / "sheet.pdf"
    assert main(["faction", "sheet", "new-tokyo", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF-")
    assert len(pages(out, tmp_path)) == 1
    text = text_of(out)
    assert "New Tokyo" in text and "Faction sheet" in text
    # New Tokyo's lines as the rulebook prints them [p.27]: Sen Stl Arm CM Nuc Rob and the sum.
    assert "Reserve 2 3 1 2 1 3 12" in text
    assert "Veteran 3 4 2 4 1 4 18" in text
    assert "Spec Ops 5 5 3 5 1 5 24" in text
    # The Assault's +1 Armour [A5]: Reserve Armour 1 + 1.
    assert "Assault 2 3 2 2 1" in text


def test_a_png_name_still_draws_the_picture_and_another_name_is_refused(tmp_path, capsys):
    png = tmp_path / "sheet.png"
    assert main(["faction", "sheet", "new-tokyo", "--out", str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    assert stat.S_IMODE(png.stat().st_mode) & 0o044, "a sheet is meant to be shared, as a picture too"
    assert main(["faction", "sheet", "new-tokyo", "--out", str(tmp_path / "sheet.docx")]) == 2
    err = capsys.readouterr().err
    assert "sheet.docx: expected a file name ending in .pdf" in err
    assert not (tmp_path / "sheet.docx").exists()


@needs_poppler
def test_the_mat_holds_the_sides_own_holding_area_and_cards_only(finished, tmp_path, glyphs, capsys):
    out = tmp_path / "mat-a.pdf"
    assert main(["mat", str(finished), "--side", "A", "--out", str(out)]) == 0
    assert len(pages(out, tmp_path)) == 2
    text = text_of(out)
    # Side A's holding area of this battle: its commander in square 5, a tactical in 6, a drone in 10.
    assert "a-commander-1" in text and "a-tactical-2" in text and "a-basic-drone-1" in text
    assert "b-assault-1" not in text and "b-tactical-4" not in text, "the opponent's holding area is secret"
    assert "Eyes On" in text, "side A's own mission"
    assert "Killing Ground" not in text, "side B's mission is side B's"
    assert "Action Table" in text and "Toggle Jammer" in text and "Haywire drone [p.23]" in text
    assert "band = floor(distance / S) + 1" in text


@needs_poppler
def test_an_empty_mat_takes_the_cards_drawn_at_the_table(tmp_path, glyphs, capsys):
    out = tmp_path / "mat.pdf"
    assert main(["mat", "--side", "B", "--out", str(out), "--mission", "last-stand", "--troop", "line-section",
                 "--line", "C", "--drone", "standard-allocation", "--drone-line", "Z"]) == 0
    pages(out, tmp_path)
    text = text_of(out)
    assert "Mission: Last Stand (Defence)" in text
    assert "Troop card: Line Section, line C" in text
    assert main(["mat", "--side", "B", "--out", str(tmp_path / "x.pdf"), "--mission", "no-such-card"]) == 2
    assert "no mission card 'no-such-card'" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()


@needs_poppler
def test_the_report_prints_the_engines_dice_report_and_result(won, tmp_path, glyphs, capsys):
    out = tmp_path / "report.pdf"
    assert main(["report", str(won), "--pdf", str(out)]) == 0
    assert len(pages(out, tmp_path)) >= 2
    text = text_of(out)
    save = read_save(won)
    report = dice_report(save.game)
    assert "Side A (New Tokyo) wins" in text
    for side in "AB":
        assert f"Side {side}: luck {percent(report.sides[side].luck)}" in text
    # Every scored roll is drawn under its unit, with its percentile beside its bar.
    for t in report.tests:
        assert roll_owner(t) in text
    assert "side A's seal matches" in text and "side B's seal matches" in text


def test_the_report_of_a_battle_not_over_is_refused_and_writes_nothing(finished, tmp_path):
    from referee.game.play.engine import Game
    from referee.printing.battle_report import save_battle_report
    from referee.rules.errors import InputError

    game = read_save(finished).game
    going = Game(game.initial, game.record[:120], game.rebuild(120))
    assert going.state.phase != "over"
    out = tmp_path / "report.pdf"
    with pytest.raises(InputError, match="the battle is not over"):
        save_battle_report(going, out)
    assert not out.exists()


def test_a_rolls_unit_is_read_from_the_dice_reports_words(won):
    report = dice_report(read_save(won).game)
    owners = {roll_owner(t) for t in report.tests}
    assert owners and all(o.startswith(("a-", "b-")) for o in owners)


def test_printed_files_are_readable_by_others_and_saves_are_not(finished, tmp_path, capsys):
    sheet = tmp_path / "sheet.pdf"
    assert main(["faction", "sheet", "new-tokyo", "--out", str(sheet)]) == 0
    assert stat.S_IMODE(sheet.stat().st_mode) & 0o044, "a sheet is meant to be shared"
    assert stat.S_IMODE(finished.stat().st_mode) == 0o600, "a save holds both sides' secrets"
