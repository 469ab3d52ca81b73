"""The battle service is a boundary: nothing outside it reads the battle's state.

The window (``ui/``) and the command line (``cli/``) are clients of the service (``service/``): they may import the
service, the rules (pure functions of a table) and the modules of ``game/`` that hold no battle state (the cards,
the campaign file, the dice, the view's types), and nothing else of ``game/``. A module "holds the state" when its
imports, followed through every module they import (function-level imports included), reach ``game/state.py``.

The clients not yet moved behind the service are listed in ``NOT_YET_CLIENTS``; the list only shrinks: a module
that no longer reaches past the service must be taken off it, and a module not on it may not start to.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import referee

PACKAGE = Path(referee.__file__).resolve().parent
STATE = "referee.game.state"
CLIENTS = ("referee.ui", "referee.cli")

# Clients that still import a part of game/ holding the state, to be moved behind the service.
NOT_YET_CLIENTS = frozenset({
    "referee.ui.action_words", "referee.ui.app", "referee.ui.battle_log", "referee.ui.summary_page",
    "referee.ui.table_data",
    "referee.ui.scenes.battle", "referee.ui.scenes.battle_choices", "referee.ui.scenes.battle_questions",
    "referee.ui.scenes.battle_target", "referee.ui.scenes.campaign", "referee.ui.scenes.campaign_start",
    "referee.ui.scenes.faction_campaign", "referee.ui.scenes.holding",
    "referee.ui.scenes.holding_setup", "referee.ui.scenes.look_back", "referee.ui.scenes.menu",
    "referee.ui.scenes.referee_computer", "referee.ui.scenes.replay",
    "referee.ui.scenes.report", "referee.ui.scenes.setup", "referee.ui.scenes.setup_cards",
    "referee.ui.scenes.setup_table",
})


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


@cache
def imports(name: str) -> frozenset[str]:
    """The package's modules that ``name`` imports anywhere in its text (top level or inside a function)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    assert reaches_state("referee.game.engine") and reaches_state("referee.service.session")
    assert not reaches_state("referee.game.view_types") and not reaches_state("referee.rules.sight")
    assert "referee.game.state" in imports("referee.game.engine")


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
