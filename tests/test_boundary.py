"""The battle service is a boundary: nothing outside it reads the battle's state.

The window (``ui/``) and the command line (``cli/``) are clients of the service (``service/``): they may import the
service, the rules (pure functions of a table) and the modules of ``game/`` that hold no battle state (the cards,
the campaign file, the dice, the view's types), and nothing else of ``game/``. A module "holds the state" when its
imports, followed through every module they import (function-level imports included), reach ``game/battle/state.py``.

Nor may a client read the battle through a session it was handed (``session.state``): it reads its seat's screen.
The clients not yet moved behind the service are listed (``NOT_YET_CLIENTS``, ``STILL_READING_STATE``); the lists
only shrink: a module that no longer crosses must be taken off, and a module not listed may not start to.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import referee

from tests.source import tree_of

PACKAGE = Path(referee.__file__).resolve().parent
STATE = "referee.game.battle.state"
CLIENTS = ("referee.ui", "referee.cli", "referee.net")

# Clients that still import a part of game/ holding the state, to be moved behind the service.
NOT_YET_CLIENTS: frozenset[str] = frozenset()


# Modules that import each other when the program runs (each import of the one is inside a function of the other).
CYCLES_LEFT: frozenset[frozenset[str]] = frozenset()

# Clients that still read the battle's state or record through the session they were handed (``session.state``,
# ``session.game``, ``save.game.record``) instead of their seat's screen, to be moved to the screen.
STILL_READING_STATE: frozenset[str] = frozenset()
BATTLE_PARTS = ("state", "game", "initial", "record")


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


@cache
def imports(name: str, at_run_time: bool = False) -> frozenset[str]:
    """The package's modules that ``name`` imports anywhere in its text (top level or inside a function);
    ``at_run_time``: leaving out the imports made for the type checker only (``if TYPE_CHECKING:``)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = tree_of(path)
    for_types = set()
    if at_run_time:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and any(getattr(n, "id", getattr(n, "attr", "")) == "TYPE_CHECKING"
                                                for n in ast.walk(node.test)):
                for_types.update(id(n) for n in ast.walk(node))
    found = set()
    for node in ast.walk(tree):
        if id(node) in for_types:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.update(m for m in [module] + [f"{module}.{a.name}" for a in node.names] if m in MODULES)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in MODULES)
    return frozenset(found)


@cache
def reaches_state(name: str) -> bool:
    seen, todo = {name}, [name]
    while todo:
        for m in imports(todo.pop()):
            if m == STATE:
                return True
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return name == STATE


def reaches_past_the_service(client: str) -> list[str]:
    """The modules of game/ holding the state that ``client`` imports itself."""
    return sorted(m for m in imports(client) if m.startswith("referee.game") and reaches_state(m))


def test_the_checker_sees_the_state_where_it_is():
    assert reaches_state("referee.game.play.engine") and reaches_state("referee.service.session")
    assert not reaches_state("referee.game.views.view_types") and not reaches_state("referee.rules.sight")
    assert "referee.game.battle.state" in imports("referee.game.play.engine")


def test_no_client_reads_the_battle_state_past_the_service():
    clients = [m for m in MODULES if m.startswith(CLIENTS)]
    assert len(clients) > 60
    crossing = {c: reaches_past_the_service(c) for c in clients}
    new = {c: ms for c, ms in crossing.items() if ms and c not in NOT_YET_CLIENTS}
    assert not new, f"these clients import parts of game/ that hold the battle state; go through the service: {new}"
    moved = sorted(c for c in NOT_YET_CLIENTS if c in crossing and not crossing[c])
    assert not moved, f"take these off NOT_YET_CLIENTS, they are clients of the service now: {moved}"


def test_the_rules_and_the_battle_import_no_client():
    for name in MODULES:
        if name.startswith(("referee.rules", "referee.game", "referee.service")):
            clients = sorted(m for m in imports(name) if m.startswith(CLIENTS))
            assert not clients, f"{name} imports {clients}: the engine and the service know nothing of their clients"


def reads_of_the_state(client: str) -> list[str]:
    """Where ``client`` reads the battle through an object it was handed: ``<...session>.state``, ``s.state``,
    ``<...>.game.record`` and the like (the names the window and the command line give a session, a save or a game)."""
    found = []
    for node in ast.walk(tree_of(MODULES[client])):
        if isinstance(node, ast.Attribute) and node.attr in BATTLE_PARTS:
            held = ast.unparse(node.value)
            if held.endswith(("session", ".game")) or held in ("s", "game", "self.game", "save"):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_no_client_reads_the_battle_through_a_session_it_holds():
    clients = [m for m in MODULES if m.startswith(CLIENTS)]
    reads = {c: reads_of_the_state(c) for c in clients}
    new = {c: r for c, r in reads.items() if r and c not in STILL_READING_STATE}
    assert not new, f"these clients read the battle's state; read the seat's screen instead: {new}"
    moved = sorted(c for c in STILL_READING_STATE if c in reads and not reads[c])
    assert not moved, f"take these off STILL_READING_STATE, they read their screen now: {moved}"


def run_time_imports(name: str) -> frozenset[str]:
    return imports(name, at_run_time=True)


def import_cycles(imported=run_time_imports) -> list[frozenset[str]]:
    """The groups of modules that reach each other through their run-time imports (Tarjan's strongly connected
    components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in imported(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(frozenset(group))

    for name in sorted(MODULES):
        if name not in index:
            visit(name)
    return found


def test_no_modules_import_each_other_at_run_time():
    cycles = import_cycles()
    new = [sorted(c) for c in cycles if c not in CYCLES_LEFT]
    assert not new, f"these modules import each other (an import inside a function only hides it): {new}"
    gone = [sorted(c) for c in CYCLES_LEFT if c not in cycles]
    assert not gone, f"take these off CYCLES_LEFT, they no longer import each other: {gone}"


def test_the_cycle_finder_finds_a_planted_cycle():
    def planted(name: str) -> frozenset[str]:
        return run_time_imports(name) | ({"referee.game.battle.state"} if name == "referee.game.battle.sides" else set())

    assert frozenset({"referee.game.battle.sides", "referee.game.battle.state"}) in import_cycles(planted)
    assert not any("referee.game.battle.sides" in c for c in import_cycles())
