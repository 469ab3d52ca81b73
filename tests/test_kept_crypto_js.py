"""The phone's own commitments, dice shares and card draw (``net/static/kept_crypto.js``, with the vendored
``js-sha256``) in a real browser (headless Chromium from the distribution's packages, driven by Selenium; skipped
without them) give the same texts, digests, numbers, cards and messages as the Python functions the host checks them
with (``commit.py``, ``dice.py``, ``kept_cards.py``), byte for byte, on many fixed inputs: texts with quotes,
backslashes, control characters and other scripts, numbers written as floats, missing unit keys, shares of many
moments, draws from the real deck at every streak, holding areas good and bad. A square number, a purchase count, a
host's part or a streak in another form than the phone's own is refused (Python's ``int()`` would read some of them).

The scripts are loaded as the phone loads them: from the host's ``/static/`` (the page's Content-Security-Policy
and ``nosniff`` in force), with ``crypto.subtle`` taken away, as a page of plain http on a LAN has none. Every
expected value comes from the Python functions, never from the page.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import re
from collections.abc import Callable, Iterator, Sequence
from importlib import resources
from typing import Any

import pytest

from referee.game.battle import commit, dice, kept_cards
from referee.game.battle.cards import MISSION_KINDS, playing_deck

from .net_support import battle_state, hosted, session_of
from .shared_browser import SharedBrowser, new_chromium, require_chromium

require_chromium()


STATIC = resources.files("referee.net").joinpath("static")
SCRIPTS = ("vendor/sha256.min.js", "kept_crypto.js")          # in the order a page loads them
CONTRIBUTIONS = 50


def _new_browser():
    return new_chromium((800, 600))


_SHARED = SharedBrowser(_new_browser)

# Each function called with each case's arguments; an error is kept as its message. The cases and the answers cross
# as JSON texts, escaped to ASCII: chromedriver refuses a lone surrogate ("\ud800") in a command's arguments. BigInts
# do not cross either: the draw's numbers come back as decimal texts and go in as BigInts made of them; a holding area
# given as a list of [square, units] pairs is made a Map (the order of its keys kept: a plain object puts "1".."16"
# first).
RUN = """
const [name, cases] = [arguments[0], JSON.parse(arguments[1])];
const adapt = {
  drawNumbers: (...a) => KeptCrypto.drawNumbers(...a).map(String),
  drawnOffer: (numbers, ...rest) => KeptCrypto.drawnOffer(numbers.map((n) => BigInt(n)), ...rest),
  arrangementProblems: (side, issued, squares, asMap) =>
    KeptCrypto.arrangementProblems(side, issued, asMap ? new Map(squares) : squares),
};
const fn = adapt[name] || KeptCrypto[name];
return JSON.stringify(cases.map((args) => {
  try { return { value: fn(...args) }; } catch (e) { return { error: String(e.message) }; }
}));
"""

# The page as a phone on a LAN has it: no crypto.subtle (it needs a secure context, and 127.0.0.1 is one), then the
# scripts from the host, one after the other.
LOAD = """
const [sources, done] = [arguments[0], arguments[arguments.length - 1]];
Object.defineProperty(Crypto.prototype, "subtle", { get() { throw new Error("crypto.subtle used"); } });
(async () => {
  for (const src of sources) {
    await new Promise((ok, failed) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = ok;
      script.onerror = () => failed(new Error("not loaded: " + src));
      (document.head || document.documentElement).append(script);
    });
  }
  return typeof KeptCrypto === "object" ? Object.keys(KeptCrypto).sort() : "no KeptCrypto";
})().then(done, (e) => done(String(e)));
"""


def _get(port: int, path: str) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type") or "", response.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    """One Chromium for the module, with the scripts loaded from a host as the phone's page loads them."""
    try:
        with hosted(session_of(battle_state())) as host:
            for name in SCRIPTS:
                status, kind, body = _get(host.port, f"/static/{name}")
                assert (status, kind) == (200, "text/javascript; charset=utf-8"), name
                assert body.decode("utf-8") == STATIC.joinpath(*name.split("/")).read_text(encoding="utf-8")
            # Only the files listed are served: nothing else of the folder, nothing outside it.
            for path in ("/static/vendor/js-sha256.LICENSE.txt", "/static/vendor/", "/static/vendor/../hand.js",
                         "/static/vendor/%2e%2e/hand.js", "/static/vendor/%2e%2e/%2e%2e/host.py",
                         "/static/../host.py", "/static/vendor/sha256.min.js/x", "/static//kept_crypto.js"):
                assert _get(host.port, path)[0] == 404, path
            browser = _SHARED.fresh()
            browser.set_script_timeout(30)
            browser.get(f"http://127.0.0.1:{host.port}/static/kept_crypto.js")
            loaded = browser.execute_async_script(LOAD, [f"/static/{name}" for name in SCRIPTS])
        assert isinstance(loaded, list) and "squareCommitment" in loaded, loaded
        yield browser
    finally:
        _SHARED.quit()


def _js(driver: Any, name: str, cases: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    return list(json.loads(driver.execute_script(RUN, name, json.dumps([list(c) for c in cases]))))


def _py(fn: Callable[..., Any], cases: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for args in cases:
        try:
            out.append({"value": fn(*args)})
        except Exception as e:  # noqa: BLE001 (the reference's error, whatever it is, is what the page must give)
            out.append({"error": str(e)})
    return out


def _same(driver: Any, name: str, fn: Callable[..., Any], cases: Sequence[Sequence[Any]],
          py_cases: Sequence[Sequence[Any]] | None = None) -> list[dict[str, Any]]:
    """The page's ``KeptCrypto[name]`` and ``fn`` give the same value, or fail with the same message, for each case
    (``py_cases``: the cases as Python takes them, when the page takes them otherwise)."""
    got = _js(driver, name, cases)
    expected = _py(fn, cases if py_cases is None else py_cases)
    for case, g, e in zip(cases, got, expected):
        assert g == e, (name, case)
    return expected


def _shown(value: Any) -> str:
    """How the page's messages show a value it refuses: a text as Python's repr, null as None, a list by its type."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return str(value).lower()
    return "list" if isinstance(value, list) else repr(value)


# Numbers in forms the phone never sends: signs, spaces, underscores, other scripts' digits, 0x, not whole, too big
# for a safe integer, not a number. Python's int() reads several of them; the page refuses them all.
ODD_NUMBERS = ["+3", " 3 ", "-1", "-0", "1_0", "٣", "９", "0x3", "3.0", "", "x", 2.5, 2 ** 53, None, True, [3]]


def _hex(label: str, i: int, digits: int = 64) -> str:
    """A fixed hex text standing for a random one (a contribution, a salt, a host's part)."""
    text = ""
    while len(text) < digits:
        text += hashlib.sha256(f"{label}|{i}|{len(text)}".encode()).hexdigest()
    return text[:digits]


TRICKY = ['plain', '', 'quote " and \' apostrophe', 'back\\slash \\"', 'new\nline\r\ncr\ttab\bbs\fff',
          'nul \x00 \x01 \x08 \x0b \x0e \x1f end', 'del \x7f and \x80 \x9f \xa0 nbsp', 'Rénégats du Nord',
          '漢字 かな 한국어 Ελληνικά Кириллица עברית العربية', 'dice 🎲 and ⚔ and 👩‍👩‍👧', '\u2028 \u2029 \ufeff \u200b',
          'private \ue000 and \U000f0000', 'combining e\u0301 and ﬁ', '</script><!--', '{"a":1}', 'a|b|c']


def _units(i: int) -> list[dict[str, Any]]:
    """A square's units, each with some of the keys a commitment covers (or all, or more)."""
    name = TRICKY[i % len(TRICKY)]
    full = {"id": f"a-tactical-{i}", "side": "A", "faction": name, "rating": [1, 1.0, 2.5, -0.0, 3][i % 5],
            "type": "tactical"}
    partial = {"id": name, "type": "scout", "extra": "not committed", "rating": None}
    odd = {"id": f"b-{name}", "side": "B", "faction": True, "rating": 1e-05, "type": ["list", 2.0]}
    return [[], [full], [full, partial], [partial], [odd, full], [{}]][i % 6]


def test_canonical_text_is_pythons(driver):
    floats = [1.0, 2.5, -0.0, 0.0, -2.5, 0.1 + 0.2, 1e-05, 0.0001, 1.5e-07, 5e-324, 1e16, 1e22, 2.0 ** 70,
              123456.789, 1.7976931348623157e308, 9007199254740993.0, 0.5, 1 / 3, -1e-300, 4.35, 100.0]
    cases: list[Any] = [floats, {"b": 1, "a": 2, "B": 3, "": 4, "é": 5, "z": 6, "\ufb01": 7, "😀": 8, "\ue000": 9,
                                 "aa": 10, "a\x00": 11, "10": 12, "9": 13},
                        {"nested": [{"y": None, "x": True}, [], {}, [False, [1.0, {"k": "v"}]]]},
                        None, True, 0, -7, "text", [], {}, {k: k for k in TRICKY}, TRICKY,
                        {"units": [commit.unit_entries(_units(i)) for i in range(12)]}]
    _same(driver, "canonicalText", commit.canonical_text, [[c] for c in cases])


def test_unit_entries_and_square_commitments_are_pythons(driver):
    cases = []
    for i in range(60):
        battle = "" if i % 7 == 0 else _hex("battle", i)
        cases.append([battle, "AB"[i % 2], i % 16 + 1, _units(i), _hex("salt", i)])
    cases += [["é|\n", "A", "3", _units(2), "salt"], [_hex("battle", 0), "A", 16.0, _units(4), ""],
              ["", "B", "007", [], "salt"], ["", "B", "99999999999999999999", [], "salt"],
              ["", "A", 1, [{"id": "lone \ud800 surrogate"}], "salt"]]       # no UTF-8: the same error
    _same(driver, "unitEntries", commit.unit_entries, [[c[3]] for c in cases])
    expected = _same(driver, "squareCommitment", commit.square_commitment, cases)
    assert sum("error" in e for e in expected) == 1 and "surrogates not allowed" in expected[-1]["error"]
    got = _js(driver, "squareCommitment", [["", "A", n, [], "salt"] for n in ODD_NUMBERS])
    assert got == [{"error": f"square: expected a whole number (got {_shown(n)})"} for n in ODD_NUMBERS]


def test_blip_and_cards_commitments_are_pythons(driver):
    blips = [["" if i % 5 == 0 else _hex("battle", i), "AB"[i % 2], i % 16 + 1, _hex("blip", i)] for i in range(40)]
    blips += [[TRICKY[3], TRICKY[4], "7", TRICKY[7]], ["", "A", 7.0, "salt"]]
    _same(driver, "blipCommitment", commit.blip_commitment, blips)
    got = _js(driver, "blipCommitment", [["", "A", n, "salt"] for n in ODD_NUMBERS])
    assert got == [{"error": f"square: expected a whole number (got {_shown(n)})"} for n in ODD_NUMBERS]
    purchases = [None, {}, {"basic-drone": 2}, {"kamikaze-drone": 1.0, "recce-drone": 3, "é": 0}, {"b": -1, "a": 2},
                 {"basic-drone": "2"}]
    cards = []
    for i in range(40):
        name = TRICKY[i % len(TRICKY)]
        cards.append([_hex("battle", i), "AB"[i % 2], f"mission-{i}", f"troop {name}", f"drone-{i % 3}",
                      ["", "standard", name][i % 3], purchases[i % len(purchases)], _hex("cards", i)])
    _same(driver, "cardsCommitment", commit.cards_commitment, cards)
    got = _js(driver, "cardsCommitment", [["", "A", "m", "t", "d", "", {"basic-drone": 1, "é 'x'": n}, "salt"]
                                          for n in ODD_NUMBERS])
    assert got == [{"error": f"purchase \"é 'x'\": expected a whole number (got {_shown(n)})"} for n in ODD_NUMBERS]


def test_dice_commitments_and_shares_are_pythons(driver):
    commitments = [[side, _hex("value", i), _hex("salt", i)] for i in range(30) for side in ("A", "B")]
    commitments += [["A", TRICKY[i], TRICKY[-i - 1]] for i in range(len(TRICKY))]
    _same(driver, "diceCommitment", dice.commitment, commitments)
    moments = ["", "cards A", "cards B", "setup 3 | place blips", "round 2|action 14|move a-tactical-1",
               "ünïcode ⚔ 🎲 漢字", "line\nbreak \\ back", "lone \ud800 surrogate and \udfff"]
    shares = []
    for k, moment in enumerate(moments):
        for n in range(41):
            value = _hex("contribution", k * 41 + n)
            shares.append(["AB"[n % 2], value, moment, n])                       # the default purpose
            shares.append(["AB"[n % 2], value, moment, n, dice.CARD_SHARE_FORMAT])
    expected = _same(driver, "diceShare", dice.dice_share, shares)
    assert all(dice.is_share(e["value"]) for e in expected)


def _draw(i: int, side: str, kind: str, streak: int) -> dict[str, Any]:
    deck = playing_deck()
    return {"moment": kept_cards.cards_moment(side), "parts": [_hex("part", i * 100 + n, dice.SHARE_HEX)
                                                               for n in range(kept_cards.KEPT_PARTS)],
            "streak": streak, "kind": kind, "missions": [m.id for m in deck.missions(kind)],
            "troops": [t.id for t in deck.troop_cards], "drones": [d.id for d in deck.drone_cards]}


def test_card_draws_are_pythons(driver):
    deck = playing_deck()
    draws, numbers = [], []
    for i in range(CONTRIBUTIONS):
        side, value = "AB"[i % 2], _hex("contribution", i)
        for streak in range(4):
            draw = _draw(i, side, MISSION_KINDS[(i + streak) % len(MISSION_KINDS)], streak)
            draws.append([draw, side, value])
        numbers.append([draws[-1][0]["parts"], side, value, draws[-1][0]["moment"]])
    numbers.append([["0" * 16, "f" * 16] * 8, "A", _hex("contribution", 0), "cards A"])
    expected = _same(driver, "drawNumbers", lambda *a: [str(n) for n in kept_cards.draw_numbers(*a)], numbers)
    assert all("value" in e for e in expected)
    # Parts as kept_cards.draw_problems refuses them (the host checks its own draw with it): of another length,
    # capitals, not hex, spaces, 0x, not texts; fewer or more than 16. The page refuses them with the same words.
    draw, message = _draw(0, "A", "offence", 0), "draw.parts: expected 16 parts of 16 hex digits"
    good = draw["parts"]
    bad_parts = ["", "0" * 15, "0" * 17, "ABCDEF0123456789", "0x0123456789abcd", "0123456789abcdeg",
                 " 123456789abcdef", "0123456789abcde\n", "+123456789abcdef", "\u0663" * 16, 12345678901234567, None]
    bad = [good[:5] + [part] + good[6:] for part in bad_parts] + [good[:15], good + ["0" * 16], "0" * 256, None]
    assert all(message in kept_cards.draw_problems({**draw, "parts": parts}) for parts in bad)
    got = _js(driver, "drawNumbers", [[parts, "A", _hex("contribution", 0), "cards A"] for parts in bad])
    assert got == [{"error": message}] * len(bad)

    def offer(*args: Any) -> dict[str, Any]:
        found = kept_cards.offer_of(*args)
        return {"missions": list(found.missions), "troops": list(found.troops), "drone": found.drone}

    offers = _same(driver, "offerOf", offer, draws + [[_draw(1, "B", "defence", 4), "B", _hex("contribution", 1)]])
    assert all("value" in o for o in offers) and {len(o["value"]["troops"]) for o in offers} == {1, 2}
    # A streak out of 0..4, or not a whole number, is refused as draw_problems words it.
    streaks = [5, -1, 2.5, "2", None, True, [1]]
    message = "draw.streak: expected the side's winning streak, 0 to 4"
    assert all(message in kept_cards.draw_problems(_draw(0, "A", "offence", streak)) for streak in streaks)
    got = _js(driver, "offerOf", [[_draw(0, "A", "offence", s), "A", _hex("contribution", 0)] for s in streaks])
    assert got == [{"error": message}] * len(streaks)

    # drawn_offer itself, from numbers given: the last number of each 64-bit range is drawn again, and too few
    # numbers fail as Python's do.
    def drawn(numbers: list[str], *rest: Any) -> dict[str, Any]:
        found = kept_cards.drawn_offer([int(n) for n in numbers], *rest)
        return {"missions": list(found.missions), "troops": list(found.troops), "drone": found.drone}

    missions, troops, drones = ([c.id for c in cards] for cards in (deck.missions("offence"), deck.troop_cards,
                                                                    deck.drone_cards))
    top = str(2 ** 64 - 1)
    plain = []
    for e in expected[:CONTRIBUTIONS]:
        as_text = [str(n) for n in e["value"]]
        plain += [[as_text, missions, troops, drones, streak] for streak in range(4)]
    plain += [[[top, top, "5", "6", "7"], ["a", "b", "c"], ["t"], ["d", "e"], 3],
              [["1", "2"], missions, troops, drones, 0], [[], missions, troops, drones, 0],
              [["1", "2", "3"], missions, troops, drones, 2], [["1", "2", "3", "4"], ["m"], ["t", "t"], ["d"], 3],
              [["0", "0", "0", str(2 ** 63)], ["m", "n"], ["t", "u", "t"], drones, 2]]
    _same(driver, "drawnOffer", drawn, plain)
    assert _js(driver, "drawnOffer", [[["1", "2"], missions, troops, drones, 0]]) == [
        {"error": "the draw ran out of numbers"}]


def test_drawn_groups_are_pythons(driver):
    cases = [[[f"a-tactical-{n}" for n in range(count)]] for count in range(34)]
    expected = _same(driver, "drawnGroups", commit.drawn_groups, cases)
    assert expected[33] == {"error": "33 units do not fit 16 squares of 2 [p.~10]"}
    assert all("value" in e for e in expected[:33])


def _object_order(keys: list[Any]) -> bool:
    """Whether a plain object keeps these keys in this order: one puts the keys that are array indices ("0", "7")
    first, in ascending order."""
    index = [k for k in keys if isinstance(k, str) and re.fullmatch(r"0|[1-9][0-9]{0,9}", k) and int(k) < 2 ** 32 - 1]
    return all(isinstance(k, str) for k in keys) and keys == sorted(index, key=int) + [k for k in keys
                                                                                        if k not in index]


def test_arrangement_problems_are_pythons(driver):
    issued = ["a-tactical-1", "a-tactical-2", "a-scout-1", "a-commander-1", "a-basic-drone-1", "é-unit", "Z-unit"]
    good = {str(n + 1): [u] for n, u in enumerate(issued)}
    paired = {"1": issued[:2], "2": issued[2:4], "16": issued[4:]}
    paired["16"] = issued[4:6]
    paired["9"] = issued[6:]
    arrangements: list[Any] = [
        good, paired, dict(reversed(list(good.items()))), {}, {"1": issued[:3], "2": issued[3:]},
        {"1": issued[:2]}, {"1": issued[:2], "2": issued[1:3], "3": issued[3:]},
        {**good, "8": ["it's", 'say "x"', "both ' and \"", "back\\slash"]},
        {**good, "9": ["new\nline", "tab\t", "del\x7f", "ctl\x01", "nbsp\xa0", "zw\u200b", "pua\ue000", "é 漢 🎲",
                       "ls\u2028", "lone \ud800", "\x85", "\U000e0001"]},
        # keys out of 1..16 and keys Python's int() refuses too (the same messages)
        {"0": [], "17": [], "99999999999999999999": [], "x": [], "": [], "3.0": ["a-tactical-1"],
         "1__0": ["a-tactical-2"], "1\x1c": ["a-scout-1"], "\ufeff1": [], "²": [], "0x10": [], "1e1": [], "_1": [],
         "1 2": [], "01": ["a-commander-1"], "é": ["é-unit"]},
        {"1": "a-tactical-1", "2": [1, 2], "3": None, "4": {"x": 1}, "5": [], "6": ["a-tactical-1", None]},
        {"3": [issued[0]], "1": [issued[0], issued[1]], "2": issued[2:]},
        [], "squares", 5, 2.5, None, True, [["1", issued]],
    ]
    cases, py_cases = [], []
    for squares in arrangements:
        if isinstance(squares, dict):
            keys = list(squares)
            cases.append(["A", issued, [[k, v] for k, v in squares.items()], True])      # a Map: the order kept
            py_cases.append(["A", issued, squares])
            if _object_order(keys):
                cases.append(["A", issued, squares, False])
                py_cases.append(["A", issued, squares])
        else:
            cases.append(["A", issued, squares, False])
            py_cases.append(["A", issued, squares])
    # A holding area whose squares are numbers (Python's int keys) or None, and a side's issued list with repeats.
    cases.append(["B", ["b-x", "b-y", "b-x"], [[2, ["b-x"]], [1, ["b-y", "b-x"]], [None, ["b-z"]]], True])
    py_cases.append(["B", ["b-x", "b-y", "b-x"], {2: ["b-x"], 1: ["b-y", "b-x"], None: ["b-z"]}])
    expected = _same(driver, "arrangementProblems", commit.arrangement_problems, cases, py_cases)
    assert expected[:4] == [{"value": []}] * 4              # good and paired, each as a Map and as an object
    assert all(e["value"] for e in expected[4:])
    # Keys the phone never sends, several of which Python's int() reads ("+3", " 3 ", "٣", 2.5): the page names each
    # as it names a key Python cannot read.
    odd = [*ODD_NUMBERS, "0_5", "\u20031\u3000", "\U0001d7ed", "1\U0001d7ec", "1\x85"]
    got = _js(driver, "arrangementProblems", [["A", issued, [[k, []] for k in odd], True]])
    assert got == [{"value": [f"square {_shown(k)}: expected a square number from 1 to 16 [p.~10]" for k in odd]}]


def test_random_numbers_come_from_the_operating_system_unbiased(driver):
    got = driver.execute_script("""
        const K = KeptCrypto, out = { hex: [K.randomHex(32), K.randomHex(32), K.randomHex(), K.randomHex(0),
                                            K.randomHex(8), K.randomHex(70000).length], below: {}, errors: [] };
        for (const n of [1, 2, 3, 6, 7, 100, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1]) {
          out.below[n] = Array.from({ length: 600 }, () => K.randomBelow(n));
        }
        for (const n of [0, -1, 2.5, 2 ** 53, NaN]) {
          try { K.randomBelow(n); out.errors.push(null); } catch (e) { out.errors.push(e.message); }
        }
        const list = Array.from({ length: 20 }, (_, i) => i), same = K.shuffle(list);
        out.shuffled = [same === list, list];
        return out;""")
    first, second, default, empty, short, long = got["hex"]
    assert re.fullmatch(r"[0-9a-f]{64}", first) and re.fullmatch(r"[0-9a-f]{64}", second)
    assert re.fullmatch(r"[0-9a-f]{64}", default) and len({first, second, default}) == 3
    assert empty == "" and re.fullmatch(r"[0-9a-f]{16}", short) and long == 140000
    for n, values in got["below"].items():
        assert all(isinstance(v, int) and 0 <= v < int(n) for v in values), n
    assert set(got["below"]["6"]) == set(range(6)) and set(got["below"]["2"]) == {0, 1}
    assert got["below"]["1"] == [0] * 600
    assert len(set(got["below"][str(2 ** 53 - 1)])) == 600
    assert got["errors"] == ["nothing to draw from"] * 5
    assert got["shuffled"][0] is True and sorted(got["shuffled"][1]) == list(range(20))
    assert got["shuffled"][1] != list(range(20))                # 1 chance in 20! of failing
