"""The action kinds are a closed set, named once (``game/battle/action_kinds.py``): each kind has its arguments, its words,
its button or the reason it has none, its check and its resolution, and no other module spells a kind's name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from referee.game.battle.action_kinds import ALL_KINDS, KINDS, Arg, Button, Kind, bar_buttons
from referee.game.play.action_table import RULES
from referee.game.records.record import ACTION_KINDS

from tests.source import PACKAGE, source_files, text_of, tree_of

ROOT = Path(__file__).resolve().parent.parent

# Where a kind's word may still be written as a string, and why.
ALLOWED = {
    "game/battle/action_kinds.py": "the registry itself",
    "rules/catalogue.py": "a faction file's drone actions (move, jump, kamikaze...): the file's words, not the record's",
    "cli/query.py": "the query contract's question names (move, jump), kept as REFEREE-QUERY.md spells them",
}
WORDS = {word for name, word in vars(Kind).items() if name.isupper()}
NOT_A_KIND = "# not an action kind"
# Words that also name something else: the phase "end-of-round", the set-up step "choose-cards", a weapon or a drone
# type ("rifle", "flamer", "jammer"), a Target's "target", an argument's name. Those count only where they stand for
# a kind: compared with a kind, given to an Action, as a ``kind``, or in a group or table of kinds.
ONLY_AS_KIND = {"end-of-round", "choose-cards", "move", "jump", "target", "rifle", "missile", "flamer", "kamikaze",
                "command", "repair", "jammer", "reveal", "face", "objectives", "correct", "contents", "mission"}


def test_every_kind_has_its_entry() -> None:
    assert set(KINDS) == WORDS
    for kind, entry in KINDS.items():
        assert entry.kind is kind
        assert entry.rule and entry.does, kind
        assert all(isinstance(a, Arg) and a.name and a.values for a in entry.args), kind
        assert len({a.name for a in entry.args}) == len(entry.args), kind
        # A button of the window's bar, or the reason the window has none; never both.
        assert bool(entry.buttons) != bool(entry.no_button), kind
        assert all(isinstance(b, Button) and b.label and b.tip for b in entry.buttons), kind


def test_every_kind_has_its_check_and_resolution() -> None:
    assert set(RULES) == WORDS
    for kind, rules in RULES.items():
        assert callable(rules.resolve), kind
        assert callable(rules.check) or rules.checked_by, kind


def test_the_save_records_every_kind_by_its_word() -> None:
    assert list(ACTION_KINDS) == list(ALL_KINDS) and set(ALL_KINDS) == WORDS
    # The words a save holds, as they always were: plain strings.
    assert Kind.END_OF_ROUND == "end-of-round" and type(Kind.PLACE_BLIPS) is str
    assert list(ALL_KINDS)[:3] == ["move", "jump", "target"]


def test_every_kind_is_in_the_manual() -> None:
    manual = (ROOT / "docs" / "actions.md").read_text(encoding="utf-8")
    missing = [word for word in sorted(WORDS) if f"`{word}`" not in manual]
    assert missing == [], f"docs/actions.md does not describe {missing}"


def test_buttons_have_distinct_places_and_keys() -> None:
    buttons = bar_buttons()
    assert len({b.place for b in buttons}) == len(buttons)
    letters = [b.key for b in buttons if b.key]
    assert len(set(letters)) == len(letters)
    assert all(re.fullmatch("[a-z]", k) for k in letters)


def test_the_window_bar_and_keys_read_the_registry() -> None:
    from referee.ui.scenes.battle_bar import ACTIONS
    from referee.ui.scenes.battle_keys import BATTLE

    bar = [key for key, _label, _tip in ACTIONS]
    assert bar[:len(bar_buttons())] == [b.name for b in bar_buttons()]
    keyed = {each[0] for binding in BATTLE[1] if binding.handler == "action_key" for each in binding.each}
    assert keyed >= {b.name for b in bar_buttons() if b.key}


def _kindish(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return "kind" in node.id.lower()
    return isinstance(node, ast.Attribute) and "kind" in node.attr.lower()


def _words(node: ast.AST) -> list[ast.Constant]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [c for e in node.elts for c in _words(e)]
    return []


def _nodes(tree: ast.AST) -> tuple[list[ast.AST], set[int]]:
    """Every node of ``tree``, and the ids of those inside an f-string or a ``Literal[...]``: one walk (``ast.walk``
    twice over the package's ~450,000 nodes was most of this scan's time)."""
    nodes: list[ast.AST] = []
    skip: set[int] = set()
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, inside = stack.pop()
        inside = inside or isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Literal")
        nodes.append(node)
        if inside:
            skip.add(id(node))
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                stack.extend((v, inside) for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append((value, inside))
    return nodes, skip


def spelled_kinds(source: str, tree: ast.Module | None = None) -> list[tuple[int, str]]:
    """(line, word) for each string in ``source`` that spells an action kind: any word that names nothing else, and
    the others where they stand for a kind (see ``ONLY_AS_KIND``). Text inside an f-string or a ``Literal`` is not
    counted: it is words, or a type that is no kind."""
    nodes, skip = _nodes(tree or ast.parse(source))
    found: dict[int, ast.Constant] = {}

    def add(c: ast.Constant) -> None:
        if id(c) not in skip and c.value in WORDS:
            found[id(c)] = c

    for node in nodes:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value not in ONLY_AS_KIND:
            add(node)
        elif isinstance(node, ast.Compare) and any(_kindish(p) for p in [node.left, *node.comparators]):
            for part in [node.left, *node.comparators]:
                for c in _words(part):
                    add(c)
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name in ("Action", "LegalAction") and node.args:
                for c in _words(node.args[0]):
                    add(c)
            for kw in node.keywords:
                if kw.arg and "kind" in kw.arg:
                    for c in _words(kw.value):
                        add(c)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and any(
                isinstance(t, ast.Name) and t.id == "kind"
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            for c in ast.walk(node.value) if node.value is not None else ():
                if isinstance(c, ast.Constant) and isinstance(c.value, str):
                    add(c)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id.islower() \
                and "kind" in node.value.id:
            for c in _words(node.slice):
                add(c)
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and len(node.elts) >= 2 and all(
                isinstance(e, ast.Constant) and e.value in WORDS for e in node.elts):
            for c in _words(node):
                add(c)
        elif isinstance(node, ast.Dict):
            keys = [k for k in node.keys if k is not None]
            if len(keys) >= 2 and all(isinstance(k, ast.Constant) and k.value in WORDS for k in keys):
                for k in keys:
                    add(k)      # type: ignore[arg-type]
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and k.value == "kind":
                    for c in _words(v):
                        add(c)
    # A word that is some other kind (a scored roll's "rifle") says so on its line.
    lines = source.splitlines()
    return sorted((c.lineno, str(c.value)) for c in found.values() if NOT_A_KIND not in lines[c.lineno - 1])


def test_no_module_spells_a_kind() -> None:
    spelled = {}
    for path in source_files():
        name = path.relative_to(PACKAGE).as_posix()
        if name in ALLOWED:
            continue
        found = spelled_kinds(text_of(path), tree_of(path))
        if found:
            spelled[name] = found
    assert spelled == {}, f"use action_kinds.Kind instead: {spelled}"


def test_the_scan_finds_a_kind_spelled() -> None:
    planted = ('if action.kind == "rifle":\n    x = Action("end-turn")\nWEIGHT = {"move": 1, "jump": 2}\n'
               'kind = rng.choice(["reveal", "teleport"])\nla = by_kind["choose-cards"]\n')
    assert spelled_kinds(planted) == [(1, "rifle"), (2, "end-turn"), (3, "jump"), (3, "move"), (4, "reveal"),
                                      (5, "choose-cards")]
    # A phase, a weapon, an argument and words are not kinds.
    fine = 'if state.phase == "end-of-round":\n    w = "rifle"\n    a = {"target": t}\n    s = f"{k} rifle"\n'
    assert spelled_kinds(fine) == []
    assert spelled_kinds('rifled = test.kind == "rifle"  # not an action kind: a scored roll\n') == []


def test_the_private_kinds_are_kinds_of_a_side_each_with_the_secret_it_keeps():
    from referee.game.battle.action_kinds import PRIVATE
    from referee.service.privacy import is_private

    assert PRIVATE and set(PRIVATE) <= set(KINDS)
    assert all(reason.strip() for reason in PRIVATE.values())
    # Nothing played openly at the table is private: a Move, a Target, a shot, an activation, set-up's edge.
    for kind in (Kind.MOVE, Kind.TARGET, Kind.RIFLE, Kind.ACTIVATE, Kind.CHOOSE_EDGE, Kind.SENSOR_POOL):
        assert not is_private(kind)
    assert is_private(Kind.FILL_HOLDING) and is_private(Kind.SCRAMBLE)
