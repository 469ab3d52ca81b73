"""A belief over which enemy blips are real, from what the computer's side has seen.

The opponent's force is a Troop card line and a Drone card line of the public deck; how many units it has left
hidden is that force's size less the enemy units seen on the table or destroyed. The expected number is spread over
the enemy blips still on the table, weighted by what each blip has done: a player spends his one primary activation
of a turn on what matters, so a blip activated as the primary is likelier to hold units than one only ever moved as
a free extra blip activation. Every blip revealed (units or a decoy) leaves the table, so the rest are re-weighted.

A blip whose contents the view shows (at the end of the battle, or the computer's own) is certain. Nothing else of
the opponent's is read: the view holds no square number or contents of an enemy blip during play.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from ...battle.cards import Force, issue_force
from .seen import Seen, deck

PRIMARY_WEIGHT = 1.6      # odds multiplier per primary activation of the blip seen in the log
EXTRA_WEIGHT = 1.1        # per extra blip activation
_ACTIVATES = re.compile(r"^(\S+) activates \((extra blip )?activation")


@functools.lru_cache(maxsize=1)
def possible_forces() -> tuple[Force, ...]:
    """Every force the deck can issue (troop card x line x drone card), as the opponent may have drawn."""
    d = deck()
    out = []
    for t in d.troop_cards:
        for line in ("A", "B", "C"):
            for dc in d.drone_cards:
                try:
                    out.append(issue_force(t, line, dc, d.prices))
                except (ValueError, KeyError, AttributeError):
                    continue
    return tuple(out)


def force_size(f: Force) -> int:
    return len(f.troopers) + len(f.drones)


@dataclass(frozen=True)
class Belief:
    p_real: dict[str, float]          # enemy blip id -> probability that it holds at least one unit
    hidden_units: float               # expected enemy units still hidden in blips

    def real(self, blip_id: str) -> float:
        return self.p_real.get(blip_id, 0.0)


@functools.lru_cache(maxsize=64)
def _sizes(shown: int) -> tuple[int, ...]:
    """The sizes of the forces the deck can issue with at least ``shown`` units (``shown`` if none)."""
    return tuple([force_size(f) for f in possible_forces() if force_size(f) >= shown] or [shown])


_LOGS: dict[int, tuple[list[Any], int, list[tuple[str, float]]]] = {}


def _activations(log: list[Any]) -> list[tuple[str, float]]:
    """Each blip activation the log tells, in its order, with the odds multiplier it brings: read once for a view's
    log (by the list's identity, the list kept with it), which a decision weighs twice (its own view and the blind
    one) and a long battle makes long."""
    held = _LOGS.get(id(log))
    if held is not None and held[0] is log and held[1] == len(log):
        return held[2]
    out = []
    read = _READ
    for e in log:
        text = e.get("text", "")
        found = read.get(text, _UNREAD)
        if found is _UNREAD:
            m = _ACTIVATES.match(text)
            found = (m.group(1), EXTRA_WEIGHT if m.group(2) else PRIMARY_WEIGHT) if m else None
            if len(read) >= TEXTS_KEPT:
                read.clear()
            read[text] = found
        if found is not None:
            out.append(found)
    if len(_LOGS) >= LOGS_KEPT:
        _LOGS.clear()
    _LOGS[id(log)] = (log, len(log), out)
    return out


LOGS_KEPT = 16              # views' logs whose activations are kept (all are let go when full)
# Each log line read, with the activation it tells (None: none): every decision's view holds the battle's whole log,
# the same lines as the decision before and a few more.
TEXTS_KEPT = 20000
_UNREAD = ("", 0.0)
_READ: dict[str, tuple[str, float] | None] = {}


def enemy_seen_count(seen: Seen) -> int:
    on_table = len(seen.enemies())
    destroyed = sum(1 for d in seen.view.get("destroyed", []) if d.get("side") == seen.them)
    return on_table + destroyed


def belief(seen: Seen) -> Belief:
    blips = seen.enemy_blips()
    if not blips:
        return Belief({}, 0.0)
    certain: dict[str, float] = {}
    for b in blips:
        if "contents" in b and b["contents"] is not None:
            certain[b["id"]] = 1.0 if b["contents"] else 0.0
    shown = enemy_seen_count(seen)
    sizes = _sizes(shown)
    hidden = max(0.0, sum(sizes) / len(sizes) - shown)
    weights = {b["id"]: 1.0 for b in blips if b["id"] not in certain}
    for ident, factor in _activations(seen.view.get("log", [])):
        if ident in weights:
            weights[ident] *= factor
    known_real = sum(1 for v in certain.values() if v > 0)
    expected = max(0.0, min(float(len(weights)), hidden - known_real))
    p: dict[str, float] = dict(certain)
    if weights:
        total = sum(weights.values())
        # Proportional shares, capped at 1 and the excess handed on, so the shares add up to ``expected``.
        # Lists in the blips' order, not sets: a set's order follows the process's string hashing, and the sums and
        # the order of ``p`` with it, so the same view gave another decision in another process.
        left, open_ids = expected, list(weights)
        while open_ids and left > 1e-9:
            tw = sum(weights[i] for i in open_ids)
            capped = [i for i in open_ids if left * weights[i] / tw >= 1.0]
            if not capped:
                for i in open_ids:
                    p[i] = left * weights[i] / tw
                break
            for i in capped:
                p[i] = 1.0
            left -= len(capped)
            open_ids = [i for i in open_ids if i not in capped]
        for i in weights:
            p.setdefault(i, 0.0)
        del total
    return Belief(p, hidden)
