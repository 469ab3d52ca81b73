"""Hypothesis strategies that break the program's input files and command lines on purpose.

Two families of broken input:

* documents: a valid-ish document (a bundled file, parsed, or one generated here) that is then mutated a few times:
  keys dropped, unknown keys added, values replaced by the wrong type, special numbers (NaN, infinities, huge,
  negative), empty or odd strings, deeply nested junk, duplicated list entries (duplicate ids, overlapping bases);
* raw text: the bytes of a bundled file (or of a save the engine wrote) truncated, flipped, cut or spliced.

Every test is bounded by ``fuzz_settings(n)``: ``n`` examples, reproducible (``derandomize``). The default suite runs
half of each count; the environment variable ``FUZZ_EXAMPLES`` sets the multiple instead: CI runs the whole counts
beside the soak runs (``FUZZ_EXAMPLES=1``), and a long local run takes more (``FUZZ_EXAMPLES=20``). The random
tables on which ``test_fast_sight.py`` holds the two sight engines to each other are counted by ``examples`` too.
"""

from __future__ import annotations

import copy
import json
import math
import os
import tomllib

import tomli_w
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from referee.paths import ROOT
from referee.rules.catalogue import terrain_types, unit_type_names
from referee.rules.scenario import OBJECTIVE_IDS
from referee.rules.stats import RATINGS, STAT_NAMES

# ---- budget -------------------------------------------------------------------------------------------------------

SCALE = float(os.environ.get("FUZZ_EXAMPLES") or 0.5)


def examples(n: int) -> int:
    """Half of ``n`` examples by default; ``FUZZ_EXAMPLES`` times ``n`` when it is set."""
    return max(1, round(n * SCALE))


def fuzz_settings(n: int) -> settings:
    return settings(
        max_examples=examples(n),
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                               HealthCheck.large_base_example, HealthCheck.function_scoped_fixture],
    )


# ---- the bundled files ----------------------------------------------------------------------------------------

SCENARIO_FILES = sorted((ROOT / "scenarios").glob("*.toml"))
FACTION_FILES = sorted((ROOT / "data" / "factions").glob("*.toml"))
CARD_FILES = sorted((ROOT / "data" / "cards").glob("*.toml"))
EXAMPLE_SAVE = ROOT / "docs" / "example-save.json"

FACTION_IDS = tuple(p.stem for p in FACTION_FILES)
UNIT_TYPES = tuple(unit_type_names())
TERRAIN_TYPES = tuple(k for k, v in terrain_types().items() if not v.placed_by_program)


def parsed(path) -> dict:
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else tomllib.loads(text)


def bundled_documents(paths) -> list[tuple[str, dict]]:
    return [(p.name, parsed(p)) for p in paths]


# ---- junk values ----------------------------------------------------------------------------------------------

SPECIAL_FLOATS = (math.nan, math.inf, -math.inf, -0.0, 0.0, 1e308, -1e308, 1.7976931348623157e308, 1e154, 5e-324,
                  1e-12, -1.0, -36.0, 36.000001, 1e16, 0.5, 1e-7, 10000.0, 10000.5, 0.09, 100.5)
SPECIAL_INTS = (0, -1, 1, 2, 6, 7, 16, 17, -(2**63), 2**63 - 1, 2**64, 10**30, -(10**30))
SPECIAL_TEXT = ("", " ", "\t", "A", "B", "C", "X", "Z", "é", "Ω", "\u202e", "\x00", "\U0001f4a5", "a" * 300,
                "../x.toml", "nan", "inf", "1e5", "3", "true", "none", "null", "units[0]", "#12345g", "#ABCDEF",
                "new-tokyo.toml", "/", ".", "spec-ops", "veteran", "woods", "jammer-field", "alpha", "red", "A1",
                "haywire-drone", "tactical", "contested", "draw", "decisive", "d6", "bearing", "move", "x" * 20 + ".toml")
KEYS = ("id", "x", "y", "r", "type", "side", "base", "units", "terrain", "polygon", "circle", "table", "width",
        "height", "faction", "rating", "facing", "contents", "square", "name", "Id", "X ", "", "colour", "unknown",
        "extra", "created", "upgrades", "mission", "troop", "drone", "drone_prices", "costs", "lines", "vp_rules",
        "players", "battles", "purchases", "format", "version", "initial", "record", "rulings")

special_floats = st.sampled_from(SPECIAL_FLOATS)
special_ints = st.sampled_from(SPECIAL_INTS)
odd_text = st.sampled_from(SPECIAL_TEXT)

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), special_ints, st.floats(), special_floats,
    st.text(max_size=12), odd_text,
)
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=8))
junk = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=10,
)


def nested(depth: int, leaf=0, as_dict: bool = False):
    """A value nested ``depth`` levels deep."""
    value = leaf
    for _ in range(depth):
        value = {"a": value} if as_dict else [value]
    return value


deep_junk = st.builds(nested, st.integers(20, 300), scalars, st.booleans())

wrong_type_of = {
    # what a value of a type becomes when the wrong type is written instead
    "number": lambda v: st.sampled_from([str(v), [v], {"v": v}, None, True, False, f"{v}in"]),
    "text": lambda v: st.sampled_from([0, 1.5, [v], {"v": v}, None, True, v.upper(), v + " ", " " + v, v * 2]),
    "bool": lambda v: st.sampled_from([0, 1, "true", "false", None, [v], "yes"]),
    "list": lambda v: st.sampled_from([{}, {"0": v[0] if v else 0}, None, "[]", 0, v[:1], v * 2, [v]]),
    "dict": lambda v: st.sampled_from([[], [v], list(v.values()), None, "{}", 0, {}]),
    "none": lambda v: st.sampled_from([0, "", [], {}, False, "null", "None"]),
}


def _kind(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    return "dict"


def _slots(doc) -> list[tuple[object, object]]:
    """Every (container, key) of a document, depth first."""
    out = []
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            items = list(node.items())
        elif isinstance(node, list):
            items = list(enumerate(node))
        else:
            continue
        for k, v in items:
            out.append((node, k))
            stack.append(v)
    return out


def _containers(doc) -> list:
    return [doc] + [c[k] for c, k in _slots(doc) if isinstance(c[k], (dict, list))]


MUTATIONS = ("drop", "unknown-key", "junk", "wrong-type", "special-number", "duplicate", "swap", "empty", "deep",
             "negate")


@st.composite
def mutated(draw, doc, count: tuple[int, int] = (1, 4)):
    """``doc`` (not changed) with 1 to 4 random mutations."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(*count))):
        op = draw(st.sampled_from(MUTATIONS))
        slots = _slots(doc)
        if op == "unknown-key" or not slots:
            target = draw(st.sampled_from(_containers(doc)))
            if isinstance(target, dict):
                target[draw(keys)] = draw(junk)
            else:
                target.insert(draw(st.integers(0, len(target))), draw(junk))
            continue
        container, key = draw(st.sampled_from(slots))
        value = container[key]
        if op == "drop":
            del container[key]
        elif op == "junk":
            container[key] = draw(junk)
        elif op == "wrong-type":
            container[key] = draw(wrong_type_of[_kind(value)](value))
        elif op == "special-number":
            container[key] = draw(st.one_of(special_floats, special_ints))
        elif op == "negate":
            container[key] = -value if _kind(value) == "number" else draw(special_floats)
        elif op == "duplicate":
            if isinstance(container, list):
                container.insert(draw(st.integers(0, len(container))), copy.deepcopy(value))
            elif isinstance(value, list) and value:
                value.append(copy.deepcopy(draw(st.sampled_from(value))))
            else:
                container[key] = [value, copy.deepcopy(value)]
        elif op == "swap":
            other_container, other_key = draw(st.sampled_from(slots))
            container[key] = copy.deepcopy(other_container[other_key])
        elif op == "empty":
            container[key] = {"number": 0, "text": "", "bool": False, "list": [], "dict": {}, "none": None}[_kind(value)]
        elif op == "deep":
            container[key] = draw(deep_junk)
    return doc


def mutated_or_whole(doc):
    """Mostly mutated documents; now and then a whole-document replacement (a list, a number, nothing)."""
    return st.one_of(
        mutated(doc),
        mutated(doc),
        mutated(doc),
        st.sampled_from([[], [doc], 0, "text", None]).map(lambda v: {"value": v} if v is None else v),
    )


# ---- scenarios ----------------------------------------------------------------------------------------------------

coordinates = st.floats(0, 36, allow_nan=False).map(lambda v: round(v, 2))


def rectangle(x: float, y: float, w: float, h: float) -> list[list[float]]:
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


valid_polygons = st.builds(
    rectangle, coordinates, coordinates, st.floats(0.5, 8).map(lambda v: round(v, 2)),
    st.floats(0.5, 8).map(lambda v: round(v, 2)),
)

degenerate_polygons = st.one_of(
    st.lists(st.tuples(coordinates, coordinates).map(list), max_size=2),                 # fewer than 3 points
    st.sampled_from([
        [[0, 0], [1, 1], [2, 2]],                                                       # collinear
        [[1, 1], [1, 1], [1, 1], [1, 1]],                                               # one point repeated
        [[0, 0], [4, 4], [4, 0], [0, 4]],                                               # bow tie
        [[0, 0], [4, 0], [4, 4], [4, 0], [0, 4]],                                       # spike back on itself
        [[0, 0], [4, 0], [math.nan, 4], [0, 4]],                                        # NaN
        [[0, 0], [math.inf, 0], [4, 4]],                                                # infinity
        [[0, 0], [1e308, 0], [1e308, 1e308], [0, 1e308]],                               # huge
        [[0, 0, 0], [1, 0, 0], [1, 1, 0]],                                              # three coordinates
        [[0], [1], [2]],                                                                # one coordinate
        [[0, 0], [1e-12, 0], [0, 1e-12]],                                               # no area to speak of
        [[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]],                                       # closed ring, valid
        [[0, 0], [4, 0], [4, 4], [0, 4], [0, 0], [1, 1], [3, 1], [3, 3]],                # ring then more
    ]),
    st.lists(st.tuples(coordinates, coordinates).map(list), min_size=3, max_size=8),    # random: often crossing
)

circles = st.fixed_dictionaries({"x": coordinates, "y": coordinates, "r": st.floats(0.2, 4).map(lambda v: round(v, 2))})
odd_circles = st.fixed_dictionaries({
    "x": st.one_of(coordinates, special_floats), "y": st.one_of(coordinates, special_floats),
    "r": st.one_of(special_floats, st.sampled_from([0, -1, 1e-9, 1e6])),
})


@st.composite
def terrain_entries(draw, index: int, shapes=("polygon", "polygon", "circle")) -> dict:
    entry = {"id": f"t{index}", "type": draw(st.sampled_from(TERRAIN_TYPES))}
    shape = draw(st.sampled_from(shapes))
    if shape in ("polygon", "both"):
        entry["polygon"] = draw(valid_polygons)
    if shape in ("circle", "both"):
        entry["circle"] = draw(circles)
    if shape == "degenerate":
        entry["polygon"] = draw(degenerate_polygons)
    if shape == "odd-circle":
        entry["circle"] = draw(odd_circles)
    return entry


def unit_fields(draw, ident: str, side: str) -> dict:
    kind = draw(st.sampled_from(UNIT_TYPES))
    out = {
        "id": ident, "side": side, "faction": draw(st.sampled_from(FACTION_IDS)),
        "rating": draw(st.sampled_from(RATINGS)), "type": kind,
    }
    if draw(st.booleans()):
        out["target_counters"] = draw(st.integers(0, 12))
    if draw(st.integers(0, 4)) == 0:
        out["base"] = draw(st.sampled_from([0.5, 1.0, 1.5, 2.0]))
    if kind == "haywire-drone" and draw(st.booleans()):
        out["jammer_on"] = True
    if not kind.endswith("-drone") and draw(st.integers(0, 3)) == 0:
        out[draw(st.sampled_from(["damaged", "stunned"]))] = True
    return out


@st.composite
def scenario_documents(draw) -> dict:
    """A scenario document that is valid more often than not (bases may overlap; positions are random)."""
    width = draw(st.sampled_from([24, 36, 48]))
    height = draw(st.sampled_from([24, 36]))
    doc: dict = {"name": "fuzz table", "table": {"width": width, "height": height}}
    if draw(st.booleans()):
        doc["attacker"] = draw(st.sampled_from(["A", "B"]))
    if draw(st.integers(0, 3)) == 0:
        doc["rulings"] = {"A2": "B"}
    doc["terrain"] = [draw(terrain_entries(i)) for i in range(draw(st.integers(0, 3)))]
    xs = st.floats(0.5, width - 0.5).map(lambda v: round(v, 1))
    ys = st.floats(0.5, height - 0.5).map(lambda v: round(v, 1))
    units = []
    for i in range(draw(st.sampled_from([0, 1, 2, 2, 3, 3, 4, 5]))):
        side = "A" if i == 0 else "B" if i == 1 else draw(st.sampled_from(["A", "B"]))
        u = unit_fields(draw, f"{side.lower()}{i}", side)
        u.update(x=draw(xs), y=draw(ys), facing=draw(st.sampled_from([0, 90, 180, 270, 45.5])))
        units.append(u)
    doc["units"] = units
    blips = []
    for i in range(draw(st.integers(0, 2))):
        side = draw(st.sampled_from(["A", "B"]))
        b = {"id": f"blip-{side.lower()}{i}", "side": side, "x": draw(xs), "y": draw(ys)}
        if draw(st.booleans()):
            b["contents"] = [unit_fields(draw, f"in-{side.lower()}{i}-{j}", side)
                             for j in range(draw(st.integers(0, 2)))]
        blips.append(b)
    doc["blips"] = blips
    doc["objectives"] = [
        {"id": oid, "x": draw(xs), "y": draw(ys)}
        for oid in draw(st.lists(st.sampled_from(OBJECTIVE_IDS), max_size=2, unique=True))
    ]
    return doc


def overlapping(doc: dict) -> dict:
    """Every unit moved onto the first one's position: overlapping bases."""
    doc = copy.deepcopy(doc)
    if doc.get("units"):
        first = doc["units"][0]
        for u in doc["units"][1:]:
            u["x"], u["y"] = first["x"], first["y"] + 0.3
    return doc


@st.composite
def broken_scenarios(draw) -> dict:
    """A generated scenario with scenario-specific damage, then a few generic mutations."""
    doc = draw(scenario_documents())
    damage = draw(st.sampled_from(["overlap", "faction", "type", "duplicate-id", "polygon", "off-table",
                                   "terrain-type", "blip", "rulings", "shape", "scale", "none"]))
    units = doc["units"]
    if damage == "overlap":
        doc = overlapping(doc)
    elif damage == "faction" and units:
        units[0]["faction"] = draw(st.sampled_from(["no-such-faction", "", "New-Tokyo", "missing.toml", "/",
                                                    "x" * 300 + ".toml", "../data/factions/new-tokyo.toml",
                                                    "scenarios", "\x00.toml"]))
    elif damage == "type" and units:
        units[0]["type"] = draw(st.sampled_from(["tank", "", "Tactical", "drone", "jammer-field"]))
    elif damage == "duplicate-id" and len(units) >= 1:
        other = draw(st.sampled_from(["terrain", "objectives", "units", "blips"]))
        ident = units[0]["id"]
        if other == "units" and len(units) > 1:
            units[1]["id"] = ident
        elif other == "terrain" and doc["terrain"]:
            doc["terrain"][0]["id"] = ident
        elif other == "blips" and doc["blips"]:
            doc["blips"][0]["id"] = ident
    elif damage == "polygon":
        doc["terrain"].append({"id": "bad-shape", "type": "woods", "polygon": draw(degenerate_polygons)})
    elif damage == "shape":
        doc["terrain"].append(draw(terrain_entries(len(doc["terrain"]), ("degenerate", "odd-circle", "both",
                                                                          "neither"))))
    elif damage == "off-table" and units:
        units[0]["x"] = draw(st.sampled_from([-1, 100, 1e308, -0.0001, doc["table"]["width"] + 0.1]))
    elif damage == "terrain-type" and doc["terrain"]:
        doc["terrain"][0]["type"] = draw(st.sampled_from(["jammer-field", "lava", "", "Woods"]))
    elif damage == "blip":
        doc["blips"].append({"id": "crowded", "side": "A", "x": 1, "y": 1, "square": draw(st.sampled_from([0, 1, 17])),
                             "contents": [unit_fields(draw, f"c{j}", draw(st.sampled_from(["A", "B"])))
                                          for j in range(3)]})
    elif damage == "scale":
        doc["scale"] = draw(st.one_of(special_floats, st.sampled_from([0.1, 10, 0.5, 2])))
    elif damage == "rulings":
        doc["rulings"] = draw(st.dictionaries(st.sampled_from(["A1", "A2", "A99", "crater_diameter",
                                                               "inspected_counters", ""]),
                                              st.one_of(scalars, st.sampled_from(["A", "B", "Z"])), max_size=3))
    if draw(st.booleans()):
        doc = draw(mutated(doc, (1, 2)))
    return doc


# ---- factions, cards, campaigns, rulings ------------------------------------------------------------------------

stat_lines = st.fixed_dictionaries({s: st.integers(1, 5) for s in STAT_NAMES})


@st.composite
def faction_documents(draw) -> dict:
    """A faction document whose lines are random (so the creation rules are broken more often than not)."""
    doc = {"id": draw(st.sampled_from(["fuzz-faction", "Fuzz", "a--b", "", "x"])), "name": "Fuzz",
           "created": {r: draw(stat_lines) for r in RATINGS}}
    if draw(st.booleans()):
        doc["upgrades"] = [{"rating": draw(st.sampled_from(RATINGS)), "stat": draw(st.sampled_from(STAT_NAMES)),
                            "cost": draw(st.integers(0, 7))} for _ in range(draw(st.integers(1, 3)))]
    if draw(st.booleans()):
        doc["colours"] = {"primary": draw(st.sampled_from(["#123456", "#12345g", "red", ""]))}
    return doc


RULING_IDS = ("A1", "A2", "A3", "A5", "A6", "A11", "A33", "A41", "A99", "a1", "", "crater_diameter",
              "inspected_counters")

rulings_overrides = st.dictionaries(
    st.one_of(st.sampled_from(RULING_IDS), st.text(max_size=5)),
    st.one_of(st.sampled_from(["A", "B", "C", "a", ""]), scalars, junk),
    max_size=4,
)


@st.composite
def campaign_documents(draw) -> dict:
    sides = draw(st.sampled_from([("A", "B"), ("A", "B"), ("A", "B"), ("A",), ("B",), ()]))
    doc = {
        "name": "Fuzz campaign",
        "length": draw(st.sampled_from(["short", "medium", "long"])),
        "players": {s: {"faction": draw(st.sampled_from(FACTION_IDS + ("no-such-faction",)))} for s in sides},
    }
    levels = ["marginal", "normal", "decisive"]
    battles = []
    for _ in range(draw(st.integers(0, 6))):
        winner = draw(st.sampled_from(["A", "B", None]))
        b = {"level": "draw"} if winner is None else {"winner": winner, "level": draw(st.sampled_from(levels))}
        if draw(st.booleans()):
            b["control"] = draw(st.sampled_from(["A", "B"]))
        battles.append(b)
    doc["battles"] = battles
    doc["purchases"] = [
        {"side": draw(st.sampled_from(["A", "B"])), "rating": draw(st.sampled_from(RATINGS)),
         "stat": draw(st.sampled_from(STAT_NAMES)), "after_battle": draw(st.integers(1, 7))}
        for _ in range(draw(st.integers(0, 3)))
    ]
    return doc


# ---- raw text ---------------------------------------------------------------------------------------------------

INSERTS = (b"\x00", b"\xff", b"\xc3", b"\xe2\x82", b"[", b"]", b"{", b"}", b"=", b'"', b"'", b"\n", b",", b":",
           b"nan", b"inf", b"-inf", b"-", b"1e999", b"9" * 40, b"[[units]]\n", b"[[terrain]]\n", b"[table]\n",
           b"\"\"\"", b"#", b"\\", b"\t", b"true", b"null", b"NaN", b"Infinity", b"[" * 3000, b"{\"a\":" * 3000,
           b"a = " + b"[" * 3000, "é".encode(), "\U0001f4a5".encode(), b"\r\n", b"\xef\xbb\xbf")


@st.composite
def mutated_bytes(draw, original: bytes) -> bytes:
    """``original`` truncated, with bytes flipped, inserted, deleted or duplicated (1 to 3 edits)."""
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["truncate", "flip", "flip", "insert", "insert", "delete", "duplicate", "token"]))
        pos = draw(st.integers(0, len(data)))
        if op == "truncate":
            del data[pos:]
        elif op == "flip" and data:
            i = min(pos, len(data) - 1)
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=4))
        elif op == "delete":
            del data[pos:pos + draw(st.integers(1, 40))]
        elif op == "duplicate":
            n = draw(st.integers(1, 200))
            data[pos:pos] = data[pos:pos + n]
        elif op == "token":
            data[pos:pos] = draw(st.sampled_from(INSERTS))
    return bytes(data)


def renderings(doc: dict) -> list[tuple[str, bytes]]:
    """A document as TOML and as JSON bytes: the seeds of the raw-text mutations."""
    out = [(".json", json.dumps(doc, indent=1, ensure_ascii=False).encode("utf-8"))]
    try:
        out.append((".toml", tomli_w.dumps(doc).encode("utf-8")))
    except (TypeError, ValueError, RecursionError):
        pass
    return out


def document_bytes(doc, suffix: str) -> bytes:
    """``doc`` written as ``suffix`` says; a document TOML cannot hold (None, a list at the top) is written as JSON
    text, which a .toml loader must refuse cleanly too."""
    if suffix == ".toml" and isinstance(doc, dict):
        try:
            return tomli_w.dumps(doc).encode("utf-8")
        except (TypeError, ValueError, RecursionError):      # deeply nested junk: tomli_w recurses
            pass
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


suffixes = st.sampled_from([".toml", ".json"])
