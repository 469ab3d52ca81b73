"""A player view as text for the window and the command line: one line per piece (``hover_text``), the log
(``log_lines``), the table summary ``replay`` prints (``describe``) and a side's cards (``card_lines``).

These read a view (``view.player_view``), never the state, so a client holding only its seat's screen can use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .view_types import BlipView, Data, GroundView, LogLine, ObjectiveView, PlayerView, UnitView
from ..battle.cards import DEFAULT_INSPECTED_COUNTERS, DRONE_LINES, KIND_TITLES, bundled_deck, playing_deck

SIDES = ("A", "B")


# ---- text for the window and the command line ---------------------------------------------------------------


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def _contents_text(contents: list[Data] | None) -> str:
    if contents is None:
        return "contents not recorded"
    if not contents:
        return "a decoy"
    return ", ".join(f"{c['id']} ({c['type']})" for c in contents)


def _unit_text(u: UnitView) -> str:
    bits = [f"{u['id']} ({u['side']}, {u['type']}, {u['faction']} {u['rating']}) at ({_num(u['x'])}, {_num(u['y'])})"]
    if "facing" in u:
        bits.append(f"facing {_num(u['facing'])}°")
    tc = u.get("target_counters", 0)
    bits.append(f"{tc} Target counter{'s' if tc != 1 else ''}")
    for flag, word in (("damaged", "Damaged"), ("stunned", "Stunned"), ("jammer_on", "jammer on")):
        if u.get(flag):
            bits.append(word)
    bits.append("activation counter" if u.get("activation", True) else "no activation counter")
    return ", ".join(bits)


def _blip_text(b: BlipView) -> str:
    text = f"{b['id']} ({b['side']}, blip) at ({_num(b['x'])}, {_num(b['y'])})"
    if "square" in b:
        text += f", square {b['square']}: {_contents_text(b.get('contents'))}"
    else:
        text += ", contents unknown"
    return text + (", activation counter" if b.get("activation", True) else ", no activation counter")


def _objective_text(o: ObjectiveView) -> str:
    if o.get("destroyed"):
        return f"objective {o['id']} at ({_num(o['x'])}, {_num(o['y'])}): destroyed"
    control = "Contested" if o["control"] == "contested" else f"Secured by side {o['control']}"
    tc = o.get("target_counters", 0)
    return f"objective {o['id']} at ({_num(o['x'])}, {_num(o['y'])}): {control}, {tc} Target counter{'s' if tc != 1 else ''}"


def _ground_text(g: GroundView) -> str:
    tc = g["target_counters"]
    return (f"{g['id']}: the patch of ground at ({_num(g['x'])}, {_num(g['y'])}), {tc} Target "
            f"counter{'s' if tc != 1 else ''} [p.19, A54]")


FINGERPRINT_HEX = 16          # 64 bits: grinding an edited save to the same fingerprint takes about 2^63 hashes


def short_seal(value: str | None) -> str:
    """The seal's fingerprint: its first 16 hex digits (64 bits) in four groups of four, easy to copy down or
    photograph at set-up and compare at the end of the battle. Fewer bits could be ground back: an edited save
    sealed again and again until its fingerprint matched (32 bits took about 4 CPU-minutes)."""
    if not value:
        return "(not sealed)"
    return " ".join(value[i:i + 4] for i in range(0, FINGERPRINT_HEX, 4))


def view_unit(view: PlayerView, ident: str) -> UnitView | None:
    """The unit ``ident`` as the view shows it (None: no such unit on the table)."""
    return next((u for u in view["units"] if u["id"] == ident), None)


def view_blip(view: PlayerView, ident: str) -> BlipView | None:
    """The blip counter ``ident`` as the view shows it (its square and contents only to its owner)."""
    return next((b for b in view["blips"] if b["id"] == ident), None)


def view_objective(view: PlayerView, ident: str) -> ObjectiveView | None:
    return next((o for o in view["objectives"] if o["id"] == ident), None)


def hover_text(view: PlayerView, ident: str) -> str:
    """One line about a unit, blip or objective, from a player view (never from the state)."""
    for u in view["units"]:
        if u["id"] == ident:
            return _unit_text(u)
    for b in view["blips"]:
        if b["id"] == ident:
            return _blip_text(b)
    for o in view["objectives"]:
        if o["id"] == ident:
            return _objective_text(o)
    for g in view.get("ground", []):
        if g["id"] == ident:
            return _ground_text(g)
    return f"{ident}: not on the table"


def log_lines(view: PlayerView, last: int | None = None, explain: bool = False) -> list[str]:
    """The log as the view's player may read it: ``[round] text``, private notes in brackets."""
    return entries_lines(view["log"][-last:] if last else view["log"], explain)


def entries_lines(entries: Sequence[LogLine], explain: bool = False) -> list[str]:
    """Log entries (``log_view``) as their reader reads them: ``[round] text``, private notes in brackets."""
    out = []
    for e in entries:
        line = f"[round {e['round']}] {e['text']}"
        if e.get("note"):
            line += f"  (only you: {e['note']})"
        if e.get("private"):
            line += "  " + " ".join(f"(only {s}: {t})" for s, t in sorted(e["private"].items()))
        out.append(line)
        if explain:
            out.extend(f"    {x}" for x in e["explain"][1:] if x)
    return out


def describe(view: PlayerView, log: bool = True) -> list[str]:
    """The table summary ``replay`` prints: round, phase, every unit, blip and objective, then the log."""
    who = "the referee (whole truth)" if view["viewer"] == "referee" else f"side {view['viewer']}"
    lines = [f"{view['name']} -- as seen by {who}"]
    turn = view["turn"]
    status = f"round {view['round']}, phase {view['phase']}, side {view['initiative']} holds the Initiative"
    if turn:
        status += f"; side {turn['player']}'s turn"
        if turn["active"]:
            status += f", {turn['active']} is activating ({turn['actions_left']} action{'s' if turn['actions_left'] != 1 else ''} left)"
    if view["phase"] == "over":
        status += "; the table is " + ("Contested" if view["control"] is None else f"Controlled by side {view['control']}")
    lines.append(status)
    for side in SIDES:
        lines.append(f"side {side}:")
        mine = [u for u in view["units"] if u["side"] == side]
        blips = [b for b in view["blips"] if b["side"] == side]
        for u in mine:
            lines.append("  " + _unit_text(u))
        for b in blips:
            lines.append("  " + _blip_text(b))
        if not mine and not blips:
            lines.append("  nothing on the table")
        if view["missions"].get(side):
            lines.append(f"  mission card: {view['missions'][side]}")
        holding = view["holding"].get(side)
        if holding is not None:
            filled = [f"{n}: {_contents_text(c)}" for n, c in holding.items() if c != []]
            lines.append("  holding area: " + ("; ".join(filled) if filled else "empty"))
        if view["sealed"].get(side):
            lines.append(f"  seal: {view['sealed'][side]}")
    for o in view["objectives"]:
        lines.append(_objective_text(o))
    for g in view.get("ground", []):
        lines.append(_ground_text(g))
    if view["destroyed"]:
        lines.append("destroyed: " + ", ".join(f"{d['id']} ({d['side']})" for d in view["destroyed"]))
    if log:
        lines.append("log:")
        lines.extend("  " + line for line in log_lines(view))
    return lines


def card_lines(view: PlayerView, side: str) -> list[str] | None:
    """``side``'s mission, troop and drone cards as text, from a player view: the cards it names for that side (its
    own at any time; the opponent's only once the battle is over, when the view names them). None: hidden.

    The card texts are the deck's, which every player may read (``cards list``); only which cards a side drew is
    secret, and that comes from the view alone.
    """
    mission_id = (view.get("missions") or {}).get(side)
    cards = (view.get("cards") or {}).get(side)
    if mission_id is None and cards is None:
        return None
    # Lazy: the decks' file models (pydantic) load when a card is first shown, not with the window.
    from ...rules.errors import InputError

    decks = []
    try:
        decks.append(playing_deck())
    except InputError:
        pass                              # the user's own deck has a problem: the sample deck is still read
    decks.append(bundled_deck())

    def find(kind: str, ident: str) -> Any:
        for deck in decks:
            try:
                return getattr(deck, kind)(ident)
            except InputError:
                continue
        return None

    out: list[str] = []
    mission = find("mission", mission_id) if mission_id else None
    if mission_id and mission is None:
        out.append(f"Mission {mission_id}: not in this deck nor in the sample deck")
    elif mission is not None:
        out.append(f"Mission: {mission.title} ({KIND_TITLES[mission.kind]})")
        if mission.flavour.strip():
            out.append(f'"{mission.flavour.strip()}"')
        out.append("Round limit: " + (f"the battle ends after round {mission.round_limit} [A43]"
                                      if mission.round_limit else "none [A43]"))
        out.append("Victory Points:")
        out.extend(f"  {r.describe()}" for r in mission.vp_rules)
        if mission.inspected_counters != DEFAULT_INSPECTED_COUNTERS:
            out.append(f"Objectives are Inspected at {mission.inspected_counters} Target counters [A41]")
    cards = cards or {}
    troop_id, drone_id = cards.get("troop"), cards.get("drone")
    troop = find("troop", troop_id) if troop_id else None
    if troop is not None:
        letter = cards.get("line") or (mission.troop_line if mission is not None else "A")
        line = troop.line(letter)
        out.append(f"Troop card: {troop.title}, line {letter}: {line.describe()}; drone line {line.drone_line}")
    elif cards.get("troop"):
        out.append(f"Troop card {cards['troop']}: not in this deck nor in the sample deck")
    drone = find("drone", drone_id) if drone_id else None
    if drone is not None:
        letter = cards.get("drone_line") or ""
        chosen = f", line {letter}: {drone.line(letter).describe()}" if letter in DRONE_LINES else ""
        out.append(f"Drone card: {drone.title}{chosen}")
    elif cards.get("drone"):
        out.append(f"Drone card {cards['drone']}: not in this deck nor in the sample deck")
    return out
