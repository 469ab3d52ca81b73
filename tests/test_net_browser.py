"""The phone's hand in a real browser: headless Chromium from the distribution's packages (``apt-get install
chromium chromium-driver``; no browser is downloaded), driven by Selenium. Two hands at 390x844 and the table page
play the set-up and one round of a new battle: every private decision (the cards, the holding area, the blips, the
end of the round) is taken by tapping the hand's buttons; the public ones (the roles, the edge, the objectives, the
activations) are sent by each side's window, here a Python client of the same host.

``SEVEN_SECONDS_SCREENSHOTS=docs/images`` keeps the hand's screenshots there (the README shows them).
"""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import pytest

from referee import paths
from referee.game.battle.dice import SeededDice
from referee.net.client import RemoteSeat
from referee.net.host import Host
from referee.rules.scenario import load_scenario
from referee.service.battles import new_session
from referee.service.session import BattleSession

from .net_support import next_action
from .shared_browser import AWAKE, SharedBrowser, new_chromium, require_chromium
from .test_net_referee import TARGET, refereed
from .test_revealed_placement import battle, reveal
from .test_net_words import language  # noqa: F401 (a fixture: a made-up language with a catalogue)

require_chromium()

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

PHONE = (390, 844)
WAIT = 30


def _new_browser():
    driver = new_chromium(PHONE, *AWAKE)
    driver.set_window_size(*PHONE)
    return driver


_SHARED = SharedBrowser(_new_browser, PHONE)


@pytest.fixture(scope="module", autouse=True)
def _one_browser():
    """One Chromium for the module's tests, quit after the last."""
    yield
    _SHARED.quit()


def _browser():
    """The module's browser as a new one is: one blank tab of the starting size, no cookie of any page."""
    return _SHARED.fresh()


class Tabs:
    """The three pages in one browser: A's hand on 127.0.0.1, B's on localhost (each name its own cookie), the
    table page."""

    def __init__(self, driver, host: Host) -> None:
        self.driver = driver
        self.handles: dict[str, str] = {}
        port = host.port
        token = host.credentials.tokens
        for name, url in (("A", f"http://127.0.0.1:{port}/join/{token['A']}"),
                          ("B", f"http://localhost:{port}/join/{token['B']}"),
                          ("table", f"http://127.0.0.1:{port}/table")):
            if self.handles:
                driver.switch_to.new_window("tab")
            driver.get(url)
            self.handles[name] = driver.current_window_handle

    def show(self, name: str):
        self.driver.switch_to.window(self.handles[name])
        return self.driver

    def wait(self, name: str, ready, what: str):
        driver = self.show(name)
        return WebDriverWait(driver, WAIT).until(lambda d: ready(d), message=f"{name}: {what}")

    def tap(self, name: str, kind: str, label: str) -> None:
        """Tap the button ``label`` of the hand's decision ``kind``."""
        def button(d):
            for b in d.find_elements(By.CSS_SELECTOR, f'[data-kind="{kind}"] button'):
                if b.text.strip() == label and b.is_enabled():
                    return b
            return False
        def tapped(d):
            # A new screen may draw the decision again between finding its button and tapping it: find it again.
            try:
                found = button(d)
                if found:
                    # In the middle of the screen, as a thumb reaches it (not under the sticky header).
                    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", found)
                    found.click()
            except StaleElementReferenceException:
                return False
            return bool(found)
        self.wait(name, tapped, f"the {label!r} button of {kind}")

    def text(self, name: str) -> str:
        return self.show(name).find_element(By.TAG_NAME, "body").text


def _settled(seats: dict[str, RemoteSeat], version: int) -> None:
    for seat in seats.values():
        seat.wait_version(version)


def test_two_hands_and_the_table_page_play_the_set_up_and_one_round(tmp_path):
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), {"A": "council-of-zane", "B": "new-tokyo"},
                          autosaving=False)
    host = Host.start(session, bind="127.0.0.1")
    windows = {side: RemoteSeat(host.link(side)) for side in ("A", "B")}
    driver = _browser()
    shots = Path(os.environ.get("SEVEN_SECONDS_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    private_done: list[str] = []
    try:
        tabs = Tabs(driver, host)
        for side in ("A", "B"):
            tabs.wait(side, lambda d, s=side: f"Side {s}" in d.find_element(By.ID, "seat").text, "its seat")
        tabs.wait("table", lambda d: "connected" in d.find_element(By.ID, "status").text, "connected")
        placed_one: set[str] = set()
        activated: dict[str, bool] = {}
        for _step in range(200):
            with host.lock:
                phase, to_act, round_ = session.state.phase, session.to_act(), session.state.round
            if phase == "action" and round_ == 2 or phase == "over":
                break
            version = max(w.version for w in windows.values())
            _settled(windows, version)
            if phase == "end-of-round":
                for side in ("A", "B"):
                    tabs.tap(side, "end-of-round", "Play on")
                    private_done.append("end-of-round")
                windows["A"].wait_for(lambda s: s["view"]["phase"] != "end-of-round")
                continue
            side = to_act or "A"
            screen = windows[side].wait_version(version)
            legal = screen["legal"]
            private = [a for a in legal if a["private"]]
            if private:
                kind = private[0]["kind"]
                if kind == "draw-cards":
                    tabs.tap(side, kind, "Draw")
                elif kind == "choose-cards":
                    tabs.tap(side, kind, "Keep these")
                elif kind == "fill-holding":
                    tabs.tap(side, kind, "Put them there")
                    tabs.wait(side, lambda d: d.find_elements(By.CSS_SELECTOR, ".square:not(.empty)"), "filled")
                    if side == "A":
                        tabs.show("A").save_screenshot(str(shots / "hand-holding-area.png"))
                elif kind in ("place-blip", "place-blips"):
                    if side not in placed_one:
                        placed_one.add(side)
                        tabs.tap(side, "place-blip", "Place this blip")
                    else:
                        kind = "place-blips"
                        tabs.tap(side, kind, "Place all my blips for me")
                elif kind == "face":
                    tabs.tap(side, kind, "Face")
                else:
                    raise AssertionError(f"a private decision the test does not take: {kind}")
                private_done.append(kind)
            else:
                # Set-up: the first public step, placed for the side; the round: each side activates one unit, then
                # passes, so that the round ends soon (p.16).
                first = legal[0]
                if phase == "action" and any(a["kind"] == "end-turn" for a in legal) and activated.get(side):
                    first = next(a for a in legal if a["kind"] == "end-turn")
                action = {"kind": first["kind"], "actor": first["actor"], "args": dict(first["args"])} \
                    if phase == "setup" or first["kind"] == "end-turn" else next_action(screen)
                if action is not None and action["kind"] == "activate":
                    activated[side] = True
                assert action is not None, legal
                reply = windows[side].send({"kind": "action", "action": action})
                assert reply["ok"], reply
            windows["A"].wait_version(version + 1)
        with host.lock:
            assert session.state.round == 2 and session.state.phase == "action", session.state.phase
            missions = dict(session.state.missions)
        for kind in ("draw-cards", "fill-holding", "place-blip", "place-blips", "end-of-round"):
            assert kind in private_done, (kind, private_done)
        # Each hand shows its own mission and not the other's; the table page neither.
        titles = {side: windows[side].screen["cards_text"][missions[side]]["title"] for side in ("A", "B")}
        hand_a, hand_b, table = tabs.text("A"), tabs.text("B"), tabs.text("table")
        assert titles["A"] in hand_a and (titles["B"] not in hand_a or titles["A"] == titles["B"])
        assert titles["B"] in hand_b and (titles["A"] not in hand_b or titles["A"] == titles["B"])
        assert titles["A"] not in table and titles["B"] not in table
        assert "round 2" in table.lower()
        driver.set_window_size(*PHONE)
        tabs.show("A").execute_script("window.scrollTo(0, 0)")
        tabs.show("A").save_screenshot(str(shots / "hand-round-2.png"))
        tabs.show("A").execute_script("document.getElementById('blips').scrollIntoView()")
        tabs.show("A").save_screenshot(str(shots / "hand-blips.png"))
        tabs.show("table").save_screenshot(str(tmp_path / "table-page.png"))        # docs/images has table-screen.png
        for name in ("hand-holding-area.png", "hand-round-2.png", "hand-blips.png"):
            assert (shots / name).stat().st_size > 5000
    finally:
        for w in windows.values():
            w.close()
        host.stop()
    if shots != tmp_path:
        shutil.rmtree(tmp_path, ignore_errors=True)



def _to_the_blips(host: Host, windows: dict[str, RemoteSeat], side: str) -> None:
    """Set-up by the sides' windows (each step as the program offers it, the private ones too) until ``side`` places
    a blip; the other side's blips, and its own before its first turn of placing, are placed for them."""
    for _step in range(100):
        version = max(w.version for w in windows.values())
        _settled(windows, version)
        with host.lock:
            acting = host.session.to_act() or "A"
        legal = windows[acting].wait_version(version)["legal"][0]
        kind, args = legal["kind"], dict(legal["args"])
        if kind == "place-blip":
            if acting == side:
                return
            kind = "place-blips"
        elif kind == "choose-cards":
            args = {"mission": legal["free"]["mission"][0], "troop": legal["free"]["troop"][0]}
        reply = windows[acting].send({"kind": "action", "action": {"kind": kind, "actor": legal["actor"],
                                                                   "args": args}})
        assert reply["ok"], reply
        windows["A"].wait_version(version + 1)
    raise AssertionError(f"set-up never came to side {side}'s blips")


def _pixel(driver, board, view: dict, side: str, x: float, y: float) -> tuple[float, float]:
    """Where the table point (x, y) is drawn on ``side``'s map, in the page's pixels: from the map's box and its
    viewBox (scaled to fit, centred), the side's own edge at the bottom (side A's is y = 0, side B's the far one)."""
    left, top, width, height, vx, vy, vw, vh = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(), b = arguments[0].viewBox.baseVal;"
        "return [r.left, r.top, r.width, r.height, b.x, b.y, b.width, b.height];", board)
    scale = min(width / vw, height / vh)
    ox, oy = left + (width - vw * scale) / 2, top + (height - vh * scale) / 2
    width_in, height_in = view["table"]["width"], view["table"]["height"]
    mx, my = (width_in - x, y) if side == "B" else (x, height_in - y)
    return ox + (mx - vx) * scale, oy + (my - vy) * scale


def _tap(driver, board, px: float, py: float) -> None:
    """A tap on the map at the page's pixel (px, py), to the nearest whole pixel (the offset is from the map's in-view
    centre, which WebDriver takes at whole pixels, rounded down)."""
    left, top, width, height = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", board)
    centre = (math.floor(left + width / 2), math.floor(top + height / 2))
    ActionChains(driver).move_to_element_with_offset(board, round(px - centre[0]), round(py - centre[1])).click().perform()


@pytest.mark.usefixtures("language")
@pytest.mark.parametrize("side", ["A", "B"])
def test_a_blip_is_placed_where_the_map_is_tapped_and_a_refused_tap_loses_nothing(tmp_path, side):
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), {"A": "council-of-zane", "B": "new-tokyo"},
                          autosaving=False)
    host = Host.start(session, bind="127.0.0.1")
    windows = {s: RemoteSeat(host.link(s)) for s in ("A", "B")}
    driver = _browser()
    shots = Path(os.environ.get("SEVEN_SECONDS_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    try:
        _to_the_blips(host, windows, side)
        screen = windows[side].screen
        legal = next(a for a in screen["legal"] if a["kind"] == "place-blip")
        zone, view = legal["free"]["x, y"], screen["view"]
        square = legal["free"]["square"][-1]

        def preview(x: float, y: float) -> dict:
            args = {"x": x, "y": y, "square": square}
            return windows[side].ask("preview", action={"kind": "place-blip", "actor": side, "args": args})[
                "result"]["preview"]

        # A spot the engine takes, found by asking it (the middle of the zone first), and a spot it refuses: beside
        # the other side's edge.
        cx, cy = sum(zone["x"]) / 2, sum(zone["y"]) / 2
        spots = sorted(((cx + dx + 0.23, cy + dy + 0.27) for dx in range(-8, 9) for dy in (0, -1, 1, -2, 2)),
                       key=lambda p: abs(p[0] - cx) + abs(p[1] - cy))
        target = next(p for p in spots if preview(*p)["legal"])
        far = (cx, view["table"]["height"] - 2.0 if side == "A" else 2.0)
        driver.get(f"http://127.0.0.1:{host.port}/join/{host.credentials.tokens[side]}")
        wait = WebDriverWait(driver, WAIT)
        form = '[data-kind="place-blip"]'
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{form} select"), "the blip's form")
        Select(driver.find_element(By.CSS_SELECTOR, f"{form} select")).select_by_value(str(square))
        board = driver.find_element(By.ID, "map")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", board)
        with host.lock:
            before = {b.id for b in session.state.blips.values()}
        _tap(driver, board, *_pixel(driver, board, view, side, *far))
        refused = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#notice.error").text, "the refusal")
        # The engine's own reason for the point the form now holds (the point tapped, to the tenth).
        x, y = (float(driver.find_element(By.CSS_SELECTOR, f'{form} input[aria-label="{a}"]').get_attribute("value"))
                for a in ("x in inches", "y in inches"))
        assert math.hypot(x - far[0], y - far[1]) <= 0.15, (x, y, far)
        assert refused == preview(x, y)["reason"], refused
        with host.lock:
            assert {b.id for b in session.state.blips.values()} == before, "a refused tap places nothing"
        kept = Select(driver.find_element(By.CSS_SELECTOR, f"{form} select"))
        assert kept.first_selected_option.get_attribute("value") == str(square), "the square chosen is kept"
        board = driver.find_element(By.ID, "map")
        _tap(driver, board, *_pixel(driver, board, view, side, *target))

        def placed(_d):
            with host.lock:
                return [b for b in session.state.blips.values() if b.id not in before]
        (blip,) = wait.until(placed, "the blip tapped")
        assert blip.side == side and blip.square == square
        miss = math.hypot(blip.x - target[0], blip.y - target[1])
        assert miss <= 0.15, (blip.x, blip.y, target, miss)
        assert round(blip.x * 10, 6) % 1 == 0 and round(blip.y * 10, 6) % 1 == 0, "a tap goes to the tenth"
        # The hand shows it on the map, numbered by its square.
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#map [data-blip="{blip.id}"]'), "the blip on the map")
        assert driver.find_element(By.CSS_SELECTOR, f'#map [data-blip="{blip.id}"] text').text == str(square)
        shot = shots / "hand-map.png" if side == "A" else tmp_path / "hand-map-B.png"      # the docs show A's
        driver.save_screenshot(str(shot))
        assert shot.stat().st_size > 5000
        # The same page in a language with a catalogue shows its words.
        driver.get(f"http://127.0.0.1:{host.port}/hand?lang=xx")
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#blips h2").get_attribute("textContent") == "YOUR BLIPS",
                   "the page in the catalogue's language")
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "xx"
        wait.until(lambda d: f"SIDE {side}" in d.find_element(By.ID, "seat").text, "the seat in that language")
    finally:
        for w in windows.values():
            w.close()
        host.stop()


def test_troopers_just_revealed_are_placed_and_faced_by_tapping_the_map(tmp_path):
    """Side B's blip holding two tacticals is revealed (tests/test_revealed_placement.py): on B's hand the second is
    placed where the map is tapped, touching the first (A66), facing away from it; the first faces the point tapped
    (A13). Two decisions take a point: **Use the map** gives the map to the one tapped."""
    game = battle()
    reveal(game)
    session = BattleSession(game, SeededDice(1), hotseat=False, autosaving=False)
    host = Host.start(session, bind="127.0.0.1")
    driver = _browser()
    try:
        with host.lock:
            view = host.desk.screen_data("B")["view"]
            b1 = dict(next(u for u in view["units"] if u["id"] == "b1"))
            base_b2 = next(u for u in view["units"] if u["id"] == "b2")["base"]
        driver.get(f"http://127.0.0.1:{host.port}/join/{host.credentials.tokens['B']}")
        wait = WebDriverWait(driver, WAIT)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, '[data-kind="face"]')) == 2, "two troopers to face")
        # b2 first: its decision's "Use the map", then a tap 3" north of b1 (towards side B's edge).
        use = driver.find_element(By.CSS_SELECTOR, '[data-kind="face"][data-actor="b2"] button.map-choice')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", use)
        use.click()
        board = driver.find_element(By.ID, "map")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", board)
        shots = Path(os.environ.get("SEVEN_SECONDS_SCREENSHOTS", tmp_path))
        shots.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(shots / "hand-map-face.png"))
        assert (shots / "hand-map-face.png").stat().st_size > 5000
        _tap(driver, board, *_pixel(driver, board, view, "B", b1["x"], b1["y"] + 3))

        def placed(_d):
            with host.lock:
                return "b2" not in session.state.to_place and session.state.units["b2"]
        b2 = wait.until(placed, "b2 placed")
        gap = math.hypot(b2.x - b1["x"], b2.y - b1["y"]) - (b1["base"] + base_b2) / 2
        assert abs(gap) <= 0.01, gap                                      # touching b1 (A66)
        assert math.degrees(math.atan2(b2.y - b1["y"], b2.x - b1["x"])) == pytest.approx(90, abs=3)
        assert b2.facing == pytest.approx(90, abs=3)                        # facing away from b1
        # Then b1 (the map goes back to the decision left): a tap 4" east of it faces it east.
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, '[data-kind="face"]')) == 1, "b1 left to face")
        board = driver.find_element(By.ID, "map")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", board)
        _tap(driver, board, *_pixel(driver, board, view, "B", b1["x"] + 4, b1["y"]))

        def faced(_d):
            with host.lock:
                return "b1" not in session.state.to_face and (session.state.units["b1"].facing,)
        (facing,) = wait.until(faced, "b1 faced")
        assert min(facing, 360 - facing) <= 3, facing
    finally:
        host.stop()


def test_a_refereed_blip_is_told_and_a_mission_entered_on_the_hand(tmp_path):
    """A refereed physical game served (tests/test_net_referee.py): side A's Target reveals b-blip-1 and side B's
    hand asks what it holds; B chooses a veteran tactical and taps **That is what it holds**, and the Target goes on;
    then B enters its mission card on the same hand."""
    session = refereed()
    host = Host.start(session, bind="127.0.0.1")
    driver = _browser()
    a = RemoteSeat(host.link("A"))
    try:
        driver.get(f"http://127.0.0.1:{host.port}/join/{host.credentials.tokens['B']}")
        wait = WebDriverWait(driver, WAIT)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-kind="mission"]'), "B's mission entry")
        assert a.act("activate", "a-tactical-1")["ok"]
        assert a.send({**TARGET, "dice": [6, 6, 6]})["result"]["contents_asked"]["blip"] == "b-blip-1"
        shots = Path(os.environ.get("SEVEN_SECONDS_SCREENSHOTS", tmp_path))
        shots.mkdir(parents=True, exist_ok=True)
        wait.until(lambda d: _fill(d, "contents", 'select[data-unit="0"]', "tactical", shots / "hand-referee-contents.png",
                                   "That is what it holds"), "B tells what b-blip-1 holds")

        def revealed(_d):
            with host.lock:
                return "b-blip-1" not in session.state.blips and session.state.units.get("b-tactical-3")
        unit = wait.until(revealed, "b-blip-1 revealed")
        assert unit.type == "tactical" and unit.rating == "veteran"
        wait.until(lambda d: _fill(d, "mission", "select", "hold-the-line", shots / "hand-referee-mission.png",
                                   "Enter it"), "B enters its mission")

        def entered(_d):
            with host.lock:
                return session.state.missions.get("B")
        assert wait.until(entered, "B's mission entered") == "hold-the-line"
    finally:
        a.close()
        host.stop()


def _fill(driver, kind: str, select: str, value: str, shot: Path, label: str) -> bool:
    """Choose ``value`` in the decision ``kind``'s ``select``, keep a screenshot, tap ``label``; False when a new
    screen drew the decision again meanwhile (tried again)."""
    try:
        box = driver.find_element(By.CSS_SELECTOR, f'[data-kind="{kind}"]')
        driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", box)
        Select(box.find_element(By.CSS_SELECTOR, select)).select_by_value(value)
        driver.save_screenshot(str(shot))
        next(b for b in box.find_elements(By.TAG_NAME, "button") if b.text == label).click()
    except (StaleElementReferenceException, NoSuchElementException):
        return False
    return True
