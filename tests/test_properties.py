"""Property tests over random battles played from the legal actions.

1. The battlefield a player's window measures on (built from that player's view) equals the engine's on every
   public field.
2. For every action chosen, the engine's preview (its resolution stopped before the first die) shows the figures
   the resolution then uses with the same dice.

Battles are set up and played with seeded dice on the bundled table, and played from a table with every kind of unit
already revealed and close, under a few readings of the rulings and at scale 1 and 0.5: about 550 states.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from pathlib import Path

import pytest

from referee import paths
from referee.game.views.battlefield import battlefield_of
from referee.game.play.engine import Game, begin_battle
from referee.game.play.legal import to_act
from referee.game.players.legal_play import choose
from referee.game.records.record import new_seeded_dice
from referee.game.play.session import Session, preview
from referee.game.play.setup import SetupChoices, new_battle
from referee.game.battle.state import state_from_scenario
from referee.rules.battlefield import Piece
from referee.rules.scenario import load_scenario

STEPS = 110
UI_TABLE = Path(__file__).with_name("ui") / "table.toml"
RUNS = [  # (seed, table, factions or None for a table already deployed, scale, rulings)
    (11, None, ("council-of-zane", "new-tokyo"), 1.0, {}),
    (12, None, ("peoples-utopian-collective", "council-of-zane"), 0.5, {"A36": "B", "A30": "B"}),
    (13, None, ("new-tokyo", "peoples-utopian-collective"), 1.0, {"A27": "B", "A35": "B", "A14": "B"}),
    # A table with every kind of unit revealed, close together and holding counters: fire, flamers, kamikazes.
    (21, UI_TABLE, None, 1.0, {}),
    (22, UI_TABLE, None, 0.5, {"A36": "B", "A12": "B", "A17": "B"}),
    (23, UI_TABLE, None, 1.0, {"A30": "B", "A35": "B", "A34": "B", "A27": "B"}),
]
PIECE_FIELDS = [f.name for f in dataclasses.fields(Piece)]


def _battle(seed, table_path, factions, scale, rulings):
    table = load_scenario(table_path or paths.DEFAULT_SCENARIO)
    table = table.model_copy(update={"scale": scale, "rulings": {**table.rulings, **rulings}})
    if factions is None:
        table = table.model_copy(update={"blips": []})     # its blips hold no recorded contents
    dice = new_seeded_dice(seed)
    if factions is None:
        return Game(begin_battle(state_from_scenario(table), first="A")), dice
    state, _ = new_battle(table, SetupChoices(factions={"A": factions[0], "B": factions[1]}), dice)
    return Game(state), dice


def _steps(run):
    """Each state of a random battle with the action chosen in it, its preview, and the outcome applied."""
    game, dice = _battle(*run)
    seed = run[0]
    session = Session(game)
    rng = random.Random(seed)
    for _ in range(STEPS):
        s = game.state
        if s.phase == "over" and not (s.result is not None and s.result.pending):
            return
        action = choose(session, rng, to_act(s) or s.initiative)
        if action is None:
            return
        before = s
        seen = preview(before, action)
        outcome = session.apply(action, dice)
        yield before, action, seen, outcome


@functools.lru_cache(maxsize=None)
def _played(run_index: int) -> list:
    return list(_steps(RUNS[run_index]))


@pytest.fixture(params=range(len(RUNS)), ids=[f"seed{r[0]}" for r in RUNS])
def played(request):
    return _played(request.param)


def _close(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(a, b, abs_tol=1e-9)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    return a == b


def _public_piece(p, drone_facing: bool) -> dict:
    d = {name: getattr(p, name) for name in PIECE_FIELDS}
    if p.is_drone and not drone_facing:
        del d["facing"]           # a drone sees all round (A12 option A): its facing is no rule's business
    return d


def test_the_windows_battlefield_equals_the_engines_on_every_public_field(played):
    assert len(played) >= 30
    compared = 0
    for before, _action, _seen, _outcome in played:
        engine = battlefield_of(before)
        drone_facing = engine.rulings.reads("A12", "B")
        for side in ("A", "B"):
            window = battlefield_of(before, side)
            assert (window.width, window.height, window.scale, window.attacker) == \
                   (engine.width, engine.height, engine.scale, engine.attacker)
            assert window.rulings.choices == engine.rulings.choices and window.rulings.params == engine.rulings.params
            assert [(f.id, f.type_id, f.circle) for f in window.features] == \
                   [(f.id, f.type_id, f.circle) for f in engine.features]
            # The same shape (most features are one object, shared through the terrain's cache) or an equal one.
            assert all(a.geometry is b.geometry or a.geometry.equals(b.geometry)
                       for a, b in zip(window.features, engine.features))
            assert window.pieces.keys() == engine.pieces.keys()
            for pid, p in engine.pieces.items():
                assert _public_piece(window.pieces[pid], drone_facing) == _public_piece(p, drone_facing), pid
                compared += 1
    assert compared > 1000


# What the preview shows -> what the resolution used (``ActionOutcome.applied``).
def _pairs(kind: str, figures: dict, applied: dict) -> list[tuple[str, object, object]]:
    out = []

    def both(key, shown=None, used=None):
        if key in figures and key in applied:
            out.append((key, figures[key] if shown is None else shown, applied[key] if used is None else used))

    if kind in ("move", "jump", "kamikaze"):
        for key in ("end", "removes", "adds"):
            both(key)
    elif kind == "target":
        for key in ("dice", "cost", "prices"):
            both(key)
    elif kind == "rifle":
        for key in ("weapon", "dice"):
            both(key)
    elif kind == "missile":
        cms = [c["unit"] for c in figures.get("countermeasures", [])]
        if "countermeasures" in applied and not any(c["cm"] is None for c in figures["countermeasures"]):
            out.append(("countermeasures", cms, applied["countermeasures"]))
        both("effective_counters")
        blast = applied.get("blast")
        if blast is not None and "blast" in figures and _close(blast["centre"], figures["blast"]["centre"]):
            out.append(("blast", figures["blast"]["catches"], blast["catches"]))
    elif kind == "flamer":
        for key in ("centre", "radius", "under"):
            both(key)
    if kind == "kamikaze":
        if "contact" in figures and "contact" in applied:
            out.append(("contact", figures["contact"]["effective_counters"], applied["contact"]["effective_counters"]))
        blast = applied.get("blast")
        if blast is not None and "blast" in figures and _close(blast["centre"], figures["blast"]["centre"]):
            out.append(("blast", figures["blast"]["catches"], blast["catches"]))
    return out


def test_every_preview_shows_the_figures_the_engine_then_uses(played):
    checked: dict[str, int] = {}
    for _before, action, seen, outcome in played:
        if not seen.legal:
            assert not outcome.legal and seen.reason == outcome.reason, (action, seen.reason, outcome.reason)
            continue
        if not outcome.legal:
            # Only the dice can still refuse what the preview accepted (a Target pool too small to pay, p.19).
            assert seen.first_roll is not None and "sensor pool" in outcome.reason, (action, outcome.reason)
            continue
        for key, shown, used in _pairs(action.kind, seen.figures, outcome.applied):
            assert _close(shown, used), (action, key, shown, used)
            checked[action.kind] = checked.get(action.kind, 0) + 1
    # The battles must actually exercise the previews, not pass by comparing nothing.
    assert sum(checked.values()) >= 20, checked


def test_the_runs_cover_the_action_kinds_with_figures():
    kinds = set()
    assert sum(len(_played(i)) for i in range(len(RUNS))) >= 400      # a few hundred random states
    for i in range(len(RUNS)):
        for _before, action, seen, outcome in _played(i):
            if outcome.legal and _pairs(action.kind, seen.figures, outcome.applied):
                kinds.add(action.kind)
    assert {"move", "target", "rifle", "missile", "flamer"} <= kinds, kinds
