"""The shared table screen in a real browser (headless Chromium from the distribution's packages, driven by Selenium;
skipped without them) at a TV's 1920x1080 and a tablet's 1024x768, during a battle in its third round: every unit
and blip of the public view is drawn on the table with its name, its Target counters and its Damaged and Stunned
marks, the active unit is marked, and the words on the table and beside it are read from 2-3 m (24 px or more at
1080 lines). What the page draws is the same, byte for byte, when both sides' secrets are dealt again. The page in a
language with a catalogue shows that language's words.

``SEVEN_SECONDS_SCREENSHOTS=docs/images`` keeps the screenshot at 1920x1080 there (docs/network.md shows it).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from referee import paths
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game, begin_battle
from referee.game.players.random_play import play_random
from referee.game.play.setup import SetupChoices, new_battle
from referee.net.host import Host
from referee.rules.scenario import load_scenario
from referee.service.session import BattleSession

from .foresee import FACTIONS
from .shared_browser import SharedBrowser, new_chromium, require_chromium
from .test_net_table import both_redealt, secrets
from .test_net_table import language  # noqa: F401 (a fixture: a made-up language with a catalogue)

require_chromium()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

WAIT = 30
TV, TABLET = (1920, 1080), (1024, 768)
LEAST_PX = 24                       # the smallest word read from across the table on a 1080-line screen


def _new_browser():
    return new_chromium(TV, "--hide-scrollbars")


_SHARED = SharedBrowser(_new_browser)


@pytest.fixture(scope="module", autouse=True)
def _one_browser():
    """One Chromium for the module's tests, quit after the last."""
    yield
    _SHARED.quit()


def _browser():
    """The module's browser as a new one is: one blank tab, no screen size set, no cookie of any page."""
    return _SHARED.fresh()


def _screen(driver, size: tuple[int, int]) -> None:
    """The page's viewport exactly ``size`` (a TV's or a tablet's screen, not the window around it)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})


def _battle() -> BattleSession:
    """The default scenario's battle after 200 random steps from seed 3 (fixed dice): round 3, side B's commander
    active, units revealed with Target counters, one Damaged and Stunned, smoke on the table, blips of both sides."""
    state, _ = new_battle(load_scenario(paths.DEFAULT_SCENARIO), SetupChoices(FACTIONS), SeededDice(3))
    game = Game(begin_battle(state) if state.phase == "setup" else state)
    play_random(game, random.Random(3), 200, SeededDice(3))
    return BattleSession(game, SeededDice(1), hotseat=False, autosaving=False)


def _drawn(driver) -> dict:
    """What the page drew: each unit's and blip's group, its words and marks, and each word's size in pixels."""
    return driver.execute_script("""
        const px = (t) => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a;
        const texts = (g) => Array.from(g.querySelectorAll('text')).map((t) => t.textContent);
        const board = document.getElementById('board');
        const out = { units: {}, blips: {}, names: {}, least: Infinity, panel: {} };
        for (const g of board.querySelectorAll('[data-unit]')) out.units[g.dataset.unit] = {
            texts: texts(g), active: g.classList.contains('active'),
            counters: Array.from(g.querySelectorAll('[data-counters]')).map((c) => Number(c.dataset.counters)),
            marks: Array.from(g.querySelectorAll('[data-mark]')).map((m) => m.dataset.mark) };
        for (const g of board.querySelectorAll('[data-blip]')) out.blips[g.dataset.blip] = { texts: texts(g) };
        for (const t of board.querySelectorAll('[data-name-of]')) out.names[t.dataset.nameOf] = t.textContent;
        for (const t of board.querySelectorAll('text')) out.least = Math.min(out.least, px(t));
        for (const id of ['round', 'turn', 'waiting', 'active', 'log-lines'])
            out.panel[id] = parseFloat(getComputedStyle(document.getElementById(id)).fontSize);
        const r = board.getBoundingClientRect();
        out.board = [r.left, r.top, r.right, r.bottom];
        out.smoke = board.querySelectorAll('[data-type="smoke"]').length;
        return out;""")


def test_the_table_screen_draws_every_public_piece_big_enough_to_read_across_the_table(tmp_path):
    session = _battle()
    host = Host.start(session, bind="127.0.0.1")
    driver = _browser()
    shots = Path(os.environ.get("SEVEN_SECONDS_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    try:
        with host.lock:
            view = host.desk.screen_data("spectator")["view"]
        units, blips = {u["id"]: u for u in view["units"]}, {b["id"]: b for b in view["blips"]}
        active = view["turn"]["active"]
        assert units and blips and active in units, "the battle has units, blips and an active unit"
        assert any(u["target_counters"] for u in units.values()) and any(u["damaged"] for u in units.values())
        assert any(u["stunned"] for u in units.values())
        _screen(driver, TV)
        driver.get(host.link("spectator"))
        wait = WebDriverWait(driver, WAIT)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board [data-unit]")) == len(units), "the units")
        wait.until(lambda d: "connected" in d.find_element(By.ID, "status").text, "connected")
        drawn = _drawn(driver)
        # Every unit and blip the public may see, each with its letter or its public name, and nothing else.
        assert set(drawn["units"]) == set(units) and set(drawn["blips"]) == set(blips)
        letters = {"commander": "C", "tactical": "T", "assault": "A", "scout": "S", "engineer": "E",
                   "basic-drone": "B", "kamikaze-drone": "K", "haywire-drone": "H", "recce-drone": "R"}
        for uid, unit in units.items():
            got = drawn["units"][uid]
            assert got["texts"][0] == letters[unit["type"]] and drawn["names"][uid] == uid, (uid, got)
            assert got["counters"] == ([unit["target_counters"]] if unit["target_counters"] else []), (uid, got)
            assert sorted(got["marks"]) == sorted(m for m in ("damaged", "stunned") if unit[m]), (uid, got)
            assert got["active"] == (uid == active)
        for bid in blips:
            assert drawn["blips"][bid]["texts"] == [bid.split("-")[-1]], (bid, drawn["blips"][bid])
        assert drawn["smoke"] >= 1, "the smoke left on the table"
        # Read from across the table: every word on it and beside it 24 px or more; the table fills the height.
        assert drawn["least"] >= LEAST_PX, drawn["least"]
        assert min(drawn["panel"].values()) >= LEAST_PX, drawn["panel"]
        assert drawn["board"][3] - drawn["board"][1] >= TV[1] * 0.95 and drawn["board"][2] <= TV[0]
        page = driver.find_element(By.TAG_NAME, "body").text
        assert "Round 3 · action" in page and "Side B's turn" in page and "Side B plays at the table." in page
        assert f"Active: {active} (Commander)" in page
        log = [line for line in page.splitlines() if "activates" in line]
        assert log and view["log"][-1]["text"] in page, "the last log line is in sight"
        driver.save_screenshot(str(shots / "table-screen.png"))
        # A tablet: the whole table and its last log line still in sight.
        _screen(driver, TABLET)
        wait.until(lambda d: _drawn(d)["board"][3] <= TABLET[1], "the table at the tablet's size")
        drawn = _drawn(driver)
        assert drawn["board"][2] <= TABLET[0] and drawn["board"][3] <= TABLET[1]
        last = driver.find_element(By.CSS_SELECTOR, "#log-lines li:last-child")
        bottom = driver.execute_script("return arguments[0].getBoundingClientRect().bottom", last)
        assert last.text == view["log"][-1]["text"] and bottom <= TABLET[1]
        driver.save_screenshot(str(tmp_path / "table-screen-tablet.png"))
        assert (shots / "table-screen.png").stat().st_size > 20000
    finally:
        host.stop()


@pytest.mark.usefixtures("language")
def test_the_table_screen_in_a_language_with_a_catalogue():
    session = _battle()
    host = Host.start(session, bind="127.0.0.1")
    driver = _browser()
    try:
        _screen(driver, TV)
        driver.get(host.link("spectator"))
        driver.get(f"http://{host.bind}:{host.port}/table?lang=xx")
        wait = WebDriverWait(driver, WAIT)
        wait.until(lambda d: d.find_element(By.ID, "turn").text == "SIDE B'S TURN", "the turn in that language")
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "xx"
        assert driver.find_element(By.CSS_SELECTOR, "#log h2").get_attribute("textContent") == "LAST ON THE TABLE"
        assert "SIDE B PLAYS AT THE TABLE." in driver.find_element(By.ID, "waiting").text
        edges = [e.get_attribute("textContent") for e in driver.find_elements(By.CSS_SELECTOR, "#board text.edge")]
        assert edges == ["SIDE A'S EDGE", "SIDE B'S EDGE"]
    finally:
        host.stop()


def test_what_the_table_screen_draws_is_the_same_however_the_secrets_are_dealt():
    """The page's whole drawing and words (its DOM, as it stands after each screen) for the battle as dealt and with
    both sides' secrets dealt again twice (which blip stands for which square, each side's mission)."""
    session = _battle()
    host = Host.start(session, bind="127.0.0.1")
    driver = _browser()
    try:
        with host.lock:
            state = session.game.state
        deals = [state, both_redealt(state, 1), both_redealt(state, 2)]
        assert len({secrets(s) for s in deals}) == 3, "each deal is another"
        _screen(driver, TV)
        driver.get(host.link("spectator"))
        wait = WebDriverWait(driver, WAIT)
        pages = []
        for deal in deals:
            with host.lock:
                session.game = Game(deal)
                version = host.version + 1
            host.changed()
            shown = str(version)
            wait.until(lambda d, v=shown: d.find_element(By.TAG_NAME, "body").get_attribute("data-version") == v,
                       f"screen {version}")
            pages.append(driver.execute_script("return document.getElementById('screen').outerHTML"))
        assert "data-blip" in pages[0] and "data-unit" in pages[0]
        assert pages[0] == pages[1] == pages[2], "the table screen draws something of a secret"
    finally:
        host.stop()
