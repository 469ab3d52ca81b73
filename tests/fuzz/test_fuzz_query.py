"""The command line, fed random questions, random arguments and broken files: exit status 0 or 2, never a traceback.

For every command line: ``main([...])`` returns 0 or 2 and raises nothing; on 2 the reason is on stderr and nothing
is on stdout (the ``validate`` reports, which list the valid files on stdout, keep every problem on stderr); no
numeric warning (a NaN reaching the geometry) is raised; an answered ``--json`` question prints one strict JSON
object (no NaN or Infinity).
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import warnings
from pathlib import Path

import pytest
from hypothesis import event, example, given
from hypothesis import strategies as st

from referee.cli.do import DO_ACTIONS
from referee.cli.main import main
from referee.cli.query import QUESTIONS

from .strategies import (CARD_FILES, EXAMPLE_SAVE, FACTION_FILES, SCENARIO_FILES, broken_scenarios, bundled_documents,
                         campaign_documents, document_bytes, faction_documents, fuzz_settings, mutated,
                         mutated_bytes, mutated_or_whole, scenario_documents, suffixes)

OUT = "@OUT@"          # stands for the test's own folder in generated command lines (``do --out``)

SCENARIO_DOCS = bundled_documents(SCENARIO_FILES)
_names = itertools.count()
PYTHON_ERROR = re.compile(r"\b[A-Z]\w*(Error|Exception): ")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-query")


def _reject_constant(name):
    raise ValueError(f"{name} is not strict JSON")


def run_cli(capsys, workdir: Path, argv: list[str], report: bool = False) -> tuple[int, str, str]:
    """Run ``main(argv)`` and check the contract; ``report``: a validate command, whose stdout lists valid files."""
    argv = [a.replace(OUT, str(workdir)) for a in argv]
    capsys.readouterr()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status = main(argv)
    out, err = capsys.readouterr()
    refusable = "do" in argv         # a ``do`` the rules refuse answers with exit status 3 (docs/query.md)
    assert status in ((0, 2, 3) if refusable else (0, 2)), f"exit status {status!r}"
    assert "Traceback" not in err and "Traceback" not in out
    if status == 2:
        assert err.strip(), "exit status 2 without a reason on stderr"
        assert not PYTHON_ERROR.search(err), f"a Python error in the message: {err[:300]}"
        if report:
            # the report lists the valid files on stdout; every problem is on stderr
            assert not [line for line in out.splitlines() if line.startswith("  - ")], f"problems on stdout: {out[:300]}"
        else:
            assert out == "", f"exit status 2 with output on stdout: {out[:300]}"
    numeric = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    assert not numeric, f"numeric warnings (a NaN or an infinity reached the computation): {numeric}"
    if status in (0, 3) and "--json" in argv and "--" not in argv:
        answer = json.loads(out, parse_constant=_reject_constant)
        assert isinstance(answer, dict)
        if status == 3:
            assert answer["legal"] is False and answer["reason"]
    event(f"exit status {status}")
    return status, out, err


# ---- arguments ------------------------------------------------------------------------------------------------

NUMBERS = ("0", "5", "12.5", "-3", "36", "35.5", "1e9", "-1e308", "1e308", "1.7976931348623157e308", "nan", "inf",
           "-inf", "x", "", "1,5", "0x10", "1e-9", " 7", "\u0663", "6.0000001", "-0", "10000", "10000.5")
NOBODY = ("nobody", "", "ALPHA", "alpha", "t0", "in-a0-0", "-1", "a" * 200, "\u00e9", "A", "B")
DICE = ("", "6", "6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6", "1,2,3", "9,x", "0", "6,,6", " 1, 2", "-1", "7", "1.5", "6;6",
        ",", "1" * 30)
BEARINGS = ("0", "90", "360", "400", "-1", "nan", "x", "359.9", "1e308")
STEPS = ("0", "-1", "nan", "inf", "1e-9", "0.001", "0.01", "3", "6", "1e308", "x", "2", "36", "100")
POOLS = ("-3", "0", "1", "12", "x", "99999999999999999999", "1.5", "")
COUNTS = ("-5", "0", "1", "3", "x", "99999999999", "", "2.5")
EXTRA = ("--json", "--pool", "-3", "--pool=-3", "--step", "0", "--engine", "fast", "--via", "--dice", "9,x",
         "--bearing", "400", "--assign", "B=3", "=", "--target", "--jump", "--out", "--facing", "--", "-x",
         "--json=1", "A", "B", "C", "--unknown", "5", "nan")
OUTS = (f"{OUT}/state.toml", f"{OUT}/state.json", f"{OUT}/new/folder/state.toml", OUT, f"{OUT}/state.txt",
        "/dev/null/state.toml", f"{OUT}/" + "y" * 300 + ".toml")

wild_numbers = st.one_of(st.sampled_from(NUMBERS), st.floats(-10, 50).map(lambda v: f"{v:.2f}"),
                         st.integers(-3, 40).map(str))
table_numbers = st.floats(0, 36).map(lambda v: f"{v:.2f}")
dice_lists = st.lists(st.integers(1, 6), max_size=16).map(lambda v: ",".join(map(str, v)))


class Values:
    """Where a command line's values come from: ``sane`` ones (known ids, numbers on the table, real dice) reach the
    rules; wild ones test the arguments' checks."""

    def __init__(self, draw, ids: list[str]):
        self.sane = draw(st.booleans())
        known = st.sampled_from(ids) if ids else st.nothing()
        if self.sane and ids:
            self.ident = known
        else:
            self.ident = st.one_of(known, known, st.sampled_from(NOBODY))
        self.number = table_numbers if self.sane else st.one_of(table_numbers, wild_numbers)
        self.dice = dice_lists if self.sane else st.one_of(st.sampled_from(DICE), dice_lists)
        self.bearing = (st.integers(0, 360).map(str) if self.sane
                        else st.one_of(st.integers(0, 360).map(str), st.sampled_from(BEARINGS)))
        self.pool = st.integers(0, 30).map(str) if self.sane else st.sampled_from(POOLS)
        self.count = st.integers(0, 6).map(str) if self.sane else st.sampled_from(COUNTS)
        self.step = st.sampled_from(["1", "2", "3", "6"]) if self.sane else st.sampled_from(STEPS)


@st.composite
def fiddled(draw, args: list[str]) -> list[str]:
    """Now and then an argument dropped, an unexpected one added, or one repeated."""
    args = list(args)
    for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
        op = draw(st.sampled_from(["drop", "add", "repeat"]))
        if op == "drop" and args:
            del args[draw(st.integers(0, len(args) - 1))]
        elif op == "add":
            args.insert(draw(st.integers(0, len(args))), draw(st.sampled_from(EXTRA)))
        elif op == "repeat" and args:
            args.insert(draw(st.integers(0, len(args))), draw(st.sampled_from(args)))
    return args


def _pairs(draw, flag: str, values, most: int) -> list[str]:
    out = []
    for _ in range(draw(st.integers(0, most))):
        out += [flag, draw(values), draw(values)]
    return out


QUERY_QUESTIONS = tuple(q for q in QUESTIONS if q != "do")


@st.composite
def query_args(draw, ids: list[str], reference: bool = True) -> list[str]:
    """A question (sometimes one that does not exist) with arguments that are often wrong."""
    v = Values(draw, ids)
    question = draw(st.sampled_from(QUERY_QUESTIONS if v.sane else QUERY_QUESTIONS + ("teleport", "", "RANGE")))
    args: list[str] = []
    if question in ("range", "los", "cover", "target", "rifle", "missile"):
        args = [draw(v.ident), draw(v.ident)]
        if question == "target" and draw(st.booleans()):
            args += ["--pool", draw(v.pool)]
    elif question == "passive":
        args = [draw(v.ident)]
    elif question in ("move", "jump"):
        args = [draw(v.ident), draw(v.number), draw(v.number)]
        if question == "move":
            args += _pairs(draw, "--via", v.number, 2)
    elif question in ("sightlines", "exposure"):
        if question == "exposure":
            args = [draw(st.sampled_from(["A", "B"] if v.sane else ["A", "B", "C", ""]))]
            if v.sane or draw(st.booleans()):
                args += ["--step", draw(v.step)]
        if draw(st.booleans()):
            args += ["--engine", draw(st.sampled_from(["fast", "reference", "x"] if reference else ["fast", "x"]))]
    if draw(st.booleans()):
        args.append("--json")
    if not v.sane:
        args = draw(fiddled(args))
    if question == "exposure" and "reference" in args:
        args += ["--step", "6"]        # the per-point reference engine is slow: a coarse grid only
    return [question, *args]


@st.composite
def do_args(draw, ids: list[str]) -> list[str]:
    """``do ACTION ...`` with dice, bearings and an output file that are often wrong."""
    v = Values(draw, ids)
    action = draw(st.sampled_from(DO_ACTIONS if v.sane else DO_ACTIONS + ("teleport", "")))
    args = [action]
    if action in ("move", "jump", "flamer", "kamikaze"):
        args += [draw(v.ident), draw(v.number), draw(v.number)]
    if action in ("move", "kamikaze"):
        args += _pairs(draw, "--via", v.number, 1)
    if action == "kamikaze":
        if draw(st.booleans()):
            args += ["--target", draw(v.ident)]
        if draw(st.booleans()):
            args.append("--jump")
    if action == "target":
        args.append(draw(v.ident))
        for _ in range(draw(st.integers(0, 3))):
            args += ["--assign", f"{draw(v.ident)}={draw(v.count)}"]
    if action in ("rifle", "missile", "command", "repair"):
        args += [draw(v.ident), draw(v.ident)]
    if action in ("scramble", "jammer", "reveal"):
        args.append(draw(v.ident))
        if action == "reveal" and draw(st.booleans()):
            args += ["--facing", draw(v.number)]
    if v.sane or draw(st.integers(0, 3)):
        args += ["--dice", draw(v.dice)]
    for _ in range(draw(st.integers(0, 2))):
        args += ["--bearing", draw(v.bearing)]
    if draw(st.integers(0, 4)) == 0:
        args += ["--out", draw(st.sampled_from(OUTS))]
    if draw(st.booleans()):
        args.append("--json")
    if not v.sane:
        args = draw(fiddled(args))
    return ["do", *args]


def ids_of(doc) -> list[str]:
    """Every id a (possibly broken) scenario document names."""
    out = []
    if isinstance(doc, dict):
        for key in ("units", "blips", "objectives"):
            entries = doc.get(key)
            if isinstance(entries, list):
                out += [e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)]
    return out


def write(folder: Path, stem: str, suffix: str, data: bytes) -> Path:
    path = folder / f"{stem}-{next(_names)}{suffix}"
    path.write_bytes(data)
    return path


# ---- query on the bundled scenarios ---------------------------------------------------------------------------

BUNDLED = [(str(p), ids_of(doc)) for p, (_, doc) in zip(SCENARIO_FILES, SCENARIO_DOCS)]
COVER = str(SCENARIO_FILES[[p.name for p in SCENARIO_FILES].index("cover-example.toml")])


@fuzz_settings(300)
@given(case=st.sampled_from(BUNDLED).flatmap(
    lambda b: st.tuples(st.just(b[0]), st.one_of(query_args(b[1], reference=False), do_args(b[1])))))
@example(case=(COVER, ["move", "green", "nan", "nan"]))
@example(case=(COVER, ["move", "green", "inf", "5"]))
@example(case=(COVER, ["jump", "green", "nan", "5"]))
@example(case=(COVER, ["move", "green", "5", "5", "--via", "nan", "inf"]))
@example(case=(COVER, ["exposure", "A", "--step", "1e-9"]))
@example(case=(COVER, ["do", "move", "green", "nan", "nan"]))
@example(case=(COVER, ["do", "jump", "green", "inf", "nan"]))
@example(case=(COVER, ["do", "move", "green", "18", "11", "--out", OUT]))
@example(case=(COVER, ["do", "move", "green", "18", "11", "--out", "/dev/null/state.toml"]))
@example(case=(COVER, ["target", "green", "target-e", "--pool", "-3"]))
@example(case=(COVER, ["do", "missile", "green", "target-e", "--dice", "9,x", "--bearing", "400"]))
@example(case=(COVER, ["move", "green", "1.7976931348623157e308", "1.7976931348623157e308"]))
@example(case=(COVER, ["do", "jump", "green", "1.7976931348623157e308", "1.7976931348623157e308"]))
@example(case=(COVER, ["do", "reveal", "green", "--facing", "1e308"]))
def test_query_on_bundled_scenarios(capsys, workdir, case):
    scenario, argv = case
    run_cli(capsys, workdir, ["query", scenario, *argv])


# ---- query on generated and broken scenarios ------------------------------------------------------------------

generated_scenarios = st.one_of(scenario_documents(), scenario_documents(), broken_scenarios())


@fuzz_settings(240)
@given(doc=generated_scenarios, suffix=suffixes, data=st.data())
def test_query_on_generated_scenarios(capsys, workdir, doc, suffix, data):
    path = write(workdir, "scenario", suffix, document_bytes(doc, suffix))
    ids = ids_of(doc)
    argv = data.draw(st.one_of(query_args(ids), do_args(ids)), label="argv")
    run_cli(capsys, workdir, ["query", str(path), *argv])


SCENARIO_BYTES = [(p.suffix, p.read_bytes(), ids_of(doc)) for p, (_, doc) in zip(SCENARIO_FILES, SCENARIO_DOCS)]


@fuzz_settings(100)
@given(seed=st.sampled_from(SCENARIO_BYTES), data=st.data())
@example(seed=(".json", b"[" * 100000, []), data=None)
@example(seed=(".json", b"[" * 100000, ["do"]), data=None)
def test_query_on_broken_bytes(capsys, workdir, seed, data):
    suffix, original, ids = seed
    text = original if data is None else data.draw(mutated_bytes(original), label="bytes")
    if data is None:
        # ``do`` first asks whether the file is a save: 100,000 nested lists must not reach a traceback there
        argv = ["do", "move", "a", "1", "1", "--json"] if ids == ["do"] else ["sightlines", "--json"]
    else:
        argv = data.draw(query_args(ids, reference=False), label="argv")
    path = write(workdir, "scenario", suffix, text)
    run_cli(capsys, workdir, ["query", str(path), *argv])


# ---- the other commands that read files ------------------------------------------------------------------------


def _save_texts() -> list[bytes]:
    return [EXAMPLE_SAVE.read_bytes()]


@st.composite
def file_commands(draw, folder_token: str = OUT):
    """(command line, files to write, report?): a validate, faction, cards, campaign or replay command on a broken file."""
    kind = draw(st.sampled_from(["validate", "faction-validate", "faction-show", "cards", "campaign", "replay"]))
    suffix = draw(suffixes)
    files: dict[str, bytes] = {}
    if kind in ("validate", "faction-validate", "faction-show"):
        source = draw(st.sampled_from(["scenario", "faction", "faction", "cards"] if kind == "validate"
                                      else ["faction"]))
        if source == "scenario":
            doc = draw(broken_scenarios())
        elif source == "faction":
            base = draw(st.one_of(st.sampled_from(bundled_documents(FACTION_FILES)).map(lambda nd: nd[1]),
                                  faction_documents()))
            doc = draw(st.one_of(st.just(base), mutated_or_whole(base)))
        else:
            doc = draw(mutated_or_whole(draw(st.sampled_from(bundled_documents(CARD_FILES)))[1]))
        name = f"file{suffix}"
        files[name] = (draw(mutated_bytes(document_bytes(doc, suffix))) if draw(st.integers(0, 3)) == 0
                       else document_bytes(doc, suffix))
        command = {"validate": ["validate"], "faction-validate": ["faction", "validate"],
                   "faction-show": ["faction", "show"]}[kind]
        return [*command, f"{folder_token}/{name}"], files, kind != "faction-show"
    if kind == "cards":
        broken = draw(st.sampled_from([p.name for p in CARD_FILES]))
        for p in CARD_FILES:
            data = p.read_bytes()
            if p.name == broken:
                doc = draw(mutated_or_whole(bundled_documents([p])[0][1]))
                data = draw(st.one_of(st.just(document_bytes(doc, ".toml")), mutated_bytes(data)))
            files[f"deck/{p.name}"] = data
        return ["cards", draw(st.sampled_from(["validate", "list"])), f"{folder_token}/deck"], files, False
    if kind == "campaign":
        doc = draw(st.one_of(campaign_documents(), campaign_documents().flatmap(mutated)))
        files[f"campaign{suffix}"] = document_bytes(doc, suffix)
        return ["campaign", "show", f"{folder_token}/campaign{suffix}"], files, False
    original = draw(st.sampled_from(_save_texts()))
    text = draw(st.one_of(
        mutated_bytes(original),
        mutated_or_whole(json.loads(original)).map(lambda d: document_bytes(d, ".json")),
    ))
    files["save.json"] = text
    extra = draw(st.sampled_from([[], ["--as", "A"], ["--as", "B"], ["--json"], ["--as", "C"], ["--no-log"]]))
    return ["replay", f"{folder_token}/save.json", *extra], files, False


@fuzz_settings(200)
@given(case=file_commands())
@example(case=(["faction", "show", "x" * 300 + ".toml"], {}, False))
@example(case=(["validate", "y" * 300 + ".toml"], {}, True))
@example(case=(["cards", "validate", "z" * 300], {}, False))
@example(case=(["campaign", "show", f"{OUT}/campaign.toml"],
               {"campaign.toml": b'[players.A]\nfaction = "new-tokyo"\n'}, False))
def test_commands_reading_files(capsys, workdir, case):
    argv, files, report = case
    folder = workdir / f"case-{next(_names)}"
    folder.mkdir()
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    run_cli(capsys, folder, argv, report=report)
    shutil.rmtree(folder)
