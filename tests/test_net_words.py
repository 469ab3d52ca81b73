"""The hand page's words come from the program's catalogue: the host serves them for the language the phone asks for
(``?lang=`` or Accept-Language), every word ``hand.js`` and ``hand.html`` show is among them, and a language with a
catalogue changes them while one without shows English."""

from __future__ import annotations

import http.client
import json
import re
from importlib import resources

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from referee import i18n
from referee.net.words import HAND, asked_languages, hand_words

from .net_support import battle_state, hosted, session_of

STATIC = resources.files("referee.net").joinpath("static")


def used_keys() -> set[str]:
    """The words the page shows: ``t("key"`` in hand.js, ``data-word`` and ``data-label`` in hand.html."""
    js = STATIC.joinpath("hand.js").read_text(encoding="utf-8")
    html = STATIC.joinpath("hand.html").read_text(encoding="utf-8")
    keys = set(re.findall(r'\bt\("([\w-]+)"(?!\s*\+)', js)) | set(re.findall(r'data-(?:word|label)="([\w-]+)"', html))
    # Words looked up by a value of the screen: a phase, a side's word at the end of the round.
    keys |= {f"phase_{p}" for p in ("setup", "action", "end-of-round", "over")}
    keys |= {f"word_{w}" for w in ("on", "stop", "withdraw", "allow", "pursue")}
    return keys


def get(host, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", host.port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": f"127.0.0.1:{host.port}", **(headers or {})})
        response = conn.getresponse()
        body = response.read()
        assert response.getheader("Content-Type", "").startswith("application/json")
        return response.status, json.loads(body)
    finally:
        conn.close()


@pytest.fixture
def language(tmp_path, monkeypatch):
    """A made-up language ``xx``, every word of the hand translated (upper case, the values kept), as a translator's
    catalogue would be."""
    cat = Catalog(locale="fr", domain=i18n.DOMAIN)
    for text in HAND.values():
        cat.add(text, re.sub(r"(^|\})([^{]*)", lambda m: m.group(1) + m.group(2).upper(), text))
    folder = tmp_path / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / f"{i18n.DOMAIN}.mo").open("wb") as f:
        write_mo(f, cat)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations_for.cache_clear()
    yield
    i18n.translations_for.cache_clear()


def test_the_words_served_hold_every_word_the_page_shows():
    session = session_of(battle_state())
    with hosted(session) as host:
        status, data = get(host, "/hand/words", {"Accept-Language": "en-GB,en;q=0.9"})
    assert status == 200 and data["lang"] == "en"
    missing = used_keys() - set(data["words"])
    assert not missing, f"hand.js shows words the host does not serve: {sorted(missing)}"
    assert set(data["words"]) == set(HAND), "a word served that the page never shows"
    assert data["words"]["place_this_blip"] == "Place this blip"
    # The terrain's kinds, for the map: the window's colours, and whether a trooper may stand there.
    assert data["terrain"]["lake"] == {"name": "Lake", "colour": "#2f6aa8", "impassable": True, "blocking": False}


def test_every_word_of_the_page_is_in_the_catalogue():
    pot = (i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot").read_text(encoding="utf-8")
    for text in HAND.values():
        first_line = text.replace('"', '\\"')[:40]
        assert first_line in pot, f"{text!r}: run python tools/catalogue.py"


def test_a_language_with_a_catalogue_changes_the_words_and_one_without_shows_english(language):
    session = session_of(battle_state())
    with hosted(session) as host:
        _, asked = get(host, "/hand/words?lang=xx")
        _, accepted = get(host, "/hand/words", {"Accept-Language": "de-DE, xx;q=0.8, en;q=0.5"})
        _, english = get(host, "/hand/words", {"Accept-Language": "zz"})
        _, hostile = get(host, "/hand/words?lang=../../xx", {"Accept-Language": "../xx"})
    assert asked["lang"] == accepted["lang"] == "xx"
    assert asked["words"] == accepted["words"]
    assert asked["words"]["place_this_blip"] == "PLACE THIS BLIP"
    assert asked["words"]["said_waiting"] == "SAID. WAITING FOR SIDE {side}.", "a value's name is left for hand.js"
    differ = [k for k in HAND if asked["words"][k] != english["words"][k]]
    assert len(differ) == len(HAND), "every word of the page is translated through the catalogue"
    assert english["lang"] == "en" and english["words"] == {k: v for k, v in HAND.items()}
    assert hostile["lang"] == "en", "a language tag that is no tag reaches no catalogue"


def test_the_languages_asked_best_first():
    assert asked_languages(None, "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == ("fr_CH", "fr", "en", "de")
    assert asked_languages("nl", "de;q=1, en;q=0.1") == ("nl", "de", "en")
    assert asked_languages(None, "en;q=0, da") == ("da",)
    assert asked_languages(None, "en;q=x, ../../etc, a/b, " + "x" * 20) == ()
    assert asked_languages(None, None) == ()
    assert hand_words(("zz",))["lang"] == "en"
