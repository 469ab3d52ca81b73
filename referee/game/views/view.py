"""The player view: the one filter between the battle's whole truth and anything a player is shown.

A hot-seat game keeps both sides' secrets in one program, so secrecy must hold by construction, as in
boardgame.io's ``playerView``: **every player-facing output is built from ``player_view(state, side)``** -- the table
window and its hover texts, the log panel, the ``replay --as`` command, the preview of a save before it is resumed,
and any computer opponent. Code that shows a player something never reads ``GameState`` directly.
``referee_view(state)`` is the whole truth, for the referee's own tools (``replay`` without ``--as``) and the
end-of-battle report.

What a player sees (``player_view``):

* the table in the scenario format: ``name``, ``table``, ``rulings``, ``scale``, ``attacker``, ``terrain``,
  ``units`` (every unit on the table, both sides, with position, facing, counters, Damaged/Stunned, jammer and
  activation counter) and ``objectives`` (destroyed ones are kept with ``destroyed = true``);
* ``blips``: the opponent's blips as anonymous counters -- ``id``, ``side``, ``x``, ``y``, ``base`` and
  ``activation`` and nothing else: no square number, no contents, nothing derived from them. The player's own blips
  also carry their ``square`` and ``contents`` (``null`` when the referee was not told);
* ``holding``, ``missions``, ``cards``: the player's own; the opponent's entry is ``null`` until the battle is over;
* ``sealed``: both sides' seals (a seal is a hash shown to both players at set-up, see ``seal.py``); the ``salts``
  that let anyone check them are shown only when the battle is over;
* ``to_face``: troopers just revealed whose owner may still choose their facing (A13; the reveal is public);
* ``round``, ``phase``, ``initiative``, ``turn``, ``passes_in_row``, ``pursuit``, ``control``, ``destroyed``;
  ``result`` once the battle is over;
* ``setup`` while set-up runs (else ``null``): the decision it waits for (``step``, ``side``, ``objective``), the
  factions and streaks, how many blips each side has still to place; ``issued`` (the units its cards gave, still to
  go into the holding area) and ``offered`` (a streak's cards to choose from) for the player's own side only;
* ``log``: each event's public ``text`` and ``explain`` lines, plus ``note``, the private text meant for this side
  (a Scramble tells its owner which square its unit went to); other sides' private texts never appear.

When the state's ``phase`` is ``"over"`` the end-of-battle report reveals everything: both holding areas, missions,
cards, salts and every blip's square and contents.

``view_words.py`` turns a view into text for the window and the command line (``hover_text``, ``log_lines``,
``describe``, ``card_lines``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, cast

from ...rules.scenario import UnitContents
from ..battle.state import SIDES, Data, GameState, cards_data
from ..battle.state_parts import STATE_PARTS
from .view_types import (BlipView, LogLine, ObjectiveView, PlayerView, SetupView, TerrainView,
                         TurnView, UnitView)

VIEW_FORMAT = 1
SCENARIO_KEYS = ("name", "table", "rulings", "scale", "attacker", "terrain", "units", "blips", "objectives")


def player_view(state: GameState, side: str, log: bool = True) -> PlayerView:
    """What ``side`` may see of ``state``, as JSON-able data. Everything shown to a player is built from this.

    ``log=False`` leaves the log out (``"log": []``): the log grows all battle, and a caller that only looks at the
    table (a computer player choosing its next action) should not pay for it on every call.
    """
    if side not in SIDES:
        raise ValueError(f"a player view is for side A or B (got {side!r})")
    return _view(state, side, log)


def public_view(state: GameState, log: bool = True) -> PlayerView:
    """What everyone at the table may see (a spectator, the shared table screen): no side's secrets, no private
    notes; once the battle is over, the whole truth, as the rules reveal it then."""
    return _view(state, "spectator", log)


def referee_view(state: GameState, log: bool = True) -> PlayerView:
    """The whole truth: both holding areas, missions, cards, salts, every blip's square and contents."""
    return _view(state, None, log)


def scenario_part(view: PlayerView) -> Data:
    """The view's table in the scenario file format (what ``query`` reads)."""
    whole: dict[str, Any] = dict(view)
    return {k: copy.deepcopy(whole[k]) for k in SCENARIO_KEYS if whole.get(k) is not None}


# ---- building the view ------------------------------------------------------------------------------------


def _contents(contents: list[UnitContents] | None) -> list[Data] | None:
    if contents is None:
        return None
    return [c.model_dump(mode="json") for c in contents]


Sees = Callable[[str], bool]


def _view(state: GameState, viewer: str | None, with_log: bool = True) -> PlayerView:
    """The view for ``viewer`` (a side, ``"spectator"``, or None: the whole truth), built field by field from the
    state's declaration (``state_parts.STATE_PARTS``): a public field passes, a side's entry of a field kept by side
    passes only to a seat that sees that side, a mixed field goes through its own filter."""
    over = state.phase == "over"

    def sees(side: str) -> bool:
        return viewer is None or over or side == viewer

    view: dict[str, Any] = {"view": VIEW_FORMAT, "viewer": viewer if viewer is not None else "referee"}
    for name, part in STATE_PARTS.items():
        key = part.view[0]
        if key in view:
            continue                                   # a key carrying several fields (the table) is made once
        if part.secrecy == "public":
            view[key] = _PUBLIC[key](state) if (not part.once_over or over or viewer is None) else None
        elif part.secrecy == "by side":
            shown = sees if part.own_side_sees else (lambda side: viewer is None or over)
            view[key] = {side: (_ENTRY[name](state, side) if shown(side) else None) for side in SIDES}
        elif name == "log":
            view[key] = _log(state, viewer, 0) if with_log else []
        else:
            view[key] = _MIXED[name](state, sees)
    return cast(PlayerView, view)


# ---- each field as the view holds it ----------------------------------------------------------------------


def _terrain(state: GameState) -> list[TerrainView]:
    terrain: list[TerrainView] = []
    for t in state.terrain:
        entry: TerrainView = {"id": t.id, "type": t.type}
        if t.polygon is not None:
            entry["polygon"] = [list(p) for p in t.polygon]
        elif t.circle is not None:
            entry["circle"] = {"x": t.circle.x, "y": t.circle.y, "r": t.circle.r}
        terrain.append(entry)
    return terrain


def _units(state: GameState) -> list[UnitView]:
    units: list[UnitView] = []
    drones_face = state.rulings_in_force().reads("A12", "B")
    for u in state.units.values():
        d = UnitView(id=u.id, side=u.side, faction=u.faction, rating=u.rating, type=u.type, x=u.x, y=u.y,
                     facing=u.facing, base=u.base, target_counters=u.target_counters, damaged=u.damaged,
                     stunned=u.stunned, jammer_on=u.jammer_on, activation=u.activation)
        if u.is_drone and not drones_face:
            del d["facing"]               # a drone has no facing (A12 option A)
        units.append(d)                   # facing unrounded: the window measures arcs with it, as the engine does
    return units


def _blips(state: GameState, sees: Sees) -> list[BlipView]:
    """Every counter on the table; its square and contents only to a seat that sees its side."""
    blips: list[BlipView] = []
    # Sorted by side and id: the order the blips were made in must not hint at their squares.
    for b in sorted(state.blips.values(), key=lambda b: (b.side, b.id)):
        blip: BlipView = {"id": b.id, "side": b.side, "x": b.x, "y": b.y, "base": b.base, "activation": b.activation}
        if sees(b.side):
            blip["square"] = b.square
            blip["contents"] = _contents(state.holding[b.side].contents(b.square))
        blips.append(blip)
    return blips


def _objectives(state: GameState) -> list[ObjectiveView]:
    objectives: list[ObjectiveView] = []
    for o in state.objectives.values():
        objective: ObjectiveView = {"id": o.id, "x": o.x, "y": o.y, "base": o.base,
                                    "target_counters": o.target_counters, "control": o.control}
        if o.destroyed:
            objective["destroyed"] = True
        objectives.append(objective)
    return objectives


def _turn(state: GameState) -> TurnView | None:
    tn = state.turn
    if tn is None:
        return None
    return {"player": tn.player, "primary_allowed": tn.primary_allowed, "primary_used": tn.primary_used,
            "extra_blips_used": tn.extra_blips_used, "active": tn.active, "actions_left": tn.actions_left,
            "queue": list(tn.queue), "activation_kind": tn.activation_kind, "acted": tn.acted}


def _holding(state: GameState, side: str) -> dict[str, list[Data] | None] | None:
    h = state.holding.get(side)
    if h is None:
        return None
    return {str(n): _contents(h.squares.get(n, [])) for n in sorted(h.squares)}


def _cards(state: GameState, side: str) -> Data | None:
    return cards_data(state.cards[side]) if side in state.cards else None


# A public field's key in the view (several fields may share one: the table's width and height).
_PUBLIC: dict[str, Callable[[GameState], Any]] = {
    "name": lambda s: s.name,
    "table": lambda s: {"width": s.width, "height": s.height},
    "rulings": lambda s: dict(s.rulings),
    "scale": lambda s: s.scale,
    "attacker": lambda s: s.attacker,
    "mode": lambda s: s.mode,
    "terrain": _terrain,
    "units": _units,
    "objectives": _objectives,
    "ground": lambda s: [{"id": g.id, "x": g.x, "y": g.y, "target_counters": g.target_counters}
                         for g in s.ground.values()],
    "round": lambda s: s.round,
    "phase": lambda s: s.phase,
    "initiative": lambda s: s.initiative,
    "turn": _turn,
    "passes_in_row": lambda s: s.passes_in_row,
    "pursuit": lambda s: s.pursuit,
    "control": lambda s: s.control,
    "destroyed": lambda s: copy.deepcopy(s.destroyed),
    "result": lambda s: None if s.result is None else s.result.to_data(),
    "sealed": lambda s: {side: s.sealed.get(side) for side in SIDES},
    "to_face": lambda s: list(s.to_face),
    "to_place": lambda s: dict(s.to_place),
    "dice_commitments": lambda s: dict(s.dice_commitments),
    "square_commitments": lambda s: {side: dict(c) for side, c in s.square_commitments.items()},
    "pool": lambda s: copy.deepcopy(s.pool),
    "breaches": lambda s: list(s.breaches),
    "card_commitments": lambda s: copy.deepcopy(s.card_commitments),
    "labels_apart": lambda s: s.labels_apart,
}
# A field kept by side: one side's entry, as the view holds it (shown only to a seat that sees that side).
_ENTRY: dict[str, Callable[[GameState, str], Any]] = {
    "holding": _holding,
    "missions": lambda s, side: s.missions.get(side),
    "cards": _cards,
    "salts": lambda s, side: s.salts.get(side),
    "issued_kept": lambda s, side: None if side not in s.issued_kept else [dict(u) for u in s.issued_kept[side]],
    "blip_commitments": lambda s, side: None if side not in s.blip_commitments else dict(s.blip_commitments[side]),
}


def log_view(state: GameState, side: str | None, start: int = 0, stop: int | None = None) -> list[LogLine]:
    """The log entries from ``start`` up to ``stop`` (default: the last), as ``player_view(state, side)["log"]``
    holds them (``side`` None: the referee's whole truth; ``"spectator"``: the public text only, as ``public_view``
    holds it). A window that has shown the first entries asks only for the new ones, and for the few it shows: a long
    battle's log is not built again after every action."""
    if side is not None and side not in (*SIDES, "spectator"):
        raise ValueError(f"a log is read by side A, side B or the spectator (got {side!r})")
    return _log(state, side, start, stop)


def _log(state: GameState, viewer: str | None, start: int, stop: int | None = None) -> list[LogLine]:
    over = state.phase == "over"
    log: list[LogLine] = []
    for e in state.log[start:stop]:
        line: LogLine = {"round": e.round, "text": e.text, "explain": list(e.explain), "units": list(e.units)}
        if viewer is None:
            if e.private:
                line["private"] = dict(e.private)
        else:
            notes = [e.private[s] for s in SIDES if s in e.private and (over or s == viewer)]
            if notes:
                line["note"] = " / ".join(notes)
        log.append(line)
    return log


def _setup_view(state: GameState, sees: Callable[[str], bool]) -> SetupView | None:
    """Where set-up stands: the decision it waits for and whose it is, both factions and streaks, how many blips
    each side has still to place; the cards drawn and the units they issued only to their owner (A59)."""
    setup = state.setup
    if state.phase != "setup" or setup is None:
        return None
    queue = setup.queue
    now = queue[0] if queue else None
    return {
        "step": now["step"] if now else None,
        "side": now["side"] if now else None,
        "objective": now.get("objective") if now else None,
        "factions": dict(setup.factions),
        "streak": dict(setup.streak),
        "blips_to_place": {side: sum(1 for d in queue if d["step"] == "blip" and d["side"] == side) for side in SIDES},
        "issued": {side: (copy.deepcopy(setup.issued.get(side)) if sees(side) else None) for side in SIDES},
        "offered": {side: (copy.deepcopy(setup.offered.get(side)) if sees(side) else None) for side in SIDES},
    }


# A mixed field: its public part to every seat, each side's parts to a seat that sees that side (the log, which
# a caller may leave out, is made in ``_view``).
_MIXED: dict[str, Callable[[GameState, Sees], Any]] = {
    "blips": _blips,
    "setup": _setup_view,
}
