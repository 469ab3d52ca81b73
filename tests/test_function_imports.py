"""An import of the package inside a function is lazy loading, and says why.

Imports belong at the top of a module; one inside a function only hides a cycle (``test_boundary.py`` finds those)
unless it is lazy loading: a command of the command line, a window scene, a heavy library that only one path needs.
Such an import carries its reason in a comment on its line or the line before it.
"""

from __future__ import annotations

import ast

from tests.source import PACKAGE, source_files, text_of, tree_of


def uncommented_imports(text: str, tree: ast.Module | None = None) -> list[int]:
    """The lines of ``text`` where a function imports a module of the package with no comment saying why."""
    lines = text.splitlines()
    found = []
    # One walk, noting which nodes lie inside a function (a nested function's body is inside its outer one too).
    todo: list[tuple[ast.AST, bool]] = [(tree or ast.parse(text), False)]
    while todo:
        node, in_function = todo.pop()
        if in_function and isinstance(node, ast.ImportFrom):
            own = node.level > 0 or (node.module or "").split(".")[0] == "referee"
        elif in_function and isinstance(node, ast.Import):
            own = any(a.name.split(".")[0] == "referee" for a in node.names)
        else:
            inside = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            todo.extend((child, inside) for child in ast.iter_child_nodes(node))
            continue
        line = lines[node.lineno - 1]
        before = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
        if own and "#" not in line and not before.startswith("#"):
            found.append(node.lineno)
    return sorted(set(found))


def test_every_import_inside_a_function_says_why():
    found = {}
    for path in source_files():
        lines = uncommented_imports(text_of(path), tree_of(path))
        if lines:
            found[str(path.relative_to(PACKAGE))] = lines
    assert not found, ("these functions import the package with no reason given; move the import to the top of "
                       f"the module, or say on its line why it is loaded late: {found}")


def test_the_check_finds_a_planted_import():
    planted = "def f():\n    from .rules import sight\n    return sight\n"
    said = "def f():\n    # lazy: only the photo reader needs OpenCV\n    from .capture import photo\n    return photo\n"
    assert uncommented_imports(planted) == [2]
    assert uncommented_imports(said) == []
    assert uncommented_imports("def f():\n    import json\n") == []
