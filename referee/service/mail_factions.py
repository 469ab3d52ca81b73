"""The factions a battle by e-mail is fought with, carried in its file.

Each computer resolves every action again with its own faction files, so both must play the same stats. A faction
the other player has never seen (one they made themselves, or a campaign's upgraded copy, ``<faction>-<campaign>-
<side><battle>``) would stop the battle on the other computer, and a faction file of the same id that differs would
resolve the same action into other dice and outcomes there. So the file carries each faction of the battle as its
faction file holds it (``factions``), and a side's computer takes the file only when its own factions agree:

* a faction it does not have is checked by the creation and upgrade rules (p.30-31, A45, A46) and added to its
  user's factions folder, where every later trip, replay and report finds it; the player is told;
* a faction it has under the same id must play the same (every rating's stats, upgrades and all): else the file is
  refused, naming the file on this computer and the lines that differ, and nothing is written. Its name, colours and
  lore may differ: they change no roll, and each computer shows its own.

The carried factions are public, as the factions are at the table; an upgraded faction's purchases are checked by the
rules, but only the campaign file (on its owner's computer) says they were paid for.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..authoring.faction_io import faction_problems, save_faction
from ..rules.errors import InputError
from ..rules.factions import Faction, faction_files, forget_factions, get_faction
from ..rules.stats import RATING_TITLES, RATINGS
from .session import BattleSession


def battle_faction_ids(session: BattleSession) -> list[str]:
    """The ids of the factions the battle is fought with, as its first state names them."""
    setup = session.game.initial.setup
    return sorted(set(setup.factions.values())) if setup is not None else []


def faction_ids_of(doc: dict[str, Any]) -> dict[str, str]:
    """Each side's faction id, as the battle file ``doc``'s first state names them (a broken first state is left to
    the save's own checks)."""
    setup = ((doc.get("battle") or {}).get("initial") or {}).get("setup")
    named = setup.get("factions") if isinstance(setup, dict) else None
    return {str(k): v for k, v in named.items() if isinstance(v, str)} if isinstance(named, dict) else {}


def faction_ids_in(doc: dict[str, Any]) -> list[str]:
    """The ids of the factions the battle file ``doc`` is fought with."""
    return sorted(set(faction_ids_of(doc).values()))


def carried_factions(session: BattleSession) -> dict[str, dict[str, Any]]:
    """Each faction of the battle as the file carries it: its faction file's data."""
    return {ident: get_faction(ident).model_dump(mode="json", by_alias=True) for ident in battle_faction_ids(session)}


@dataclass(frozen=True)
class Carried:
    """A faction the battle file carries, and this computer's file of the same id (None: it has none)."""

    faction: Faction
    here: Path | None


def _differences(here: Faction, carried: Faction) -> list[str]:
    """How this computer's faction plays otherwise than the file's, in the players' words: each stat line that
    differs (its name, colours, lore and the history of its upgrades change no roll)."""
    return [f"{RATING_TITLES[r]} {here.stats(r).short()} here, {carried.stats(r).short()} in the battle file"
            for r in RATINGS if here.stats(r) != carried.stats(r)]


def carried_in(doc: dict[str, Any], source: str) -> list[Carried]:
    """The factions the battle file ``doc`` carries, each checked by the rules and against this computer's file of
    the same id; the file must carry each faction of the battle. A file of an older program carries none, and is
    taken with this computer's own factions. Raises ``InputError`` naming what does not hold."""
    ids = faction_ids_in(doc)
    given = doc.get("factions")
    if given is None:
        return []
    if not isinstance(given, dict) or not all(isinstance(v, dict) for v in given.values()):
        raise InputError(source, "factions: expected each faction of the battle by its id, as its faction file "
                                 "holds it")
    missing = [i for i in ids if i not in given]
    if missing:
        raise InputError(source, f"factions: the battle's faction {', '.join(missing)} is not in the file")
    files = faction_files()
    out = []
    for ident in ids:
        faction, problems = faction_problems(given[ident], f"factions.{ident}")
        if faction is None:
            raise InputError(source, [f"factions.{ident}: {p}" for p in problems])
        if faction.id != ident:
            raise InputError(source, f"factions.{ident}.id: expected {ident!r} (got {faction.id!r})")
        here = files.get(ident)
        if here is not None:
            differs = _differences(get_faction(ident), faction)
            if differs:
                raise InputError(source, f"factions.{ident}: this computer's faction {ident} ({here}) is not the one "
                                         f"the battle is fought with ({'; '.join(differs)}). Both players must play "
                                         f"the same stats: move your file aside, or ask the other player which is "
                                         f"right")
        out.append(Carried(faction, here))
    return out


def missing_here(carried: list[Carried], source: str) -> None:
    """Refuse a file with a faction this computer does not have, saying how to add it (only a side's own turn at the
    file adds one: a look at it writes nothing)."""
    missing = [c.faction.id for c in carried if c.here is None]
    if missing:
        raise InputError(source, f"factions: the battle's faction {', '.join(missing)} is not on this computer; a "
                                 f"side's turn at the file (mail play, or Join a battle… in the window) adds it")


def take_factions(carried: list[Carried]) -> list[tuple[Path, str]]:
    """The carried factions this computer did not have, written to its user's factions folder: each file written and
    what to tell the player of it. A file that cannot be written raises ``InputError`` naming it."""
    added = []
    for c in carried:
        if c.here is None:
            path = save_faction(c.faction)
            added.append((path, f"the battle's faction {c.faction.name} ({c.faction.id}) was added to your factions "
                                f"({path.name})"))
    return added


def give_back(added: list[tuple[Path, str]]) -> None:
    """The factions ``take_factions`` added, taken out again: the file that brought them was refused."""
    for path, _told in added:
        path.unlink(missing_ok=True)
    forget_factions()
