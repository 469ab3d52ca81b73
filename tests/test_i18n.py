"""The window's and the command line's text goes through gettext: the catalogues are up to date with the code, the
English one is complete, and a catalogue for another language changes what the menu and the help show."""

from __future__ import annotations

import gettext
import importlib.util
import io
from pathlib import Path

import pygame
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from referee import i18n
from referee.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("catalogue", ROOT / "tools" / "catalogue.py")
catalogue = importlib.util.module_from_spec(spec)
spec.loader.exec_module(catalogue)


def ids(data: bytes) -> dict[object, str]:
    return {m.id: m.string for m in read_po(io.BytesIO(data)) if m.id}


def test_the_catalogues_hold_every_marked_string_of_the_code():
    fresh = catalogue.files()
    pot, po, mo = fresh.keys()
    assert set(ids(pot.read_bytes())) == set(ids(fresh[pot])), "run: python tools/catalogue.py"
    english = ids(po.read_bytes())
    assert english == ids(fresh[po])
    assert all(msgid == text for msgid, text in english.items() if isinstance(msgid, str))
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for msgid in english:
        if isinstance(msgid, str):
            assert compiled.gettext(msgid) == msgid
    # The strings the menu, the dialogs and the command line show are among them.
    for text in ("New battle (hot-seat or computer)…", "I am side {side}: show my view", "Print (PDF)",
                 "answer one referee question about a scenario", "print the program's version and exit"):
        assert text in english, text


@pytest.fixture
def language(tmp_path, monkeypatch):
    """A made-up language ``xx`` with a few strings translated (upper case), as a translator's catalogue would be."""
    words = {"Quit": "QUIT", "Settings…": "SETTINGS…", "Could not open {path}": "CANNOT OPEN {path}",
             "print a player's mat for a physical game (PDF)": "PRINT A MAT",
             "I am side {side}: show my view": "SIDE {side} HERE"}
    cat = Catalog(locale="fr", domain=i18n.DOMAIN)
    for k, v in words.items():
        cat.add(k, v)
    folder = tmp_path / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / f"{i18n.DOMAIN}.mo").open("wb") as f:
        write_mo(f, cat)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setenv("LANGUAGE", "xx")
    i18n.translations.cache_clear()
    yield
    i18n.translations.cache_clear()


def test_a_language_with_a_catalogue_changes_the_menu_and_a_dialog(language, tmp_path):
    from referee.ui.app import App
    from referee.ui.scenes.dialogs import HandoffScreen

    app = App((1280, 800))
    try:
        app.open_menu(None)
        menu = app.stack.top
        assert menu.widgets["quit"].text == "QUIT"
        assert menu.widgets["settings"].text == "SETTINGS…"
        assert menu.widgets["open"].text == "Open", "a string with no translation stays English"
        menu.open_scenario(tmp_path / "nowhere.toml")
        assert menu.error_title == f"CANNOT OPEN {tmp_path / 'nowhere.toml'}"
        handoff = HandoffScreen("B", [], lambda key: None)
        assert [label for _, label in handoff.choices] == ["SIDE B HERE"]
    finally:
        pygame.quit()


def test_a_language_with_a_catalogue_changes_the_command_lines_help(language, capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "PRINT A MAT" in capsys.readouterr().out


def test_a_language_without_a_catalogue_shows_english(monkeypatch):
    monkeypatch.setenv("LANGUAGE", "zz")
    i18n.translations.cache_clear()
    try:
        assert i18n._("Print (PDF)") == "Print (PDF)"
        assert i18n.ngettext("saved: {n} ruling differs from the recommended reading",
                             "saved: {n} rulings differ from the recommended reading", 2).format(n=2) == \
            "saved: 2 rulings differ from the recommended reading"
    finally:
        i18n.translations.cache_clear()
