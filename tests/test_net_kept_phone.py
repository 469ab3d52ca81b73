"""A side that keeps its secrets on its phone (``net/static/kept.js``): side B plays a battle hosted with
``kept_by=("B",)`` from the phone's hand page in a real browser (headless Chromium, driven by Selenium; skipped
without them), side A from a Python seat. B's page draws B's cards, fills its holding area and commits it, keeps its
dice contribution and answers every share, every square and, at the end, its cards and contribution by itself. After
set-up the host's memory and every file it wrote hold none of what B's phone keeps (salts, contribution, cards); B's
page shows B its own mission, cards and squares; B's reveal waits for its phone and goes on; at the end the battle is
scored with no breach, B's mission the one its phone drew. A ``seven-seconds host`` process dumped after B's phone
set up holds none of it either; and a battle the window serves to two phones, each keeping its own side's secrets,
is played to its score."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from referee import paths
from referee.game.battle.action_kinds import Kind
from referee.game.battle.commit import arrangement_problems, blip_commitment, cards_commitment, square_commitment
from referee.game.battle import kept_cards
from referee.game.battle.cards import playing_deck
from referee.game.battle.dice import Contribution, dice_share
from referee.game.battle.missions import mission_of
from referee.game.battle.scoring import score_mission
from referee.game.play.victory import battle_outcome
from referee.net.client import RemoteSeat
from referee.net.host import Host
from referee.net.keeper import Keeper
from referee.rules.scenario import load_scenario
from referee.service.battles import new_session

from .net_support import next_action
from .shared_browser import AWAKE, new_chromium, require_chromium
from .test_net_cli import host_process
from .test_net_kept import FACTIONS, assert_dump_holds_none, fresh, host_files, host_memory, setup_action

require_chromium()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

WAIT = 30
PHONE = (390, 844)
# The page has loaded (its scripts run: a page still loading has no ``kept``), made its keeper and has a screen.
READY = "return typeof kept === 'object' && !!(kept.keeper && state.screen)"


@pytest.fixture(scope="module")
def driver():
    browser = new_chromium(PHONE, *AWAKE)
    try:
        yield browser
    finally:
        browser.quit()


class Phone:
    """B's hand page: its screen as the page shows it, its actions sent as its buttons send them."""

    def __init__(self, driver, host: Host | str) -> None:
        self.driver = driver
        driver.get(host if isinstance(host, str) else f"http://127.0.0.1:{host.port}/join/{host.credentials.tokens['B']}")
        self.until(lambda d: d.execute_script(READY), "the keeper made")

    def until(self, ready, what: str, wait: float = WAIT):
        return WebDriverWait(self.driver, wait, poll_frequency=0.05).until(ready, message=f"B's phone: {what}")

    def screen(self) -> dict[str, Any]:
        return dict(self.driver.execute_script("return state.screen"))

    def kept(self) -> dict[str, Any]:
        """What the phone keeps, as its storage holds it."""
        text = self.driver.execute_script("return localStorage.getItem(kept.keeper.key)")
        return dict(json.loads(text))

    def settled(self) -> None:
        """Every intent the page sent is answered."""
        self.until(lambda d: d.execute_script("return state.outbox.size === 0"), "its intents answered")

    def act(self, action: dict[str, Any]) -> str:
        """``action`` sent as the page's buttons send it; the notice it then shows (a refusal's reason)."""
        self.driver.execute_script("act(arguments[0], arguments[1], arguments[2])", action["kind"],
                                   action.get("actor", ""), action.get("args") or {})
        self.settled()
        return str(self.driver.execute_script(
            "const n = document.getElementById('notice'); return n.classList.contains('error') ? n.textContent : ''"))

    def tap(self, kind: str, word: str) -> None:
        """Tap the button of decision ``kind`` whose words are the page's ``word``."""
        label = self.driver.execute_script("return t(arguments[0])", word)

        def tapped(d) -> bool:
            for button in d.find_elements(By.CSS_SELECTOR, f'[data-kind="{kind}"] button'):
                if button.text.strip() == label and button.is_enabled():
                    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
                    button.click()
                    return True
            return False
        self.until(tapped, f"the {label!r} button of {kind}")
        self.settled()


def b_turn(phone: Phone, session, host) -> bool:
    """Whether the battle waits for B's phone to act (the page showing the screen of now)."""
    with host.lock:
        side = session.to_act()
        version = host.version
    if side != "B":
        return False
    phone.until(lambda d: d.execute_script("return state.version") >= version, "the screen of now")
    return True


def set_up(session, host, a: RemoteSeat, phone: Phone) -> int | None:
    """A sets up from its seat, B from its phone: its cards drawn and its holding area filled by tapping, its first
    blip placed for a square chosen on the phone, the others by the program. The square chosen."""
    chosen = None
    for _ in range(200):
        with host.lock:
            if session.state.phase != "setup":
                return chosen
        if not b_turn(phone, session, host):
            assert a.send({"kind": "action", "action": setup_action(fresh(a))})["ok"]
            continue
        legal = {legal["kind"]: legal for legal in phone.screen()["legal"]}
        if Kind.PLACE_BLIP in legal and chosen is None:
            free = legal[Kind.PLACE_BLIP]["free"]
            chosen = free["square"][-1]            # the phone lists the squares its counters stand for
            (x0, x1), (y0, y1) = free["x, y"]["x"], free["x, y"]["y"]
            # The first of a few spots across the zone that no piece stands too near (the host says which not).
            spots = [(round(x0 + (x1 - x0) * i / 6, 1), round(y0 + (y1 - y0) * j / 4, 1))
                     for j in (2, 1, 3) for i in range(1, 6)]
            assert any(phone.act({"kind": Kind.PLACE_BLIP, "actor": legal[Kind.PLACE_BLIP]["actor"],
                                  "args": {"square": chosen, "x": x, "y": y}}) == "" for x, y in spots)
        else:
            sets_up(phone)
    raise AssertionError("set-up did not end")


def sets_up(phone: Phone) -> None:
    """The phone's set-up decision now, as set_up makes B's (its cards and holding area by tapping)."""
    legal = {legal["kind"] for legal in phone.screen()["legal"]}
    if Kind.DRAW_CARDS in legal:
        phone.tap(Kind.DRAW_CARDS, "draw")
        if phone.driver.find_elements(By.CSS_SELECTOR, '[data-kind="draw-cards"] input[name="mission"]'):
            phone.tap(Kind.DRAW_CARDS, "keep_these")      # a Chance Encounter: the cards drawn, no drone bought
    elif Kind.FILL_HOLDING in legal:
        phone.tap(Kind.FILL_HOLDING, "fill_for_me")
    else:
        assert phone.act(setup_action(phone.screen())) == ""


def quick_action(screen: dict[str, Any]) -> dict[str, Any] | None:
    """An action that brings the round to its end soonest: the turn ended where it may be, else as ``next_action``."""
    end = next((legal for legal in screen["legal"] if legal["kind"] == Kind.END_TURN), None) if screen["acting"] \
        else None
    return {"kind": end["kind"], "actor": end["actor"], "args": dict(end["args"])} if end else next_action(screen)


def secrets_of(kept: dict[str, Any]) -> list[str]:
    """Every salt the phone keeps, its dice contribution and its cards' salt: what the host must never hold."""
    found = [salt for _units, salt in kept["squares"].values()] + [salt for _n, salt in kept["blips"].values()]
    return found + list(kept["dice"]) + [kept["cards"]["salt"]]


def test_a_side_kept_on_its_phone_plays_a_whole_battle_and_the_host_never_holds_its_secrets(driver):
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS)
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",), rate=1000.0, burst=1000.0)
    a = RemoteSeat(host.link("A"))
    try:
        phone = Phone(driver, host)
        chosen = set_up(session, host, a, phone)
        kept = phone.kept()
        # The counter placed for the square chosen on the phone stands for it there; the host has a stand-in.
        assert chosen is not None
        with host.lock:
            first = next(b.id for b in sorted(session.state.blips.values(), key=lambda b: b.id)
                         if b.side == "B" and b.square == 1)
        mine = next(b for b in phone.screen()["view"]["blips"] if b["id"] == first)
        assert mine["square"] == chosen and mine["contents"] == kept["squares"][str(chosen)][0]
        assert len(kept["squares"]) == 16 and len(kept["blips"]) == 16 and kept["cards"]["issued"]
        # The host holds B's commitments and nothing they commit to.
        with host.lock:
            state = session.state
            assert set(state.square_commitments["B"]) == {str(n) for n in range(1, 17)}
            assert all(content is None for content in state.holding["B"].squares.values())
            assert state.missions.get("B") is None and state.card_commitments["B"]["committed"]
            memory = host_memory(session, host)
        written = "".join(p.read_text(encoding="utf-8", errors="replace") for p in host_files())
        hidden = secrets_of(kept)
        assert len(hidden) == 16 + 16 + 2 + 1
        assert [s for s in hidden if s in memory or s in written] == []
        issued = {u["id"] for u in kept["cards"]["issued"]}
        assert issued and not any(i in memory for i in issued if i.startswith("b-"))
        # B's own page shows B what the host does not hold: its mission and its squares' units.
        mission_title = phone.screen()["cards_text"][kept["cards"]["mission"]]["title"]
        text = driver.find_element(By.TAG_NAME, "body").text
        assert mission_title in text
        held, units = next((n, units) for n, (units, _salt) in kept["squares"].items() if units)
        shown = units[0]["type"].replace("-", " ").title()
        assert shown in driver.find_element(By.CSS_SELECTOR, f'#squares [data-square="{held}"]').text
        shots = os.environ.get("SEVEN_SECONDS_SCREENSHOTS")
        if shots:
            driver.set_window_size(PHONE[0], 2400)
            driver.save_screenshot(str(Path(shots) / "phone-kept-side.png"))
            driver.set_window_size(*PHONE)
        # The page loaded again (the phone's browser closed, the page opened again) reads its side's secrets back.
        driver.refresh()
        phone.until(lambda d: d.execute_script(READY), "the keeper made again")
        assert phone.kept() == kept
        phone.until(lambda d: shown in d.find_element(
            By.CSS_SELECTOR, f'#squares [data-square="{held}"]').text, "its squares shown again")

        # Round 1: B reveals one of its blips once it may; its phone opens the square and the reveal goes on.
        revealed = None
        for _ in range(400):
            with host.lock:
                if session.over:
                    break
                phase = session.state.phase
            if phase == "end-of-round":
                assert a.send({"kind": "action", "action": {"kind": Kind.END_OF_ROUND, "actor": "",
                                                           "args": {"stop": True}}})["ok"]
                phone.until(lambda d: d.execute_script(
                    "return state.screen.legal.some((l) => l.kind === 'end-of-round')"), "the end of the round")
                assert phone.act({"kind": Kind.END_OF_ROUND, "actor": "", "args": {"stop": True}}) == ""
                continue
            if not b_turn(phone, session, host):
                action = quick_action(fresh(a))
                assert action is not None and a.send({"kind": "action", "action": action})["ok"]
                continue
            screen = phone.screen()
            reveal = next((r for r in screen["legal"] if r["kind"] == Kind.REVEAL), None)
            if revealed is None and reveal is not None:
                revealed = reveal["actor"]
                counter = next(b for b in screen["view"]["blips"] if b["id"] == revealed)
                assert phone.act({"kind": Kind.REVEAL, "actor": revealed, "args": dict(reveal["args"])}) == ""

                def opened_at_host(_d):
                    # The reveal is answered first; the phone then sends the square the host asked it to open.
                    with host.lock:
                        return [e.action for e in session.game.record if e.action.kind == Kind.CONTENTS]

                opened = phone.until(opened_at_host, "the square opened at the host")
                assert [o.actor for o in opened] == [revealed]
                # The square its phone showed for the counter is the one opened, with the units it showed.
                assert opened[0].args["square"] == counter["square"]
                assert [u["id"] for u in opened[0].args["contents"]] == [u["id"] for u in counter["contents"]]
                continue
            action = next_action(screen) if revealed is None else quick_action(screen)
            assert action is not None
            assert phone.act(action) == ""
        else:
            raise AssertionError("the battle did not end")
        assert revealed is not None, "B never came to reveal a blip"
        with host.lock:
            # The table's dice were rolled with B's shares, each sent by its phone when asked.
            shared = [e for e in session.game.record if e.shares.get("B")]
        assert len(shared) >= 3

        # The end: B's phone opens every square still hidden, then its cards and contribution; the battle is scored.
        def scored(_d) -> bool:
            with host.lock:
                result = session.state.result
                return result is not None and result.level != "no result" and not session.scored_when_opened()
        phone.until(scored, "the battle scored")
        phone.until(lambda d: d.execute_script("return !state.screen.open_cards && !state.screen.open_dice"),
                    "its cards and dice opened")
        with host.lock:
            state = session.state
            assert not state.breaches, state.breaches
            assert state.missions["B"] == kept["cards"]["mission"] and state.cards["B"].troop == kept["cards"]["troop"]
            assert state.card_commitments["B"]["checked"]
            assert sorted(u["id"] for u in state.card_commitments["B"]["opened"]) == sorted(issued)
            want = score_mission(mission_of(state, "B"), "B", battle_outcome(state)).vp
            assert state.result.vp["B"] == want
            assert not any(line.startswith("BREACH") for line in state.result.explain)
        assert phone.kept()["dice"] == kept["dice"]
    finally:
        a.close()
        host.stop()


# The phone's keeper alone, in the page, with a storage of its own: what it answers the host and what it refuses.
KEEPER = """
const store = new Map();
const storage = { getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, v),
                  removeItem: (k) => store.delete(k) };
const [battle, steps] = [arguments[0], arguments[1]];
const keeper = new Kept.Keeper("B", battle, kept.deck, storage);
const out = [];
for (const [what, input] of steps) {
  try {
    if (what === "answer") out.push(keeper.answer(input));
    else if (what === "taken-back") out.push(keeper.takenBack() || null);
    else if (what === "commit") out.push(keeper.commit(input[0], input[1], input[2]));
    else if (what === "scramble") out.push(keeper.scramble(input[0], input[1]));
    else if (what === "bought") out.push(keeper.bought(input[0], input[1], keeper.purchase(input[2])));
    else if (what === "draw") out.push(keeper.drawCards(input[0], input[1]));
    else if (what === "problems") out.push(keeper.problems.slice());
    else if (what === "open-slot") {
      // The host's ask at the reveal of the counter placed ``input``-th: by the commitment it was sent for it.
      const committed = keeper.commitment(...keeper.blips[input]);
      out.push(keeper.answer({ seat: "B", open_square: { blip: "b-blip-X", committed: committed } }));
    }
  } catch (e) { out.push({ error: e.message }); }
}
return JSON.stringify({ out: out, problems: keeper.problems, kept: JSON.parse(storage.getItem(keeper.key)) });
"""


def test_the_phones_keeper_answers_one_action_a_place_and_opens_only_what_it_committed(driver, tmp_path):
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS)
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",))
    try:
        Phone(driver, host)
        battle = "5a" * 32
        issued = [{"id": f"b-tactical-{n}", "type": "tactical", "rating": "veteran"} for n in range(1, 4)]
        setup = {"view": {"setup": {"issued": {"B": issued}, "factions": {"B": "new-tokyo"}}}}
        arrangement = {"3": ["b-tactical-1", "b-tactical-2"], "9": ["b-tactical-3"]}
        order = list(range(16, 0, -1))
        asks = [("answer", {"seat": "B", "dice_commitment_asked": True})]
        for moment, start, count in (("action 12|rifle a-asl", 0, 16), ("action 12|rifle a-asl", 16, 16),
                                     ("action 12|missile a-asl", 0, 16),      # a second action at the same place
                                     ("action 11|move a-asl", 0, 16),         # an earlier place
                                     ("action 13|move a-asl", 0, 1000),       # more than any action draws
                                     ("action 13|move a-asl", 0, 16)):
            asks.append(("answer", {"seat": "B", "dice_shares_asked": {"moment": moment, "from": start, "count": count}}))
        asks.insert(6, ("problems", None))          # the three refused, said until an ask is answered
        asks += [("problems", None), ("taken-back", None),
                 ("answer", {"seat": "B", "dice_shares_asked": {"moment": "action 13|jump a-asl", "from": 0,
                                                                "count": 16}}),
                 ("commit", [setup, {"3": ["b-tactical-1", "b-tactical-2", "b-tactical-3"]}, order]),   # 3 in one
                 ("commit", [setup, arrangement, order])]
        got = json.loads(driver.execute_script(KEEPER, battle, asks))
        out, kept = got["out"], got["kept"]
        value, salt = kept["dice"]
        assert out[0] == {"kind": "dice-commitment", "commitment": Contribution("B", value, salt).commitment}
        assert out[1]["shares"] == [dice_share("B", value, "action 12|rifle a-asl", n) for n in range(16)]
        assert out[2]["shares"] == [dice_share("B", value, "action 12|rifle a-asl", n) for n in range(16, 32)]
        assert [o["kind"] for o in out[3:6]] == ["dice-refused"] * 3             # said to the host, with the reason
        assert [o["reason"] for o in out[3:6]] == out[6]
        assert out[7]["shares"][0] == dice_share("B", value, "action 13|move a-asl", 0)
        assert out[8] == []                                     # answered: the refusals are behind the battle
        assert out[10]["shares"][0] == dice_share("B", value, "action 13|jump a-asl", 0)   # freed by the take-back
        # The same asks refused with the same reasons as a joined computer's keeper refuses them.
        python = Keeper("B", battle, pin="b-pin-4711", folder=tmp_path)
        python.dice = (value, salt)
        for _what, ask in asks[:6]:
            python.dice_answer(ask)
        assert out[6] == python.problems and len(python.problems) == 3
        assert out[11]["error"] == "; ".join(arrangement_problems("B", [u["id"] for u in issued], asks[11][1][1]))
        committed, counters = out[12]
        for n in range(1, 17):
            units, square_salt = kept["squares"][str(n)]
            assert committed[str(n)] == square_commitment(battle, "B", n, units, square_salt)
            assert [u["id"] for u in units] == arrangement.get(str(n), [])
            assert all(u["faction"] == "new-tokyo" and u["side"] == "B" for u in units)
        for slot, square in enumerate(order, start=1):
            n, counter_salt = kept["blips"][str(slot)]
            assert n == square and counters[str(slot)] == blip_commitment(battle, "B", square, counter_salt)
        # A reveal: the counter's commitment opens its square; a commitment it never made opens nothing.
        forged = {"seat": "B", "open_square": {"blip": "b-blip-X", "committed": counters["14"]}}   # another run's
        steps = [("commit", [setup, arrangement, order]), ("open-slot", 14), ("answer", forged)]
        got = json.loads(driver.execute_script(KEEPER, battle, steps))
        opened, forged = got["out"][1], got["out"][2]
        assert forged is None
        assert opened["square"] == 3 and [u["id"] for u in opened["contents"]] == ["b-tactical-1", "b-tactical-2"]
        assert opened["salt"] == got["kept"]["squares"]["3"][1]
        assert opened["square_salt"] == got["kept"]["blips"]["14"][1]
        # A Scramble chosen on the phone: the unit in the square chosen among the three lowest the host fills, a
        # commitment for each of them and for each new counter.
        unit = {"id": "b-tactical-3", "side": "B", "faction": "new-tokyo", "rating": "veteran", "type": "tactical"}
        screen = {"view": {"units": [unit]}, "scramble": {"b-tactical-3": [17, 18, 19, 21]}}
        steps = [("commit", [setup, arrangement, order]),
                 ("scramble", [screen, {"kind": "scramble", "actor": "b-tactical-3", "args": {"square": 18}}])]
        got = json.loads(driver.execute_script(KEEPER, battle, steps))
        action, kept = got["out"][1], got["kept"]
        assert "square" not in action["args"] and sorted(action["args"]["committed"]) == ["17", "18", "19"]
        assert [u["id"] for u in kept["squares"]["18"][0]] == ["b-tactical-3"]
        assert kept["squares"]["17"][0] == [] and kept["squares"]["19"][0] == []
        for n in (17, 18, 19):
            assert action["args"]["committed"][str(n)] == square_commitment(battle, "B", n, *kept["squares"][str(n)])
        news = [kept["blips"][str(k)] for k in (17, 18, 19)]
        assert sorted(n for n, _salt in news) == [17, 18, 19]
        assert [action["args"]["blips_committed"][str(k)] for k in (1, 2, 3)] == [
            blip_commitment(battle, "B", n, s) for n, s in news]
    finally:
        host.stop()


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="no /proc to read a process's memory from")
def test_a_host_process_dumped_after_set_up_holds_none_of_what_the_phone_keeps(driver, tmp_path):
    proc, links, lines = host_process(["pastoral-hills", "--factions", "council-of-zane,new-tokyo", "--kept-by", "B",
                                       "--no-qr"], tmp_path / "host")
    assert any("Side B keeps its secrets on its own device" in line for line in lines), lines
    a = RemoteSeat(links["A"])
    try:
        phone = Phone(driver, links["B"])
        for _ in range(200):
            screen = fresh(a)
            if screen["view"]["phase"] != "setup":
                break
            if screen["acting"]:
                assert a.send({"kind": "action", "action": setup_action(screen)})["ok"]
                continue
            phone.until(lambda d: d.execute_script("return state.screen.acting"), "its turn to set up")
            sets_up(phone)
        assert fresh(a)["view"]["phase"] != "setup"
        kept = phone.kept()
        # (The units B's cards issue are not looked for: the host served the force of every card of the deck, so
        # its memory holds each one; which is B's is shut in the commitment to B's cards, whose salt is looked for.)
        hidden = [s.encode() for s in secrets_of(kept)]
        committed = [c.encode() for c in fresh(a)["view"]["square_commitments"]["B"].values()]
        committed.append(fresh(a)["view"]["card_commitments"]["B"]["committed"].encode())
        assert_dump_holds_none(proc, tmp_path / "host", a, committed, hidden)
    finally:
        a.close()
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)


def test_a_window_serves_a_new_battle_to_two_phones_that_each_keep_their_own_secrets(driver):
    """The window's new battle for phones, each player's secrets on their own phone (the form's first offer): the
    window is the shared table while both hands set their sides up, every die of it rolled with both phones' shares;
    then the window's process holds none of either phone's salts, and each phone shows its own side. (A battle so kept
    is played to its score in the whole-battle test above.)"""
    # Lazy: the window only for this test (the others need no pygame).
    from referee.service.new_battle import start_battle
    from referee.ui import hosting
    from referee.ui.app import App

    app = App((1280, 800))
    session = start_battle(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS)
    table = hosting.serve(app, session, bind="127.0.0.1", kept_by=("A", "B"))
    assert not isinstance(table, str), table
    host = table.public.host
    tabs, phones = {}, {}
    try:
        # Two origins (127.0.0.1 and localhost): each phone's cookie and storage its own.
        for side, name in (("A", "127.0.0.1"), ("B", "localhost")):
            if tabs:
                driver.switch_to.new_window("tab")
            tabs[side] = driver.current_window_handle
            phones[side] = Phone(driver, f"http://{name}:{host.port}/join/{host.credentials.tokens[side]}")
        for _ in range(200):
            app.step(1 / 30, events=[])
            app.render()
            with host.lock:
                side, phase = session.to_act(), session.state.phase
            if phase != "setup":
                break
            if side is None:
                continue
            driver.switch_to.window(tabs[side])
            with host.lock:
                version = host.version
            phone = phones[side]
            phone.until(lambda d, now=version: d.execute_script("return state.version") >= now, "the screen of now")
            sets_up(phone)
        else:
            raise AssertionError("set-up did not end")
        with host.lock:
            memory = host_memory(session, host)
            assert all(session.state.square_commitments[s] and session.state.missions.get(s) is None for s in "AB")
            rolled = [e for e in session.game.record if e.shares]
        assert rolled and all(set(e.shares) == {"A", "B"} for e in rolled)     # every die: both phones' shares
        for s in "AB":
            driver.switch_to.window(tabs[s])
            kept = phones[s].kept()
            found = secrets_of(kept)
            assert len(found) == 35 and [x for x in found if x in memory] == []
            held, units = next((n, units) for n, (units, _salt) in kept["squares"].items() if units)
            shown = units[0]["type"].replace("-", " ").title()
            assert shown in driver.find_element(By.CSS_SELECTOR, f'#squares [data-square="{held}"]').text
    finally:
        for handle in list(tabs.values())[1:]:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(next(iter(tabs.values())))
        host.stop()


def test_a_streaks_choice_of_cards_is_made_on_the_phone_before_anything_is_sent(driver):
    """At a winning streak of 3 (A47) B's phone draws two missions and two troop cards and asks which to keep: the
    second of each is tapped, and only the commitment to them goes to the host, which never offers a choice itself."""
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS, {"B": 3})
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",), rate=1000.0, burst=1000.0)
    a = RemoteSeat(host.link("A"))
    try:
        phone = Phone(driver, host)
        for _ in range(100):
            if not b_turn(phone, session, host):
                assert a.send({"kind": "action", "action": setup_action(fresh(a))})["ok"]
            elif any(legal["kind"] == Kind.DRAW_CARDS for legal in phone.screen()["legal"]):
                break
            else:
                sets_up(phone)
        phone.tap(Kind.DRAW_CARDS, "draw")
        # The choice, on the phone: two missions with their words, two troop cards; the host has been sent nothing.
        phone.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, 'input[name="mission"]')) == 2, "the choice")
        missions = [e.get_attribute("value") for e in driver.find_elements(By.CSS_SELECTOR, 'input[name="mission"]')]
        troops = [e.get_attribute("value") for e in driver.find_elements(By.CSS_SELECTOR, 'input[name="troop"]')]
        assert len(set(missions)) == 2 and len(set(troops)) == 2
        with host.lock:
            assert session.state.card_commitments.get("B", {}).get("committed") is None
        for name, ident in (("mission", missions[1]), ("troop", troops[1])):
            driver.find_element(By.CSS_SELECTOR, f'input[name="{name}"][value="{ident}"]').click()
        phone.tap(Kind.DRAW_CARDS, "keep_these")
        kept = phone.kept()
        assert (kept["cards"]["mission"], kept["cards"]["troop"]) == (missions[1], troops[1])
        with host.lock:
            draw = session.state.card_commitments["B"]["draw"]
            assert session.state.card_commitments["B"]["committed"]
            assert session.state.missions.get("B") is None
            assert not any(e.action.kind == Kind.CHOOSE_CARDS for e in session.game.record)
        # The two of each were the draw's, as the host will draw them again from B's contribution at the end.
        offer = kept_cards.offer_of(draw, "B", kept["dice"][0])
        assert sorted(offer.missions) == sorted(missions) and sorted(offer.troops) == sorted(troops)
    finally:
        a.close()
        host.stop()


def test_a_chance_encounters_drones_bought_on_the_phone_are_checked_and_issued_as_the_engine_does(driver):
    """The drones a phone buys in a Chance Encounter (p.~15, A42) in place of its Drone card line: every troop card
    at every line, with purchases within and beyond its points, the figure pool and the Holding Area, and types that
    are no drone. The phone refuses what ``cards.purchase_problems`` refuses, in its words, and issues what
    ``kept_cards.hand_of`` issues, each unit named as set-up names it."""
    deck = playing_deck()
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS)
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",))
    try:
        Phone(driver, host)
        purchases = [{}, {"basic-drone": 1}, {"recce-drone": 1, "basic-drone": 2}, {"kamikaze-drone": 4},
                     {"haywire-drone": 2, "kamikaze-drone": 2}, {"basic-drone": 6}, {"recce-drone": 9},
                     {"tactical": 1}, {"no-such-drone": 1, "basic-drone": 1}, {"basic-drone": 0}]
        cases, expected = [], []
        for troop in deck.troop_cards:
            for mission in {m.troop_line: m for m in deck.mission_cards}.values():
                for bought in purchases:
                    cases.append(("bought", [troop.id, mission.troop_line, bought]))
                    offer = kept_cards.Offer((mission.id,), (troop.id,), deck.drone_cards[0].id)
                    try:
                        hand = kept_cards.hand_of(deck, "B", offer, mission.id, troop.id, dict(sorted(bought.items())),
                                                  chance_encounter=True)
                        expected.append([dict(u) for u in hand.issued])
                    except ValueError as e:
                        expected.append({"error": str(e)})
        got = json.loads(driver.execute_script(KEEPER, "5a" * 32, cases))["out"]
        assert got == expected
        refused = [e for e in expected if isinstance(e, dict)]
        assert len(refused) >= 3 * len(deck.troop_cards) and any("figure pool" in e["error"] for e in refused)
        assert any("points, the troop line allows" in e["error"] for e in refused)
        # Drawn and bought on the phone: the commitment covers the purchase, and the cards opened at the end carry it.
        draw = {"moment": kept_cards.cards_moment("B"), "parts": ["0123456789abcdef"] * kept_cards.KEPT_PARTS,
                "streak": 0, "kind": "chance-encounter", "missions": [m.id for m in deck.missions("chance-encounter")],
                "troops": [c.id for c in deck.troop_cards], "drones": [c.id for c in deck.drone_cards]}
        screen = {"draw_cards_asked": draw, "view": {"mode": "chance-encounter", "setup": {}}}
        steps = [("answer", {"seat": "B", "dice_commitment_asked": True}),
                 ("draw", [screen, {"purchase": {"kamikaze-drone": 1, "basic-drone": 2}}]),   # 7 points: any line
                 ("answer", {"seat": "B", "open_cards": True})]
        got = json.loads(driver.execute_script(KEEPER, "5a" * 32, steps))
        drawn, opened, cards = got["out"][1], got["out"][2], got["kept"]["cards"]
        assert cards is not None, got["out"]
        offer = kept_cards.offer_of(draw, "B", got["kept"]["dice"][0])
        assert (cards["mission"], cards["troop"], cards["drone"]) == (offer.missions[0], offer.troops[0], offer.drone)
        assert cards["purchase"] == {"basic-drone": 2, "kamikaze-drone": 1} and opened["purchase"] == cards["purchase"]
        hand = kept_cards.hand_of(deck, "B", offer, cards["mission"], cards["troop"], cards["purchase"],
                                  chance_encounter=True)
        assert cards["issued"] == [dict(u) for u in hand.issued]
        assert drawn["committed"] == cards_commitment("5a" * 32, "B", hand.mission, hand.troop, hand.drone,
                                                      hand.drone_line, hand.purchase, cards["salt"])
    finally:
        host.stop()


def test_a_device_that_does_not_hold_the_sides_secrets_says_so_commits_nothing_and_leaves(driver):
    """B's link opened where B's secrets are not (B's browser data for the host cleared, or another device): the page
    says so, shows none of the host's stand-in squares as B's, sends nothing in B's name, and closes its socket, so
    B's device counts as away (the other side may claim a battle whose secrets are lost). The device that holds them
    goes on."""
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS)
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",), rate=1000.0, burst=1000.0)
    a = RemoteSeat(host.link("A"))
    try:
        phone = Phone(driver, host)
        set_up(session, host, a, phone)
        kept = phone.kept()
        stranger = "This device does not hold side B's secrets for this battle"
        driver.execute_script("localStorage.clear(); location.reload()")
        phone.until(lambda d: stranger in d.find_element(By.ID, "waiting").text, "the page says so")
        assert not driver.find_element(By.ID, "holding").is_displayed()
        assert not driver.find_element(By.ID, "blips").is_displayed()
        phone.until(lambda d: host.connected()["B"] == 0, "its socket closed")
        assert host.desk.away("B") is not None
        version = host.version
        driver.execute_script("act('place-blips', 'B', {}); act('fill-holding', 'B', {})")
        assert stranger in driver.find_element(By.ID, "notice").text and host.version == version
        # Its data put back (the device that holds them), the page goes on as B's keeper.
        driver.execute_script("localStorage.setItem(arguments[0], arguments[1]); location.reload()",
                              f"seven-seconds-kept/{kept_key(session)}-B", json.dumps(kept))
        phone.until(lambda d: d.execute_script(READY + " && !kept.stranger"),
                    "the keeper made again")
        phone.until(lambda d: host.connected()["B"] == 1, "its socket open again")
        assert phone.kept() == kept
    finally:
        a.close()
        host.stop()


def kept_key(session) -> str:
    """The battle's part of the key a phone keeps its side's secrets under (kept.js: the first 32 digits of the
    commitment to the battle's dice seed)."""
    return str(session.state.dice_commitments["seed"])[:32]
