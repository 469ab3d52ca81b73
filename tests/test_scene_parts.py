"""A scene's parts talk to their scene through a narrow interface, not the whole scene.

Each part of a table scene (a tool, the questions, the computer's turns, the drawing, the mouse) names what it uses
of its scene as a ``typing.Protocol`` in its own module, and holds its scene as that protocol: it never imports a
table scene's module, not even for the type checker, so no part is in an import circle with its scene.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import typing

from tests.source import tree_of
from tests.test_boundary import MODULES, import_cycles, imports, run_time_imports

SCENES = "referee.ui.scenes."

# Each part and the scene that holds it (or whose work its functions do).
PARTS = {
    "battle_bar": "battle", "battle_choices": "battle", "battle_computer": "battle", "battle_placing": "battle",
    "battle_questions": "battle", "battle_target": "battle",
    "referee_computer": "referee", "referee_corrections": "referee", "referee_missions": "referee",
    "setup_cards": "setup_table", "setup_drawing": "setup_table",
    "table_drawing": "table", "table_events": "table", "table_tools": "table",
}

# The part classes, held by their scene as ``host``.
PART_CLASSES = {
    "battle_bar": "ActionBar", "battle_choices": "ChoiceTools", "battle_computer": "ComputerTurns",
    "battle_placing": "RevealPlacing", "battle_questions": "BattleQuestions", "battle_target": "TargetTool",
    "referee_computer": "TableComputerTurns", "referee_corrections": "PieceCorrections",
    "referee_missions": "MissionEntry", "setup_cards": "SetupCards",
}


def table_scene_modules() -> set[str]:
    """The modules that define the table scene or a scene built on it (the battle, the referee, the set-up...)."""
    bases: dict[str, tuple[str, list[str]]] = {}
    for name, path in MODULES.items():
        if name.startswith(SCENES):
            for node in ast.walk(tree_of(path)):
                if isinstance(node, ast.ClassDef):
                    bases[node.name] = (name, [ast.unparse(b).rpartition(".")[2] for b in node.bases])
    family = {"TableScene"}
    grew = True
    while grew:
        more = {c for c, (_m, bs) in bases.items() if c not in family and family.intersection(bs)}
        family |= more
        grew = bool(more)
    return {bases[c][0] for c in family}


def test_the_table_scenes_are_found():
    found = table_scene_modules()
    assert {SCENES + m for m in ("table", "battle", "referee", "setup_table", "table_mode", "remote_battle")} <= found
    assert not {SCENES + p for p in PARTS} & found


def test_no_part_imports_a_table_scene_not_even_for_the_type_checker():
    scenes = table_scene_modules()
    assert {SCENES + s for s in PARTS.values()} <= scenes
    crossing = {p: sorted(m for m in imports(SCENES + p) if m in scenes) for p in PARTS}
    crossing = {p: ms for p, ms in crossing.items() if ms}
    assert not crossing, f"these parts import their scene's module; name what they use of it as a protocol: {crossing}"


def test_the_checker_counts_the_imports_made_for_the_type_checker():
    # ``hosting`` names the shared table's scene for the type checker only: the parts' check would see such an import.
    shared_table = SCENES + "table_mode"
    assert shared_table in imports("referee.ui.hosting")
    assert shared_table not in run_time_imports("referee.ui.hosting")


def test_no_part_is_in_an_import_circle_counting_the_type_checkers_imports():
    circles = import_cycles(imports)
    caught = {p: sorted(c) for p in PARTS for c in circles if SCENES + p in c}
    assert not caught, f"these parts are in an import circle: {caught}"


def is_protocol(kind: object) -> bool:
    return bool(getattr(kind, "_is_protocol", False))


def test_each_part_holds_its_scene_as_a_protocol():
    for part, cls_name in PART_CLASSES.items():
        cls = getattr(importlib.import_module(SCENES + part), cls_name)
        hints = typing.get_type_hints(cls.__init__)
        assert is_protocol(hints["host"]), f"{part}.{cls_name} takes its scene as {hints['host']}, not a protocol"
        held = typing.get_type_hints(cls).get("host", hints["host"])
        assert is_protocol(held), f"{part}.{cls_name}.host is {held}, not a protocol"


def test_each_function_of_a_part_takes_its_scene_as_a_protocol():
    for part in set(PARTS) - set(PART_CLASSES):
        module = importlib.import_module(SCENES + part)
        functions = [f for _n, f in inspect.getmembers(module, inspect.isfunction) if f.__module__ == module.__name__]
        taking = [f for f in functions if "scene" in inspect.signature(f).parameters]
        assert taking, f"{part} has no function taking the scene"
        for f in taking:
            # The scene's annotation alone: a part may name a rules type only for the type checker (loaded late).
            kind = f.__annotations__["scene"]
            kind = eval(kind, vars(module)) if isinstance(kind, str) else kind
            assert is_protocol(kind), f"{part}.{f.__name__} takes the scene as {kind}, not a protocol"
