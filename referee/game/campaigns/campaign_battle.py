"""A campaign's battles played with the program: set-up under the campaign's rules, and the result taken from the
finished battle itself (p.31, A44, A45, A47).

* ``battle_choices`` gives the set-up of the next battle: each side's faction with its upgrades bought so far and
  the streak bonus on the attacker/defender roll (A47).
* ``record_from_state`` reads a finished battle's result (winner, margin level, Table control, objectives, VP) from
  the end-of-battle state; ``record_battle`` adds it to the campaign file, atomically, after checking that the
  campaign still adds up. The window and ``campaign battle FILE --save SAVE`` both go through it, so they write the
  same file for the same battle.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...authoring.faction_io import faction_to_toml
from ...rules.errors import InputError
from ...rules.factions import forget_factions
from ...storage import atomic_write_text, write_document
from .campaign import (
    BattleRecord,
    Campaign,
    CampaignStatus,
    Purchase,
    campaign_data,
    load_campaign,
    status,
)
from ..battle.cards import playing_deck
from ..players.computer.tech import TechPurchase, choose_purchases
from ..play.setup import SetupChoices
from ..battle.state import SIDES, GameState, ObjectiveState, as_side, other as other_side
from ..records.record import state_digest
from ..play.seal import canonical_json
from .campaign import TARGETS
from ... import paths
from ..records.record import read_save

if TYPE_CHECKING:
    from ..play.engine import Game
    from ..records.record import Save


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "campaign"


def battle_faction_id(c: Campaign, side: str, battle: int) -> str:
    """The id an upgraded faction plays battle ``battle`` under: unique to the campaign, the side and the battle,
    so an older battle's save keeps replaying with the stats it was fought with."""
    return f"{_slug(c.players[as_side(side)].faction)}-{_slug(c.name)}-{side.lower()}{battle}"


def campaign_faction_file(c: Campaign, side: str, battle: int) -> Path:
    """Upgraded copies live in the user's factions folder, where every battle (and every save's replay) finds them."""

    return paths.user_factions_dir() / f"{battle_faction_id(c, side, battle)}.toml"


def battle_factions(campaign_path: Path | str, c: Campaign, st: CampaignStatus) -> dict[str, str]:
    """Side -> the faction id the next battle is played with: the campaign's faction, or, once it has bought
    upgrades, a copy with them written to the factions folder under its own id (p.31, A45)."""
    n = len(c.battles) + 1
    out: dict[str, str] = {}
    for side in SIDES:
        faction = st.sides[side].faction
        own = c.players[as_side(side)].faction
        if faction is None or not faction.upgrades:
            out[side] = own if faction is None or faction.id == own else faction.id
            continue
        ident = battle_faction_id(c, side, n)
        assert faction is not None
        copy = faction.model_copy(update={"id": ident, "name": f"{faction.name} ({c.name}, battle {n})"})
        path = campaign_faction_file(c, side, n)
        try:
            atomic_write_text(path, faction_to_toml(copy))
        except OSError as e:
            raise InputError(str(path), f"cannot be written ({e.strerror or e})") from None
        forget_factions()
        out[side] = ident
    return out


def battle_choices(campaign_path: Path | str, c: Campaign, st: CampaignStatus) -> SetupChoices:
    """The set-up of the campaign's next battle: upgraded factions and each side's streak bonus (A47)."""
    if st.winner:
        raise InputError(str(campaign_path), f"the campaign is already won by side {st.winner}; no more battles")
    return SetupChoices(factions=battle_factions(campaign_path, c, st),
                        streak={side: st.streak_bonus(side) for side in SIDES})


def _objective_state(o: ObjectiveState) -> str:
    return "destroyed" if o.destroyed else o.control


def record_from_state(state: GameState, save: str | None = None, source: str = "battle") -> BattleRecord:
    """The campaign's record of a finished battle, from its end-of-battle state (p.16, p.~14, p.31)."""
    result = state.result
    if state.phase != "over" or not result:
        raise InputError(source, "the battle is not over yet: a campaign records a battle once the end-of-battle "
                                 "report is out [p.16]")
    if result.pending:
        raise InputError(source, "the attacker has not yet set the surviving objectives (Secured, Destroyed or "
                                 "Inspected) [p.16, A41]; finish the battle first")
    if result.missions_unknown:
        raise InputError(source, f"{result.headline or 'a mission was not entered'}: a campaign records a "
                                 f"battle with a result [p.~14, p.31]")
    # The result's words as the campaign file has them, checked by the record's own model (a pydantic model).
    level: Any = result.level
    winner: Any = result.winner
    control: Any = result.control
    return BattleRecord(
        winner=winner, level=level, control=control, save=save,
        vp={"A": int(result.vp["A"]), "B": int(result.vp["B"])}, margin=int(result.margin),
        attacker=None if state.attacker is None else as_side(state.attacker),
        objectives={oid: _objective_state(o) for oid, o in sorted(state.objectives.items())} or None,
        missions={as_side(s): m for s, m in sorted(state.missions.items())} or None,
    )


def played_streak(game: Game) -> dict[str, int] | None:
    """The winning streaks a battle was set up with (A47), from its state before set-up; None for a battle refereed
    at a physical table, which has no set-up in the program."""
    setup = game.initial.setup if game.initial.phase == "setup" else None
    if not setup:
        return None
    return {side: int(setup.streak.get(side, 0)) for side in SIDES}


def save_reference(campaign_path: Path | str, save_path: Path | str) -> str:
    """The save's path as the campaign file keeps it: relative to the campaign's folder when it is inside it."""
    campaign_dir = Path(os.path.abspath(Path(campaign_path).parent))
    save = Path(os.path.abspath(save_path))
    try:
        return save.relative_to(campaign_dir).as_posix()
    except ValueError:
        return save.as_posix()


def factions_match(c: Campaign, st: CampaignStatus, state: GameState, source: str) -> None:
    """A battle recorded in a campaign must have been fought by the campaign's factions (or their upgraded copies)."""
    problems = []
    for side in SIDES:
        used = {u.faction for u in state.units.values() if u.side == side}
        for contents in state.holding[side].squares.values():
            used.update(c_.faction for c_ in contents or [])
        for d in state.destroyed:
            if d.get("side") == side and d.get("faction"):
                used.add(d["faction"])
        expected = c.players[as_side(side)].faction
        stem = _slug(expected) + "-" + _slug(c.name) + "-" + side.lower()
        wrong = sorted(f for f in used if f != expected and not f.startswith(stem))
        if wrong:
            problems.append(f"side {side} fought as {', '.join(wrong)}, but the campaign's side {side} is {expected}")
    if problems:
        raise InputError(source, problems)


def battle_fingerprint(state: GameState) -> str:
    """What tells one battle from every other: its seals, made at set-up with each side's random salt, or, for a
    battle refereed at a physical table (no set-up in the program, no seals), its whole end-of-battle state."""

    if state.sealed:
        return hashlib.sha256(canonical_json(dict(sorted(state.sealed.items()))).encode("utf-8")).hexdigest()[:16]
    return state_digest(state)[:16]


def _recorded_already(c: Campaign, fingerprint: str, save: str | None) -> int | None:
    """The number of the battle already recorded as this one (by its fingerprint, or by its save for a battle
    recorded before fingerprints were kept), else None."""
    for n, b in enumerate(c.battles, 1):
        if b.battle == fingerprint or (b.battle is None and save is not None and b.save == save):
            return n
    return None


def streak_matches(st: CampaignStatus, setup_streak: dict[str, int] | None, source: str) -> None:
    """A battle set up in the program carries the streak bonus it was played under (A47): it must be the one the
    campaign gives its next battle, or the battle belongs to another campaign, or to none."""
    if setup_streak is None:
        return              # refereed at a physical table: the roll was made there, the program never saw it
    expected = {side: st.streak_bonus(side) for side in SIDES}
    played = {side: int(setup_streak.get(side, 0)) for side in SIDES}
    if played != expected:
        raise InputError(source, f"the battle was set up with winning streaks A {played['A']}, B {played['B']}, but "
                                 f"the campaign's next battle is played with A {expected['A']}, B {expected['B']} "
                                 f"[p.31, A47]: it is not this campaign's next battle")


def record_battle(campaign_path: Path | str, state: GameState, save_path: Path | str | None = None, *,
                  setup_streak: dict[str, int] | None = None) -> tuple[Campaign, CampaignStatus]:
    """Add the finished battle to the campaign file at once (atomically) and return the campaign as it now stands.
    A battle is recorded once; ``setup_streak``, the streaks it was set up with (``played_streak``), must be the
    campaign's."""
    path = Path(campaign_path)
    c, st = load_campaign(path)
    source = str(save_path) if save_path is not None else "battle"
    save = save_reference(path, save_path) if save_path is not None else None
    fingerprint = battle_fingerprint(state)
    again = _recorded_already(c, fingerprint, save)
    if again is not None:
        raise InputError(source, f"this battle is already recorded in the campaign as battle {again}; a battle is "
                                 f"recorded once")
    if st.winner:
        raise InputError(str(path), f"the campaign was already won by side {st.winner}; no battle is added")
    factions_match(c, st, state, source)
    streak_matches(st, setup_streak, source)
    record = record_from_state(state, save, source).model_copy(update={"battle": fingerprint})
    c = c.model_copy(update={"battles": [*c.battles, record]})
    new_status = status(c, path.parent, str(path))       # never write a campaign that does not add up
    write_document(path, campaign_data(c))
    return c, new_status


def computer_buys_upgrades(campaign_path: Path | str, side: str) -> list[TechPurchase]:
    """The computer played ``side`` in the campaign's last battle: it spends that side's banked tech points as a
    player would (``computer/tech.py``), recorded in the campaign file at once (atomically, after replaying the
    campaign to check it adds up). Nothing is bought once the campaign is won."""
    path = Path(campaign_path)
    c, st = load_campaign(path)
    if st.winner or not c.battles:
        return []
    me, them = st.sides[side], st.sides[as_side(other_side(side))]
    bought = choose_purchases(me.the_faction(), them.the_faction(), me.tech_points, playing_deck(),
                              battle=len(c.battles))
    if not bought:
        return []
    purchases = [Purchase.model_validate({"side": side, "rating": b.rating, "stat": b.stat,
                                          "after_battle": len(c.battles)}) for b in bought]
    c = c.model_copy(update={"purchases": [*c.purchases, *purchases]})
    status(c, path.parent, str(path))                 # never write a campaign that does not add up
    write_document(path, campaign_data(c))
    return bought


# ---- campaign files kept by the window ------------------------------------------------------------------------


def campaigns_dir() -> Path:

    return paths.user_data_dir() / "campaigns"


def start_campaign(name: str, length: str, factions: dict[str, str], players: dict[str, str] | None = None,
                   folder: Path | None = None) -> Path:
    """A new campaign file in the campaigns folder, named after the campaign; never over an existing one."""

    name = name.strip()
    problems = []
    if not name:
        problems.append("name: expected a name for the campaign")
    if length not in TARGETS:
        problems.append(f"length: expected one of {', '.join(TARGETS)} (got {length!r})")
    for side in SIDES:
        if not factions.get(side):
            problems.append(f"players.{side}.faction: choose a faction for side {side}")
    if problems:
        raise InputError("campaign", problems)
    path = (folder or campaigns_dir()) / f"{_slug(name)}.toml"
    if path.exists():
        raise InputError(str(path), f"a campaign named {name!r} already exists; continue it, or choose another name")
    players = players or {}
    c = Campaign.model_validate({"name": name, "length": length, "players": {
        s: {"name": players.get(s, "").strip(), "faction": factions[s]} for s in SIDES}})
    status(c, path.parent, str(path))
    write_document(path, campaign_data(c))
    return path


def campaign_files(folder: Path | None = None) -> list[Path]:
    folder = folder or campaigns_dir()
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def battle_save_path(campaign_path: Path | str, number: int) -> Path:
    """Where battle ``number`` of the campaign is saved: beside the campaign file."""
    p = Path(campaign_path)
    return p.with_name(f"{p.stem}-battle-{number}.json")


def result_save_path(campaign_path: Path | str) -> Path:
    """Where a campaign battle resumed from the autosave is saved when it ends: the campaign's next battle's save
    beside the campaign file (as the campaign screen names it), or, when the campaign file cannot be read (moved,
    deleted), a file of its own in the saves folder that no other battle's save is written over."""

    path = Path(campaign_path)
    try:
        c, _ = load_campaign(path)
    except InputError:
        c = None
    if c is not None:
        return battle_save_path(path, len(c.battles) + 1)
    folder = paths.saves_dir()
    n = 1
    while (folder / f"{path.stem}-battle-unrecorded-{n}.json").exists():
        n += 1
    return folder / f"{path.stem}-battle-unrecorded-{n}.json"


def unfinished_battle(campaign_path: Path | str, c: Campaign) -> Save | None:
    """The next battle's save when it was started and is not over (to be continued), else None."""

    path = battle_save_path(campaign_path, len(c.battles) + 1)
    if not path.is_file():
        return None
    try:
        save = read_save(path)
    except InputError:
        return None
    s = save.game.state
    return None if s.phase == "over" and not (s.result is not None and s.result.pending) else save
