"""``game/`` is in sub-packages in dependency order: each one imports at run time only from itself and the ones
below it, so a reader can take them bottom to top and a change low down shows what it can reach.

From the bottom: ``battle`` (the state and its words), ``views`` (what a seat may see), ``play`` (the engine),
``records`` (records and saves), ``reports``, ``players`` (the computer, random play), ``campaigns``. Imports made
for the type checker only (``if TYPE_CHECKING:``) are left out: they never run.
"""

from __future__ import annotations

from tests.test_boundary import MODULES, run_time_imports

ORDER = ("battle", "views", "play", "records", "reports", "players", "campaigns")


def _part(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) < 3 or parts[:2] != ["referee", "game"]:
        return None
    return parts[2] if parts[2] in ORDER else None


def upward_imports(imported=run_time_imports) -> list[tuple[str, str]]:
    found = []
    for name in sorted(MODULES):
        low = _part(name)
        if low is None:
            continue
        for other in sorted(imported(name)):
            high = _part(other)
            if high is not None and ORDER.index(high) > ORDER.index(low):
                found.append((name, other))
    return found


def test_every_module_of_game_is_in_a_part():
    loose = sorted(m for m in MODULES if m.startswith("referee.game.") and _part(m) is None)
    assert loose == [], f"modules of game/ outside its sub-packages: {loose}"


def test_each_part_of_game_imports_only_the_parts_below_it():
    assert upward_imports() == []


def test_an_upward_import_is_found():
    def planted(name: str) -> frozenset[str]:
        extra = {"referee.game.players.computer.player"} if name == "referee.game.battle.state" else set()
        return run_time_imports(name) | extra

    assert ("referee.game.battle.state", "referee.game.players.computer.player") in upward_imports(planted)
