"""The shared table screen (``/table``): its words come from the program's catalogue as the hand's do (``/table/words``,
``?lang=`` or Accept-Language), and it never shows a secret: the host sends the page the public view only, so what it
gets of a battle is byte for byte the same however both sides' secrets are dealt (which blip stands for which square,
which mission each side holds: the re-deal of tests/test_service_screens.py), and the same whichever seat's link
opened it. tests/test_net_table_browser.py holds the page drawn in a browser to the same."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from importlib import resources
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from referee import i18n
from referee.game.battle.state import GameState
from referee.game.views.view import player_view
from referee.net.words import HAND, TABLE, table_words

from .net_support import battle_state, hosted, raw, session_of, token
from .test_service_screens import battle_states, redeal
from .test_net_words import get

STATIC = resources.files("referee.net").joinpath("static")


def used_keys() -> set[str]:
    """The words the page shows: ``t("key"`` in table.js, ``data-word`` and ``data-label`` in table.html, and those
    looked up by a value of the screen (a phase, a set-up step, a unit's type)."""
    js = STATIC.joinpath("table.js").read_text(encoding="utf-8")
    html = STATIC.joinpath("table.html").read_text(encoding="utf-8")
    keys = set(re.findall(r'\bt\("([\w-]+)"(?!\s*\+)', js)) | set(re.findall(r'data-(?:word|label)="([\w-]+)"', html))
    keys |= {f"phase_{p}" for p in ("setup", "action", "end-of-round", "over")}
    keys |= {f"step_{s}" for s in ("roles", "edge", "objective", "cards", "choose-cards", "holding", "blip")}
    keys |= {f"type_{u}" for u in ("commander", "tactical", "assault", "scout", "engineer", "basic-drone",
                                   "kamikaze-drone", "haywire-drone", "recce-drone")}
    return keys


@pytest.fixture
def language(tmp_path, monkeypatch):
    """A made-up language ``xx``: every word of the hand and of the table screen in upper case (the values kept)."""
    cat = Catalog(locale="fr", domain=i18n.DOMAIN)
    for text in {*HAND.values(), *TABLE.values()}:
        cat.add(text, re.sub(r"(^|\})([^{]*)", lambda m: m.group(1) + m.group(2).upper(), text))
    folder = tmp_path / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / f"{i18n.DOMAIN}.mo").open("wb") as f:
        write_mo(f, cat)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations_for.cache_clear()
    yield
    i18n.translations_for.cache_clear()


def test_the_table_words_served_hold_every_word_the_page_shows():
    with hosted(session_of(battle_state())) as host:
        status, data = get(host, "/table/words", {"Accept-Language": "en-GB,en;q=0.9"})
    assert status == 200 and data["lang"] == "en"
    missing = used_keys() - set(data["words"])
    assert not missing, f"table.js shows words the host does not serve: {sorted(missing)}"
    assert set(data["words"]) == set(TABLE), "a word served that the page never shows"
    assert data["words"]["on_their_phone"] == "Side {side} is deciding on their phone: {what}."
    assert data["terrain"]["smoke"]["colour"] == "#9a9a9a"
    pot = (i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot").read_text(encoding="utf-8")
    for text in TABLE.values():
        assert text.replace('"', '\\"')[:40] in pot, f"{text!r}: run python tools/catalogue.py"


def test_the_table_screen_speaks_the_language_asked_for(language):
    with hosted(session_of(battle_state())) as host:
        _, asked = get(host, "/table/words?lang=xx")
        _, accepted = get(host, "/table/words", {"Accept-Language": "de, xx;q=0.8"})
        _, english = get(host, "/table/words", {"Accept-Language": "zz"})
    assert asked["lang"] == accepted["lang"] == "xx" and asked["words"] == accepted["words"]
    assert asked["words"]["turn_of"] == "SIDE {side}'S TURN", "a value's name is left for table.js"
    assert all(asked["words"][k] != english["words"][k] for k in TABLE), "every word goes through the catalogue"
    assert english["lang"] == "en" and english["words"] == TABLE
    assert table_words(("zz",))["words"] == TABLE


def both_redealt(state: GameState, seed: int) -> GameState:
    """``state`` with both sides' secrets dealt again."""
    rng = random.Random(seed)
    return redeal(redeal(state, "A", rng), "B", rng)


def table_page_data(state: GameState) -> tuple[str, str]:
    """What the table page gets of ``state``, as the host sends it: the first frame on its socket, opened with the
    table's own link and with side A's (the page asks for ``?view=table`` whoever opened it)."""
    frames = []
    with hosted(session_of(state)) as host:
        for seat in ("spectator", "A"):
            ws = raw(host, token(host, seat), view="table")
            try:
                frames.append(str(ws.recv(timeout=10)))
            finally:
                ws.close()
    return frames[0], frames[1]


def secrets(state: GameState) -> Any:
    return json.dumps([player_view(state, side) for side in ("A", "B")], sort_keys=True, default=str)


@pytest.mark.parametrize("which", ["set up", "after play 1", "after play 2"])
def test_the_table_page_gets_the_same_bytes_however_the_secrets_are_dealt(which):
    if which == "set up":
        state = battle_state()
    else:
        state = battle_states(int(which[-1]))[5]
    deals = [state, both_redealt(state, 1), both_redealt(state, 2)]
    assert len({secrets(s) for s in deals}) == 3, "each deal is another: the sides' own screens tell them apart"
    pages = [table_page_data(s) for s in deals]
    for own_link, side_link in pages:
        assert own_link == side_link, "the table page gets the public view whichever seat's link opened it"
    assert pages[0][0] == pages[1][0] == pages[2][0], "the table page's data tells the deals apart"
    screen = json.loads(pages[0][0])["screen"]
    assert screen["seat"] == "spectator" and screen["view"]["viewer"] == "spectator"
    assert screen["view"]["blips"] and all("square" not in b for b in screen["view"]["blips"])


def test_the_table_page_asks_the_host_for_nothing_but_the_public_view_and_its_words():
    js = STATIC.joinpath("table.js").read_text(encoding="utf-8") + STATIC.joinpath("map.js").read_text(encoding="utf-8")
    assert re.findall(r'new WebSocket\([^;]*', js) == [
        'new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?view=table")']
    assert re.findall(r'fetch\("([^"]*)"', js) == ["/table/words"]
    assert ".send(" not in js, "the table screen sends no intent"


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_the_table_screen_says_who_the_battle_waits_for_and_where():
    """At the table (the public actions), on a phone (the private decisions of set-up, troopers just revealed to
    face, the end of a round): table.js's own function, run by Node with the words in English."""
    def view(**parts: Any) -> dict[str, Any]:
        return {"phase": "action", "setup": None, "to_face": [], "to_place": {}, "units": [], "blips": [], **parts}

    cases = {
        "holding": {"over": False, "to_act": "B", "view": view(phase="setup", setup={"step": "holding", "side": "B"})},
        "edge": {"over": False, "to_act": "A", "view": view(phase="setup", setup={"step": "edge", "side": "A"})},
        "face": {"over": False, "to_act": "A", "view": view(to_face=["b1"], units=[{"id": "b1", "side": "B"}])},
        "round": {"over": False, "to_act": None, "view": view(phase="end-of-round")},
        "withdraw": {"over": False, "to_act": "A", "view": view(phase="end-of-round")},
        "turn": {"over": False, "to_act": "A", "view": view()},
        "over": {"over": True, "to_act": None, "view": view(phase="over")},
    }
    script = ("globalThis.document = { addEventListener: () => {} };\n"
              "globalThis.window = { addEventListener: () => {} };\n"
              + STATIC.joinpath("map.js").read_text(encoding="utf-8") + "\n"
              + STATIC.joinpath("table.js").read_text(encoding="utf-8")
              + f"\nWORDS.words = {json.dumps(TABLE)};\nconst cases = {json.dumps(cases)};\n"
              "const out = {};\nfor (const [k, s] of Object.entries(cases)) out[k] = waitingWords(s);\n"
              "process.stdout.write(JSON.stringify(out));\n")
    ran = subprocess.run([NODE, "-"], input=script, capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(ran.stdout) == {
        "holding": ["B", "Side B is deciding on their phone: filling its holding area."],
        "edge": ["A", "Set-up: side A is picking its table edge at the table."],
        "face": ["B", "Side B is deciding on their phone: placing and facing troopers just revealed."],
        "round": [None, "End of the round: both sides answer on their phones (play on, stop or withdraw)."],
        "withdraw": ["A", "Side A is deciding on their phone: answering at the end of the round."],
        "turn": ["A", "Side A plays at the table."],
        "over": [None, "The battle is over."],
    }
